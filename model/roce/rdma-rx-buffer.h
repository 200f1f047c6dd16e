/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef RDMA_RX_BUFFER_H
#define RDMA_RX_BUFFER_H

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/pfc-net-device.h"
#include "ns3/traced-callback.h"

#include <deque>

/**
 * \file
 * \ingroup tagger
 * The receive buffer of a RoCE NIC: a slow or broken receiver pauses its switch.
 */

namespace ns3
{

/**
 * \ingroup tagger
 * A host NIC's receive buffer with PFC of its own (the NIC side of
 * 802.1Qbb): RoCEv2 packets (UDP port 4791) wait in it and reach the NIC
 * engine (RdmaNic) at DrainRate; when it holds Xoff bytes or more the host
 * device pauses PauseClass on its link (PfcNetDevice::StartPausing, with
 * the device's refresh), and resumes it when it falls below Xon.  A packet
 * that does not fit in Capacity is dropped (rx-buffer-overflow).  Other
 * packets (not RoCE) pass at once.
 *
 * Fault mode (the "PFC storm" of a broken NIC; ITSY Sec. IV and its Fig. 5
 * server): from StormStart to StormStop the receive pipeline stalls (no
 * drain) and the class stays paused whatever the occupancy.
 *
 * RdmaNic::SetRxBuffer() puts one between the device and the NIC engine.
 */
class RdmaRxBuffer : public Object
{
  public:
    /// Where drained packets go: the NIC engine's receive function.
    typedef PfcNetDevice::ReceiveHookCallback DeliverCallback;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RdmaRxBuffer();

    /**
     * Sit between \p device and \p deliver (the device's receive hook).
     * \param device the host device \param deliver the NIC engine
     */
    void Attach(Ptr<PfcNetDevice> device, DeliverCallback deliver);
    /// The receive hook. \param packet IPv4 packet \return consumed
    bool Receive(Ptr<Packet> packet);

    uint64_t GetBytes() const; //!< \return bytes held now
    /// \return the packets held now (IPv4 packets, oldest first)
    const std::deque<Ptr<Packet>>& GetHeldPackets() const;
    uint64_t GetDrops() const;  //!< \return packets dropped (buffer full)
    uint64_t GetPauses() const; //!< \return PAUSE episodes started
    bool IsStorming() const;    //!< \return the fault mode is on now

    /// TracedCallback signature for Pause: (paused now?).
    typedef void (*PauseTracedCallback)(bool paused);

  protected:
    void DoDispose() override;

  private:
    /// Deliver the head packet and schedule the next.
    void Drain();
    /// Schedule Drain for the head packet, if idle and draining.
    void ScheduleDrain();
    /// Pause or resume by the occupancy (not while storming).
    void UpdatePause();
    /// \param on start (true) or stop the fault mode
    void SetStorm(bool on);

    DataRate m_drainRate; //!< DrainRate
    uint64_t m_capacity;  //!< Capacity (bytes)
    uint64_t m_xoff;      //!< Xoff (bytes)
    uint64_t m_xon;       //!< Xon (bytes)
    uint8_t m_class;      //!< PauseClass
    Time m_stormStart;    //!< StormStart (negative: never)
    Time m_stormStop;     //!< StormStop

    Ptr<PfcNetDevice> m_device;                    //!< the device
    DeliverCallback m_deliver;                     //!< the NIC engine
    std::deque<Ptr<Packet>> m_packets;             //!< held packets
    uint64_t m_bytes;                              //!< bytes held
    bool m_pausing;                                //!< we pause the switch
    bool m_storm;                                  //!< fault mode on
    EventId m_drainEvent;                          //!< next drain
    uint64_t m_drops;                              //!< counter
    uint64_t m_pauses;                             //!< counter
    TracedCallback<bool> m_pauseTrace;             //!< Pause
    TracedCallback<Ptr<const Packet>> m_dropTrace; //!< Drop
};

} // namespace ns3

#endif /* RDMA_RX_BUFFER_H */
