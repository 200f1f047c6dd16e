/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#include "switch-mmu.h"

#include "tagger-ns3-release-compat.h"

#include "ns3/abort.h"
#include "ns3/assert.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fatal-error.h"
#include "ns3/log.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>

/**
 * \file
 * \ingroup tagger
 * ns3::SwitchMmu implementation.
 *
 * Rounding conventions (all byte counts are integers):
 *  - rate x time products of the headroom formulas are rounded UP to whole
 *    bytes (a headroom must never be short of a fraction of a byte), computed
 *    exactly in 128-bit integers from DataRate::GetBitRate() and
 *    Time::GetFemtoSeconds();
 *  - the dynamic thresholds T(t) = Alpha * (Bs - sum w) and
 *    LossyAlpha * (lossy pool - lossy bytes in use) are rounded DOWN.
 */

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SwitchMmu");

NS_OBJECT_ENSURE_REGISTERED(SwitchMmu);

namespace
{

/// 128-bit unsigned arithmetic (a GCC and Clang extension; __extension__ keeps
/// -Wpedantic, on in ns-3.48 trees, quiet about it).
__extension__ typedef unsigned __int128 Uint128;

/**
 * Largest headroom (or in-flight byte count) the MMU computes: far beyond any
 * buffer, and small enough that the headroom formulas and their sum over
 * ports cannot overflow 64 bits (a rate near 2^63 bps with a delay of hours).
 */
constexpr uint64_t kMaxHeadroom = uint64_t(1) << 56;

/// \param x a 128-bit count \return it, or kMaxHeadroom when it is larger
uint64_t
Saturate(Uint128 x)
{
    return x > kMaxHeadroom ? kMaxHeadroom : static_cast<uint64_t>(x);
}

/// Size of a PFC frame, L_PFC of the TTL scheme (a minimum-size Ethernet frame), in bytes.
constexpr uint32_t kPfcFrameBytes = 64;

/// The worst-case PFC processing allowance of the PFC buffer background, in bytes (60 quanta of 512
/// bits).
constexpr uint64_t kPfcProcessingBytes = 3840;

/**
 * Bytes sent at \p rate during \p duration, rounded up: ceil(bps * fs / (8 * 10^15)).
 * \param rate the link rate
 * \param duration the duration (must not be negative)
 * \param what the name of the duration, for the error message
 * \return the byte count
 */
uint64_t
BytesInFlight(DataRate rate, Time duration, const char* what)
{
    NS_ABORT_MSG_IF(duration.IsStrictlyNegative(),
                    "SwitchMmu: the " << what << " delay must not be negative (got "
                                      << duration.As(Time::NS) << ")");
    const Uint128 bits =
        static_cast<Uint128>(rate.GetBitRate()) * static_cast<Uint128>(duration.GetFemtoSeconds());
    const Uint128 fsPerByteSecond = 8000000000000000ULL; // 8 bits * 10^15 fs/s
    return Saturate((bits + fsPerByteSecond - 1) / fsPerByteSecond);
}

/// \param mask a class bitmask \return how many classes it holds
uint32_t
CountClasses(uint8_t mask)
{
    uint32_t n = 0;
    for (uint8_t cls = 0; cls < kPfcClasses; ++cls)
    {
        n += (mask >> cls) & 1U;
    }
    return n;
}

/// \param mode a headroom mode \return its attribute name
const char*
HeadroomModeName(SwitchMmu::HeadroomMode mode)
{
    switch (mode)
    {
    case SwitchMmu::HEADROOM_FIXED_RESPONSE:
        return "FixedResponse";
    case SwitchMmu::HEADROOM_WIRE_PROCESSING:
        return "WireProcessing";
    case SwitchMmu::HEADROOM_FIXED:
        return "Fixed";
    }
    return "?";
}

} // namespace

