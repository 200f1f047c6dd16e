/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tagger-helper.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/tagger-io.h"
#include "ns3/tagger-rule-generator.h"
#include "ns3/tagger-verifier.h"
#include "ns3/ttl-classifier.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <fstream>
#include <iostream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TaggerHelper");

namespace
{
/// Map DSCP d to class min(d, 7) on every device of \p net (tags are classes).
void
MapTagsToClasses(const PfcTopologyHelper& net)
{
    const tagger::Topology& topo = net.GetTopology();
    for (tagger::NodeId v = 0; v < topo.GetNNodes(); ++v)
    {
        for (tagger::PortNo p = 0; p < topo.GetNode(v).ports; ++p)
        {
            Ptr<PfcNetDevice> dev = net.GetDevice(v, p);
            for (uint8_t d = 0; dev && d < 64; ++d)
            {
                dev->SetDscpClass(d, TaggerClassifier::QueueOfTag(d));
            }
        }
    }
}
} // namespace

TaggerHelper::TaggerHelper()
    : m_losslessTags(0),
      m_verifyRules(true)
{
    m_factory.SetTypeId("ns3::TaggerClassifier");
}

void
TaggerHelper::SetClassifierAttribute(std::string n, const AttributeValue& v)
{
    m_factory.Set(n, v);
}

void
TaggerHelper::Install(const PfcTopologyHelper& net,
                      const tagger::TagRules& rules,
                      uint32_t losslessTags)
{
    const tagger::Topology& topo = net.GetTopology();
    m_losslessTags = std::max(rules.GetLosslessTags(), losslessTags);
    NS_ABORT_MSG_IF(m_losslessTags >= kPfcClasses,
                    "TaggerHelper: the rules need " << m_losslessTags
                                                    << " lossless queues; PFC offers 7 besides "
                                                       "the lossy queue 0");
    NS_ABORT_MSG_IF(rules.GetMaxTag() >= kPfcClasses,
                    "TaggerHelper: a rule writes tag " << int(rules.GetMaxTag())
                                                       << "; tags must fit the 8 PFC classes");
    m_rules = rules;
    m_classifiers.assign(topo.GetNNodes(), nullptr);
    uint64_t mask = 0;
    for (uint32_t t = 1; t <= m_losslessTags; ++t)
    {
        mask |= 1u << t;
    }
    // Tags delivered to hosts only (above the lossless count) still need
    // their queue at the last switch to be lossless.
    for (uint32_t t = 1; t <= rules.GetMaxTag(); ++t)
    {
        mask |= 1u << t;
    }
    const tagger::TcamTable tcam = tagger::CompressTcamTable(m_rules);
    for (tagger::NodeId v = 0; v < topo.GetNNodes(); ++v)
    {
        Ptr<PfcSwitchNetDevice> sw = net.GetSwitch(v);
        if (!sw)
        {
            continue;
        }
        std::vector<uint32_t> portMap(topo.GetNode(v).ports, kPfcNoPort);
        for (tagger::PortNo p = 0; p < topo.GetNode(v).ports; ++p)
        {
            portMap[p] = net.GetSwitchPort(v, p);
        }
        Ptr<TaggerClassifier> classifier = m_factory.Create<TaggerClassifier>();
        classifier->SetTcam(sw->GetNPorts(), tcam[v], portMap);
        sw->SetClassifier(classifier);
        sw->GetMmu()->SetAttribute("LosslessClasses", UintegerValue(mask));
        m_classifiers[v] = classifier;
    }
    MapTagsToClasses(net);
}

std::string
TaggerHelper::ReadRulesFile(const tagger::Topology& topo,
                            const std::string& path,
                            bool verify,
                            tagger::TagRules& rules,
                            uint32_t& losslessTags)
{
    std::ifstream in(path);
    if (!in)
    {
        return "cannot open rules file " + path;
    }
    try
    {
        rules = tagger::ReadRulesJson(topo, in, path, losslessTags);
    }
    catch (const std::ios_base::failure&)
    {
        return tagger::ReadErrorText("rules file", path);
    }
    catch (const std::exception& e)
    {
        return e.what();
    }
    if (verify)
    {
        const tagger::VerifyResult v = tagger::VerifyDeadlockFree(rules, losslessTags);
        if (!v.ok)
        {
            return "the rules of " + path + " are not deadlock-free: " + v.problem;
        }
    }
    return "";
}

