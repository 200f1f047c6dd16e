/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * itsy-deadlock: ITSY's evaluation (ITSY, Sec. V) on a k = 4 fat tree.
 * Pod 0's loop T1 -> L1 -> T2 -> L2 -> T1 carries bounced flows (the routes
 * a local reroute around failed links installs); the scenarios put the
 * initial trigger on the loop (Fig. 2), off it (Fig. 3: a 1 Gbps receiver
 * behind T8), at a slow host (storm: the Fig. 5 server, its NIC draining at
 * 1 Gbps), make a pause episode that ends (transient: that NIC at 2 Gbps
 * until 800 us; a causality loop closes and resumes before its temporal
 * check passes), or converge two pauses of one trigger without a loop
 * (no-loop, Fig. 4);
 * fuzz draws a network and flows from --seed.  The deadlock oracle gives
 * the formation time; ITSY's declaration time and the detection delay are
 * printed beside it (the paper: 0.8 ms on the loop, 1.4 ms off it, on BMv2
 * software switches).  --recovery: none, break (drop the loop queue of the
 * declaring switch), trigger (break, and the initial trigger's class turns
 * lossy) or watchdog (the PFC watchdog operators run: a queue paused 200 us
 * with frames is flushed and drops its new frames until 1 ms without a
 * PAUSE; ITSY then only detects).  Writes <out>-rate.dat/.plt (delivered Gbps per flow) and ends
 * with RESULT oracle_deadlock=<yes|no> itsy_declared=<yes|no> detection_us=<x|->
 *          trigger=<node:port|-> recurrences=<n> formation_us=<x|->
 *          recovery_drops=<n> false_positives=<n> false_negatives=<n>
 *          watchdog_us=<x|-> watchdog_storms=<n> watchdog_drops=<n>
 *          loops_detected=<n> temporal_rejected=<n> end_cycles=<n> nic_drops=<n>
 */

#include "ns3/core-module.h"
#include "ns3/itsy-experiment.h"
#include "ns3/tagger-command-line.h"

#include <fstream>
#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    ItsyExperimentConfig cfg;
    double probeUs = 100;
    double stopMs = 3;
    std::string out = "itsy-deadlock";
    TaggerCommandLine cmd("itsy-deadlock", __FILE__);
    cmd.AddChoice("scenario",
                  "where the initial trigger is",
                  cfg.scenario,
                  {"on-loop", "out-of-loop", "no-loop", "transient", "storm", "fuzz"});
    cmd.AddChoice("recovery",
                  "what a declaration does, or the PFC watchdog instead",
                  cfg.recovery,
                  {"none", "break", "trigger", "watchdog"});
    cmd.AddBool("itsy", "ITSY on", cfg.itsy);
    cmd.AddBool("tagger",
                "Tagger on (1-bounce ELP: the bounced flows are lossless, no loop)",
                cfg.tagger);
    cmd.AddDouble("probe-us", "ITSY probe interval (us)", probeUs, 1, 10000);
    cmd.AddTime("delay", "link propagation delay (e.g. 1us)", cfg.delay);
    cmd.AddMilliSeconds("stop-ms",
                        "run length (ms); the senders stop 1 ms earlier",
                        stopMs,
                        1.5,
                        100);
    cmd.AddInteger("seed", "fuzz scenario: the random network and flows", cfg.seed, 1, 1000000);
    cmd.AddOutputPrefix("out", "prefix of the rate files", out, {"-rate.dat", "-rate.plt"});
    cmd.AddOutputPrefix("pcap",
                        "if set, pcap prefix for L1's ports (Ethernet link type)",
                        cfg.pcap,
                        {"-L1-port0.pcap"});
    cmd.Parse(argc, argv);
    if (!cfg.itsy && (cfg.recovery == "break" || cfg.recovery == "trigger"))
    {
        cmd.Fail("recovery", cfg.recovery, "is ITSY's recovery: it needs --itsy=true");
    }
    std::ofstream dat;
    std::ofstream plt;
    cmd.OpenOutput("out", out + "-rate.dat", dat, out);
    cmd.OpenOutput("out", out + "-rate.plt", plt, out);
    cfg.probeInterval = NanoSeconds(int64_t(probeUs * 1000));
    cfg.stop = NanoSeconds(int64_t(stopMs * 1e6));
    cfg.flowsStop = cfg.stop - MilliSeconds(1);

    ItsyExperimentResult r = ItsyExperiment::Run(cfg);
    ItsyExperiment::PrintSummary(std::cout, r);
    ItsyExperiment::WriteRates(r, out, dat, plt);
    cmd.CloseOutput("out", out + "-rate.dat", dat, out);
    cmd.CloseOutput("out", out + "-rate.plt", plt, out);
    std::cout << "wrote " << out << "-rate.dat and " << out << "-rate.plt\n";
    ItsyExperiment::PrintResultLine(std::cout, cfg, r);
    return 0;
}
