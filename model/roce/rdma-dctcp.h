/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef RDMA_DCTCP_H
#define RDMA_DCTCP_H

#include "rdma-congestion-control.h"

#include "ns3/data-rate.h"

#include <vector>

/**
 * \file
 * \ingroup tagger
 * DCTCP (Alizadeh et al., SIGCOMM 2010) adapted to a RoCE NIC's rate, as the
 * HPCC family of simulators runs it.
 */

namespace ns3
{

/**
 * \ingroup tagger
 * \brief DCTCP on a RoCE NIC: ECN echoed in ACKs, alpha per window, the
 * window (or the rate) cut by alpha / 2 (DCTCP, Alizadeh et al., SIGCOMM
 * 2010).
 *
 * The receiver sets BECN on an ACK when data it answers arrived CE-marked
 * (and sends no CNPs).  The sender counts the packets acknowledged in an
 * observation window (from a sequence index to the one it had sent up to
 * when the window began: about one RTT) and those acknowledged by ECN-echo
 * ACKs; at the window's end alpha = (1 - g) alpha + g F, F the marked share
 * (DCTCP Sec. 3.1).  An ECN-echo ACK reacts at most once per window (a
 * reaction starts one, as TCP's CWR state); a window that ends without one
 * increases.  Two ways to act, RateBased:
 *  - false (the default, the DCTCP paper's sender): a window of bytes in
 *    flight, cut to W (1 - alpha / 2) and raised by one packet
 *    (RdmaNic::PayloadSize) per window, starting at InitialWindow; the NIC
 *    sends at line rate within it (ACK-clocked, as TCP);
 *  - true (the HPCC family's DCTCP mode): the rate, cut to R (1 - alpha / 2)
 *    and raised by RateAI per window, with no window of its own (the family
 *    runs it with a fixed window, HAS_WIN: RdmaNic::MaxBytesInFlight).
 * The switch's marking is PfcNetDevice's EcnKmin / EcnKmax / EcnPmax: the
 * DCTCP paper marks at one threshold K (EcnKmin = EcnKmax = K, EcnPmax = 1).
 */
class RdmaDctcp : public RdmaCongestionControl
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
    bool EchoesEcn() const override;

  private:
    /// DCTCP state of one flow.
    struct Flow
    {
        double alpha;           //!< the marked share's moving average
        uint32_t windowEnd = 0; //!< the window ends when una reaches it
        uint64_t acked = 0;     //!< packets acknowledged in this window
        uint64_t marked = 0;    //!< of them, by ECN-echo ACKs
        bool cut = false;       //!< the window or rate was cut in this window
        uint64_t window = 0;    //!< bytes in flight allowed (not RateBased)
        uint32_t cwrEnd = 0;    //!< no further cut until una reaches it
        bool started = false;   //!< the first ACK came
    };

    double m_g;                //!< G
    double m_initialAlpha;     //!< InitialAlpha
    bool m_rateBased;          //!< RateBased
    uint64_t m_initialWindow;  //!< InitialWindow
    DataRate m_rai;            //!< RateAI
    std::vector<Flow> m_flows; //!< by flow id
};

} // namespace ns3

#endif /* RDMA_DCTCP_H */
