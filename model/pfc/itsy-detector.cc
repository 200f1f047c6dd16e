/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "itsy-detector.h"

#include "pfc-channel.h"
#include "pfc-switch-net-device.h"
#include "tagger-ns3-release-compat.h"

#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <limits>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ItsyDetector");
NS_OBJECT_ENSURE_REGISTERED(ItsyDetector);

TypeId
ItsyDetector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ItsyDetector")
            .SetParent<PfcSwitchMonitor>()
            .SetGroupName("Tagger")
            .AddConstructor<ItsyDetector>()
            .AddAttribute("ProbeInterval",
                          "While a port this switch paused as generic initiator (or a host "
                          "facing it) keeps pausing, the episode is sent again with a new "
                          "Seq_id every this long (time).",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&ItsyDetector::m_probeInterval),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("Recovery",
                          "What a declaration does: None (detect only), Break (the loop's "
                          "breaker, its lowest node id, drops the lossless frames queued on "
                          "its loop queue, reason itsy-recovery, once per loop episode) or "
                          "Trigger (Break, and the initial trigger's pausing class turns "
                          "lossy for HoldTime).",
                          EnumValue(ItsyDetector::RECOVERY_NONE),
                          MakeTaggerEnumAccessor(&ItsyDetector::m_recovery),
                          MakeEnumChecker(ItsyDetector::RECOVERY_NONE,
                                          "None",
                                          ItsyDetector::RECOVERY_BREAK,
                                          "Break",
                                          ItsyDetector::RECOVERY_TRIGGER,
                                          "Trigger"))
            .AddAttribute("BreakTime",
                          "Recovery Break: after flushing the loop queue, it drops the lossless "
                          "frames that arrive for it during this time (time), so that the loop "
                          "unwinds before that queue fills again; 0: flush only.",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&ItsyDetector::m_breakTime),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("HoldTime",
                          "Recovery Trigger: how long the trigger's class stays lossy (time).",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&ItsyDetector::m_holdTime),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("Declaration",
                            "A deadlock was declared (after the temporal check, ITSY Lemma 2).",
                            MakeTraceSourceAccessor(&ItsyDetector::m_declarationTrace),
                            "ns3::ItsyDetector::DeclarationTracedCallback")
            .AddTraceSource("Break",
                            "This switch, the loop's breaker (its lowest node id), broke a "
                            "declared loop (Recovery Break or Trigger): the declaration that "
                            "asked, with the time of the break.",
                            MakeTraceSourceAccessor(&ItsyDetector::m_breakTrace),
                            "ns3::ItsyDetector::DeclarationTracedCallback")
            .AddTraceSource("Decision",
                            "A detector decision (initial-trigger, middle-switch, loop, "
                            "temporal-failed, declared, ...) at a (port, class).",
                            MakeTraceSourceAccessor(&ItsyDetector::m_decisionTrace),
                            "ns3::ItsyDetector::DecisionTracedCallback");
    return tid;
}

ItsyDetector::ItsyDetector()
    : m_probeInterval(MicroSeconds(100)),
      m_recovery(RECOVERY_NONE),
      m_holdTime(MilliSeconds(10)),
      m_breakTime(MicroSeconds(100)),
      m_sw(nullptr),
      m_node(0),
      m_nPorts(0),
      m_seq(0),
      m_piggybacked(0),
      m_synthesized(0),
      m_dropped(0),
      m_loops(0),
      m_middles(0),
      m_temporalFail(0),
      m_declarations(0),
      m_triggers(0),
      m_breaks(0),
      m_breaksSkipped(0)
{
}

void
ItsyDetector::DoDispose()
{
    for (Probe& p : m_probes)
    {
        p.retry.Cancel();
    }
    for (Probe& p : m_hostProbes)
    {
        p.retry.Cancel();
    }
    m_sw = nullptr;
    PfcSwitchMonitor::DoDispose();
}

