/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tagger-classifier.h"

#include "pfc-net-device.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TaggerClassifier");
NS_OBJECT_ENSURE_REGISTERED(TaggerClassifier);

TypeId
TaggerClassifier::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TaggerClassifier")
            .SetParent<PfcClassifier>()
            .SetGroupName("Tagger")
            .AddConstructor<TaggerClassifier>()
            .AddAttribute("EgressByOldTag",
                          "Queue a packet at egress by its OLD tag (wrong: Tagger (ToN) Section "
                          "VII-B; lossless packets drop) instead of its new tag.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&TaggerClassifier::m_egressByOldTag),
                          MakeBooleanChecker());
    return tid;
}

TaggerClassifier::TaggerClassifier()
    : m_egressByOldTag(false),
      m_nPorts(0),
      m_tags(0),
      m_entries(0)
{
}

uint8_t
TaggerClassifier::QueueOfTag(uint8_t tag)
{
    return tag < kPfcClasses ? tag : kPfcClasses - 1;
}

void
TaggerClassifier::SetTcam(uint32_t nPorts,
                          const std::vector<tagger::TcamEntry>& entries,
                          const std::vector<uint32_t>& portMap)
{
    m_nPorts = nPorts;
    m_tags = 1;
    for (const tagger::TcamEntry& e : entries)
    {
        NS_ABORT_MSG_IF(e.newTag >= kPfcClasses,
                        "TaggerClassifier: a rule writes tag "
                            << int(e.newTag) << ", which needs lossless queue " << int(e.newTag)
                            << "; PFC has 8 classes (queue 0 is the lossy one)");
        m_tags = std::max<uint32_t>(m_tags, e.tag + 1);
    }
    m_table.assign(m_tags * nPorts * nPorts, tagger::kLossyTag);
    auto map = [&portMap, nPorts](tagger::PortNo p) {
        uint32_t q = p < portMap.size() ? portMap[p] : kPfcNoPort;
        return q < nPorts ? q : kPfcNoPort;
    };
    // Fill in reverse order so the first matching entry wins (TCAM semantics).
    for (auto it = entries.rbegin(); it != entries.rend(); ++it)
    {
        for (tagger::PortNo in : it->inPorts)
        {
            uint32_t i = map(in);
            if (i == kPfcNoPort)
            {
                continue;
            }
            for (tagger::PortNo out : it->outPorts)
            {
                uint32_t o = map(out);
                if (o != kPfcNoPort)
                {
                    m_table[(it->tag * nPorts + i) * nPorts + o] = it->newTag;
                }
            }
        }
    }
    m_entries = entries.size();
}

uint8_t
TaggerClassifier::Lookup(uint8_t tag, uint32_t in, uint32_t out) const
{
    if (tag == tagger::kLossyTag || tag >= m_tags || in >= m_nPorts || out >= m_nPorts)
    {
        return tagger::kLossyTag;
    }
    return m_table[(tag * m_nPorts + in) * m_nPorts + out];
}

uint32_t
TaggerClassifier::GetNEntries() const
{
    return m_entries;
}

uint8_t
TaggerClassifier::GetIngressQueue(const PfcPacketContext& ctx) const
{
    return QueueOfTag(ctx.ip->GetDscp());
}

uint8_t
TaggerClassifier::Rewrite(PfcPacketContext& ctx)
{
    uint8_t oldTag = ctx.ip->GetDscp();
    if (ctx.inPort == kPfcNoPort)
    {
        return QueueOfTag(oldTag); // originated here (relay server): the path starts here
    }
    uint8_t newTag = Lookup(oldTag, ctx.inPort, ctx.outPort);
    if (newTag != oldTag)
    {
        ctx.ip->SetDscp(Ipv4Header::DscpType(newTag));
    }
    return QueueOfTag(m_egressByOldTag ? oldTag : newTag);
}

} // namespace ns3
