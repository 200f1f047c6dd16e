/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-topology-helper.h"

#include "ns3/abort.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/names.h"
#include "ns3/queue-disc.h"
#include "ns3/simulator.h"
#include "ns3/traffic-control-layer.h"

#include <algorithm>
#include <deque>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcTopologyHelper");

PfcTopologyHelper::PfcTopologyHelper(const tagger::Topology& topology)
    : m_topo(topology),
      m_built(false)
{
    m_reroute = CreateObject<UniformRandomVariable>();
}

int64_t
PfcTopologyHelper::AssignStreams(int64_t stream)
{
    m_reroute->SetStream(stream);
    return 1;
}

PfcHelper&
PfcTopologyHelper::GetPfcHelper()
{
    return m_pfc;
}

void
PfcTopologyHelper::Build()
{
    NS_ABORT_MSG_IF(m_built, "PfcTopologyHelper::Build: called twice");
    m_built = true;
    const uint32_t n = m_topo.GetNNodes();
    m_nodes.Create(n);
    m_switches.assign(n, nullptr);
    m_devices.assign(m_topo.GetNPorts(), nullptr);
    m_switchPort.assign(m_topo.GetNPorts(), kPfcNoPort);
    for (tagger::NodeId v = 0; v < n; ++v)
    {
        // Switches and relay servers get the forwarding engine.
        if (m_topo.IsForwarder(v))
        {
            m_switches[v] = m_pfc.InstallSwitch(m_nodes.Get(v));
        }
        if (m_topo.IsHost(v))
        {
            m_hosts.push_back(v);
        }
    }
    // One channel per link; ports join their switch afterwards, in port order.
    for (const tagger::TopoLink& link : m_topo.GetLinks())
    {
        NetDeviceContainer d =
            m_pfc.Connect(m_nodes.Get(link.a.node), m_nodes.Get(link.b.node), false);
        m_devices[m_topo.GetPortIndex(link.a.node, link.a.port)] =
            DynamicCast<PfcNetDevice>(d.Get(0));
        m_devices[m_topo.GetPortIndex(link.b.node, link.b.port)] =
            DynamicCast<PfcNetDevice>(d.Get(1));
    }
    for (tagger::NodeId v = 0; v < n; ++v)
    {
        if (!m_switches[v])
        {
            continue;
        }
        for (tagger::PortNo p = 0; p < m_topo.GetNode(v).ports; ++p)
        {
            tagger::PortIndex idx = m_topo.GetPortIndex(v, p);
            if (m_devices[idx])
            {
                m_switchPort[idx] = m_switches[v]->AddPort(m_devices[idx]);
            }
        }
    }
    // Names: the topology's node names, "port<n>" for devices.  Names holds
    // references to the nodes: clear it when the simulation is destroyed, so
    // nodes, devices and their trace files (pcap) are released then.  Names an
    // earlier network left are cleared first (all of them, before any is
    // added, so that a partial overlap cannot drop names of this network).
    Simulator::ScheduleDestroy(&Names::Clear);
    for (tagger::NodeId v = 0; v < n; ++v)
    {
        if (Names::Find<Object>(m_topo.GetNode(v).name))
        {
            Names::Clear();
            break;
        }
    }
    for (tagger::NodeId v = 0; v < n; ++v)
    {
        const std::string& name = m_topo.GetNode(v).name;
        Names::Add(name, m_nodes.Get(v));
        for (tagger::PortNo p = 0; p < m_topo.GetNode(v).ports; ++p)
        {
            Ptr<PfcNetDevice> dev = m_devices[m_topo.GetPortIndex(v, p)];
            if (dev)
            {
                Names::Add(m_nodes.Get(v), "port" + std::to_string(p), dev);
            }
        }
    }
    // Hosts: Internet stack, one address each, mq traffic control; a relay
    // server's interface is its switch device.
    InternetStackHelper internet;
    NetDeviceContainer hostDevices;
    for (uint32_t h = 0; h < m_hosts.size(); ++h)
    {
        tagger::NodeId v = m_hosts[h];
        Ptr<NetDevice> device;
        if (m_switches[v])
        {
            NS_ABORT_MSG_IF(m_switches[v]->GetNPorts() == 0,
                            "PfcTopologyHelper: relay server " << m_topo.GetNode(v).name
                                                               << " has no connected port");
            device = m_switches[v];
        }
        else
        {
            NS_ABORT_MSG_IF(m_topo.GetNode(v).ports != 1 || !GetDevice(v, 0),
                            "PfcTopologyHelper: host "
                                << m_topo.GetNode(v).name
                                << " must have exactly one connected port (or relay)");
            device = GetDevice(v, 0);
            hostDevices.Add(device);
        }
        Ptr<Node> node = m_nodes.Get(v);
        internet.Install(node);
        uint32_t id = h + 1;
        NS_ABORT_MSG_IF(id >= (1u << 24), "PfcTopologyHelper: more than 2^24 - 2 hosts");
        Ipv4Address address((10u << 24) | id);
        if (m_switches[v])
        {
            m_switches[v]->AddLocalAddress(address);
        }
        Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
        int32_t itf = ipv4->AddInterface(device);
        ipv4->AddAddress(itf, Ipv4InterfaceAddress(address, Ipv4Mask("255.0.0.0")));
        ipv4->SetUp(itf);
        m_hostAddress.push_back(address);
    }
    PfcHelper::InstallHostTrafficControl(hostDevices);
    PopulateRoutes();
}

