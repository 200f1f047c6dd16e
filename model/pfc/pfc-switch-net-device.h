/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef PFC_SWITCH_NET_DEVICE_H
#define PFC_SWITCH_NET_DEVICE_H

#include "itsy-detector.h"
#include "pfc-classifier.h"
#include "pfc-net-device.h"
#include "pfc-route-table.h"
#include "pfc-switch-monitor.h"
#include "pfc-watchdog.h"
#include "switch-mmu.h"

#include "ns3/ipv4-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/net-device.h"
#include "ns3/traced-callback.h"

#include <array>
#include <vector>

/**
 * \file
 * \ingroup tagger
 * A PFC switch: a device that owns PfcNetDevice ports and forwards IPv4.
 */

namespace ns3
{

/**
 * \ingroup tagger
 * A lossless (PFC) switch.  It owns its ports (PfcNetDevices on the same
 * node, as ns-3's BridgeNetDevice owns its ports) and runs one pipeline per
 * received frame, a private function per stage:
 *
 *   parse Ethernet/IPv4 (ReceiveFromPort) -> Classify (ingress queue, on
 *   the header as received) -> SelectPort (FIB, a PfcRouteTable: longest
 *   prefix -> ECMP set; 5-tuple hash with a per-switch seed) -> DecrementTtl
 *   (drop at 1 or 0) -> AdmitIngress (lossless MMU admission on the ingress
 *   queue, PAUSE / RESUME) -> Rewrite (classifier: Tagger tag, TTL class) -> AdmitEgress
 *   (lossy MMU admission on the egress queue of the rewritten class) ->
 *   Encapsulate (ECN mark, IPv4 and Ethernet headers) -> Enqueue (port
 *   queue, then the port's scheduler).
 *
 * Packets this node originates (SendLocal) enter at SelectPort and skip
 * the ingress stages (Classify, DecrementTtl, AdmitIngress) and AdmitEgress:
 * they are charged to no buffer pool and leave with the TTL they were given
 * (a packet with TTL 0 is dropped, TTL_EXPIRED).
 *
 * When a frame leaves a port, the MMU releases its bytes.  Pause state has
 * one owner per level: the MMU says whether an ingress queue is OFF (it
 * crossed Xoff, no Xon since), the port whether it pauses its peer's class
 * (PfcNetDevice::IsPausingPeer, refreshed while on).  The class is the one
 * the classifier names (GetPauseClass); several ingress queues may name one
 * class (TtlClassifier), so the port pauses the class while any of them is
 * OFF: PAUSE when the first turns OFF, RESUME when the last turns ON.
 *
 * The same engine serves servers that relay (BCube): give the switch device
 * an IPv4 address through the Internet stack (it is a NetDevice) and add
 * local addresses with AddLocalAddress(); packets for them go up the stack,
 * packets the stack sends are routed through the FIB like transit ones.
 *
 * A RoCE NIC engine (RdmaNic) on such a server uses the same two hooks a
 * host PfcNetDevice offers: SetReceiveHook() sees every IPv4 packet for a
 * local address before the stack does, and SetTransmitSource() is asked for
 * locally originated packets, which then take the FIB like the stack's.
 * The NIC cannot know the egress port before the FIB chose it, so the
 * switch does not ask "per idle port" as a host device does: it asks
 * whenever its local backlog allows, and a class counts as paused for the
 * source while the frames this node originated of that class (NIC and stack
 * alike, not yet on the wire) hold LocalQueueLimit bytes or more in the
 * port queues.  A port paused by PFC thus keeps its local frames queued
 * (nothing is dropped) and, once the limit is reached, holds up the
 * source's other frames of that class too, whatever their port.
 *
 * Deadlock detectors and recovery policies watch the pipeline through one
 * small interface, PfcSwitchMonitor (none by default; then Enqueue tests one
 * flag and nothing else changes): the ITSY detector (attribute Itsy,
 * ItsyDetector), the PFC watchdog (attribute Watchdog, PfcWatchdog) and any
 * other given to AddMonitor().  The switch calls their hooks (lossless
 * enqueue and dequeue, pause decisions, PFC frames received, frames of
 * their EtherType) and asks them two things: whether an egress queue takes
 * no frame now, and whether an ingress class is held lossy.  A recovery drop
 * has one definition (RecoveryDrop: the monitor's reason and counter), at
 * Enqueue (releasing the buffer the frame was charged to), at a held
 * class's overflow, and for what a queue holds (FlushForRecovery).
 */
class PfcSwitchNetDevice : public NetDevice, private PfcPortOwner
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    PfcSwitchNetDevice();
    ~PfcSwitchNetDevice() override;

