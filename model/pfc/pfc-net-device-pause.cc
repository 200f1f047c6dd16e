/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger
 * PfcNetDevice, its PFC pause state: PAUSE frames received (ApplyPfc, the
 * pause timers, the flush of a class whose pause outlived the link) and
 * sent (StartPausing, RefreshPause, StopPausing).  The transmit state
 * machine, the host and link sides are in pfc-net-device.cc.
 */

#include "pfc-channel.h"
#include "pfc-net-device-internal.h"

#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

namespace
{
/// The device's log component, for NS_LOG in this file.
LogComponent& g_log = PfcNetDeviceLogComponent();
} // namespace

void
PfcNetDevice::ApplyPfc(PfcHeader pfc, uint64_t linkDowns)
{
    NS_LOG_FUNCTION(this);
    if (!m_linkUp || linkDowns != m_linkDowns)
    {
        // The link went down after the frame arrived: going down cleared the
        // pause state, and a frame from before must not pause the new link.
        NS_LOG_LOGIC("PFC frame dropped: the link went down before it took effect");
        return;
    }
    Time now = Simulator::Now();
    for (uint8_t c = 0; c < kPfcClasses; ++c)
    {
        if (!pfc.IsClassEnabled(c))
        {
            continue;
        }
        bool was = IsClassPaused(c);
        uint16_t quanta = pfc.GetQuanta(c);
        if (quanta > 0 && now < m_ignorePauseUntil[c])
        {
            continue; // IgnorePauseUntil: PFC not honoured for this class now
        }
        m_pauseExpiry[c].Cancel();
        if (quanta == 0)
        {
            SetPausedUntil(c, Time(0));
            if (was)
            {
                m_classPauseTrace(c, false);
            }
        }
        else
        {
            Time duration = QuantaToTime(quanta);
            SetPausedUntil(c, now + duration);
            if (!was)
            {
                m_pausedSince[c] = now;
                m_classPauseTrace(c, true);
            }
            m_pauseExpiry[c] = Simulator::Schedule(duration, &PfcNetDevice::PauseExpired, this, c);
        }
        UpdateHostTxQueue(c);
    }
    TryTransmit();
}

void
PfcNetDevice::PauseExpired(uint8_t cls)
{
    NS_LOG_FUNCTION(this << int(cls));
    m_classPauseTrace(cls, false);
    UpdateHostTxQueue(cls);
    TryTransmit();
}

uint32_t
PfcNetDevice::DropLosslessFrames(uint8_t cls, PfcDropReason reason)
{
    NS_ASSERT(cls < kPfcClasses);
    PfcFifo<PfcQueueEntry> queue;
    queue.swap(m_queues[cls].frames);
    m_backlog &= uint8_t(~(1u << cls));
    uint32_t dropped = 0;
    for (const PfcQueueEntry& entry : queue)
    {
        if (entry.pool != PfcBufferPool::LOSSLESS)
        {
            m_queues[cls].frames.push_back(entry);
            m_backlog |= uint8_t(1u << cls);
            continue;
        }
        m_queues[cls].bytes -= entry.bytes;
        ++dropped;
        if (m_owner)
        {
            m_owner->DequeuedFromPort(m_switchPort, entry);
        }
        DropEntry(entry, reason);
    }
    TryTransmit();
    return dropped;
}

void
PfcNetDevice::IgnorePauseUntil(uint8_t cls, Time until)
{
    NS_ASSERT(cls < kPfcClasses);
    m_ignorePauseUntil[cls] = until;
    m_pauseExpiry[cls].Cancel();
    if (IsClassPaused(cls))
    {
        SetPausedUntil(cls, Time(0));
        m_classPauseTrace(cls, false);
        UpdateHostTxQueue(cls);
    }
    TryTransmit();
}

bool
PfcNetDevice::IsClassPaused(uint8_t cls) const
{
    return IsClassPausedAt(cls, Simulator::Now());
}

