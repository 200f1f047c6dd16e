/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-helper.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/pfc-channel.h"
#include "ns3/pointer.h"
#include "ns3/queue-size.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/uinteger.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcHelper");

namespace
{
/// Ascii "+", "-", "r" sink: "event time [context] frame".
void
AsciiEvent(Ptr<OutputStreamWrapper> stream,
           std::string event,
           std::string context,
           Ptr<const Packet> frame)
{
    *stream->GetStream() << event << " " << Simulator::Now().GetSeconds() << " " << context
                         << (context.empty() ? "" : " ") << *frame << std::endl;
}

/// Ascii "d" sink, with the drop reason.
void
AsciiDrop(Ptr<OutputStreamWrapper> stream,
          std::string context,
          Ptr<const Packet> frame,
          PfcDropReason reason)
{
    *stream->GetStream() << "d " << Simulator::Now().GetSeconds() << " " << context
                         << (context.empty() ? "" : " ") << "reason=" << reason << " " << *frame
                         << std::endl;
}
} // namespace

PfcHelper::PfcHelper()
{
    m_deviceFactory.SetTypeId("ns3::PfcNetDevice");
    m_channelFactory.SetTypeId("ns3::PfcChannel");
    m_switchFactory.SetTypeId("ns3::PfcSwitchNetDevice");
    m_mmuFactory.SetTypeId("ns3::SwitchMmu");
}

void
PfcHelper::SetDeviceAttribute(std::string name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
}

void
PfcHelper::SetChannelAttribute(std::string name, const AttributeValue& value)
{
    m_channelFactory.Set(name, value);
}

void
PfcHelper::SetSwitchAttribute(std::string name, const AttributeValue& value)
{
    m_switchFactory.Set(name, value);
}

void
PfcHelper::SetMmuAttribute(std::string name, const AttributeValue& value)
{
    m_mmuFactory.Set(name, value);
}

Ptr<PfcSwitchNetDevice>
PfcHelper::GetSwitch(Ptr<Node> node)
{
    for (uint32_t i = 0; i < node->GetNDevices(); ++i)
    {
        Ptr<PfcSwitchNetDevice> sw = DynamicCast<PfcSwitchNetDevice>(node->GetDevice(i));
        if (sw)
        {
            return sw;
        }
    }
    return nullptr;
}

Ptr<PfcSwitchNetDevice>
PfcHelper::InstallSwitch(Ptr<Node> node) const
{
    NS_ABORT_MSG_IF(GetSwitch(node),
                    "PfcHelper::InstallSwitch: node " << node->GetId() << " is already a switch");
    Ptr<PfcSwitchNetDevice> sw = m_switchFactory.Create<PfcSwitchNetDevice>();
    sw->SetAttribute("Mmu", PointerValue(m_mmuFactory.Create<SwitchMmu>()));
    node->AddDevice(sw);
    return sw;
}

NetDeviceContainer
PfcHelper::InstallSwitch(const NodeContainer& nodes) const
{
    NetDeviceContainer devices;
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        devices.Add(InstallSwitch(*it));
    }
    return devices;
}

NetDeviceContainer
PfcHelper::Connect(Ptr<Node> a, Ptr<Node> b, bool addPorts) const
{
    NS_ABORT_MSG_IF(a == b, "PfcHelper::Connect: cannot link node " << a->GetId() << " to itself");
    Ptr<PfcChannel> channel;
    if (a->GetSystemId() == b->GetSystemId())
    {
        channel = m_channelFactory.Create<PfcChannel>();
    }
    else
    {
        // Ends on two MPI ranks: the remote variant, with the same attributes.
        TypeId remote;
        NS_ABORT_MSG_IF(!TypeId::LookupByNameFailSafe("ns3::PfcRemoteChannel", &remote),
                        "PfcHelper::Connect: nodes "
                            << a->GetId() << " (rank " << a->GetSystemId() << ") and " << b->GetId()
                            << " (rank " << b->GetSystemId()
                            << ") are on different MPI ranks, but this build has no "
                               "PfcRemoteChannel (build ns-3 with --enable-mpi)");
        ObjectFactory factory = m_channelFactory;
        factory.SetTypeId(remote);
        channel = factory.Create<PfcChannel>();
    }
    NetDeviceContainer devices;
    for (Ptr<Node> node : {a, b})
    {
        Ptr<PfcNetDevice> device = m_deviceFactory.Create<PfcNetDevice>();
        device->SetAddress(Mac48Address::Allocate());
        if (m_schedulerFactory.IsTypeIdSet())
        {
            device->SetAttribute("Scheduler",
                                 PointerValue(m_schedulerFactory.Create<PfcScheduler>()));
        }
        node->AddDevice(device);
        Ptr<PfcSwitchNetDevice> sw = GetSwitch(node);
        if (!sw)
        {
            Ptr<NetDeviceQueueInterface> ndqi =
                CreateObjectWithAttributes<NetDeviceQueueInterface>("NTxQueues",
                                                                    UintegerValue(kPfcClasses));
            device->AggregateObject(ndqi);
        }
        devices.Add(device);
    }
    for (uint32_t i = 0; i < 2; ++i)
    {
        Ptr<PfcNetDevice> device = DynamicCast<PfcNetDevice>(devices.Get(i));
        device->Attach(channel);
    }
    for (uint32_t i = 0; i < 2; ++i)
    {
        Ptr<PfcNetDevice> device = DynamicCast<PfcNetDevice>(devices.Get(i));
        Ptr<PfcSwitchNetDevice> sw = GetSwitch(device->GetNode());
        if (sw && addPorts)
        {
            sw->AddPort(device);
        }
    }
    return devices;
}

