/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef RDMA_NIC_H
#define RDMA_NIC_H

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/pfc-net-device.h"
#include "ns3/pfc-switch-net-device.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/rdma-rx-buffer.h"
#include "ns3/traced-callback.h"
#include "ns3/type-id.h"

#include <deque>
#include <map>
#include <ostream>
#include <unordered_map>
#include <vector>

/**
 * \file
 * \ingroup tagger
 * A RoCEv2 NIC engine on a host PfcNetDevice: queue pairs, go-back-N, and a
 * congestion control policy (DCQCN by default).
 */

namespace ns3
{

class RoceBthHeader;

/**
 * \ingroup tagger
 * One RDMA flow to start: a reliable-connection queue pair sending one
 * message of \c bytes bytes.
 */
struct RdmaFlowSpec
{
    Ipv4Address dst;    //!< destination host
    uint64_t bytes = 0; //!< message size (bytes of payload)
    Time start;         //!< start time (absolute)
    uint8_t dscp = 24;  //!< IPv4 DSCP (the class, or the Tagger tag): 24 = class 3
    uint16_t sport = 0; //!< UDP source port (0: the NIC picks one per flow)
    Time idealFct;      //!< ideal completion time for the slowdown (0: the NIC's own estimate)
};

/**
 * \ingroup tagger
 * What a finished (or unfinished, at the end) flow did.
 */
struct RdmaFlowRecord
{
    uint32_t flowId = 0;        //!< the NIC's flow id (per NIC)
    Ipv4Address src;            //!< source host
    Ipv4Address dst;            //!< destination host
    uint16_t sport = 0;         //!< UDP source port
    uint8_t dscp = 0;           //!< DSCP
    uint64_t bytes = 0;         //!< message size
    Time start;                 //!< start time
    bool finished = false;      //!< the last byte was acknowledged (at any FCT, 0 included)
    Time finish;                //!< when the last byte was acknowledged (0: not finished)
    Time fct;                   //!< finish - start
    Time idealFct;              //!< the ideal used for the slowdown
    double slowdown = 0;        //!< fct / idealFct
    uint64_t packets = 0;       //!< data packets of the message
    uint64_t retransmitted = 0; //!< data packets sent again (go-back-N or timeout)
    uint64_t timeouts = 0;      //!< retransmission timeouts
    uint64_t cnps = 0;          //!< CNPs received for this flow

