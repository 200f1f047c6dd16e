/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef TAGGER_EXPERIMENT_HELPER_H
#define TAGGER_EXPERIMENT_HELPER_H

#include "ns3/nstime.h"
#include "ns3/pfc-types.h"

#include <array>
#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

/**
 * \file
 * \ingroup tagger
 * The deadlock experiments of the Tagger paper's testbed (Tagger (ToN),
 * Section VIII-B: Figs. 10, 11 and 12), shared by the examples and the tests.
 */

namespace ns3
{

/**
 * \ingroup tagger
 * How the switches of an experiment handle lossless traffic.
 */
enum class TaggerExperimentMode : uint8_t
{
    PFC = 0, //!< plain PFC: one lossless class (3), no deadlock prevention
    TAGGER,  //!< Tagger rules for the ELP of shortest and 1-bounce paths (Tagger (ToN))
    TTL      //!< TTL priorities: every hop its own lossless class (the TTL scheme)
};

/**
 * \param mode a mode
 * \return its name: "pfc", "tagger" or "ttl"
 */
std::string TaggerExperimentModeName(TaggerExperimentMode mode);

/**
 * \param name "pfc", "tagger" or "ttl"
 * \param mode set to the mode named
 * \return false when \p name names no mode
 */
bool ParseTaggerExperimentMode(const std::string& name, TaggerExperimentMode& mode);

/**
 * \ingroup tagger
 * The set-up of one experiment run.  Time is scaled: the testbed's seconds
 * become milliseconds.  The defaults are those of the examples.
 */
struct TaggerExperimentConfig
{
    TaggerExperimentMode mode = TaggerExperimentMode::PFC; //!< deadlock prevention
    bool dcqcn = false;                                    //!< DCQCN on the RoCE NICs
    /// the NICs' congestion control (RdmaHelper::SetCongestionControl; "": RdmaNic's attribute)
    std::string cc = "dcqcn";
    uint32_t xoff = 50000;         //!< static PFC Xoff per ingress queue (bytes)
    uint32_t xon = 5000;           //!< static PFC Xon per ingress queue (bytes)
    std::string rate = "40Gbps";   //!< link rate
    std::string delay = "1us";     //!< link propagation delay
    Time start = MicroSeconds(10); //!< when the first flows start (absolute)
    /**
     * When the scenario's event happens, as an offset from \c start: the
     * green flow starts (clos-bounce), the bad route is installed (routing
     * loop), the routes change to the 1-bounce paths (pause propagation).
     */
    Time event = MilliSeconds(1);
    Time stop = MilliSeconds(6);            //!< when every sender stops (absolute)
    Time drain = MilliSeconds(10);          //!< time after the stop to let buffers drain
    Time sampleInterval = MicroSeconds(50); //!< rate sampling period
    Time tail = MilliSeconds(1);            //!< window before the stop for the reported rates
    bool cross = true;     //!< clos-bounce: also H2 -> H1 and H14 -> H13 (busy receivers)
    bool failLinks = true; //!< pause propagation: links L2-T1 and L3-T4 fail at the event
    std::string rulesFile; //!< tagger mode: a tagger-rules JSON file instead of computed rules
    /// Extra link failures, "A-B@ms[,C-D@ms...]" (e.g. "L1-S1@2"), times from the start of the run.
    std::string linkFailures;
    /// Link restorations, same format as linkFailures.
    std::string linkRestorations;
    /// Extra (bad) routes, "SW:HOST:NEXT@ms[,...]": at ms, SW sends HOST's traffic to NEXT.
    std::string badRoutes;
};

/**
 * \ingroup tagger
 * The rate of one sampled flow.
 */
struct TaggerFlowRates
{
    std::string label;        //!< e.g. "F2 H2->H16"
    std::string column;       //!< its column in the .dat file, e.g. "f2_gbps"
    std::vector<double> gbps; //!< one rate per sample (acknowledged payload, Gbps)
    double tailGbps = 0;      //!< mean of the samples in the tail window before the stop
    uint64_t ackedBytes = 0;  //!< payload acknowledged by the end of the run
    std::string path;         //!< its data path at the end of the run, e.g. "T1 L1 S2 L4 T4"
};

/**
 * \ingroup tagger
 * What an experiment run measured.
 */
struct TaggerExperimentResult
{
    std::string program; //!< example name, e.g. "tagger-routing-loop"
    TaggerExperimentMode mode = TaggerExperimentMode::PFC; //!< the mode run
    uint32_t classes = 0;                                  //!< lossless classes in use
    std::string description;                               //!< the set-up, several lines
    std::string counters;               //!< per-switch counters and the deadlock oracle's summary
    std::vector<double> sampleMs;       //!< sample times (ms)
    std::vector<TaggerFlowRates> flows; //!< the sampled flows
    std::array<uint64_t, kPfcDropReasons> drops{}; //!< data frames dropped, by reason
    uint64_t pauses = 0;                           //!< PAUSE decisions of all switches
    uint64_t undrainedBytes = 0; //!< lossless bytes still buffered after the drain period
    std::string accounting;      //!< RdmaPacketAccount::Print: where every data packet went
    bool balanced = false;       //!< RdmaPacketAccount::IsBalanced
    /// The oracle's cycles, each as its egress queues "switch->neighbour" (e.g. "L2->S1").
    std::vector<std::vector<std::string>> cycles;
    Time tail;  //!< the tail window used for tailGbps
    Time drain; //!< the drain period used

