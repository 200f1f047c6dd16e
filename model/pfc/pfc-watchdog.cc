/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-watchdog.h"

#include "pfc-switch-net-device.h"
#include "tagger-ns3-release-compat.h"

#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcWatchdog");
NS_OBJECT_ENSURE_REGISTERED(PfcWatchdog);

TypeId
PfcWatchdog::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfcWatchdog")
            .SetParent<PfcSwitchMonitor>()
            .SetGroupName("Tagger")
            .AddConstructor<PfcWatchdog>()
            .AddAttribute("PollInterval",
                          "Time between two looks at the queues (time).",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&PfcWatchdog::m_poll),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("DetectionTime",
                          "A lossless queue paused this long (time) with frames waiting is in a "
                          "PFC storm.",
                          TimeValue(MicroSeconds(200)),
                          MakeTimeAccessor(&PfcWatchdog::m_detection),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("RestorationTime",
                          "A stormed queue is restored after this long (time) without a PAUSE "
                          "from its peer (longer than the peer's PAUSE refresh period).",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&PfcWatchdog::m_restoration),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("Action",
                          "What a storm does: Drop (flush the queue, drop its new frames) or "
                          "Forward (ignore the peer's PAUSE).",
                          EnumValue(PfcWatchdog::ACTION_DROP),
                          MakeTaggerEnumAccessor(&PfcWatchdog::m_action),
                          MakeEnumChecker(PfcWatchdog::ACTION_DROP,
                                          "Drop",
                                          PfcWatchdog::ACTION_FORWARD,
                                          "Forward"))
            .AddTraceSource("Storm",
                            "A queue entered (true) or left (false) the storm state.",
                            MakeTraceSourceAccessor(&PfcWatchdog::m_stormTrace),
                            "ns3::PfcWatchdog::StormTracedCallback");
    return tid;
}

PfcWatchdog::PfcWatchdog()
    : m_poll(MicroSeconds(10)),
      m_detection(MicroSeconds(200)),
      m_restoration(MilliSeconds(1)),
      m_action(ACTION_DROP),
      m_sw(nullptr),
      m_storms(0),
      m_restorations(0)
{
}

void
PfcWatchdog::DoDispose()
{
    m_event.Cancel();
    m_sw = nullptr;
    PfcSwitchMonitor::DoDispose();
}

void
PfcWatchdog::Attach(PfcSwitchNetDevice* sw)
{
    SetSwitch(sw);
    m_sw = sw;
    uint32_t n = sw->GetNPorts() * kPfcClasses;
    m_stormed.assign(n, 0);
    m_lastPause.assign(n, Time(0));
    m_event = Simulator::Schedule(m_poll, &PfcWatchdog::Poll, this);
}

void
PfcWatchdog::ReceivePfc(uint32_t port, const PfcHeader& pfc)
{
    for (uint8_t c = 0; c < kPfcClasses; ++c)
    {
        if (pfc.IsClassEnabled(c) && pfc.GetQuanta(c) > 0)
        {
            m_lastPause[port * kPfcClasses + c] = Simulator::Now();
        }
    }
}

void
PfcWatchdog::Poll()
{
    Time now = Simulator::Now();
    for (uint32_t p = 0; p < m_sw->GetNPorts(); ++p)
    {
        Ptr<PfcNetDevice> dev = m_sw->GetPort(p);
        for (uint8_t c = 0; c < kPfcClasses; ++c)
        {
            if (!m_sw->GetMmu()->IsLossless(c))
            {
                continue;
            }
            uint32_t i = p * kPfcClasses + c;
            if (m_stormed[i])
            {
                if (now - m_lastPause[i] >= m_restoration)
                {
                    Restore(p, c);
                }
            }
            else if (dev->IsClassPaused(c) && !dev->GetQueue(c).empty() &&
                     now - dev->GetPausedSince(c) >= m_detection)
            {
                Detect(p, c);
            }
        }
    }
    m_event = Simulator::Schedule(m_poll, &PfcWatchdog::Poll, this);
}

void
PfcWatchdog::Detect(uint32_t port, uint8_t cls)
{
    NS_LOG_LOGIC("storm at port " << port << " class " << int(cls));
    m_stormed[port * kPfcClasses + cls] = 1;
    ++m_storms;
    if (m_firstStorm.IsZero())
    {
        m_firstStorm = Simulator::Now();
    }
    if (m_action == ACTION_DROP)
    {
        m_sw->FlushForRecovery(port, cls, *this);
    }
    else
    {
        m_sw->GetPort(port)->IgnorePauseUntil(cls, Time::Max());
    }
    m_stormTrace(port, cls, true);
}

void
PfcWatchdog::Restore(uint32_t port, uint8_t cls)
{
    m_stormed[port * kPfcClasses + cls] = 0;
    ++m_restorations;
    if (m_action == ACTION_FORWARD)
    {
        m_sw->GetPort(port)->IgnorePauseUntil(cls, Time(0));
    }
    m_stormTrace(port, cls, false);
}

bool
PfcWatchdog::IsDropping(uint32_t port, uint8_t cls, bool /* lossless */) const
{
    return m_action == ACTION_DROP && m_stormed[port * kPfcClasses + cls];
}

PfcDropReason
PfcWatchdog::GetRecoveryDropReason() const
{
    return PfcDropReason::PFC_WATCHDOG;
}

uint64_t
PfcWatchdog::GetStorms() const
{
    return m_storms;
}

uint64_t
PfcWatchdog::GetRestorations() const
{
    return m_restorations;
}

uint64_t
PfcWatchdog::GetDrops() const
{
    return GetRecoveryDrops();
}

Time
PfcWatchdog::GetFirstStorm() const
{
    return m_firstStorm;
}

} // namespace ns3
