/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef ITSY_DETECTOR_H
#define ITSY_DETECTOR_H

#include "itsy-header.h"
#include "pfc-switch-monitor.h"
#include "pfc-types.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <map>
#include <set>
#include <vector>

/**
 * \file
 * \ingroup tagger
 * ITSY: PFC deadlock detection in the switch data plane.
 */

namespace ns3
{

class PfcSwitchNetDevice;

/**
 * \ingroup tagger
 * The ITSY detector of one PfcSwitchNetDevice (ITSY, Sec. III), a
 * PfcSwitchMonitor: the switch owns it (attribute PfcSwitchNetDevice::Itsy,
 * null by default, or AddMonitor) and calls its hooks; it sees nothing else
 * of the switch's pipeline.
 *
 * State (per port and PFC class, ITSY Sec. III-B and Fig. 1):
 * - causality: for each egress queue (E, d), how many lossless frames of
 *   each ingress (port I, pause class c) it holds (xi_E: the (I, c) with a
 *   nonzero count; a count, not a bit, so that the bit clears when the last
 *   such frame leaves);
 * - whether E's class d is paused by its downstream (a PAUSE arrived, no
 *   RESUME since) and whether ingress (I, c) pauses its upstream (the port's
 *   own record, PfcNetDevice::IsPausingPeer);
 * - the generic-initiator records {S_gen, P_gen, Seq} received at (E, d),
 *   with the trigger {S_tri, P_tri} and the time each was stored, cleared
 *   on RESUME (the time realises r_p: see HandleTemporal);
 * - the records sent out of each pausing ingress (I, c), cleared when it
 *   stops pausing, and this switch's own probes (as generic initiator).
 *
 * Events:
 * - an ingress (I, c) starts pausing (BeforePause): if no egress causal
 *   with it is paused, this switch is an initial trigger and the generic
 *   initiator of a new episode {self, I, Seq} (ITSY Sec. III-A, III-C);
 *   else its PAUSE carries the records stored at the paused causal egress
 *   queues.  The first record rides in the PAUSE frame's padding, the
 *   others in synthesized frames;
 * - a checking message arrives at (E, d): stored, then forwarded in a
 *   synthesized frame out of every (I, c) in delta_E (causal with E and
 *   pausing; an ingress whose PAUSE is still to come carries it then);
 *   dropped when delta_E is empty or when the same record was stored
 *   already (it went round a loop it did not start);
 * - Lemma 1: a message of our own episode arrives at (E, d) with P_gen in
 *   xi_E and P_gen still pausing in that episode: causality loop; a
 *   temporal check starts;
 * - Lemma 3: a message whose trigger {S_tri, P_tri} is stored at another
 *   port too: this switch is a middle switch and starts its own episode
 *   out of delta_E, in parallel;
 * - Lemma 2: the temporal check goes round the same chain (ingress ports
 *   whose sent record has the episode's Seq) and passes a port only if its
 *   record has the same Seq and was stored no later than the detection (no
 *   RESUME since: r_p = 0); back at the generic initiator, a deadlock is
 *   declared;
 * - a PAUSE from a host (it runs no ITSY, ITSY Sec. III-A: a host that
 *   pauses is an initial trigger): the switch facing it opens an episode on
 *   the host's behalf, S_gen = S_tri = the host's node id.
 *
 * What the paper leaves open and this model chooses (doc/ chapter):
 * episodes are retried every ProbeInterval while their port pauses (a
 * chain may complete after the first message passed; a retry carries a new
 * Seq); a port that passes a pause on and still pauses ProbeInterval later
 * starts an episode of its own (fallback initiator: the initiator of its
 * chain may have stopped pausing while the loop it started persists); a port keeps one record per
 * generic initiator, not one in all (two initiators on one loop would otherwise overwrite each
 * other's records); the temporal check is simultaneous at the detection time (each record stored
 * before it and still there after it).
 */
class ItsyDetector : public PfcSwitchMonitor
{
  public:
    /// What a declaration does (the paper leaves the policy open, ITSY Sec. IV).
    enum Recovery
    {
        RECOVERY_NONE,   //!< detect only
        RECOVERY_BREAK,  //!< the loop's breaker drops its loop queue's lossless frames (BreakTime)
        RECOVERY_TRIGGER //!< break, and make the initial trigger's class lossy for HoldTime
    };

    /// One egress queue of a declared loop.
    struct Hop
    {
        uint32_t node; //!< node id of the switch
        uint32_t port; //!< egress port index
        uint8_t cls;   //!< class
    };