void
PfcHelper::InstallHostTrafficControl(const NetDeviceContainer& devices, uint32_t childLimit)
{
    TrafficControlHelper tch;
    uint16_t handle = tch.SetRootQueueDisc("ns3::MqQueueDisc");
    TrafficControlHelper::ClassIdList classes =
        tch.AddQueueDiscClasses(handle, kPfcClasses, "ns3::QueueDiscClass");
    std::ostringstream limit;
    limit << childLimit << "p";
    tch.AddChildQueueDiscs(handle,
                           classes,
                           "ns3::FifoQueueDisc",
                           "MaxSize",
                           QueueSizeValue(QueueSize(limit.str())));
    for (auto it = devices.Begin(); it != devices.End(); ++it)
    {
        Ptr<PfcNetDevice> device = DynamicCast<PfcNetDevice>(*it);
        NS_ABORT_MSG_IF(!device || device->IsSwitchPort(),
                        "PfcHelper::InstallHostTrafficControl: device "
                            << (*it)->GetInstanceTypeId().GetName()
                            << " is not a host PfcNetDevice");
        NS_ABORT_MSG_IF(!device->GetNode()->GetObject<TrafficControlLayer>(),
                        "PfcHelper::InstallHostTrafficControl: node "
                            << device->GetNode()->GetId()
                            << " has no Internet stack (install it first)");
        Ptr<TrafficControlLayer> tc = device->GetNode()->GetObject<TrafficControlLayer>();
        if (tc->GetRootQueueDiscOnDevice(device))
        {
            tc->DeleteRootQueueDiscOnDevice(device);
        }
        tch.Install(device);
    }
}

void
PfcHelper::EnablePcapInternal(std::string prefix,
                              Ptr<NetDevice> nd,
                              bool promiscuous,
                              bool explicitFilename)
{
    Ptr<PfcNetDevice> device = DynamicCast<PfcNetDevice>(nd);
    if (!device)
    {
        NS_LOG_INFO("PfcHelper::EnablePcapInternal: device " << nd << " is not a PfcNetDevice");
        return;
    }
    PcapHelper pcapHelper;
    std::string filename =
        explicitFilename ? prefix : pcapHelper.GetFilenameFromDevice(prefix, device);
    Ptr<PcapFileWrapper> file =
        pcapHelper.CreateFile(filename, std::ios::out, PcapHelper::DLT_EN10MB);
    pcapHelper.HookDefaultSink<PfcNetDevice>(device, "PromiscSniffer", file);
}

void
PfcHelper::EnableAsciiInternal(Ptr<OutputStreamWrapper> stream,
                               std::string prefix,
                               Ptr<NetDevice> nd,
                               bool explicitFilename)
{
    Ptr<PfcNetDevice> device = DynamicCast<PfcNetDevice>(nd);
    if (!device)
    {
        NS_LOG_INFO("PfcHelper::EnableAsciiInternal: device " << nd << " is not a PfcNetDevice");
        return;
    }
    Packet::EnablePrinting();
    std::ostringstream context;
    context << "/NodeList/" << device->GetNode()->GetId() << "/DeviceList/" << device->GetIfIndex();
    std::string where = context.str();
    if (!stream)
    {
        AsciiTraceHelper ascii;
        std::string filename =
            explicitFilename ? prefix : ascii.GetFilenameFromDevice(prefix, device);
        stream = ascii.CreateFileStream(filename);
        where = "";
    }
    // The events of ns-3's ascii traces; "d" also names the drop reason.
    device->TraceConnectWithoutContext("MacTx", MakeBoundCallback(&AsciiEvent, stream, "+", where));
    device->TraceConnectWithoutContext("PhyTxBegin",
                                       MakeBoundCallback(&AsciiEvent, stream, "-", where));
    device->TraceConnectWithoutContext("PhyRxEnd",
                                       MakeBoundCallback(&AsciiEvent, stream, "r", where));
    device->TraceConnectWithoutContext("Drop", MakeBoundCallback(&AsciiDrop, stream, where));
}

} // namespace ns3
