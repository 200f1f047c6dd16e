/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFC_NET_DEVICE_INTERNAL_H
#define PFC_NET_DEVICE_INTERNAL_H

#include "pfc-block-pool.h"
#include "pfc-net-device.h"

#include "ns3/log.h"

/**
 * \file
 * \ingroup tagger
 * What the source files of PfcNetDevice share and nothing else includes:
 * its pooled events (the transmit state machine makes them,
 * pfc-net-device.cc) and its log component (the PFC pause state logs to it,
 * pfc-net-device-pause.cc).  Listed with the headers so that an ns-3 tree
 * copies it beside the others; programs have no use for it.
 */

namespace ns3
{

/// \return the log component "PfcNetDevice" (defined in pfc-net-device.cc)
LogComponent& PfcNetDeviceLogComponent();

/**
 * A frame's arrival at the far end of the link: the event MakeEvent would
 * make for ReceiveFromLink(frame, epoch), in a PfcBlockPool block.
 */
class PfcNetDevice::ArrivalEvent : public PfcPooledEvent
{
  public:
    /// \param peer the receiving device \param frame the frame \param epoch the link epoch
    ArrivalEvent(PfcNetDevice* peer, Ptr<Packet> frame, uint64_t epoch)
        : m_peer(peer),
          m_frame(std::move(frame)),
          m_epoch(epoch)
    {
        static_assert(sizeof(ArrivalEvent) <= PfcBlockPool::kBlockBytes, "one cache line");
    }

    void Prefetch() const noexcept override
    {
        const char* packet = reinterpret_cast<const char*>(PeekPointer(m_frame));
        __builtin_prefetch(packet);
        __builtin_prefetch(packet + 64);
        __builtin_prefetch(m_peer);
    }

  private:
    void Notify() override
    {
        m_peer->ReceiveFromLink(m_frame, m_epoch);
    }

    PfcNetDevice* m_peer; //!< the receiving device
    Ptr<Packet> m_frame;  //!< the frame
    uint64_t m_epoch;     //!< the sender's count of link downs
};

/**
 * The end of a frame's transmission: the event MakeEvent would make for
 * TransmitComplete(), in a PfcBlockPool block.
 */
class PfcNetDevice::TxDoneEvent : public PfcPooledEvent
{
  public:
    /// \param device the sending device
    explicit TxDoneEvent(PfcNetDevice* device)
        : m_device(device)
    {
        static_assert(sizeof(TxDoneEvent) <= PfcBlockPool::kBlockBytes, "one cache line");
    }

    void Prefetch() const noexcept override
    {
        m_device->PrefetchTransmitLines();
    }

  private:
    void Notify() override
    {
        m_device->TransmitComplete();
    }

    PfcNetDevice* m_device; //!< the sending device
};

} // namespace ns3

#endif /* PFC_NET_DEVICE_INTERNAL_H */
