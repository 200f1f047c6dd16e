/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tagger-experiment-command-line.h"

#include "pfc-route-helper.h"
#include "pfc-topology-helper.h"
#include "rdma-helper.h"
#include "tagger-command-line.h"
#include "tagger-helper.h"

#include "ns3/abort.h"
#include "ns3/tagger-topology-generators.h"

#include <algorithm>
#include <sstream>
#include <utility>
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
TaggerExperimentCommandLine::AddValues(TaggerCommandLine& cmd)
{
    cmd.AddInteger("tagger",
                   "1: Tagger rules (shortest + 1-bounce ELP); 0: plain PFC",
                   m_tagger,
                   0,
                   1);
    cmd.AddChoice("mode",
                  "pfc, tagger or ttl (overrides --tagger)",
                  m_mode,
                  {"pfc", "tagger", "ttl"});
    cmd.AddBool("dcqcn", "DCQCN on the RoCE NICs (false: --cc=none)", config.dcqcn);
    cmd.AddChoice("cc",
                  "congestion control of the NICs (with --dcqcn=true for dcqcn)",
                  config.cc,
                  RdmaHelper::GetCongestionControlNames());
    cmd.AddInteger("xoff",
                   "static PFC Xoff per ingress queue (bytes of shared buffer)",
                   config.xoff,
                   1,
                   kMaxThresholdBytes);
    cmd.AddInteger("xon",
                   "static PFC Xon per ingress queue (bytes)",
                   config.xon,
                   0,
                   kMaxThresholdBytes);
    cmd.AddDataRate("rate", "link rate (e.g. 40Gbps)", config.rate);
    cmd.AddTime("delay", "link propagation delay (e.g. 1us)", config.delay);
    cmd.AddMilliSeconds(m_eventOption, m_eventHelp, m_eventMs);
    cmd.AddMilliSeconds("stop-ms", "when every sender stops (ms)", m_stopMs);
    cmd.AddMilliSeconds("drain-ms",
                        "time after the stop to let buffers drain (ms)",
                        m_drainMs,
                        0.001);
    cmd.AddInputFile("rules",
                     "tagger-rules JSON file to install instead of computing rules",
                     config.rulesFile);
    cmd.AddOutputPrefix("out",
                        "prefix of the .dat and .plt files",
                        out,
                        {"-rate.dat", "-rate.plt"});
    cmd.AddList("fail-links",
                "extra link failures (local reroute), e.g. \"L1-S1@2,L3-S2@2.5\" (ms)",
                config.linkFailures);
    cmd.AddList("restore-links",
                "link restorations, e.g. \"L1-S1@4\" (ms)",
                config.linkRestorations);
    cmd.AddList("bad-routes",
                "bad routes: at ms, SW sends HOST's traffic to NEXT, e.g. \"L1:H15:T1@2\"",
                config.badRoutes);
}

void
TaggerExperimentCommandLine::Finish(const TaggerCommandLine& cmd)
{
    if (m_mode.empty())
    {
        m_mode = m_tagger ? "tagger" : "pfc";
    }
    if (!cmd.WasGiven("cc"))
    {
        config.cc.clear(); // RdmaNic's CongestionControl: DCQCN, or --ns3::RdmaNic::...
    }
    bool known = ParseTaggerExperimentMode(m_mode, config.mode);
    NS_ABORT_MSG_UNLESS(known, "AddChoice let an unknown --mode through: " << m_mode);
    if (config.xon >= config.xoff)
    {
        cmd.Fail("xon",
                 std::to_string(config.xon),
                 "must be below --xoff (" + std::to_string(config.xoff) + ")");
    }
    config.event = TaggerCommandLine::MilliSecondsToTime(m_eventMs);
    config.stop = TaggerCommandLine::MilliSecondsToTime(m_stopMs);
    config.drain = TaggerCommandLine::MilliSecondsToTime(m_drainMs);
    if (!(config.stop > config.start + config.event))
    {
        std::ostringstream why;
        why << "must come after --" << m_eventOption << " plus the start ("
            << config.start.As(Time::US) << ")";
        cmd.Fail("stop-ms", TaggerCommandLine::FormatNumber(m_stopMs), why.str());
    }
    // The network of every TaggerExperimentHelper run: the paper's testbed.
    const tagger::Topology testbed = tagger::MakeClos(tagger::PaperTestbedClos());
    tagger::TagRules rules(testbed);
    uint32_t lossless = 0;
    std::string bad =
        config.mode != TaggerExperimentMode::TAGGER || config.rulesFile.empty()
            ? ""
            : TaggerHelper::ReadRulesFile(testbed, config.rulesFile, true, rules, lossless);
    if (!bad.empty())
    {
        cmd.Fail("rules", config.rulesFile, bad);
    }
    for (const auto& [flag, list] : {std::make_pair("fail-links", config.linkFailures),
                                     std::make_pair("restore-links", config.linkRestorations),
                                     std::make_pair("bad-routes", config.badRoutes)})
    {
        std::string why = CheckTaggerExperimentEvents(flag, list, testbed);
        if (!why.empty())
        {
            cmd.Fail(flag, list, why);
        }
    }
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

/**
 * Parse "what@ms".
 * \param item the item \param what the part before @ \param at the time
 * \return "" or why \p item is malformed
 */
std::string
ParseTimed(const std::string& item, std::string& what, Time& at)
{
    std::size_t sign = item.rfind('@');
    if (sign == std::string::npos || sign == 0 || sign + 1 == item.size())
    {
        return "'" + item + "' has no WHAT@MS form";
    }
    double ms = 0;
    std::string why = TaggerCommandLine::ParseDouble(item.substr(sign + 1),
                                                     0,
                                                     TaggerCommandLine::kMaxMilliSeconds,
                                                     ms);
    if (!why.empty())
    {
        return "'" + item + "': the time after @ (ms) " + why;
    }
    what = item.substr(0, sign);
    at = TaggerCommandLine::MilliSecondsToTime(ms);
    return "";
}

/// One parsed event item.
struct TimedItem
{
    std::vector<std::string> parts; //!< A and B, or SWITCH, HOST and NEXT
    Time at;                        //!< when (from the start of the simulation)
};

/**
 * Parse the items of one event flag.
 * \param flag fail-links, restore-links or bad-routes \param list its text
 * \param items the parsed items \return "" or why an item is malformed
 */
std::string
ParseEvents(const std::string& flag, const std::string& list, std::vector<TimedItem>& items)
{
    bool route = flag == "bad-routes";
    for (const std::string& item : SplitList(list, ','))
    {
        TimedItem parsed;
        std::string what;
        std::string why = ParseTimed(item, what, parsed.at);
        if (!why.empty())
        {
            return why;
        }
        std::size_t dash = what.find('-');
        parsed.parts =
            route ? SplitList(what, ':')
                  : std::vector<std::string>{what.substr(0, dash),
                                             dash == std::string::npos ? std::string()
                                                                       : what.substr(dash + 1)};
        bool empty = std::find(parsed.parts.begin(), parsed.parts.end(), "") != parsed.parts.end();
        if (route ? parsed.parts.size() != 3 || what.back() == ':'
                  : dash == std::string::npos || empty)
        {
            return "'" + item + "' is not " + (route ? "SWITCH:HOST:NEXT@MS" : "A-B@MS");
        }
        items.push_back(parsed);
    }
    return "";
}
} // namespace

