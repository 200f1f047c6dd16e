/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef PFC_HELPER_H
#define PFC_HELPER_H

#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/pfc-switch-net-device.h"
#include "ns3/trace-helper.h"

#include <string>

/**
 * \file
 * \ingroup tagger
 * Build networks of PfcNetDevices and PfcSwitchNetDevices.
 */

namespace ns3
{

/**
 * \ingroup tagger
 * Creates PFC switches, links (a PfcNetDevice on each node and a PfcChannel
 * between them), host traffic control, and pcap/ascii traces.
 *
 * \code
 *   PfcHelper pfc;
 *   pfc.SetDeviceAttribute("DataRate", StringValue("40Gbps"));
 *   pfc.SetChannelAttribute("Delay", StringValue("1us"));
 *   Ptr<PfcSwitchNetDevice> tor = pfc.InstallSwitch(torNode);
 *   NetDeviceContainer link = pfc.Connect(hostNode, torNode); // host device, switch port
 *   InternetStackHelper().Install(hostNode);
 *   pfc.InstallHostTrafficControl(NetDeviceContainer(link.Get(0)));
 * \endcode
 *
 * A node that holds a PfcSwitchNetDevice (InstallSwitch) is a switch: the
 * devices Connect() puts on it become its ports.  On any other node the
 * device is a host NIC with eight transmit queues (NetDeviceQueueInterface).
 */
class PfcHelper : public PcapHelperForDevice, public AsciiTraceHelperForDevice
{
  public:
    PfcHelper();
    ~PfcHelper() override = default;

    /// Set an attribute of every PfcNetDevice created. \param name n \param value v
    void SetDeviceAttribute(std::string name, const AttributeValue& value);
    /// Set an attribute of every PfcChannel created. \param name n \param value v
    void SetChannelAttribute(std::string name, const AttributeValue& value);
    /// Set an attribute of every PfcSwitchNetDevice created. \param name n \param value v
    void SetSwitchAttribute(std::string name, const AttributeValue& value);
    /// Set an attribute of the SwitchMmu of every switch created. \param name n \param value v
    void SetMmuAttribute(std::string name, const AttributeValue& value);

    /**
     * Give every PfcNetDevice created its own scheduler of this type (a
     * scheduler keeps per-port state, so devices must not share one, as they
     * would through SetDeviceAttribute("Scheduler", PointerValue(...))).
     * \tparam Ts attribute name and value pairs
     * \param type the TypeId name, e.g. "ns3::DwrrPfcScheduler"
     * \param args attribute name and value pairs, e.g. "Weights", StringValue("1,1,1,4,1,1,1,1")
     */
    template <typename... Ts>
    void SetScheduler(std::string type, Ts&&... args);

    /**
     * Make \p node a switch.
     * \param node the node (no PfcSwitchNetDevice yet)
     * \return the switch device
     */
    Ptr<PfcSwitchNetDevice> InstallSwitch(Ptr<Node> node) const;
    /// Make every node of \p nodes a switch. \param nodes nodes \return the switch devices
    NetDeviceContainer InstallSwitch(const NodeContainer& nodes) const;

    /**
     * Connect two nodes with a full-duplex link.
     * \param a one node \param b the other
     * \param addPorts make the devices ports of the nodes' switches now (false:
     *        the caller calls PfcSwitchNetDevice::AddPort, e.g. to number ports)
     * \return the device on \p a (index 0) and on \p b (index 1)
     */
    NetDeviceContainer Connect(Ptr<Node> a, Ptr<Node> b, bool addPorts = true) const;

    /**
     * Give host devices an mq root queue disc with one FIFO child per class,
     * so a paused class waits in traffic control while the others go on.
     * Call after InternetStackHelper::Install.
     * \param devices host PfcNetDevices
     * \param childLimit packets each class FIFO holds (then traffic control drops)
     */
    static void InstallHostTrafficControl(const NetDeviceContainer& devices,
                                          uint32_t childLimit = 10000);

    /// \param node a node \return its PfcSwitchNetDevice, or nullptr
    static Ptr<PfcSwitchNetDevice> GetSwitch(Ptr<Node> node);

  private:
    void EnablePcapInternal(std::string prefix,
                            Ptr<NetDevice> nd,
                            bool promiscuous,
                            bool explicitFilename) override;
    void EnableAsciiInternal(Ptr<OutputStreamWrapper> stream,
                             std::string prefix,
                             Ptr<NetDevice> nd,
                             bool explicitFilename) override;

    ObjectFactory m_deviceFactory;    //!< PfcNetDevice factory
    ObjectFactory m_channelFactory;   //!< PfcChannel factory
    ObjectFactory m_switchFactory;    //!< PfcSwitchNetDevice factory
    ObjectFactory m_mmuFactory;       //!< SwitchMmu factory
    ObjectFactory m_schedulerFactory; //!< PfcScheduler factory (no TypeId: device default)
};

template <typename... Ts>
void
PfcHelper::SetScheduler(std::string type, Ts&&... args)
{
    m_schedulerFactory.SetTypeId(type);
    m_schedulerFactory.Set(std::forward<Ts>(args)...);
}

} // namespace ns3

#endif /* PFC_HELPER_H */