void
PfcTopologyHelper::PopulateRoutes()
{
    const uint32_t n = m_topo.GetNNodes();
    for (tagger::NodeId v = 0; v < n; ++v)
    {
        if (m_switches[v])
        {
            m_switches[v]->ClearRoutes();
        }
    }
    std::vector<uint32_t> dist(n);
    std::deque<tagger::NodeId> queue;
    for (uint32_t h = 0; h < m_hosts.size(); ++h)
    {
        // Breadth-first from the host over links that are up, through forwarders only.
        std::fill(dist.begin(), dist.end(), tagger::kNone);
        dist[m_hosts[h]] = 0;
        queue.assign(1, m_hosts[h]);
        while (!queue.empty())
        {
            tagger::NodeId u = queue.front();
            queue.pop_front();
            if (u != m_hosts[h] && !m_switches[u])
            {
                continue; // hosts do not relay, unless relay servers
            }
            for (tagger::PortNo p = 0; p < m_topo.GetNode(u).ports; ++p)
            {
                Ptr<PfcNetDevice> dev = m_devices[m_topo.GetPortIndex(u, p)];
                if (!dev || !dev->IsLinkUp())
                {
                    continue;
                }
                tagger::NodeId w = m_topo.GetPeer(u, p).node;
                if (dist[w] == tagger::kNone)
                {
                    dist[w] = dist[u] + 1;
                    queue.push_back(w);
                }
            }
        }
        for (tagger::NodeId v = 0; v < n; ++v)
        {
            if (!m_switches[v] || dist[v] == tagger::kNone || v == m_hosts[h])
            {
                continue; // a relay server delivers its own address locally
            }
            std::vector<uint32_t> ports;
            for (tagger::PortNo p = 0; p < m_topo.GetNode(v).ports; ++p)
            {
                tagger::PortIndex idx = m_topo.GetPortIndex(v, p);
                if (!m_devices[idx] || !m_devices[idx]->IsLinkUp())
                {
                    continue;
                }
                tagger::NodeId w = m_topo.GetPeer(v, p).node;
                if (dist[w] + 1 == dist[v] && (w == m_hosts[h] || m_switches[w]))
                {
                    ports.push_back(m_switchPort[idx]);
                }
            }
            m_switches[v]->SetRoute(m_hostAddress[h], Ipv4Mask("255.255.255.255"), ports);
        }
    }
    for (const auto& [switches, host] : m_pins)
    {
        std::string name = m_topo.GetNode(m_hosts[host]).name;
        for (std::size_t i = 0; i < switches.size(); ++i)
        {
            SetRoute(switches[i], host, i + 1 < switches.size() ? switches[i + 1] : name);
        }
    }
}

const tagger::Topology&
PfcTopologyHelper::GetTopology() const
{
    return m_topo;
}

