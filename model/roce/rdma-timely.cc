/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-timely.h"

#include "ns3/double.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaTimely);

TypeId
RdmaTimely::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaTimely")
            .SetParent<RdmaCongestionControl>()
            .SetGroupName("Tagger")
            .AddConstructor<RdmaTimely>()
            .AddAttribute("Alpha",
                          "EWMA weight of a new RTT difference (dimensionless; 0.875, the "
                          "HPCC family's TIMELY default).",
                          DoubleValue(0.875),
                          MakeDoubleAccessor(&RdmaTimely::m_alpha),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("Beta",
                          "Multiplicative decrease factor beta (dimensionless; 0.8, TIMELY).",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&RdmaTimely::m_beta),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("Delta",
                          "Additive increment delta (bit/s; 10 Mb/s, TIMELY).",
                          DataRateValue(DataRate("10Mbps")),
                          MakeDataRateAccessor(&RdmaTimely::m_delta),
                          MakeDataRateChecker())
            .AddAttribute("TLow",
                          "RTT below which the rate only grows (time; 50 us, TIMELY).",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&RdmaTimely::m_tLow),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("THigh",
                          "RTT above which the rate falls whatever the gradient (time; 500 "
                          "us, TIMELY).",
                          TimeValue(MicroSeconds(500)),
                          MakeTimeAccessor(&RdmaTimely::m_tHigh),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("MinRtt",
                          "The RTT that normalizes the gradient (time; 20 us, TIMELY).",
                          TimeValue(MicroSeconds(20)),
                          MakeTimeAccessor(&RdmaTimely::m_minRtt),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("HaiSteps",
                          "Samples in a row with a gradient <= 0 before the increase is "
                          "HaiSteps x Delta (hyperactive increase; 5, TIMELY).",
                          UintegerValue(5),
                          MakeUintegerAccessor(&RdmaTimely::m_hai),
                          MakeUintegerChecker<uint32_t>(1));
    return tid;
}

std::string
RdmaTimely::GetName() const
{
    return "timely";
}

bool
RdmaTimely::SendsCnps() const
{
    return false;
}

bool
RdmaTimely::WantsRtt() const
{
    return true;
}

void
RdmaTimely::FlowAdded(uint32_t flow)
{
    m_flows.resize(std::max<size_t>(m_flows.size(), flow + 1));
}

void
RdmaTimely::AckReceived(uint32_t flow, const RdmaAckInfo& ack)
{
    if (!ack.rtt.IsStrictlyPositive())
    {
        return;
    }
    Flow& f = m_flows[flow];
    const double rtt = ack.rtt.GetSeconds();
    if (!f.sampled)
    {
        f.sampled = true;
        f.prevRtt = rtt;
        return;
    }
    f.rttDiff = (1 - m_alpha) * f.rttDiff + m_alpha * (rtt - f.prevRtt);
    f.prevRtt = rtt;
    const double gradient = f.rttDiff / m_minRtt.GetSeconds();
    const double rate = GetRate(flow);
    const double delta = double(m_delta.GetBitRate());
    if (rtt < m_tLow.GetSeconds())
    {
        f.negative = 0;
        SetRate(flow, rate + delta);
    }
    else if (rtt > m_tHigh.GetSeconds())
    {
        f.negative = 0;
        SetRate(flow, rate * (1 - m_beta * (1 - m_tHigh.GetSeconds() / rtt)));
    }
    else if (gradient <= 0)
    {
        ++f.negative;
        SetRate(flow, rate + (f.negative >= m_hai ? m_hai : 1) * delta);
    }
    else
    {
        f.negative = 0;
        SetRate(flow, rate * (1 - m_beta * gradient));
    }
}

} // namespace ns3
