/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef PFC_NET_DEVICE_H
#define PFC_NET_DEVICE_H

#include "pfc-block-pool.h"
#include "pfc-fifo.h"
#include "pfc-flagged-trace.h"
#include "pfc-header.h"
#include "pfc-scheduler.h"
#include "pfc-types.h"

#include "ns3/data-rate.h"
#include "ns3/error-model.h"
#include "ns3/event-id.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstddef>

/**
 * \file
 * \ingroup tagger
 * One end of a full-duplex Ethernet link with IEEE 802.1Qbb PFC.
 */

namespace ns3
{

class PfcChannel;
class PfcNetDevice;
class NetDeviceQueueInterface;

/// Port index meaning "not from a switch port" (host-originated frames).
constexpr uint32_t kPfcNoPort = 0xffffffff;

/// Which switch buffer pool a queued frame is charged to.
enum class PfcBufferPool : uint8_t
{
    NONE = 0, //!< not charged (host frames, frames a relay server originates)
    LOSSLESS, //!< the lossless pool, ingress queue (inPort, inQueue)
    LOSSY     //!< the lossy pool, egress queue (port, outQueue)
};

/**
 * \ingroup tagger
 * A frame waiting in a class queue of a PfcNetDevice, with what the switch
 * needs to release its buffer when it leaves.
 */
struct PfcQueueEntry
{
    Ptr<Packet> frame;            //!< the frame, Ethernet header on
    uint32_t bytes = 0;           //!< bytes charged to the buffer (frame size on arrival)
    uint32_t inPort = kPfcNoPort; //!< switch ingress port, or kPfcNoPort
    uint8_t inQueue = 0;          //!< switch ingress queue (class)
    uint8_t outQueue = 0;         //!< egress class queue (set by the device)
    PfcBufferPool pool = PfcBufferPool::NONE; //!< the pool charged
};

/**
 * \ingroup tagger
 * What a PfcNetDevice that is a switch port calls on the switch that owns
 * it (PfcSwitchNetDevice; a test can stand in for it).
 *
 * An interface rather than two ns-3 Callbacks: a Callback call reads its
 * implementation object and the bound function object, two allocations of
 * their own per port, which in a large network are out of the cache at every
 * frame; a virtual call reads the owner, which the frame needs anyway.
 */
class PfcPortOwner
{
  public:
    virtual ~PfcPortOwner() = default;
    /**
     * A data frame arrived on port \p port.
     * \param port the port index
     * \param device that port (the caller: the owner need not look it up)
     * \param frame the frame (its Ethernet header taken off)
     * \param eth that header
     */
    virtual void ReceiveFromPort(uint32_t port,
                                 const PfcNetDevice& device,
                                 Ptr<Packet> frame,
                                 const EthernetDot1qHeader& eth) = 0;
    /**
     * \p entry left the queue of port \p port (sent, or dropped as LINK_DOWN):
     * release its buffer.
     * \param port the port index \param entry the frame and its accounting
     */
    virtual void DequeuedFromPort(uint32_t port, const PfcQueueEntry& entry) = 0;
};

/**
 * \ingroup tagger
 * One end of a full-duplex point-to-point Ethernet link (PfcChannel) with
 * eight class queues, a pluggable scheduler and IEEE 802.1Qbb PFC.
 *
 * - Frames are Ethernet II (EthernetDot1qHeader); the class travels in the
 *   IPv4 DSCP (ClassMode Dscp: class = DSCP >> 3 unless a map is set) or in
 *   an 802.1Q PCP (ClassMode Pcp; hosts then still take the class from the DSCP).
 * - Serialisation takes (max(frame + FCS, 64) + 20) * 8 / DataRate: preamble,
 *   start delimiter and the inter-frame gap are on the wire too.
 * - PFC frames go out ahead of queued data, never preempting the frame on the
 *   wire.  A received PFC frame takes effect ProcessingDelay later: each
 *   enabled class is paused for its time (a later frame replaces the time;
 *   0 resumes).  StartPausing() sends PAUSE for a class and refreshes it
 *   every PauseRefresh until StopPausing() sends RESUME, so a lost RESUME
 *   cannot pause the upstream forever.
 * - As a host device (not in a switch) it sits under ns-3's Internet stack:
 *   no ARP (the peer's MAC is known), 8 transmit queues through
 *   NetDeviceQueueInterface, a class queue stopped while paused or above
 *   HostQueueLimit, so that traffic control holds the packets.
 * - As a switch port (PfcSwitchNetDevice::AddPort) received frames go to the
 *   switch and the switch enqueues frames with EnqueueFromSwitch().
 * - A ReceiveErrorModel (none by default) loses received data frames before
 *   anything sees them (no sniffer, no switch, no host): each is dropped
 *   with reason LINK_ERROR.  PFC frames are never lost (their loss would be
 *   a loss that no drop counter shows).
 * - Ports live in PfcBlockPool blocks (PfcPoolAllocated): a few huge pages
 *   hold all of them, where on the heap 6,144 ports of a k=16 fat tree
 *   spread over 3,072 pages of 4 KiB.
 */
class PfcNetDevice : public NetDevice, public PfcPoolAllocated
{
  public:
    /// How the class is carried on the wire.
    enum ClassMode : uint8_t
    {
        CLASS_DSCP, //!< in the IPv4 DSCP (untagged frames)
        CLASS_PCP   //!< in an 802.1Q priority tag
    };

