/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ttl-classifier.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TtlClassifier");
NS_OBJECT_ENSURE_REGISTERED(TtlClassifier);

TypeId
TtlClassifier::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TtlClassifier")
            .SetParent<PfcClassifier>()
            .SetGroupName("Tagger")
            .AddConstructor<TtlClassifier>()
            .AddAttribute("Ttl0",
                          "The TTL hosts send with (hops); a packet arriving with TTL t is in "
                          "class Ttl0 - t, so paths of up to Ttl0 - 1 switches use classes "
                          "0 .. Ttl0 - 2 (at most 9: 8 classes).",
                          UintegerValue(8),
                          MakeUintegerAccessor(&TtlClassifier::m_ttl0),
                          MakeUintegerChecker<uint8_t>(2, kPfcClasses + 1));
    return tid;
}

TtlClassifier::TtlClassifier()
    : m_ttl0(8)
{
}

uint8_t
TtlClassifier::GetIngressQueue(const PfcPacketContext& ctx) const
{
    uint8_t ttl = ctx.ip->GetTtl();
    if (ttl >= m_ttl0)
    {
        return 0;
    }
    // ttl >= 1 here (ttl 0 never leaves a switch); classes beyond 7 are
    // dropped by TTL before the MMU sees them.
    return std::min<uint8_t>(m_ttl0 - ttl, kPfcClasses - 1);
}

uint8_t
TtlClassifier::Rewrite(PfcPacketContext& ctx)
{
    // A transit packet's TTL is decremented by now: the class is the one the
    // packet arrived in (egress queue = ingress queue).  A packet the node
    // originates keeps its TTL t and leaves in the class of t + 1, the one
    // the next switch's PAUSE for it names.  (No uint8_t: t may be 255.)
    uint32_t ttl = ctx.ip->GetTtl() + 1U;
    return ttl >= m_ttl0 ? 0 : std::min<uint32_t>(m_ttl0 - ttl, kPfcClasses - 1);
}

uint8_t
TtlClassifier::GetPauseClass(uint8_t ingressQueue) const
{
    return ingressQueue == 0 ? 0 : ingressQueue - 1;
}

} // namespace ns3