    /**
     * Make \p port a port of this switch (same node, attached to a channel).
     * \param port the device
     * \return its port index (0, 1, ...)
     */
    uint32_t AddPort(Ptr<PfcNetDevice> port);
    uint32_t GetNPorts() const;                  //!< \return number of ports
    Ptr<PfcNetDevice> GetPort(uint32_t i) const; //!< \param i index \return the port

    /**
     * Add \p port to the ECMP set of prefix \p dest / \p mask (created if new).
     * \param dest prefix \param mask mask \param port port index
     */
    void AddRoute(Ipv4Address dest, Ipv4Mask mask, uint32_t port);
    /**
     * Set the ECMP set of a prefix (replacing it).
     * \param dest prefix \param mask mask \param ports port indices
     */
    void SetRoute(Ipv4Address dest, Ipv4Mask mask, const std::vector<uint32_t>& ports);
    /// Remove every route.
    void ClearRoutes();
    /**
     * Remove \p port from every ECMP set (link failure); sets that become
     * empty stay, so their destinations become NO_ROUTE drops.
     * \param port port index
     * \return number of ECMP sets changed
     */
    uint32_t RemovePortFromRoutes(uint32_t port);
    /**
     * \param dest a destination
     * \return the ECMP set of the longest matching prefix (empty: no route)
     */
    std::vector<uint32_t> Lookup(Ipv4Address dest) const;
    /// \return the routes (sizes: ranges, ECMP sets, prefixes; Find)
    const PfcRouteTable& GetRouteTable() const;
    /// Deliver packets for \p address to this node's stack. \param address it
    void AddLocalAddress(Ipv4Address address);
    /// \param address an address \return whether AddLocalAddress() gave it
    bool IsLocalAddress(Ipv4Address address) const;

    /**
     * Set the local transmit source (a relay server's RoCE NIC engine): it
     * is asked for IPv4 packets this node originates (header on, TTL as they
     * should leave the node) and is given, as the argument, the classes it
     * must not return (see the class description: local backlog at
     * LocalQueueLimit).  Null callback: none.
     * \param source the source
     */
    void SetTransmitSource(PfcNetDevice::TransmitSourceCallback source);
    /// The transmit source has something to send: ask it (in a new event, now).
    void NotifySourceReady();
    /**
     * \param hook sees every IPv4 packet (header on) for a local address
     * before the stack; true = consumed.  Null callback: none.
     */
    void SetReceiveHook(PfcNetDevice::ReceiveHookCallback hook);
    /// \param dscp DSCP 0..63 \return class of locally originated packets with it (port 0 map)
    uint8_t GetClassOfDscp(uint8_t dscp) const;
    /// \param cls class \return bytes of locally originated frames of it waiting in port queues
    uint64_t GetLocalQueueBytes(uint8_t cls) const;

    /**
     * The ECMP choice for a 5-tuple (exposed for tests and helpers).
     * \param src source \param dst destination \param proto protocol
     * \param sport source port \param dport destination port \param nChoices set size
     * \return index into the ECMP set
     */
    uint32_t EcmpIndex(Ipv4Address src,
                       Ipv4Address dst,
                       uint8_t proto,
                       uint16_t sport,
                       uint16_t dport,
                       uint32_t nChoices) const;

    /// \param classifier the priority policy
    void SetClassifier(Ptr<PfcClassifier> classifier);
    Ptr<PfcClassifier> GetClassifier() const; //!< \return the priority policy
    Ptr<SwitchMmu> GetMmu() const;            //!< \return the MMU

