/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef RDMA_WORKLOAD_H
#define RDMA_WORKLOAD_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <istream>
#include <string>
#include <utility>
#include <vector>

/**
 * \file
 * \ingroup tagger
 * Flow workloads: flow-size distributions, Poisson flow generation at a
 * target load, and flow files.
 */

namespace ns3
{

/**
 * \ingroup tagger
 * Longest line of a CDF or flow file, in bytes (64 KiB; a line holds a few
 * numbers and a comment): a longer line is refused when it is read, so that
 * a file without line breaks cannot fill the memory.
 */
constexpr uint64_t kMaxWorkloadLineBytes = uint64_t(1) << 16;
/// \ingroup tagger Most points a CDF file may have.
constexpr uint64_t kMaxCdfPoints = uint64_t(1) << 20;
/**
 * \ingroup tagger
 * Most flows a flow file may have (as RdmaFlowGenerator::Generate's
 * reservation cap): 2^22.  Each becomes a flow of about 1.2 KB with its own
 * events: 2^22 flows take about 5 GB (PfcTopologyHelper::EstimateMemory).
 */
constexpr uint64_t kMaxFlowFileFlows = uint64_t(1) << 22;

/**
 * \ingroup tagger
 * An empirical flow-size distribution: points (size in bytes, cumulative
 * probability), linear between points.  File format: one point per line,
 * "<bytes> <cumulative>", cumulative in [0, 1] (or in percent, 0..100, when
 * the file says so with a line "# unit: percent"); '#' starts a comment;
 * sizes and probabilities must not decrease; the last probability must be 1
 * (100 %).  At most kMaxCdfPoints points and lines of kMaxWorkloadLineBytes.
 */
class FlowSizeCdf
{
  public:
    FlowSizeCdf() = default;

    /**
     * Parse a CDF.
     * \param in the text
     * \param name what to call it in errors (e.g. the file name)
     * \param error set to one message naming the line at fault ("name:line: ...")
     * \return true on success
     */
    bool Parse(std::istream& in, const std::string& name, std::string* error);

    /**
     * Load a CDF file; NS_FATAL_ERROR with the Parse() message on bad input.
     * \param path the file
     * \return the distribution
     */
    static FlowSizeCdf Load(const std::string& path);

    /// \return the points, (bytes, cumulative probability in [0, 1])
    const std::vector<std::pair<double, double>>& GetPoints() const;
    /// \return the mean of the piecewise-linear distribution (bytes)
    double GetMean() const;
    /// \param u a probability in [0, 1] \return the size with CDF(size) = u (bytes, >= 1)
    uint64_t Quantile(double u) const;
    /// \param bytes a size \return the CDF at that size (linear between points)
    double Cdf(double bytes) const;

  private:
    std::vector<std::pair<double, double>> m_points; //!< (bytes, probability)
};

/**
 * \ingroup tagger
 * A flow to start: host indices, size, start time.
 */
struct GeneratedFlow
{
    uint32_t src = 0;   //!< sending host index
    uint32_t dst = 0;   //!< receiving host index
    uint64_t bytes = 0; //!< size (bytes)
    Time start;         //!< start time (absolute)
    uint8_t dscp = 24;  //!< DSCP (flow files may set it; generated flows use the default)
};

/**
 * \ingroup tagger
 * Poisson flow arrivals with sizes from a FlowSizeCdf, at a target load.
 *
 * The arrival rate is lambda = load * capacity / (8 * mean size): the flows
 * offer \c load times \c capacity (bits/s) on average, where \c capacity is
 * the bottleneck the load refers to (e.g. the receiver's link for N-to-1,
 * the sum of the hosts' links for all-to-all).  Each flow picks its pair by
 * the pattern:
 *  - INCAST: a uniform sender of \c senders to the first receiver;
 *  - ALL_TO_ALL: a uniform (sender, receiver) pair with sender != receiver;
 *  - PERMUTATION: a random permutation is drawn once (sender i to receiver
 *    perm(i), no host to itself when the sets are equal); each flow picks a
 *    uniform sender and goes to its partner;
 *  - SYNCHRONIZED_INCAST: each arrival starts one flow from every sender
 *    (but the receiver) to the first receiver, all at the same time, each
 *    with its own size; arrivals come at lambda / N (N senders), so the
 *    load is the same as INCAST's.  Draws per arrival: the gap, then one
 *    size per sender in the order given.
 *
 * The offered bytes (SetFixedOffer): by default the flows arriving in the
 * window offer what the draw gives (load x capacity x window on average; a
 * heavy-tailed size distribution moves a run's realized load by several
 * per cent).  With a fixed offer, arrivals are drawn until their bytes reach
 * exactly load x capacity x window / 8 (the last flow cut to fit), and
 * their start times are scaled so that the arrival after the last one would
 * come at the window's end: every run offers the same bytes in the same
 * window, and only their order and sizes vary with the seed.
 */
class RdmaFlowGenerator
{
  public:
    /// Who talks to whom.
    enum Pattern
    {
        INCAST,             //!< N-to-1
        ALL_TO_ALL,         //!< any sender to any other receiver
        PERMUTATION,        //!< each sender to one fixed receiver
        SYNCHRONIZED_INCAST //!< N-to-1, every sender at each arrival
    };

