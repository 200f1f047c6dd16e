/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-route-helper.h"

#include "pfc-topology-helper.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/tagger-reroute.h"

#include <deque>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcRouteHelper");

PfcRouteHelper::PfcRouteHelper(const PfcTopologyHelper& net)
    : m_net(net)
{
    m_reroute = CreateObject<UniformRandomVariable>();
}

int64_t
PfcRouteHelper::AssignStreams(int64_t stream)
{
    m_reroute->SetStream(stream);
    return 1;
}

bool
PfcRouteHelper::IsUp(tagger::NodeId v, tagger::PortNo p) const
{
    Ptr<PfcNetDevice> dev = m_net.GetDevice(v, p);
    return dev && dev->IsLinkUp();
}

void
PfcRouteHelper::PopulateRoutes()
{
    const tagger::Topology& topo = m_net.GetTopology();
    std::vector<tagger::NodeId> forwarders;
    for (tagger::NodeId v = 0; v < topo.GetNNodes(); ++v)
    {
        if (m_net.GetSwitch(v))
        {
            m_net.GetSwitch(v)->ClearRoutes();
            forwarders.push_back(v);
        }
    }
    const UpLinks up = GetUpLinks();
    std::vector<tagger::NodeId> hosts = topo.GetHosts();
    RouteSearch search{tagger::kNone, {}, std::vector<std::vector<uint32_t>>(topo.GetNNodes())};
    for (uint32_t h = 0; h < hosts.size(); ++h)
    {
        // Hosts of one ToR share its distances and sets (consecutive in a
        // Clos or fat tree: one search per ToR, not per host).
        tagger::NodeId root = GetRoot(hosts[h], up);
        if (root != search.root || root == hosts[h])
        {
            Search(root, up, forwarders, search);
        }
        InstallEcmpRoutes(h, hosts[h], search, forwarders);
    }
    for (const auto& [switches, host] : m_pins)
    {
        SetPath(switches, host);
    }
}

PfcRouteHelper::UpLinks
PfcRouteHelper::GetUpLinks() const
{
    const tagger::Topology& topo = m_net.GetTopology();
    UpLinks up(topo.GetNNodes());
    for (tagger::NodeId v = 0; v < topo.GetNNodes(); ++v)
    {
        for (tagger::PortNo p = 0; p < topo.GetNode(v).ports; ++p)
        {
            if (IsUp(v, p))
            {
                up[v].push_back({p, topo.GetPeer(v, p).node});
            }
        }
    }
    return up;
}

tagger::NodeId
PfcRouteHelper::GetRoot(tagger::NodeId host, const UpLinks& up) const
{
    if (!m_net.GetSwitch(host) && up[host].size() == 1 && m_net.GetSwitch(up[host][0].peer))
    {
        return up[host][0].peer;
    }
    return host;
}

void
PfcRouteHelper::Search(tagger::NodeId root,
                       const UpLinks& up,
                       const std::vector<tagger::NodeId>& forwarders,
                       RouteSearch& search) const
{
    // Breadth-first from the root through forwarders (hosts do not relay,
    // unless relay servers).
    search.root = root;
    std::vector<uint32_t>& dist = search.dist;
    dist.assign(up.size(), tagger::kNone);
    dist[root] = 0;
    std::deque<tagger::NodeId> queue(1, root);
    while (!queue.empty())
    {
        tagger::NodeId u = queue.front();
        queue.pop_front();
        if (u != root && !m_net.GetSwitch(u))
        {
            continue;
        }
        for (const UpLink& l : up[u])
        {
            if (dist[l.peer] == tagger::kNone)
            {
                dist[l.peer] = dist[u] + 1;
                queue.push_back(l.peer);
            }
        }
    }
    // Each forwarder's ports to a neighbour one hop closer that relays.
    for (tagger::NodeId v : forwarders)
    {
        search.sets[v].clear();
        for (const UpLink& l : up[v])
        {
            if (dist[v] != tagger::kNone && dist[l.peer] + 1 == dist[v] &&
                (l.peer == root || m_net.GetSwitch(l.peer)))
            {
                search.sets[v].push_back(m_net.GetSwitchPort(v, l.port));
            }
        }
    }
}