void
ItsyDetector::Attach(PfcSwitchNetDevice* sw)
{
    SetSwitch(sw);
    m_sw = sw;
    m_node = sw->GetNode()->GetId();
    m_nPorts = sw->GetNPorts();
    uint32_t pcs = m_nPorts * kPfcClasses;
    m_counts.assign(pcs * pcs, 0);
    m_pausedRx.assign(pcs, 0);
    m_records.assign(pcs, Records());
    m_sent.assign(pcs, {});
    m_probes.assign(pcs, Probe());
    m_hostProbes.assign(pcs, Probe());
    m_lossyUntil.assign(pcs, Time(0));
    m_holdTailUntil.assign(pcs, Time(0));
    m_drainUntil.assign(pcs, Time(0));
    m_brokenAt.assign(pcs, Time(-1));
}

// ---------------------------------------------------------------------------
// Indices and queries
// ---------------------------------------------------------------------------

uint32_t
ItsyDetector::Pc(uint32_t port, uint8_t cls) const
{
    return port * kPfcClasses + cls;
}

uint32_t
ItsyDetector::Ci(uint32_t e, uint32_t i) const
{
    return e * m_nPorts * kPfcClasses + i;
}

uint64_t
ItsyDetector::Key(uint32_t node, uint16_t port)
{
    return uint64_t(node) << 16 | port;
}

bool
ItsyDetector::IsPausing(uint32_t port, uint8_t cls) const
{
    return m_sw->GetPort(port)->IsPausingPeer(cls);
}

bool
ItsyDetector::PeerIsSwitch(uint32_t port) const
{
    Ptr<PfcNetDevice> peer = m_sw->GetPort(port)->GetPeer();
    return peer && peer->IsSwitchPort();
}

std::vector<uint32_t>
ItsyDetector::Delta(uint32_t e) const
{
    std::vector<uint32_t> delta;
    for (uint32_t i = 0; i < m_nPorts * kPfcClasses; ++i)
    {
        uint32_t port = i / kPfcClasses;
        if (m_counts[Ci(e, i)] > 0 && IsPausing(port, i % kPfcClasses) && PeerIsSwitch(port))
        {
            delta.push_back(i);
        }
    }
    return delta;
}

void
ItsyDetector::Decide(const std::string& what, uint32_t index)
{
    NS_LOG_LOGIC("node " << m_node << " " << what << " at " << index / kPfcClasses << "/"
                         << index % kPfcClasses);
    m_decisionTrace(what, index / kPfcClasses, uint8_t(index % kPfcClasses));
}

// ---------------------------------------------------------------------------
// Causality (traffic mapping)
// ---------------------------------------------------------------------------

void
ItsyDetector::NotifyEnqueue(uint32_t outPort, uint8_t outCls, uint32_t inPort, uint8_t inCls)
{
    ++m_counts[Ci(Pc(outPort, outCls), Pc(inPort, inCls))];
}

void
ItsyDetector::NotifyDequeue(uint32_t outPort, uint8_t outCls, uint32_t inPort, uint8_t inCls)
{
    uint32_t& n = m_counts[Ci(Pc(outPort, outCls), Pc(inPort, inCls))];
    NS_ASSERT_MSG(n > 0, "ItsyDetector: dequeue of a frame never enqueued");
    --n;
}

// ---------------------------------------------------------------------------
// Pauses this switch sends (ITSY Sec. III-A, III-C)
// ---------------------------------------------------------------------------

bool
ItsyDetector::CausalRecords(uint32_t i, std::map<uint64_t, ItsyMessage>& carry) const
{
    bool causalPaused = false;
    for (uint32_t e = 0; e < m_nPorts * kPfcClasses; ++e)
    {
        if (m_counts[Ci(e, i)] == 0 || !m_pausedRx[e])
        {
            continue;
        }
        causalPaused = true;
        for (const auto& kv : m_records[e])
        {
            ItsyMessage m;
            m.type = ItsyMessage::CHECKING;
            m.cls = uint8_t(i % kPfcClasses);
            m.genNode = uint32_t(kv.first >> 16);
            m.genPort = uint16_t(kv.first & 0xffff);
            m.seq = kv.second.seq;
            m.trigNode = kv.second.trigNode;
            m.trigPort = kv.second.trigPort;
            carry[kv.first] = m;
        }
    }
    return causalPaused;
}