TypeId
SwitchMmu::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SwitchMmu")
            .SetParent<Object>()
            .SetGroupName("Tagger")
            .AddConstructor<SwitchMmu>()
            .AddAttribute("BufferSize",
                          "Total packet buffer of the switch (lossless + lossy pools), in bytes.",
                          UintegerValue(12 * 1024 * 1024),
                          MakeUintegerAccessor(&SwitchMmu::m_bufferSize),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("LossyPoolSize",
                          "Bytes of the buffer hard-partitioned to the lossy pool, in bytes; "
                          "the rest is the lossless pool.",
                          UintegerValue(3 * 1024 * 1024),
                          MakeUintegerAccessor(&SwitchMmu::m_lossyPoolSize),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("PrivateBytes",
                          "phi: private buffer reserved per lossless ingress queue, in bytes.",
                          UintegerValue(3072),
                          MakeUintegerAccessor(&SwitchMmu::m_privateBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Alpha",
                          "Dynamic Threshold parameter of the lossless shared buffer "
                          "(dimensionless): T(t) = Alpha * (Bs - sum of shared bytes in use).",
                          DoubleValue(0.125),
                          MakeDoubleAccessor(&SwitchMmu::m_alpha),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("LossyAlpha",
                          "Dynamic Threshold parameter of the lossy pool (dimensionless): an "
                          "egress queue may hold LossyAlpha * (lossy pool - lossy bytes in use).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&SwitchMmu::m_lossyAlpha),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute(
                "ThresholdMode",
                "How the shared bytes w of a lossless queue are bounded: Dynamic "
                "(T = Alpha * free shared bytes, Xon = T - XonOffset) or Static "
                "(StaticXoff / StaticXon).",
                EnumValue(SwitchMmu::DYNAMIC),
                MakeTaggerEnumAccessor(&SwitchMmu::m_thresholdMode),
                MakeEnumChecker(SwitchMmu::DYNAMIC, "Dynamic", SwitchMmu::STATIC, "Static"))
            .AddAttribute("StaticXoff",
                          "Xoff on the shared bytes w of a queue in Static mode, in bytes.",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&SwitchMmu::m_staticXoff),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("StaticXon",
                          "Xon on the shared bytes w of a queue in Static mode, in bytes.",
                          UintegerValue(32768),
                          MakeUintegerAccessor(&SwitchMmu::m_staticXon),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("XonOffset",
                          "Dynamic mode: Xon = max(T(t) - XonOffset, 0), in bytes.",
                          UintegerValue(3072),
                          MakeUintegerAccessor(&SwitchMmu::m_xonOffset),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("HeadroomMode",
                          "How the headroom eta of a port is sized: FixedResponse "
                          "(2 (C Dprop + L_MTU) + 3840 B), WireProcessing "
                          "(2 (L_MTU + L_PFC + r t_wire) + r t_pro) or Fixed (Headroom).",
                          EnumValue(SwitchMmu::HEADROOM_FIXED_RESPONSE),
                          MakeTaggerEnumAccessor(&SwitchMmu::m_headroomMode),
                          MakeEnumChecker(SwitchMmu::HEADROOM_FIXED_RESPONSE,
                                          "FixedResponse",
                                          SwitchMmu::HEADROOM_WIRE_PROCESSING,
                                          "WireProcessing",
                                          SwitchMmu::HEADROOM_FIXED,
                                          "Fixed"))
            .AddAttribute("Headroom",
                          "eta per lossless ingress queue in Fixed headroom mode, in bytes.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SwitchMmu::m_fixedHeadroom),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute(
                "HeadroomCheck",
                "How case 3 (headroom) is told from case 4 (drop). Occupancy: the "
                "queue's headroom bytes are below eta (T(t) may shrink after the "
                "PAUSE without eating the reserved headroom). QueueLength: the PFC buffer "
                "background's q < phi + T(t) + eta taken literally, which drops in-flight "
                "packets when T(t) shrinks after a PAUSE.",
                EnumValue(SwitchMmu::HEADROOM_OCCUPANCY),
                MakeTaggerEnumAccessor(&SwitchMmu::m_headroomCheck),
                MakeEnumChecker(SwitchMmu::HEADROOM_OCCUPANCY,
                                "Occupancy",
                                SwitchMmu::QUEUE_LENGTH,
                                "QueueLength"))
            .AddAttribute("LosslessClasses",
                          "Bitmask of the lossless classes (bit j: class j is lossless; "
                          "dimensionless). Default 0xFE: classes 1..7 lossless, 0 lossy.",
                          UintegerValue(0xFE),
                          MakeUintegerAccessor(&SwitchMmu::m_losslessClasses),
                          MakeUintegerChecker<uint8_t>())
            .AddTraceSource("Pause",
                            "A lossless ingress queue turned OFF: PAUSE upstream (port, class).",
                            MakeTraceSourceAccessor(&SwitchMmu::m_pauseTrace),
                            "ns3::SwitchMmu::PfcStateTracedCallback")
            .AddTraceSource("Resume",
                            "A lossless ingress queue turned ON: RESUME upstream (port, class).",
                            MakeTraceSourceAccessor(&SwitchMmu::m_resumeTrace),
                            "ns3::SwitchMmu::PfcStateTracedCallback")
            .AddTraceSource("Drop",
                            "The MMU dropped a frame (port, class, bytes, reason).",
                            MakeTraceSourceAccessor(&SwitchMmu::m_dropTrace),
                            "ns3::SwitchMmu::MmuDropTracedCallback")
            .AddTraceSource("IngressOccupancy",
                            "Bytes q of a lossless ingress queue after each admission or "
                            "release (port, class, bytes).",
                            MakeTraceSourceAccessor(&SwitchMmu::m_ingressTrace),
                            "ns3::SwitchMmu::OccupancyTracedCallback")
            .AddTraceSource("LossyOccupancy",
                            "Bytes of a lossy egress queue after each admission or release "
                            "(port, class, bytes).",
                            MakeTraceSourceAccessor(&SwitchMmu::m_lossyTrace),
                            "ns3::SwitchMmu::OccupancyTracedCallback");
    return tid;
}

SwitchMmu::SwitchMmu()
    : m_bufferSize(12 * 1024 * 1024),
      m_lossyPoolSize(3 * 1024 * 1024),
      m_privateBytes(3072),
      m_alpha(0.125),
      m_lossyAlpha(1.0),
      m_thresholdMode(DYNAMIC),
      m_staticXoff(65536),
      m_staticXon(32768),
      m_xonOffset(3072),
      m_headroomMode(HEADROOM_FIXED_RESPONSE),
      m_headroomCheck(HEADROOM_OCCUPANCY),
      m_fixedHeadroom(0),
      m_losslessClasses(0xFE),
      m_nPorts(0),
      m_sharedPoolSize(0),
      m_sharedUsed(0),
      m_losslessUsed(0),
      m_lossyUsed(0),
      m_pauses(0),
      m_resumes(0),
      m_drops{}
{
    NS_LOG_FUNCTION(this);
}

uint64_t
SwitchMmu::HeadroomFixedResponse(DataRate rate, Time propagation, uint32_t mtu)
{
    // eta = 2 (C * Dprop + L_MTU) + 3840 B (the PFC buffer background, Eq. 1), C * Dprop rounded
    // up.
    return 2 * (BytesInFlight(rate, propagation, "propagation") + mtu) + kPfcProcessingBytes;
}

uint64_t
SwitchMmu::HeadroomWireProcessing(DataRate rate,
                                  Time wire,
                                  uint32_t mtu,
                                  uint32_t pfcFrame,
                                  Time processing)
{
    // b_hr = 2 (s_MTU + s_PFC + r * t_wire) + r * t_pro (the TTL scheme, Eq. 14); each
    // r * t rounded up on its own.
    return 2 * (static_cast<uint64_t>(mtu) + pfcFrame + BytesInFlight(rate, wire, "wire")) +
           BytesInFlight(rate, processing, "processing");
}

void
SwitchMmu::SetPortLink(uint32_t port,
                       DataRate rate,
                       Time propagation,
                       uint32_t mtu,
                       Time processing)
{
    NS_LOG_FUNCTION(this << port << rate << propagation << mtu << processing);
    if (port >= m_links.size())
    {
        m_links.resize(port + 1);
    }
    PortLink& link = m_links[port];
    link.rate = rate;
    link.propagation = propagation;
    link.mtu = mtu;
    link.processing = processing;
    link.known = true;
}

void
SwitchMmu::Setup(uint32_t nPorts)
{
    NS_LOG_FUNCTION(this << nPorts);
    // A second Setup recomputes eta and Bs (e.g. after SetPortLink changes).  The
    // occupancy is kept, so the port count may change only while the buffer is empty.
    NS_ABORT_MSG_IF(nPorts != m_nPorts && m_losslessUsed + m_lossyUsed > 0,
                    "SwitchMmu::Setup(" << nPorts << "): the port count may not change (was "
                                        << m_nPorts << ") while the buffer holds "
                                        << m_losslessUsed + m_lossyUsed << " bytes");
    for (uint32_t port = nPorts; port < m_links.size(); ++port)
    {
        NS_ABORT_MSG_IF(m_links[port].known,
                        "SwitchMmu::Setup(" << nPorts << "): SetPortLink was called for port "
                                            << port << ", beyond the " << nPorts << " ports");
    }
    const std::string why = CheckFit(nPorts);
    if (!why.empty())
    {
        PfcConfigurationError("SwitchMmu::Setup: " + why);
    }

    m_nPorts = nPorts;
    m_links.resize(nPorts);
    m_headroom.assign(nPorts, 0);
    m_ingress.resize(static_cast<size_t>(nPorts) * kPfcClasses);
    m_lossy.resize(static_cast<size_t>(nPorts) * kPfcClasses, 0);
    uint64_t headroomSum = 0; // sum over ports of eta_port (CheckFit: no overflow)
    for (uint32_t port = 0; port < nPorts; ++port)
    {
        m_headroom[port] = PortHeadroom(port);
        headroomSum += m_headroom[port];
        if (m_headroomMode == HEADROOM_FIXED && m_links[port].known)
        {
            const PortLink& link = m_links[port];
            const uint64_t needed = HeadroomFixedResponse(link.rate, link.propagation, link.mtu);
            if (m_fixedHeadroom < needed)
            {
                NS_LOG_WARN("SwitchMmu: port " << port << ": fixed Headroom " << m_fixedHeadroom
                                               << " B is below the FixedResponse headroom "
                                               << needed
                                               << " B of its link: lossless drops possible");
            }
        }
    }
    // Bs = (BufferSize - LossyPoolSize) - sum over ports and lossless classes of (phi + eta).
    const uint64_t reserved = uint64_t(CountClasses(m_losslessClasses)) *
                              (uint64_t(nPorts) * m_privateBytes + headroomSum);
    m_sharedPoolSize = m_bufferSize - m_lossyPoolSize - reserved;
    NS_LOG_INFO("SwitchMmu: " << nPorts << " ports, " << CountClasses(m_losslessClasses)
                              << " lossless classes, Bs " << m_sharedPoolSize << " B");
}

uint64_t
SwitchMmu::PortHeadroom(uint32_t port) const
{
    if (m_headroomMode == HEADROOM_FIXED)
    {
        return m_fixedHeadroom;
    }
    if (port >= m_links.size() || !m_links[port].known)
    {
        return 0;
    }
    const PortLink& link = m_links[port];
    // BytesInFlight saturates at kMaxHeadroom = 2^56, so the formulas stay below 2^58.
    return m_headroomMode == HEADROOM_FIXED_RESPONSE
               ? HeadroomFixedResponse(link.rate, link.propagation, link.mtu)
               : HeadroomWireProcessing(link.rate,
                                        link.propagation,
                                        link.mtu,
                                        kPfcFrameBytes,
                                        link.processing);
}

std::string
SwitchMmu::CheckFit(uint32_t nPorts) const
{
    std::ostringstream why;
    if (m_lossyPoolSize > m_bufferSize)
    {
        why << "LossyPoolSize (" << m_lossyPoolSize << " B) is larger than BufferSize ("
            << m_bufferSize << " B)";
        return why.str();
    }
    Uint128 headroomSum = 0;
    uint32_t widest = 0; // the port with the largest headroom
    for (uint32_t port = 0; port < nPorts; ++port)
    {
        if (m_headroomMode != HEADROOM_FIXED && (port >= m_links.size() || !m_links[port].known))
        {
            why << "HeadroomMode is " << HeadroomModeName(m_headroomMode) << " but port " << port
                << " has no link: call SetPortLink(" << port
                << ", ...) before Setup, or use HeadroomMode Fixed";
            return why.str();
        }
        headroomSum += PortHeadroom(port);
        widest = PortHeadroom(port) > PortHeadroom(widest) ? port : widest;
    }
    // Bs = (BufferSize - LossyPoolSize) - sum over ports and lossless classes of (phi + eta).
    const uint64_t losslessPool = m_bufferSize - m_lossyPoolSize;
    const uint32_t nClasses = CountClasses(m_losslessClasses);
    const Uint128 reserved = Uint128(nClasses) * (Uint128(nPorts) * m_privateBytes + headroomSum);
    if (nClasses == 0 || reserved < losslessPool)
    {
        return "";
    }
    why << "no shared buffer left: the lossless pool (BufferSize " << m_bufferSize
        << " B - LossyPoolSize " << m_lossyPoolSize << " B = " << losslessPool
        << " B) must exceed the reserved private and headroom buffers, " << nClasses
        << " lossless classes x (" << nPorts << " ports x PrivateBytes " << m_privateBytes
        << " B + Headroom summed over the ports " << Saturate(headroomSum)
        << " B) = " << Saturate(reserved) << " B";
    if (nPorts > 0)
    {
        why << "; the largest headroom is port " << widest << "'s, " << PortHeadroom(widest)
            << " B";
        if (widest < m_links.size() && m_links[widest].known)
        {
            const PortLink& link = m_links[widest];
            why << " (HeadroomMode " << HeadroomModeName(m_headroomMode) << ", link "
                << link.rate.GetBitRate() << " bps, delay " << link.propagation.As(Time::US)
                << ", MTU " << link.mtu << " B)";
        }
    }
    why << "; raise BufferSize, or lower the link delay or rate, PrivateBytes, Headroom or "
           "LosslessClasses";
    return why.str();
}

SwitchMmu::IngressQueue&
SwitchMmu::Queue(uint32_t port, uint8_t cls)
{
    NS_ASSERT_MSG(port < m_nPorts && cls < kPfcClasses,
                  "SwitchMmu: queue (" << port << ", " << +cls << ") out of range (" << m_nPorts
                                       << " ports; Setup called?)");
    return m_ingress[static_cast<size_t>(port) * kPfcClasses + cls];
}

const SwitchMmu::IngressQueue&
SwitchMmu::Queue(uint32_t port, uint8_t cls) const
{
    NS_ASSERT_MSG(port < m_nPorts && cls < kPfcClasses,
                  "SwitchMmu: queue (" << port << ", " << +cls << ") out of range (" << m_nPorts
                                       << " ports; Setup called?)");
    return m_ingress[static_cast<size_t>(port) * kPfcClasses + cls];
}

bool
SwitchMmu::IsLossless(uint8_t cls) const
{
    return cls < kPfcClasses && ((m_losslessClasses >> cls) & 1U) != 0;
}

uint64_t
SwitchMmu::GetDynamicThreshold() const
{
    if (m_thresholdMode == STATIC)
    {
        return m_staticXoff;
    }
    // T(t) = Alpha * (Bs - sum w), clamped at 0 (sum w may pass Bs by the last
    // packet admitted) and rounded down.
    if (m_sharedUsed >= m_sharedPoolSize)
    {
        return 0;
    }
    return static_cast<uint64_t>(m_alpha * static_cast<double>(m_sharedPoolSize - m_sharedUsed));
}

uint64_t
SwitchMmu::GetXon() const
{
    if (m_thresholdMode == STATIC)
    {
        return m_staticXon;
    }
    const uint64_t t = GetDynamicThreshold();
    return t > m_xonOffset ? t - m_xonOffset : 0;
}

SwitchMmu::Admission
SwitchMmu::AdmitLossless(uint32_t port, uint8_t cls, uint32_t bytes)
{
    NS_LOG_FUNCTION(this << port << +cls << bytes);
    NS_ASSERT_MSG(IsLossless(cls), "SwitchMmu::AdmitLossless: class " << +cls << " is lossy");
    IngressQueue& queue = Queue(port, cls);
    Admission result{MmuSegment::DROPPED, false, false};

    // Every decision uses the state before the arrival: q, w and T(t).
    const uint64_t q = queue.privateBytes + queue.sharedBytes + queue.headroomBytes;
    const uint64_t phi = m_privateBytes;
    const uint64_t t = GetDynamicThreshold();
    // eta (m_headroom[port]) is read in cases 3 and 4 only: most arrivals
    // are in cases 1 and 2, and the array is another cache line.

    if (q < phi)
    {
        // Case 1: private.
        queue.privateBytes += bytes;
        result.segment = MmuSegment::PRIVATE;
    }
    else if (q < phi + t)
    {
        // Case 2: shared; an OFF queue whose w is below Xon turns ON.
        if (queue.off && queue.headroomBytes == 0 && queue.sharedBytes < GetXon())
        {
            queue.off = false;
            result.resume = true;
        }
        queue.sharedBytes += bytes;
        m_sharedUsed += bytes;
        result.segment = MmuSegment::SHARED;
    }
    else if (m_headroomCheck == HEADROOM_OCCUPANCY ? queue.headroomBytes < m_headroom[port]
                                                   : q < phi + t + m_headroom[port])
    {
        // Case 3: headroom; an ON queue turns OFF.
        if (!queue.off)
        {
            queue.off = true;
            result.pause = true;
        }
        queue.headroomBytes += bytes;
        result.segment = MmuSegment::HEADROOM;
    }
    else
    {
        // Case 4: drop.
        ++m_drops[static_cast<size_t>(PfcDropReason::LOSSLESS_OVERFLOW)];
        NS_LOG_LOGIC("drop (" << port << ", " << +cls << ") " << bytes << " B: q " << q << " w "
                              << queue.sharedBytes << " h " << queue.headroomBytes << " off "
                              << queue.off << " T " << t << " eta " << m_headroom[port]);
        m_dropTrace(port, cls, bytes, PfcDropReason::LOSSLESS_OVERFLOW);
        return result;
    }

    m_losslessUsed += bytes;
    if (result.pause)
    {
        ++m_pauses;
        NS_LOG_LOGIC("PAUSE (" << port << ", " << +cls << ")");
        m_pauseTrace(port, cls);
    }
    if (result.resume)
    {
        ++m_resumes;
        NS_LOG_LOGIC("RESUME (" << port << ", " << +cls << ") on arrival");
        m_resumeTrace(port, cls);
    }
    m_ingressTrace(port, cls, q + bytes);
    return result;
}

bool
SwitchMmu::ReleaseLossless(uint32_t port, uint8_t cls, uint32_t bytes)
{
    NS_LOG_FUNCTION(this << port << +cls << bytes);
    IngressQueue& queue = Queue(port, cls);
    const uint64_t q = queue.privateBytes + queue.sharedBytes + queue.headroomBytes;
    NS_ASSERT_MSG(bytes <= q,
                  "SwitchMmu::ReleaseLossless: queue (" << port << ", " << +cls << ") holds " << q
                                                        << " B, cannot release " << bytes);

    // Headroom first, then shared, then private.
    uint64_t left = bytes;
    const uint64_t fromHeadroom = std::min<uint64_t>(left, queue.headroomBytes);
    queue.headroomBytes -= fromHeadroom;
    left -= fromHeadroom;
    const uint64_t fromShared = std::min<uint64_t>(left, queue.sharedBytes);
    queue.sharedBytes -= fromShared;
    m_sharedUsed -= fromShared;
    left -= fromShared;
    queue.privateBytes -= left; // left <= privateBytes by the assert above
    m_losslessUsed -= bytes;

    // Xon (and T) after the release.  An OFF queue that the release empties turns
    // ON as well, even when Xon is 0 (T(t) <= XonOffset, or StaticXon 0): w < Xon
    // can then never hold, and the paused queue gets no other event that could
    // turn it ON (a deliberate addition to the PFC buffer background's rule).
    bool resume = false;
    if (queue.off && queue.headroomBytes == 0 && (queue.sharedBytes < GetXon() || q == bytes))
    {
        queue.off = false;
        resume = true;
        ++m_resumes;
        NS_LOG_LOGIC("RESUME (" << port << ", " << +cls << ") on release");
        m_resumeTrace(port, cls);
    }
    m_ingressTrace(port, cls, q - bytes);
    return resume;
}

bool
SwitchMmu::AdmitLossy(uint32_t port, uint8_t cls, uint32_t bytes)
{
    NS_LOG_FUNCTION(this << port << +cls << bytes);
    NS_ASSERT_MSG(port < m_nPorts && cls < kPfcClasses,
                  "SwitchMmu::AdmitLossy: queue (" << port << ", " << +cls << ") out of range");
    NS_ASSERT_MSG(!IsLossless(cls), "SwitchMmu::AdmitLossy: class " << +cls << " is lossless");
    uint64_t& b = m_lossy[static_cast<size_t>(port) * kPfcClasses + cls];

    // Admit iff, with b and the bytes in use taken before the arrival,
    //   b + bytes <= floor(LossyAlpha * (lossy pool - lossy bytes in use))
    // and the pool itself does not overflow: lossy bytes in use + bytes <= lossy pool
    // (the second condition only binds when LossyAlpha > 1).
    const uint64_t free = m_lossyPoolSize > m_lossyUsed ? m_lossyPoolSize - m_lossyUsed : 0;
    const uint64_t limit = static_cast<uint64_t>(m_lossyAlpha * static_cast<double>(free));
    if (b + bytes > limit || bytes > free)
    {
        ++m_drops[static_cast<size_t>(PfcDropReason::LOSSY_OVERFLOW)];
        NS_LOG_LOGIC("lossy drop (" << port << ", " << +cls << ") " << bytes << " B: b " << b
                                    << " + bytes > limit " << limit);
        m_dropTrace(port, cls, bytes, PfcDropReason::LOSSY_OVERFLOW);
        return false;
    }
    b += bytes;
    m_lossyUsed += bytes;
    m_lossyTrace(port, cls, b);
    return true;
}

void
SwitchMmu::ReleaseLossy(uint32_t port, uint8_t cls, uint32_t bytes)
{
    NS_LOG_FUNCTION(this << port << +cls << bytes);
    NS_ASSERT_MSG(port < m_nPorts && cls < kPfcClasses,
                  "SwitchMmu::ReleaseLossy: queue (" << port << ", " << +cls << ") out of range");
    uint64_t& b = m_lossy[static_cast<size_t>(port) * kPfcClasses + cls];
    NS_ASSERT_MSG(bytes <= b,
                  "SwitchMmu::ReleaseLossy: queue (" << port << ", " << +cls << ") holds " << b
                                                     << " B, cannot release " << bytes);
    b -= bytes;
    m_lossyUsed -= bytes;
    m_lossyTrace(port, cls, b);
}

uint64_t
SwitchMmu::GetSharedPoolSize() const
{
    return m_sharedPoolSize;
}

uint64_t
SwitchMmu::GetSharedUsed() const
{
    return m_sharedUsed;
}

uint64_t
SwitchMmu::GetPrivateSize() const
{
    return m_privateBytes;
}

uint64_t
SwitchMmu::GetHeadroomSize(uint32_t port) const
{
    NS_ASSERT_MSG(port < m_nPorts, "SwitchMmu::GetHeadroomSize: port " << port << " out of range");
    return m_headroom[port];
}

uint64_t
SwitchMmu::GetLossyPoolSize() const
{
    return m_lossyPoolSize;
}

uint64_t
SwitchMmu::GetLossyUsed() const
{
    return m_lossyUsed;
}

uint64_t
SwitchMmu::GetLosslessUsed() const
{
    return m_losslessUsed;
}

uint64_t
SwitchMmu::GetIngressBytes(uint32_t port, uint8_t cls) const
{
    const IngressQueue& queue = Queue(port, cls);
    return queue.privateBytes + queue.sharedBytes + queue.headroomBytes;
}

uint64_t
SwitchMmu::GetPrivateBytes(uint32_t port, uint8_t cls) const
{
    return Queue(port, cls).privateBytes;
}

uint64_t
SwitchMmu::GetSharedBytes(uint32_t port, uint8_t cls) const
{
    return Queue(port, cls).sharedBytes;
}

uint64_t
SwitchMmu::GetHeadroomBytes(uint32_t port, uint8_t cls) const
{
    return Queue(port, cls).headroomBytes;
}

bool
SwitchMmu::IsOff(uint32_t port, uint8_t cls) const
{
    return Queue(port, cls).off;
}

uint64_t
SwitchMmu::GetLossyBytes(uint32_t port, uint8_t cls) const
{
    NS_ASSERT_MSG(port < m_nPorts && cls < kPfcClasses,
                  "SwitchMmu::GetLossyBytes: queue (" << port << ", " << +cls << ") out of range");
    return m_lossy[static_cast<size_t>(port) * kPfcClasses + cls];
}

uint64_t
SwitchMmu::GetPauseCount() const
{
    return m_pauses;
}

uint64_t
SwitchMmu::GetResumeCount() const
{
    return m_resumes;
}

uint64_t
SwitchMmu::GetDropCount(PfcDropReason reason) const
{
    NS_ASSERT_MSG(reason < PfcDropReason::COUNT, "SwitchMmu::GetDropCount: not a reason");
    return m_drops[static_cast<size_t>(reason)];
}

} // namespace ns3