    /// Switch callback: a PFC frame (its body) arrived on port \p port.
    typedef Callback<void, uint32_t, const PfcHeader&> SwitchPfcCallback;
    /**
     * Host transmit source (the RDMA NIC engine): asked for an IPv4 packet
     * when the link is idle and the class queues have nothing to send; the
     * argument has bit c set for every paused class; a packet of a paused
     * class must not be returned.  Null: nothing to send now.
     */
    typedef Callback<Ptr<Packet>, uint8_t> TransmitSourceCallback;
    /// Host receive hook: sees every received IPv4 packet first; true = consumed.
    typedef Callback<bool, Ptr<Packet>> ReceiveHookCallback;
    /**
     * Switch egress stamp (in-band telemetry): called with each frame a switch
     * port is about to put on the wire (it may rewrite the frame's bytes, not
     * their number), the port, the bytes the port has sent with this frame,
     * and the bytes waiting in its class queues behind it.
     */
    typedef Callback<void, const PfcNetDevice&, Ptr<Packet>, uint64_t, uint64_t>
        EgressStampCallback;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    PfcNetDevice();
    ~PfcNetDevice() override;

    /**
     * Attach to a channel (PfcHelper does this).
     * \param channel the channel
     * \return true
     */
    bool Attach(Ptr<PfcChannel> channel);

    /**
     * A frame's last bit arrived and the link stayed up: from
     * ReceiveFromLink, or from the channel (OrderArrivals, MPI).
     * \param frame the frame
     */
    void Receive(Ptr<Packet> frame);
    /**
     * A frame sent in link epoch \p epoch arrived: the arrival event the
     * peer scheduled (SetDirectPeer).  Received if the link has not gone
     * down since (the epoch is still this device's m_linkDowns), else lost
     * in flight (PfcChannel::LoseInFlight).  The check reads only this
     * device, which the frame needs anyway; the channel, another memory
     * read in a large network, is read only for a lost frame.
     * \param frame the frame \param epoch the sender's m_linkDowns (the
     * channel's epoch) at send
     */
    void ReceiveFromLink(Ptr<Packet> frame, uint64_t epoch);

    /**
     * Called by the channel: send frames straight to \p peer, scheduling
     * their arrival (ReceiveFromLink) \p delay after their last bit, the
     * time at which PfcChannel::TransmitStart would deliver them, without
     * reading the channel.
     * \param peer the other end (nullptr: through the channel)
     * \param delay the channel's Delay
     */
    void SetDirectPeer(PfcNetDevice* peer, Time delay);

    /// \param model the ReceiveErrorModel (nullptr: none)
    void SetReceiveErrorModel(Ptr<ErrorModel> model);
    /// \return the ReceiveErrorModel (nullptr: none)
    Ptr<ErrorModel> GetReceiveErrorModel() const;

    /**
     * Called by the channel when the link goes down or up.  Going down drops
     * every queued data frame (LINK_DOWN) and clears the pause state.
     * \param up the new state
     */
    void NotifyLinkChange(bool up);

    /**
     * Called by the channel: \p frame, sent by this device, was lost in
     * flight because the link went down.
     * \param frame the frame
     */
    void NotifyLostInFlight(Ptr<const Packet> frame);