PfcDropReason
ItsyDetector::GetRecoveryDropReason() const
{
    return PfcDropReason::ITSY_RECOVERY;
}

uint16_t
ItsyDetector::GetEtherType() const
{
    return kEtherTypeItsy;
}

void
ItsyDetector::BeforePause(uint32_t port, uint8_t cls)
{
    m_afterPause.clear();
    uint32_t i = Pc(port, cls);
    std::map<uint64_t, ItsyMessage> carry;
    bool causalPaused = CausalRecords(i, carry);
    Ptr<PfcNetDevice> dev = m_sw->GetPort(port);
    if (!causalPaused)
    {
        ++m_triggers;
        Decide("initial-trigger", i);
        StartProbe(i, m_node, uint16_t(i), false, true);
        return;
    }
    // If the chain through this port is not confirmed within ProbeInterval
    // (its initiator may have stopped pausing, or none of the loop's ports is
    // an initiator), this port starts an episode of its own, naming the
    // trigger of the pause it passes on.
    Probe& p = m_probes[i];
    p.retry.Cancel();
    p.trigNode = carry.empty() ? m_node : carry.begin()->second.trigNode;
    p.trigPort = carry.empty() ? uint16_t(i) : carry.begin()->second.trigPort;
    p.retry = Simulator::Schedule(m_probeInterval, &ItsyDetector::FallbackProbe, this, i);
    bool piggy = false;
    uint64_t piggyKey = 0;
    for (const auto& kv : carry)
    {
        m_sent[i][kv.first] = kv.second.seq;
        if (!piggy && PeerIsSwitch(port))
        {
            dev->SetPausePadding(cls, kv.second.ToPadding());
            ++m_piggybacked;
            piggy = true;
            piggyKey = kv.first;
        }
    }
    for (const auto& kv : carry)
    {
        if (!piggy || kv.first != piggyKey)
        {
            ItsyHeader h;
            h.message = kv.second;
            m_afterPause.push_back(h);
        }
    }
}

void
ItsyDetector::AfterPause(uint32_t port, uint8_t /* cls */)
{
    std::vector<ItsyHeader> send;
    send.swap(m_afterPause);
    for (const ItsyHeader& h : send)
    {
        SendSynthesized(port, h);
    }
}

void
ItsyDetector::AfterResume(uint32_t port, uint8_t cls)
{
    uint32_t i = Pc(port, cls);
    m_sent[i].clear();
    m_probes[i].retry.Cancel();
    m_probes[i].active = false;
}

void
ItsyDetector::StartProbe(uint32_t i,
                         uint32_t trigNode,
                         uint16_t trigPort,
                         bool middle,
                         bool inPause)
{
    Probe& p = m_probes[i];
    p.active = true;
    p.middle = middle;
    p.declared = false;
    p.trigNode = trigNode;
    p.trigPort = trigPort;
    p.interval = m_probeInterval;
    SendProbe(i, inPause);
}

void
ItsyDetector::SendProbe(uint32_t i, bool inPause)
{
    Probe& p = m_probes[i];
    p.retry.Cancel();
    p.seq = ++m_seq;
    p.sent.emplace_back(p.seq, Simulator::Now());
    if (p.sent.size() > kSentSeqs)
    {
        p.sent.pop_front();
    }
    ItsyMessage m = ProbeMessage(i);
    m_sent[i][Key(m_node, uint16_t(i))] = p.seq;
    uint32_t port = i / kPfcClasses;
    if (inPause)
    {
        if (PeerIsSwitch(port))
        {
            m_sw->GetPort(port)->SetPausePadding(m.cls, m.ToPadding());
            ++m_piggybacked;
        }
    }
    else
    {
        ItsyHeader h;
        h.message = m;
        SendSynthesized(port, h);
    }
    p.retry = Simulator::Schedule(p.interval, &ItsyDetector::RetryProbe, this, i);
}