namespace
{
/// \param topo a topology \param a a node \param b a node \return whether a port of \p a goes to \p
/// b
bool
Adjacent(const tagger::Topology& topo, tagger::NodeId a, tagger::NodeId b)
{
    for (tagger::PortNo p = 0; p < topo.GetNode(a).ports; ++p)
    {
        if (topo.GetPeer(a, p).node == b)
        {
            return true;
        }
    }
    return false;
}

/**
 * \param topo the network \param route a bad-routes item \param item its text
 * \return "" or why SWITCH:HOST:NEXT names no forwarder, host or neighbour
 */
std::string
CheckRouteNames(const tagger::Topology& topo, const TimedItem& route, const std::string& item)
{
    tagger::NodeId sw = topo.FindNode(route.parts[0]);
    tagger::NodeId host = topo.FindNode(route.parts[1]);
    tagger::NodeId next = topo.FindNode(route.parts[2]);
    if (sw == tagger::kNone || !topo.IsForwarder(sw))
    {
        return "'" + item + "': '" + route.parts[0] + "' is not a switch of the network";
    }
    if (host == tagger::kNone || !topo.IsHost(host))
    {
        return "'" + item + "': '" + route.parts[1] + "' is not a host of the network";
    }
    if (next == tagger::kNone || !Adjacent(topo, sw, next))
    {
        return "'" + item + "': '" + route.parts[2] + "' is not a neighbour of " + route.parts[0];
    }
    return "";
}
} // namespace

std::string
CheckTaggerExperimentEvents(const std::string& flag,
                            const std::string& list,
                            const tagger::Topology& topo)
{
    std::vector<TimedItem> items;
    std::string why = ParseEvents(flag, list, items);
    std::vector<std::string> texts = SplitList(list, ',');
    for (std::size_t i = 0; why.empty() && i < items.size(); ++i)
    {
        const TimedItem& item = items[i];
        if (flag == "bad-routes")
        {
            why = CheckRouteNames(topo, item, texts[i]);
            continue;
        }
        tagger::NodeId a = topo.FindNode(item.parts[0]);
        tagger::NodeId b = topo.FindNode(item.parts[1]);
        if (a == tagger::kNone || b == tagger::kNone || !Adjacent(topo, a, b))
        {
            why = "'" + texts[i] + "' is no link of the network";
        }
    }
    return why;
}

namespace
{
/// \param net the network \param name a host name (checked) \return its host index
uint32_t
HostIndex(const PfcTopologyHelper& net, const std::string& name)
{
    std::vector<tagger::NodeId> hosts = net.GetTopology().GetHosts();
    auto it = std::find(hosts.begin(), hosts.end(), net.GetTopology().FindNode(name));
    return uint32_t(it - hosts.begin());
}
} // namespace

void
ScheduleTaggerExperimentEvents(const TaggerExperimentConfig& cfg, PfcTopologyHelper& net)
{
    for (auto [list, flag] : {std::make_pair(cfg.linkFailures, std::string("fail-links")),
                              std::make_pair(cfg.linkRestorations, std::string("restore-links")),
                              std::make_pair(cfg.badRoutes, std::string("bad-routes"))})
    {
        std::string why = CheckTaggerExperimentEvents(flag, list, net.GetTopology());
        if (!why.empty())
        {
            NS_FATAL_ERROR("--" << flag << ": " << why);
        }
        std::vector<TimedItem> items;
        ParseEvents(flag, list, items);
        for (const TimedItem& item : items)
        {
            if (flag == "fail-links")
            {
                net.GetRouteHelper().ScheduleFailLink(item.at, item.parts[0], item.parts[1]);
            }
            else if (flag == "restore-links")
            {
                net.GetRouteHelper().ScheduleRestoreLink(item.at, item.parts[0], item.parts[1]);
            }
            else
            {
                net.GetRouteHelper().ScheduleRoute(item.at,
                                                   item.parts[0],
                                                   HostIndex(net, item.parts[1]),
                                                   item.parts[2]);
            }
        }
    }
}

} // namespace ns3
