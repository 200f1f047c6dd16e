/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "hpcc-scenario-helper.h"

#include "ns3/abort.h"
#include "ns3/fatal-error.h"
#include "ns3/log.h"
#include "ns3/pfc-header.h"
#include "ns3/rdma-nic.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <numeric>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HpccScenarioHelper");

namespace
{
/// \param v a node \param parent union-find parents \return v's root (paths halved)
uint32_t
FindRoot(std::vector<uint32_t>& parent, uint32_t v)
{
    while (parent[v] != v)
    {
        parent[v] = parent[parent[v]];
        v = parent[v];
    }
    return v;
}

/**
 * \param t a time \return its whole nanoseconds / 1e9, correctly rounded (so
 *         "1us" gives the double of 1e-6, which FormatHpccTime writes "1us")
 */
double
NanoSecondsToSeconds(Time t)
{
    return double(t.GetNanoSeconds()) / 1e9;
}
} // namespace

HpccScenarioHelper::HpccScenarioHelper(const tagger::HpccTopology& topology,
                                       const std::vector<tagger::HpccFlow>& flows)
    : m_topology(topology),
      m_flows(flows),
      m_net(std::make_unique<PfcTopologyHelper>(topology.topo)),
      m_hostIndex(topology.topo.GetNNodes(), tagger::kNone)
{
    std::vector<tagger::NodeId> hosts = topology.topo.GetHosts();
    for (uint32_t h = 0; h < hosts.size(); ++h)
    {
        m_hostIndex[hosts[h]] = h;
    }
}

std::string
HpccScenarioHelper::Check(const tagger::HpccTopology& topology,
                          const std::vector<tagger::HpccFlow>& flows)
{
    const tagger::Topology& topo = topology.topo;
    for (tagger::NodeId v : topo.GetHosts())
    {
        if (topo.GetNode(v).ports != 1)
        {
            return "host " + std::to_string(v) + " has " + std::to_string(topo.GetNode(v).ports) +
                   " links: hosts of this module have one NIC (one link)";
        }
    }
    // Hosts never relay (one link each), so connected components are reachability.
    std::vector<uint32_t> parent(topo.GetNNodes());
    std::iota(parent.begin(), parent.end(), 0);
    for (const tagger::TopoLink& link : topo.GetLinks())
    {
        parent[FindRoot(parent, link.a.node)] = FindRoot(parent, link.b.node);
    }
    const uint64_t maxBytes = RdmaNic::GetMaxFlowBytes();
    for (std::size_t i = 0; i < flows.size(); ++i)
    {
        if (flows[i].sizeBytes > maxBytes)
        {
            return "flow " + std::to_string(i) + ": " + std::to_string(flows[i].sizeBytes) +
                   " bytes, more than the " + std::to_string(maxBytes) +
                   " a flow may carry (RdmaNic::GetMaxFlowBytes: " +
                   std::to_string(RdmaNic::kMaxFlowPackets) + " packets of PayloadSize bytes)";
        }
        if (FindRoot(parent, flows[i].src) != FindRoot(parent, flows[i].dst))
        {
            return "flow " + std::to_string(i) + ": host " + std::to_string(flows[i].dst) +
                   " cannot be reached from host " + std::to_string(flows[i].src);
        }
    }
    return "";
}

tagger::HpccTopology
HpccScenarioHelper::ReadTopologyFile(const std::string& filename, bool strict)
{
    tagger::HpccReadOptions options;
    options.strict = strict;
    tagger::HpccTopology topology = tagger::ReadHpccTopologyFile(filename, options);
    if (!topology.warning.empty())
    {
        std::cerr << "warning: " << topology.warning << "\n";
    }
    std::string why = Check(topology, {});
    if (!why.empty())
    {
        throw tagger::TaggerError(filename + ": " + why);
    }
    return topology;
}

std::vector<tagger::HpccFlow>
HpccScenarioHelper::ReadFlowFile(const std::string& filename,
                                 const tagger::HpccTopology& topology,
                                 bool strict)
{
    tagger::HpccReadOptions options;
    options.strict = strict;
    std::string warning;
    std::vector<tagger::HpccFlow> flows =
        tagger::ReadHpccFlowFile(filename, topology.topo, options, &warning);
    if (!warning.empty())
    {
        std::cerr << "warning: " << warning << "\n";
    }
    std::string why = Check(topology, flows);
    if (!why.empty())
    {
        throw tagger::TaggerError(filename + ": " + why);
    }
    return flows;
}

PfcTopologyHelper&
HpccScenarioHelper::GetNetwork()
{
    return *m_net;
}