void
ItsyDetector::FallbackProbe(uint32_t i)
{
    const Probe& p = m_probes[i];
    if (!p.active && IsPausing(i / kPfcClasses, uint8_t(i % kPfcClasses)))
    {
        Decide("fallback-initiator", i);
        StartProbe(i, p.trigNode, p.trigPort, false, false);
    }
}

void
ItsyDetector::RetryProbe(uint32_t i)
{
    Probe& p = m_probes[i];
    uint32_t port = i / kPfcClasses;
    if (!p.active || p.declared || !IsPausing(port, uint8_t(i % kPfcClasses)))
    {
        return;
    }
    SendProbe(i, false);
}

ItsyMessage
ItsyDetector::ProbeMessage(uint32_t i) const
{
    const Probe& p = m_probes[i];
    ItsyMessage m;
    m.type = ItsyMessage::CHECKING;
    m.cls = uint8_t(i % kPfcClasses);
    m.genNode = m_node;
    m.genPort = uint16_t(i);
    m.seq = p.seq;
    m.trigNode = p.trigNode;
    m.trigPort = p.trigPort;
    return m;
}

void
ItsyDetector::SendSynthesized(uint32_t port, const ItsyHeader& h)
{
    if (!PeerIsSwitch(port))
    {
        return; // a host runs no ITSY: the chain ends there
    }
    Ptr<PfcNetDevice> dev = m_sw->GetPort(port);
    Ptr<Packet> frame = Create<Packet>();
    frame->AddHeader(h);
    dev->Encapsulate(frame, dev->GetMacAddress(), kEtherTypeItsy, h.message.cls);
    ++m_synthesized;
    dev->SendControlFrame(frame);
}

// ---------------------------------------------------------------------------
// Messages received (ITSY Sec. III-B)
// ---------------------------------------------------------------------------

void
ItsyDetector::ReceivePfc(uint32_t port, const PfcHeader& pfc)
{
    ItsyMessage m = ItsyMessage::FromPadding(pfc.GetPadding());
    for (uint8_t d = 0; d < kPfcClasses; ++d)
    {
        if (!pfc.IsClassEnabled(d))
        {
            continue;
        }
        uint32_t e = Pc(port, d);
        if (pfc.GetQuanta(d) == 0)
        {
            // RESUME: r_p = 1, the stored records go (ITSY Sec. III-B).
            m_pausedRx[e] = 0;
            m_records[e].clear();
            m_hostProbes[e].retry.Cancel();
            m_hostProbes[e].active = false;
            continue;
        }
        bool was = m_pausedRx[e];
        m_pausedRx[e] = 1;
        if (m.type == ItsyMessage::CHECKING && m.cls == d)
        {
            HandleChecking(e, m);
        }
        else if (!was && !PeerIsSwitch(port))
        {
            HostEpisode(e);
        }
    }
}

void
ItsyDetector::ReceiveFrame(uint32_t port, Ptr<Packet> body)
{
    ItsyHeader h;
    if (body->GetSize() < h.GetSerializedSize())
    {
        return;
    }
    body->RemoveHeader(h);
    if (h.message.type == ItsyMessage::CHECKING)
    {
        HandleChecking(Pc(port, h.message.cls), h.message);
    }
    else if (h.message.type == ItsyMessage::TEMPORAL)
    {
        HandleTemporal(Pc(port, h.message.cls), h);
    }
    else if (h.message.type == ItsyMessage::BREAK)
    {
        HandleBreak(h);
    }
}

