/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-deadlock-oracle.h"

#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <functional>
#include <iostream>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcDeadlockOracle");
NS_OBJECT_ENSURE_REGISTERED(PfcDeadlockOracle);

TypeId
PfcDeadlockOracle::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfcDeadlockOracle")
            .SetParent<Object>()
            .SetGroupName("Tagger")
            .AddConstructor<PfcDeadlockOracle>()
            .AddAttribute("Interval",
                          "Time between two checks of the wait-for graph (time).",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&PfcDeadlockOracle::m_interval),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddTraceSource("Deadlock",
                            "A cycle of paused, non-empty egress queues formed (one the previous "
                            "check did not find: recurrences count).",
                            MakeTraceSourceAccessor(&PfcDeadlockOracle::m_deadlockTrace),
                            "ns3::PfcDeadlockOracle::DeadlockTracedCallback");
    return tid;
}

PfcDeadlockOracle::PfcDeadlockOracle()
    : m_interval(MicroSeconds(100)),
      m_peersBuilt(false),
      m_capWarned(false)
{
}

void
PfcDeadlockOracle::DoDispose()
{
    m_event.Cancel();
    m_switches.clear();
    Object::DoDispose();
}

void
PfcDeadlockOracle::AddSwitches(const NodeContainer& nodes)
{
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        for (uint32_t i = 0; i < (*it)->GetNDevices(); ++i)
        {
            Ptr<PfcSwitchNetDevice> sw = DynamicCast<PfcSwitchNetDevice>((*it)->GetDevice(i));
            if (sw)
            {
                AddSwitch(sw);
            }
        }
    }
}

void
PfcDeadlockOracle::AddSwitch(Ptr<PfcSwitchNetDevice> sw)
{
    m_switches.push_back(sw);
    m_peersBuilt = false;
}

void
PfcDeadlockOracle::Start(Time start, Time stop)
{
    // In a distributed (MPI) run the switches of other ranks have no events
    // here: say that this oracle sees only this rank's part of the network.
    std::size_t remote = 0;
    for (const Ptr<PfcSwitchNetDevice>& sw : m_switches)
    {
        remote += sw->GetNode()->GetSystemId() != Simulator::GetSystemId() ? 1 : 0;
    }
    if (remote > 0)
    {
        std::clog << "PfcDeadlockOracle: runs per rank: " << remote << " of the "
                  << m_switches.size() << " switches are on other MPI ranks (rank "
                  << Simulator::GetSystemId()
                  << " checks its own; a cycle across ranks is not seen)\n";
    }
    m_event.Cancel();
    m_event = Simulator::Schedule(start, &PfcDeadlockOracle::Periodic, this, stop);
}

void
PfcDeadlockOracle::Periodic(Time stop)
{
    CheckNow();
    if (Simulator::Now() + m_interval <= stop)
    {
        m_event = Simulator::Schedule(m_interval, &PfcDeadlockOracle::Periodic, this, stop);
    }
}

void
PfcDeadlockOracle::BuildPeers()
{
    std::map<Ptr<PfcNetDevice>, std::pair<int32_t, uint32_t>> where;
    for (uint32_t s = 0; s < m_switches.size(); ++s)
    {
        for (uint32_t p = 0; p < m_switches[s]->GetNPorts(); ++p)
        {
            where[m_switches[s]->GetPort(p)] = {int32_t(s), p};
        }
    }
    m_peers.assign(m_switches.size(), {});
    for (uint32_t s = 0; s < m_switches.size(); ++s)
    {
        for (uint32_t p = 0; p < m_switches[s]->GetNPorts(); ++p)
        {
            auto it = where.find(m_switches[s]->GetPort(p)->GetPeer());
            m_peers[s].push_back(it == where.end() ? std::make_pair(int32_t(-1), 0u) : it->second);
        }
    }
    m_peersBuilt = true;
}