NodeContainer
PfcTopologyHelper::GetNodes() const
{
    return m_nodes;
}

NodeContainer
PfcTopologyHelper::GetHosts() const
{
    NodeContainer c;
    for (tagger::NodeId v : m_hosts)
    {
        c.Add(m_nodes.Get(v));
    }
    return c;
}

NodeContainer
PfcTopologyHelper::GetSwitches() const
{
    NodeContainer c;
    for (uint32_t v = 0; v < m_switches.size(); ++v)
    {
        if (m_switches[v] && !m_topo.IsHost(v))
        {
            c.Add(m_nodes.Get(v));
        }
    }
    return c;
}

NodeContainer
PfcTopologyHelper::GetForwarders() const
{
    NodeContainer c;
    for (uint32_t v = 0; v < m_switches.size(); ++v)
    {
        if (m_switches[v])
        {
            c.Add(m_nodes.Get(v));
        }
    }
    return c;
}

uint32_t
PfcTopologyHelper::GetNHosts() const
{
    return m_hosts.size();
}

Ptr<Node>
PfcTopologyHelper::GetHost(uint32_t host) const
{
    NS_ABORT_MSG_IF(host >= m_hosts.size(),
                    "PfcTopologyHelper: no host " << host << " (" << m_hosts.size() << " hosts)");
    return m_nodes.Get(m_hosts[host]);
}

Ipv4Address
PfcTopologyHelper::GetHostAddress(uint32_t host) const
{
    NS_ABORT_MSG_IF(host >= m_hostAddress.size(),
                    "PfcTopologyHelper: no host " << host << " (" << m_hosts.size() << " hosts)");
    return m_hostAddress[host];
}

Ptr<PfcNetDevice>
PfcTopologyHelper::GetHostDevice(uint32_t host) const
{
    NS_ABORT_MSG_IF(host >= m_hosts.size(),
                    "PfcTopologyHelper: no host " << host << " (" << m_hosts.size() << " hosts)");
    return m_switches[m_hosts[host]] ? nullptr : GetDevice(m_hosts[host], 0);
}

Ptr<PfcSwitchNetDevice>
PfcTopologyHelper::GetHostSwitch(uint32_t host) const
{
    NS_ABORT_MSG_IF(host >= m_hosts.size(),
                    "PfcTopologyHelper: no host " << host << " (" << m_hosts.size() << " hosts)");
    return m_switches[m_hosts[host]];
}

Ptr<NetDevice>
PfcTopologyHelper::GetHostInterface(uint32_t host) const
{
    Ptr<PfcSwitchNetDevice> sw = GetHostSwitch(host);
    if (sw)
    {
        return sw;
    }
    return GetHostDevice(host);
}

bool
PfcTopologyHelper::IsRelayHost(uint32_t host) const
{
    return GetHostSwitch(host) != nullptr;
}

Ptr<Node>
PfcTopologyHelper::GetNode(tagger::NodeId node) const
{
    return m_nodes.Get(node);
}

Ptr<PfcNetDevice>
PfcTopologyHelper::GetDevice(tagger::NodeId node, tagger::PortNo port) const
{
    return m_devices[m_topo.GetPortIndex(node, port)];
}

uint32_t
PfcTopologyHelper::GetSwitchPort(tagger::NodeId node, tagger::PortNo port) const
{
    return m_switchPort[m_topo.GetPortIndex(node, port)];
}

Ptr<PfcChannel>
PfcTopologyHelper::GetChannel(tagger::NodeId a, tagger::NodeId b) const
{
    tagger::PortNo p = m_topo.GetPortTo(a, b);
    if (p == tagger::kNone)
    {
        return nullptr;
    }
    Ptr<PfcNetDevice> dev = GetDevice(a, p);
    return dev ? dev->GetPfcChannel() : nullptr;
}

Ptr<PfcSwitchNetDevice>
PfcTopologyHelper::GetSwitch(tagger::NodeId node) const
{
    return m_switches[node];
}

