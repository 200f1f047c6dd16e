/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-classifier.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcClassifier");
NS_OBJECT_ENSURE_REGISTERED(PfcClassifier);
NS_OBJECT_ENSURE_REGISTERED(DscpPfcClassifier);

TypeId
PfcClassifier::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcClassifier").SetParent<Object>().SetGroupName("Tagger");
    return tid;
}

uint8_t
PfcClassifier::GetPauseClass(uint8_t ingressQueue) const
{
    return ingressQueue;
}

TypeId
DscpPfcClassifier::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DscpPfcClassifier")
                            .SetParent<PfcClassifier>()
                            .SetGroupName("Tagger")
                            .AddConstructor<DscpPfcClassifier>();
    return tid;
}

uint8_t
DscpPfcClassifier::GetIngressQueue(const PfcPacketContext& ctx) const
{
    return ctx.frameClass;
}

uint8_t
DscpPfcClassifier::Rewrite(PfcPacketContext& ctx)
{
    return ctx.frameClass;
}

} // namespace ns3