void
PfcRouteHelper::InstallEcmpRoutes(uint32_t host,
                                  tagger::NodeId hostNode,
                                  const RouteSearch& search,
                                  const std::vector<tagger::NodeId>& forwarders) const
{
    Ipv4Address address = m_net.GetHostAddress(host);
    for (tagger::NodeId v : forwarders)
    {
        if (search.dist[v] == tagger::kNone || v == hostNode)
        {
            continue; // a relay server delivers its own address locally
        }
        if (v != search.root)
        {
            m_net.GetSwitch(v)->SetRoute(address, Ipv4Mask::GetOnes(), search.sets[v]);
            continue;
        }
        // The host's ToR (the root when it is not the host): its ports to the host.
        const tagger::PortRef tor = m_net.GetTopology().GetPeer(hostNode, 0);
        std::vector<uint32_t> ports;
        if (IsUp(tor.node, tor.port))
        {
            ports.push_back(m_net.GetSwitchPort(tor.node, tor.port));
        }
        m_net.GetSwitch(v)->SetRoute(address, Ipv4Mask::GetOnes(), ports);
    }
}

std::pair<tagger::PortRef, tagger::PortRef>
PfcRouteHelper::LinkEnds(const std::string& a, const std::string& b) const
{
    const tagger::Topology& topo = m_net.GetTopology();
    tagger::NodeId va = m_net.GetNodeId(a);
    tagger::NodeId vb = m_net.GetNodeId(b);
    tagger::PortNo pa = topo.GetPortTo(va, vb);
    NS_ABORT_MSG_IF(pa == tagger::kNone,
                    "PfcRouteHelper: no link between '" << a << "' and '" << b << "'");
    return {tagger::PortRef{va, pa}, topo.GetPeer(va, pa)};
}

void
PfcRouteHelper::LocalReroute(tagger::NodeId v, tagger::PortNo failed)
{
    const tagger::Topology& topo = m_net.GetTopology();
    Ptr<PfcSwitchNetDevice> sw = m_net.GetSwitch(v);
    uint32_t port = m_net.GetSwitchPort(v, failed);
    std::vector<uint32_t> candidates; // the shared rule, in switch port numbers
    for (tagger::PortNo p : tagger::RerouteCandidates(
             topo,
             [this, v](tagger::PortNo q) { return IsUp(v, q); },
             v,
             failed))
    {
        candidates.push_back(m_net.GetSwitchPort(v, p));
    }
    auto pick = [this](uint32_t n) { return m_reroute->GetInteger(0, n - 1); };
    for (uint32_t h = 0; h < m_net.GetNHosts(); ++h)
    {
        std::vector<uint32_t> ports = sw->Lookup(m_net.GetHostAddress(h));
        if (tagger::ApplyLocalReroute(ports, port, candidates, pick))
        {
            sw->SetRoute(m_net.GetHostAddress(h), Ipv4Mask::GetOnes(), ports);
        }
    }
}

tagger::TableRoutes
PfcRouteHelper::ExportRoutes() const
{
    const tagger::Topology& topo = m_net.GetTopology();
    std::vector<tagger::NodeId> hosts = topo.GetHosts();
    tagger::TableRoutes routes;
    for (tagger::NodeId v = 0; v < topo.GetNNodes(); ++v)
    {
        Ptr<PfcSwitchNetDevice> sw = m_net.GetSwitch(v);
        if (!sw)
        {
            continue;
        }
        std::vector<tagger::PortNo> topoPort(sw->GetNPorts(), tagger::kNone);
        for (tagger::PortNo p = 0; p < topo.GetNode(v).ports; ++p)
        {
            uint32_t sp = m_net.GetDevice(v, p) ? m_net.GetSwitchPort(v, p) : tagger::kNone;
            if (sp < topoPort.size())
            {
                topoPort[sp] = p;
            }
        }
        for (uint32_t h = 0; h < hosts.size(); ++h)
        {
            std::vector<tagger::PortNo> set;
            for (uint32_t sp : sw->Lookup(m_net.GetHostAddress(h)))
            {
                set.push_back(topoPort[sp]);
            }
            routes.SetEcmpSet(v, hosts[h], set);
        }
    }
    return routes;
}

