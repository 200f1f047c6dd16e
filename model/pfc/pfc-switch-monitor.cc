/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#include "pfc-switch-monitor.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(PfcSwitchMonitor);

TypeId
PfcSwitchMonitor::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcSwitchMonitor").SetParent<Object>().SetGroupName("Tagger");
    return tid;
}

PfcSwitchMonitor::PfcSwitchMonitor()
    : m_sw(nullptr),
      m_recoveryDrops(0)
{
}

void
PfcSwitchMonitor::DoDispose()
{
    m_sw = nullptr;
    Object::DoDispose();
}

void
PfcSwitchMonitor::SetSwitch(PfcSwitchNetDevice* sw)
{
    m_sw = sw;
}

PfcSwitchNetDevice*
PfcSwitchMonitor::GetSwitch() const
{
    return m_sw;
}

void
PfcSwitchMonitor::NotifyEnqueue(uint32_t, uint8_t, uint32_t, uint8_t)
{
}

void
PfcSwitchMonitor::NotifyDequeue(uint32_t, uint8_t, uint32_t, uint8_t)
{
}

void
PfcSwitchMonitor::BeforePause(uint32_t, uint8_t)
{
}

void
PfcSwitchMonitor::AfterPause(uint32_t, uint8_t)
{
}

void
PfcSwitchMonitor::AfterResume(uint32_t, uint8_t)
{
}

void
PfcSwitchMonitor::ReceivePfc(uint32_t, const PfcHeader&)
{
}

uint16_t
PfcSwitchMonitor::GetEtherType() const
{
    return 0;
}

void
PfcSwitchMonitor::ReceiveFrame(uint32_t, Ptr<Packet>)
{
}

bool
PfcSwitchMonitor::IsDropping(uint32_t, uint8_t, bool) const
{
    return false;
}

bool
PfcSwitchMonitor::IsHoldingLossy(uint32_t, uint8_t) const
{
    return false;
}

bool
PfcSwitchMonitor::IsHoldDrop(uint32_t, uint8_t) const
{
    return false;
}

void
PfcSwitchMonitor::CountRecoveryDrops(uint64_t n)
{
    m_recoveryDrops += n;
}

uint64_t
PfcSwitchMonitor::GetRecoveryDrops() const
{
    return m_recoveryDrops;
}

} // namespace ns3
