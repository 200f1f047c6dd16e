/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "itsy-helper.h"

#include "ns3/abort.h"
#include "ns3/names.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/pfc-switch-net-device.h"
#include "ns3/pointer.h"

namespace ns3
{

namespace
{

/// Decision trace sink: check \p oracle at a causality loop. \param oracle the oracle
/// \param what the decision \param port its port \param cls its class
void
CheckAtLoop(Ptr<PfcDeadlockOracle> oracle, const std::string& what, uint32_t port, uint8_t cls)
{
    if (what == "causality-loop")
    {
        oracle->CheckNow();
    }
}

} // namespace

ItsyHelper::ItsyHelper()
{
    m_factory.SetTypeId(ItsyDetector::GetTypeId());
}

void
ItsyHelper::SetDetectorAttribute(std::string name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

std::vector<Ptr<ItsyDetector>>
ItsyHelper::Install(const NodeContainer& nodes)
{
    std::vector<Ptr<ItsyDetector>> made;
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        for (uint32_t i = 0; i < (*it)->GetNDevices(); ++i)
        {
            Ptr<PfcSwitchNetDevice> sw = DynamicCast<PfcSwitchNetDevice>((*it)->GetDevice(i));
            if (!sw)
            {
                continue;
            }
            NS_ABORT_MSG_IF(sw->GetItsy(),
                            "ItsyHelper::Install: node " << (*it)->GetId()
                                                         << " has a detector already");
            Ptr<ItsyDetector> d = m_factory.Create<ItsyDetector>();
            sw->SetAttribute("Itsy", PointerValue(d));
            d->TraceConnectWithoutContext("Declaration", MakeCallback(&ItsyHelper::Record, this));
            made.push_back(d);
            m_detectors.push_back(d);
        }
    }
    return made;
}

void
ItsyHelper::Record(const ItsyDetector::Declaration& d)
{
    m_declarations.push_back(d);
    if (!d.resolveTrigger)
    {
        return;
    }
    // The declaration reaches the initial trigger's switch (or the switch
    // facing a host trigger) at once: the paper leaves how open.
    for (const Ptr<ItsyDetector>& det : m_detectors)
    {
        if (det->ResolveTrigger(d.trigNode, d.trigPort, d.trigCls))
        {
            return;
        }
    }
}

const std::vector<ItsyDetector::Declaration>&
ItsyHelper::GetDeclarations() const
{
    return m_declarations;
}

const std::vector<Ptr<ItsyDetector>>&
ItsyHelper::GetDetectors() const
{
    return m_detectors;
}

uint64_t
ItsyHelper::GetPiggybacked() const
{
    uint64_t n = 0;
    for (const auto& d : m_detectors)
    {
        n += d->GetPiggybacked();
    }
    return n;
}

uint64_t
ItsyHelper::GetSynthesized() const
{
    uint64_t n = 0;
    for (const auto& d : m_detectors)
    {
        n += d->GetSynthesized();
    }
    return n;
}

std::string
ItsyHelper::NodeName(uint32_t id)
{
    const std::string name =
        id < NodeList::GetNNodes() ? Names::FindName(NodeList::GetNode(id)) : std::string();
    return name.empty() ? "node " + std::to_string(id) : name;
}

void
ItsyHelper::PrintDeclarations(std::ostream& os) const
{
    for (const ItsyDetector::Declaration& d : m_declarations)
    {
        os << "itsy: deadlock declared at " << d.time.As(Time::US) << " (loop detected "
           << d.detected.As(Time::US) << ") by " << NodeName(d.genNode) << " port " << d.genPort
           << " class " << int(d.genCls) << (d.middle ? " (middle switch)" : "")
           << ", initial trigger " << NodeName(d.trigNode) << " port " << d.trigPort
           << (d.onLoop ? " on" : " out of") << " the loop:";
        for (const ItsyDetector::Hop& h : d.loop)
        {
            os << " (" << NodeName(h.node) << " port " << h.port << " class " << int(h.cls) << ")";
        }
        os << "\n";
    }
}

void
ItsyHelper::CheckAtDetections(Ptr<PfcDeadlockOracle> oracle) const
{
    for (const Ptr<ItsyDetector>& d : m_detectors)
    {
        d->TraceConnectWithoutContext("Decision", MakeBoundCallback(&CheckAtLoop, oracle));
    }
}

bool
ItsyHelper::Confirms(Ptr<PfcDeadlockOracle> oracle, const ItsyDetector::Declaration& d)
{
    std::vector<PfcDeadlockOracle::Member> loop;
    for (const ItsyDetector::Hop& h : d.loop)
    {
        loop.push_back({h.node, h.port, h.cls});
    }
    return oracle->Confirms(loop, d.detected);
}

} // namespace ns3
