/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef SWITCH_MMU_H
#define SWITCH_MMU_H

#include "pfc-types.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <array>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup tagger
 * The buffer (MMU) model of a PFC switch.
 */

namespace ns3
{

/**
 * \ingroup tagger
 * The memory management unit of a PFC switch, as described in the background
 * of the PFC buffer background (Section II-B/C).
 *
 * One buffer of BufferSize bytes is hard-split into a lossy pool
 * (LossyPoolSize) and a lossless pool (the rest).
 *
 * Lossless pool, accounted per ingress queue (port i, class j) with
 * q = q_{i,j} its bytes before the arriving packet:
 *  - private: phi = PrivateBytes per lossless ingress queue, reserved;
 *  - headroom: eta per lossless ingress queue, reserved (per port: computed
 *    from the attached link, see HeadroomMode);
 *  - shared: the rest, Bs = pool - sum(phi) - sum(eta), bounded per queue by
 *    the Dynamic Threshold T(t) = Alpha * (Bs - sum over all queues of w_{i,j}),
 *    w = shared bytes of a queue (or by StaticXoff in STATIC mode).
 * The four cases for an arriving packet (the whole packet goes to one segment):
 *  1. q < phi: private;
 *  2. phi <= q < phi + T: shared; if the queue is OFF and w < Xon, RESUME (ON);
 *  3. phi + T <= q, and h < eta (HeadroomCheck Occupancy, the default; h = the
 *     queue's headroom bytes) or q < phi + T + eta (HeadroomCheck QueueLength,
 *     the paper's words): headroom; if the queue is ON, PAUSE (OFF);
 *  4. otherwise drop (LOSSLESS_OVERFLOW).
 * The two readings of case 3 agree while T(t) stands still and the last
 * shared packet ends exactly at phi + T (a packet that overshoots it makes
 * the literal reading lend the overshoot from eta; like the paper, both
 * decide on the state before the arrival, so h may pass eta by less than
 * one packet, as q passes phi and phi + T).  When other
 * queues fill the shared buffer after a PAUSE, T(t) shrinks and the literal
 * reading drops packets that were already in flight (measured with
 * pfc-incast --hosts-per-leaf=16 --senders=63: 170 drops, none with the
 * default), although the headroom reserved for
 * them is free; no PFC switch does that, hence the default.
 * Release takes bytes back from the headroom first, then the shared, then the
 * private segment of the queue, so a draining queue empties its headroom
 * before its shared occupancy w falls; on release an OFF queue with w < Xon
 * also turns ON (RESUME), since an OFF queue may get no more arrivals; so
 * does an OFF queue that the release empties, even when Xon is 0.  A queue
 * turns ON (on arrival or release) only once its headroom is empty: with a
 * moving T(t), w can fall below Xon while in-flight bytes still sit in the
 * headroom, and a RESUME then would leave the next PAUSE less than eta.
 * Xon = max(T(t) - XonOffset, 0) in DYNAMIC mode, StaticXon in STATIC mode.
 *
 * Lossy pool, accounted per egress queue (port, class): drop-tail against a
 * dynamic threshold LossyAlpha * (lossy pool - lossy bytes in use).
 *
 * Ports are numbered 0..n-1 (the switch's port indices).
 */
class SwitchMmu : public Object
{
  public:
    /// How the lossless shared buffer is bounded per queue.
    enum ThresholdMode
    {
        DYNAMIC, //!< T(t) = Alpha * (Bs - sum w)
        STATIC   //!< fixed StaticXoff / StaticXon on w
    };

    /// How the headroom eta of a port is chosen.
    enum HeadroomMode
    {
        HEADROOM_FIXED_RESPONSE,  //!< eta = 2 (C * Dprop + L_MTU) + 3840 B (the PFC buffer
                                  //!< background, Eq. 1)
        HEADROOM_WIRE_PROCESSING, //!< eta = 2 (L_MTU + L_PFC + r * t_wire) + r * t_pro (the TTL
                                  //!< scheme, Sec. 2)
        HEADROOM_FIXED            //!< eta = Headroom attribute
    };

    /// How case 3 (headroom) is told from case 4 (drop).
    enum HeadroomCheck
    {
        HEADROOM_OCCUPANCY, //!< headroom bytes of the queue < eta (default)
        QUEUE_LENGTH        //!< q < phi + T(t) + eta, the PFC buffer background literally
    };

    /// Result of admitting a lossless packet.
    struct Admission
    {
        MmuSegment segment; //!< where it went (DROPPED: not admitted)
        bool pause;         //!< the queue turned OFF: send PAUSE upstream
        bool resume;        //!< the queue turned ON: send RESUME upstream
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    SwitchMmu();

    /**
     * Size the per-port state and compute Bs.  Call once, after the ports'
     * links are known (SetPortLink) or with fixed headroom; calls
     * NS_FATAL_ERROR with CheckFit's message when the configuration does not fit.
     * \param nPorts number of switch ports
     */
    void Setup(uint32_t nPorts);

