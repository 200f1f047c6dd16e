/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef RDMA_HELPER_H
#define RDMA_HELPER_H

#include "pfc-topology-helper.h"

#include "ns3/object-factory.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-workload.h"

#include <chrono>
#include <ostream>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup tagger
 * Install RoCEv2 NIC engines on hosts and start flows.
 */

namespace ns3
{

/**
 * \ingroup tagger
 * Puts an RdmaNic on every host of a PfcTopologyHelper network and starts
 * flows between hosts by index.  On a relay server (BCube) the NIC drives the
 * server's forwarding engine (RdmaNic::Attach for a PfcSwitchNetDevice).
 *
 * \code
 *   PfcTopologyHelper net(topology);
 *   net.Build();
 *   RdmaHelper rdma;
 *   rdma.SetNicAttribute("Dcqcn", BooleanValue(true));
 *   rdma.Install(net);
 *   rdma.AddFlow(1, 0, 1000000, MicroSeconds(10));  // host 1 -> host 0, 1 MB
 *   Simulator::Run();
 *   rdma.WriteFlowRecords("flows.csv");
 * \endcode
 *
 * The ideal completion time of a flow (for its slowdown) is taken along one
 * shortest path (the first a breadth-first search from the source finds, in
 * neighbour order): its frames serialised at the slowest link's rate, plus,
 * for the first packet, the store-and-forward serialisation at every other
 * link, plus the propagation delay of every link.  With links all alike that
 * is the frames at the line rate, one store-and-forward per forwarder
 * (switch or relay server) and the delays; with mixed rates ECMP may send a
 * flow along another shortest path, slower or faster.
 */
class RdmaHelper
{
  public:
    RdmaHelper();

    /// Set an attribute of every RdmaNic installed. \param name n \param value v
    void SetNicAttribute(std::string name, const AttributeValue& value);

    /**
     * The congestion control of every RdmaNic installed, by the name programs'
     * --cc flag takes (RdmaNic's CongestionControl attribute).
     * \param name dcqcn, dctcp, timely or none (anything else aborts, naming it)
     */
    void SetCongestionControl(const std::string& name);
    /// \return the names SetCongestionControl takes, in the order to show them
    static std::vector<std::string> GetCongestionControlNames();
    /// \param name a name of GetCongestionControlNames \return its policy's type
    static TypeId GetCongestionControlType(const std::string& name);
    /// \return the name of the policy the installed NICs run ("dcqcn", "hpcc", ...; "" before
    /// Install)
    std::string GetCongestionControlName() const;

    /**
     * Install an RdmaNic on every host of \p net (built).  When their congestion
     * control reads in-band telemetry (HPCC: RdmaCongestionControl::WantsInt),
     * it also turns PfcSwitchNetDevice::Int on in every forwarder of \p net.
     * \param net the network
     */
    void Install(const PfcTopologyHelper& net);

    /// \param host host index \return its NIC
    Ptr<RdmaNic> GetNic(uint32_t host) const;
    uint32_t GetNHosts() const; //!< \return hosts with a NIC

    /**
     * Start a flow.
     * \param src sending host index \param dst receiving host index
     * \param bytes message size \param start absolute start time
     * \param dscp DSCP of its packets (class = DSCP >> 3 by default; 24 = class 3)
     * \param sport its UDP source port (0: the NIC's next, from 49152 up); flows
     *        may share a port (receivers tell them apart by QP number)
     * \return the flow id on the sender's NIC
     */
    uint32_t AddFlow(uint32_t src,
                     uint32_t dst,
                     uint64_t bytes,
                     Time start,
                     uint8_t dscp = 24,
                     uint16_t sport = 0);
    /// Start generated or replayed flows. \param flows the flows
    void AddFlows(const std::vector<GeneratedFlow>& flows);

    /// \return the records of every flow, host by host
    std::vector<RdmaFlowRecord> GetFlowRecords() const;
    /// Write every flow record as CSV (RdmaFlowRecord::CsvHeader). \param path the file
    void WriteFlowRecords(const std::string& path) const;
    /// Write every flow record as CSV to \p out (the caller checks the stream). \param out where
    void WriteFlowRecords(std::ostream& out) const;
    uint64_t GetRetransmittedPackets() const; //!< \return over all NICs
    uint64_t GetTimeouts() const;             //!< \return over all NICs
    uint64_t GetCnps() const;                 //!< \return CNPs received, over all NICs
    uint64_t GetBytesDelivered() const;       //!< \return in-order payload bytes, all NICs
    uint32_t GetActiveFlows() const;          //!< \return flows started and not finished

    /**
     * Stop the simulation once \p notBefore has passed and no flow is
     * active (GetActiveFlows() == 0), checked every \p period from now on:
     * pass the start time of the last flow as \p notBefore.  Call once.
     * \param notBefore no stop before this time (absolute)
     * \param period how often to check (simulated time, > 0)
     * \param progress if not empty, the first word of a progress line on
     *        stderr (simulated time, flows finished of added) at most every
     *        10 s of wall-clock time
     */
    void StopWhenDone(Time notBefore, Time period = MicroSeconds(100), std::string progress = "");

    /**
     * Print completed / total flows and FCT and slowdown statistics (mean,
     * median, 95th and 99th percentile) of the completed ones.
     * \param os stream \param records the flows
     */
    static void PrintFctSummary(std::ostream& os, const std::vector<RdmaFlowRecord>& records);

  private:
    /// \param net the network: Int on its forwarders when the NICs want telemetry
    void EnableTelemetry(const PfcTopologyHelper& net) const;

    /// \param src host \param dst host \return the ideal FCT of \p bytes (class comment)
    Time IdealFct(uint32_t src, uint32_t dst, uint64_t bytes) const;
    /// \param src host \param dst host \return the sending device of each hop of
    /// the shortest path IdealFct uses (NS_FATAL_ERROR when there is none)
    std::vector<Ptr<PfcNetDevice>> PathDevices(uint32_t src, uint32_t dst) const;
    /// StopWhenDone's check: stop now, or check again a period later.
    void CheckDone();

    ObjectFactory m_nicFactory;       //!< RdmaNic factory
    const PfcTopologyHelper* m_net;   //!< the network
    std::vector<Ptr<RdmaNic>> m_nics; //!< per host index
    /// [search root: a ToR, or a host that relays or has several links] -> BFS
    /// parent of each node (kNone: not reached), filled on first use
    mutable std::vector<std::vector<tagger::NodeId>> m_parents;
    uint64_t m_flowsAdded;                                //!< flows added (AddFlow)
    Time m_doneNotBefore;                                 //!< StopWhenDone's notBefore
    Time m_donePeriod;                                    //!< StopWhenDone's period
    std::string m_progress;                               //!< StopWhenDone's progress label
    std::chrono::steady_clock::time_point m_lastProgress; //!< last progress line (wall clock)
};

} // namespace ns3

#endif /* RDMA_HELPER_H */
