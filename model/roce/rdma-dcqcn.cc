/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-dcqcn.h"

#include "rdma-nic.h"

#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaDcqcn);

TypeId
RdmaDcqcn::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaDcqcn")
                            .SetParent<RdmaCongestionControl>()
                            .SetGroupName("Tagger")
                            .AddConstructor<RdmaDcqcn>();
    return tid;
}

std::string
RdmaDcqcn::GetName() const
{
    return "dcqcn";
}

void
RdmaDcqcn::DoDispose()
{
    for (Flow& f : m_flows)
    {
        f.alphaEvent.Cancel();
        f.rateEvent.Cancel();
        f.decreaseEvent.Cancel();
    }
    RdmaCongestionControl::DoDispose();
}

void
RdmaDcqcn::FlowAdded(uint32_t flow)
{
    m_flows.resize(std::max<size_t>(m_flows.size(), flow + 1));
    m_flows[flow].rt = GetLineRate();
}

void
RdmaDcqcn::FlowFinished(uint32_t flow)
{
    Flow& f = m_flows[flow];
    f.done = true;
    f.alphaEvent.Cancel();
    f.rateEvent.Cancel();
    f.decreaseEvent.Cancel();
}

void
RdmaDcqcn::PacketSent(uint32_t flow, uint32_t bytes)
{
    const RdmaNic& nic = *GetNic();
    if (nic.m_byteCounter == 0 || GetRate(flow) >= GetLineRate())
    {
        return;
    }
    Flow& f = m_flows[flow];
    f.bytesSinceEvent += bytes;
    if (f.bytesSinceEvent >= nic.m_byteCounter)
    {
        f.bytesSinceEvent = 0;
        RateIncrease(flow, false);
    }
}

void
RdmaDcqcn::CnpReceived(uint32_t flow)
{
    const RdmaNic& nic = *GetNic();
    Flow& f = m_flows[flow];
    if (f.done)
    {
        return;
    }
    f.cnpSinceAlpha = true;
    if (f.alphaEvent.IsExpired())
    {
        f.alphaEvent = Simulator::Schedule(nic.m_alphaTimer, &RdmaDcqcn::AlphaTimer, this, flow);
    }
    if (nic.m_decreaseInterval.IsZero())
    {
        // DCQCN's RP: every CNP cuts, and raises alpha.
        Cut(flow);
        f.alpha = (1 - nic.m_g) * f.alpha + nic.m_g;
        return;
    }
    // At most one cut per RateDecreaseInterval; alpha moves on its timer only.
    f.cutPending = true;
    if (f.decreaseEvent.IsExpired())
    {
        f.decreaseEvent =
            Simulator::Schedule(nic.m_decreaseInterval, &RdmaDcqcn::DecreaseTimer, this, flow);
    }
}

void
RdmaDcqcn::DecreaseTimer(uint32_t flow)
{
    Flow& f = m_flows[flow];
    if (f.done)
    {
        return;
    }
    f.decreaseEvent =
        Simulator::Schedule(GetNic()->m_decreaseInterval, &RdmaDcqcn::DecreaseTimer, this, flow);
    if (f.cutPending)
    {
        f.cutPending = false;
        Cut(flow);
    }
}

void
RdmaDcqcn::Cut(uint32_t flow)
{
    const RdmaNic& nic = *GetNic();
    Flow& f = m_flows[flow];
    const double rc = GetRate(flow);
    if (nic.m_clampTargetRate || f.timerEvents > 0 || f.byteEvents > 0)
    {
        f.rt = rc;
    }
    SetRate(flow, rc * (1 - f.alpha / 2));
    f.timerEvents = 0;
    f.byteEvents = 0;
    f.bytesSinceEvent = 0;
    f.rateEvent.Cancel();
    f.rateEvent = Simulator::Schedule(nic.m_rateTimer, &RdmaDcqcn::RateIncreaseTimer, this, flow);
}

void
RdmaDcqcn::AlphaTimer(uint32_t flow)
{
    Flow& f = m_flows[flow];
    if (f.done)
    {
        return;
    }
    const RdmaNic& nic = *GetNic();
    if (!f.cnpSinceAlpha)
    {
        f.alpha = (1 - nic.m_g) * f.alpha;
    }
    f.cnpSinceAlpha = false;
    f.alphaEvent = Simulator::Schedule(nic.m_alphaTimer, &RdmaDcqcn::AlphaTimer, this, flow);
}

void
RdmaDcqcn::RateIncreaseTimer(uint32_t flow)
{
    Flow& f = m_flows[flow];
    if (f.done)
    {
        return;
    }
    RateIncrease(flow, true);
    if (GetRate(flow) < GetLineRate())
    {
        f.rateEvent =
            Simulator::Schedule(GetNic()->m_rateTimer, &RdmaDcqcn::RateIncreaseTimer, this, flow);
    }
}

void
RdmaDcqcn::RateIncrease(uint32_t flow, bool byTimer)
{
    const RdmaNic& nic = *GetNic();
    Flow& f = m_flows[flow];
    ++(byTimer ? f.timerEvents : f.byteEvents);
    // With the byte counter off the timer's count is both counts.
    uint32_t most = std::max(f.timerEvents, f.byteEvents);
    uint32_t least = nic.m_byteCounter > 0 ? std::min(f.timerEvents, f.byteEvents) : most;
    if (most < nic.m_fastSteps)
    {
        // Fast recovery: halfway back to the target.
    }
    else if (least > nic.m_fastSteps)
    {
        f.rt += (least - nic.m_fastSteps) * double(nic.m_rhai.GetBitRate());
    }
    else
    {
        f.rt += double(nic.m_rai.GetBitRate());
    }
    f.rt = std::min(f.rt, GetLineRate());
    SetRate(flow, (f.rt + GetRate(flow)) / 2);
}

} // namespace ns3
