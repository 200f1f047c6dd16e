/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef TAGGER_LOSS_EXPERIMENT_H
#define TAGGER_LOSS_EXPERIMENT_H

#include "ns3/nstime.h"

#include <array>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup tagger
 * One cell of Tagger (ToN) Table VI: packet loss of the lossy queue as a
 * last resort under N-to-1 RoCE traffic in a failed fat tree.
 */

namespace ns3
{

class TaggerCommandLine;

/// The three configurations of Table VI.
enum class TaggerLossMode
{
    ROCE,    //!< RoCE without PFC: every class lossy
    TAGGER1, //!< Tagger, 1 lossless queue (ELP: shortest up-down paths)
    TAGGER2  //!< Tagger, 2 lossless queues (ELP: shortest and 1-bounce paths)
};

/// The set-up of one cell.
struct TaggerLossConfig
{
    uint32_t k{8};                             //!< FatTree(k)
    double failureRate{0.2};                   //!< switch-to-switch link failure probability
    uint32_t senders{8};                       //!< N of N-to-1
    TaggerLossMode mode{TaggerLossMode::ROCE}; //!< configuration
    std::string cdf;                           //!< flow-size CDF file
    double load{0.99}; //!< average load of the destination's link (wire bytes of data frames)
    std::string rate{"40Gbps"}; //!< link rate
    std::string delay{"1us"};   //!< link propagation delay
    uint64_t seed{1};           //!< failures (and, via RngRun, traffic)
    uint64_t packets{10000000}; //!< data packets the arrivals offer (target)
    Time stop;                  //!< simulated-time limit (0: 3 x arrivals + 50 ms)
    /// stop once the senders have sent this many data packets, first transmissions and
    /// resends (0: no limit): bounds the cost of a network in congestion collapse, whose
    /// go-back-N resends would otherwise grow without end (stopped "sent")
    uint64_t maxSent{0};
    bool dcqcn{true}; //!< DCQCN on
    /// congestion control (RdmaHelper::SetCongestionControl; "": RdmaNic's attribute)
    std::string cc{"dcqcn"};
    uint64_t lossyPool{0}; //!< switch lossy pool, bytes (0: the MMU default)
    bool progress{false};  //!< progress lines on stderr
    /// arrivals: Poisson flows from a uniform sender (false), or synchronized
    /// N-to-1 incasts, one flow from every sender per arrival (true)
    bool synchronized{false};
    /// offer exactly the load's bytes in the window (RdmaFlowGenerator::SetFixedOffer):
    /// the cell's load is its parameter, not the draw's
    bool fixedOffer{true};
    /// the NICs' RetransmitTimeout: 4.096 us x 2^12, an InfiniBand local ACK
    /// timeout long enough that PFC pauses cause no spurious go-back-N
    Time rto{NanoSeconds(16777216)};
    uint64_t maxInflight{0}; //!< the NICs' MaxBytesInFlight (bytes; 0: no limit)
    /// connect the switches' Forward and Drop traces: bounces measured in the
    /// data plane and packets counted there, cross-checks of the model walk
    /// and of the devices' counters.  Off, a run skips a trace call per hop
    /// and the bounces come from the model walk (the loss figures are the same).
    bool traces{true};
};

/// What one cell measured.
struct TaggerLossResult
{
    std::string congestionControl; //!< the NICs' policy ("dcqcn", "hpcc", ...)
    uint32_t failedLinks{0};       //!< links down during the run
    uint32_t redraws{0};           //!< failure draws refused (a sender cut off)
    uint32_t flows{0};             //!< flows generated (and started)
    uint32_t completed{0};         //!< flows finished
    uint64_t skippedPorts{
        0}; //!< UDP source ports refused: data or ACKs would loop or find no route
    std::array<uint64_t, 3> modelBounces{};    //!< flows with 0 / 1 / 2+ bounces (model walk)
    std::array<uint64_t, 3> measuredBounces{}; //!< the same, measured in the data plane
    bool traced{false}; //!< measuredBounces and the trace counts were measured (traces on)
    uint32_t bounceMismatches{0};  //!< flows seen whose measured bounces differ from the model
    uint64_t dataPackets{0};       //!< data packets the NICs sent (retransmissions included)
    uint64_t retransmitted{0};     //!< of them, sent again (go-back-N after a NAK or timeout)
    uint64_t timeouts{0};          //!< retransmission timeouts of the senders
    uint64_t lossyDrops{0};        //!< lossy-queue congestion drops
    uint64_t losslessDrops{0};     //!< lossless-queue overflow drops
    uint64_t otherDrops{0};        //!< drops for any other reason
    uint64_t traceDataPackets{0};  //!< data packets seen at the first switch (trace sources)
    uint64_t traceLossyDrops{0};   //!< lossy drops seen on the switches' Drop traces
    uint64_t pauses{0};            //!< PAUSE decisions
    bool deadlock{false};          //!< the deadlock oracle's verdict
    std::array<double, 3> fctUs{}; //!< FCT percentiles 50, 95, 99 of finished flows (us)
    Time arrivals;                 //!< arrival window
    /// realized offered load: wire bytes of the flows' data frames over what
    /// the destination's link carries in the arrival window
    double offeredLoad{0};
    Time end; //!< simulated time at the end
    /// why the run ended: "no" (arrivals over, every flow done), "sent" (maxSent reached)
    /// or "time" (the simulated-time limit)
    std::string stopped{"no"};
    std::string accounting; //!< RdmaPacketAccount::Print: where every data packet went
    bool balanced{false};   //!< RdmaPacketAccount::IsBalanced