void
ItsyDetector::HostEpisode(uint32_t e)
{
    Probe& p = m_hostProbes[e];
    p.retry.Cancel();
    if (!m_pausedRx[e])
    {
        p.active = false;
        return;
    }
    uint32_t port = e / kPfcClasses;
    Ptr<PfcNetDevice> peer = m_sw->GetPort(port)->GetPeer();
    p.active = true;
    p.seq = ++m_seq;
    ItsyMessage m;
    m.type = ItsyMessage::CHECKING;
    m.cls = uint8_t(e % kPfcClasses);
    m.genNode = peer->GetNode()->GetId();
    m.genPort = m.cls; // the host's port 0
    m.seq = p.seq;
    m.trigNode = m.genNode;
    m.trigPort = m.genPort;
    Decide("host-trigger", e);
    m_records[e][Key(m.genNode, m.genPort)] =
        Record{m.seq, Simulator::Now(), m.trigNode, m.trigPort, false};
    Forward(e, m);
    p.retry = Simulator::Schedule(m_probeInterval, &ItsyDetector::HostEpisode, this, e);
}

void
ItsyDetector::HandleChecking(uint32_t e, const ItsyMessage& m)
{
    if (m.genNode == m_node)
    {
        HandleReturn(e, m);
        return;
    }
    uint64_t key = Key(m.genNode, m.genPort);
    Records& recs = m_records[e];
    auto it = recs.find(key);
    if (it != recs.end() && it->second.seq == m.seq)
    {
        ++m_dropped; // forwarded once already: a loop it did not start
        return;
    }
    recs[key] = Record{m.seq, Simulator::Now(), m.trigNode, m.trigPort, false};
    if (TriggerElsewhere(e / kPfcClasses, m))
    {
        for (uint32_t i : Delta(e))
        {
            if (!m_probes[i].active)
            {
                ++m_middles;
                Decide("middle-switch", i);
                StartProbe(i, m.trigNode, m.trigPort, true, false);
            }
        }
    }
    Forward(e, m);
}

bool
ItsyDetector::TriggerElsewhere(uint32_t port, const ItsyMessage& m) const
{
    for (uint32_t e = 0; e < m_nPorts * kPfcClasses; ++e)
    {
        if (e / kPfcClasses == port)
        {
            continue;
        }
        for (const auto& kv : m_records[e])
        {
            if (kv.second.trigNode == m.trigNode && kv.second.trigPort == m.trigPort)
            {
                return true;
            }
        }
    }
    return false;
}

void
ItsyDetector::Forward(uint32_t e, ItsyMessage m)
{
    std::vector<uint32_t> delta = Delta(e);
    if (delta.empty())
    {
        ++m_dropped;
        return;
    }
    uint64_t key = Key(m.genNode, m.genPort);
    for (uint32_t i : delta)
    {
        m_sent[i][key] = m.seq;
        ItsyHeader h;
        h.message = m;
        h.message.cls = uint8_t(i % kPfcClasses);
        SendSynthesized(i / kPfcClasses, h);
    }
}

void
ItsyDetector::HandleReturn(uint32_t e, const ItsyMessage& m)
{
    uint32_t i = m.genPort;
    if (i >= m_nPorts * kPfcClasses)
    {
        ++m_dropped;
        return;
    }
    Probe& p = m_probes[i];
    if (!p.active || p.declared || m_counts[Ci(e, i)] == 0 ||
        !IsPausing(i / kPfcClasses, uint8_t(i % kPfcClasses)))
    {
        ++m_dropped; // P_gen no longer in xi_E, or no longer pausing
        return;
    }
    Time now = Simulator::Now();
    auto sent = std::find_if(p.sent.begin(), p.sent.end(), [&m](const auto& s) {
        return s.first == m.seq;
    });
    if (p.seq != m.seq)
    {
        // A message a retry replaced came back: the loop's round trip is longer
        // than the interval, and every retry would rewrite the records of the
        // one before while its temporal check goes round.  Probe again now,
        // retrying only after three such round trips.
        ++m_dropped;
        if (sent != p.sent.end() && (now - sent->second) * 3 > p.interval)
        {
            p.interval = (now - sent->second) * 3;
            Decide("probe-interval-raised", i);
            SendProbe(i, false);
        }
        return;
    }
    // Lemma 1: the chain passed P_gen of S_gen again in the same episode.  No
    // retry while the temporal check goes round: the next one waits twice the
    // round trip just measured (the check takes one more), at least the interval.
    ++m_loops;
    Decide("causality-loop", e);
    const Time lap = sent != p.sent.end() ? now - sent->second : Time(0);
    p.retry.Cancel();
    p.retry =
        Simulator::Schedule(std::max(p.interval, lap * 2), &ItsyDetector::RetryProbe, this, i);
    m_records[e][Key(m.genNode, m.genPort)] = Record{m.seq, now, m.trigNode, m.trigPort, false};
    ItsyHeader h;
    h.message = m;
    h.message.type = ItsyMessage::TEMPORAL;
    h.message.cls = uint8_t(i % kPfcClasses);
    h.message.detectedNs = uint64_t(now.GetNanoSeconds());
    SendSynthesized(i / kPfcClasses, h);
}

