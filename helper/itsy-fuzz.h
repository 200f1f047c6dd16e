/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef ITSY_FUZZ_H
#define ITSY_FUZZ_H

#include "ns3/nstime.h"

#include <array>
#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup tagger
 * A seeded fuzz of ITSY on rings, 2-D tori, Jellyfish and k = 4 fat trees,
 * every run checked against the deadlock oracle.
 */

namespace ns3
{

/// One fuzz run: which network (kind) and which draw of it (seed).
struct ItsyFuzzConfig
{
    uint32_t seed = 1;             //!< everything random in the run comes from it
    std::string kind = "ring";     //!< ring, torus, jellyfish or fattree
    std::string recovery = "none"; //!< none, break or trigger (ItsyDetector::Recovery)
};

/// What one fuzz run saw.
struct ItsyFuzzResult
{
    /// What the oracle saw over the run.
    enum Outcome
    {
        CLEAN,      //!< no cycle at any time
        TRANSIENT,  //!< cycles, none at the end (with a recovery: none declared either)
        DEADLOCKED, //!< a cycle at the end (with a recovery: or a declaration)
    };

    ItsyFuzzConfig config;     //!< what ran
    std::string description;   //!< the network, its draws and flows (one line)
    Outcome outcome = CLEAN;   //!< see Outcome
    Time probeInterval;        //!< ItsyDetector::ProbeInterval drawn
    Time end;                  //!< when the run ended
    uint32_t switches = 0;     //!< switches of the network
    uint32_t flows = 0;        //!< RoCE flows
    uint32_t oracleCycles = 0; //!< distinct cycles the oracle recorded
    uint32_t endCycles = 0;    //!< oracle cycles at the end
    uint32_t declarations = 0; //!< ITSY declarations
    /// declarations whose loop was no oracle cycle at its detection nor at
    /// the declaration (ItsyHelper::Confirms)
    uint32_t falsePositives = 0;
    /// declarations whose loop was a cycle at its detection and no longer at
    /// the declaration (a port resumed after the temporal check passed it)
    uint32_t dissolved = 0;
    uint32_t falseNegatives = 0; //!< end cycles not declared within their bound
    /// false negatives whose queues a declaration named before the cycle's
    /// formation (an earlier formation of the loop was declared)
    uint32_t falseNegativesDeclaredBefore = 0;
    bool delayMeasured = false; //!< a detection delay was measured (the fields below)
    Time formed;                //!< the formation of the cycle declared
    Time delay;                 //!< its first declaration - formation
    Time bound;                 //!< its bound: ProbeInterval + 8 round trips of the cycle
    /// recovery: new episodes, i.e. declarations of loops detected after the
    /// oracle saw every cycle gone (several initiators of one episode count once)
    uint32_t recurrences = 0;
    uint32_t recurrencesSameTrigger = 0; //!< those whose initial trigger was declared before
    bool cleared = false;       //!< recovery: the oracle saw every cycle gone after a declaration
    uint64_t losslessDrops = 0; //!< lossless-overflow drops (PFC failed)
    uint64_t recoveryDrops = 0; //!< itsy-recovery drops
    uint64_t losslessBytesAtEnd = 0;   //!< lossless bytes in the switches at the end
    std::vector<std::string> failures; //!< each false positive or negative, explained
};

/**
 * \ingroup tagger
 * A seeded fuzz of ITSY (ItsyDetector) against PfcDeadlockOracle.  A seed
 * draws, with std::mt19937_64 (no ns-3 random stream, and no ECN marks,
 * which would draw one: a run gives the same result alone or after
 * others), for its kind:
 *
 * - the network: a ring of 3 to 12 switches; a 3x3, 3x4 or 4x4 torus; a
 *   Jellyfish of 8 to 14 switches with 3 or 4 switch ports
 *   (tagger::MakeJellyfish); a k = 4 fat tree; one host per switch (the fat
 *   tree's 16), 40 Gbps links (class 3 lossless, static Xoff 40 KB / Xon
 *   20 KB, RoCE without DCQCN) whose delays are all one value from 0 to
 *   20 us, or each its own value up to it;
 * - ProbeInterval, log-uniform from 10 us to 1 ms;
 * - bad routes: a cycle of switches (the ring clockwise, a torus row or
 *   column one way round, or a random simple cycle) and flows pinned along
 *   it, each over two or three of its links and on to the first switch
 *   with hosts (a source off the cycle reaches it by a shortest path), from
 *   every position of the cycle or from a random half of them (gaps),
 *   their hosts' links at 40, 25 or 10 Gbps (a loop that is filled or not);
 *   in half the runs each source also sends one hop along the cycle (exits:
 *   frames that leave the loop, so that a cycle of waits may dissolve); on
 *   a torus or Jellyfish, in a quarter of the runs, a routing loop of three
 *   switches (two without a triangle) for one host (SetRoute) instead;
 * - flows on the ECMP routes between random hosts, of 50 KB to 2 MB;
 * - in a third of the runs a slow receiver: a host whose NIC drains at 1,
 *   2 or 5 Gbps (RdmaRxBuffer; half of them recover at a random time), or
 *   whose link runs at 1, 5 or 10 Gbps, fed by one or two persistent flows
 *   (a trigger off the loop);
 * - the pinned flows persistent, or (a quarter of the runs) of 100 KB to
 *   1 MB; every flow starts in the first 400 us, every sender stops
 *   between 0.8 and 1.6 ms.
 *
 * The run lasts until 0.4 ms after the senders stop; with a recovery, on
 * until no lossless byte is left in a switch (or none has left for 20 ms);
 * then on while a cycle the oracle sees was formed less than its bound
 * before and is not declared (until the bound has passed).  The oracle
 * checks every 5 us.
 *
 * Criteria, on the oracle's Deadlock fields (cycle, formed, detected):
 * - a declaration is a false positive when one of its queues is on no
 *   cycle the oracle finds at the declaration.  With a recovery, another
 *   initiator's recovery may have broken the loop while the temporal check
 *   went round: a cycle through every declared queue that the oracle found
 *   (traced, or at a declaration) in the same episode (since it last saw
 *   no cycle before the loop's detection) and that formed by the
 *   declaration confirms it;
 * - a cycle at the end is a false negative unless a declaration sharing a
 *   queue with it came from its formation to its formation + Bound(), with
 *   the bound ProbeInterval + 8 round trips of the cycle (per link: its
 *   delay + 250 ns, a control frame and a data frame ahead of it at
 *   40 Gbps; ITSY's detection bound);
 * - the detection delay of a run: of its earliest-formed declared cycle at
 *   the end, first declaration - formation; with a recovery (no cycle
 *   left), the first declaration - the formation of the oracle's cycle it
 *   named;
 * - with a recovery, a recurrence is a declaration of a loop detected after
 *   the oracle (checking every 10 us from a declaration on) saw every cycle
 *   gone: one per new episode.
 */
class ItsyFuzz
{
  public:
    /// \param cfg what to run \return what it saw
    static ItsyFuzzResult Run(const ItsyFuzzConfig& cfg);
    /// \return the kinds of network: ring, torus, jellyfish, fattree
    static const std::vector<std::string>& Kinds();
    /**
     * The kind of run \p seed of a set: \p filter itself, or with "all"
     * Kinds()[seed % 4].
     * \param filter all or a kind \param seed the seed \return the kind
     */
    static std::string KindOf(const std::string& filter, uint32_t seed);
    /**
     * ProbeInterval + 8 round trips of a loop.
     * \param probe ProbeInterval \param linkDelays the loop's link delays
     * \return the bound
     */
    static Time Bound(Time probe, const std::vector<Time>& linkDelays);
};

/**
 * \ingroup tagger
 * Counts over fuzz runs: runs by kind and outcome, false positives and
 * negatives, the detection delays, recurrences and drops.
 */
class ItsyFuzzSummary
{
  public:
    /// Count a run. \param r its result
    void Add(const ItsyFuzzResult& r);
    /**
     * Print the counts, the delay distribution (min, median, 90th
     * percentile, max; in us and as fractions of each run's bound) and each
     * failure, then the line RESULT runs= deadlocked= clean= transient=
     * false_positives= false_negatives= delay_us_median= delay_us_p90=
     * delay_us_max= lossless_drops= recurrences= recovery_failures=
     * (recovery_failures: runs with a recovery left a cycle or undrained
     * lossless bytes at the end).
     * \param os stream
     */
    void Print(std::ostream& os) const;

