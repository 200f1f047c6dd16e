/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * tagger-web-search-loss: one cell of Tagger (ToN), Table VI.
 *
 * FatTree(k), a fraction of its switch links failed (local reroute); N senders under other
 * ToRs send RoCE flows (web-search or data-mining sizes, at --load of the destination's link)
 * to host 0, --arrivals=poisson (a uniform sender per flow) or incast (every sender per
 * arrival).  Mode roce: every class lossy (RoCE without PFC); tagger1 / tagger2: Tagger with
 * 1 / 2 lossless queues, bounced packets beyond them fall to the lossy queue.  DWRR, DCQCN,
 * go-back-N.  Prints the set-up, bounces, drops, the loss rate (lossy-queue drops over data
 * packets sent), pauses, FCTs, the deadlock verdict; ends RESULT loss_rate=<x> packets=<n> ...
 * stopped=<no|sent|time> (--max-sent ends a run in congestion collapse; figures so far).
 */

#include "ns3/core-module.h"
#include "ns3/rdma-helper.h"
#include "ns3/tagger-command-line.h"
#include "ns3/tagger-loss-experiment.h"

#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    TaggerLossConfig cfg;
    std::string mode = "roce";
    std::string workload = "websearch";
    std::string arrivals = "poisson";
    std::string offered = "fixed";
    double stopMs = 0;
    TaggerCommandLine cmd("tagger-web-search-loss", __FILE__);
    cmd.AddInteger("k", "FatTree port count (even)", cfg.k, 4, 16);
    cmd.AddDouble("failure-rate",
                  "switch link failure probability, in [0, 1)",
                  cfg.failureRate,
                  0,
                  1);
    cmd.AddInteger("senders",
                   "N of N-to-1 (hosts outside the destination's ToR)",
                   cfg.senders,
                   1,
                   TaggerCommandLine::kMaxHosts);
    cmd.AddChoice("mode", "roce, tagger1 or tagger2", mode, {"roce", "tagger1", "tagger2"});
    cmd.AddChoice("workload",
                  "flow sizes: websearch or datamining",
                  workload,
                  {"websearch", "datamining"});
    cmd.AddChoice("arrivals",
                  "poisson (a uniform sender per flow) or incast (every sender per arrival)",
                  arrivals,
                  {"poisson", "incast"});
    cmd.AddChoice("offered", "bytes: drawn, or fixed (the load's)", offered, {"drawn", "fixed"});
    cmd.AddDouble("load",
                  "average load of the destination's link (data frames, wire bytes), in (0, 1]",
                  cfg.load,
                  0,
                  1);
    cmd.AddInteger("seed", "failures and traffic (also ns-3's RngRun)", cfg.seed, 1, INT32_MAX);
    cmd.AddInteger("packets", "data packets the arrivals offer", cfg.packets, 1, 1000000000);
    cmd.AddMilliSeconds("stop-ms", "simulated-time limit (ms; 0: 3 x arrivals + 50 ms)", stopMs);
    cmd.AddInteger("max-sent",
                   "stop after N data packets sent, resends too (0: no)",
                   cfg.maxSent,
                   0,
                   INT64_MAX);
    cmd.AddDataRate("rate", "link rate", cfg.rate);
    double rtoMs = cfg.rto.GetSeconds() * 1000;
    cmd.AddMilliSeconds("rto-ms", "the NICs' retransmission timeout (ms)", rtoMs, 0.001);
    cmd.AddInteger("max-inflight", "bytes in flight per QP (0: any)", cfg.maxInflight, 0, 1 << 30);
    cmd.AddTime("delay", "link propagation delay", cfg.delay);
    cmd.AddBool("dcqcn", "DCQCN congestion control (false: --cc=none)", cfg.dcqcn);
    cmd.AddChoice("cc", "congestion control", cfg.cc, RdmaHelper::GetCongestionControlNames());
    cmd.AddBool("traces", "measure bounces from the switches' traces (off: model's)", cfg.traces);
    cmd.AddInteger("lossy-pool",
                   "switch lossy pool in bytes (0: the MMU default, 3 MiB)",
                   cfg.lossyPool,
                   0,
                   8 << 20);
    cmd.Parse(argc, argv);
    TaggerLossExperiment::FinishFlags(cmd, cfg, mode, workload, stopMs);
    if (!cmd.WasGiven("cc"))
    {
        cfg.cc.clear(); // RdmaNic's CongestionControl: DCQCN, or --ns3::RdmaNic::CongestionControl
    }
    cfg.synchronized = arrivals == "incast";
    cfg.fixedOffer = offered == "fixed";
    cfg.rto = NanoSeconds(int64_t(rtoMs * 1e6 + 0.5));
    cfg.progress = true;
    RngSeedManager::SetRun(cfg.seed);

    TaggerLossResult r = TaggerLossExperiment::Run(cfg);
    TaggerLossExperiment::PrintReport(std::cout, cfg, r);
    std::cout << "Tagger (ToN) Table VI, web search, 8/16/24-to-1: RoCE without PFC 1.25e-2 / "
                 "6.6e-2 / 1.27e-1; Tagger 1 lossless queue 0 / 6.87e-7 / 1.61e-6; 2 queues 0\n"
              << TaggerLossExperiment::FormatResult(r) << std::endl;
    return 0;
}