    /**
     * Whether the MMU's buffers fit the ports as connected now (SwitchMmu::CheckFit
     * with every port's link described to it), before the simulation starts;
     * DoInitialize ends the program with the same message otherwise.
     * \return "" or what does not fit
     */
    std::string CheckBuffer();

    /**
     * Send PAUSE for class \p cls out of \p port if an ingress queue of that
     * class is OFF and the port is not pausing it: the pause decision of a queue
     * that turned OFF while ITSY held the class lossy (Trigger recovery), made
     * when the hold ends.
     * \param port the ingress port \param cls the pause class
     */
    void ReevaluatePause(uint32_t port, uint8_t cls);
    /**
     * Attach a detector or recovery policy (before the simulation starts);
     * the Itsy and Watchdog attributes' come first, then these in order.
     * \param monitor it
     */
    void AddMonitor(Ptr<PfcSwitchMonitor> monitor);
    uint32_t GetNMonitors() const; //!< \return monitors attached (after initialisation: all)
    /// \param i index \return monitor \p i
    Ptr<PfcSwitchMonitor> GetMonitor(uint32_t i) const;
    /**
     * Recovery: drop the lossless frames egress queue (\p port, \p cls)
     * holds (releasing their buffer), as \p by's recovery drops.
     * \param port egress port \param cls class \param by the monitor
     * \return frames dropped
     */
    uint32_t FlushForRecovery(uint32_t port, uint8_t cls, PfcSwitchMonitor& by);
    Ptr<ItsyDetector> GetItsy() const;    //!< \return the ITSY detector (null: off)
    Ptr<PfcWatchdog> GetWatchdog() const; //!< \return the PFC watchdog (null: off)

    /// \param reason reason \return data frames dropped by this switch (its ports included)
    uint64_t GetDropCount(PfcDropReason reason) const;
    uint64_t GetForwardedCount() const; //!< \return frames forwarded
    uint64_t GetEcnMarkedCount() const; //!< \return frames this switch marked CE
    /**
     * \return MMU PAUSE decisions: ingress queues turned OFF (the PFC frames
     * sent are the ports' counters, PfcNetDevice::GetPauseTxFrames)
     */
    uint64_t GetPauseDecisions() const;
    /**
     * \return MMU RESUME decisions: ingress queues turned ON (the PFC frames
     * sent are the ports' counters, PfcNetDevice::GetResumeTxFrames)
     */
    uint64_t GetResumeDecisions() const;

    // NetDevice
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
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

    /// TracedCallback signature for Drop: (frame, ingress port, reason).
    typedef void (*SwitchDropTracedCallback)(Ptr<const Packet> frame,
                                             uint32_t inPort,
                                             PfcDropReason reason);
    /**
     * TracedCallback signature for Forward: (IP payload, IPv4 header as
     * received, ingress port, egress port chosen by the FIB and ECMP).
     */
    typedef void (*ForwardTracedCallback)(Ptr<const Packet> payload,
                                          const Ipv4Header& ip,
                                          uint32_t inPort,
                                          uint32_t outPort);

  protected:
    void DoInitialize() override;
    void DoDispose() override;

  private:
    /// Describe every port's upstream link to the MMU (SwitchMmu::SetPortLink).
    void DescribePortLinks();