    /// A deadlock declaration.
    struct Declaration
    {
        Time time;             //!< when it was declared
        Time detected;         //!< when the causality loop was detected (Lemma 1)
        uint32_t genNode;      //!< generic initiator: node id
        uint32_t genPort;      //!< its pausing ingress port
        uint8_t genCls;        //!< and class
        uint32_t trigNode;     //!< initial trigger: node id
        uint32_t trigPort;     //!< its pausing port (0 for a host)
        uint8_t trigCls;       //!< and class
        bool onLoop;           //!< the initial trigger is one of the loop's switches
        bool middle;           //!< the initiator is a middle switch (Lemma 3)
        bool resolveTrigger;   //!< Recovery is Trigger: the trigger's switch must act
        std::vector<Hop> loop; //!< the loop's egress queues, from the initiator's upstream
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    ItsyDetector();

    // PfcSwitchMonitor
    void Attach(PfcSwitchNetDevice* sw) override;
    PfcDropReason GetRecoveryDropReason() const override; //!< \return itsy-recovery
    void NotifyEnqueue(uint32_t outPort, uint8_t outCls, uint32_t inPort, uint8_t inCls) override;
    void NotifyDequeue(uint32_t outPort, uint8_t outCls, uint32_t inPort, uint8_t inCls) override;
    /**
     * Ingress (\p port, \p cls) is about to pause: an initial trigger opens
     * an episode, a port that passes a pause on carries the records of the
     * paused causal egress queues; the first rides in the PAUSE's padding.
     * \param port ingress port \param cls class
     */
    void BeforePause(uint32_t port, uint8_t cls) override;
    /// The PAUSE left: the records it could not carry follow in synthesized
    /// frames. \param port ingress port \param cls class
    void AfterPause(uint32_t port, uint8_t cls) override;
    /// (\p port, \p cls) stopped pausing (after its RESUME). \param port port \param cls class
    void AfterResume(uint32_t port, uint8_t cls) override;
    /// A PFC frame arrived on \p port (before its processing delay).
    /// \param port port \param pfc the body
    void ReceivePfc(uint32_t port, const PfcHeader& pfc) override;
    uint16_t GetEtherType() const override; //!< \return kEtherTypeItsy
    /// A synthesized ITSY frame arrived on \p port. \param port port
    /// \param body the frame, Ethernet header removed
    void ReceiveFrame(uint32_t port, Ptr<Packet> body) override;
    /// \param port egress port \param cls class \param lossless lossless frame
    /// \return a loop queue Break drains now takes no lossless frame
    bool IsDropping(uint32_t port, uint8_t cls, bool lossless) const override;
    /// \param port ingress port \param cls pause class \return turned lossy by ResolveTrigger now
    bool IsHoldingLossy(uint32_t port, uint8_t cls) const override;
    /**
     * \param port ingress port \param cls pause class
     * \return whether a lossless overflow there now is Trigger recovery's drop:
     *         during the hold, and until what the upstream sent before the
     *         PAUSE that ends it has arrived
     */
    bool IsHoldDrop(uint32_t port, uint8_t cls) const override;

    /**
     * Initial-trigger handling (Recovery Trigger; ITSY Sec. IV): if node
     * \p trigNode is this switch, its ingress (\p port, \p cls) turns lossy
     * for HoldTime: a RESUME goes upstream now and no PAUSE until the end,
     * so frames beyond the queue's lossless limit are dropped as
     * itsy-recovery (this recovery's drops, not a PFC failure); when the
     * hold ends, a queue still OFF pauses its upstream at once (EndHold,
     * PfcSwitchNetDevice::ReevaluatePause), so the class is lossless again; if
     * it is a host on one of this switch's ports, that port ignores the
     * host's PAUSE frames for \p cls for HoldTime.
     * \param trigNode S_tri \param port P_tri's port \param cls its class
     * \return whether this switch acted
     */
    bool ResolveTrigger(uint32_t trigNode, uint32_t port, uint8_t cls);
    uint64_t GetPiggybacked() const;     //!< \return checking messages sent in PAUSE frames
    uint64_t GetSynthesized() const;     //!< \return synthesized frames sent
    uint64_t GetDropped() const;         //!< \return messages dropped (no causal pausing port)
    uint64_t GetLoopsDetected() const;   //!< \return causality loops detected (Lemma 1)
    uint64_t GetMiddleEpisodes() const;  //!< \return episodes started as middle switch (Lemma 3)
    uint64_t GetTemporalFailed() const;  //!< \return temporal checks that failed (Lemma 2)
    uint64_t GetDeclarations() const;    //!< \return deadlocks declared
    uint64_t GetInitialTriggers() const; //!< \return pauses this switch started as initial trigger
    uint64_t GetBreaks() const;          //!< \return loops this switch broke as their breaker
    /// \return break requests this switch, the breaker, did not act on: the
    ///         loop was broken since their detection, or had unwound
    uint64_t GetBreaksSkipped() const;