void
TaggerHelper::InstallFromJson(const PfcTopologyHelper& net, const std::string& path)
{
    tagger::TagRules rules(net.GetTopology());
    uint32_t lossless = 0;
    std::string why = ReadRulesFile(net.GetTopology(), path, m_verifyRules, rules, lossless);
    if (!why.empty())
    {
        NS_FATAL_ERROR("TaggerHelper: " << why
                                        << (m_verifyRules ? " (SetVerifyRules(false) installs "
                                                            "unverified rules anyway)"
                                                          : ""));
    }
    if (!m_verifyRules)
    {
        NS_LOG_WARN("installing the rules of " << path << " unverified");
        std::cerr << "TaggerHelper: warning: installing the rules of " << path
                  << " unverified (SetVerifyRules(false)); they may deadlock\n";
    }
    Install(net, rules, lossless);
}

void
TaggerHelper::SetVerifyRules(bool verify)
{
    m_verifyRules = verify;
}

tagger::TagRules
TaggerHelper::ComputeRules(const tagger::Topology& topo, uint32_t bounces, uint32_t classes)
{
    try
    {
        return tagger::ComputeDefaultRules(topo, bounces, classes);
    }
    catch (const std::exception& e)
    {
        NS_FATAL_ERROR("TaggerHelper::ComputeRules: " << e.what());
    }
    return tagger::TagRules();
}

uint32_t
TaggerHelper::GetLosslessTags() const
{
    return m_losslessTags;
}

Ptr<TaggerClassifier>
TaggerHelper::GetClassifier(tagger::NodeId node) const
{
    return node < m_classifiers.size() ? m_classifiers[node] : nullptr;
}

uint8_t
TtlHelper::Ttl0ForPath(uint32_t switches)
{
    NS_ABORT_MSG_IF(switches == 0, "TtlHelper: a legal path must cross at least one switch");
    NS_ABORT_MSG_IF(switches > kPfcClasses,
                    "TtlHelper: the longest legal path crosses "
                        << switches << " switches and needs " << switches
                        << " classes; PFC has 8: TTL priorities cannot protect this network");
    return uint8_t(switches + 1);
}

uint32_t
TtlHelper::LongestPathSwitches(const tagger::Elp& elp)
{
    // longestPath counts links host to host: one switch fewer.
    return elp.longestPath > 0 ? elp.longestPath - 1 : 0;
}

void
TtlHelper::Install(const PfcTopologyHelper& net, uint8_t ttl0)
{
    NS_ABORT_MSG_IF(ttl0 < 2 || ttl0 > kPfcClasses + 1,
                    "TtlHelper: Ttl0 " << int(ttl0) << " gives " << int(ttl0) - 1
                                       << " classes; it must be 2..9 (1..8 classes)");
    const tagger::Topology& topo = net.GetTopology();
    for (tagger::NodeId v = 0; v < topo.GetNNodes(); ++v)
    {
        Ptr<PfcSwitchNetDevice> sw = net.GetSwitch(v);
        if (!sw)
        {
            continue;
        }
        Ptr<TtlClassifier> classifier = CreateObject<TtlClassifier>();
        classifier->SetAttribute("Ttl0", UintegerValue(ttl0));
        sw->SetClassifier(classifier);
        sw->GetMmu()->SetAttribute("LosslessClasses", UintegerValue(0xff));
        // The TTL scheme: every class partition holds at least n * (max packet).
        uint32_t frame = 0;
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            frame = std::max<uint32_t>(frame, sw->GetPort(p)->GetMtu() + kEthernetTaggedHeaderSize);
        }
        UintegerValue phi;
        sw->GetMmu()->GetAttribute("PrivateBytes", phi);
        if (phi.Get() < frame)
        {
            sw->GetMmu()->SetAttribute("PrivateBytes", UintegerValue(frame));
        }
    }
}

} // namespace ns3
