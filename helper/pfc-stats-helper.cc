/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-stats-helper.h"

#include "pfc-topology-helper.h"

#include "ns3/queue-disc.h"
#include "ns3/traffic-control-layer.h"

namespace ns3
{

PfcStatsHelper::PfcStatsHelper(const PfcTopologyHelper& net)
    : m_net(net)
{
}

namespace
{
/**
 * \param net a network \param f what to read from one forwarder
 * \return the sum of \p f over all forwarders (0 before Build)
 */
template <typename F>
uint64_t
SumForwarders(const PfcTopologyHelper& net, F f)
{
    uint64_t total = 0;
    const uint32_t n = net.GetNodes().GetN();
    for (tagger::NodeId v = 0; v < n; ++v)
    {
        Ptr<PfcSwitchNetDevice> sw = net.GetSwitch(v);
        total += sw ? f(sw) : 0;
    }
    return total;
}
} // namespace

uint64_t
PfcStatsHelper::GetDropCount(PfcDropReason reason) const
{
    uint64_t total = SumForwarders(m_net, [reason](const Ptr<PfcSwitchNetDevice>& sw) {
        return sw->GetDropCount(reason);
    });
    for (uint32_t h = 0; h < m_net.GetNHosts(); ++h)
    {
        // A relay server's ports count in its switch device (above).
        Ptr<PfcNetDevice> dev = m_net.GetHostDevice(h);
        total += dev ? dev->GetDropCount(reason) : 0;
    }
    return total;
}

uint64_t
PfcStatsHelper::GetDropCount() const
{
    uint64_t total = 0;
    for (uint8_t r = 0; r < kPfcDropReasons; ++r)
    {
        total += GetDropCount(static_cast<PfcDropReason>(r));
    }
    return total;
}

uint64_t
PfcStatsHelper::GetTrafficControlDrops() const
{
    uint64_t total = 0;
    for (uint32_t h = 0; h < m_net.GetNHosts(); ++h)
    {
        Ptr<PfcNetDevice> dev = m_net.GetHostDevice(h);
        if (!dev)
        {
            continue; // relay server: no traffic control
        }
        Ptr<TrafficControlLayer> tc = m_net.GetHost(h)->GetObject<TrafficControlLayer>();
        Ptr<QueueDisc> root = tc ? tc->GetRootQueueDiscOnDevice(dev) : nullptr;
        total += root ? root->GetStats().nTotalDroppedPackets : 0;
    }
    return total;
}

uint64_t
PfcStatsHelper::GetPauseCount() const
{
    return SumForwarders(m_net,
                         [](const Ptr<PfcSwitchNetDevice>& sw) { return sw->GetPauseDecisions(); });
}

uint64_t
PfcStatsHelper::GetResumeCount() const
{
    return SumForwarders(m_net, [](const Ptr<PfcSwitchNetDevice>& sw) {
        return sw->GetResumeDecisions();
    });
}

uint64_t
PfcStatsHelper::GetLosslessBytes() const
{
    return SumForwarders(m_net, [](const Ptr<PfcSwitchNetDevice>& sw) {
        return sw->GetMmu()->GetLosslessUsed();
    });
}

uint64_t
PfcStatsHelper::GetLossyBytes() const
{
    return SumForwarders(m_net, [](const Ptr<PfcSwitchNetDevice>& sw) {
        return sw->GetMmu()->GetLossyUsed();
    });
}

void
PfcStatsHelper::PrintSwitchCounters(std::ostream& os) const
{
    const uint32_t n = m_net.GetNodes().GetN();
    for (tagger::NodeId v = 0; v < n; ++v)
    {
        Ptr<PfcSwitchNetDevice> sw = m_net.GetSwitch(v);
        if (!sw)
        {
            continue;
        }
        os << m_net.GetTopology().GetNode(v).name << ": pauses=" << sw->GetPauseDecisions()
           << " resumes=" << sw->GetResumeDecisions() << " forwarded=" << sw->GetForwardedCount();
        for (uint8_t r = 0; r < kPfcDropReasons; ++r)
        {
            uint64_t drops = sw->GetDropCount(static_cast<PfcDropReason>(r));
            if (drops > 0)
            {
                os << " drop[" << static_cast<PfcDropReason>(r) << "]=" << drops;
            }
        }
        os << "\n";
    }
}

void
PfcStatsHelper::PrintDrops(std::ostream& os) const
{
    os << "drops " << GetDropCount();
    const char* sep = " (";
    for (uint8_t r = 0; r < kPfcDropReasons; ++r)
    {
        const auto reason = static_cast<PfcDropReason>(r);
        if (GetDropCount(reason) > 0)
        {
            os << sep << reason << "=" << GetDropCount(reason);
            sep = " ";
        }
    }
    os << (GetDropCount() > 0 ? ")\n" : "\n");
}

} // namespace ns3