    /// CSV column names, one line.
    static std::string CsvHeader();
    /// \param os stream \param r record: one CSV line (no newline)
    static void WriteCsv(std::ostream& os, const RdmaFlowRecord& r);
};

/**
 * \ingroup tagger
 * A RoCEv2 NIC engine attached to a host PfcNetDevice.
 *
 * Sender: each flow is a queue pair (QP number 256 + flow id on both ends:
 * QP 0 and 1 are InfiniBand management QPs) sending PSN-numbered packets of
 * PayloadSize bytes (Ethernet / IPv4 / UDP 4791 / BTH / payload / ICRC).
 * The device asks the NIC for a frame only when its link is idle, naming the
 * paused classes; the NIC answers round robin among queue pairs whose class
 * is not paused and whose rate limiter allows a packet now, so a RoCE sender
 * never drops its own packets.  ACKs, NAKs and CNPs go first.
 *
 * Receiver: in-order delivery; an ACK every AckInterval packets, for the
 * last packet of a message and for every packet with AckReq, and at the
 * latest AckDelay after an unacknowledged in-order packet; a NAK at the
 * first packet after a gap (then silence until the gap is filled); a CNP per
 * queue pair at most every CnpInterval when data arrives ECN-marked (CE).
 *
 * Loss recovery: go-back-N from the PSN a NAK names, and from the oldest
 * unacknowledged PSN when no ACK progress is seen for RetransmitTimeout.
 *
 * Congestion control: a policy object of the CongestionControl type
 * (RdmaCongestionControl: it sets each flow's rate and window from what the
 * flow observes), created at Attach: RdmaDcqcn (the default), RdmaDctcp,
 * RdmaTimely or RdmaNoCongestionControl (every flow at line rate).  Dcqcn
 * false turns DCQCN off (the older switch: no congestion control when the
 * type is RdmaDcqcn).  DCQCN of Zhu et al. (SIGCOMM 2015): on a CNP, Rt =
 * Rc, Rc = Rc (1 - alpha/2), alpha = (1 - g) alpha + g; without CNPs for
 * AlphaTimer, alpha = (1 - g) alpha; rate increase events every
 * RateIncreaseTimer and every ByteCounter bytes, counted separately since
 * the last cut (T and BC, incremented before the test): fast recovery (Rc =
 * (Rt + Rc) / 2) while max(T, BC) < F = FastRecoverySteps (so F - 1 events),
 * additive increase (Rt += RAI, then the same averaging) until both pass F,
 * then hyper increase (Rt += (min(T, BC) - F) RHAI).  Its parameters are
 * this class's attributes (RdmaDcqcn reads them here).
 *
 * Mellanox NICs, and the HPCC family of simulators after them, differ in
 * three ways, each an attribute here: ClampTargetRate false (a cut sets Rt =
 * Rc only when a rate increase event came since the previous cut, so a
 * train of cuts keeps the old target and fast recovery climbs back to it);
 * RateDecreaseInterval > 0 (a CNP only flags the flow; a timer cuts at most
 * once per interval, and alpha rises on its own timer only); ByteCounter 0
 * (no byte counter: the timer's count alone picks the stage).  On a
 * sustained incast the first matters most (doc: "Coming from the HPCC
 * family").
 *
 * On a relay server (BCube) the NIC drives the server's PfcSwitchNetDevice
 * instead (Attach overload): its packets take the server's FIB to one of the
 * ports, and the switch asks for packets while its local backlog allows
 * rather than when a port is idle (PfcSwitchNetDevice, LocalQueueLimit):
 * a "paused" class there means "this server's own frames of the class
 * already wait in its port queues", e.g. behind a PFC pause on one port.
 * The line rate (first DCQCN rate, ideal FCT) is the fastest port's.
 */
class RdmaNic : public Object
{
  public:
    /// Bytes of the headers a RoCEv2 data packet adds to its payload: IPv4 (20), UDP (8),
    /// BTH (12) and ICRC (4).
    static constexpr uint32_t kRoceHeaderBytes = 20 + 8 + 12 + 4;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RdmaNic();
    ~RdmaNic() override;

    /**
     * Most data packets one flow may have: 2^32 - 2 (a queue pair counts its
     * packets in 32 bits); AddFlow refuses a longer flow.  The BTH carries a
     * 24-bit PSN, which wraps: each end reads a PSN as the packet index
     * nearest the one it expects, so a sender never has more than
     * kMaxPacketsInFlight packets sent and not acknowledged.
     */
    static constexpr uint64_t kMaxFlowPackets = (uint64_t(1) << 32) - 2;

    /**
     * Most packets a queue pair has sent and not seen acknowledged: 2^23 - 1,
     * half the 24-bit PSN range, so that a PSN ahead of the one expected is
     * told from one behind (a full window waits for an ACK, as with
     * MaxBytesInFlight).
     */
    static constexpr uint32_t kMaxPacketsInFlight = (uint32_t(1) << 23) - 1;

    /**
     * The most bytes one flow may carry: kMaxFlowPackets full packets of the
     * PayloadSize default in force now (after the command line), 8,388,607,000
     * bytes with the default 1,000-byte payload.  Programs check their flows
     * against it before the simulation.
     * \return bytes
     */
    static uint64_t GetMaxFlowBytes();

    /**
     * Drive \p device (a host PfcNetDevice) with address \p local.
     * \param device the device \param local this host's IPv4 address
     */
    void Attach(Ptr<PfcNetDevice> device, Ipv4Address local);
    /**
     * Drive relay server \p relay (its PfcSwitchNetDevice, with \p local
     * among its local addresses and at least one port).
     * \param relay the server's forwarding engine \param local its IPv4 address
     */
    void Attach(Ptr<PfcSwitchNetDevice> relay, Ipv4Address local);

    /**
     * Start a flow at spec.start.
     * \param spec the flow
     * \return its flow id on this NIC
     */
    uint32_t AddFlow(const RdmaFlowSpec& spec);