    /**
     * Whether Setup(\p nPorts) would succeed with the links known now
     * (SetPortLink) and the attributes: the lossy pool within the buffer, a
     * link on every port whose headroom is computed from it, and the reserved
     * private and headroom buffers of every lossless class below the lossless
     * pool.  Changes nothing.  PfcSwitchNetDevice::CheckBuffer asks it before a
     * simulation, so that a program can refuse its flags instead.
     * \param nPorts number of switch ports
     * \return "" or what does not fit, with the figures (bytes) and the port
     *         with the largest headroom and its link
     */
    std::string CheckFit(uint32_t nPorts) const;

    /**
     * Describe the link attached to \p port, for the headroom formulas.
     * \param port the port index
     * \param rate the upstream link capacity C (r)
     * \param propagation the one-way propagation delay Dprop (t_wire)
     * \param mtu the MTU L_MTU (bytes)
     * \param processing the PFC processing delay t_pro of the upstream device
     */
    void SetPortLink(uint32_t port, DataRate rate, Time propagation, uint32_t mtu, Time processing);

    /// \return eta of the PFC buffer background: 2 (C * Dprop + L_MTU) + 3840 B
    /// \param rate C \param propagation Dprop \param mtu L_MTU
    static uint64_t HeadroomFixedResponse(DataRate rate, Time propagation, uint32_t mtu);
    /// \return eta of the TTL scheme: 2 (L_MTU + L_PFC + r * t_wire) + r * t_pro
    /// \param rate r \param wire t_wire \param mtu L_MTU \param pfcFrame L_PFC (64 B)
    /// \param processing t_pro
    static uint64_t HeadroomWireProcessing(DataRate rate,
                                           Time wire,
                                           uint32_t mtu,
                                           uint32_t pfcFrame,
                                           Time processing);

    /// \param cls class \return whether it is lossless (LosslessClasses bit set)
    bool IsLossless(uint8_t cls) const;

    /**
     * Ask the processor for ingress queue (\p port, \p cls)'s counters, which
     * AdmitLossless reads: the switch calls this as soon as it knows the
     * class, so the fetch overlaps the route lookup.  No effect on the state;
     * nothing for a queue out of range.
     * \param port port \param cls class
     */
    void PrefetchIngress(uint32_t port, uint8_t cls) const
    {
        size_t index = static_cast<size_t>(port) * kPfcClasses + cls;
        if (index < m_ingress.size())
        {
            __builtin_prefetch(m_ingress.data() + index);
        }
    }

    /**
     * Admit a packet of a lossless class at ingress queue (\p port, \p cls).
     * Fires Pause/Resume/Drop traces as it decides.
     * \param port ingress port \param cls ingress queue (class) \param bytes frame size
     * \return the decision
     */
    Admission AdmitLossless(uint32_t port, uint8_t cls, uint32_t bytes);

    /**
     * Release \p bytes of a packet admitted by AdmitLossless (on dequeue).
     * \param port ingress port \param cls ingress queue \param bytes frame size
     * \return true when the queue turned ON: send RESUME upstream
     */
    bool ReleaseLossless(uint32_t port, uint8_t cls, uint32_t bytes);

    /**
     * Admit a packet of a lossy class at egress queue (\p port, \p cls).
     * \param port egress port \param cls egress queue \param bytes frame size
     * \return true if admitted (false: dropped, LOSSY_OVERFLOW traced)
     */
    bool AdmitLossy(uint32_t port, uint8_t cls, uint32_t bytes);

    /// Release a packet admitted by AdmitLossy.
    /// \param port egress port \param cls egress queue \param bytes frame size
    void ReleaseLossy(uint32_t port, uint8_t cls, uint32_t bytes);

    uint64_t GetDynamicThreshold() const;          //!< \return T(t) now (StaticXoff in STATIC mode)
    uint64_t GetXon() const;                       //!< \return the Xon threshold on w now
    uint64_t GetSharedPoolSize() const;            //!< \return Bs
    uint64_t GetSharedUsed() const;                //!< \return sum of w over all queues
    uint64_t GetPrivateSize() const;               //!< \return phi
    uint64_t GetHeadroomSize(uint32_t port) const; //!< \param port port \return eta of the port
    uint64_t GetLossyPoolSize() const;             //!< \return the lossy pool size
    uint64_t GetLossyUsed() const;                 //!< \return lossy bytes in use
    uint64_t GetLosslessUsed() const;              //!< \return lossless bytes in use (all segments)

    /// \param port ingress port \param cls class \return q_{i,j}
    uint64_t GetIngressBytes(uint32_t port, uint8_t cls) const;
    /// \param port ingress port \param cls class \return private bytes of the queue
    uint64_t GetPrivateBytes(uint32_t port, uint8_t cls) const;
    /// \param port ingress port \param cls class \return w_{i,j}
    uint64_t GetSharedBytes(uint32_t port, uint8_t cls) const;
    /// \param port ingress port \param cls class \return headroom bytes of the queue
    uint64_t GetHeadroomBytes(uint32_t port, uint8_t cls) const;
    /// \param port ingress port \param cls class \return whether the queue is OFF
    bool IsOff(uint32_t port, uint8_t cls) const;
    /// \param port egress port \param cls class \return lossy bytes of the egress queue
    uint64_t GetLossyBytes(uint32_t port, uint8_t cls) const;

