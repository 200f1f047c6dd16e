/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef TAGGER_EXPERIMENT_COMMAND_LINE_H
#define TAGGER_EXPERIMENT_COMMAND_LINE_H

#include "tagger-command-line.h"
#include "tagger-experiment-helper.h"

#include "ns3/tagger-topology.h"

#include <string>

/**
 * \file
 * \ingroup tagger
 * The options the deadlock experiment examples share, and the timed events
 * (link failures, restorations, bad routes) some of them describe.
 */

namespace ns3
{

class PfcTopologyHelper;

/**
 * \ingroup tagger
 * The command line shared by the experiment examples: --tagger, --mode,
 * --dcqcn, --xoff, --xon, --rate, --delay, the scenario's event option
 * (e.g. --loop-ms), --stop-ms, --drain-ms, --rules, --out, --fail-links,
 * --restore-links and --bad-routes, read by a TaggerCommandLine (one line on
 * stderr and exit code 2 for a bad value).  The last three are kept as text
 * in the config; Finish checks their form (A-B@MS, SWITCH:HOST:NEXT@MS, the
 * time a finite number of ms from 0 to TaggerCommandLine::kMaxMilliSeconds),
 * the run checks the node names when it schedules them
 * (ScheduleTaggerExperimentEvents): names need the network.
 *
 * Limits: --tagger 0 or 1; --mode pfc, tagger or ttl; --xoff 1 ..
 * kMaxThresholdBytes and --xon 0 .. below --xoff; --rate above 0 and at most
 * 1Pbps; --delay 0 .. 10^7 ms; the ms flags 0 .. 10^7 with the event option
 * plus the start before --stop-ms and --drain-ms at least 0.001; --rules (if
 * given) must be a regular readable file (its content is checked when the
 * run installs it); --out must name
 * files that can be written (<out>-rate.dat and .plt are created by Finish).
 *
 * \code
 *   TaggerExperimentCommandLine options("tagger-routing-loop", "loop-ms", "...(ms)", defaults);
 *   TaggerCommandLine cmd("tagger-routing-loop", __FILE__);
 *   options.AddValues(cmd);
 *   cmd.Parse(argc, argv);   // exits with 2 on a bad value
 *   options.Finish(cmd);     // exits with 2 on a bad combination
 *   TaggerExperimentResult r = TaggerExperimentHelper::RunRoutingLoop(options.config);
 * \endcode
 */
class TaggerExperimentCommandLine
{
  public:
    /**
     * \param program the example's name (for error messages and the default --out)
     * \param eventOption the event option's name, e.g. "loop-ms"
     * \param eventHelp its help text (say that the unit is ms)
     * \param defaults the defaults of the config
     */
    TaggerExperimentCommandLine(const std::string& program,
                                const std::string& eventOption,
                                const std::string& eventHelp,
                                const TaggerExperimentConfig& defaults = TaggerExperimentConfig());

    /// Largest static PFC threshold (--xoff, --xon): 1 GiB.
    static constexpr int64_t kMaxThresholdBytes = int64_t(1) << 30;

    /// Add the options to \p cmd (before cmd.Parse). \param cmd the command line
    void AddValues(TaggerCommandLine& cmd);

    /**
     * After cmd.Parse: check the combinations and the event lists, fill the
     * config and create the output files; cmd.Fail (exit code 2, one line
     * naming the flag) on a bad value.
     * \param cmd the command line that parsed the values
     */
    void Finish(const TaggerCommandLine& cmd);

    TaggerExperimentConfig config; //!< the set-up (valid after Finish)
    std::string out;               //!< prefix of the .dat and .plt files

  private:
    std::string m_program;     //!< example name
    std::string m_eventOption; //!< name of the event option
    std::string m_eventHelp;   //!< its help text
    int m_tagger;              //!< --tagger
    std::string m_mode;        //!< --mode
    double m_eventMs;          //!< the event option (ms)
    double m_stopMs;           //!< --stop-ms
    double m_drainMs;          //!< --drain-ms
};

/**
 * Check an event flag's items: their form, and their names against \p topo
 * (fail-links and restore-links: a link of the network; bad-routes: a
 * forwarder, a host and a neighbour of the forwarder).
 * \param flag fail-links, restore-links or bad-routes \param list its comma-separated items
 * \param topo the network the events are for
 * \return "" or why an item is malformed or names what the network lacks
 */
std::string CheckTaggerExperimentEvents(const std::string& flag,
                                        const std::string& list,
                                        const tagger::Topology& topo);

/**
 * Schedule the linkFailures, linkRestorations and badRoutes events of \p cfg on
 * \p net; NS_FATAL_ERROR naming the item that is malformed or names an
 * unknown node or link.
 * \param cfg the configuration \param net the built network
 */
void ScheduleTaggerExperimentEvents(const TaggerExperimentConfig& cfg, PfcTopologyHelper& net);

} // namespace ns3

#endif /* TAGGER_EXPERIMENT_COMMAND_LINE_H */