bool
PfcNetDevice::IsClassPausedAt(uint8_t cls, Time now) const
{
    // A clear bit means m_pausedUntil[cls] is 0: its line is not read.
    return ((m_pauseSet >> cls) & 1) && m_pausedUntil[cls] > now;
}

void
PfcNetDevice::SetPausedUntil(uint8_t cls, Time until)
{
    m_pausedUntil[cls] = until;
    if (until.IsZero())
    {
        m_pauseSet &= uint8_t(~(1u << cls));
    }
    else
    {
        m_pauseSet |= uint8_t(1u << cls);
    }
}

Time
PfcNetDevice::GetPausedSince(uint8_t cls) const
{
    return m_pausedSince[cls];
}

void
PfcNetDevice::SendPfcFrame(const PfcHeader& pfc)
{
    NS_LOG_FUNCTION(this);
    if (!m_linkUp)
    {
        return;
    }
    Ptr<Packet> frame = Create<Packet>();
    frame->AddHeader(pfc);
    AddEthernetHeader(frame,
                      m_address,
                      PfcHeader::GetPfcDestination(),
                      kEtherTypeMacControl,
                      false,
                      0);
    ++m_pfcTx;
    bool anyTime = false;
    for (uint8_t c = 0; c < kPfcClasses; ++c)
    {
        anyTime = anyTime || (pfc.IsClassEnabled(c) && pfc.GetQuanta(c) > 0);
    }
    ++(anyTime ? m_pauseTx : m_resumeTx);
    m_pfcTxTrace(pfc);
    SendControlFrame(frame);
}

void
PfcNetDevice::SendControlFrame(Ptr<Packet> frame)
{
    if (!m_linkUp)
    {
        return;
    }
    m_controlQueue.push_back(frame);
    m_controlPending = true;
    TryTransmit();
}

void
PfcNetDevice::SetPausePadding(uint8_t cls, const PfcHeader::Padding& padding)
{
    NS_ASSERT(cls < kPfcClasses);
    m_pausePadding[cls] = padding;
    m_pausePaddingSet |= uint8_t(1u << cls);
}

void
PfcNetDevice::StartPausing(uint8_t cls)
{
    NS_LOG_FUNCTION(this << int(cls));
    NS_ASSERT(cls < kPfcClasses);
    if (!m_pausingPeer[cls])
    {
        m_pausingSince[cls] = Simulator::Now();
    }
    m_pausingPeer[cls] = true;
    RefreshPause(cls);
}

void
PfcNetDevice::RefreshPause(uint8_t cls)
{
    m_refreshEvent[cls].Cancel();
    if (!m_pausingPeer[cls] || !m_linkUp)
    {
        return;
    }
    PfcHeader pfc;
    pfc.SetClass(cls, m_pauseQuanta);
    if (m_pausePaddingSet & (1u << cls))
    {
        pfc.SetPadding(m_pausePadding[cls]);
        m_pausePaddingSet &= uint8_t(~(1u << cls));
    }
    SendPfcFrame(pfc);
    m_refreshEvent[cls] =
        Simulator::Schedule(GetRefreshPeriod(), &PfcNetDevice::RefreshPause, this, cls);
}

void
PfcNetDevice::StopPausing(uint8_t cls)
{
    NS_LOG_FUNCTION(this << int(cls));
    NS_ASSERT(cls < kPfcClasses);
    m_pausingPeer[cls] = false;
    m_refreshEvent[cls].Cancel();
    PfcHeader pfc;
    pfc.SetClass(cls, 0);
    SendPfcFrame(pfc);
}

bool
PfcNetDevice::IsPausingPeer(uint8_t cls) const
{
    return m_pausingPeer[cls];
}

Time
PfcNetDevice::GetPausingPeerSince(uint8_t cls) const
{
    NS_ASSERT(cls < kPfcClasses);
    return m_pausingSince[cls];
}

} // namespace ns3
