/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * The ns-3 TestSuite "tagger-roce" (./test.py -s tagger-roce inside an ns-3
 * tree, tagger-test-runner --suite=tagger-roce in the standalone build): the
 * RoCEv2 side of the module.  Its test cases live in the files of test/roce/:
 *  - roce-header-test-suite.cc: BTH, AETH and ICRC bytes, by hand from the
 *    InfiniBand specification;
 *  - roce-frame-test-suite.cc: whole RoCEv2 frames, by hand and decoded by
 *    tshark (skipped when it is not installed);
 *  - rdma-workload-test-suite.cc: the shipped flow-size distributions and the
 *    Poisson flow generator;
 *  - rdma-workload-parse-test-suite.cc: reading CDF text and flow files;
 *  - rdma-test-suite.cc: the RoCEv2 host (RdmaNic) on PFC networks;
 *  - rdma-packet-account-test.cc: where every data packet went (RdmaPacketAccount).
 */

#include "ns3/test.h"

#include <vector>

using namespace ns3;

/// \return the RoCE header test cases (test/roce/roce-header-test-suite.cc)
std::vector<TestCase*> MakeRoceHeaderTestCases();
/// \return the RoCE frame test cases (test/roce/roce-frame-test-suite.cc)
std::vector<TestCase*> MakeRoceFrameTestCases();
/// \return the flow distribution and generator test cases (test/roce/rdma-workload-test-suite.cc)
std::vector<TestCase*> MakeRdmaWorkloadTestCases();
/// \return the CDF-text and flow-file test cases (test/roce/rdma-workload-parse-test-suite.cc)
std::vector<TestCase*> MakeRdmaWorkloadParseTestCases();
/// \return the RoCEv2 host test cases (test/roce/rdma-test-suite.cc)
std::vector<TestCase*> MakeRdmaTestCases();
/// \return the packet accounting test cases (test/roce/rdma-packet-account-test.cc)
std::vector<TestCase*> MakeRdmaPacketAccountTestCases();
/// \return the congestion control test cases (test/roce/rdma-cc-test-suite.cc)
std::vector<TestCase*> MakeRdmaCcTestCases();

/**
 * \ingroup tagger-tests
 * The tagger-roce TestSuite.
 */
class TaggerRoceTestSuite : public TestSuite
{
  public:
    TaggerRoceTestSuite()
        : TestSuite("tagger-roce", Type::UNIT)
    {
        for (auto make : {&MakeRoceHeaderTestCases,
                          &MakeRoceFrameTestCases,
                          &MakeRdmaWorkloadTestCases,
                          &MakeRdmaWorkloadParseTestCases,
                          &MakeRdmaTestCases,
                          &MakeRdmaPacketAccountTestCases,
                          &MakeRdmaCcTestCases})
        {
            for (TestCase* tc : make())
            {
                AddTestCase(tc);
            }
        }
    }
};

/// Static instance: registers the suite with the test runner.
static TaggerRoceTestSuite g_taggerRoceTestSuite;
