/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef HPCC_SCENARIO_HELPER_H
#define HPCC_SCENARIO_HELPER_H

#include "pfc-topology-helper.h"
#include "rdma-helper.h"

#include "ns3/tagger-io-hpcc.h"

#include <deque>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup tagger
 * Run an HPCC-family topology file and flow file: network, flows, FCT file, export.
 */

namespace ns3
{

class PfcHeader;

/**
 * \ingroup tagger
 * Turns an HPCC-family topology and flow list (tagger::ReadHpccTopologyFile,
 * tagger::ReadHpccFlowFile) into this module's network and RoCE flows, and
 * writes the results in the layout of those simulators.
 *
 * - The network is a PfcTopologyHelper of the file's topology (switches
 *   "S<i>", hosts "H<i>", ports in link order) whose links keep their own
 *   rate, delay and error rate (PfcTopologyHelper::SetLinkProperties), with
 *   the usual routes, addresses and an RdmaNic on every host.
 * - File node i is topology node i; a flow between nodes s and d runs from
 *   host index GetHostIndex(s) to GetHostIndex(d) (hosts are numbered in
 *   node id order).  Priority p becomes DSCP 8p, so the flow's class is p
 *   (class = DSCP >> 3); which classes are lossless is the MMU's
 *   LosslessClasses attribute (by default 1..7: priority 0 is lossy).
 *   A flow starts at its start time (ns-3 time, rounded to the resolution).
 *   Its UDP source port is the NIC's; its file dport is kept here (RoCEv2
 *   packets go to UDP port 4791) and written to the FCT file.
 * - Hosts must have exactly one link (one NIC; CheckTopology says so).
 *
 * \code
 *   tagger::HpccTopology topo = tagger::ReadHpccTopologyFile("topology.txt");
 *   HpccScenarioHelper scenario(topo, tagger::ReadHpccFlowFile("flow.txt", topo.topo));
 *   scenario.GetRdma().SetNicAttribute("Dcqcn", BooleanValue(true));
 *   scenario.Build();
 *   Simulator::Run();
 *   scenario.WriteFct(fctFile);
 * \endcode
 */
class HpccScenarioHelper
{
  public:
    /// First HPCC-style node address (node 0): 11.0.0.1.
    static constexpr uint32_t kHpccAddressBase = 0x0b000001;

    /**
     * \param topology the topology file's contents (copied)
     * \param flows the flow file's flows, between hosts of \p topology (copied)
     */
    HpccScenarioHelper(const tagger::HpccTopology& topology,
                       const std::vector<tagger::HpccFlow>& flows);

    HpccScenarioHelper(const HpccScenarioHelper&) = delete;
    HpccScenarioHelper& operator=(const HpccScenarioHelper&) = delete;

    /**
     * Why this module cannot build \p topology and run \p flows, or "": a host
     * with more than one link (named with its id and link count), a flow
     * whose hosts are not connected.
     * \param topology the topology \param flows its flows \return "" or the first fault
     */
    static std::string Check(const tagger::HpccTopology& topology,
                             const std::vector<tagger::HpccFlow>& flows);

    /**
     * ReadHpccTopologyFile, then Check() the topology; lines after the links
     * the first line announces are ignored with one warning on std::cerr
     * (tagger::HpccTopology::warning), or refused when \p strict.
     * \param filename the topology file \param strict refuse lines after the announced links
     * \return what it holds
     * Throws tagger::TaggerError "file:line: what" for a fault of the file,
     * "file: what" for a topology this module cannot build.
     */
    static tagger::HpccTopology ReadTopologyFile(const std::string& filename, bool strict = false);

    /**
     * ReadHpccFlowFile, then Check() the flows; lines after the announced
     * flows as in ReadTopologyFile.
     * \param filename the flow file \param topology the topology they run on
     * \param strict refuse lines after the announced flows
     * \return the flows, in file order
     * Throws tagger::TaggerError "file:line: what", or "file: flow i: ..."
     * for a flow between hosts that are not connected.
     */
    static std::vector<tagger::HpccFlow> ReadFlowFile(const std::string& filename,
                                                      const tagger::HpccTopology& topology,
                                                      bool strict = false);