void
ItsyDetector::HandleTemporal(uint32_t e, ItsyHeader& h)
{
    const ItsyMessage& m = h.message;
    uint64_t key = Key(m.genNode, m.genPort);
    auto it = m_records[e].find(key);
    // r_p = 0 for this episode: the record of this Seq_id is still here (a
    // RESUME clears it) and was stored no later than the loop's detection (a
    // port resumed and paused again since stores it anew, later).  Every
    // port of the loop thus was paused at the detection time (Lemma 2).
    if (it == m_records[e].end() || it->second.seq != m.seq ||
        it->second.stored > NanoSeconds(int64_t(m.detectedNs)))
    {
        ++m_temporalFail;
        Decide("temporal-failed", e);
        return;
    }
    h.hops.push_back({m_node, uint16_t(e / kPfcClasses), uint8_t(e % kPfcClasses)});
    if (m.genNode == m_node)
    {
        const uint32_t i = m.genPort;
        if (i < m_nPorts * kPfcClasses && StillLooped(e, i, m.seq))
        {
            Declare(i, h);
        }
        else
        {
            ++m_temporalFail;
            Decide("temporal-failed", e);
        }
        return;
    }
    if (it->second.temporal)
    {
        ++m_dropped; // a cycle of the chain that does not pass the initiator
        return;
    }
    it->second.temporal = true;
    bool sent = false;
    for (uint32_t i : Delta(e))
    {
        auto s = m_sent[i].find(key);
        if (s != m_sent[i].end() && s->second == m.seq)
        {
            ItsyHeader next = h;
            next.message.cls = uint8_t(i % kPfcClasses);
            SendSynthesized(i / kPfcClasses, next);
            sent = true;
        }
    }
    if (!sent)
    {
        ++m_dropped;
    }
}

void
ItsyDetector::Declare(uint32_t i, const ItsyHeader& h)
{
    Probe& p = m_probes[i];
    p.declared = true;
    p.retry.Cancel();
    ++m_declarations;
    Declaration d;
    d.time = Simulator::Now();
    d.detected = NanoSeconds(int64_t(h.message.detectedNs));
    d.genNode = m_node;
    d.genPort = i / kPfcClasses;
    d.genCls = uint8_t(i % kPfcClasses);
    d.trigNode = p.trigNode;
    d.trigPort = p.trigPort / kPfcClasses;
    d.trigCls = uint8_t(p.trigPort % kPfcClasses);
    d.middle = p.middle;
    d.onLoop = false;
    for (const ItsyHeader::Hop& hop : h.hops)
    {
        d.loop.push_back({hop.node, hop.port, hop.cls});
        d.onLoop = d.onLoop || hop.node == p.trigNode;
    }
    d.resolveTrigger = m_recovery == RECOVERY_TRIGGER;
    Decide("declared", i);
    m_declarationTrace(d);
    if (m_recovery != RECOVERY_NONE)
    {
        RequestBreak(h);
        // The loop may form again while this port keeps pausing: go on probing.
        p.declared = false;
        p.retry = Simulator::Schedule(p.interval, &ItsyDetector::RetryProbe, this, i);
    }
}

bool
ItsyDetector::StillLooped(uint32_t e, uint32_t i, uint32_t seq) const
{
    const Probe& p = m_probes[i];
    return p.active && !p.declared && p.seq == seq && m_counts[Ci(e, i)] > 0 &&
           IsPausing(i / kPfcClasses, uint8_t(i % kPfcClasses));
}

