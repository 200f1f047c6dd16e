/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-helper.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/rdma-dcqcn.h"
#include "ns3/rdma-dctcp.h"
#include "ns3/rdma-hpcc.h"
#include "ns3/rdma-timely.h"
#include "ns3/simulator.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <deque>
#include <fstream>
#include <iomanip>
#include <iostream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaHelper");

RdmaHelper::RdmaHelper()
    : m_net(nullptr),
      m_flowsAdded(0),
      m_donePeriod(0)
{
    m_nicFactory.SetTypeId("ns3::RdmaNic");
}

std::vector<std::string>
RdmaHelper::GetCongestionControlNames()
{
    return {"dcqcn", "hpcc", "dctcp", "timely", "none"};
}

TypeId
RdmaHelper::GetCongestionControlType(const std::string& name)
{
    if (name == "dcqcn")
    {
        return RdmaDcqcn::GetTypeId();
    }
    if (name == "hpcc")
    {
        return RdmaHpcc::GetTypeId();
    }
    if (name == "dctcp")
    {
        return RdmaDctcp::GetTypeId();
    }
    if (name == "timely")
    {
        return RdmaTimely::GetTypeId();
    }
    NS_ABORT_MSG_IF(name != "none",
                    "RdmaHelper: congestion control '"
                        << name << "' is none of dcqcn, hpcc, dctcp, timely, none");
    return RdmaNoCongestionControl::GetTypeId();
}

std::string
RdmaHelper::GetCongestionControlName() const
{
    return m_nics.empty() || !m_nics[0]->GetCongestionControl()
               ? ""
               : m_nics[0]->GetCongestionControl()->GetName();
}

void
RdmaHelper::SetCongestionControl(const std::string& name)
{
    SetNicAttribute("CongestionControl", TypeIdValue(GetCongestionControlType(name)));
}

void
RdmaHelper::SetNicAttribute(std::string name, const AttributeValue& value)
{
    m_nicFactory.Set(name, value);
}

void
RdmaHelper::Install(const PfcTopologyHelper& net)
{
    NS_ABORT_MSG_IF(m_net, "RdmaHelper::Install: called twice");
    m_net = &net;
    for (uint32_t h = 0; h < net.GetNHosts(); ++h)
    {
        Ptr<RdmaNic> nic = m_nicFactory.Create<RdmaNic>();
        if (net.IsRelayHost(h))
        {
            nic->Attach(net.GetHostSwitch(h), net.GetHostAddress(h));
        }
        else
        {
            nic->Attach(net.GetHostDevice(h), net.GetHostAddress(h));
        }
        net.GetHost(h)->AggregateObject(nic);
        m_nics.push_back(nic);
    }
    m_parents.assign(net.GetTopology().GetNNodes(), {});
    EnableTelemetry(net);
}

void
RdmaHelper::EnableTelemetry(const PfcTopologyHelper& net) const
{
    if (m_nics.empty() || !m_nics[0]->GetCongestionControl()->WantsInt())
    {
        return;
    }
    // HPCC reads in-band telemetry: every forwarder records its hop (read at
    // the switch's initialization, at the simulation's start).
    NodeContainer forwarders = net.GetForwarders();
    for (uint32_t i = 0; i < forwarders.GetN(); ++i)
    {
        PfcHelper::GetSwitch(forwarders.Get(i))->SetAttribute("Int", BooleanValue(true));
    }
}

Ptr<RdmaNic>
RdmaHelper::GetNic(uint32_t host) const
{
    NS_ABORT_MSG_IF(host >= m_nics.size(),
                    "RdmaHelper: no host " << host << " (" << m_nics.size() << " hosts)");
    return m_nics[host];
}

uint32_t
RdmaHelper::GetNHosts() const
{
    return m_nics.size();
}

