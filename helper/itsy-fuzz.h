/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger helpers (ns-3).
 */

#ifndef ITSY_FUZZ_H
#define ITSY_FUZZ_H

#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup tagger
 * ITSY against the deadlock oracle on seeded random networks of any shape.
 */

namespace ns3
{

/// One fuzz run.
struct ItsyFuzzConfig
{
    uint32_t seed = 1;             //!< fixes the network, the flows and the times
    std::string kind = "any";      //!< ring, torus, jellyfish, or any (by seed)
    std::string recovery = "None"; //!< ItsyDetector::Recovery: None, Break or Trigger
    Time stop = MilliSeconds(3);   //!< the run ends (the flows stop at 2 ms)
};

/// What a fuzz run saw.
struct ItsyFuzzResult
{
    std::string kind;              //!< ring, torus or jellyfish
    std::string description;       //!< the network, one line
    Time delay;                    //!< every link's delay
    Time probe;                    //!< ProbeInterval
    uint32_t loopSwitches = 0;     //!< switches on the loop the flows follow
    uint32_t formations = 0;       //!< oracle formations (recurrences included)
    uint32_t endCycles = 0;        //!< oracle cycles present at the end
    uint32_t declarations = 0;     //!< ITSY declarations
    uint32_t breaks = 0;           //!< loops broken (Recovery Break, Trigger)
    uint32_t falsePositives = 0;   //!< declarations of queues on no oracle cycle
    uint32_t falseNegatives = 0;   //!< end cycles not declared within the bound
    uint32_t recentCycles = 0;     //!< end cycles formed less than the bound before the stop
    std::vector<Time> delays;      //!< per end cycle: first declaration - formation
    Time bound;                    //!< the detection bound (Bound) for this loop
    uint64_t losslessDrops = 0;    //!< lossless-overflow drops (never allowed)
    uint64_t recoveryDrops = 0;    //!< itsy-recovery drops
    uint64_t losslessBytesEnd = 0; //!< lossless bytes still held at the end
};

/**
 * \ingroup tagger
 * A seeded ITSY fuzz (issue: ITSY on any topology).  A seed draws the
 * network (a ring of 3 to 12 switches, a 3x3 to 4x4 torus, or a Jellyfish
 * of 6 to 12 switches of degree 3 or 4; one host per switch; 40 Gbps),
 * every link's delay (0 to 20 us), ProbeInterval (10 us to 1 ms), a loop
 * of the switch graph (a random simple cycle), and flows: for each switch
 * of the loop, a RoCE flow pinned two hops along it (the bad routes that
 * make the loop's buffers depend on each other in a cycle), all of them or a
 * random subset, at a random host rate (10, 25 or 40 Gbps: below, at or
 * above what two flows on a 40 Gbps link need), plus random flows on the
 * shortest paths.  The senders stop at 2 ms.  With all loop flows and
 * enough rate the loop deadlocks; without, cycles may still form and
 * dissolve (transient) or never form.
 *
 * The verdicts (PfcDeadlockOracle every 5 us and at each declaration): a
 * declaration is a false positive when a declared queue is on no oracle
 * cycle then nor once the last PAUSE decided before it took effect; an
 * oracle cycle present at the end is a false negative unless a declaration
 * naming one of its queues came within Bound() of its formation (a cycle
 * formed less than Bound() before the stop is not judged: recentCycles).
 */
class ItsyFuzz
{
  public:
    /// \param cfg the run \return what it saw
    static ItsyFuzzResult Run(const ItsyFuzzConfig& cfg);
    /**
     * The stated detection bound: ProbeInterval + 8 laps, a lap being, per
     * link of the loop, its delay plus 250 ns (a control frame and the data
     * frame ahead of it at 40 Gbps).
     * \param switches loop length \param delay link delay \param probe ProbeInterval
     * \return the bound
     */
    static Time Bound(uint32_t switches, Time delay, Time probe);
};

} // namespace ns3

#endif /* ITSY_FUZZ_H */
