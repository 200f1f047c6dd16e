/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * The ns-3 TestSuite "tagger-ttl" (./test.py -s tagger-ttl): the TTL scheme's
 * data plane (TtlClassifier in the switches, installed by TtlHelper), tested
 * by the data-plane fuzz in TTL mode: 30 seeded runs of random link failures
 * (local reroute), random RoCE flows and an incast on a k = 4 fat tree, with
 * Ttl0 from the routes the failures can create; no deadlock, no lossless
 * drop, no lossy drop, every packet accounted for.  The fuzz lives in
 * tagger-dataplane-fuzz-test.cc; tagger-classifier plays the same scenarios
 * with Tagger, tagger-pfc-switch with plain PFC, which deadlocks.
 * The scenario runs with TTL are in tagger-scenarios.
 */

#include "pfc-test-util.h"

#include "ns3/test.h"

using namespace ns3;

/**
 * \ingroup tagger-tests
 * The TestSuite "tagger-ttl": the TTL scheme's data plane.
 */
class TaggerTtlTestSuite : public TestSuite
{
  public:
    TaggerTtlTestSuite()
        : TestSuite("tagger-ttl", Type::UNIT)
    {
        AddTestCase(MakeDataplaneFuzzTestCase(DataplaneFuzzMode::TTL));
    }
};

/// Static instance: registers the suite with the test runner.
static TaggerTtlTestSuite g_taggerTtlTestSuite;