RdmaHelper&
HpccScenarioHelper::GetRdma()
{
    return m_rdma;
}

const std::vector<tagger::HpccFlow>&
HpccScenarioHelper::GetFlows() const
{
    return m_flows;
}

void
HpccScenarioHelper::Build()
{
    std::string why = Check(m_topology, m_flows);
    if (!why.empty())
    {
        NS_FATAL_ERROR("HpccScenarioHelper::Build: " << why);
    }
    std::vector<PfcLinkProperties> links;
    for (const tagger::HpccLink& link : m_topology.links)
    {
        links.push_back(ToLinkProperties(link));
    }
    m_net->SetLinkProperties(links);
    m_net->Build();
    m_rdma.Install(*m_net);
    for (const tagger::HpccFlow& f : m_flows)
    {
        uint32_t src = GetHostIndex(f.src);
        uint32_t id = m_rdma.AddFlow(src,
                                     GetHostIndex(f.dst),
                                     f.sizeBytes,
                                     Seconds(f.startSeconds),
                                     PriorityToDscp(f.priority));
        m_flowIds.emplace_back(src, id);
    }
}

Time
HpccScenarioHelper::GetFirstStart() const
{
    Time first = Time::Max();
    for (const tagger::HpccFlow& f : m_flows)
    {
        first = std::min(first, Seconds(f.startSeconds));
    }
    return first;
}

Time
HpccScenarioHelper::GetLastStart() const
{
    Time last;
    for (const tagger::HpccFlow& f : m_flows)
    {
        last = std::max(last, Seconds(f.startSeconds));
    }
    return last;
}

uint32_t
HpccScenarioHelper::GetHostIndex(tagger::NodeId node) const
{
    NS_ABORT_MSG_IF(node >= m_hostIndex.size() || m_hostIndex[node] == tagger::kNone,
                    "HpccScenarioHelper: node " << node << " is not a host");
    return m_hostIndex[node];
}

std::vector<RdmaFlowRecord>
HpccScenarioHelper::GetFlowRecords() const
{
    NS_ABORT_MSG_IF(m_flowIds.size() != m_flows.size(),
                    "HpccScenarioHelper::GetFlowRecords: call Build() first");
    std::vector<std::vector<RdmaFlowRecord>> perHost(m_rdma.GetNHosts());
    std::vector<RdmaFlowRecord> records;
    for (const auto& [host, id] : m_flowIds)
    {
        if (perHost[host].empty())
        {
            perHost[host] = m_rdma.GetNic(host)->GetFlowRecords();
        }
        records.push_back(perHost[host].at(id));
    }
    return records;
}

uint32_t
HpccScenarioHelper::GetCompletedFlows() const
{
    uint32_t n = 0;
    for (const RdmaFlowRecord& r : GetFlowRecords())
    {
        n += r.finished ? 1 : 0;
    }
    return n;
}

Time
HpccScenarioHelper::GetLastFct() const
{
    Time finish;
    Time fct;
    for (const RdmaFlowRecord& r : GetFlowRecords())
    {
        if (r.finished && r.finish >= finish)
        {
            finish = r.finish;
            fct = r.fct;
        }
    }
    return fct;
}

void
HpccScenarioHelper::PrintFlows(std::ostream& os) const
{
    std::vector<RdmaFlowRecord> records = GetFlowRecords();
    const tagger::Topology& topo = m_topology.topo;
    const std::size_t shown = std::min<std::size_t>(records.size(), kPrintedFlows);
    for (std::size_t i = 0; i < shown; ++i)
    {
        const tagger::HpccFlow& f = m_flows[i];
        const RdmaFlowRecord& r = records[i];
        os << "  flow " << i << ": " << topo.GetNode(f.src).name << " -> "
           << topo.GetNode(f.dst).name << ", class " << f.priority << ", dport " << f.dport << ", "
           << f.sizeBytes << " B from " << tagger::FormatHpccTime(f.startSeconds) << ": ";
        if (r.finished)
        {
            os << "FCT " << std::fixed << std::setprecision(3) << r.fct.GetNanoSeconds() / 1000.0
               << " us, slowdown " << r.slowdown << std::defaultfloat << "\n";
        }
        else
        {
            os << "not finished\n";
        }
    }
    if (shown < records.size())
    {
        os << "  ... and " << records.size() - shown
           << " flows more (--fct or --csv: every flow)\n";
    }
    RdmaHelper::PrintFctSummary(os, records);
}