    /**
     * Make this device port \p port of a switch.
     * \param port the port index
     * \param owner the switch (it owns this device and outlives its use)
     */
    void SetSwitchPort(uint32_t port, PfcPortOwner* owner);
    bool IsSwitchPort() const; //!< \return whether a switch owns this device
    /**
     * Let the switch see every PFC frame this port receives, on arrival
     * (before the processing delay); null callback: none (the default).
     * \param hook the callback
     */
    void SetSwitchPfcHook(SwitchPfcCallback hook);

    /**
     * Queue a frame built by the switch.
     * \param entry the frame and its buffer accounting
     * \param cls the egress class queue
     * \return false if the link is down (the frame is dropped as LINK_DOWN,
     *         after the dequeue callback released its buffer)
     */
    bool EnqueueFromSwitch(const PfcQueueEntry& entry, uint8_t cls);

    /**
     * Prepend the Ethernet header of a data frame this device sends: to the
     * peer, with an 802.1Q tag carrying \p cls in ClassMode Pcp (untagged in
     * ClassMode Dscp).
     * \param packet the payload
     * \param source the source address (the switch's and host's frames: this device's)
     * \param etherType the EtherType of the payload
     * \param cls the class of the frame
     */
    void Encapsulate(Ptr<Packet> packet, Mac48Address source, uint16_t etherType, uint8_t cls);

    /// \param source the host transmit source (null callback: none)
    void SetTransmitSource(TransmitSourceCallback source);
    /// The transmit source has something to send (starts a transmission if idle).
    void NotifySourceReady();
    /// \param hook the host receive hook (null callback: none)
    void SetReceiveHook(ReceiveHookCallback hook);
    /// \param stamp the switch egress stamp (null callback: none)
    void SetEgressStamp(EgressStampCallback stamp);

    /**
     * ECN marking of this (switch) port, RED-like on the instantaneous class
     * queue length q: mark with probability 0 below EcnKmin, Pmax * (q - Kmin)
     * / (Kmax - Kmin) up to EcnKmax, and 1 above.
     * \param cls the egress class \return whether to mark the next frame CE
     */
    bool ShouldMarkEcn(uint8_t cls);

    /**
     * Ask the processor for the lines that ShouldMarkEcn, the switch's
     * Encapsulate and EnqueueFromSwitch read to send a frame of class \p cls
     * (line 0, the ECN and address line, the class queue).  The switch calls
     * this as soon as the route names this port.
     * \param cls the class queue
     */
    void PrefetchEnqueueLines(uint8_t cls) const
    {
        __builtin_prefetch(this);
        __builtin_prefetch(&m_ecnKmin);
        __builtin_prefetch(&m_queues[cls % kPfcClasses]);
    }

    /**
     * Send PAUSE for \p cls now and refresh it until StopPausing().  On a
     * switch port the switch calls it when the first of the ingress queues
     * that name \p cls turns OFF (PfcSwitchNetDevice).
     * \param cls the class
     */
    void StartPausing(uint8_t cls);
    /**
     * Send RESUME for \p cls and stop refreshing.  On a switch port the
     * switch calls it when the last of those ingress queues turns ON.
     * \param cls the class
     */
    void StopPausing(uint8_t cls);
    /// \param cls class \return whether this port pauses the peer's class (its one record)
    bool IsPausingPeer(uint8_t cls) const;
    /**
     * \param cls class
     * \return when this port decided to pause the peer's class \p cls in the
     *         pause now in force (its first PAUSE, not the refreshes; valid
     *         while IsPausingPeer)
     */
    Time GetPausingPeerSince(uint8_t cls) const;

    /// Queue a PFC frame with this body (ahead of data).  \param pfc the body
    void SendPfcFrame(const PfcHeader& pfc);
    /**
     * The PAUSE frame the next StartPausing(\p cls) sends carries \p padding
     * in its padding (refreshes and RESUME frames carry zeros).
     * \param cls the class \param padding the bytes
     */
    void SetPausePadding(uint8_t cls, const PfcHeader::Padding& padding);
    /**
     * Queue a control frame (Ethernet header on) ahead of data, as PFC
     * frames are: no PAUSE holds it.  Dropped silently when the link is down.
     * \param frame the frame
     */
    void SendControlFrame(Ptr<Packet> frame);