uint64_t
PfcTopologyHelper::GetDropCount(PfcDropReason reason) const
{
    uint64_t total = 0;
    for (const auto& sw : m_switches)
    {
        total += sw ? sw->GetDropCount(reason) : 0;
    }
    for (uint32_t h = 0; h < m_hosts.size(); ++h)
    {
        // A relay server's ports count in its switch device (above).
        Ptr<PfcNetDevice> dev = GetHostDevice(h);
        total += dev ? dev->GetDropCount(reason) : 0;
    }
    return total;
}

uint64_t
PfcTopologyHelper::GetDropCount() const
{
    uint64_t total = 0;
    for (uint8_t r = 0; r < kPfcDropReasons; ++r)
    {
        total += GetDropCount(static_cast<PfcDropReason>(r));
    }
    return total;
}

uint64_t
PfcTopologyHelper::GetTrafficControlDrops() const
{
    uint64_t total = 0;
    for (uint32_t h = 0; h < m_hosts.size(); ++h)
    {
        Ptr<PfcNetDevice> dev = GetHostDevice(h);
        if (!dev)
        {
            continue; // relay server: no traffic control
        }
        Ptr<TrafficControlLayer> tc = GetHost(h)->GetObject<TrafficControlLayer>();
        Ptr<QueueDisc> root = tc ? tc->GetRootQueueDiscOnDevice(dev) : nullptr;
        total += root ? root->GetStats().nTotalDroppedPackets : 0;
    }
    return total;
}

uint64_t
PfcTopologyHelper::GetPauseCount() const
{
    uint64_t total = 0;
    for (const auto& sw : m_switches)
    {
        total += sw ? sw->GetPauseDecisions() : 0;
    }
    return total;
}

uint64_t
PfcTopologyHelper::GetResumeCount() const
{
    uint64_t total = 0;
    for (const auto& sw : m_switches)
    {
        total += sw ? sw->GetResumeDecisions() : 0;
    }
    return total;
}

uint64_t
PfcTopologyHelper::GetLosslessBytes() const
{
    uint64_t total = 0;
    for (const auto& sw : m_switches)
    {
        total += sw ? sw->GetMmu()->GetLosslessUsed() : 0;
    }
    return total;
}

uint64_t
PfcTopologyHelper::GetLossyBytes() const
{
    uint64_t total = 0;
    for (const auto& sw : m_switches)
    {
        total += sw ? sw->GetMmu()->GetLossyUsed() : 0;
    }
    return total;
}

void
PfcTopologyHelper::PrintSwitchCounters(std::ostream& os) const
{
    for (uint32_t v = 0; v < m_switches.size(); ++v)
    {
        const auto& sw = m_switches[v];
        if (!sw)
        {
            continue;
        }
        os << m_topo.GetNode(v).name << ": pauses=" << sw->GetPauseDecisions()
           << " resumes=" << sw->GetResumeDecisions() << " forwarded=" << sw->GetForwardedCount();
        for (uint8_t r = 0; r < kPfcDropReasons; ++r)
        {
            uint64_t n = sw->GetDropCount(static_cast<PfcDropReason>(r));
            if (n > 0)
            {
                os << " drop[" << static_cast<PfcDropReason>(r) << "]=" << n;
            }
        }
        os << "\n";
    }
}

tagger::NodeId
PfcTopologyHelper::GetNodeId(const std::string& name) const
{
    tagger::NodeId v = m_topo.FindNode(name);
    NS_ABORT_MSG_IF(v == tagger::kNone, "PfcTopologyHelper: no node named '" << name << "'");
    return v;
}

std::pair<tagger::PortRef, tagger::PortRef>
PfcTopologyHelper::LinkEnds(const std::string& a, const std::string& b) const
{
    tagger::NodeId va = GetNodeId(a);
    tagger::NodeId vb = GetNodeId(b);
    tagger::PortNo pa = m_topo.GetPortTo(va, vb);
    NS_ABORT_MSG_IF(pa == tagger::kNone,
                    "PfcTopologyHelper: no link between '" << a << "' and '" << b << "'");
    return {tagger::PortRef{va, pa}, m_topo.GetPeer(va, pa)};
}