std::vector<PfcDeadlockOracle::Deadlock>
PfcDeadlockOracle::CheckNow()
{
    if (!m_peersBuilt)
    {
        BuildPeers();
    }
    // Vertices: paused, non-empty egress queues, numbered densely.
    auto key = [](uint32_t s, uint32_t p, uint8_t c) {
        return (uint64_t(s) << 40) | (uint64_t(p) << 8) | c;
    };
    std::map<uint64_t, uint32_t> index;
    std::vector<std::tuple<uint32_t, uint32_t, uint8_t>> vertices;
    for (uint32_t s = 0; s < m_switches.size(); ++s)
    {
        for (uint32_t p = 0; p < m_switches[s]->GetNPorts(); ++p)
        {
            Ptr<PfcNetDevice> port = m_switches[s]->GetPort(p);
            for (uint8_t c = 0; c < kPfcClasses; ++c)
            {
                if ((port->IsClassPaused(c) || PeerPausing(s, p, c)) && !port->GetQueue(c).empty())
                {
                    index[key(s, p, c)] = vertices.size();
                    vertices.emplace_back(s, p, c);
                }
            }
        }
    }
    // Edges: (s, p, c) -> every paused queue of the peer switch holding frames
    // from the ingress queue that pauses class c on the peer port.
    std::vector<std::vector<uint32_t>> adj(vertices.size());
    for (uint32_t v = 0; v < vertices.size(); ++v)
    {
        auto [s, p, c] = vertices[v];
        auto [peer, peerPort] = m_peers[s][p];
        if (peer < 0)
        {
            continue;
        }
        Ptr<PfcSwitchNetDevice> b = m_switches[peer];
        Ptr<PfcClassifier> classifier = b->GetClassifier();
        for (uint32_t q = 0; q < b->GetNPorts(); ++q)
        {
            Ptr<PfcNetDevice> port = b->GetPort(q);
            for (uint8_t d = 0; d < kPfcClasses; ++d)
            {
                auto it = index.find(key(peer, q, d));
                if (it == index.end())
                {
                    continue;
                }
                for (const PfcQueueEntry& e : port->GetQueue(d))
                {
                    if (e.pool == PfcBufferPool::LOSSLESS && e.inPort == peerPort &&
                        classifier->GetPauseClass(e.inQueue) == c)
                    {
                        adj[v].push_back(it->second);
                        break;
                    }
                }
            }
        }
    }
    // Cycles: every elementary cycle (Johnson's algorithm), each from its
    // lowest vertex.  A cycle absent from the previous check is a formation
    // (a recurrence too); one present is seen again (lastSeen).
    std::vector<Deadlock> found;
    std::map<std::vector<uint64_t>, std::size_t> present;
    const uint32_t count = ForEachCycle(
        adj,
        [&](const std::vector<uint32_t>& cycle) {
            Deadlock d;
            d.detected = Simulator::Now();
            d.lastSeen = d.detected;
            d.formed = Time(0);
            std::vector<uint64_t> canon;
            for (uint32_t v : cycle)
            {
                auto [s, p, c] = vertices[v];
                d.cycle.push_back({m_switches[s]->GetNode()->GetId(), p, c});
                d.formed = std::max(d.formed, PauseDecided(s, p, c));
                canon.push_back(key(s, p, c));
            }
            found.push_back(d);
            auto known = m_present.find(canon);
            if (known != m_present.end())
            {
                m_deadlocks[known->second].lastSeen = d.detected;
                present[canon] = known->second;
                return;
            }
            NS_LOG_INFO("deadlock of " << d.cycle.size() << " queues at "
                                       << d.detected.As(Time::US));
            present[canon] = m_deadlocks.size();
            m_deadlocks.push_back(d);
            m_deadlockTrace(d);
        },
        kMaxCycles);
    if (count >= kMaxCycles && !m_capWarned)
    {
        m_capWarned = true;
        std::clog << "PfcDeadlockOracle: " << kMaxCycles << " cycles in one check at "
                  << Simulator::Now().As(Time::US) << "; any others are not reported\n";
    }
    m_present.swap(present);
    return found;
}