    /**
     * Drop every lossless-pool frame queued in class \p cls (a deadlock
     * recovery), releasing its switch buffer first.
     * \param cls class \param reason the drop reason \return frames dropped
     */
    uint32_t DropLosslessFrames(uint8_t cls, PfcDropReason reason);
    /**
     * Ignore the PAUSE frames the peer sends for \p cls until \p until (the
     * class is unpaused now): this end no longer honours PFC for it, the
     * class is lossy toward the peer for that time.
     * \param cls class \param until end of the hold (absolute)
     */
    void IgnorePauseUntil(uint8_t cls, Time until);

    /// \param cls class \return whether the peer paused our class \p cls now
    bool IsClassPaused(uint8_t cls) const;
    /// \param cls class \return when the current pause of \p cls began (valid if paused)
    Time GetPausedSince(uint8_t cls) const;
    /// \param cls class \return bytes queued in class \p cls
    uint64_t GetQueueBytes(uint8_t cls) const;
    /// \param cls class \return the class queue (for the deadlock oracle)
    const PfcFifo<PfcQueueEntry>& GetQueue(uint8_t cls) const;

    /// \param dscp DSCP value 0..63 \return the class it maps to
    uint8_t GetClassOfDscp(uint8_t dscp) const;
    /// Map DSCP \p dscp to class \p cls. \param dscp 0..63 \param cls 0..7
    void SetDscpClass(uint8_t dscp, uint8_t cls);
    ClassMode GetClassMode() const; //!< \return how the class is carried

    DataRate GetDataRate() const; //!< \return the link rate
    /// \param rate the DataRate attribute
    void SetDataRate(DataRate rate);
    Time GetProcessingDelay() const;       //!< \return PFC processing delay in effect
    Ptr<PfcChannel> GetPfcChannel() const; //!< \return the channel
    Ptr<PfcNetDevice> GetPeer() const;     //!< \return the device at the other end
    /// \return the event context of frames to this device: its node's id (or
    ///         Simulator::NO_CONTEXT before SetNode)
    uint32_t GetNodeContext() const;
    Mac48Address GetPeerAddress(); //!< \return the peer's MAC address
    /**
     * A frame's time on the wire at DataRate (EthernetWireBytes, PfcTxTime).
     * The division is 128-bit, and a port sends few distinct sizes (data,
     * ACKs, PFC frames), so the last two sizes are kept with their rate.
     * \param bytes frame size \return its time on the wire
     */
    Time GetWireTime(uint32_t bytes) const;
    /// \param quanta pause quanta \return their duration at DataRate
    Time QuantaToTime(uint16_t quanta) const;

    uint64_t GetPfcTxFrames() const;    //!< \return PFC frames sent
    uint64_t GetPfcRxFrames() const;    //!< \return PFC frames received
    uint64_t GetPauseTxFrames() const;  //!< \return PFC frames sent with a nonzero time
    uint64_t GetResumeTxFrames() const; //!< \return PFC frames sent with all times 0
    uint64_t GetPfcLostFrames() const;  //!< \return PFC frames sent but lost in flight (link down)
    /// \param reason reason \return data frames this device dropped for it
    uint64_t GetDropCount(PfcDropReason reason) const;

    // NetDevice
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    Mac48Address GetMacAddress() const; //!< \return the MAC address, unconverted
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsPointToPoint() const override;
    bool IsBridge() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

    /// TracedCallback signature for Drop.
    typedef void (*DropTracedCallback)(Ptr<const Packet> frame, PfcDropReason reason);
    /// TracedCallback signature for PfcTx / PfcRx: the frame body.
    typedef void (*PfcFrameTracedCallback)(const PfcHeader& pfc);
    /// TracedCallback signature for ClassPause: (class, paused now?).
    typedef void (*ClassPauseTracedCallback)(uint8_t cls, bool paused);

  protected:
    void DoDispose() override;
    void NotifyNewAggregate() override;

  private:
    class ArrivalEvent; //!< a frame's arrival at the peer (pooled; pfc-net-device.cc)
    class TxDoneEvent;  //!< the end of a frame's transmission (pooled)