void
HpccScenarioHelper::WriteFct(std::ostream& out) const
{
    std::vector<RdmaFlowRecord> records = GetFlowRecords();
    std::vector<uint32_t> done;
    for (uint32_t i = 0; i < records.size(); ++i)
    {
        if (records[i].finished)
        {
            done.push_back(i);
        }
    }
    std::stable_sort(done.begin(), done.end(), [&records](uint32_t a, uint32_t b) {
        return records[a].finish < records[b].finish;
    });
    std::vector<uint32_t> sport = HpccSourcePorts(m_flows);
    std::map<tagger::NodeId, std::vector<tagger::HpccPairPath>> paths; // per source node
    const uint64_t header = (m_rdma.GetNHosts() > 0 ? m_rdma.GetNic(0)->GetDataHeaderBytes()
                                                    : RdmaNic::kRoceHeaderBytes) +
                            kEthernetHeaderSize;
    for (uint32_t i : done)
    {
        const tagger::HpccFlow& f = m_flows[i];
        UintegerValue payload;
        m_rdma.GetNic(GetHostIndex(f.src))->GetAttribute("PayloadSize", payload);
        auto it = paths.find(f.src);
        if (it == paths.end())
        {
            it =
                paths.emplace(f.src, tagger::HpccPathsFrom(m_topology, f.src, payload.Get())).first;
        }
        RdmaFlowRecord r = records[i];
        r.idealFct = NanoSeconds(int64_t(
            tagger::HpccStandaloneFctNs(it->second[f.dst], f.sizeBytes, payload.Get(), header)));
        WriteFctLine(out, r, f.src, f.dst, sport[i], f.dport);
    }
}

std::vector<uint32_t>
HpccScenarioHelper::HpccSourcePorts(const std::vector<tagger::HpccFlow>& flows)
{
    std::map<std::pair<tagger::NodeId, tagger::NodeId>, uint32_t> next; // per host pair
    std::vector<uint32_t> ports;
    for (const tagger::HpccFlow& flow : flows)
    {
        auto it = next.emplace(std::make_pair(flow.src, flow.dst), kHpccFirstSourcePort).first;
        ports.push_back(it->second++);
    }
    return ports;
}

void
HpccScenarioHelper::WritePfcLine(PfcFileSite* site, const PfcHeader& frame)
{
    for (uint8_t cls = 0; cls < 8; ++cls)
    {
        if (frame.IsClassEnabled(cls))
        {
            *site->out << Simulator::Now().GetNanoSeconds() << " " << site->node << " "
                       << site->type << " " << site->ifIndex << " "
                       << (frame.GetQuanta(cls) > 0 ? 1 : 0) << "\n";
        }
    }
}

void
HpccScenarioHelper::EnablePfcFile(std::ostream& out)
{
    NS_ABORT_MSG_UNLESS(m_net, "HpccScenarioHelper::EnablePfcFile: call Build() first");
    const tagger::Topology& topo = m_topology.topo;
    for (tagger::NodeId v = 0; v < topo.GetNNodes(); ++v)
    {
        uint32_t type = topo.GetNode(v).kind == tagger::NodeKind::SWITCH ? 1 : 0;
        for (tagger::PortNo p = 0; p < topo.GetNode(v).ports; ++p)
        {
            Ptr<PfcNetDevice> dev = m_net->GetDevice(v, p);
            if (dev)
            {
                m_pfcSites.push_back(PfcFileSite{&out, v, type, p + 1});
                dev->TraceConnectWithoutContext(
                    "PfcRx",
                    MakeBoundCallback(&HpccScenarioHelper::WritePfcLine, &m_pfcSites.back()));
            }
        }
    }
}

void
HpccScenarioHelper::Export(std::ostream& topologyOut, std::ostream& flowOut) const
{
    ExportScenario(*m_net, m_flows, topologyOut, flowOut, &m_topology);
}

void
HpccScenarioHelper::Export(const std::string& dir) const
{
    ExportScenario(dir, *m_net, m_flows, &m_topology);
}

void
HpccScenarioHelper::WriteFctLine(std::ostream& out,
                                 const RdmaFlowRecord& record,
                                 tagger::NodeId src,
                                 tagger::NodeId dst,
                                 uint32_t sport,
                                 uint32_t dport)
{
    char address[2][9];
    std::snprintf(address[0], sizeof(address[0]), "%08" PRIx32, HpccNodeAddress(src).Get());
    std::snprintf(address[1], sizeof(address[1]), "%08" PRIx32, HpccNodeAddress(dst).Get());
    out << address[0] << " " << address[1] << " " << sport << " " << dport << " " << record.bytes
        << " " << record.start.GetNanoSeconds() << " " << record.fct.GetNanoSeconds() << " "
        << record.idealFct.GetNanoSeconds() << "\n";
}

