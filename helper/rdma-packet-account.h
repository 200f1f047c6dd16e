/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger helpers (ns-3).
 */

#ifndef RDMA_PACKET_ACCOUNT_H
#define RDMA_PACKET_ACCOUNT_H

#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/pfc-types.h"

#include <array>
#include <cstdint>
#include <ostream>

namespace ns3
{

class PfcTopologyHelper;
class RdmaHelper;

/**
 * \ingroup tagger
 * Where every RoCE data packet of a run went: nothing a simulation counts is
 * lost.  The identity it checks, with each term measured on its own:
 *
 *   sent (first transmissions and resends, RdmaNic::GetDataPacketsSent)
 *     = delivered (received in order, RdmaNic::GetDataPacketsDelivered)
 *     + discarded at the receiver (duplicates, out of order: GetDuplicatePackets)
 *     + dropped, by reason (the switches' and host devices' Drop traces and
 *       the receive buffers' overflows, data packets only: IsRoceDataPacket)
 *     + in flight at the stop.
 *
 * In flight is measured, not inferred: Settle(), called once Simulator::Run
 * has returned at the stop, stops every sender (RdmaNic::StopFlows: no first
 * transmission, no resend), runs the simulation on until nothing changes
 * (no fate, no queue's data, no switch forwarding a frame) for
 * GetDefaultQuiet, and counts what reached a fate meanwhile (delivered,
 * discarded, dropped) plus the data packets still held in a device queue or
 * a receive buffer (a deadlocked network keeps them).  Results read before
 * Settle stay those of the stop; the events Settle runs change only what it
 * measures.
 *
 * \code
 *   RdmaPacketAccount account(net, rdma);   // after rdma.Install, before Run
 *   Simulator::Run();
 *   ... read the results ...
 *   account.Settle();
 *   account.Print(std::cout);               // data packets: sent=... balanced=yes
 * \endcode
 */
class RdmaPacketAccount
{
  public:
    /**
     * Watch the drops of \p net (built, with the NICs of \p rdma installed and
     * any receive buffer attached).
     * \param net the network \param rdma its NICs
     */
    RdmaPacketAccount(const PfcTopologyHelper& net, const RdmaHelper& rdma);
    ~RdmaPacketAccount();
    RdmaPacketAccount(const RdmaPacketAccount&) = delete;
    RdmaPacketAccount& operator=(const RdmaPacketAccount&) = delete;

    /**
     * Measure what is in flight (see the class comment).  Call once, after
     * Simulator::Run returned and before Simulator::Destroy.
     * \param quiet how long nothing may change before the network counts as
     *        settled (simulated time; 0: GetDefaultQuiet)
     * \param limit the most simulated time to run on
     */
    void Settle(Time quiet = Time(0), Time limit = Seconds(10));

    /**
     * \return how long a settled network stays unchanged at least: twice the
     *         longest PAUSE of any device (its PauseQuanta at its rate: a
     *         queue paused by a PAUSE that is no longer refreshed moves only
     *         when it expires, 0.84 ms at 40 Gbps), plus 1 ms
     */
    Time GetDefaultQuiet() const;

    uint64_t GetSent() const;      //!< \return data packets sent, first and again, at the stop
    uint64_t GetDelivered() const; //!< \return data packets received in order, at the stop
    uint64_t GetDiscarded() const; //!< \return duplicates and out of order, at the stop
    /// \param reason a reason \return data packets dropped for it, at the stop
    uint64_t GetDropped(PfcDropReason reason) const;
    uint64_t GetDropped() const;  //!< \return data packets dropped, every reason, at the stop
    uint64_t GetInFlight() const; //!< \return data packets in flight at the stop (Settle)
    bool IsSettled() const;       //!< \return Settle saw the network settle within its limit
    /// \return sent = delivered + discarded + dropped + in flight
    bool IsBalanced() const;

    /**
     * One line: "data packets: sent=S delivered=D discarded=X dropped=P
     * (reason=n ...) in_flight=F balanced=yes|no" (reasons with n > 0;
     * "in_flight=unsettled" when Settle hit its limit).
     * \param os the stream
     */
    void Print(std::ostream& os) const;

  private:
    /// The counts of the NICs and the drops now.
    struct Counts
    {
        uint64_t sent = 0;                               //!< data packets sent
        uint64_t delivered = 0;                          //!< received in order
        uint64_t discarded = 0;                          //!< duplicates, out of order
        std::array<uint64_t, kPfcDropReasons> dropped{}; //!< dropped, by reason
        /// \return delivered + discarded + every drop
        uint64_t Fates() const;
    };

    Counts Now() const;          //!< \return the counts now
    uint64_t QueuedData() const; //!< \return data packets held in queues and buffers now
    uint64_t Forwarded() const;  //!< \return frames every switch has forwarded, now
    /// Switch Drop trace. \param frame the frame \param port ingress \param reason why
    void SwitchDrop(Ptr<const Packet> frame, uint32_t port, PfcDropReason reason);
    /// Host device Drop trace. \param frame the frame \param reason why
    void DeviceDrop(Ptr<const Packet> frame, PfcDropReason reason);
    /// Receive buffer Drop trace. \param packet the IPv4 packet
    void BufferDrop(Ptr<const Packet> packet);

    const PfcTopologyHelper& m_net;                  //!< the network
    const RdmaHelper& m_rdma;                        //!< its NICs
    std::array<uint64_t, kPfcDropReasons> m_drops{}; //!< data packets dropped, by reason
    Counts m_atStop;                                 //!< the counts at the stop (Settle)
    uint64_t m_inFlight = 0;                         //!< in flight at the stop (Settle)
    bool m_settled = false;                          //!< Settle saw the network settle
    bool m_measured = false;                         //!< Settle ran
};

} // namespace ns3

#endif /* RDMA_PACKET_ACCOUNT_H */