    /**
     * The state memory of one switch in the paper's layout (ITSY Sec. V):
     * per port and lossless class, the traffic map (one bit per port and
     * class), the pausing bit, r_p, {S_gen, P_gen, Seq} and {S_tri, P_tri};
     * one Seq counter per switch.
     * \param ports ports \param classes lossless classes \param nodeBits bits of a node ID
     * \param portBits bits of a port ID \param seqBits bits of Seq_id
     * \return bits
     */
    static uint64_t MemoryBits(uint32_t ports,
                               uint32_t classes,
                               uint32_t nodeBits,
                               uint32_t portBits,
                               uint32_t seqBits);

    /// TracedCallback signature for Declaration.
    typedef void (*DeclarationTracedCallback)(const Declaration& declaration);
    /// TracedCallback signature for Decision: (what, port, class).
    typedef void (*DecisionTracedCallback)(const std::string& what, uint32_t port, uint8_t cls);

  protected:
    void DoDispose() override;

  private:
    /// A record received at an egress queue.
    struct Record
    {
        uint32_t seq;      //!< Seq_id
        Time stored;       //!< when it was stored (r_p: see HandleTemporal)
        uint32_t trigNode; //!< S_tri
        uint16_t trigPort; //!< P_tri
        bool temporal;     //!< a temporal check of this Seq passed here already
    };

    /// An episode this switch started as generic initiator.
    struct Probe
    {
        bool active = false;   //!< running
        bool middle = false;   //!< started as middle switch (Lemma 3)
        bool declared = false; //!< declared a deadlock
        uint32_t seq = 0;      //!< current Seq_id
        uint32_t trigNode = 0; //!< S_tri
        uint16_t trigPort = 0; //!< P_tri
        EventId retry;         //!< next retry
        /// Between retries: ProbeInterval, or longer once a checking message
        /// came back after a retry had replaced it (the loop's round trip is
        /// longer than ProbeInterval): then three of those round trips, so
        /// that a probe and its temporal check both finish before the next.
        Time interval;
        /// When the latest Seq_ids were sent (the last kSentSeqs), to measure
        /// the round trip of a message that comes back.
        std::deque<std::pair<uint32_t, Time>> sent;
    };

    /// How many Seq_ids of a probe keep their send time (Probe::sent).
    static constexpr std::size_t kSentSeqs = 16;

    /**
     * Send probe \p i's current Seq_id (its checking message goes out with
     * it) and schedule the next retry after its interval.
     * \param i the pausing ingress (port, class)
     * \param inPause whether the message rides in the PAUSE about to leave
     */
    /**
     * The Trigger hold of (\p port, \p cls) ends: the switch pauses the
     * upstream if the class's ingress queue is OFF (PfcSwitchNetDevice::ReevaluatePause).
     * \param port the port \param cls the class
     */
    void EndHold(uint32_t port, uint8_t cls);

    void SendProbe(uint32_t i, bool inPause);

    typedef std::map<uint64_t, Record> Records; //!< by generic initiator key

    /// \param port port \param cls class \return (port, class) index
    uint32_t Pc(uint32_t port, uint8_t cls) const;
    /// \param e egress (port, class) index \param i ingress (port, class) index \return count index
    uint32_t Ci(uint32_t e, uint32_t i) const;
    /// \param node node id \param port port ID \return record key
    static uint64_t Key(uint32_t node, uint16_t port);
    /// \param port port \param cls class \return the port pauses its upstream's class
    bool IsPausing(uint32_t port, uint8_t cls) const;
    /// \param port port \return whether its peer is a switch
    bool PeerIsSwitch(uint32_t port) const;
    /// \param e egress index \return delta_E: causal ingress (port, class) indices that pause
    std::vector<uint32_t> Delta(uint32_t e) const;

