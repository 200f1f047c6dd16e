/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-hpcc.h"

#include "ns3/double.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaHpcc);

TypeId
RdmaHpcc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaHpcc")
            .SetParent<RdmaCongestionControl>()
            .SetGroupName("Tagger")
            .AddConstructor<RdmaHpcc>()
            .AddAttribute("Eta",
                          "Target utilization eta (dimensionless; 0.95, HPCC Sec. 3.3).",
                          DoubleValue(0.95),
                          MakeDoubleAccessor(&RdmaHpcc::m_eta),
                          MakeDoubleChecker<double>(0.01, 1))
            .AddAttribute("MaxStage",
                          "Additive steps before a multiplicative update even below Eta "
                          "(steps; 5, HPCC Sec. 3.3; the HPCC authors' config runs 0).",
                          UintegerValue(5),
                          MakeUintegerAccessor(&RdmaHpcc::m_maxStage),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RateAI",
                          "Additive increase as a rate: W_AI = RateAI x BaseRtt (bit/s; 50 "
                          "Mb/s, the HPCC authors' RATE_AI).",
                          DataRateValue(DataRate("50Mbps")),
                          MakeDataRateAccessor(&RdmaHpcc::m_rai),
                          MakeDataRateChecker())
            .AddAttribute("BaseRtt",
                          "T: the network's round trip without queues, which scales the "
                          "window to a rate and the telemetry to utilization (time; 10 us: "
                          "a few hops of 1 us links; set it to the network's).",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&RdmaHpcc::m_baseRtt),
                          MakeTimeChecker(NanoSeconds(1)));
    return tid;
}

std::string
RdmaHpcc::GetName() const
{
    return "hpcc";
}

bool
RdmaHpcc::SendsCnps() const
{
    return false;
}

bool
RdmaHpcc::WantsInt() const
{
    return true;
}

double
RdmaHpcc::GetInitialWindow() const
{
    return GetLineRate() / 8 * m_baseRtt.GetSeconds();
}

void
RdmaHpcc::FlowAdded(uint32_t flow)
{
    m_flows.resize(std::max<size_t>(m_flows.size(), flow + 1));
    Flow& f = m_flows[flow];
    f.window = f.reference = GetInitialWindow();
    SetWindow(flow, uint64_t(f.window));
}

double
RdmaHpcc::MeasureInflight(Flow& f, const RoceIntHeader& t) const
{
    const double T = m_baseRtt.GetSeconds();
    double u = 0;
    double tau = T;
    for (uint32_t j = 0; j < f.hops; ++j)
    {
        const RoceIntHeader::Hop now = t.GetHop(j);
        const RoceIntHeader::Hop& before = f.last[j];
        const uint64_t dtNs = RoceIntHeader::GetTimeDelta(now, before);
        if (dtNs == 0 || now.rateBps == 0)
        {
            continue; // the same departure seen twice: no rate from it
        }
        const double dt = dtNs * 1e-9;
        const double link = now.rateBps / 8.0; // bytes/s
        const double txRate = RoceIntHeader::GetBytesDelta(now, before) / dt;
        const double uj = double(std::min(now.queue, before.queue)) / (link * T) + txRate / link;
        if (uj > u)
        {
            u = uj;
            tau = dt;
        }
    }
    tau = std::min(tau, T);
    f.u = (1 - tau / T) * f.u + tau / T * u;
    return f.u;
}

double
RdmaHpcc::ComputeWindow(Flow& f, bool update) const
{
    const double wai = m_rai.GetBitRate() / 8.0 * m_baseRtt.GetSeconds();
    double w;
    if (f.u >= m_eta || f.stage >= m_maxStage)
    {
        w = f.reference / (f.u / m_eta) + wai;
        if (update)
        {
            f.stage = 0;
        }
    }
    else
    {
        w = f.reference + wai;
        if (update)
        {
            ++f.stage;
        }
    }
    w = std::min(std::max(w, 1.0), GetInitialWindow());
    if (update)
    {
        f.reference = w;
    }
    return w;
}

void
RdmaHpcc::AckReceived(uint32_t flow, const RdmaAckInfo& ack)
{
    if (!ack.telemetry || ack.telemetry->GetNHops() == 0)
    {
        return;
    }
    Flow& f = m_flows[flow];
    const RoceIntHeader& t = *ack.telemetry;
    if (f.hops == t.GetNHops())
    {
        MeasureInflight(f, t);
        const bool update = ack.una > f.lastUpdateSeq;
        f.window = ComputeWindow(f, update);
        if (update)
        {
            f.lastUpdateSeq = ack.next;
        }
        SetWindow(flow, uint64_t(f.window + 0.5));
        SetRate(flow, f.window * 8 / m_baseRtt.GetSeconds());
    }
    else
    {
        f.lastUpdateSeq = ack.next; // the first record (or a new path): measure from here
    }
    f.hops = t.GetNHops();
    for (uint32_t j = 0; j < f.hops; ++j)
    {
        f.last[j] = t.GetHop(j);
    }
}

} // namespace ns3