Ipv4Address
HpccScenarioHelper::HpccNodeAddress(tagger::NodeId node)
{
    return Ipv4Address(kHpccAddressBase + (node / 256) * 0x10000 + (node % 256) * 0x100);
}

uint8_t
HpccScenarioHelper::PriorityToDscp(uint32_t priority)
{
    NS_ABORT_MSG_IF(priority > tagger::kMaxHpccPriority,
                    "HpccScenarioHelper: priority " << priority << " is above "
                                                    << tagger::kMaxHpccPriority);
    return uint8_t(priority << 3);
}

PfcLinkProperties
HpccScenarioHelper::ToLinkProperties(const tagger::HpccLink& link)
{
    PfcLinkProperties p;
    p.rate = DataRate(link.rateBps);
    p.delay = Seconds(link.delaySeconds);
    p.errorRate = link.errorRate;
    return p;
}

tagger::HpccLink
HpccScenarioHelper::ToHpccLink(const PfcLinkProperties& link)
{
    tagger::HpccLink l;
    l.rateBps = link.rate.GetBitRate();
    l.delaySeconds = NanoSecondsToSeconds(link.delay);
    l.errorRate = link.errorRate;
    return l;
}

std::vector<tagger::HpccFlow>
HpccScenarioHelper::ToHpccFlows(const PfcTopologyHelper& net,
                                const std::vector<GeneratedFlow>& flows,
                                uint32_t dport)
{
    std::vector<tagger::NodeId> hosts = net.GetTopology().GetHosts();
    std::vector<tagger::HpccFlow> out;
    for (const GeneratedFlow& g : flows)
    {
        NS_ABORT_MSG_IF(g.src >= hosts.size() || g.dst >= hosts.size(),
                        "HpccScenarioHelper::ToHpccFlows: host "
                            << std::max(g.src, g.dst) << " does not exist (" << hosts.size()
                            << " hosts)");
        tagger::HpccFlow f;
        f.src = hosts[g.src];
        f.dst = hosts[g.dst];
        f.priority = g.dscp >> 3;
        f.dport = dport;
        f.sizeBytes = g.bytes;
        f.startSeconds = NanoSecondsToSeconds(g.start);
        out.push_back(f);
    }
    return out;
}

void
HpccScenarioHelper::ExportScenario(const PfcTopologyHelper& net,
                                   const std::vector<tagger::HpccFlow>& flows,
                                   std::ostream& topologyOut,
                                   std::ostream& flowOut,
                                   const tagger::HpccTopology* layout)
{
    tagger::HpccTopology written;
    if (layout)
    {
        written.header = layout->header;
        written.torCount = layout->torCount;
        written.capacities = layout->capacities;
    }
    written.topo = net.GetTopology();
    for (const PfcLinkProperties& p : net.GetLinkProperties())
    {
        written.links.push_back(ToHpccLink(p));
    }
    try
    {
        tagger::WriteHpccTopology(written, topologyOut);
        tagger::WriteHpccFlows(flows, flowOut);
    }
    catch (const tagger::TaggerError& e)
    {
        NS_FATAL_ERROR("HpccScenarioHelper::ExportScenario: " << e.what());
    }
}

void
HpccScenarioHelper::ExportScenario(const std::string& dir,
                                   const PfcTopologyHelper& net,
                                   const std::vector<tagger::HpccFlow>& flows,
                                   const tagger::HpccTopology* layout)
{
    const std::string topologyPath = dir + "/topology.txt";
    const std::string flowPath = dir + "/flow.txt";
    std::ofstream topologyOut(topologyPath);
    std::ofstream flowOut(flowPath);
    NS_ABORT_MSG_IF(!topologyOut,
                    "HpccScenarioHelper::ExportScenario: cannot write " << topologyPath);
    NS_ABORT_MSG_IF(!flowOut, "HpccScenarioHelper::ExportScenario: cannot write " << flowPath);
    ExportScenario(net, flows, topologyOut, flowOut, layout);
    topologyOut.close();
    flowOut.close();
    NS_ABORT_MSG_IF(!topologyOut,
                    "HpccScenarioHelper::ExportScenario: writing " << topologyPath << " failed");
    NS_ABORT_MSG_IF(!flowOut,
                    "HpccScenarioHelper::ExportScenario: writing " << flowPath << " failed");
}

} // namespace ns3
