/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * Shared by the test files of the TestSuite "tagger-itsy"
 * (itsy-test-suite.cc, itsy-recovery-test.cc): the hand-built scenarios
 * (a ring of four switches, a diamond) run with ITSY on and the oracle
 * watching, and what a run saw.
 */

#ifndef TAGGER_ITSY_TEST_UTIL_H
#define TAGGER_ITSY_TEST_UTIL_H

#include "pfc-switch-test-util.h"

#include "ns3/itsy-detector.h"
#include "ns3/pfc-deadlock-oracle.h"
#include "ns3/test.h"

#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace ns3
{
namespace tagger
{
namespace test
{

/// What a scenario run saw.
struct ItsyOutcome
{
    bool oracleDeadlock = false;                                    //!< the oracle saw a cycle
    Time formed;                                                    //!< first cycle's formation
    std::set<std::tuple<uint32_t, uint32_t, uint8_t>> oracleQueues; //!< queues of its cycles
    std::vector<ItsyDetector::Declaration> declarations;            //!< ITSY's
    std::vector<ItsyDetector::Declaration> breaks;                  //!< Break trace, in time order
    std::vector<PfcDeadlockOracle::Deadlock> formations;            //!< the oracle's, in time order
    std::set<Time> pauseDecisions;    //!< times of the switches' MMU PAUSE decisions
    std::string printed;              //!< ItsyHelper::PrintDeclarations
    uint32_t r0Id = 0;                //!< node id of topology node 0 (R0 in the rings)
    bool confirmsUnknown = false;     //!< oracle Confirms a queue of no switch
    bool confirmsFirst = false;       //!< ... the first formation's queues, formed by its time
    uint64_t middles = 0;             //!< Lemma 3 episodes
    uint64_t triggers = 0;            //!< initial triggers
    uint64_t recoveryDrops = 0;       //!< frames the detectors' Break dropped
    uint64_t switchRecoveryDrops = 0; //!< itsy-recovery drops the switches counted
    uint64_t losslessDrops = 0;       //!< lossless-overflow drops (PFC failed)
    uint64_t received = 0;            //!< UDP packets the sinks received
    uint32_t xNode = 0;               //!< node id of X (or of the storming host)
};

/// The ring's variants.
enum class RingMode
{
    ON_LOOP,     //!< overloaded ring: a ring switch is the initial trigger
    OUT_OF_LOOP, //!< underloaded ring, switch X off the ring (1 Gbps host) triggers
    PAUSING_HOST //!< underloaded ring, host HX on R2 draining at 1 Gbps a RoCE flow from H1
};

/// Common set-up: 40 Gbps, class 3 lossless, static Xoff/Xon. \param net the network
void ConfigureNet(PfcTopologyHelper& net);

/**
 * Turn ITSY on, watch with the oracle (every 10 us), run until \p stop.
 * \param net the built network \param traffic its flows \param stop end
 * \param recovery ItsyDetector::Recovery (None, Break, Trigger) \return outcome
 */
ItsyOutcome RunAndCollect(PfcTopologyHelper& net,
                          Traffic& traffic,
                          Time stop,
                          const std::string& recovery);

/**
 * A ring R0 -> R1 -> R2 -> R3 -> R0 (port 0 host, 1 next, 2 previous, 3
 * to X or HX), each host sending two hops clockwise until 2 ms; run 3 ms.
 * \param mode the variant \param recovery ItsyDetector::Recovery \return outcome
 */
ItsyOutcome RunRing(RingMode mode, const std::string& recovery);

/// \return a TestCase of recovery (Break, or Trigger) on the ring \param trigger Trigger
/// \param mode PAUSING_HOST (a host trigger) or OUT_OF_LOOP (a switch trigger)
TestCase* MakeItsyRecoveryTestCase(bool trigger, RingMode mode);
/// \return the TestCase of rings with long round trips (test/pfc/itsy-long-loop-test.cc)
TestCase* MakeItsyLongLoopTestCase();
/// \return the TestCase of the oracle's formations (test/pfc/itsy-long-loop-test.cc)
TestCase* MakeOracleFormationsTestCase();
/// \return the TestCase of Break once per loop episode (test/pfc/itsy-long-loop-test.cc)
TestCase* MakeItsyBreakOnceTestCase();
/// \return the TestCase of recovery ending lossless (test/pfc/itsy-long-loop-test.cc)
TestCase* MakeItsyRecoveryLosslessTestCase();
/// \return the fuzz subset on every kind of network (test/pfc/itsy-fuzz-any-topology-test.cc)
TestCase* MakeItsyFuzzAnyTopologyTestCase();
/// \return a TestCase of the PFC watchdog (a storming host on a line)
TestCase* MakeWatchdogTestCase();
/// \return a TestCase of RdmaRxBuffer: a slow receiver (storm false) or a PFC storm
TestCase* MakeRxBufferTestCase(bool storm);

} // namespace test
} // namespace tagger
} // namespace ns3

#endif /* TAGGER_ITSY_TEST_UTIL_H */