std::vector<Ptr<PfcNetDevice>>
RdmaHelper::PathDevices(uint32_t src, uint32_t dst) const
{
    const tagger::Topology& topo = m_net->GetTopology();
    // Breadth-first over forwarders (switches, relay servers) from the source
    // host, or from its ToR when the host does not relay and has that one
    // link: one search (and one vector of parents) per ToR, not per host.
    const tagger::NodeId host = topo.GetHosts()[src];
    tagger::NodeId start = host;
    if (!topo.IsForwarder(host) && topo.GetNeighbors(host).size() == 1 &&
        topo.IsForwarder(topo.GetPeer(host, 0).node))
    {
        start = topo.GetPeer(host, 0).node;
    }
    std::vector<tagger::NodeId>& parent = m_parents[start];
    if (parent.empty())
    {
        parent.assign(topo.GetNNodes(), tagger::kNone);
        parent[start] = start;
        std::deque<tagger::NodeId> queue{start};
        while (!queue.empty())
        {
            tagger::NodeId u = queue.front();
            queue.pop_front();
            if (u != start && !topo.IsForwarder(u))
            {
                continue;
            }
            for (tagger::NodeId w : topo.GetNeighbors(u))
            {
                if (parent[w] == tagger::kNone)
                {
                    parent[w] = u;
                    queue.push_back(w);
                }
            }
        }
    }
    tagger::NodeId v = topo.GetHosts()[dst];
    NS_ABORT_MSG_IF(parent[v] == tagger::kNone,
                    "RdmaHelper: host " << dst << " is unreachable from host " << src);
    std::vector<Ptr<PfcNetDevice>> path;
    for (; v != start; v = parent[v])
    {
        path.push_back(m_net->GetDevice(parent[v], topo.GetPortTo(parent[v], v)));
    }
    if (start != host)
    {
        path.push_back(m_net->GetDevice(host, 0)); // the host's link to its ToR
    }
    std::reverse(path.begin(), path.end());
    return path;
}

Time
RdmaHelper::IdealFct(uint32_t src, uint32_t dst, uint64_t bytes) const
{
    std::vector<Ptr<PfcNetDevice>> path = PathDevices(src, dst);
    UintegerValue payloadValue;
    m_nics[src]->GetAttribute("PayloadSize", payloadValue);
    uint64_t payload = payloadValue.Get();
    const uint64_t header = m_nics[src]->GetDataHeaderBytes() + kEthernetHeaderSize;
    uint64_t packets = (bytes + payload - 1) / payload;
    uint64_t last = bytes - (packets - 1) * payload;
    auto first = uint32_t(std::min<uint64_t>(bytes, payload) + header);
    // The slowest hop (the first of equals) serialises the whole message;
    // every other hop adds the first packet's store-and-forward time.
    std::size_t slow = 0;
    for (std::size_t i = 1; i < path.size(); ++i)
    {
        slow = path[i]->GetDataRate() < path[slow]->GetDataRate() ? i : slow;
    }
    Time ideal = (packets - 1) * path[slow]->GetWireTime(uint32_t(payload + header)) +
                 path[slow]->GetWireTime(uint32_t(last + header));
    for (std::size_t i = 0; i < path.size(); ++i)
    {
        ideal += path[i]->GetPfcChannel()->GetDelay() +
                 (i == slow ? Time(0) : path[i]->GetWireTime(first));
    }
    return ideal;
}

uint32_t
RdmaHelper::AddFlow(uint32_t src,
                    uint32_t dst,
                    uint64_t bytes,
                    Time start,
                    uint8_t dscp,
                    uint16_t sport)
{
    NS_ABORT_MSG_IF(!m_net, "RdmaHelper::AddFlow: Install first");
    NS_ABORT_MSG_IF(src >= m_nics.size() || dst >= m_nics.size(),
                    "RdmaHelper::AddFlow: host " << std::max(src, dst) << " does not exist ("
                                                 << m_nics.size() << " hosts)");
    NS_ABORT_MSG_IF(src == dst, "RdmaHelper::AddFlow: host " << src << " sends to itself");
    RdmaFlowSpec spec;
    spec.dst = m_net->GetHostAddress(dst);
    spec.bytes = bytes;
    spec.start = start;
    spec.dscp = dscp;
    spec.sport = sport;
    spec.idealFct = IdealFct(src, dst, bytes);
    ++m_flowsAdded;
    return m_nics[src]->AddFlow(spec);
}

void
RdmaHelper::AddFlows(const std::vector<GeneratedFlow>& flows)
{
    for (const GeneratedFlow& f : flows)
    {
        AddFlow(f.src, f.dst, f.bytes, f.start, f.dscp);
    }
}

std::vector<RdmaFlowRecord>
RdmaHelper::GetFlowRecords() const
{
    std::vector<RdmaFlowRecord> all;
    for (const auto& nic : m_nics)
    {
        std::vector<RdmaFlowRecord> r = nic->GetFlowRecords();
        all.insert(all.end(), r.begin(), r.end());
    }
    return all;
}

void
RdmaHelper::WriteFlowRecords(const std::string& path) const
{
    std::ofstream out(path);
    NS_ABORT_MSG_IF(!out, "RdmaHelper::WriteFlowRecords: cannot write " << path);
    WriteFlowRecords(out);
    out.flush();
    NS_ABORT_MSG_IF(!out, "RdmaHelper::WriteFlowRecords: writing " << path << " failed");
}