    /**
     * Stop every flow of this NIC now: no more data packets (new or
     * retransmitted) leave; ACKs, NAKs and CNPs still do.  Unfinished flows
     * stay unfinished in the records.  Used by the drain test of the TTL scheme.
     */
    void StopFlows();
    /**
     * Put \p buffer between the host device and this NIC engine (a receive
     * buffer with PFC of its own; before or after Attach, host devices only).
     * \param buffer the buffer
     */
    void SetRxBuffer(Ptr<RdmaRxBuffer> buffer);
    Ptr<RdmaRxBuffer> GetRxBuffer() const; //!< \return the receive buffer (null: none)

    /// \return records of every flow this NIC sent (finished or not)
    std::vector<RdmaFlowRecord> GetFlowRecords() const;
    /// \return the node of the device (or relay server) it is attached to (nullptr before)
    Ptr<Node> GetNode() const;
    uint32_t GetActiveFlows() const; //!< \return flows not yet acknowledged in full
    /**
     * \return bytes a full-size data packet occupies on an untagged link: PayloadSize,
     * kRoceHeaderBytes, the Ethernet header and FCS, preamble and inter-frame gap
     */
    uint32_t GetDataFrameWireBytes() const;
    /// \return header bytes of a data packet: kRoceHeaderBytes, and the INT header when the
    /// congestion control asks for it (RoceIntHeader::kSize)
    uint32_t GetDataHeaderBytes() const;
    uint64_t GetDataPacketsSent() const;      //!< \return data packets sent (first and again)
    uint64_t GetRetransmittedPackets() const; //!< \return data packets sent again
    uint64_t GetTimeouts() const;             //!< \return retransmission timeouts
    uint64_t GetCnpsSent() const;             //!< \return CNPs sent (as a receiver)
    uint64_t GetCnpsReceived() const;         //!< \return CNPs received (as a sender)
    uint64_t GetEcnEchoesReceived() const;    //!< \return ACKs received with BECN (sender)
    uint64_t GetNaksSent() const;             //!< \return NAKs sent (as a receiver)
    uint64_t GetBytesDelivered() const;       //!< \return payload bytes delivered in order
    uint64_t GetDuplicatePackets() const; //!< \return data packets received twice or out of order
    /// \return data packets received in order (each delivers its payload once)
    uint64_t GetDataPacketsDelivered() const;
    /// \param flowId a flow \return its current rate (DCQCN: Rc)
    DataRate GetRate(uint32_t flowId) const;
    /// \return the congestion control policy (null before Attach)
    Ptr<RdmaCongestionControl> GetCongestionControl() const;
    /// \param flowId a flow \return payload bytes of it acknowledged so far
    uint64_t GetAckedBytes(uint32_t flowId) const;

    /// TracedCallback signature for FlowComplete.
    typedef void (*FlowRecordTracedCallback)(const RdmaFlowRecord& record);
    /// TracedCallback signature for RateChange: (flow id, new rate in bit/s).
    typedef void (*RateTracedCallback)(uint32_t flowId, uint64_t bitRate);
    /// TracedCallback signature for RttSample: (flow id, round-trip time).
    typedef void (*RttTracedCallback)(uint32_t flowId, Time rtt);
    /// TracedCallback signature for DataSent: (flow id, the packet's number in the flow
    /// from 0 (its PSN is InitialPsn + that, mod 2^24), whether it was sent before).
    typedef void (*DataSentTracedCallback)(uint32_t flowId, uint32_t packet, bool resent);

  protected:
    void DoDispose() override;

  private:
    friend class RdmaCongestionControl; // rates, windows, the line rate
    friend class RdmaDcqcn;             // DCQCN's attributes are this class's

    /// Sender state of one queue pair.
    struct SendQp;
    /// Receiver state of one queue pair (keyed by source address and QP number).
    struct RecvQp;

    /// The device's transmit source. \param pausedMask paused classes \return a packet or null
    Ptr<Packet> PullPacket(uint8_t pausedMask);
    /// The device's receive hook. \param packet an IPv4 packet \return true if RoCE (consumed)
    bool ReceivePacket(Ptr<Packet> packet);
    /**
     * \param packet an IPv4 packet
     * \return whether it is a UDP packet to this NIC's address and the RoCEv2
     *         port (the hook's packets; any other goes on to the node unchanged)
     */
    bool IsRoceForUs(const Ptr<Packet>& packet) const;