    /// \return PAUSE decisions so far: ingress queues turned OFF (not PFC frames sent)
    uint64_t GetPauseCount() const;
    /// \return RESUME decisions so far: ingress queues turned ON (not PFC frames sent)
    uint64_t GetResumeCount() const;
    /// \param reason LOSSLESS_OVERFLOW or LOSSY_OVERFLOW \return drops so far
    uint64_t GetDropCount(PfcDropReason reason) const;

    /// TracedCallback signature for Pause and Resume: (port, class).
    typedef void (*PfcStateTracedCallback)(uint32_t port, uint8_t cls);
    /// TracedCallback signature for Drop: (port, class, bytes, reason).
    typedef void (*MmuDropTracedCallback)(uint32_t port,
                                          uint8_t cls,
                                          uint32_t bytes,
                                          PfcDropReason reason);
    /// TracedCallback signature for occupancy: (port, class, bytes now).
    typedef void (*OccupancyTracedCallback)(uint32_t port, uint8_t cls, uint64_t bytes);

  private:
    /// Per-queue state of the lossless pool.
    struct IngressQueue
    {
        uint64_t privateBytes = 0;  //!< bytes in the private segment
        uint64_t sharedBytes = 0;   //!< w: bytes in the shared segment
        uint64_t headroomBytes = 0; //!< bytes in the headroom segment
        bool off = false;           //!< OFF: PAUSE sent, no RESUME yet
    };

    /// Per-port link description (SetPortLink).
    struct PortLink
    {
        DataRate rate;       //!< link capacity
        Time propagation;    //!< propagation delay
        uint32_t mtu = 1500; //!< MTU
        Time processing;     //!< PFC processing delay
        bool known = false;  //!< SetPortLink was called
    };

    /// \param port a port \return eta of its link in the HeadroomMode (below 2^58 B
    /// however fast or long the link; 0 for a port without a link outside Fixed mode)
    uint64_t PortHeadroom(uint32_t port) const;

    /// \param port port \param cls class \return the queue (checked)
    IngressQueue& Queue(uint32_t port, uint8_t cls);
    /// \param port port \param cls class \return the queue (checked)
    const IngressQueue& Queue(uint32_t port, uint8_t cls) const;

    // Attributes
    uint64_t m_bufferSize;         //!< BufferSize
    uint64_t m_lossyPoolSize;      //!< LossyPoolSize
    uint64_t m_privateBytes;       //!< PrivateBytes (phi)
    double m_alpha;                //!< Alpha
    double m_lossyAlpha;           //!< LossyAlpha
    ThresholdMode m_thresholdMode; //!< ThresholdMode
    uint64_t m_staticXoff;         //!< StaticXoff
    uint64_t m_staticXon;          //!< StaticXon
    uint64_t m_xonOffset;          //!< XonOffset
    HeadroomMode m_headroomMode;   //!< HeadroomMode
    HeadroomCheck m_headroomCheck; //!< HeadroomCheck
    uint64_t m_fixedHeadroom;      //!< Headroom (fixed mode, or a floor check)
    uint8_t m_losslessClasses;     //!< LosslessClasses bitmask

    // State
    uint32_t m_nPorts;                             //!< number of ports
    std::vector<PortLink> m_links;                 //!< per-port link
    std::vector<uint64_t> m_headroom;              //!< per-port eta
    std::vector<IngressQueue> m_ingress;           //!< [port * 8 + class]
    std::vector<uint64_t> m_lossy;                 //!< [port * 8 + class]
    uint64_t m_sharedPoolSize;                     //!< Bs
    uint64_t m_sharedUsed;                         //!< sum of w
    uint64_t m_losslessUsed;                       //!< all lossless bytes
    uint64_t m_lossyUsed;                          //!< all lossy bytes
    uint64_t m_pauses;                             //!< PAUSE decisions
    uint64_t m_resumes;                            //!< RESUME decisions
    std::array<uint64_t, kPfcDropReasons> m_drops; //!< drops per reason

    TracedCallback<uint32_t, uint8_t> m_pauseTrace;                         //!< Pause
    TracedCallback<uint32_t, uint8_t> m_resumeTrace;                        //!< Resume
    TracedCallback<uint32_t, uint8_t, uint32_t, PfcDropReason> m_dropTrace; //!< Drop
    TracedCallback<uint32_t, uint8_t, uint64_t> m_ingressTrace;             //!< IngressOccupancy
    TracedCallback<uint32_t, uint8_t, uint64_t> m_lossyTrace;               //!< LossyOccupancy
};

} // namespace ns3

#endif /* SWITCH_MMU_H */
