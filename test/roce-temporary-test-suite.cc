/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * TEMPORARY: registers the RoCEv2 host cases of test/rdma-test-suite.cc
 * (MakeRdmaTestCases()) as the TestSuite "tagger-roce", so that none of them
 * is lost now that the single suite "tagger" is gone.  The RoCE tests move to
 * test/roce/, which defines "tagger-roce" itself: delete this file (and its
 * line in CMakeLists.txt and wscript) then.  CMakeLists.txt stops with an
 * error when two files define the same suite.
 */

#include "ns3/test.h"

#include <vector>

using namespace ns3;

/// \return the RoCEv2 host test cases (test/rdma-test-suite.cc)
std::vector<TestCase*> MakeRdmaTestCases();

/**
 * \ingroup tagger-tests
 * The TestSuite "tagger-roce" (temporary home, see the file comment).
 */
class TaggerRoceTemporaryTestSuite : public TestSuite
{
  public:
    TaggerRoceTemporaryTestSuite()
        : TestSuite("tagger-roce", UNIT)
    {
        for (TestCase* tc : MakeRdmaTestCases())
        {
            AddTestCase(tc, TestCase::QUICK);
        }
    }
};

/// Static instance: registers the suite with the test runner.
static TaggerRoceTemporaryTestSuite g_taggerRoceTemporaryTestSuite;
