/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * Shared by the ns-3 test files of test/pfc: the test cases one file adds to
 * a TestSuite another file defines.  (The death checks, CheckFatalError,
 * are in ../tagger-test-helpers.h.)
 *
 * The suites of test/pfc and their files (each suite is defined in the
 * first file named; the fixtures a suite's files share are in the header
 * in parentheses):
 *  - tagger-mmu:        switch-mmu-test-suite.cc, switch-mmu-threshold-test.cc,
 *                       switch-mmu-reference-test.cc (switch-mmu-test-util.h);
 *  - tagger-pfc-device: pfc-device-test-suite.cc, pfc-device-pause-test.cc,
 *                       pfc-device-link-test.cc (pfc-device-test-util.h),
 *                       pfc-header-test.cc, pfc-scheduler-test.cc;
 *  - tagger-pfc-switch: pfc-switch-test-suite.cc, pfc-switch-routing-test.cc,
 *                       pfc-switch-ttl-test.cc (pfc-switch-test-util.h),
 *                       pfc-relay-test.cc, pfc-route-table-test.cc, and the
 *                       data-plane fuzz in plain PFC mode;
 *  - tagger-classifier: tagger-classifier-test-suite.cc,
 *                       tagger-egress-tag-test.cc, tagger-dataplane-fuzz-test.cc
 *                       (tagger-dataplane-test-util.h), the last holding the
 *                       data-plane fuzz of every mode;
 *  - tagger-ttl:        ttl-classifier-test-suite.cc (the fuzz in TTL mode).
 */

#ifndef TAGGER_PFC_TEST_UTIL_H
#define TAGGER_PFC_TEST_UTIL_H

#include "ns3/test.h"

#include <cstdint>
#include <vector>

/// \return the PfcNetDevice pause cases (pfc-device-pause-test.cc)
std::vector<ns3::TestCase*> MakePfcDevicePauseTestCases();
/// \return the link, pcap, Internet stack and hairpin cases (pfc-device-link-test.cc)
std::vector<ns3::TestCase*> MakePfcDeviceLinkTestCases();
/// \return the PfcHeader / EthernetDot1qHeader cases (pfc-header-test.cc)
std::vector<ns3::TestCase*> MakePfcHeaderTestCases();
/// \return the PfcFifo cases (pfc-fifo-test.cc)
std::vector<ns3::TestCase*> MakePfcFifoTestCases();
/// \return the PfcBlockPool cases (pfc-block-pool-test.cc)
std::vector<ns3::TestCase*> MakePfcBlockPoolTestCases();
/// \return the flagged trace cases (pfc-flagged-trace-test.cc)
std::vector<ns3::TestCase*> MakePfcFlaggedTraceTestCases();
/// \return the event scheduler cases (tagger-wheel-scheduler-test.cc)
std::vector<ns3::TestCase*> MakeTaggerWheelSchedulerTestCases();
/// \return the egress scheduler cases (pfc-scheduler-test.cc)
std::vector<ns3::TestCase*> MakePfcSchedulerTestCases();
/// \return the TTL and routing drop, ECMP and ring cases (pfc-switch-routing-test.cc)
std::vector<ns3::TestCase*> MakePfcSwitchRoutingTestCases();
/// \return the shared PAUSE class and relay TTL cases (pfc-switch-ttl-test.cc)
std::vector<ns3::TestCase*> MakePfcSwitchTtlTestCases();
/// \return the relay server case (pfc-relay-test.cc)
std::vector<ns3::TestCase*> MakePfcRelayTestCases();
/// \return the compact FIB and route helper cases (pfc-route-table-test.cc)
std::vector<ns3::TestCase*> MakePfcRouteTableTestCases();
/// \return the bounce and egress-by-tag cases of Tagger (tagger-egress-tag-test.cc)
std::vector<ns3::TestCase*> MakeTaggerEgressTagTestCases();

/// The data plane a run of the data-plane fuzz plays (tagger-dataplane-fuzz-test.cc).
enum class DataplaneFuzzMode : uint8_t
{
    TAGGER = 0, //!< Tagger, Clos rules: shortest + 1-bounce (2 lossless tags)
    TTL,        //!< TTL priorities (the TTL scheme)
    PFC,        //!< plain PFC, one lossless class
};

/**
 * The data-plane fuzz (tagger-dataplane-fuzz-test.cc): the same 30 seeded
 * scenarios on a k = 4 fat tree, played in one mode.  Tagger and TTL must
 * never deadlock; plain PFC must deadlock in some run (which shows the
 * scenarios are hard enough for the other two).
 * \param mode the data plane
 * \return a new test case (the suite takes ownership)
 */
ns3::TestCase* MakeDataplaneFuzzTestCase(DataplaneFuzzMode mode);

/// \return the TaggerHelper::InstallFromJson verification case (tagger-helper-rules-file-test.cc)
ns3::TestCase* MakeRulesFileInstallTestCase();

#endif /* TAGGER_PFC_TEST_UTIL_H */
