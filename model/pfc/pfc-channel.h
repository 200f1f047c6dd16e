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

    /**
     * Attach a device (at most two).
     * \param device the device
     */
    virtual void Attach(Ptr<PfcNetDevice> device);

    /**
     * Carry a frame from \p src to the other end.
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

    /// \param device one end \return the other end (or nullptr)
    Ptr<PfcNetDevice> GetPeer(Ptr<const PfcNetDevice> device) const;
    Time GetDelay() const; //!< \return the one-way propagation delay

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

  protected:
    /// Deliver a frame sent in link epoch \p epoch to end \p to: to the
    /// device, or, when the link went down since (the epoch changed), lost.
    /// \param frame the frame \param to the receiving end (0 or 1) \param epoch epoch at send
    void Deliver(Ptr<Packet> frame, uint8_t to, uint64_t epoch);
    /// \return the link epoch (incremented each time the link goes down)
    uint64_t GetEpoch() const;

  private:
    Time m_delay;                                  //!< propagation delay
    Ptr<PfcNetDevice> m_device[2];                 //!< the two ends
    uint32_t m_context[2];                         //!< their node ids (NO_CONTEXT: not known yet)
    std::size_t m_nDevices;                        //!< attached devices
    bool m_up;                                     //!< link state
    uint64_t m_epoch;                              //!< incremented when the link goes down
    TracedCallback<Ptr<const Packet>> m_lostTrace; //!< frames lost in flight
};

} // namespace ns3

#endif /* PFC_CHANNEL_H */
