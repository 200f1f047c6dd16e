/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef PFC_STATS_HELPER_H
#define PFC_STATS_HELPER_H

#include "ns3/pfc-types.h"

#include <cstdint>
#include <ostream>

/**
 * \file
 * \ingroup tagger
 * Counters of a whole PfcTopologyHelper network: drops, PAUSE and RESUME
 * decisions, buffered bytes.
 */

namespace ns3
{

class PfcTopologyHelper;

/**
 * \ingroup tagger
 * Sums or lists the counters of every forwarder (switches and relay
 * servers) and host of one PfcTopologyHelper network.  It keeps a reference
 * to the network and reads the counters when asked, so it can be made
 * before or after Build() and the simulation; the network must outlive it.
 * Before Build() every count is 0.
 *
 * \code
 *   PfcStatsHelper stats(net);
 *   Simulator::Run();
 *   stats.PrintSwitchCounters(std::cout);
 *   uint64_t lost = stats.GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW);
 * \endcode
 */
class PfcStatsHelper
{
  public:
    /// \param net the network to read (kept by reference)
    explicit PfcStatsHelper(const PfcTopologyHelper& net);

    /**
     * \param reason a reason
     * \return data frames dropped for it by all forwarders and host devices
     *         (a relay server's ports count once, in its forwarder)
     */
    uint64_t GetDropCount(PfcDropReason reason) const;
    uint64_t GetDropCount() const;           //!< \return all data frames dropped, every reason
    uint64_t GetTrafficControlDrops() const; //!< \return packets host queue discs dropped
    uint64_t GetPauseCount() const;          //!< \return PAUSE decisions, all forwarders
    uint64_t GetResumeCount() const;         //!< \return RESUME decisions, all forwarders
    uint64_t GetLosslessBytes() const;       //!< \return lossless bytes held in all MMUs now
    uint64_t GetLossyBytes() const;          //!< \return lossy bytes held in all MMUs now
    /**
     * Print one line per forwarder, in node id order: "<name>: pauses=<n>
     * resumes=<n> forwarded=<n>" and " drop[<reason>]=<n>" for each reason
     * with drops.
     * \param os stream
     */
    void PrintSwitchCounters(std::ostream& os) const;
    /**
     * Print one line: "drops <total>" and, when there are any, " (<reason>=<n>
     * ...)" for each reason with drops (every frame: data, ACKs, CNPs).
     * \param os stream
     */
    void PrintDrops(std::ostream& os) const;

  private:
    const PfcTopologyHelper& m_net; //!< the network
};

} // namespace ns3

#endif /* PFC_STATS_HELPER_H */
