/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-channel.h"

#include "pfc-net-device.h"

#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcChannel");
NS_OBJECT_ENSURE_REGISTERED(PfcChannel);

TypeId
PfcChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfcChannel")
            .SetParent<Channel>()
            .SetGroupName("Tagger")
            .AddConstructor<PfcChannel>()
            .AddAttribute("Delay",
                          "One-way propagation delay of the cable (time; 300 m of fibre "
                          "is about 1.5 us).",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&PfcChannel::m_delay),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("Lost",
                            "A frame in flight was lost because the link went down.",
                            MakeTraceSourceAccessor(&PfcChannel::m_lostTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

PfcChannel::PfcChannel()
    : m_delay(MicroSeconds(1)),
      m_context{Simulator::NO_CONTEXT, Simulator::NO_CONTEXT},
      m_nDevices(0),
      m_up(true),
      m_epoch(0)
{
}

void
PfcChannel::Attach(Ptr<PfcNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    NS_ABORT_MSG_IF(m_nDevices >= 2,
                    "PfcChannel::Attach: a PfcChannel joins exactly two devices; "
                    "a third was attached");
    m_device[m_nDevices++] = device;
}

bool
PfcChannel::TransmitStart(const Ptr<Packet>& frame, const Ptr<PfcNetDevice>& src, Time txTime)
{
    NS_LOG_FUNCTION(this << frame << src << txTime);
    if (!m_up || m_nDevices < 2)
    {
        return false;
    }
    uint8_t to = m_device[0] == src ? 1 : 0;
    if (m_context[to] == Simulator::NO_CONTEXT)
    {
        m_context[to] = m_device[to]->GetNodeContext(); // once on its node
    }
    Simulator::ScheduleWithContext(m_context[to],
                                   txTime + m_delay,
                                   &PfcChannel::Deliver,
                                   this,
                                   m_delay.IsStrictlyPositive() ? frame : frame->Copy(),
                                   to,
                                   m_epoch);
    return true;
}

void
PfcChannel::Deliver(Ptr<Packet> frame, uint8_t to, uint64_t epoch)
{
    if (!m_up || epoch != m_epoch)
    {
        NS_LOG_LOGIC("frame lost in flight: the link went down");
        m_lostTrace(frame);
        m_device[1 - to]->NotifyLostInFlight(frame);
        return;
    }
    m_device[to]->Receive(frame);
}

void
PfcChannel::SetLinkUp(bool up)
{
    NS_LOG_FUNCTION(this << up);
    if (up == m_up)
    {
        return;
    }
    m_up = up;
    if (!up)
    {
        ++m_epoch;
    }
    for (std::size_t i = 0; i < m_nDevices; ++i)
    {
        m_device[i]->NotifyLinkChange(up);
    }
}

uint64_t
PfcChannel::GetEpoch() const
{
    return m_epoch;
}

bool
PfcChannel::IsLinkUp() const
{
    return m_up;
}

Ptr<PfcNetDevice>
PfcChannel::GetPeer(Ptr<const PfcNetDevice> device) const
{
    if (m_nDevices < 2)
    {
        return nullptr;
    }
    return m_device[0] == device ? m_device[1] : m_device[0];
}

Time
PfcChannel::GetDelay() const
{
    return m_delay;
}

std::size_t
PfcChannel::GetNDevices() const
{
    return m_nDevices;
}

Ptr<NetDevice>
PfcChannel::GetDevice(std::size_t i) const
{
    NS_ASSERT(i < m_nDevices);
    return m_device[i];
}

} // namespace ns3
