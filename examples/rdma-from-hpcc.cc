/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * rdma-from-hpcc: an HPCC-family topology file and flow file (HPCC, ConWeave,
 * ns3-datacenter) run on this module's PFC switches and RoCEv2 NICs.
 *
 * Links keep the file's rate, delay and error rate; priority p is class p
 * (DSCP 8p; classes 1..7 lossless); PFC, DCQCN, the MMU and the deadlock
 * oracle run as in rdma-incast (--ns3::RdmaNic::AckInterval=4 and the like
 * set attributes).  Start times are absolute; the run ends when every flow
 * is done or at --stop-ms.  Prints per-flow FCTs, writes FCTs in HPCC's
 * layout (--fct), flow records (--csv), the network and flows in the HPCC
 * formats (--export=DIR: DIR/topology.txt, DIR/flow.txt) and ends with
 *   RESULT flows=<n> completed=<n> lossless_drops=<n> pauses=<n> last_fct_us=<x>
 */

#include "ns3/core-module.h"
#include "ns3/hpcc-scenario-helper.h"
#include "ns3/network-module.h"
#include "ns3/pfc-deadlock-oracle.h"
#include "ns3/pfc-stats-helper.h"
#include "ns3/tagger-command-line.h"

#include <fstream>
#include <iomanip>
#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    std::string topologyFile; // default: the k = 4 fat tree of data/
    std::string flowFile;     // default: the 15-to-1 incast of data/
    double stopMs = 3000;
    bool pfc = true;
    bool dcqcn = true;
    std::string fct;
    std::string csv;
    std::string exportDir;
    TaggerCommandLine cmd("rdma-from-hpcc", __FILE__);
    cmd.AddInputFile("topology-file", "HPCC topology file (default: data/ fat tree)", topologyFile);
    cmd.AddInputFile("flow-file", "HPCC flow file (default: data/ incast)", flowFile);
    cmd.AddMilliSeconds("stop-ms", "simulated time limit (ms from 0)", stopMs, 0.001);
    cmd.AddBool("pfc", "PFC on (classes 1..7 lossless) or off (every class lossy)", pfc);
    cmd.AddBool("dcqcn", "DCQCN congestion control on or off (line rate)", dcqcn);
    cmd.AddOutputFile("fct", "FCT file in HPCC's layout", fct);
    cmd.AddOutputFile("csv", "flow records file (this module's columns)", csv);
    cmd.AddOutputPrefix("export",
                        "directory for topology.txt, flow.txt",
                        exportDir,
                        {"/topology.txt", "/flow.txt"});
    cmd.Parse(argc, argv);
    std::ofstream fctFile;
    std::ofstream csvFile;
    cmd.OpenOutput("fct", fct.empty() ? "/dev/null" : fct, fctFile);
    cmd.OpenOutput("csv", csv.empty() ? "/dev/null" : csv, csvFile);
    topologyFile = topologyFile.empty() ? FindTaggerDataFile("hpcc-fat-tree-k4.txt") : topologyFile;
    flowFile = flowFile.empty() ? FindTaggerDataFile("hpcc-incast-flows.txt") : flowFile;
    tagger::HpccTopology topology;
    std::vector<tagger::HpccFlow> flows;
    std::string flag = "topology-file"; // the file being read
    try
    {
        topology = HpccScenarioHelper::ReadTopologyFile(topologyFile);
        flag = "flow-file";
        flows = HpccScenarioHelper::ReadFlowFile(flowFile, topology);
    }
    catch (const tagger::TaggerError& e)
    {
        cmd.Fail(flag, flag == "flow-file" ? flowFile : topologyFile, e.what());
    }

    HpccScenarioHelper scenario(topology, flows);
    if (!pfc)
    {
        scenario.GetNetwork().GetPfcHelper().SetMmuAttribute("LosslessClasses", UintegerValue(0));
    }
    scenario.GetRdma().SetNicAttribute("Dcqcn", BooleanValue(dcqcn));
    scenario.Build();
    PfcTopologyHelper& net = scenario.GetNetwork();
    std::cout << "rdma-from-hpcc: " << topologyFile << " (" << net.GetNHosts() << " hosts, "
              << net.GetSwitches().GetN() << " switches), " << flowFile << " (" << flows.size()
              << " flows), PFC " << (pfc ? "on" : "off") << ", DCQCN " << (dcqcn ? "on" : "off")
              << ", stop at " << stopMs << " ms" << std::endl;
    if (!exportDir.empty())
    {
        scenario.Export(exportDir);
    }

    // The oracle watches from the first start on; the run ends when every flow is done.
    Time stop = TaggerCommandLine::MilliSecondsToTime(stopMs);
    Ptr<PfcDeadlockOracle> oracle = CreateObject<PfcDeadlockOracle>();
    oracle->AddSwitches(net.GetSwitches());
    oracle->Start(std::min(scenario.GetFirstStart(), stop), stop);
    scenario.GetRdma().StopWhenDone(scenario.GetLastStart(), MicroSeconds(100), "rdma-from-hpcc");
    Simulator::Stop(stop);
    Simulator::Run();

    PfcStatsHelper stats(net);
    scenario.PrintFlows(std::cout);
    std::cout << "drops " << stats.GetDropCount() << " (link-error "
              << stats.GetDropCount(PfcDropReason::LINK_ERROR) << "), retransmitted "
              << scenario.GetRdma().GetRetransmittedPackets() << "\n";
    oracle->PrintSummary(std::cout);
    scenario.WriteFct(fctFile);
    scenario.GetRdma().WriteFlowRecords(csvFile);
    cmd.CloseOutput("fct", fct, fctFile);
    cmd.CloseOutput("csv", csv, csvFile);
    std::cout << "RESULT flows=" << flows.size() << " completed=" << scenario.GetCompletedFlows()
              << " lossless_drops=" << stats.GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW)
              << " pauses=" << stats.GetPauseCount() << " last_fct_us=" << std::fixed
              << std::setprecision(3) << scenario.GetLastFct().GetNanoSeconds() / 1000.0
              << std::endl;
    Simulator::Destroy();
    return 0;
}
