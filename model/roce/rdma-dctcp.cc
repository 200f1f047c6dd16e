/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-dctcp.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaDctcp);

TypeId
RdmaDctcp::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaDctcp")
            .SetParent<RdmaCongestionControl>()
            .SetGroupName("Tagger")
            .AddConstructor<RdmaDctcp>()
            .AddAttribute("G",
                          "Gain g of alpha's moving average (dimensionless; 1/16, DCTCP "
                          "Sec. 3.1).",
                          DoubleValue(1.0 / 16),
                          MakeDoubleAccessor(&RdmaDctcp::m_g),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("InitialAlpha",
                          "alpha of a new flow (dimensionless; 1: the first mark halves the "
                          "rate, as the HPCC family's DCTCP and Linux start).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&RdmaDctcp::m_initialAlpha),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("RateBased",
                          "Cut and raise the rate (true, the HPCC family's DCTCP mode) or a "
                          "window of bytes in flight (false, the DCTCP paper's sender).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaDctcp::m_rateBased),
                          MakeBooleanChecker())
            .AddAttribute("InitialWindow",
                          "Window of a new flow (bytes; not RateBased).  64 KB: above a "
                          "bandwidth-delay product of this module's networks (40 Gb/s x 12 us "
                          "= 60 KB), so that one flow alone can fill its link.",
                          UintegerValue(64000),
                          MakeUintegerAccessor(&RdmaDctcp::m_initialWindow),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("RateAI",
                          "RateBased: additive increase per window without a cut (bit/s; 1 "
                          "Gb/s, the HPCC family's DCTCP_RATE_AI).",
                          DataRateValue(DataRate("1Gbps")),
                          MakeDataRateAccessor(&RdmaDctcp::m_rai),
                          MakeDataRateChecker());
    return tid;
}

std::string
RdmaDctcp::GetName() const
{
    return "dctcp";
}

bool
RdmaDctcp::SendsCnps() const
{
    return false;
}

bool
RdmaDctcp::EchoesEcn() const
{
    return true;
}

void
RdmaDctcp::FlowAdded(uint32_t flow)
{
    m_flows.resize(std::max<size_t>(m_flows.size(), flow + 1));
    m_flows[flow].alpha = m_initialAlpha;
    if (!m_rateBased)
    {
        m_flows[flow].window = m_initialWindow;
        SetWindow(flow, m_initialWindow);
    }
}

void
RdmaDctcp::AckReceived(uint32_t flow, const RdmaAckInfo& ack)
{
    Flow& f = m_flows[flow];
    if (!f.started)
    {
        // the first window: what was sent up to now
        f.started = true;
        f.windowEnd = ack.next;
    }
    f.acked += ack.acked;
    f.marked += ack.ecnEcho ? ack.acked : 0;
    if (ack.ecnEcho && ack.una >= f.cwrEnd)
    {
        if (m_rateBased)
        {
            SetRate(flow, GetRate(flow) * (1 - f.alpha / 2));
        }
        else
        {
            f.window = std::max<uint64_t>(GetPayloadSize(), f.window * (1 - f.alpha / 2));
            SetWindow(flow, f.window);
        }
        f.cut = true;
        f.cwrEnd = ack.next;
    }
    if (ack.una >= f.windowEnd)
    {
        const double share = f.acked ? double(f.marked) / double(f.acked) : 0.0;
        f.alpha = (1 - m_g) * f.alpha + m_g * share;
        if (!f.cut && m_rateBased)
        {
            SetRate(flow, GetRate(flow) + double(m_rai.GetBitRate()));
        }
        else if (!f.cut)
        {
            f.window += GetPayloadSize(); // one packet per window (congestion avoidance)
            SetWindow(flow, f.window);
        }
        f.acked = 0;
        f.marked = 0;
        f.cut = false;
        f.windowEnd = ack.next;
    }
}

} // namespace ns3
