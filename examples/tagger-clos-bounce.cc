/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * tagger-clos-bounce: the deadlock of paper 001, Figs. 3 and 10, and how
 * Tagger (and the TTL scheme of paper 002) prevent it.
 *
 * The paper's Clos testbed (Fig. 2: T1-T4, L1-L4, S1-S2, H1-H16, 40 Gbps).
 * Links L2-T1 and L3-T4 are down, so two RoCE flows take 1-bounce paths,
 * pinned as in Fig. 3:
 *   blue  H5 -> H13: T2-L2-S1-L3-S2-L4-T4, starts first;
 *   green H9 -> H1:  T3-L3-S2-L2-S1-L1-T1, starts --green-start-ms later.
 * They share L2->S1 and L3->S2, and their buffers depend on each other in a
 * cycle (L2 -> S1 -> L3 -> S2 -> L2).  With plain PFC the cycle deadlocks:
 * both rates fall to 0 and stay there, and after the senders stop the
 * buffers never drain.  With Tagger (ELP: shortest and 1-bounce paths, two
 * lossless tags) the bounce moves packets to the next tag's queue and the
 * cycle is broken; in TTL mode every hop is its own class.
 *
 * Time is scaled: milliseconds instead of the testbed's seconds.
 * Writes <out>-rate.dat and <out>-rate.plt (gnuplot) with both flows'
 * rates, and ends with
 *   RESULT deadlock=<yes|no> lossless_drops=<n> pauses=<n> blue_gbps=<x>
 *          green_gbps=<y> undrained_bytes=<n> classes=<k>
 */

#include "ns3/core-module.h"
#include "ns3/gnuplot.h"
#include "ns3/network-module.h"
#include "ns3/pfc-deadlock-oracle.h"
#include "ns3/rdma-helper.h"
#include "ns3/tagger-helper.h"
#include "ns3/tagger-topology-generators.h"

#include <fstream>
#include <iomanip>
#include <iostream>

using namespace ns3;

namespace
{

/// Samples the acknowledged bytes of the two flows into rate series.
struct RateSampler
{
    RdmaHelper* rdma;               //!< the NICs
    uint32_t blueHost;              //!< blue sender host index
    uint32_t blueFlow;              //!< its flow id
    uint32_t greenHost;             //!< green sender host index
    uint32_t greenFlow;             //!< its flow id
    uint64_t blueLast = 0;          //!< acked bytes at the last sample
    uint64_t greenLast = 0;         //!< acked bytes at the last sample
    Time interval;                  //!< sampling period
    Time stop;                      //!< last sample
    Gnuplot2dDataset blue;          //!< blue rate (Gbps)
    Gnuplot2dDataset green;         //!< green rate (Gbps)
    std::ofstream dat;              //!< the .dat file
    std::vector<double> blueRates;  //!< every blue sample
    std::vector<double> greenRates; //!< every green sample

    void Sample()
    {
        uint64_t b = rdma->GetNic(blueHost)->GetAckedBytes(blueFlow);
        uint64_t g = rdma->GetNic(greenHost)->GetAckedBytes(greenFlow);
        double s = interval.GetSeconds();
        double bg = (b - blueLast) * 8 / s / 1e9;
        double gg = (g - greenLast) * 8 / s / 1e9;
        blueLast = b;
        greenLast = g;
        double ms = Simulator::Now().GetMicroSeconds() / 1000.0;
        blue.Add(ms, bg);
        green.Add(ms, gg);
        blueRates.push_back(bg);
        greenRates.push_back(gg);
        dat << ms << " " << bg << " " << gg << "\n";
        if (Simulator::Now() + interval <= stop)
        {
            Simulator::Schedule(interval, &RateSampler::Sample, this);
        }
    }

    /// \param v samples \param n how many of the last to average \return their mean
    static double Tail(const std::vector<double>& v, std::size_t n)
    {
        n = std::min(n, v.size());
        double sum = 0;
        for (std::size_t i = v.size() - n; i < v.size(); ++i)
        {
            sum += v[i];
        }
        return n > 0 ? sum / n : 0;
    }
};

} // namespace