void
RdmaHelper::WriteFlowRecords(std::ostream& out) const
{
    out << RdmaFlowRecord::CsvHeader() << "\n";
    for (const RdmaFlowRecord& r : GetFlowRecords())
    {
        RdmaFlowRecord::WriteCsv(out, r);
        out << "\n";
    }
}

uint64_t
RdmaHelper::GetRetransmittedPackets() const
{
    uint64_t n = 0;
    for (const auto& nic : m_nics)
    {
        n += nic->GetRetransmittedPackets();
    }
    return n;
}

uint64_t
RdmaHelper::GetTimeouts() const
{
    uint64_t n = 0;
    for (const auto& nic : m_nics)
    {
        n += nic->GetTimeouts();
    }
    return n;
}

uint64_t
RdmaHelper::GetCnps() const
{
    uint64_t n = 0;
    for (const auto& nic : m_nics)
    {
        n += nic->GetCnpsReceived();
    }
    return n;
}

uint64_t
RdmaHelper::GetBytesDelivered() const
{
    uint64_t n = 0;
    for (const auto& nic : m_nics)
    {
        n += nic->GetBytesDelivered();
    }
    return n;
}

uint32_t
RdmaHelper::GetActiveFlows() const
{
    uint32_t n = 0;
    for (const auto& nic : m_nics)
    {
        n += nic->GetActiveFlows();
    }
    return n;
}

void
RdmaHelper::StopWhenDone(Time notBefore, Time period, std::string progress)
{
    NS_ABORT_MSG_IF(!m_donePeriod.IsZero(), "RdmaHelper::StopWhenDone: called twice");
    NS_ABORT_MSG_IF(!period.IsStrictlyPositive(), "RdmaHelper::StopWhenDone: period must be > 0");
    std::vector<uint32_t> ranks = m_net ? m_net->GetNodeRanks() : std::vector<uint32_t>();
    NS_ABORT_MSG_IF(std::any_of(ranks.begin(), ranks.end(), [](uint32_t r) { return r > 0; }),
                    "RdmaHelper::StopWhenDone: the network is split across MPI ranks, and a "
                    "rank sees only its own flows: stop at a fixed time instead");
    m_doneNotBefore = notBefore;
    m_donePeriod = period;
    m_progress = progress;
    m_lastProgress = std::chrono::steady_clock::now();
    Simulator::Schedule(period, &RdmaHelper::CheckDone, this);
}

void
RdmaHelper::CheckDone()
{
    if (Simulator::Now() > m_doneNotBefore && GetActiveFlows() == 0)
    {
        Simulator::Stop();
        return;
    }
    auto now = std::chrono::steady_clock::now();
    if (!m_progress.empty() && now - m_lastProgress > std::chrono::seconds(10))
    {
        m_lastProgress = now;
        uint64_t finished = 0;
        for (const RdmaFlowRecord& r : GetFlowRecords())
        {
            finished += r.finished ? 1 : 0;
        }
        std::cerr << m_progress << ": " << Simulator::Now().As(Time::MS) << " simulated, "
                  << finished << " of " << m_flowsAdded << " flows finished" << std::endl;
    }
    Simulator::Schedule(m_donePeriod, &RdmaHelper::CheckDone, this);
}

void
RdmaHelper::PrintFctSummary(std::ostream& os, const std::vector<RdmaFlowRecord>& records)
{
    std::vector<double> fct;
    std::vector<double> slowdown;
    for (const RdmaFlowRecord& r : records)
    {
        if (r.finished)
        {
            fct.push_back(r.fct.GetMicroSeconds());
            slowdown.push_back(r.slowdown);
        }
    }
    os << "flows completed: " << fct.size() << " of " << records.size() << "\n";
    if (fct.empty())
    {
        return;
    }
    auto stats = [&os](const char* what, std::vector<double> v) {
        std::sort(v.begin(), v.end());
        double mean = 0;
        for (double x : v)
        {
            mean += x / v.size();
        }
        auto pct = [&v](double p) { return v[std::min(v.size() - 1, size_t(p * v.size()))]; };
        os << "  " << what << ": mean " << std::fixed << std::setprecision(2) << mean << ", median "
           << pct(0.5) << ", p95 " << pct(0.95) << ", p99 " << pct(0.99) << ", max " << v.back()
           << std::defaultfloat << "\n";
    };
    stats("FCT (us)", fct);
    stats("slowdown", slowdown);
}

} // namespace ns3
