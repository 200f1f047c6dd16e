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
 * The suites of test/pfc and their files:
 *  - tagger-mmu:        switch-mmu-test-suite.cc, switch-mmu-threshold-test.cc,
 *                       switch-mmu-reference-test.cc (switch-mmu-test-util.h);
 *  - tagger-pfc-device: pfc-device-test-suite.cc, pfc-header-test.cc,
 *                       pfc-scheduler-test.cc;
 *  - tagger-pfc-switch: pfc-switch-test-suite.cc, pfc-relay-test.cc, and the
 *                       data-plane fuzz in plain PFC mode;
 *  - tagger-classifier: tagger-classifier-test-suite.cc (which also holds
 *                       the data-plane fuzz);
 *  - tagger-ttl:        ttl-classifier-test-suite.cc (the fuzz in TTL mode).
 */

#ifndef TAGGER_PFC_TEST_UTIL_H
#define TAGGER_PFC_TEST_UTIL_H

#include "ns3/test.h"

#include <cstdint>
#include <vector>

/// \return the PfcHeader / EthernetDot1qHeader cases (pfc-header-test.cc)
std::vector<ns3::TestCase*> MakePfcHeaderTestCases();
/// \return the egress scheduler cases (pfc-scheduler-test.cc)
std::vector<ns3::TestCase*> MakePfcSchedulerTestCases();
/// \return the relay server case (pfc-relay-test.cc)
std::vector<ns3::TestCase*> MakePfcRelayTestCases();

/// The data plane a run of the data-plane fuzz plays (tagger-classifier-test-suite.cc).
enum class DataplaneFuzzMode : uint8_t
{
    TAGGER = 0, //!< Tagger, Clos rules: shortest + 1-bounce (2 lossless tags)
    TTL,        //!< TTL priorities (the TTL scheme)
    PFC,        //!< plain PFC, one lossless class
};

/**
 * The data-plane fuzz (tagger-classifier-test-suite.cc): the same 30 seeded
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
