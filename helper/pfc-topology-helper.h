/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef PFC_TOPOLOGY_HELPER_H
#define PFC_TOPOLOGY_HELPER_H

#include "pfc-helper.h"
#include "pfc-route-helper.h"

#include "ns3/data-rate.h"
#include "ns3/ipv4-address.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/pfc-channel.h"
#include "ns3/tagger-topology.h"

#include <string>
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
 * The physical properties of one link of a PfcTopologyHelper network: the
 * same in both directions (HPCC-family topology files describe links so;
 * tagger::HpccLink converts with HpccScenarioHelper::ToLinkProperties).
 */
struct PfcLinkProperties
{
    DataRate rate{"40Gbps"};     //!< the DataRate of both devices (bits/s, > 0)
    Time delay{MicroSeconds(1)}; //!< the channel's one-way propagation Delay (>= 0)
    /// Probability (0..1) that a data frame is lost, at each receiving end
    /// (a RateErrorModel per device, packet unit; lost frames are dropped
    /// with reason LINK_ERROR; PFC frames are never lost).
    double errorRate{0};
};

/**
 * \ingroup tagger
 * Builds the ns-3 network of a tagger::Topology (the algorithm library's
 * graph, so every generator there - Clos, FatTree, Jellyfish, F10 - and
 * JSON/GraphML files give a network): one ns-3 node per topology node, a
 * PfcSwitchNetDevice on every switch, a PfcChannel per link, switch port
 * indices in the topology's port order, hosts with the Internet stack, one
 * IPv4 address each (10.0.0.0/8, in host order), mq traffic control, and
 * ECMP shortest-path routes.  Nodes get the topology's names in ns-3's
 * Names service and devices "port<n>" under them, so pcap files, Config
 * paths and log lines say "L2" and "port3" as the rules file does.  Names
 * is cleared at Simulator::Destroy (it holds the nodes, and so their open
 * pcap files), and when a name is already taken by an earlier network.
 *
 * Links get the PfcHelper's device and channel attributes, unless
 * SetLinkProperties gave each link its own rate, delay and error rate.
 *
 * The routes are the network's PfcRouteHelper (GetRouteHelper(): link
 * failures, pinned paths, bad routes); PfcStatsHelper sums the counters of
 * the whole network.  The route helper is created with the network, before
 * any device, so the automatic stream of its random variable (and so of
 * every device's) does not depend on when routes are first changed.  The
 * helper cannot be copied (its route helper refers to it).
 *
 * Relay servers (TopoNode::relay, e.g. BCube's) are hosts and forwarders at
 * once: such a server gets a PfcSwitchNetDevice that owns its ports, as a
 * switch does, and that device is its IPv4 interface (its host address is a
 * local address of the switch device).  Routes are computed through every
 * forwarder (switches and relay servers; other hosts never relay), and a
 * relay server has a FIB like a switch, used for transit packets and for the
 * ones it originates.  GetHostDevice() is nullptr for a relay server:
 * GetHostSwitch() gives its forwarding engine, GetHostInterface() the IPv4
 * interface of any host.  Relay servers get no traffic control (their
 * packets enter the forwarding engine directly).
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

    PfcTopologyHelper(const PfcTopologyHelper&) = delete;
    PfcTopologyHelper& operator=(const PfcTopologyHelper&) = delete;

    /// \return the helper used for devices, channels, switches and MMUs (set attributes first)
    PfcHelper& GetPfcHelper();
    /// \return the routes of this network (failures, pinned paths, bad routes)
    PfcRouteHelper& GetRouteHelper();

    /**
     * Give every link its own properties (call before Build()): link i of
     * the topology (GetTopology().GetLinks()[i]) gets links[i] - the
     * DataRate of both devices, the Delay of the channel and, for an error
     * rate above 0, a RateErrorModel (packet unit) as the ReceiveErrorModel
     * of each device, drawing independently.  These override the PfcHelper's
     * DataRate and Delay attributes; other attributes still come from it.
     * Without this call every link has the PfcHelper's attributes.
     * NS_FATAL_ERROR when links does not hold one entry per topology link,
     * a rate is 0, a delay negative or an error rate outside [0, 1].
     * \param links one per topology link, in topology link order
     */
    void SetLinkProperties(const std::vector<PfcLinkProperties>& links);

    /**
     * The properties of every link as built (after Build()): the a-end
     * device's DataRate, the channel's Delay, the error rate given to
     * SetLinkProperties (0 without it).
     * \return one per topology link, in topology link order
     */
    std::vector<PfcLinkProperties> GetLinkProperties() const;

    /**
     * Put the nodes on MPI ranks (call before Build()): node v of the
     * topology is created with system id ranks[v], and a link between nodes
     * of different ranks gets a PfcRemoteChannel.  Every rank builds the
     * whole network; only the nodes of its own rank have events.  Without
     * this call every node is on rank 0.  NS_FATAL_ERROR when ranks does not
     * hold one entry per topology node.  (TaggerMpiHelper chooses the ranks
     * and checks them against the ranks running.)
     * \param ranks one MPI rank per topology node, in node id order
     */
    void SetNodeRanks(const std::vector<uint32_t>& ranks);

    /**
     * Ranks by pod for \p ranks ranks: the pods are the groups of nodes left
     * connected when the top layer (spines, cores) is taken out; pod p of P
     * goes to rank p * ranks / P (contiguous blocks, as even as the pod count
     * allows), top-layer switch c of C to rank c * ranks / C.  Links that
     * cross ranks are then only links to the top layer.  Topologies without
     * layers (Jellyfish, BCube, ...) have no pods: NS_FATAL_ERROR (give
     * SetNodeRanks a map of your own).
     * \param topology the network \param ranks ranks (>= 1)
     * \return one rank per topology node
     */
    static std::vector<uint32_t> RanksByPod(const tagger::Topology& topology, uint32_t ranks);

    /// Memory a built network takes per host (its Internet stack, device and NIC), bytes.
    static constexpr uint64_t kBytesPerHost = 80 * 1024;
    /// Memory a built network takes per switch port (device, queues, MMU state), bytes.
    static constexpr uint64_t kBytesPerSwitchPort = 3 * 1024;
    /// Memory a RoCE flow takes (RdmaNic queue pair, flow record, events), bytes.
    static constexpr uint64_t kBytesPerFlow = 1300;
    /// Memory a process takes whatever the network (ns-3, the module, the program), bytes.
    static constexpr uint64_t kBytesBase = 32 * 1024 * 1024;

    /**
     * The memory a run of \p topology with \p flows RoCE flows will take,
     * from the constants above (measured on fat trees of k = 16 and 32, chains
     * of 1,000 to 20,000 switches and flow files of 10^6 and 2^22 flows, and
     * rounded up; the manual, "Limits").  Programs refuse, before building, a
     * network that would not fit in the memory available (CheckMemory).
     * \param topology the network \param flows RoCE flows \return bytes
     */
    static uint64_t EstimateMemory(const tagger::Topology& topology, uint64_t flows);

    /**
     * \param topology the network \param flows RoCE flows
     * \return "" when EstimateMemory fits in the memory available now
     *         (MemAvailable of /proc/meminfo; always "" where it cannot be read),
     *         else what it needs and what there is
     */
    static std::string CheckMemory(const tagger::Topology& topology, uint64_t flows);

    /// \return each node's rank (SetNodeRanks; all 0 without it)
    std::vector<uint32_t> GetNodeRanks() const;

    /// Create everything, then install the ECMP routes (GetRouteHelper().PopulateRoutes()).
    /// Call once.
    void Build();

    const tagger::Topology& GetTopology() const; //!< \return the topology
    NodeContainer GetNodes() const;              //!< \return all nodes, in topology id order
    NodeContainer GetHosts() const;              //!< \return host nodes, in host order
    NodeContainer GetSwitches() const;           //!< \return switch nodes, in switch order
    /// \return nodes that forward (switches and relay servers), in node id order
    NodeContainer GetForwarders() const;
    uint32_t GetNHosts() const; //!< \return number of hosts
    /// \param host host index (0..) \return its node
    Ptr<Node> GetHost(uint32_t host) const;
    /// \param host host index \return its IPv4 address
    Ipv4Address GetHostAddress(uint32_t host) const;
    /// \param host host index \return its device (nullptr for a relay server: GetHostSwitch)
    Ptr<PfcNetDevice> GetHostDevice(uint32_t host) const;
    /// \param host host index \return a relay server's forwarding engine (nullptr for other hosts)
    Ptr<PfcSwitchNetDevice> GetHostSwitch(uint32_t host) const;
    /// \param host host index \return its IPv4 interface: GetHostDevice or GetHostSwitch
    Ptr<NetDevice> GetHostInterface(uint32_t host) const;
    /// \param host host index \return whether it is a relay server
    bool IsRelayHost(uint32_t host) const;
    /// \param node topology node id \return the ns-3 node
    Ptr<Node> GetNode(tagger::NodeId node) const;
    /// \param node topology node id \param port topology port \return the device (or nullptr)
    Ptr<PfcNetDevice> GetDevice(tagger::NodeId node, tagger::PortNo port) const;
    /// \param node topology switch id \param port topology port \return its switch port index
    uint32_t GetSwitchPort(tagger::NodeId node, tagger::PortNo port) const;
    /// \param a node \param b a neighbour \return the channel between them (or nullptr)
    Ptr<PfcChannel> GetChannel(tagger::NodeId a, tagger::NodeId b) const;
    /**
     * \param node topology node id
     * \return its forwarding engine: a switch's device, a relay server's
     *         (GetHostSwitch), nullptr for other hosts
     */
    Ptr<PfcSwitchNetDevice> GetSwitch(tagger::NodeId node) const;

    /// \param name a topology node name \return its id (NS_FATAL_ERROR if unknown)
    tagger::NodeId GetNodeId(const std::string& name) const;

  private:
    /// Nodes, forwarding engines, one channel per link, switch ports in port order.
    void CreateDevices();
    /// The topology's node names and "port<n>" device names in ns-3's Names.
    void AddNames();
    /// Hosts: Internet stack, one address each, mq traffic control.
    void InstallHosts();
    /// Apply link \p i's SetLinkProperties entry. \param i link \param devices its two devices
    void ApplyLinkProperties(uint32_t i, const NetDeviceContainer& devices) const;

    tagger::Topology m_topo;                         //!< the topology
    PfcRouteHelper m_routes;                         //!< the routes
    PfcHelper m_pfc;                                 //!< device factory
    bool m_built;                                    //!< Build() ran
    std::vector<PfcLinkProperties> m_links;          //!< per link (empty: the PfcHelper's)
    std::vector<uint32_t> m_ranks;                   //!< per node id: MPI rank (empty: all 0)
    NodeContainer m_nodes;                           //!< one per topology node
    std::vector<tagger::NodeId> m_hosts;             //!< host ids in order
    std::vector<Ipv4Address> m_hostAddress;          //!< per host index
    std::vector<Ptr<PfcNetDevice>> m_devices;        //!< per topology PortIndex
    std::vector<uint32_t> m_switchPort;              //!< per PortIndex: switch port index
    std::vector<Ptr<PfcSwitchNetDevice>> m_switches; //!< per node id (nullptr: non-relay host)
};

} // namespace ns3

#endif /* PFC_TOPOLOGY_HELPER_H */