    /**
     * A frame arrived on port \p inPort; the port parsed its Ethernet header.
     * \param inPort port \param port that port (m_ports[inPort], not read:
     * in a large network that line of the array is out of the cache)
     * \param frame the frame, Ethernet header off \param eth that header
     */
    void ReceiveFromPort(uint32_t inPort,
                         const PfcNetDevice& port,
                         Ptr<Packet> frame,
                         const EthernetDot1qHeader& eth) override;
    /// A frame left port \p outPort. \param outPort port \param entry it
    void DequeuedFromPort(uint32_t outPort, const PfcQueueEntry& entry) override;
    /**
     * Forward a transit IPv4 packet: run it through the pipeline's stages.
     * \param packet payload (Ethernet and IPv4 headers removed) \param ip its header
     * \param inPort ingress port \param bytes bytes to charge (the frame as received)
     * \param ctx classifier context
     */
    void Forward(Ptr<Packet> packet,
                 Ipv4Header& ip,
                 uint32_t inPort,
                 uint32_t bytes,
                 PfcPacketContext& ctx);
    /// Stage: the ingress queue. \param ctx the packet \return the queue
    uint8_t Classify(const PfcPacketContext& ctx) const;
    /**
     * Stage: the egress port, from the FIB and the ECMP hash (drops NO_ROUTE).
     * \param packet payload \param ip header \param inPort ingress port (for a drop)
     * \return the port, or kPfcNoPort when dropped
     */
    uint32_t SelectPort(Ptr<Packet> packet, Ipv4Header& ip, uint32_t inPort);
    /**
     * Stage: decrement the TTL of a transit packet (drops TTL <= 1, TTL_EXPIRED).
     * \param packet payload \param ip header \param inPort ingress port
     * \return false when dropped
     */
    bool DecrementTtl(Ptr<Packet> packet, Ipv4Header& ip, uint32_t inPort);
    /**
     * The Int egress stamp of every port (PfcNetDevice::EgressStampCallback).
     * \param port the port \param frame its frame \param txBytes bytes it has sent
     * \param queueBytes bytes waiting behind the frame
     */
    void StampInt(const PfcNetDevice& port,
                  Ptr<Packet> frame,
                  uint64_t txBytes,
                  uint64_t queueBytes);
    /**
     * Stage: lossless admission on the ingress queue (a lossy class passes;
     * drops LOSSLESS_OVERFLOW), with the PAUSE/RESUME it decides.
     * \param packet payload \param ip header
     * \param entry bytes, ingress port and queue set; its pool is set here
     * \return false when dropped
     */
    bool AdmitIngress(Ptr<Packet> packet, Ipv4Header& ip, PfcQueueEntry& entry);
    /**
     * Stage: the classifier's rewrite (Tagger tag, TTL class).
     * \param ctx the packet \param outPort egress port \return the egress queue
     */
    uint8_t Rewrite(PfcPacketContext& ctx, uint32_t outPort);
    /**
     * Stage: lossy admission on the egress queue, unless the packet was
     * charged to the lossless pool (drops LOSSY_OVERFLOW).
     * \param packet payload \param ip header \param entry the entry (pool set here)
     * \param outPort egress port \param outQueue egress queue
     * \return false when dropped
     */
    bool AdmitEgress(Ptr<Packet> packet,
                     Ipv4Header& ip,
                     PfcQueueEntry& entry,
                     uint32_t outPort,
                     uint8_t outQueue);
    /**
     * Stage: ECN marking (DCQCN), then the IPv4 and Ethernet headers.
     * \param packet payload, becomes the frame \param ip header
     * \param outPort egress port \param outQueue egress queue (the 802.1Q PCP in Pcp mode)
     */
    void Encapsulate(Ptr<Packet> packet, Ipv4Header& ip, uint32_t outPort, uint8_t outQueue);
    /**
     * Stage: into the egress port's class queue.
     * \param frame the frame \param entry its accounting \param outPort port
     * \param outQueue class queue
     */
    void Enqueue(Ptr<Packet> frame, PfcQueueEntry& entry, uint32_t outPort, uint8_t outQueue);
    /**
     * Ingress queue (\p port, \p queue) turned OFF or ON: pause or resume
     * its PAUSE class on the port, unless another ingress queue of the port
     * with that class is OFF (the class stays paused).
     * \param port ingress port \param queue ingress queue \param off turned OFF (else ON)
     */
    void IngressQueueTurned(uint32_t port, uint8_t queue, bool off);
    /// A PFC frame arrived on \p port (ITSY, watchdog). \param port port \param pfc body
    void PfcReceived(uint32_t port, const PfcHeader& pfc);
    /**
     * A recovery (ITSY's Break, the PFC watchdog's Drop) takes no frame for
     * this queue now: release \p entry's buffer and drop it.
     * \param entry the frame \param outPort egress port \param outQueue egress queue
     * \return whether it was dropped
     */
    bool DropForRecovery(const PfcQueueEntry& entry, uint32_t outPort, uint8_t outQueue);
    /**
     * The one definition of a recovery drop: \p by counts it, the drop has
     * its reason.  \param frame the frame \param inPort ingress port
     * \param by the monitor whose recovery drops it
     */
    void RecoveryDrop(Ptr<const Packet> frame, uint32_t inPort, PfcSwitchMonitor& by);
    /// Drop a packet whose IPv4 header was removed. \param packet payload \param ip header
    /// \param inPort port \param reason why
    void DropPacket(Ptr<Packet> packet,
                    const Ipv4Header& ip,
                    uint32_t inPort,
                    PfcDropReason reason);
    /// Record a drop. \param frame frame \param inPort port \param reason why
    void Drop(Ptr<const Packet> frame, uint32_t inPort, PfcDropReason reason);
    /// A port's own drop (link down). \param frame frame \param reason why
    void PortDrop(Ptr<const Packet> frame, PfcDropReason reason);
    /**
     * Route an IPv4 packet this node originates (stack or transmit source):
     * SelectPort, Rewrite, Encapsulate, Enqueue.
     * \param packet the packet, IPv4 header on
     */
    void SendLocal(Ptr<Packet> packet);
    /// Ask the transmit source for packets while the local backlog allows.
    void PullLocal();