    void StartFlow(uint32_t flowId); //!< \param flowId flow
    /// \param qp sender \param psn sequence index \return the data packet (IPv4 header on)
    Ptr<Packet> BuildData(SendQp& qp, uint32_t psn);
    /**
     * Queue an ACK, NAK or CNP (sent ahead of data).
     * \param dst peer \param sport UDP source port \param dscp DSCP \param opcode BTH opcode
     * \param destQp BTH destination QP \param psn BTH PSN (24 bits) \param syndrome AETH
     * syndrome (ACK/NAK only) \param becn the BTH's BECN bit \param echo INT to echo
     * after the AETH (ACKs; null: none)
     */
    void QueueControl(Ipv4Address dst,
                      uint16_t sport,
                      uint8_t dscp,
                      uint8_t opcode,
                      uint32_t destQp,
                      uint32_t psn,
                      uint8_t syndrome,
                      bool becn = false,
                      const RoceIntHeader* echo = nullptr);
    /// \param qp sender \param psn24 PSN of the ACK/NAK \param nak whether a NAK
    /// \param becn the ACK's BECN bit (CE-marked data echoed)
    /// \param telemetry the INT it echoes (null: none)
    void OnAck(SendQp& qp,
               uint32_t psn24,
               bool nak,
               bool becn,
               const RoceIntHeader* telemetry = nullptr);
    void OnCnp(SendQp& qp);   //!< \param qp sender: a CNP for it (to the policy)
    void SendAck(RecvQp& qp); //!< \param qp receiver: ACK what arrived
    /// \param qp receiver: the delayed-ACK check (SendAck when due, else wait again)
    void DelayedAck(RecvQp& qp);
    /**
     * Receiver: a data packet arrived.
     * \param src sender \param sport UDP source port \param dscp its DSCP \param ce ECN CE
     * \param bth its BTH \param payload payload bytes \param telemetry its INT (null: none)
     */
    void OnData(Ipv4Address src,
                uint16_t sport,
                uint8_t dscp,
                bool ce,
                const RoceBthHeader& bth,
                uint32_t payload,
                const RoceIntHeader* telemetry);
    void RetransmitTimeout(uint32_t flowId); //!< \param flowId flow: RTO fired
    /// \param qp sender \param bps its new rate, clamped to [MinRate, line rate]
    void SetRate(SendQp& qp, double bps);
    /// \param flowId a flow \return its rate (bit/s)
    double GetFlowRate(uint32_t flowId) const;
    /// \param flowId a flow \param bps its new rate, clamped to [MinRate, line rate]
    void SetFlowRate(uint32_t flowId, double bps);
    /// \param flowId a flow \param bytes its window (payload bytes in flight; 0: none)
    void SetFlowWindow(uint32_t flowId, uint64_t bytes);
    /// \param tid a congestion control type (CongestionControl)
    void SetCongestionControlType(TypeId tid);
    TypeId GetCongestionControlType() const; //!< \return CongestionControl
    void SetDcqcn(bool on);                  //!< \param on Dcqcn
    bool GetDcqcn() const;                   //!< \return Dcqcn
    /// Create the policy the attributes ask for (at Attach; again when one
    /// of them changes before the first flow).
    void CreateCongestionControl();
    void RestartRto(SendQp& qp); //!< \param qp sender: (re)arm the RTO
    void Finish(SendQp& qp);     //!< \param qp sender: flow done
    void ScheduleWake(Time at);  //!< \param at ask the device again then
    /// \param qp sender \return its sent, unacknowledged packets reach kMaxPacketsInFlight, or
    /// MaxBytesInFlight or the policy's window is set and their bytes reach it
    bool WindowFull(const SendQp& qp) const;
    void Wake(); //!< wake event
    /// \param qp sender \return the default ideal FCT (serialisation at line rate)
    Time IdealFct(const SendQp& qp) const;
    /// \param bytes IPv4 packet size \return bits it occupies on the wire (Ethernet, FCS, preamble,
    /// gap)
    double WireBits(uint32_t bytes) const;
    /// Tell the device (host device or relay switch) the transmit source has packets.
    void NotifyDevice();
    /// \param dscp DSCP \return its class on the device
    uint8_t ClassOfDscp(uint8_t dscp) const;