int
main(int argc, char* argv[])
{
    int tagger = 0;
    std::string mode;
    bool dcqcn = false;
    bool cross = true;
    uint32_t xoff = 50000;
    uint32_t xon = 5000;
    std::string rate = "40Gbps";
    std::string delay = "1us";
    double greenStartMs = 1;
    double stopMs = 6;
    double drainMs = 10;
    std::string rulesFile;
    std::string out = "tagger-clos-bounce";

    CommandLine cmd(__FILE__);
    cmd.AddValue("tagger", "1: Tagger rules (shortest + 1-bounce ELP); 0: plain PFC", tagger);
    cmd.AddValue("mode", "pfc, tagger or ttl (overrides --tagger)", mode);
    cmd.AddValue("dcqcn", "DCQCN on the RoCE NICs", dcqcn);
    cmd.AddValue("cross", "also H2 -> H1 and H14 -> H13 (busy receivers)", cross);
    cmd.AddValue("xoff", "static PFC Xoff per ingress queue (bytes of shared buffer)", xoff);
    cmd.AddValue("xon", "static PFC Xon per ingress queue (bytes)", xon);
    cmd.AddValue("rate", "link rate", rate);
    cmd.AddValue("delay", "link propagation delay", delay);
    cmd.AddValue("green-start-ms", "when the green flow starts (ms)", greenStartMs);
    cmd.AddValue("stop-ms", "when both senders stop (ms)", stopMs);
    cmd.AddValue("drain-ms", "time after the stop to let buffers drain (ms)", drainMs);
    cmd.AddValue("rules", "tagger-rules JSON file to install instead of computing rules", rulesFile);
    cmd.AddValue("out", "prefix of the .dat and .plt files", out);
    cmd.Parse(argc, argv);

    if (mode.empty())
    {
        mode = tagger ? "tagger" : "pfc";
    }
    if (mode != "pfc" && mode != "tagger" && mode != "ttl")
    {
        std::cerr << "tagger-clos-bounce: --mode must be pfc, tagger or ttl, not '" << mode
                  << "'\n";
        return 2;
    }
    if (xon >= xoff)
    {
        std::cerr << "tagger-clos-bounce: --xon (" << xon << ") must be below --xoff (" << xoff
                  << ")\n";
        return 2;
    }
    if (!(greenStartMs >= 0 && stopMs > greenStartMs && drainMs > 0))
    {
        std::cerr << "tagger-clos-bounce: need 0 <= --green-start-ms < --stop-ms and "
                     "--drain-ms > 0\n";
        return 2;
    }

    tagger::Topology topo = tagger::MakeClos(tagger::PaperTestbedClos());
    PfcTopologyHelper net(topo);
    net.GetPfcHelper().SetDeviceAttribute("DataRate", StringValue(rate));
    net.GetPfcHelper().SetChannelAttribute("Delay", StringValue(delay));
    // Round robin between classes, as commodity switches serve lossless
    // queues: with strict priority, the flow on the higher tag would starve
    // the other where they share a link.
    net.GetPfcHelper().SetScheduler("ns3::DwrrPfcScheduler");
    // Fixed PFC thresholds (Xoff 50 KB, Xon 5 KB per ingress queue), as a
    // switch configured with static Xoff/Xon; --ns3::SwitchMmu::... overrides.
    net.GetPfcHelper().SetMmuAttribute("ThresholdMode", StringValue("Static"));
    net.GetPfcHelper().SetMmuAttribute("StaticXoff", UintegerValue(xoff));
    net.GetPfcHelper().SetMmuAttribute("StaticXon", UintegerValue(xon));
    net.Build();

    // Fig. 3: two failed links, and the two 1-bounce paths pinned.
    net.FailLink("L2", "T1");
    net.FailLink("L3", "T4");
    const uint32_t h1 = 0;
    const uint32_t h5 = 4;
    const uint32_t h9 = 8;
    const uint32_t h13 = 12;
    net.PinPath({"T3", "L3", "S2", "L2", "S1", "L1", "T1"}, h1);
    net.PinPath({"T2", "L2", "S1", "L3", "S2", "L4", "T4"}, h13);

    uint8_t dscp = 24; // plain PFC: lossless class 3
    uint32_t classes = 1;
    RdmaHelper rdma;
    rdma.SetNicAttribute("Dcqcn", BooleanValue(dcqcn));
    if (mode == "tagger")
    {
        TaggerHelper taggerHelper;
        if (rulesFile.empty())
        {
            taggerHelper.Install(net, TaggerHelper::ComputeRules(topo, 1));
        }
        else
        {
            taggerHelper.InstallFromJson(net, rulesFile);
        }
        classes = taggerHelper.GetLosslessTags();
        dscp = 1; // hosts start at tag 1
    }
    else if (mode == "ttl")
    {
        // The longest legal path here is a pinned 1-bounce path: 7 switches.
        // (The library's full 1-bounce ELP also bounces at ToRs, 9 switches:
        // more than the 8 PFC classes allow.)
        uint8_t ttl0 = TtlHelper::Ttl0ForPath(7);
        TtlHelper::Install(net, ttl0);
        rdma.SetNicAttribute("Ttl", UintegerValue(ttl0));
        classes = ttl0 - 1;
        dscp = 0;
    }
    rdma.Install(net);

    Time start = MicroSeconds(10);
    Time greenStart = start + MicroSeconds(uint64_t(greenStartMs * 1000));
    Time stop = MicroSeconds(uint64_t(stopMs * 1000));
    Time end = stop + MicroSeconds(uint64_t(drainMs * 1000));
    const uint64_t huge = 1000000000; // longer than the run: the senders are stopped
    uint32_t blue = rdma.AddFlow(h5, h13, huge, start, dscp);
    uint32_t green = rdma.AddFlow(h9, h1, huge, greenStart, dscp);
    if (cross)
    {
        // Receivers that are busy too: H2 -> H1 and H14 -> H13 under the
        // same ToRs make T1->H1 and T4->H13 bottlenecks.
        rdma.AddFlow(1, h1, huge, start, dscp);
        rdma.AddFlow(13, h13, huge, start, dscp);
    }

    std::cout << "tagger-clos-bounce (paper 001, Figs. 3 and 10), mode " << mode << ", DCQCN "
              << (dcqcn ? "on" : "off") << ", " << rate << ", " << delay << "\n"
              << "  links L2-T1 and L3-T4 down; blue H5->H13 T2-L2-S1-L3-S2-L4-T4 from "
              << start.As(Time::MS) << ", green H9->H1 T3-L3-S2-L2-S1-L1-T1 from "
              << greenStart.As(Time::MS) << "\n"
              << "  senders stop at " << stop.As(Time::MS) << ", buffers checked at "
              << end.As(Time::MS) << " (time scaled to ms)\n"
              << "  lossless classes: " << classes << "\n";

    Ptr<PfcDeadlockOracle> oracle = CreateObject<PfcDeadlockOracle>();
    oracle->AddSwitches(net.GetSwitches());
    oracle->Start(MicroSeconds(20), stop);

    RateSampler sampler;
    sampler.rdma = &rdma;
    sampler.blueHost = h5;
    sampler.blueFlow = blue;
    sampler.greenHost = h9;
    sampler.greenFlow = green;
    sampler.interval = MicroSeconds(50);
    sampler.stop = stop;
    sampler.blue = Gnuplot2dDataset("blue H5->H13");
    sampler.green = Gnuplot2dDataset("green H9->H1");
    sampler.blue.SetStyle(Gnuplot2dDataset::LINES);
    sampler.green.SetStyle(Gnuplot2dDataset::LINES);
    sampler.dat.open(out + "-rate.dat");
    sampler.dat << "# time_ms blue_gbps green_gbps (mode " << mode << ")\n";
    Simulator::Schedule(sampler.interval, &RateSampler::Sample, &sampler);

    // The drain test of paper 002: stop the senders, then look at the buffers.
    Simulator::Schedule(stop, [&rdma]() {
        for (uint32_t h = 0; h < rdma.GetNHosts(); ++h)
        {
            rdma.GetNic(h)->StopFlows();
        }
    });
    Simulator::Stop(end);
    Simulator::Run();

    uint64_t undrained = net.GetLosslessBytes();
    std::size_t last = 20; // the last 1 ms of samples before the stop
    double blueGbps = RateSampler::Tail(sampler.blueRates, last);
    double greenGbps = RateSampler::Tail(sampler.greenRates, last);
    net.PrintSwitchCounters(std::cout);
    oracle->PrintSummary(std::cout);
    std::cout << std::fixed << std::setprecision(3) << "rates over the last ms before the stop: blue "
              << blueGbps << " Gbps, green " << greenGbps << " Gbps\n"
              << "lossless bytes still buffered " << drainMs << " ms after the senders stopped: "
              << undrained << "\n";

    Gnuplot plot(out + "-rate.png");
    plot.SetTitle("tagger-clos-bounce, mode " + mode);
    plot.SetTerminal("png");
    plot.SetLegend("time (ms)", "rate (Gbps)");
    plot.AddDataset(sampler.blue);
    plot.AddDataset(sampler.green);
    std::ofstream plt(out + "-rate.plt");
    plot.GenerateOutput(plt);
    std::cout << "wrote " << out << "-rate.dat and " << out << "-rate.plt\n";

    bool deadlock = oracle->HasDeadlock() || undrained > 0;
    std::cout << "RESULT deadlock=" << (deadlock ? "yes" : "no")
              << " lossless_drops=" << net.GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW)
              << " pauses=" << net.GetPauseCount() << " blue_gbps=" << blueGbps
              << " green_gbps=" << greenGbps << " undrained_bytes=" << undrained
              << " classes=" << classes << std::endl;
    Simulator::Destroy();
    return 0;
}
