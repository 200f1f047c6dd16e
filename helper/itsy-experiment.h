/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef ITSY_EXPERIMENT_H
#define ITSY_EXPERIMENT_H

#include "ns3/itsy-detector.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup tagger
 * ITSY's experiments on a k = 4 fat tree, checked against the deadlock oracle.
 */

namespace ns3
{

/// What to run.
struct ItsyExperimentConfig
{
    /// on-loop, out-of-loop, no-loop, transient, storm, or fuzz (random, by seed)
    std::string scenario = "on-loop";
    std::string recovery = "none"; //!< none, break or trigger (ItsyDetector::Recovery)
    bool itsy = true;              //!< ITSY on
    bool tagger = false;           //!< Tagger on (1-bounce up-down ELP; hosts send with tag 1)
    Time probeInterval = MicroSeconds(100); //!< ItsyDetector::ProbeInterval
    std::string delay = "1us";              //!< link propagation delay
    Time flowsStop = MilliSeconds(2);       //!< the senders stop
    Time stop = MilliSeconds(3);            //!< the run ends
    Time sample = MicroSeconds(50);         //!< throughput sampling period
    uint32_t seed = 1;                      //!< fuzz: the network and flows
    std::string pcap;                       //!< if set: pcap prefix for L1's ports
};

/// What a run saw.
struct ItsyExperimentResult
{
    std::string description;     //!< the set-up, several lines
    bool oracleDeadlock = false; //!< the oracle saw a cycle
    Time formed;                 //!< when the first oracle cycle formed (0: none)
    std::vector<ItsyDetector::Declaration> declarations; //!< every declaration
    /// With Recovery Break or Trigger, the loops broken (one break per loop
    /// episode, ItsyDetector::GetBreaks); else declarations more than 10 us
    /// apart (a loop declared by several initiators at once counts once)
    uint32_t episodes = 0;
    uint32_t falsePositives = 0;    //!< declarations naming a queue of no oracle cycle at that time
    uint32_t falseNegatives = 0;    //!< cycles at the end not declared within Bound()
    uint32_t endCycles = 0;         //!< oracle cycles present at the end
    uint64_t recoveryDrops = 0;     //!< frames ITSY's Break dropped
    Time watchdogFirst;             //!< the watchdog's first storm (0: none)
    uint64_t watchdogStorms = 0;    //!< storms the watchdogs detected
    uint64_t watchdogDrops = 0;     //!< frames they dropped
    uint64_t nicDrops = 0;          //!< storm, transient: packets H16's receive buffer dropped
    uint64_t loops = 0;             //!< causality loops detected (Lemma 1)
    uint64_t temporalFailed = 0;    //!< temporal checks that failed (Lemma 2)
    uint64_t piggybacked = 0;       //!< checking messages in PAUSE frames
    uint64_t synthesized = 0;       //!< synthesized ITSY frames
    std::vector<std::string> flows; //!< flow labels
    std::vector<double> sampleMs;   //!< sample times (ms)
    std::vector<std::vector<double>> gbps; //!< per flow, per sample: delivered Gbps
    std::vector<uint32_t> switchNodes;     //!< node ids of the switches (for names)
    std::vector<std::string> switchNames;  //!< their topology names
    std::string accounting;                //!< RdmaPacketAccount::Print: every data packet
    bool balanced = false;                 //!< RdmaPacketAccount::IsBalanced
};

/**
 * \ingroup tagger
 * ITSY on a k = 4 fat tree (T1..T8 edge, L1..L8 aggregation, S1..S4 core,
 * H1..H16; 40 Gbps, static Xoff 40 KB / Xon 20 KB on class 3, RoCE without
 * DCQCN).  Pod 0's four switches form the loop T1 -> L1 -> T2 -> L2 -> T1
 * when two failed links (L1-T1 and L2-T2's routes lost) bounce traffic:
 * the scenarios pin the bounced paths a local reroute installs.
 *
 * - on-loop: four flows round the pod-0 loop at 40 Gbps (two per link);
 * - out-of-loop: the same flows from 10 Gbps hosts, and H8 -> H16 across
 *   L2 -> T1 -> L1 -> S1 -> L7 -> T8, whose last link runs at 1 Gbps: T8 is
 *   the initial trigger, off the loop;
 * - storm: the same with H16's NIC draining at 1 Gbps (a host trigger);
 * - transient: as storm with loop flows 1 and 2 only (H5 -> H2 bounced at
 *   T2, H3 -> H1) and H16's NIC draining at 2 Gbps until 800 us, then at
 *   40 Gbps: the backlog released sweeps the loop, a causality loop closes
 *   (852 us) and a loop port resumes before its temporal check (Lemma 2)
 *   passes; nothing is declared and no cycle stays;
 * - no-loop (ITSY Fig. 4): H1 -> H15 over S1 and H3 -> H16 over S2 to T8's
 *   1 Gbps hosts: L1 hears T8's trigger from two ports, no loop;
 * - fuzz: by seed, random link failures (outside pod 0), a random subset
 *   of the loop flows at random rates and random other flows.
 *
 * The oracle checks the wait-for graph every 10 us and at each
 * declaration: a declaration is a false positive when one of its queues is
 * on no oracle cycle then, unless the oracle had recorded a cycle through
 * all of them formed by the loop's detection time (a recovery started by
 * another initiator may break the loop while a temporal check is on its
 * way); a cycle present at the end of a run without
 * recovery is a false negative unless a declaration shares a queue with it
 * within Bound() of its formation.
 */
class ItsyExperiment
{
  public:
    /// \param cfg what to run \return what it saw
    static ItsyExperimentResult Run(const ItsyExperimentConfig& cfg);
    /// \param cfg the configuration \return the detection bound: 2 ProbeInterval + 100 us
    static Time Bound(const ItsyExperimentConfig& cfg);
    /// Print the declarations with switch names. \param os stream \param r result
    static void PrintDeclarations(std::ostream& os, const ItsyExperimentResult& r);
    /**
     * Write the delivered rates (gnuplot data) and a gnuplot script that
     * plots them to <prefix>-rate.png: the rates (Gbps), and below each
     * flow's rate normalized to its own peak over the run (ITSY, Fig. 5).
     * \param r result \param prefix the files' prefix \param dat the .dat stream
     * \param plt the .plt stream
     */
    static void WriteRates(const ItsyExperimentResult& r,
                           const std::string& prefix,
                           std::ostream& dat,
                           std::ostream& plt);
    /// The counters, the memory figures and the declarations. \param os stream \param r result
    static void PrintSummary(std::ostream& os, const ItsyExperimentResult& r);
    /**
     * RESULT oracle_deadlock=<yes|no> itsy_declared=<yes|no> detection_us=<x|->
     * trigger=<node:port|-> recurrences=<n> formation_us=<x|-> recovery_drops=<n>
     * false_positives=<n> false_negatives=<n> watchdog_us=<x|->
     * watchdog_storms=<n> watchdog_drops=<n> loops_detected=<n>
     * temporal_rejected=<n> end_cycles=<n> nic_drops=<n> (recurrences:
     * loops broken after the first with an ITSY recovery (one break per
     * loop episode), storms after the first with the watchdog; 0 without recovery;
     * watchdog_us: its first storm after the formation; loops_detected and
     * temporal_rejected: causality loops (Lemma 1) and failed temporal checks
     * (Lemma 2) summed over the switches; end_cycles: oracle cycles at the
     * end; nic_drops: packets H16's receive buffer dropped, storm and
     * transient).
     * \param os stream \param cfg the configuration \param r result
     */
    static void PrintResultLine(std::ostream& os,
                                const ItsyExperimentConfig& cfg,
                                const ItsyExperimentResult& r);
    /// \param r result \param node node id \return its topology name
    static std::string NodeName(const ItsyExperimentResult& r, uint32_t node);
};

} // namespace ns3

#endif /* ITSY_EXPERIMENT_H */