    /// \return lossy drops over data packets sent
    double GetLossRate() const;
    /// \return the share of the arrival window simulated, at most 1
    double GetArrivalsSimulated() const;
    /// \return the 95 % upper bound on the loss rate when no packet was lost (the rule
    /// of three, 3 / packets sent), at most 1 (1 when none was sent)
    double GetLossUpper95() const;
};

/**
 * \ingroup tagger
 * Runs one cell of Table VI (Tagger (ToN), Sec. VIII-D).
 *
 * FatTree(k); the destination is host 0; sender i is host i / (T - 1) of
 * ToR 1 + i mod (T - 1) (T ToRs), so senders spread over the ToRs other
 * than the destination's.  Each switch-to-switch link fails with
 * probability failureRate (tagger::DrawLinkFailures, seeded from seed)
 * before traffic, applied with PfcRouteHelper::FailLink (local reroute,
 * tagger-reroute.h).  With local reroute a 5-tuple's path may loop; a
 * sender "reaches" the destination when one of its first 256 UDP source
 * ports gives a path that arrives both ways (tagger::WalkFlow over the data
 * plane's routes with that 5-tuple, ACKs reuse the ports).  A draw that
 * leaves a sender without such a port (or without any path) is undone and
 * redrawn.  Each flow then takes the sender's next port that arrives both
 * ways (ports refused are counted, skippedPorts), as a RoCE sender that
 * re-creates a connection that does not come up: a looping flow would only
 * circle its retransmissions until TTL.  Flow sizes from the CDF, Poisson
 * arrivals at the load of the destination's link over a window that offers
 * about `packets` data packets: each from a uniform sender, or
 * (synchronized) each a flow from every sender at once at 1/N the rate;
 * the bytes offered are what the draw gives, or (fixedOffer) exactly the
 * load's (offeredLoad reports the realized load either way).  The load counts what data frames
 * occupy on the wire (RdmaNic::GetDataFrameWireBytes: 1082 bytes per 1000 payload bytes by
 * default), so a load below 1 leaves the link stable; counted in payload bytes, 0.99 would
 * offer 1.07 times the link. DWRR with equal weights at every port; RoCE NICs with DCQCN and
 * go-back-N; Tagger modes install TagClos rules for 0 or 1 bounces.
 */
class TaggerLossExperiment
{
  public:
    /**
     * The longest arrival window a cell may have, in seconds of simulated
     * time: 100 s (the default cell, 10^7 packets at load 0.99 of 40 Gbps,
     * arrives in 2.2 s).  FinishFlags refuses packets, load and rate that
     * would take longer (a load of 10^-9 would take years).
     */
    static constexpr double kMaxArrivalSeconds = 100;

    /// \param cfg the set-up \return the measurements
    static TaggerLossResult Run(const TaggerLossConfig& cfg);
    /// \param mode a mode \return "roce", "tagger1" or "tagger2"
    static std::string GetModeName(TaggerLossMode mode);
    /// \param k port count \param senders N \return whether FatTree(k) has N hosts
    /// outside host 0's ToR
    static bool HasSenders(uint32_t k, uint32_t senders);
    /**
     * Check what the flags cannot check one by one (k even, failure rate below 1, enough
     * senders, load above 0, lossy pool 0 or at least 10000 bytes) and fill cfg.mode, cfg.cdf
     * (the data file of \p workload) and cfg.stop.  A bad value ends the program through
     * TaggerCommandLine::Fail (one line naming the flag, exit 2).
     * \param cmd the parsed command line \param cfg set-up read from it \param mode "roce",
     * "tagger1" or "tagger2" \param workload "websearch" or "datamining" \param stopMs
     * simulated-time limit in ms (0: none)
     */
    static void FinishFlags(TaggerCommandLine& cmd,
                            TaggerLossConfig& cfg,
                            const std::string& mode,
                            const std::string& workload,
                            double stopMs);
    /// Print the set-up and the measurements. \param os stream \param cfg set-up \param r result
    static void PrintReport(std::ostream& os,
                            const TaggerLossConfig& cfg,
                            const TaggerLossResult& r);
    /**
     * \param r result \return "RESULT loss_rate=.. packets=.. lossy_drops=.. lossless_drops=..
     * deadlock=.. bounced1=.. bounced2plus=.." and more keys
     */
    static std::string FormatResult(const TaggerLossResult& r);
};

} // namespace ns3

#endif /* TAGGER_LOSS_EXPERIMENT_H */