    /// Start sending the next frame if idle.
    void TryTransmit();
    /// The frame on the wire finished.
    void TransmitComplete();
    /**
     * Whether a frame is on the wire.  StartFrame schedules no transmit-done
     * event for a switch port's frame that nothing waits behind (no queued
     * frame, no PFC frame, no transmit source, no PhyTxEnd sink): most
     * frames of a lightly loaded port, whose transmit-done would find
     * nothing to send.  The first thing that wants the wire afterwards
     * calls this: once the frame's end (m_wireFreeAt) has passed the port
     * is idle; before it, the transmit-done is scheduled then, for that
     * end.  The port sends at the same times as with an event per frame;
     * only the order among frames offered at the very instant a frame ends
     * can differ (a frame offered then starts at once, where an earlier
     * transmit-done would have chosen among those queued).
     * \return whether the wire is busy
     */
    bool WireBusy();

    /// Ask the processor for the lines TransmitComplete reads first (line 0,
    /// the wire-time line, the class queues and, for a host port with its
    /// queues empty, the transmit source's line).
    void PrefetchTransmitLines() const
    {
        __builtin_prefetch(this);
        __builtin_prefetch(&m_source);
        __builtin_prefetch(&m_wireTimes);
        for (uint8_t c = 0; c < kPfcClasses; c += 2)
        {
            __builtin_prefetch(&m_queues[c]); // two a line
        }
    }

    /**
     * Send a data frame taken from class queue \p cls (or that would have
     * been, EnqueueFromSwitch): tell the scheduler, StartFrame, and release
     * it to the switch.
     * \param entry the frame and its accounting \param cls its class
     */
    void SendEntry(const PfcQueueEntry& entry, uint8_t cls);
    /// Put \p frame on the wire. \param frame the frame (Ethernet header on)
    void StartFrame(Ptr<Packet> frame);
    /// \param cls class \param now the time \return whether \p cls is paused at \p now
    bool IsClassPausedAt(uint8_t cls, Time now) const;
    /// Sets m_pausedUntil[cls] and its bit in m_pauseSet.
    /// \param cls class \param until the pause's end (0: not paused)
    void SetPausedUntil(uint8_t cls, Time until);
    /// Apply a received PFC frame (after the processing delay), unless the link
    /// went down since it arrived. \param pfc the body \param linkDowns m_linkDowns then
    void ApplyPfc(PfcHeader pfc, uint64_t linkDowns);
    /// The pause of \p cls may have ended. \param cls class
    void PauseExpired(uint8_t cls);
    /// Refresh the PAUSE of \p cls. \param cls class
    void RefreshPause(uint8_t cls);
    /// Queue a host frame. \param frame frame \param cls class \return accepted
    bool EnqueueHost(Ptr<Packet> frame, uint8_t cls);
    /// Class of an outgoing host packet (before the Ethernet header). \param packet it
    uint8_t ClassOfHostPacket(Ptr<const Packet> packet, uint16_t protocol) const;
    /// Stop or wake the host transmit queue of \p cls. \param cls class
    void UpdateHostTxQueue(uint8_t cls);
    /// Drop a data frame. \param entry the frame \param reason why
    void DropEntry(const PfcQueueEntry& entry, PfcDropReason reason);
    /// Drop a received data frame if the ReceiveErrorModel loses it.
    /// \param frame the frame (Ethernet header on) \return whether it was dropped
    bool DropIfLostOnLink(Ptr<Packet> frame);
    /// \return the PFC pause refresh period in effect
    Time GetRefreshPeriod() const;
    /// Store DSCP \p dscp's class. \param dscp 0..63 \param cls 0..7
    void SetDscpNibble(uint8_t dscp, uint8_t cls);
    /// \param dscp 0..63 \return its class in m_dscpClass (the table, even for the default)
    uint8_t GetDscpNibble(uint8_t dscp) const;

    /// Bits of m_traced: the per-frame trace sources with a sink.
    enum TraceBit : uint8_t
    {
        TRACE_MAC_TX = 1,
        TRACE_MAC_RX = 2,
        TRACE_PHY_TX_BEGIN = 4,
        TRACE_PHY_TX_END = 8,
        TRACE_PHY_RX_END = 16,
        TRACE_SNIFFER = 32,
        TRACE_PROMISC_SNIFFER = 64,
    };

    /// A GetWireTime result.
    struct WireTime
    {
        uint32_t bytes = 0; //!< frame size (0: empty; SetDataRate empties both)
        Time time;          //!< its time on the wire
    };

