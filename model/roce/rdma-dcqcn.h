/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef RDMA_DCQCN_H
#define RDMA_DCQCN_H

#include "rdma-congestion-control.h"

#include "ns3/event-id.h"

#include <vector>

/**
 * \file
 * \ingroup tagger
 * DCQCN (Zhu et al., SIGCOMM 2015) as a RoCE NIC congestion control policy.
 */

namespace ns3
{

/**
 * \ingroup tagger
 * \brief DCQCN's reaction point (DCQCN, Zhu et al., SIGCOMM 2015).
 *
 * On a CNP: Rt = Rc, Rc = Rc (1 - alpha/2), alpha = (1 - g) alpha + g;
 * without CNPs for AlphaTimer, alpha = (1 - g) alpha; rate increase events
 * every RateIncreaseTimer and every ByteCounter bytes, counted separately
 * since the last cut (T and BC, incremented before the test): fast recovery
 * (Rc = (Rt + Rc) / 2) while max(T, BC) < F = FastRecoverySteps (so F - 1
 * events), additive increase (Rt += RAI, then the same averaging) until both
 * pass F, then hyper increase (Rt += (min(T, BC) - F) RHAI).
 *
 * Its parameters are RdmaNic's attributes, as before this policy existed
 * (ns3::RdmaNic::AlphaG, AlphaTimer, RateIncreaseTimer, ByteCounter,
 * FastRecoverySteps, RateAI, RateHAI, RateDecreaseInterval, ClampTargetRate),
 * read at each use; see RdmaNic for the three ways Mellanox NICs and the HPCC
 * family differ from the paper.  As a receiver the NIC sends CNPs (the
 * notification point).
 */
class RdmaDcqcn : public RdmaCongestionControl
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    std::string GetName() const override;
    void FlowAdded(uint32_t flow) override;
    void PacketSent(uint32_t flow, uint32_t bytes) override;
    void CnpReceived(uint32_t flow) override;
    void FlowFinished(uint32_t flow) override;

  protected:
    void DoDispose() override;

  private:
    /// DCQCN state of one flow.
    struct Flow
    {
        double rt = 0;                //!< target rate (bit/s)
        double alpha = 1;             //!< congestion estimate
        bool cnpSinceAlpha = false;   //!< a CNP arrived since the last alpha timer
        uint32_t timerEvents = 0;     //!< rate increase events by the timer since the last cut
        uint32_t byteEvents = 0;      //!< rate increase events by the byte counter
        uint64_t bytesSinceEvent = 0; //!< bytes sent since the last byte-counter event
        bool cutPending = false;      //!< a CNP arrived since the last decrease check
        bool done = false;            //!< finished or stopped
        EventId alphaEvent;           //!< alpha timer
        EventId rateEvent;            //!< rate increase timer
        EventId decreaseEvent;        //!< rate decrease check (RateDecreaseInterval > 0)
    };

    void Cut(uint32_t flow);                        //!< \param flow cut by alpha / 2
    void DecreaseTimer(uint32_t flow);              //!< \param flow cut if a CNP arrived
    void AlphaTimer(uint32_t flow);                 //!< \param flow alpha decay
    void RateIncreaseTimer(uint32_t flow);          //!< \param flow the rate increase timer
    void RateIncrease(uint32_t flow, bool byTimer); //!< \param flow \param byTimer else bytes

    std::vector<Flow> m_flows; //!< by flow id
};

} // namespace ns3

#endif /* RDMA_DCQCN_H */