    /// \param cdf the flow sizes
    explicit RdmaFlowGenerator(const FlowSizeCdf& cdf);

    /**
     * Use streams \p stream.. of ns-3's RNG (RngSeed/RngRun apply).
     * \param stream first stream index \return number of streams used
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * Offer exactly load x capacity x window / 8 bytes per Generate (see the
     * class comment) instead of what the draw gives.
     * \param fixed fixed offer (default false)
     */
    void SetFixedOffer(bool fixed);

    /**
     * Generate flows arriving in [start, start + duration).
     * \param senders host indices that send \param receivers host indices that receive
     * \param pattern the pattern \param capacity the bottleneck capacity
     * \param load target load in (0, 1] \param start first arrival time
     * \param duration arrival window
     * \return the flows in start-time order
     */
    std::vector<GeneratedFlow> Generate(const std::vector<uint32_t>& senders,
                                        const std::vector<uint32_t>& receivers,
                                        Pattern pattern,
                                        DataRate capacity,
                                        double load,
                                        Time start,
                                        Time duration);

  private:
    FlowSizeCdf m_cdf;                        //!< sizes
    Ptr<ExponentialRandomVariable> m_arrival; //!< inter-arrival times (unit mean)
    Ptr<UniformRandomVariable> m_uniform;     //!< sizes and pairs
    bool m_fixedOffer{false};                 //!< SetFixedOffer
};

/**
 * \ingroup tagger
 * Read a flow file: one flow per line, "<src> <dst> <bytes> <start seconds>
 * [<dscp>]", host indices from 0; '#' starts a comment.  At most
 * kMaxFlowFileFlows flows and lines of kMaxWorkloadLineBytes.
 * \param in the text \param name its name in errors
 * \param flows the flows read \param error one message naming the line at fault
 * \return true on success
 */
bool ParseFlowFile(std::istream& in,
                   const std::string& name,
                   std::vector<GeneratedFlow>* flows,
                   std::string* error);

/**
 * Read a flow file; NS_FATAL_ERROR naming the line on bad input.
 * \param path the file \return the flows
 */
std::vector<GeneratedFlow> LoadFlowFile(const std::string& path);

/**
 * Find a data file shipped with the module (e.g. "websearch.cdf"), wherever
 * the program runs from: the first that holds it of share/tagger/data
 * beside an installed module (one to three folders above the library's own:
 * cmake --install), the module's data/ folder as the build recorded it
 * (TAGGER_DATA_DIR_BUILTIN, set by CMakeLists.txt and wscript), data/ and
 * contrib/tagger/data/ in the
 * program's directory and up to five of its parents, and $TAGGER_DATA_DIR
 * (for a module moved after it was built); NS_FATAL_ERROR listing the places
 * tried when none does.
 * \param name the file name \return its path
 */
std::string FindTaggerDataFile(const std::string& name);

} // namespace ns3

#endif /* RDMA_WORKLOAD_H */
