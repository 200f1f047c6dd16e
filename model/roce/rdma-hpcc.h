/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef RDMA_HPCC_H
#define RDMA_HPCC_H

#include "rdma-congestion-control.h"
#include "roce-int-header.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <array>
#include <vector>

/**
 * \file
 * \ingroup tagger
 * HPCC (Li et al., SIGCOMM 2019) as a RoCE NIC congestion control policy.
 */

namespace ns3
{

/**
 * \ingroup tagger
 * \brief HPCC: window from in-band telemetry (HPCC, Li et al., SIGCOMM 2019,
 * Algorithm 1).
 *
 * Data packets ask switches for telemetry (RoceIntHeader; the switches'
 * PfcSwitchNetDevice::Int attribute on); the receiver echoes it in the ACK.
 * Per ACK, for each hop j against the previous ACK's record of it:
 * txRate = bytes sent / time between, u_j = min(qlen, previous qlen) / (B_j
 * T) + txRate / B_j (B_j the link's rate, T = BaseRtt); the largest u_j, and
 * tau its time difference (at most T), update U = (1 - tau/T) U + (tau/T)
 * u.  Then the window: when U >= Eta or MaxStage additive steps were taken, W
 * = Wc / (U / Eta) + W_AI, else W = Wc + W_AI, with W_AI = RateAI x T; the
 * reference window Wc takes W (and the stage counts) only once per RTT (an
 * ACK beyond the sequence sent when Wc last moved), every other ACK reacts
 * from the same Wc.  W is kept within (0, Winit], Winit = line rate x T, and
 * the rate is W / T (RdmaNic paces it; the window bounds bytes in flight).
 * A flow starts at Winit and line rate.  The first ACK only records the
 * hops; a path whose hop count changes starts its records again.
 *
 * Telemetry is per switch egress (RoceIntHeader: 5 hops at most; a longer
 * path reports its first 5).  HPCC uses no ECN: the receiver sends no CNPs.
 */
class RdmaHpcc : public RdmaCongestionControl
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    std::string GetName() const override;
    void FlowAdded(uint32_t flow) override;
    void AckReceived(uint32_t flow, const RdmaAckInfo& ack) override;
    bool SendsCnps() const override;
    bool WantsInt() const override;

  private:
    /// HPCC state of one flow.
    struct Flow
    {
        double window = 0;          //!< W (bytes)
        double reference = 0;       //!< Wc (bytes)
        double u = 1;               //!< U, normalized inflight bytes
        uint32_t stage = 0;         //!< additive steps since the last multiplicative one
        uint32_t lastUpdateSeq = 0; //!< Wc moves again once an ACK passes it
        uint32_t hops = 0;          //!< hops of the last record (0: none yet)
        std::array<RoceIntHeader::Hop, RoceIntHeader::kMaxHops> last{}; //!< the last record
    };

    /// \param f a flow \param t the new telemetry \return U after it (MeasureInflight)
    double MeasureInflight(Flow& f, const RoceIntHeader& t) const;
    /// \param f a flow \param update whether Wc moves \return the new W (ComputeWind)
    double ComputeWindow(Flow& f, bool update) const;
    double GetInitialWindow() const; //!< \return Winit = line rate x T (bytes)

    double m_eta;              //!< Eta
    uint32_t m_maxStage;       //!< MaxStage
    DataRate m_rai;            //!< RateAI
    Time m_baseRtt;            //!< BaseRtt
    std::vector<Flow> m_flows; //!< by flow id
};

} // namespace ns3

#endif /* RDMA_HPCC_H */
