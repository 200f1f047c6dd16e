/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * rdma-from-hpcc: an HPCC-family run (HPCC, ConWeave, ns3-datacenter) on this
 * module's PFC switches and RoCEv2 NICs: their config file (--config: the
 * files it names, DCQCN and switch keys as attributes; HpccConfigHelper), or
 * a topology file and flow file alone.  Flags and --ns3:: attributes given
 * on the command line win over the config.
 *
 * Links keep the file's rate, delay and error rate; priority p is class p
 * (DSCP 8p; classes 1..7 lossless); PFC, DCQCN, the MMU and the deadlock
 * oracle run as in rdma-incast (--ns3::RdmaNic::AckInterval=4 and the like
 * set attributes).  Start times are absolute; the run ends when every flow
 * is done or at --stop-ms.  Prints per-flow FCTs, writes FCTs in HPCC's
 * layout (--fct), PFC frames in HPCC's pfc.txt layout (--pfc-file), flow
 * records (--csv), the network and flows in the HPCC
 * formats (--export=DIR: DIR/topology.txt, DIR/flow.txt) and ends with
 *   RESULT flows=<n> completed=<n> lossless_drops=<n> pauses=<n> last_fct_us=<x>
 */

#include "ns3/core-module.h"
#include "ns3/hpcc-config-helper.h"
#include "ns3/hpcc-scenario-helper.h"
#include "ns3/network-module.h"
#include "ns3/pfc-deadlock-oracle.h"
#include "ns3/pfc-stats-helper.h"
#include "ns3/rdma-packet-account.h"
#include "ns3/tagger-command-line.h"

#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

using namespace ns3;

namespace
{

/// The command line and the files it names.
struct HpccOptions
{
    std::string configFile;              //!< --config
    std::string topologyFile;            //!< --topology-file (default: the k = 4 fat tree of data/)
    std::string flowFile;                //!< --flow-file (default: the 15-to-1 incast of data/)
    double stopMs = 3000;                //!< --stop-ms
    bool pfc = true;                     //!< --pfc
    bool dcqcn = true;                   //!< --dcqcn
    std::string cc = "dcqcn";            //!< --cc
    bool strict = false;                 //!< --strict
    std::string fct;                     //!< --fct
    std::string pfcFile;                 //!< --pfc-file
    std::string csv;                     //!< --csv
    std::string exportDir;               //!< --export
    std::ofstream fctFile;               //!< the --fct file (/dev/null without one)
    std::ofstream pfcOut;                //!< the --pfc-file file (/dev/null without one)
    std::ofstream csvFile;               //!< the --csv file (/dev/null without one)
    tagger::HpccTopology topology;       //!< the topology file read
    std::vector<tagger::HpccFlow> flows; //!< the flow file read
    std::unique_ptr<HpccConfigHelper> config;          //!< the --config file read
    TaggerCommandLine cmd{"rdma-from-hpcc", __FILE__}; //!< the checked command line

    /// Parse the flags, open the outputs, read the files (exit code 2 on a fault).
    /// \param argc count \param argv values
    void Parse(int argc, char* argv[])
    {
        cmd.AddInputFile("config", "HPCC-family config file (config.txt)", configFile);
        cmd.AddInputFile("topology-file",
                         "HPCC topology file (default: data/ fat tree)",
                         topologyFile);
        cmd.AddInputFile("flow-file", "HPCC flow file (default: data/ incast)", flowFile);
        cmd.AddMilliSeconds("stop-ms", "simulated time limit (ms from 0)", stopMs, 0.001);
        cmd.AddBool("pfc", "PFC on (classes 1..7 lossless) or off (every class lossy)", pfc);
        cmd.AddBool("dcqcn", "DCQCN congestion control on or off (line rate)", dcqcn);
        cmd.AddChoice("cc", "congestion control", cc, RdmaHelper::GetCongestionControlNames());
        cmd.AddBool("strict", "refuse lines after the links or flows a file announces", strict);
        cmd.AddOutputFile("fct", "FCT file in HPCC's layout", fct);
        cmd.AddOutputFile("pfc-file", "PFC frames received, in HPCC's pfc.txt layout", pfcFile);
        cmd.AddOutputFile("csv", "flow records file (this module's columns)", csv);
        cmd.AddOutputPrefix("export",
                            "directory for topology.txt, flow.txt",
                            exportDir,
                            {"/topology.txt", "/flow.txt"});
        cmd.Parse(argc, argv);
        if (!configFile.empty())
        {
            TakeFromConfig();
        }
        cmd.OpenOutput("fct", fct.empty() ? "/dev/null" : fct, fctFile);
        cmd.OpenOutput("pfc-file", pfcFile.empty() ? "/dev/null" : pfcFile, pfcOut);
        cmd.OpenOutput("csv", csv.empty() ? "/dev/null" : csv, csvFile);
        topologyFile =
            topologyFile.empty() ? FindTaggerDataFile("hpcc-fat-tree-k4.txt") : topologyFile;
        flowFile = flowFile.empty() ? FindTaggerDataFile("hpcc-incast-flows.txt") : flowFile;
        std::string flag = "topology-file"; // the file being read
        try
        {
            topology = HpccScenarioHelper::ReadTopologyFile(topologyFile, strict);
            if (config)
            {
                flag = "config";
                config->ApplyErrorRate(topology);
                config->SetDefaults(topology);
                cmd.ReapplyAttributeArguments(); // the command line wins
                config->Print(std::cout);
            }
            flag = "flow-file";
            flows = HpccScenarioHelper::ReadFlowFile(flowFile, topology, strict);
        }
        catch (const tagger::TaggerError& e)
        {
            cmd.Fail(flag,
                     flag == "flow-file" ? flowFile
                                         : (flag == "config" ? configFile : topologyFile),
                     e.what());
        }
        cmd.CheckMemory("topology-file", topologyFile, topology.topo, 0);
        cmd.CheckMemory("flow-file", flowFile, topology.topo, flows.size());
    }

