/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef PFC_CHANNEL_H
#define PFC_CHANNEL_H

#include "ns3/channel.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

/**
 * \file
 * \ingroup tagger
 * A full-duplex point-to-point Ethernet cable between two PfcNetDevices.
 */

namespace ns3
{

class PfcNetDevice;
class PfcArrivalOrder;

/**
 * \ingroup tagger
 * Full-duplex point-to-point cable: each direction carries one frame at a
 * time (the sending device serialises), delivered Delay after its last bit
 * left, in the receiver's context.  The link can be taken down and up:
 * frames in flight when it goes down are lost, and both devices are told
 * (they drop what they queued and count it as LINK_DOWN).
 *
 * The receiver gets the sender's frame object itself, not a copy, when the
 * delay is positive: the sender is done with it (TransmitComplete, txTime
 * after the start) before the receiver takes its headers off (txTime +
 * Delay).  With a zero delay both happen at the same instant, so the
 * receiver gets a copy.  A trace sink of the sender that keeps the frame
 * past PhyTxEnd sees what the receiver did to it: copy it in the sink.
 *
 * Same-time arrivals (attribute OrderArrivals, off by default): |ns3| runs
 * events of one instant in the order they were scheduled, so a frame that
 * reaches a node in the same nanosecond as another event of that node (a
 * transmission starting, another frame) is handled before or after it
 * depending on when its delivery was scheduled, which differs between one
 * process and a distributed (MPI) run, where a frame from another rank is
 * scheduled when its message is received.  With OrderArrivals the frames
 * reaching a node at one instant are handed to their devices after the
 * node's other events of that instant (one extra event per instant), in
 * the order of the receiving devices' interface indices: the result no
 * longer depends on when deliveries were scheduled, on any number of ranks.
 * This holds as long as no event of the node schedules another event for
 * the same instant on that node (none of this module's do, except a relay
 * server's local delivery).  TaggerMpiHelper::Enable turns it on.
 */
class PfcChannel : public Channel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    PfcChannel();
    ~PfcChannel() override; // out of line: PfcArrivalOrder is only declared here

    /**
     * Attach a device (at most two).
     * \param device the device
     */
    virtual void Attach(Ptr<PfcNetDevice> device);

    /**
     * Carry a frame from \p src to the other end.  A device whose channel
     * SendsDirectly() does not call this: it schedules the arrival at its
     * peer itself (PfcNetDevice::SetDirectPeer), the same event at the same
     * time, without reading the channel.
     * \param frame the frame (Ethernet header on)
     * \param src the sending device
     * \param txTime its serialisation time
     * \return false when the link is down (nothing sent)
     */
    virtual bool TransmitStart(const Ptr<Packet>& frame, const Ptr<PfcNetDevice>& src, Time txTime);

    /**
     * Take the link down or bring it up; tells both devices.
     * \param up the new state
     */
    void SetLinkUp(bool up);
    bool IsLinkUp() const; //!< \return whether the link is up

    /// \return the link epoch (incremented each time the link goes down)
    uint64_t GetEpoch() const;
    /**
     * A frame in flight to \p receiver is lost: the link went down after it
     * was sent.  Fires Lost and tells the sender (NotifyLostInFlight).
     * \param frame the frame \param receiver the device it was going to
     */
    void LoseInFlight(Ptr<const Packet> frame, Ptr<const PfcNetDevice> receiver);

    /// \param delay the Delay attribute (both devices are told)
    void SetDelay(Time delay);
    /// \param order the OrderArrivals attribute (both devices are told)
    void SetOrderArrivals(bool order);
    bool GetOrderArrivals() const; //!< \return the OrderArrivals attribute

    /// \param device one end \return the other end (or nullptr)
    Ptr<PfcNetDevice> GetPeer(Ptr<const PfcNetDevice> device) const;
    Time GetDelay() const; //!< \return the one-way propagation delay

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

  protected:
    void DoDispose() override;

    /// A frame sent in epoch \p epoch reaches end \p to: Deliver it now, or
    /// with OrderArrivals after the node's other events of this instant.
    /// Frames from another MPI rank, and all frames with OrderArrivals, come
    /// this way; otherwise the sending device schedules the receiving
    /// device's ReceiveFromLink, which checks the epoch itself.
    /// \param frame the frame \param to the receiving end \param epoch epoch at send
    void Arrive(Ptr<Packet> frame, uint8_t to, uint64_t epoch);
    /// Deliver a frame sent in link epoch \p epoch to end \p to: to the
    /// device, or, when the link went down since (the epoch changed), lost.
    /// \param frame the frame \param to the receiving end (0 or 1) \param epoch epoch at send
    void Deliver(Ptr<Packet> frame, uint8_t to, uint64_t epoch);
    /**
     * \return whether the devices may schedule their frames' arrivals at
     * each other themselves (PfcNetDevice::SetDirectPeer): not with
     * OrderArrivals, and not for a channel that carries frames otherwise
     * (PfcRemoteChannel)
     */
    virtual bool SendsDirectly() const;
    /// Tell both devices whether they send directly, to whom, with which delay.
    void UpdateDirectPeers();

  private:
    friend class PfcArrivalOrder; // calls Deliver

    Time m_delay;                                  //!< propagation delay
    Ptr<PfcNetDevice> m_device[2];                 //!< the two ends
    uint32_t m_context[2];                         //!< their node ids (NO_CONTEXT: not known yet)
    std::size_t m_nDevices;                        //!< attached devices
    bool m_up;                                     //!< link state
    uint64_t m_epoch;                              //!< incremented when the link goes down
    bool m_orderArrivals;                          //!< OrderArrivals attribute
    Ptr<PfcArrivalOrder> m_order[2];               //!< with OrderArrivals: each end's node's
    TracedCallback<Ptr<const Packet>> m_lostTrace; //!< frames lost in flight
};

} // namespace ns3

#endif /* PFC_CHANNEL_H */