    uint32_t runs = 0; //!< runs counted
    /// per kind: runs by outcome (ItsyFuzzResult::Outcome)
    std::map<std::string, std::array<uint32_t, 3>> byKind;
    uint32_t deadlocked = 0;                   //!< DEADLOCKED runs
    uint32_t clean = 0;                        //!< CLEAN runs
    uint32_t transient = 0;                    //!< TRANSIENT runs
    uint32_t falsePositives = 0;               //!< over the runs
    uint32_t dissolved = 0;                    //!< over the runs (ItsyFuzzResult)
    uint32_t falseNegatives = 0;               //!< over the runs
    uint32_t falseNegativesDeclaredBefore = 0; //!< over the runs (ItsyFuzzResult)
    uint64_t losslessDrops = 0;                //!< over the runs
    uint64_t recoveryDrops = 0;                //!< over the runs
    uint32_t recurrences = 0;                  //!< over the runs
    uint32_t recurrencesSameTrigger = 0;       //!< over the runs (ItsyFuzzResult)
    uint32_t runsWithRecurrence = 0;           //!< runs with a recurrence
    uint32_t recoveryFailures = 0;             //!< recovery runs left deadlocked or undrained
    std::vector<double> delaysUs;              //!< detection delays (us)
    std::vector<double> delayFractions;        //!< each delay / its run's bound
    std::vector<std::string> failures;         //!< "kind seed: what"
};

} // namespace ns3

#endif /* ITSY_FUZZ_H */
