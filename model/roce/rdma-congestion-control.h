/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef RDMA_CONGESTION_CONTROL_H
#define RDMA_CONGESTION_CONTROL_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/roce-int-header.h"

#include <cstdint>
#include <string>

/**
 * \file
 * \ingroup tagger
 * The congestion control policy of a RoCE NIC (RdmaNic): what it observes
 * and what it sets, behind a small virtual interface.
 */

namespace ns3
{

class RdmaNic;

/**
 * \ingroup tagger
 * What one ACK (not a NAK) tells the sender's congestion control.
 */
struct RdmaAckInfo
{
    uint32_t acked = 0;   //!< data packets it acknowledges for the first time (0: a duplicate)
    uint32_t una = 0;     //!< oldest unacknowledged sequence index after it
    uint32_t next = 0;    //!< the sender's next sequence index to send (snd_nxt)
    bool ecnEcho = false; //!< BECN set: data it answers arrived ECN-marked (CE)
    Time rtt;             //!< an RTT sample it completes (zero: none; WantsRtt only)
    /// the telemetry it echoes (null: none; the data asked for it, WantsInt)
    const RoceIntHeader* telemetry = nullptr;
};

/**
 * \ingroup tagger
 * \brief A RoCE NIC's congestion control: one object per RdmaNic.
 *
 * The NIC paces each queue pair (flow) at its rate and keeps at most its
 * window of bytes in flight; a policy observes the flow's events and sets
 * those two.  It observes: a flow added and started, each data packet sent,
 * each ACK (cumulative progress, the ECN echo, an RTT sample when it asks for
 * them), each CNP, and the flow's end (after which it must not touch the
 * flow: cancel its timers there).  It sets: the rate (SetRate: clamped to
 * [RdmaNic::MinRate, line rate], traced by RdmaNic's RateChange) and the
 * window (SetWindow, in bytes, 0: none; RdmaNic::MaxBytesInFlight, when set,
 * caps it too).  A flow starts at line rate with no window.
 *
 * The receiver side asks the policy of its own NIC what to send back
 * (SendsCnps: a CNP per queue pair at most every RdmaNic::CnpInterval when
 * data arrives CE-marked; EchoesEcn: BECN on the ACK that answers CE-marked
 * data); as in the HPCC family of simulators, every NIC of a run is expected
 * to run the same policy.
 *
 * Flow ids are the NIC's (dense, from 0); a policy keeps its per-flow state
 * in a vector indexed by them (FlowAdded comes in id order).
 */
class RdmaCongestionControl : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// \param nic the NIC this policy controls (it calls this once; not owned)
    void SetNic(RdmaNic* nic);

    /// \return the policy's name ("dcqcn", "dctcp", "timely", "none")
    virtual std::string GetName() const = 0;

    /// A flow was added (RdmaNic::AddFlow), ids in order. \param flow its id
    virtual void FlowAdded(uint32_t flow);
    /// A flow starts sending now. \param flow its id
    virtual void FlowStarted(uint32_t flow);
    /// \param flow a flow \param bytes the IPv4 bytes of the data packet it just sent
    virtual void PacketSent(uint32_t flow, uint32_t bytes);
    /// \param flow a flow \param ack what an ACK of it said
    virtual void AckReceived(uint32_t flow, const RdmaAckInfo& ack);
    /// \param flow a flow: a CNP for it arrived
    virtual void CnpReceived(uint32_t flow);
    /// \param flow a flow that finished or was stopped: cancel its timers
    virtual void FlowFinished(uint32_t flow);

    /// \return whether this NIC as a receiver sends CNPs for CE-marked data (DCQCN's NP)
    virtual bool SendsCnps() const;
    /// \return whether this NIC as a receiver sets BECN on ACKs answering CE-marked data
    virtual bool EchoesEcn() const;
    /// \return whether AckReceived wants RTT samples (one timed packet per flow at a time)
    virtual bool WantsRtt() const;
    /// \return whether data packets ask switches for telemetry (RoceIntHeader; HPCC)
    virtual bool WantsInt() const;

  protected:
    double GetLineRate() const;              //!< \return the NIC's line rate (bit/s)
    double GetRate(uint32_t flow) const;     //!< \param flow a flow \return its rate (bit/s)
    void SetRate(uint32_t flow, double bps); //!< \param flow a flow \param bps its new rate
    /// \param flow a flow \param bytes most payload bytes in flight (0: no window)
    void SetWindow(uint32_t flow, uint64_t bytes);
    uint32_t GetPayloadSize() const; //!< \return RdmaNic::PayloadSize (bytes)
    /// \return the NIC (DCQCN reads its attributes there)
    RdmaNic* GetNic() const;

  private:
    RdmaNic* m_nic = nullptr; //!< the NIC (owns this policy)
};

/**
 * \ingroup tagger
 * No congestion control: every flow at line rate, no window (RdmaNic's
 * CongestionControl None, or Dcqcn false).  As a receiver it still sends
 * CNPs for CE-marked data, as a RoCE NIC's notification point does.
 */
class RdmaNoCongestionControl : public RdmaCongestionControl
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    std::string GetName() const override;
};

} // namespace ns3

#endif /* RDMA_CONGESTION_CONTROL_H */