    /**
     * The records stored at the paused egress queues causal with ingress \p i.
     * \param i ingress index \param carry out: the messages to pass on, by key
     * \return whether any causal egress queue is paused
     */
    bool CausalRecords(uint32_t i, std::map<uint64_t, ItsyMessage>& carry) const;
    /// \param e egress index \param m a CHECKING message
    void HandleChecking(uint32_t e, const ItsyMessage& m);
    /// Lemma 1 at the initiator. \param e egress index \param m the message back
    void HandleReturn(uint32_t e, const ItsyMessage& m);
    /// Lemma 2. \param e egress index \param h the TEMPORAL frame
    void HandleTemporal(uint32_t e, ItsyHeader& h);
    /// Lemma 3: is the trigger of \p m stored at a port other than \p port?
    /// \param port port \param m message \return yes
    bool TriggerElsewhere(uint32_t port, const ItsyMessage& m) const;
    /// Forward \p m out of delta_E. \param e egress index \param m message
    void Forward(uint32_t e, ItsyMessage m);
    /// Start an episode out of ingress index \p i. \param i ingress index
    /// \param trigNode S_tri \param trigPort P_tri \param middle Lemma 3
    /// \param inPause carry it in the PAUSE about to be sent (else synthesize)
    void StartProbe(uint32_t i, uint32_t trigNode, uint16_t trigPort, bool middle, bool inPause);
    /// A pause passed on is still unconfirmed: start an episode. \param i ingress index
    void FallbackProbe(uint32_t i);
    /// Send the probe of \p i again with a new Seq_id. \param i ingress index
    void RetryProbe(uint32_t i);
    /// A host paused (E, d): open (or renew) its episode. \param e egress index
    void HostEpisode(uint32_t e);
    /// \param i ingress index \return the probe's message
    ItsyMessage ProbeMessage(uint32_t i) const;
    /// Send \p h in a synthesized frame out of \p port. \param port port \param h body
    void SendSynthesized(uint32_t port, const ItsyHeader& h);
    /// Declare. \param i initiator ingress index \param h the TEMPORAL frame back
    void Declare(uint32_t i, const ItsyHeader& h);
    /**
     * \param e the loop queue at the initiator (egress index)
     * \param i the initiator's ingress index \param seq the episode's Seq_id
     * \return whether the episode's loop still holds here: its probe runs
     *         undeclared with that Seq_id, \p e holds frames from \p i, \p i pauses
     */
    bool StillLooped(uint32_t e, uint32_t i, uint32_t seq) const;
    /**
     * Recovery Break at a declaring initiator: ask the loop's breaker (its
     * lowest node id) to break it; this switch, if it is the breaker.
     * \param h the TEMPORAL frame back (its hops: the loop; the last is here)
     */
    void RequestBreak(const ItsyHeader& h);
    /// \param hops a loop's hops \return its breaker: the lowest node id
    static uint32_t Breaker(const std::vector<ItsyHeader::Hop>& hops);
    /// Send a BREAK request to the switch of its hop (message.trigPort). \param request it
    void SendBreak(const ItsyHeader& request);
    /**
     * A BREAK request arrived: pass it on, or, at the breaker, flush the
     * loop queue unless it was broken since the request's detection (the
     * same episode, declared by another initiator) or is no longer paused
     * with frames.  \param h the request
     */
    void HandleBreak(ItsyHeader& h);
    /// Trace a decision. \param what it \param index (port, class) index
    void Decide(const std::string& what, uint32_t index);

    Time m_probeInterval;              //!< ProbeInterval
    Recovery m_recovery;               //!< Recovery
    Time m_holdTime;                   //!< HoldTime
    std::vector<Time> m_lossyUntil;    //!< per ingress pc: lossy until (ResolveTrigger)
    std::vector<Time> m_holdTailUntil; //!< per ingress pc: the hold's frames still arrive (EndHold)
    Time m_breakTime;                  //!< BreakTime
    std::vector<Time> m_drainUntil;    //!< per egress pc: Break drops its arrivals until
    std::vector<Time> m_brokenAt;      //!< per egress pc: its last break (-1: none)
    PfcSwitchNetDevice* m_sw;          //!< the switch (owns this detector)
    uint32_t m_node;                   //!< its node id
    uint32_t m_nPorts;                 //!< ports
    std::vector<uint32_t> m_counts;    //!< causality counts [egress pc][ingress pc]
    std::vector<uint8_t> m_pausedRx;   //!< per egress pc: paused by its downstream
    std::vector<Records> m_records;    //!< per egress pc: records received
    std::vector<std::map<uint64_t, uint32_t>> m_sent; //!< per ingress pc: key -> Seq sent
    std::vector<Probe> m_probes;                      //!< per ingress pc: own episodes
    std::vector<Probe> m_hostProbes; //!< per egress pc: episodes on a host's behalf
    /// Records BeforePause found that the PAUSE could not carry (AfterPause sends them).
    std::vector<ItsyHeader> m_afterPause;
    uint32_t m_seq; //!< last Seq_id given out

    uint64_t m_piggybacked;   //!< counter
    uint64_t m_synthesized;   //!< counter
    uint64_t m_dropped;       //!< counter
    uint64_t m_loops;         //!< counter
    uint64_t m_middles;       //!< counter
    uint64_t m_temporalFail;  //!< counter
    uint64_t m_declarations;  //!< counter
    uint64_t m_triggers;      //!< counter
    uint64_t m_breaks;        //!< counter
    uint64_t m_breaksSkipped; //!< counter

    TracedCallback<const Declaration&> m_declarationTrace;                 //!< Declaration
    TracedCallback<const Declaration&> m_breakTrace;                       //!< Break
    TracedCallback<const std::string&, uint32_t, uint8_t> m_decisionTrace; //!< Decision
};

} // namespace ns3

#endif /* ITSY_DETECTOR_H */