uint32_t
ItsyDetector::Breaker(const std::vector<ItsyHeader::Hop>& hops)
{
    uint32_t breaker = std::numeric_limits<uint32_t>::max();
    for (const ItsyHeader::Hop& hop : hops)
    {
        breaker = std::min(breaker, hop.node);
    }
    return breaker;
}

void
ItsyDetector::RequestBreak(const ItsyHeader& h)
{
    // One break per loop episode: every initiator on the loop may declare
    // it, but one switch breaks it, the loop's lowest node id (its breaker).
    // The request goes there hop by hop, the way the temporal check came.
    ItsyHeader request = h;
    request.message.type = ItsyMessage::BREAK;
    request.message.trigPort = 0;
    if (Breaker(request.hops) == m_node)
    {
        request.message.trigPort = uint16_t(request.hops.size() - 1); // the last hop: here
        HandleBreak(request);
        return;
    }
    SendBreak(request);
}

void
ItsyDetector::SendBreak(const ItsyHeader& request)
{
    const std::size_t next = request.message.trigPort;
    for (uint32_t p = 0; next < request.hops.size() && p < m_nPorts; ++p)
    {
        Ptr<PfcNetDevice> peer = m_sw->GetPort(p)->GetPeer();
        if (peer && peer->IsSwitchPort() && peer->GetNode()->GetId() == request.hops[next].node)
        {
            ItsyHeader h = request;
            h.message.cls = request.hops[next].cls;
            SendSynthesized(p, h);
            return;
        }
    }
}

void
ItsyDetector::HandleBreak(ItsyHeader& h)
{
    std::size_t k = h.message.trigPort;
    if (k >= h.hops.size() || h.hops[k].node != m_node)
    {
        ++m_dropped; // not addressed to this switch
        return;
    }
    if (Breaker(h.hops) != m_node)
    {
        h.message.trigPort = uint16_t(k + 1);
        SendBreak(h);
        return;
    }
    const uint32_t e = Pc(h.hops[k].port, h.hops[k].cls);
    const Time detected = NanoSeconds(int64_t(h.message.detectedNs));
    if (m_brokenAt[e] >= detected || !m_pausedRx[e] ||
        m_sw->GetPort(h.hops[k].port)->GetQueue(h.hops[k].cls).empty())
    {
        // Broken since that detection (another initiator's request for the
        // same episode), or no longer a loop queue: nothing to break.
        ++m_breaksSkipped;
        Decide("break-skipped", e);
        return;
    }
    ++m_breaks;
    m_sw->FlushForRecovery(h.hops[k].port, h.hops[k].cls, *this);
    m_drainUntil[e] = Simulator::Now() + m_breakTime;
    m_brokenAt[e] = Simulator::Now();
    Decide("break", e);
    Declaration b;
    b.time = Simulator::Now();
    b.detected = detected;
    b.genNode = h.message.genNode;
    b.genPort = h.message.genPort / kPfcClasses;
    b.genCls = uint8_t(h.message.genPort % kPfcClasses);
    b.trigNode = h.message.trigNode; // its P_tri field carries the hop index
    b.trigPort = 0;
    b.trigCls = 0;
    b.onLoop = false;
    b.middle = false;
    b.resolveTrigger = false;
    for (const ItsyHeader::Hop& hop : h.hops)
    {
        b.loop.push_back({hop.node, hop.port, hop.cls});
    }
    m_breakTrace(b);
}

bool
ItsyDetector::IsDropping(uint32_t port, uint8_t cls, bool lossless) const
{
    return lossless && Simulator::Now() < m_drainUntil[Pc(port, cls)];
}

