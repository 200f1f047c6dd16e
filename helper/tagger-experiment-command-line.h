/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef TAGGER_EXPERIMENT_COMMAND_LINE_H
#define TAGGER_EXPERIMENT_COMMAND_LINE_H

#include "tagger-experiment-helper.h"

#include "ns3/command-line.h"

#include <ostream>
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
 * --restore-links and --bad-routes.  The last three are kept as text in the
 * config and checked when the run schedules them
 * (ScheduleTaggerExperimentEvents): node names need the network.
 *
 * \code
 *   TaggerExperimentCommandLine options("tagger-routing-loop", "loop-ms", "...(ms)", defaults);
 *   CommandLine cmd(__FILE__);
 *   options.AddValues(cmd);
 *   cmd.Parse(argc, argv);
 *   if (!options.Finish(std::cerr))
 *   {
 *       return 2;
 *   }
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

    /// Add the options to \p cmd (before cmd.Parse). \param cmd the command line
    void AddValues(CommandLine& cmd);

    /**
     * After cmd.Parse: check the values and fill the config.
     * \param err where to explain a bad value
     * \return false (after one message naming the option at fault) on a bad value
     */
    bool Finish(std::ostream& err);

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
 * Schedule the linkFailures, linkRestorations and badRoutes events of \p cfg on
 * \p net; NS_FATAL_ERROR naming the item that is malformed or names an
 * unknown node or link.
 * \param cfg the configuration \param net the built network
 */
void ScheduleTaggerExperimentEvents(const TaggerExperimentConfig& cfg, PfcTopologyHelper& net);

} // namespace ns3

#endif /* TAGGER_EXPERIMENT_COMMAND_LINE_H */
