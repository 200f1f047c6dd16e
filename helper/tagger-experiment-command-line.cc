/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tagger-experiment-command-line.h"

#include "pfc-route-helper.h"
#include "pfc-topology-helper.h"

#include "ns3/abort.h"

#include <algorithm>
#include <sstream>
#include <tuple>
#include <vector>

namespace ns3
{

TaggerExperimentCommandLine::TaggerExperimentCommandLine(const std::string& program,
                                                         const std::string& eventOption,
                                                         const std::string& eventHelp,
                                                         const TaggerExperimentConfig& defaults)
    : config(defaults),
      out(program),
      m_program(program),
      m_eventOption(eventOption),
      m_eventHelp(eventHelp),
      m_tagger(0),
      m_eventMs(defaults.event.GetMicroSeconds() / 1000.0),
      m_stopMs(defaults.stop.GetMicroSeconds() / 1000.0),
      m_drainMs(defaults.drain.GetMicroSeconds() / 1000.0)
{
}

void
TaggerExperimentCommandLine::AddValues(CommandLine& cmd)
{
    cmd.AddValue("tagger", "1: Tagger rules (shortest + 1-bounce ELP); 0: plain PFC", m_tagger);
    cmd.AddValue("mode", "pfc, tagger or ttl (overrides --tagger)", m_mode);
    cmd.AddValue("dcqcn", "DCQCN on the RoCE NICs", config.dcqcn);
    cmd.AddValue("xoff", "static PFC Xoff per ingress queue (bytes of shared buffer)", config.xoff);
    cmd.AddValue("xon", "static PFC Xon per ingress queue (bytes)", config.xon);
    cmd.AddValue("rate", "link rate (e.g. 40Gbps)", config.rate);
    cmd.AddValue("delay", "link propagation delay (e.g. 1us)", config.delay);
    cmd.AddValue(m_eventOption, m_eventHelp, m_eventMs);
    cmd.AddValue("stop-ms", "when every sender stops (ms)", m_stopMs);
    cmd.AddValue("drain-ms", "time after the stop to let buffers drain (ms)", m_drainMs);
    cmd.AddValue("rules",
                 "tagger-rules JSON file to install instead of computing rules",
                 config.rulesFile);
    cmd.AddValue("out", "prefix of the .dat and .plt files", out);
    cmd.AddValue("fail-links",
                 "extra link failures (local reroute), e.g. \"L1-S1@2,L3-S2@2.5\" (ms)",
                 config.linkFailures);
    cmd.AddValue("restore-links",
                 "link restorations, e.g. \"L1-S1@4\" (ms)",
                 config.linkRestorations);
    cmd.AddValue("bad-routes",
                 "bad routes: at ms, SW sends HOST's traffic to NEXT, e.g. \"L1:H15:T1@2\"",
                 config.badRoutes);
}

bool
TaggerExperimentCommandLine::Finish(std::ostream& err)
{
    if (m_mode.empty())
    {
        m_mode = m_tagger ? "tagger" : "pfc";
    }
    if (!ParseTaggerExperimentMode(m_mode, config.mode))
    {
        err << m_program << ": --mode must be pfc, tagger or ttl, not '" << m_mode << "'\n";
        return false;
    }
    if (config.xon >= config.xoff)
    {
        err << m_program << ": --xon (" << config.xon << ") must be below --xoff (" << config.xoff
            << ")\n";
        return false;
    }
    if (!(m_eventMs >= 0 && m_stopMs > m_eventMs && m_drainMs > 0))
    {
        err << m_program << ": need 0 <= --" << m_eventOption
            << " < --stop-ms and --drain-ms > 0\n";
        return false;
    }
    config.event = MicroSeconds(uint64_t(m_eventMs * 1000));
    config.stop = MicroSeconds(uint64_t(m_stopMs * 1000));
    config.drain = MicroSeconds(uint64_t(m_drainMs * 1000));
    if (!(config.stop > config.start + config.event))
    {
        err << m_program << ": --" << m_eventOption << " plus the start ("
            << config.start.As(Time::US) << ") must come before --stop-ms\n";
        return false;
    }
    return true;
}

namespace
{
/// Split \p text at \p sep (empty items dropped).
std::vector<std::string>
SplitList(const std::string& text, char sep)
{
    std::vector<std::string> items;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, sep))
    {
        if (!item.empty())
        {
            items.push_back(item);
        }
    }
    return items;
}

/// Parse "what@ms" into (what, absolute time). \param item the item \param flag its flag
std::pair<std::string, Time>
ParseTimed(const std::string& item, const std::string& flag)
{
    std::size_t at = item.rfind('@');
    NS_ABORT_MSG_IF(at == std::string::npos || at == 0 || at + 1 == item.size(),
                    "--" << flag << ": '" << item << "' is not WHAT@MS");
    double ms = 0;
    try
    {
        std::size_t used = 0;
        ms = std::stod(item.substr(at + 1), &used);
        NS_ABORT_MSG_IF(used != item.size() - at - 1 || ms < 0, "");
    }
    catch (const std::exception&)
    {
        NS_FATAL_ERROR("--" << flag << ": '" << item << "': bad time '" << item.substr(at + 1)
                            << "' (milliseconds >= 0)");
    }
    return {item.substr(0, at), MicroSeconds(uint64_t(ms * 1000))};
}

/// \param net the network \param name a host name \param flag the flag \return its host index
uint32_t
HostIndex(const PfcTopologyHelper& net, const std::string& name, const std::string& flag)
{
    tagger::NodeId v = net.GetTopology().FindNode(name);
    std::vector<tagger::NodeId> hosts = net.GetTopology().GetHosts();
    auto it = std::find(hosts.begin(), hosts.end(), v);
    NS_ABORT_MSG_IF(v == tagger::kNone || it == hosts.end(),
                    "--" << flag << ": '" << name << "' is not a host");
    return uint32_t(it - hosts.begin());
}
} // namespace

void
ScheduleTaggerExperimentEvents(const TaggerExperimentConfig& cfg, PfcTopologyHelper& net)
{
    for (auto [list, flag, fail] :
         {std::make_tuple(cfg.linkFailures, std::string("fail-links"), true),
          std::make_tuple(cfg.linkRestorations, std::string("restore-links"), false)})
    {
        for (const std::string& item : SplitList(list, ','))
        {
            auto [link, at] = ParseTimed(item, flag);
            std::size_t dash = link.find('-');
            NS_ABORT_MSG_IF(dash == std::string::npos,
                            "--" << flag << ": '" << item << "' is not A-B@MS");
            std::string a = link.substr(0, dash);
            std::string b = link.substr(dash + 1);
            if (fail)
            {
                net.GetRouteHelper().ScheduleFailLink(at, a, b);
            }
            else
            {
                net.GetRouteHelper().ScheduleRestoreLink(at, a, b);
            }
        }
    }
    for (const std::string& item : SplitList(cfg.badRoutes, ','))
    {
        auto [route, at] = ParseTimed(item, "bad-routes");
        std::vector<std::string> parts = SplitList(route, ':');
        NS_ABORT_MSG_IF(parts.size() != 3,
                        "--bad-routes: '" << item << "' is not SWITCH:HOST:NEXT@MS");
        net.GetRouteHelper().ScheduleRoute(at,
                                           parts[0],
                                           HostIndex(net, parts[1], "bad-routes"),
                                           parts[2]);
    }
}

} // namespace ns3