void
PfcTopologyHelper::LocalReroute(tagger::NodeId v, uint32_t port)
{
    Ptr<PfcSwitchNetDevice> sw = m_switches[v];
    std::vector<uint32_t> candidates;
    for (tagger::PortNo p = 0; p < m_topo.GetNode(v).ports; ++p)
    {
        tagger::PortIndex idx = m_topo.GetPortIndex(v, p);
        tagger::NodeId peer = m_topo.GetPeer(v, p).node;
        if (m_devices[idx] && m_devices[idx]->IsLinkUp() && m_switchPort[idx] != port &&
            peer != tagger::kNone && m_switches[peer])
        {
            candidates.push_back(m_switchPort[idx]);
        }
    }
    for (uint32_t h = 0; h < m_hosts.size(); ++h)
    {
        std::vector<uint32_t> ports = sw->Lookup(m_hostAddress[h]);
        auto it = std::find(ports.begin(), ports.end(), port);
        if (it == ports.end())
        {
            continue;
        }
        ports.erase(it);
        if (ports.empty() && !candidates.empty())
        {
            ports.push_back(candidates[m_reroute->GetInteger(0, candidates.size() - 1)]);
        }
        sw->SetRoute(m_hostAddress[h], Ipv4Mask("255.255.255.255"), ports);
    }
}

void
PfcTopologyHelper::FailLink(const std::string& a, const std::string& b)
{
    auto [ea, eb] = LinkEnds(a, b);
    NS_LOG_INFO("link " << a << " - " << b << " down at " << Simulator::Now().As(Time::US));
    GetChannel(ea.node, eb.node)->SetLinkUp(false);
    for (const tagger::PortRef& e : {ea, eb})
    {
        if (m_switches[e.node])
        {
            LocalReroute(e.node, GetSwitchPort(e.node, e.port));
        }
    }
}

void
PfcTopologyHelper::RestoreLink(const std::string& a, const std::string& b)
{
    auto [ea, eb] = LinkEnds(a, b);
    NS_LOG_INFO("link " << a << " - " << b << " up at " << Simulator::Now().As(Time::US));
    GetChannel(ea.node, eb.node)->SetLinkUp(true);
    PopulateRoutes();
}

void
PfcTopologyHelper::ScheduleFailLink(Time at, const std::string& a, const std::string& b)
{
    LinkEnds(a, b); // check the names now
    Simulator::Schedule(at - Simulator::Now(), &PfcTopologyHelper::FailLink, this, a, b);
}

void
PfcTopologyHelper::ScheduleRestoreLink(Time at, const std::string& a, const std::string& b)
{
    LinkEnds(a, b);
    Simulator::Schedule(at - Simulator::Now(), &PfcTopologyHelper::RestoreLink, this, a, b);
}

void
PfcTopologyHelper::PinPath(const std::vector<std::string>& switches, uint32_t dstHost)
{
    NS_ABORT_MSG_IF(switches.empty(), "PfcTopologyHelper::PinPath: empty path");
    GetHostAddress(dstHost); // checks the index
    std::string host = m_topo.GetNode(m_hosts[dstHost]).name;
    for (std::size_t i = 0; i < switches.size(); ++i)
    {
        SetRoute(switches[i], dstHost, i + 1 < switches.size() ? switches[i + 1] : host);
    }
    m_pins.emplace_back(switches, dstHost);
}

void
PfcTopologyHelper::SetRoute(const std::string& sw, uint32_t dstHost, const std::string& next)
{
    auto [e, peer] = LinkEnds(sw, next);
    NS_ABORT_MSG_IF(!m_switches[e.node],
                    "PfcTopologyHelper: '" << sw << "' is not a switch (nor a relay server)");
    m_switches[e.node]->SetRoute(GetHostAddress(dstHost),
                                 Ipv4Mask("255.255.255.255"),
                                 {GetSwitchPort(e.node, e.port)});
}

void
PfcTopologyHelper::ScheduleRoute(Time at,
                                 const std::string& sw,
                                 uint32_t dstHost,
                                 const std::string& next)
{
    LinkEnds(sw, next);
    GetHostAddress(dstHost);
    Simulator::Schedule(at - Simulator::Now(),
                        &PfcTopologyHelper::SetRoute,
                        this,
                        sw,
                        dstHost,
                        next);
}

} // namespace ns3