tagger::FlowChooser
PfcRouteHelper::GetFlowChooser(Ipv4Address src,
                               Ipv4Address dst,
                               uint8_t proto,
                               uint16_t sport,
                               uint16_t dport) const
{
    const PfcTopologyHelper* net = &m_net;
    return [net, src, dst, proto, sport, dport](tagger::NodeId sw, uint32_t n, uint32_t) {
        return net->GetSwitch(sw)->EcmpIndex(src, dst, proto, sport, dport, n);
    };
}

void
PfcRouteHelper::FailLink(const std::string& a, const std::string& b)
{
    auto [ea, eb] = LinkEnds(a, b);
    NS_LOG_INFO("link " << a << " - " << b << " down at " << Simulator::Now().As(Time::US));
    m_net.GetChannel(ea.node, eb.node)->SetLinkUp(false);
    for (const tagger::PortRef& e : {ea, eb})
    {
        if (m_net.GetSwitch(e.node))
        {
            LocalReroute(e.node, e.port);
        }
    }
}

void
PfcRouteHelper::RestoreLink(const std::string& a, const std::string& b)
{
    auto [ea, eb] = LinkEnds(a, b);
    NS_LOG_INFO("link " << a << " - " << b << " up at " << Simulator::Now().As(Time::US));
    m_net.GetChannel(ea.node, eb.node)->SetLinkUp(true);
    PopulateRoutes();
}

void
PfcRouteHelper::ScheduleFailLink(Time at, const std::string& a, const std::string& b)
{
    LinkEnds(a, b); // check the names now
    Simulator::Schedule(at - Simulator::Now(), &PfcRouteHelper::FailLink, this, a, b);
}

void
PfcRouteHelper::ScheduleRestoreLink(Time at, const std::string& a, const std::string& b)
{
    LinkEnds(a, b);
    Simulator::Schedule(at - Simulator::Now(), &PfcRouteHelper::RestoreLink, this, a, b);
}

void
PfcRouteHelper::PinPath(const std::vector<std::string>& switches, uint32_t dstHost)
{
    NS_ABORT_MSG_IF(switches.empty(), "PfcRouteHelper::PinPath: empty path");
    m_net.GetHostAddress(dstHost); // checks the index
    SetPath(switches, dstHost);
    m_pins.emplace_back(switches, dstHost);
}

void
PfcRouteHelper::SetPath(const std::vector<std::string>& switches, uint32_t dstHost)
{
    const tagger::Topology& topo = m_net.GetTopology();
    std::string host = topo.GetNode(topo.GetHosts()[dstHost]).name;
    for (std::size_t i = 0; i < switches.size(); ++i)
    {
        SetRoute(switches[i], dstHost, i + 1 < switches.size() ? switches[i + 1] : host);
    }
}

void
PfcRouteHelper::SetRoute(const std::string& sw, uint32_t dstHost, const std::string& next)
{
    auto [e, peer] = LinkEnds(sw, next);
    Ptr<PfcSwitchNetDevice> dev = m_net.GetSwitch(e.node);
    NS_ABORT_MSG_IF(!dev, "PfcRouteHelper: '" << sw << "' is not a switch (nor a relay server)");
    dev->SetRoute(m_net.GetHostAddress(dstHost),
                  Ipv4Mask::GetOnes(),
                  {m_net.GetSwitchPort(e.node, e.port)});
}

void
PfcRouteHelper::ScheduleRoute(Time at,
                              const std::string& sw,
                              uint32_t dstHost,
                              const std::string& next)
{
    LinkEnds(sw, next);
    m_net.GetHostAddress(dstHost);
    Simulator::Schedule(at - Simulator::Now(), &PfcRouteHelper::SetRoute, this, sw, dstHost, next);
}

} // namespace ns3