    // Attributes
    uint32_t m_payloadSize;  //!< PayloadSize
    uint8_t m_ttl;           //!< Ttl
    bool m_dcqcn;            //!< Dcqcn
    TypeId m_ccType;         //!< CongestionControl
    uint32_t m_initialPsn;   //!< InitialPsn
    uint32_t m_ackInterval;  //!< AckInterval
    Time m_ackDelay;         //!< AckDelay
    uint32_t m_controlDscp;  //!< ControlDscp (64: echo)
    Time m_rto;              //!< RetransmitTimeout
    uint64_t m_maxInflight;  //!< MaxBytesInFlight (0: no limit)
    Time m_cnpInterval;      //!< CnpInterval
    double m_g;              //!< AlphaG
    Time m_alphaTimer;       //!< AlphaTimer
    Time m_rateTimer;        //!< RateIncreaseTimer
    uint64_t m_byteCounter;  //!< ByteCounter
    uint32_t m_fastSteps;    //!< FastRecoverySteps
    bool m_clampTargetRate;  //!< ClampTargetRate
    Time m_decreaseInterval; //!< RateDecreaseInterval
    DataRate m_rai;          //!< RateAI
    DataRate m_rhai;         //!< RateHAI
    DataRate m_minRate;      //!< MinRate

    Ptr<RdmaCongestionControl> m_cc;              //!< the policy (from Attach)
    bool m_sendsCnps = true;                      //!< m_cc->SendsCnps()
    bool m_echoesEcn = false;                     //!< m_cc->EchoesEcn()
    bool m_wantsRtt = false;                      //!< m_cc->WantsRtt()
    bool m_wantsInt = false;                      //!< m_cc->WantsInt()
    Ptr<PfcNetDevice> m_device;                   //!< the device (host)
    Ptr<RdmaRxBuffer> m_rxBuffer;                 //!< receive buffer (null: none)
    Ptr<PfcSwitchNetDevice> m_relay;              //!< or the relay server's forwarding engine
    Ipv4Address m_local;                          //!< this host
    double m_lineRate;                            //!< device rate, bit/s
    std::vector<SendQp*> m_send;                  //!< sender QPs by flow id (owned)
    std::unordered_map<uint64_t, RecvQp*> m_recv; //!< receiver QPs (owned)
    // The receiver QP of the last data packet (its src and qpn are its key):
    // in a large network a host receives one flow at a time, and the map's
    // bucket and node are out of the cache (two reads) at every packet.
    RecvQp* m_lastRecv = nullptr;                          //!< in m_recv, or null
    std::deque<std::pair<Ptr<Packet>, uint8_t>> m_control; //!< ACK/NAK/CNP and class, sent first
    uint32_t m_rrNext;                                     //!< round-robin position
    uint16_t m_nextSport;                                  //!< next UDP source port to hand out
    EventId m_wake;                                        //!< pending wake-up
    Time m_wakeAt;                                         //!< when m_wake fires

    std::vector<SendQp*> m_activeQps; //!< started, unfinished QPs, in flow id order
    uint64_t m_dataSent;              //!< data packets sent
    uint64_t m_retransmitted;         //!< data packets sent again
    uint64_t m_timeouts;              //!< RTOs
    uint64_t m_cnpsSent;              //!< CNPs sent
    uint64_t m_cnpsReceived;          //!< CNPs received
    uint64_t m_ecnEchoes;             //!< ACKs received with BECN
    uint64_t m_naksSent;              //!< NAKs sent
    uint64_t m_delivered;             //!< payload bytes delivered
    uint64_t m_duplicates;            //!< out-of-order / duplicate data packets
    uint64_t m_deliveredPackets;      //!< data packets received in order

    TracedCallback<const RdmaFlowRecord&> m_flowCompleteTrace; //!< FlowComplete
    TracedCallback<uint32_t, uint64_t> m_rateTrace;            //!< RateChange
    TracedCallback<uint32_t, Time> m_rttTrace;                 //!< RttSample
    TracedCallback<uint32_t, uint32_t, bool> m_dataSentTrace;  //!< DataSent
};

} // namespace ns3

#endif /* RDMA_NIC_H */