    /// \return the network (set its PfcHelper's attributes before Build())
    PfcTopologyHelper& GetNetwork();
    /// \return the NICs (set their attributes before Build())
    RdmaHelper& GetRdma();
    /// \return the flows, in file order
    const std::vector<tagger::HpccFlow>& GetFlows() const;

    /// Build the network with the file's link properties, install the NICs,
    /// add every flow.  NS_FATAL_ERROR with Check()'s message when it fails.
    void Build();

    /// \return the earliest start time of a flow (Time::Max() without flows)
    Time GetFirstStart() const;
    /// \return the latest start time of a flow (0 without flows)
    Time GetLastStart() const;

    /// \param node a topology host's node id \return its host index
    uint32_t GetHostIndex(tagger::NodeId node) const;

    /**
     * The flow record of each flow, in file order (after Build()).
     * \return one per flow of GetFlows()
     */
    std::vector<RdmaFlowRecord> GetFlowRecords() const;

    /// \return the flows that finished (after Build())
    uint32_t GetCompletedFlows() const;
    /// \return the FCT of the flow that finished last (0 when none did)
    Time GetLastFct() const;

    /// The most flows PrintFlows prints a line for (a file of millions would flood stdout).
    static constexpr std::size_t kPrintedFlows = 100;

    /**
     * Print one line per flow (hosts, class, dport, size, start; FCT and
     * slowdown, or "not finished"), for the first kPrintedFlows flows and one
     * line counting the rest, and RdmaHelper::PrintFctSummary.
     * \param os where
     */
    void PrintFlows(std::ostream& os) const;

    /**
     * Write one line per finished flow, in the order they finished (ties in
     * file order), in the column layout of the HPCC family's fct.txt:
     *   sip dip sport dport size start_ns fct_ns standalone_fct_ns
     * (see WriteFctLine) with their source ports (HpccSourcePorts) and
     * their standalone FCT (tagger::HpccStandaloneFctNs) of this module's
     * packets: PayloadSize bytes of payload and 58 header bytes each
     * (RoCEv2 and Ethernet).  Unfinished flows are not written.
     * \param out where
     */
    void WriteFct(std::ostream& out) const;

    /**
     * Write the network and flows in the HPCC formats (ExportScenario, the
     * first line in the layout of the topology file read).
     * \param topologyOut the topology file \param flowOut the flow file
     */
    void Export(std::ostream& topologyOut, std::ostream& flowOut) const;
    /// Export into \p dir/topology.txt and \p dir/flow.txt (ExportScenario). \param dir where
    void Export(const std::string& dir) const;

    /**
     * Write one FCT line (with newline): the HPCC-style addresses of the
     * source and destination nodes (HpccNodeAddress) as 8 hex digits, \p sport,
     * \p dport, the size in bytes, the start time, the FCT and the record's
     * ideal FCT (this module's: RdmaHelper), all three in whole nanoseconds.
     * \param out where \param record a finished flow
     * \param src its source node id \param dst its destination node id
     * \param sport the source port written (HpccSourcePorts)
     * \param dport the flow file's destination port
     */
    static void WriteFctLine(std::ostream& out,
                             const RdmaFlowRecord& record,
                             tagger::NodeId src,
                             tagger::NodeId dst,
                             uint32_t sport,
                             uint32_t dport);

    /// The first source port HPCC-family simulators give a host's flows.
    static constexpr uint32_t kHpccFirstSourcePort = 10000;

    /**
     * The source ports HPCC-family simulators give flows, which their fct.txt
     * shows: each (source, destination) pair counts its flows in file order
     * from kHpccFirstSourcePort.  (The NICs here use their own UDP source ports;
     * the FCT file writes these so that a user's scripts find the flows.)
     * \param flows the flows, file order \return one port per flow
     */
    static std::vector<uint32_t> HpccSourcePorts(const std::vector<tagger::HpccFlow>& flows);

    /**
     * From now on write a line to \p out for every class of every PFC frame
     * a device receives, in the layout of the HPCC family's pfc.txt:
     *   time_ns node_id node_type if_index type
     * node_type 0 for a host, 1 for a switch; if_index port + 1 (their
     * devices count from 1, after the loopback); type 1 for a pause (quanta >
     * 0), 0 for a resume.  Call after Build(); \p out must outlive the run.
     * \param out where
     */
    void EnablePfcFile(std::ostream& out);