uint32_t
PfcDeadlockOracle::ForEachCycle(const std::vector<std::vector<uint32_t>>& adj,
                                const std::function<void(const std::vector<uint32_t>&)>& visit,
                                uint32_t limit)
{
    // Johnson, "Finding all the elementary circuits of a directed graph"
    // (SIAM J. Comput. 4(1), 1975), on each strongly connected component:
    // the cycles whose lowest vertex is s use vertices >= s of s's component.
    const uint32_t n = adj.size();
    std::vector<uint32_t> comp(n, UINT32_MAX);
    {
        // Tarjan's strongly connected components.
        std::vector<uint32_t> low(n), num(n, UINT32_MAX), stack;
        std::vector<bool> onStack(n, false);
        uint32_t counter = 0;
        uint32_t comps = 0;
        std::function<void(uint32_t)> strong = [&](uint32_t v) {
            num[v] = low[v] = counter++;
            stack.push_back(v);
            onStack[v] = true;
            for (uint32_t w : adj[v])
            {
                if (num[w] == UINT32_MAX)
                {
                    strong(w);
                    low[v] = std::min(low[v], low[w]);
                }
                else if (onStack[w])
                {
                    low[v] = std::min(low[v], num[w]);
                }
            }
            if (low[v] == num[v])
            {
                uint32_t w;
                do
                {
                    w = stack.back();
                    stack.pop_back();
                    onStack[w] = false;
                    comp[w] = comps;
                } while (w != v);
                ++comps;
            }
        };
        for (uint32_t v = 0; v < n; ++v)
        {
            if (num[v] == UINT32_MAX)
            {
                strong(v);
            }
        }
    }
    std::vector<bool> blocked(n, false);
    std::vector<std::set<uint32_t>> b(n);
    std::vector<uint32_t> path;
    uint32_t count = 0;
    std::function<void(uint32_t)> unblock = [&](uint32_t u) {
        blocked[u] = false;
        std::set<uint32_t> waiting;
        waiting.swap(b[u]);
        for (uint32_t w : waiting)
        {
            if (blocked[w])
            {
                unblock(w);
            }
        }
    };
    for (uint32_t s = 0; s < n && count < limit; ++s)
    {
        auto allowed = [&](uint32_t w) { return w >= s && comp[w] == comp[s]; };
        std::function<bool(uint32_t)> circuit = [&](uint32_t v) {
            bool closed = false;
            path.push_back(v);
            blocked[v] = true;
            for (uint32_t w : adj[v])
            {
                if (!allowed(w) || count >= limit)
                {
                    continue;
                }
                if (w == s)
                {
                    visit(path);
                    ++count;
                    closed = true;
                }
                else if (!blocked[w] && circuit(w))
                {
                    closed = true;
                }
            }
            if (closed)
            {
                unblock(v);
            }
            else
            {
                for (uint32_t w : adj[v])
                {
                    if (allowed(w))
                    {
                        b[w].insert(v);
                    }
                }
            }
            path.pop_back();
            return closed;
        };
        for (uint32_t v = s; v < n; ++v)
        {
            blocked[v] = false;
            b[v].clear();
        }
        circuit(s);
    }
    return count;
}

bool
PfcDeadlockOracle::PeerPausing(uint32_t s, uint32_t p, uint8_t c) const
{
    auto [peer, peerPort] = m_peers[s][p];
    return peer >= 0 && m_switches[peer]->GetPort(peerPort)->IsPausingPeer(c);
}

Time
PfcDeadlockOracle::PauseDecided(uint32_t s, uint32_t p, uint8_t c) const
{
    // Egress (s, p, c) is paused since its PAUSE arrived; the peer decided it
    // a link delay, a frame and a processing delay earlier (its first PAUSE
    // of the pause in force).  If the peer resumed and paused again since,
    // the pause in force is still the earlier one: the earlier of the two.
    Ptr<PfcNetDevice> port = m_switches[s]->GetPort(p);
    auto [peer, peerPort] = m_peers[s][p];
    if (peer < 0)
    {
        return port->GetPausedSince(c);
    }
    Ptr<PfcNetDevice> dev = m_switches[peer]->GetPort(peerPort);
    if (!dev->IsPausingPeer(c))
    {
        return port->GetPausedSince(c); // its RESUME is on the way
    }
    return port->IsClassPaused(c) ? std::min(port->GetPausedSince(c), dev->GetPausingPeerSince(c))
                                  : dev->GetPausingPeerSince(c); // its PAUSE is on the way
}

bool
PfcDeadlockOracle::Confirms(const std::vector<Member>& queues, Time at)
{
    auto set = [](const std::vector<Member>& members) {
        std::set<std::tuple<uint32_t, uint32_t, uint8_t>> out;
        for (const Member& m : members)
        {
            out.insert(std::make_tuple(m.node, m.port, m.cls));
        }
        return out;
    };
    const auto wanted = set(queues);
    for (const Deadlock& d : CheckNow())
    {
        if (set(d.cycle) == wanted)
        {
            return true;
        }
    }
    for (const Deadlock& d : m_deadlocks)
    {
        if (d.formed <= at && at <= d.lastSeen && set(d.cycle) == wanted)
        {
            return true;
        }
    }
    return false;
}

bool
PfcDeadlockOracle::HasDeadlock() const
{
    return !m_deadlocks.empty();
}

const std::vector<PfcDeadlockOracle::Deadlock>&
PfcDeadlockOracle::GetDeadlocks() const
{
    return m_deadlocks;
}

uint64_t
PfcDeadlockOracle::GetLosslessBytes() const
{
    uint64_t total = 0;
    for (const auto& sw : m_switches)
    {
        total += sw->GetMmu()->GetLosslessUsed();
    }
    return total;
}

void
PfcDeadlockOracle::PrintSummary(std::ostream& os) const
{
    os << "deadlocks: " << m_deadlocks.size() << "\n";
    for (const Deadlock& d : m_deadlocks)
    {
        os << "  formed " << d.formed.As(Time::US) << ", detected " << d.detected.As(Time::US)
           << ":";
        for (const Member& m : d.cycle)
        {
            os << " (node " << m.node << " port " << m.port << " class " << int(m.cls) << ")";
        }
        os << "\n";
    }
}

} // namespace ns3
