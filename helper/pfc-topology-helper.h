/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef PFC_TOPOLOGY_HELPER_H
#define PFC_TOPOLOGY_HELPER_H

#include "pfc-helper.h"

#include "ns3/ipv4-address.h"
#include "ns3/node-container.h"
#include "ns3/pfc-channel.h"
#include "ns3/tagger-topology.h"

#include <vector>

/**
 * \file
 * \ingroup tagger
 * Turn a tagger::Topology into an ns-3 network of PFC switches and hosts.
 */

namespace ns3
{

/**
 * \ingroup tagger
 * Builds the ns-3 network of a tagger::Topology (the algorithm library's
 * graph, so every generator there - Clos, FatTree, Jellyfish, F10 - and
 * JSON/GraphML files give a network): one ns-3 node per topology node, a
 * PfcSwitchNetDevice on every switch, a PfcChannel per link, switch port
 * indices in the topology's port order, hosts with the Internet stack, one
 * IPv4 address each (10.0.0.0/8, in host order), mq traffic control, and
 * ECMP shortest-path routes (each switch's set for a host = every port on a
 * shortest path to it through switches).
 *
 * \code
 *   PfcTopologyHelper net(tagger::MakeFatTree(4));
 *   net.GetPfcHelper().SetDeviceAttribute("DataRate", StringValue("40Gbps"));
 *   net.Build();
 *   Ipv4Address dst = net.GetHostAddress(0);
 * \endcode
 */
class PfcTopologyHelper
{
  public:
    /// \param topology the network to build (copied)
    explicit PfcTopologyHelper(const tagger::Topology& topology);

    /// \return the helper used for devices, channels, switches and MMUs (set attributes first)
    PfcHelper& GetPfcHelper();

    /// Create everything.  Call once.
    void Build();
    /// Recompute all switch routes (e.g. after links failed). Called by Build().
    void PopulateRoutes();

    const tagger::Topology& GetTopology() const; //!< \return the topology
    NodeContainer GetNodes() const;              //!< \return all nodes, in topology id order
    NodeContainer GetHosts() const;              //!< \return host nodes, in host order
    NodeContainer GetSwitches() const;           //!< \return switch nodes, in switch order
    uint32_t GetNHosts() const;                  //!< \return number of hosts
    /// \param host host index (0..) \return its node
    Ptr<Node> GetHost(uint32_t host) const;
    /// \param host host index \return its IPv4 address
    Ipv4Address GetHostAddress(uint32_t host) const;
    /// \param host host index \return its device
    Ptr<PfcNetDevice> GetHostDevice(uint32_t host) const;
    /// \param node topology node id \return the ns-3 node
    Ptr<Node> GetNode(tagger::NodeId node) const;
    /// \param node topology node id \param port topology port \return the device (or nullptr)
    Ptr<PfcNetDevice> GetDevice(tagger::NodeId node, tagger::PortNo port) const;
    /// \param node topology switch id \param port topology port \return its switch port index
    uint32_t GetSwitchPort(tagger::NodeId node, tagger::PortNo port) const;
    /// \param a node \param b a neighbour \return the channel between them (or nullptr)
    Ptr<PfcChannel> GetChannel(tagger::NodeId a, tagger::NodeId b) const;
    /// \param node topology switch id \return its switch device (or nullptr for hosts)
    Ptr<PfcSwitchNetDevice> GetSwitch(tagger::NodeId node) const;

    /// \param reason a reason \return data frames dropped for it, all switches and hosts
    uint64_t GetDropCount(PfcDropReason reason) const;
    uint64_t GetDropCount() const;            //!< \return all data frames dropped
    uint64_t GetTrafficControlDrops() const;  //!< \return packets host queue discs dropped
    uint64_t GetPauseCount() const;           //!< \return PAUSE decisions, all switches
    uint64_t GetResumeCount() const;          //!< \return RESUME decisions, all switches
    uint64_t GetLosslessBytes() const;        //!< \return lossless bytes held in all MMUs
    uint64_t GetLossyBytes() const;           //!< \return lossy bytes held in all MMUs
    /// Print per-switch pauses, resumes and drops by reason. \param os stream
    void PrintSwitchCounters(std::ostream& os) const;

  private:
    tagger::Topology m_topo;                          //!< the topology
    PfcHelper m_pfc;                                  //!< device factory
    bool m_built;                                     //!< Build() ran
    NodeContainer m_nodes;                            //!< one per topology node
    std::vector<tagger::NodeId> m_hosts;              //!< host ids in order
    std::vector<Ipv4Address> m_hostAddress;           //!< per host index
    std::vector<Ptr<PfcNetDevice>> m_devices;         //!< per topology PortIndex
    std::vector<uint32_t> m_switchPort;               //!< per PortIndex: switch port index
    std::vector<Ptr<PfcSwitchNetDevice>> m_switches;  //!< per node id (nullptr for hosts)
};

} // namespace ns3

#endif /* PFC_TOPOLOGY_HELPER_H */
