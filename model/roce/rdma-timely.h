/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef RDMA_TIMELY_H
#define RDMA_TIMELY_H

#include "rdma-congestion-control.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <vector>

/**
 * \file
 * \ingroup tagger
 * TIMELY (Mittal et al., SIGCOMM 2015) as a RoCE NIC congestion control policy.
 */

namespace ns3
{

/**
 * \ingroup tagger
 * \brief TIMELY: rate from the RTT and its gradient (TIMELY, Mittal et al.,
 * SIGCOMM 2015, Algorithm 1).
 *
 * The NIC times one data packet of a flow at a time (sent once, Karn's rule)
 * and hands the RTT to AckReceived when an ACK covers it: about one sample
 * per RTT, TIMELY's completion events.  Per sample: rtt_diff = (1 - Alpha)
 * rtt_diff + Alpha (rtt - previous rtt); gradient = rtt_diff / MinRtt; below
 * TLow the rate grows by Delta; above THigh it falls to rate (1 - Beta (1 -
 * THigh / rtt)); in between a gradient <= 0 adds Delta (HaiSteps Delta once
 * HaiSteps samples in a row had one: hyperactive increase) and a positive
 * one multiplies by (1 - Beta gradient).  The first sample only sets the
 * previous RTT.  TIMELY uses no ECN: the receiver sends no CNPs.
 *
 * The RTT includes the receiver's ACK coalescing (RdmaNic::AckInterval,
 * AckDelay), as a NIC's completion timestamps do.
 */
class RdmaTimely : public RdmaCongestionControl
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
    bool WantsRtt() const override;

  private:
    /// TIMELY state of one flow.
    struct Flow
    {
        bool sampled = false;  //!< a first RTT sample came
        double prevRtt = 0;    //!< the previous sample (s)
        double rttDiff = 0;    //!< moving average of the RTT difference (s)
        uint32_t negative = 0; //!< samples in a row with a gradient <= 0
    };

    double m_alpha;            //!< Alpha
    double m_beta;             //!< Beta
    DataRate m_delta;          //!< Delta
    Time m_tLow;               //!< TLow
    Time m_tHigh;              //!< THigh
    Time m_minRtt;             //!< MinRtt
    uint32_t m_hai;            //!< HaiSteps
    std::vector<Flow> m_flows; //!< by flow id
};

} // namespace ns3

#endif /* RDMA_TIMELY_H */