    /// \return a deadlock: the oracle found a cycle or lossless bytes never drained
    bool IsDeadlock() const;
    /// \param reason a reason \return data frames dropped for it
    uint64_t GetDrops(PfcDropReason reason) const;
    /// \param thresholdGbps the rate below which a flow counts as stopped
    /// \return sampled flows whose tail rate is below \p thresholdGbps
    uint32_t CountStopped(double thresholdGbps = kStoppedGbps) const;

    /// A flow below this rate (Gbps) in the tail window counts as stopped (0.25 % of 40 Gbps).
    static constexpr double kStoppedGbps = 0.1;
};

/**
 * \ingroup tagger
 * Builds and runs the deadlock experiments of the paper's testbed (Fig. 2:
 * T1-T4, L1-L4, S1-S2, H1-H16; host index i is H(i+1)) with RoCEv2 NICs,
 * DWRR schedulers and static PFC thresholds, samples the rates of the
 * flows of interest, stops every sender at cfg.stop and checks after
 * cfg.drain whether lossless bytes are left (the drain test of the TTL scheme);
 * a PfcDeadlockOracle watches for cycles of paused queues until the stop.
 * Each Run* function calls Simulator::Destroy() at the end.
 */
class TaggerExperimentHelper
{
  public:
    /**
     * Figs. 3 and 10: links L2-T1 and L3-T4 down; blue H5->H13 pinned to
     * T2-L2-S1-L3-S2-L4-T4 from cfg.start, green H9->H1 pinned to
     * T3-L3-S2-L2-S1-L1-T1 from cfg.start + cfg.event; with cfg.cross also
     * H2->H1 and H14->H13.  Sampled flows: blue, green.
     * \param cfg the set-up \return the measurements
     */
    static TaggerExperimentResult RunClosBounce(const TaggerExperimentConfig& cfg);

    /**
     * Fig. 11: F1 H1->H15 (T1 pinned to L1) and F2 H2->H16 (pinned to
     * T1-L1-S2-L4-T4) from cfg.start; at cfg.start + cfg.event L1 gets the
     * bad route H15 -> T1, so F1 loops between T1 and L1 and shares link
     * T1->L1 with F2.  Sampled flows: F1, F2.
     * \param cfg the set-up \return the measurements
     */
    static TaggerExperimentResult RunRoutingLoop(const TaggerExperimentConfig& cfg);

    /**
     * Fig. 12: the 4-to-1 shuffle H9, H10, H13, H14 -> H1 and the 1-to-4
     * shuffle H5 -> H11, H12, H15, H16 from cfg.start; at cfg.start +
     * cfg.event links L2-T1 and L3-T4 fail (cfg.failLinks; routes are then
     * recomputed, as a routing protocol would) and the routes to H1 and H15
     * - per ToR prefix, so to all hosts of T1 and of T4 - are pinned to the
     * 1-bounce paths T3-L3-S2-L2-S1-L1-T1 (T4-L4-S2-L2-S1-L1-T1 from T4) and
     * T2-L2-S1-L3-S2-L4-T4: the cyclic buffer dependency of Fig. 3.
     * Sampled flows: all eight.
     * \param cfg the set-up \return the measurements
     */
    static TaggerExperimentResult RunPausePropagation(const TaggerExperimentConfig& cfg);

    /**
     * Write \p prefix-rate.dat (time and every sampled flow's rate) and
     * \p prefix-rate.plt (a gnuplot script with the data inline, drawing
     * \p prefix-rate.png).
     * \param r the result \param prefix file name prefix
     * \return false when a file cannot be written
     */
    static bool WriteRateFiles(const TaggerExperimentResult& r, const std::string& prefix);

    /**
     * Print the set-up, the switch counters, the oracle's deadlocks, drops by
     * reason, the tail rates and the lossless bytes left after the drain.
     * \param os stream \param r the result
     */
    static void PrintReport(std::ostream& os, const TaggerExperimentResult& r);

    /**
     * Print "RESULT deadlock=<yes|no> lossless_drops=<n> pauses=<n>", then
     * \p fields as " key=value", then " undrained_bytes=<n> classes=<k>".
     * \param os stream \param r the result \param fields scenario-specific values
     */
    static void PrintResultLine(std::ostream& os,
                                const TaggerExperimentResult& r,
                                const std::vector<std::pair<std::string, std::string>>& fields);

    /// \param gbps a rate \return it with three decimals, as the RESULT lines print rates
    static std::string FormatGbps(double gbps);
};

} // namespace ns3

#endif /* TAGGER_EXPERIMENT_HELPER_H */