    /**
     * The address HPCC-family simulators give node \p node:
     * 11.0.0.1 + (node / 256) * 2^16 + (node % 256) * 2^8, so that
     * (address >> 8) & 0xffff is the node id (for ids below 65536).
     * \param node a node id \return its HPCC-style address
     */
    static Ipv4Address HpccNodeAddress(tagger::NodeId node);

    /// \param priority a flow file priority (0..7) \return its DSCP (8 * priority)
    static uint8_t PriorityToDscp(uint32_t priority);

    /// \param link a topology file link \return the same rate, delay and error rate
    static PfcLinkProperties ToLinkProperties(const tagger::HpccLink& link);
    /// \param link a link of a network \return the same rate, delay (seconds) and error rate
    static tagger::HpccLink ToHpccLink(const PfcLinkProperties& link);

    /**
     * Flows of this module's workloads (host indices of \p net) as HPCC flows.
     * \param net the network \param flows the flows
     * \param dport the destination port written for every flow
     * \return one per flow: node ids, priority DSCP >> 3, the size and start (seconds)
     */
    static std::vector<tagger::HpccFlow> ToHpccFlows(const PfcTopologyHelper& net,
                                                     const std::vector<GeneratedFlow>& flows,
                                                     uint32_t dport = 100);

    /**
     * Write a built network and flows in the HPCC formats, so that reading
     * them back (ReadHpccTopology, ReadHpccFlows) gives the same nodes,
     * switches, ports, link properties and flows: the topology with
     * PfcTopologyHelper::GetLinkProperties() (node ids, no names), then the
     * flows.  NS_FATAL_ERROR when the topology cannot be written
     * (tagger::WriteHpccTopology's faults) or a flow is out of range.
     * \param net the network (built) \param flows its flows (node ids of net's topology)
     * \param topologyOut the topology file \param flowOut the flow file
     * \param layout a topology file read, whose first line's layout (tagger::HpccHeader,
     * ToR count, capacities) is written; nullptr: "N S L"
     */
    static void ExportScenario(const PfcTopologyHelper& net,
                               const std::vector<tagger::HpccFlow>& flows,
                               std::ostream& topologyOut,
                               std::ostream& flowOut,
                               const tagger::HpccTopology* layout = nullptr);

    /**
     * ExportScenario into \p dir/topology.txt and \p dir/flow.txt (the
     * directory must exist).  NS_FATAL_ERROR naming the file when one
     * cannot be written.
     * \param dir the directory \param net the network (built) \param flows its flows
     * \param layout as in the other ExportScenario
     */
    static void ExportScenario(const std::string& dir,
                               const PfcTopologyHelper& net,
                               const std::vector<tagger::HpccFlow>& flows,
                               const tagger::HpccTopology* layout = nullptr);

  private:
    /// Where a device's PFC lines go (EnablePfcFile).
    struct PfcFileSite
    {
        std::ostream* out; //!< the file
        uint32_t node;     //!< topology node id
        uint32_t type;     //!< 0 host, 1 switch
        uint32_t ifIndex;  //!< port + 1
    };

    /// PfcRx sink: \param site the device \param frame the PFC frame received
    static void WritePfcLine(PfcFileSite* site, const PfcHeader& frame);

    std::deque<PfcFileSite> m_pfcSites;       //!< EnablePfcFile's sites (stable addresses)
    tagger::HpccTopology m_topology;          //!< the topology file
    std::vector<tagger::HpccFlow> m_flows;    //!< the flows, file order
    std::unique_ptr<PfcTopologyHelper> m_net; //!< the network
    RdmaHelper m_rdma;                        //!< the NICs
    std::vector<uint32_t> m_hostIndex;        //!< per node id: host index (kNone: switch)
    std::vector<std::pair<uint32_t, uint32_t>> m_flowIds; //!< per flow: (src host, NIC flow id)
};

} // namespace ns3

#endif /* HPCC_SCENARIO_HELPER_H */