bool
ItsyDetector::ResolveTrigger(uint32_t trigNode, uint32_t port, uint8_t cls)
{
    if (trigNode == m_node && port < m_nPorts && cls < kPfcClasses)
    {
        uint32_t i = Pc(port, cls);
        m_lossyUntil[i] = Simulator::Now() + m_holdTime;
        if (IsPausing(port, cls))
        {
            m_sw->GetPort(port)->StopPausing(cls);
            AfterResume(port, cls);
        }
        // When the hold ends the class is lossless again: a queue that turned
        // OFF meanwhile must pause its upstream then (its transition is past).
        Simulator::Schedule(m_holdTime, &ItsyDetector::EndHold, this, port, cls);
        Decide("trigger-ingress-lossy", i);
        return true;
    }
    for (uint32_t p = 0; p < m_nPorts; ++p)
    {
        Ptr<PfcNetDevice> peer = m_sw->GetPort(p)->GetPeer();
        if (peer && !peer->IsSwitchPort() && peer->GetNode()->GetId() == trigNode)
        {
            m_sw->GetPort(p)->IgnorePauseUntil(cls, Simulator::Now() + m_holdTime);
            Decide("trigger-host-pause-ignored", Pc(p, cls));
            return true;
        }
    }
    return false;
}

void
ItsyDetector::EndHold(uint32_t port, uint8_t cls)
{
    if (!IsHoldingLossy(port, cls)) // not held again meanwhile (a later hold ends later)
    {
        Decide("trigger-hold-ended", Pc(port, cls));
        // What the upstream sent before our PAUSE reaches it still arrives, into
        // a queue whose headroom the hold may have filled: those frames are the
        // hold's, dropped as itsy-recovery (two delays, two frames, processing).
        Ptr<PfcNetDevice> dev = m_sw->GetPort(port);
        const Time delay = dev->GetPfcChannel() ? dev->GetPfcChannel()->GetDelay() : Time(0);
        m_holdTailUntil[Pc(port, cls)] = Simulator::Now() + delay * 2 +
                                         PfcTxTime(dev->GetDataRate(), 2 * dev->GetMtu()) +
                                         dev->GetProcessingDelay();
        m_sw->ReevaluatePause(port, cls);
    }
}

bool
ItsyDetector::IsHoldDrop(uint32_t port, uint8_t cls) const
{
    const Time now = Simulator::Now();
    return now < m_lossyUntil[Pc(port, cls)] || now < m_holdTailUntil[Pc(port, cls)];
}

bool
ItsyDetector::IsHoldingLossy(uint32_t port, uint8_t cls) const
{
    return Simulator::Now() < m_lossyUntil[Pc(port, cls)];
}

// ---------------------------------------------------------------------------
// Counters
// ---------------------------------------------------------------------------

uint64_t
ItsyDetector::GetPiggybacked() const
{
    return m_piggybacked;
}

uint64_t
ItsyDetector::GetSynthesized() const
{
    return m_synthesized;
}

uint64_t
ItsyDetector::GetDropped() const
{
    return m_dropped;
}

uint64_t
ItsyDetector::GetLoopsDetected() const
{
    return m_loops;
}

uint64_t
ItsyDetector::GetMiddleEpisodes() const
{
    return m_middles;
}

uint64_t
ItsyDetector::GetTemporalFailed() const
{
    return m_temporalFail;
}

uint64_t
ItsyDetector::GetDeclarations() const
{
    return m_declarations;
}

uint64_t
ItsyDetector::GetBreaks() const
{
    return m_breaks;
}

uint64_t
ItsyDetector::GetBreaksSkipped() const
{
    return m_breaksSkipped;
}

uint64_t
ItsyDetector::GetInitialTriggers() const
{
    return m_triggers;
}

uint64_t
ItsyDetector::MemoryBits(uint32_t ports,
                         uint32_t classes,
                         uint32_t nodeBits,
                         uint32_t portBits,
                         uint32_t seqBits)
{
    uint64_t perQueue = uint64_t(ports) * classes       // traffic map
                        + 1 + 1                         // pausing bit, r_p
                        + nodeBits + portBits + seqBits // {S_gen, P_gen, Seq}
                        + nodeBits + portBits;          // {S_tri, P_tri}
    return uint64_t(ports) * classes * perQueue + seqBits;
}

} // namespace ns3