    /// A class queue and its byte count: 32 bytes, two a cache line.
    struct ClassQueue
    {
        PfcFifo<PfcQueueEntry> frames; //!< the frames, oldest first
        uint64_t bytes = 0;            //!< bytes queued
    };

    // Per-frame state first, grouped by cache line (the class is aligned to
    // 64 bytes, so each alignas(64) group below starts a line).  In a large
    // network a port's lines are out of the cache again by its next frame,
    // so every line a frame touches costs a memory read.  A frame queued at
    // the port touches lines 0 and 1 and the line of its class queue; sent,
    // lines 0 and 2 and its class queue; received by a switch port, line 0
    // (and line 3 with a DSCP map other than the default).  The rest is read
    // on PFC, link and set-up events only.

    // Line 0 (after the Object base): every frame.  m_controlPending,
    // m_holdingOnWire, m_dscpDefault and m_pauseSet could be derived from
    // state in later lines; they are kept here so that a frame does not read
    // those lines.
    bool m_busy : 1;           //!< a frame is on the wire, or was (WireBusy)
    bool m_txDonePending : 1;  //!< a TxDoneEvent is scheduled for it
    bool m_linkUp : 1;         //!< link state
    bool m_peerMacKnown : 1;   //!< m_peerMac is valid
    bool m_controlPending : 1; //!< m_controlQueue is not empty
    bool m_dscpDefault : 1;    //!< m_dscpClass maps DSCP d to d / 8 (not read)
    bool m_holdingOnWire : 1;  //!< m_onWire holds the frame (for PhyTxEnd)
    bool m_lossOnReceive : 1;  //!< m_receiveErrorModel is set
    uint8_t m_backlog;         //!< bit c: m_queues[c] is not empty
    uint8_t m_traced;          //!< TraceBit of the traces with sinks
    uint8_t m_pauseSet;        //!< bit c clear: m_pausedUntil[c] is 0 (not read)
    ClassMode m_classMode;     //!< ClassMode
    uint32_t m_switchPort;     //!< port index in the switch, or kPfcNoPort
    PfcPortOwner* m_owner;     //!< the switch, or nullptr
    Ptr<PfcChannel> m_channel; //!< the channel
    /// Times the link went down: the channel's epoch (PfcChannel::GetEpoch),
    /// so that an arriving frame is checked against it here, on this line.
    uint64_t m_linkDowns;

    // Line 1: queueing a frame (its ECN mark and Ethernet header); the host
    // transmit source.
    alignas(64) uint32_t m_ecnKmin;         //!< EcnKmin (bytes)
    uint32_t m_ecnKmax;                     //!< EcnKmax (bytes)
    Mac48Address m_peerMac;                 //!< the peer's address (once known)
    Mac48Address m_address;                 //!< Address
    double m_ecnPmax;                       //!< EcnPmax
    Ptr<UniformRandomVariable> m_ecnRandom; //!< marking decisions
    TransmitSourceCallback m_source;        //!< host transmit source
    EgressStampCallback m_egressStamp;      //!< switch egress stamp (INT)
    uint64_t m_txBytes = 0;                 //!< bytes put on the wire
    uint32_t m_nodeContext;                 //!< GetNodeContext()

    // Line 2: starting a frame.
    alignas(64) mutable std::array<WireTime, 2> m_wireTimes; //!< GetWireTime's last two
    /// The other end, when this device schedules its frames' arrivals there
    /// itself (SetDirectPeer); nullptr: through PfcChannel::TransmitStart.
    PfcNetDevice* m_peer;
    Time m_linkDelay;              //!< the channel's Delay, with m_peer
    uint32_t m_peerContext;        //!< m_peer's GetNodeContext() (NO_CONTEXT: not read yet)
    int64_t m_wireFreeAt;          //!< when the frame on the wire ends (time steps; WireBusy)
    Ptr<PfcScheduler> m_scheduler; //!< Scheduler

    DataRate m_bps; //!< DataRate (read when m_wireTimes misses)

    // Line 3: receiving a frame at a host, or with a DSCP map of one's own.
    /// DSCP -> class, two DSCPs a byte (DSCP d in the low nibble of byte
    /// d / 2 when d is even, the high one when odd).
    alignas(64) std::array<uint8_t, 32> m_dscpClass;
    ReceiveHookCallback m_receiveHook; //!< host receive hook