    /// Read --config; its files and stop time, where the command line gave none.
    void TakeFromConfig()
    {
        try
        {
            config = std::make_unique<HpccConfigHelper>(configFile);
            const std::string& warning = config->GetConfig().GetWarning();
            std::cerr << warning;

            struct FileKey
            {
                const char* flag;      //!< the flag
                const char* key;       //!< the config key
                std::string* variable; //!< the flag's variable
                bool input;            //!< an input (found) or an output (as written)
            };

            for (const FileKey& f : {FileKey{"topology-file", "TOPOLOGY_FILE", &topologyFile, true},
                                     FileKey{"flow-file", "FLOW_FILE", &flowFile, true},
                                     FileKey{"fct", "FCT_OUTPUT_FILE", &fct, false},
                                     FileKey{"pfc-file", "PFC_OUTPUT_FILE", &pfcFile, false}})
            {
                if (config->GetConfig().Has(f.key) && !cmd.WasGiven(f.flag))
                {
                    std::string path =
                        f.input ? config->FindInput(f.key) : config->GetOutput(f.key);
                    cmd.TakeFile(f.flag,
                                 path,
                                 "--config=" + configFile + ": " + config->Where(f.key),
                                 *f.variable);
                }
            }
            if (std::optional<Time> stop = config->GetStopTime(); stop && !cmd.WasGiven("stop-ms"))
            {
                stopMs = stop->GetSeconds() * 1000;
            }
        }
        catch (const tagger::TaggerError& e)
        {
            cmd.Fail("config", configFile, e.what());
        }
        cmd.CheckFileFlags(); // what the config names: readable, writable, apart
    }
};

} // namespace

int
main(int argc, char* argv[])
{
    HpccOptions opt;
    opt.Parse(argc, argv);
    HpccScenarioHelper scenario(opt.topology, opt.flows);
    if (!opt.pfc)
    {
        scenario.GetNetwork().GetPfcHelper().SetMmuAttribute("LosslessClasses", UintegerValue(0));
    }
    if (opt.cmd.WasGiven("cc")) // else the config's CC_MODE, or DCQCN
    {
        scenario.GetRdma().SetCongestionControl(opt.cc);
    }
    scenario.GetRdma().SetNicAttribute("Dcqcn", BooleanValue(opt.dcqcn));
    scenario.Build();
    if (opt.config)
    {
        opt.config->Configure(scenario); // ECN thresholds per link rate, LINK_DOWN
    }
    scenario.EnablePfcFile(opt.pfcOut);
    PfcTopologyHelper& net = scenario.GetNetwork();
    std::cout << "rdma-from-hpcc: " << opt.topologyFile << " (" << net.GetNHosts() << " hosts, "
              << net.GetSwitches().GetN() << " switches), " << opt.flowFile << " ("
              << opt.flows.size() << " flows), PFC " << (opt.pfc ? "on" : "off")
              << ", congestion control "
              << scenario.GetRdma().GetNic(0)->GetCongestionControl()->GetName() << ", stop at "
              << opt.stopMs << " ms" << std::endl;
    if (!opt.exportDir.empty())
    {
        scenario.Export(opt.exportDir);
    }

    // The oracle watches from the first start on; the run ends when every flow is done.
    Time stop = TaggerCommandLine::MilliSecondsToTime(opt.stopMs);
    Ptr<PfcDeadlockOracle> oracle = CreateObject<PfcDeadlockOracle>();
    oracle->AddSwitches(net.GetSwitches());
    oracle->Start(std::min(scenario.GetFirstStart(), stop), stop);
    scenario.GetRdma().StopWhenDone(scenario.GetLastStart(), MicroSeconds(100), "rdma-from-hpcc");
    RdmaPacketAccount account(net, scenario.GetRdma()); // where every data packet went
    Simulator::Stop(stop);
    Simulator::Run();

    PfcStatsHelper stats(net);
    scenario.PrintFlows(std::cout);
    stats.PrintDrops(std::cout);
    std::cout << "retransmitted " << scenario.GetRdma().GetRetransmittedPackets() << "\n";
    oracle->PrintSummary(std::cout);
    scenario.WriteFct(opt.fctFile);
    scenario.GetRdma().WriteFlowRecords(opt.csvFile);
    opt.cmd.CloseOutput("fct", opt.fct, opt.fctFile);
    opt.cmd.CloseOutput("pfc-file", opt.pfcFile, opt.pfcOut);
    opt.cmd.CloseOutput("csv", opt.csv, opt.csvFile);
    std::ostringstream result;
    result << "RESULT flows=" << opt.flows.size() << " completed=" << scenario.GetCompletedFlows()
           << " lossless_drops=" << stats.GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW)
           << " pauses=" << stats.GetPauseCount() << " last_fct_us=" << std::fixed
           << std::setprecision(3) << scenario.GetLastFct().GetNanoSeconds() / 1000.0;
    account.Settle(); // runs on after the stop: every result above is read
    account.Print(std::cout);
    std::cout << result.str() << std::endl;
    Simulator::Destroy();
    return 0;
}