    // Attributes
    uint32_t m_ecmpSeed;   //!< EcmpSeed (0: derived from the node id)
    uint16_t m_mtu;        //!< Mtu
    uint32_t m_localLimit; //!< LocalQueueLimit (bytes per class)

    Ptr<Node> m_node;                                    //!< the node
    uint32_t m_ifIndex;                                  //!< interface index
    Mac48Address m_address;                              //!< this device's address
    std::vector<Ptr<PfcNetDevice>> m_ports;              //!< ports
    Ptr<SwitchMmu> m_mmu;                                //!< MMU
    Ptr<PfcClassifier> m_classifier;                     //!< priority policy
    Ptr<ItsyDetector> m_itsy;                            //!< Itsy (null: off)
    Ptr<PfcWatchdog> m_watchdog;                         //!< Watchdog (null: off)
    std::vector<Ptr<PfcSwitchMonitor>> m_monitors;       //!< AddMonitor's; all once initialised
    PfcRouteTable m_fib;                                 //!< routes
    std::vector<uint32_t> m_localAddresses;              //!< local delivery
    NetDevice::ReceiveCallback m_rxCallback;             //!< to the stack (relay servers)
    NetDevice::PromiscReceiveCallback m_promiscCallback; //!< promiscuous
    PfcNetDevice::TransmitSourceCallback m_source;       //!< local transmit source (RoCE NIC)
    PfcNetDevice::ReceiveHookCallback m_receiveHook;     //!< local receive hook (RoCE NIC)
    std::array<uint64_t, kPfcClasses> m_localBytes;      //!< local frames queued, per class
    EventId m_pullEvent;                                 //!< pending PullLocal
    uint32_t m_seed;                                     //!< ECMP seed in effect
    bool m_checksum;                                     //!< recompute IPv4 checksums
    bool m_int = false;                                  //!< Int
    bool m_initialized;                                  //!< DoInitialize ran (MMU set up)
    bool m_observed; //!< a monitor is attached (set by DoInitialize)

    uint64_t m_forwarded;                          //!< frames forwarded
    uint64_t m_ecnMarked;                          //!< frames marked CE
    std::array<uint64_t, kPfcDropReasons> m_drops; //!< switch-level drops per reason
    TracedCallback<Ptr<const Packet>, uint32_t, PfcDropReason> m_dropTrace; //!< Drop
    /// Forward
    TracedCallback<Ptr<const Packet>, const Ipv4Header&, uint32_t, uint32_t> m_forwardTrace;
};

} // namespace ns3

#endif /* PFC_SWITCH_NET_DEVICE_H */