    // Lines 4-7: the class queues.
    alignas(64) std::array<ClassQueue, kPfcClasses> m_queues; //!< class queues

    // Line 8: read only while m_pauseSet has the class's bit.
    alignas(
        64) std::array<Time, kPfcClasses> m_pausedUntil; //!< peer paused us until (0: not paused)
    PfcFifo<Ptr<Packet>> m_controlQueue;                 //!< PFC frames to send
    Ptr<Packet> m_onWire; //!< the frame on the wire, kept only for PhyTxEnd sinks

    // The traces every frame may fire (as PointToPointNetDevice); m_traced
    // says which have sinks.
    PfcFlaggedTrace<Ptr<const Packet>> m_macTxTrace;          //!< MacTx
    PfcFlaggedTrace<Ptr<const Packet>> m_macRxTrace;          //!< MacRx
    PfcFlaggedTrace<Ptr<const Packet>> m_phyTxBeginTrace;     //!< PhyTxBegin
    PfcFlaggedTrace<Ptr<const Packet>> m_phyTxEndTrace;       //!< PhyTxEnd
    PfcFlaggedTrace<Ptr<const Packet>> m_phyRxEndTrace;       //!< PhyRxEnd
    PfcFlaggedTrace<Ptr<const Packet>> m_snifferTrace;        //!< Sniffer
    PfcFlaggedTrace<Ptr<const Packet>> m_promiscSnifferTrace; //!< PromiscSniffer

    // Other attributes
    uint16_t m_mtu;            //!< Mtu
    uint16_t m_pauseQuanta;    //!< PauseQuanta
    Time m_pauseRefresh;       //!< PauseRefresh (0: half the pause time)
    Time m_processingDelay;    //!< ProcessingDelay (negative: 802.1Qbb cap)
    uint32_t m_hostQueueLimit; //!< HostQueueLimit (bytes per class)

    // Wiring
    Ptr<Node> m_node;                                    //!< the node
    uint32_t m_ifIndex;                                  //!< interface index
    TracedCallback<> m_linkChangeCallbacks;              //!< link change listeners
    NetDevice::ReceiveCallback m_rxCallback;             //!< to the node (host)
    NetDevice::PromiscReceiveCallback m_promiscCallback; //!< to the node (promiscuous)
    SwitchPfcCallback m_switchPfc;                       //!< switch PFC hook (ITSY)
    Ptr<NetDeviceQueueInterface> m_queueInterface;       //!< host transmit queues

    // PFC state
    std::array<Time, kPfcClasses> m_pausedSince;      //!< start of the current pause
    std::array<EventId, kPfcClasses> m_pauseExpiry;   //!< expiry events
    std::array<bool, kPfcClasses> m_pausingPeer;      //!< we are pausing the peer's class
    std::array<Time, kPfcClasses> m_pausingSince;     //!< since when (StartPausing)
    std::array<EventId, kPfcClasses> m_refreshEvent;  //!< refresh events
    std::array<Time, kPfcClasses> m_ignorePauseUntil; //!< PAUSE ignored until (IgnorePauseUntil)
    std::array<PfcHeader::Padding, kPfcClasses> m_pausePadding; //!< next PAUSE's padding
    uint8_t m_pausePaddingSet;                                  //!< bit c: m_pausePadding[c] set

    // Counters
    uint64_t m_pfcTx;                              //!< PFC frames sent
    uint64_t m_pfcRx;                              //!< PFC frames received
    uint64_t m_pauseTx;                            //!< PAUSE frames sent
    uint64_t m_resumeTx;                           //!< RESUME frames sent
    uint64_t m_pfcLost;                            //!< PFC frames lost (link down)
    Ptr<ErrorModel> m_receiveErrorModel;           //!< ReceiveErrorModel (nullptr: no loss)
    std::array<uint64_t, kPfcDropReasons> m_drops; //!< drops per reason

    // The PFC and drop traces
    TracedCallback<Ptr<const Packet>, PfcDropReason> m_dropTrace; //!< Drop
    TracedCallback<const PfcHeader&> m_pfcTxTrace;                //!< PfcTx
    TracedCallback<const PfcHeader&> m_pfcRxTrace;                //!< PfcRx
    TracedCallback<uint8_t, bool> m_classPauseTrace;              //!< ClassPause
};

} // namespace ns3

#endif /* PFC_NET_DEVICE_H */
