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
      m_peersBuilt(false)
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
    // Cycles: depth-first search, one cycle per back edge found.  A cycle
    // absent from the previous check is a formation (a recurrence too).
    std::vector<Deadlock> found;
    std::set<std::vector<uint64_t>> present;
    std::vector<uint8_t> color(vertices.size(), 0);
    std::vector<uint32_t> stack;
    std::function<void(uint32_t)> dfs = [&](uint32_t v) {
        color[v] = 1;
        stack.push_back(v);
        for (uint32_t w : adj[v])
        {
            if (color[w] == 0)
            {
                dfs(w);
            }
            else if (color[w] == 1)
            {
                auto from = std::find(stack.begin(), stack.end(), w);
                Deadlock d;
                d.detected = Simulator::Now();
                d.formed = Time(0);
                std::vector<uint64_t> canon;
                for (auto it = from; it != stack.end(); ++it)
                {
                    auto [s, p, c] = vertices[*it];
                    d.cycle.push_back({m_switches[s]->GetNode()->GetId(), p, c});
                    d.formed = std::max(d.formed, PauseDecided(s, p, c));
                    canon.push_back(key(s, p, c));
                }
                found.push_back(d);
                std::sort(canon.begin(), canon.end());
                if (present.insert(canon).second && m_present.count(canon) == 0)
                {
                    NS_LOG_INFO("deadlock of " << d.cycle.size() << " queues at "
                                               << d.detected.As(Time::US));
                    m_deadlocks.push_back(d);
                    m_deadlockTrace(d);
                }
            }
        }
        stack.pop_back();
        color[v] = 2;
    };
    for (uint32_t v = 0; v < vertices.size(); ++v)
    {
        if (color[v] == 0)
        {
            dfs(v);
        }
    }
    m_present.swap(present);
    return found;
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
PfcDeadlockOracle::Confirms(const std::vector<Member>& queues, Time formedBy)
{
    auto name = [](const Member& m) { return std::make_tuple(m.node, m.port, m.cls); };
    auto covered = [&](const std::set<std::tuple<uint32_t, uint32_t, uint8_t>>& on) {
        return std::all_of(queues.begin(), queues.end(), [&](const Member& m) {
            return on.count(name(m)) > 0;
        });
    };
    std::set<std::tuple<uint32_t, uint32_t, uint8_t>> now;
    for (const Deadlock& d : CheckNow())
    {
        for (const Member& m : d.cycle)
        {
            now.insert(name(m));
        }
    }
    if (covered(now))
    {
        return true;
    }
    for (const Deadlock& d : m_deadlocks)
    {
        std::set<std::tuple<uint32_t, uint32_t, uint8_t>> on;
        for (const Member& m : d.cycle)
        {
            on.insert(name(m));
        }
        if (d.formed <= formedBy && covered(on))
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
