/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef PFC_DEADLOCK_ORACLE_H
#define PFC_DEADLOCK_ORACLE_H

#include "pfc-switch-net-device.h"

#include "ns3/event-id.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <functional>
#include <map>
#include <ostream>
#include <set>
#include <vector>

/**
 * \file
 * \ingroup tagger
 * A global observer that finds PFC deadlocks (for tests and examples).
 */

namespace ns3
{

/**
 * \ingroup tagger
 * Finds PFC deadlocks from outside the network, with global knowledge.
 *
 * Wait-for graph: a vertex is an egress queue (switch, port, class) that is
 * paused by its peer (its PAUSE arrived, or the peer decided it and it is on
 * the way) and holds frames.  Vertex (A, p, c) waits for vertex
 * (B, q, d) when p leads to switch B (arriving on B's port p') and B's
 * egress queue (q, d) holds frames that came in on (p', an ingress queue
 * whose PAUSE names class c): (A, p, c) cannot resume before (B, q, d)
 * drains.  A cycle of such waits is a deadlock.  It formed when the last
 * of its pauses was decided: the time the downstream switch decided the
 * PAUSE in force (PfcNetDevice::GetPausingPeerSince: its first PAUSE, not a
 * refresh), a link delay, a frame and the processing delay before the
 * PAUSE took effect upstream.  A detector in the switches (ITSY) starts at
 * that decision, so its delay is measured from there.
 *
 * A check finds every elementary cycle of the graph (Johnson's algorithm;
 * at most kMaxCycles per check, said on standard error if reached), so a
 * loop closed through any queues is seen, not only one cycle per
 * strongly connected part.  Every formation is reported, recurrences
 * included: a cycle that a check
 * finds and the check before did not is a new deadlock (Deadlock trace,
 * GetDeadlocks), so a loop that a recovery breaks and that forms again
 * counts each time.  Checks are periodic (Start) or CheckNow: a cycle that
 * forms and breaks between two checks is not seen, and one broken and
 * formed again between them counts once.
 *
 * Also the definition test of the TTL scheme: stop every sender, let the
 * network run; lossless bytes that never drain are deadlocked
 * (GetLosslessBytes() after a drain period).
 */
class PfcDeadlockOracle : public Object
{
  public:
    /// One egress queue of a cycle.
    struct Member
    {
        uint32_t node; //!< node id of the switch
        uint32_t port; //!< port index in the switch
        uint8_t cls;   //!< class (egress queue)
    };

    /// A deadlock: a cycle in the wait-for graph.
    struct Deadlock
    {
        std::vector<Member> cycle; //!< the queues, each waiting for the next (last for first)
        Time formed;               //!< when the last pause of the cycle was decided
        Time detected;             //!< when the oracle first saw it
        Time lastSeen;             //!< the last check that found it
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    PfcDeadlockOracle();

    /// Watch every switch among \p nodes. \param nodes nodes (others are ignored)
    void AddSwitches(const NodeContainer& nodes);
    /// Watch one switch. \param sw the switch
    void AddSwitch(Ptr<PfcSwitchNetDevice> sw);

    /**
     * Check every Interval from \p start until \p stop.  In a distributed
     * (MPI) run the oracle runs per rank: it says so on standard error when
     * some watched switches are on other ranks, and checks the switches of
     * its own rank (their queues and pauses are only simulated there).
     * \param start first check \param stop last
     */
    void Start(Time start, Time stop);

    /**
     * Build the wait-for graph now and record any new cycle.
     * \return the cycles found now (new or already known)
     */
    std::vector<Deadlock> CheckNow();

    /**
     * Whether \p queues (a detector's verdict, e.g. an ITSY declaration's
     * loop) are the queues of one cycle: one found now (CheckNow), or one
     * present at \p at (formed by then and found by a check at or after
     * it).  For an exact answer about \p at, a check must have run then
     * (CheckNow, e.g. from the detector's trace at that time); otherwise a
     * cycle that dissolved between \p at and the next check is missed.
     * \param queues egress queues (node id, port, class) \param at when the detector says they were
     * a cycle \return confirmed
     */
    bool Confirms(const std::vector<Member>& queues, Time at);

    /// At most this many cycles are reported per check.
    static constexpr uint32_t kMaxCycles = 4096;

    /**
     * Every elementary cycle of a directed graph, each once, from its lowest
     * vertex (Johnson's algorithm), up to \p limit of them.
     * \param adj adjacency lists (v waits for each of adj[v])
     * \param visit called with each cycle, each vertex waiting for the next
     * \param limit most cycles visited
     * \return cycles visited (\p limit: there may be more)
     */
    static uint32_t ForEachCycle(const std::vector<std::vector<uint32_t>>& adj,
                                 const std::function<void(const std::vector<uint32_t>&)>& visit,
                                 uint32_t limit);

    bool HasDeadlock() const; //!< \return a deadlock was seen
    /// \return every formation seen, recurrences included, in time order
    const std::vector<Deadlock>& GetDeadlocks() const;
    uint64_t GetLosslessBytes() const; //!< \return lossless bytes held in all watched MMUs
    /// Print the deadlocks seen. \param os stream
    void PrintSummary(std::ostream& os) const;

    /// TracedCallback signature for Deadlock.
    typedef void (*DeadlockTracedCallback)(const Deadlock& deadlock);

  protected:
    void DoDispose() override;

  private:
    /// Periodic check. \param stop last check time
    void Periodic(Time stop);
    /// Map each switch port to the (switch, port) at its other end.
    void BuildPeers();
    /**
     * \param s switch index \param p port \param c class (a paused egress queue)
     * \return when its peer decided the pause in force
     */
    Time PauseDecided(uint32_t s, uint32_t p, uint8_t c) const;
    /**
     * \param s switch index \param p port \param c class
     * \return whether the peer of that egress queue has decided to pause it
     *         (its PAUSE may still be on the way)
     */
    bool PeerPausing(uint32_t s, uint32_t p, uint8_t c) const;

    Time m_interval;                                 //!< Interval
    std::vector<Ptr<PfcSwitchNetDevice>> m_switches; //!< watched switches
    /// [switch][port] -> (peer switch index or -1, peer port index)
    std::vector<std::vector<std::pair<int32_t, uint32_t>>> m_peers;
    bool m_peersBuilt;                 //!< m_peers is valid
    std::vector<Deadlock> m_deadlocks; //!< every formation
    /// the last check's cycles (their queues from the lowest) -> index in m_deadlocks
    std::map<std::vector<uint64_t>, std::size_t> m_present;
    bool m_capWarned;                                //!< the kMaxCycles message was printed
    EventId m_event;                                 //!< next periodic check
    TracedCallback<const Deadlock&> m_deadlockTrace; //!< Deadlock
};

} // namespace ns3

#endif /* PFC_DEADLOCK_ORACLE_H */
