/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 */

#include "tagger-rule-generator.h"

#include "tagger-io.h"
#include "tagger-parallel.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <new>
#include <ostream>
#include <sstream>
#include <sys/resource.h>
#include <sys/stat.h>

namespace ns3
{
namespace tagger
{

namespace
{

/// Keep explicit ELP paths (and allow emitElp) up to this many paths.
constexpr uint64_t kMaxExplicitPaths = 1000000;

/// Wall-clock seconds since construction or the last Lap().
class Stopwatch
{
  public:
    double Lap()
    {
        const auto now = std::chrono::steady_clock::now();
        const double s = std::chrono::duration<double>(now - m_last).count();
        m_last = now;
        return s;
    }

  private:
    std::chrono::steady_clock::time_point m_last{std::chrono::steady_clock::now()};
};

/**
 * Read the file of flag \p flag with \p read; every TaggerError (a file that
 * is no readable regular file, or bad content) is given again with the flag
 * in front, so that the one error line names the flag and the file.
 * \param flag the flag (without --) \param file its value \param read the reader
 * \return what \p read returns
 */
template <typename Read>
auto
ReadFlagFile(const std::string& flag, const std::string& file, Read read)
{
    struct stat info;
    if (stat(file.c_str(), &info) != 0)
    {
        throw TaggerError("--" + flag + "=" + file + ": cannot read: " + std::strerror(errno));
    }
    if (!S_ISREG(info.st_mode))
    {
        throw TaggerError("--" + flag + "=" + file + ": not a regular file");
    }
    std::ifstream in(file);
    if (!in)
    {
        throw TaggerError("--" + flag + "=" + file + ": cannot read: " + std::strerror(errno));
    }
    try
    {
        return read();
    }
    catch (const TaggerError& e)
    {
        throw TaggerError("--" + flag + ": " + e.what());
    }
    catch (const std::ios_base::failure&)
    {
        throw TaggerError("--" + flag + ": " + ReadErrorText("file", file));
    }
}

/// Build the topology of a generator and describe it ("clos (pods=2 ...)").
Topology
MakeGeneratedTopology(const RuleGeneratorOptions& o, std::ostringstream& d)
{
    switch (o.topology)
    {
    case TopologyGenerator::CLOS: {
        const ClosParams tb = PaperTestbedClos();
        const ClosParams& c = o.clos;
        d << "clos (pods=" << c.pods << " tors-per-pod=" << c.torsPerPod
          << " leafs-per-pod=" << c.leafsPerPod << " spines=" << c.spines
          << " spines-per-leaf=" << c.spinesPerLeaf << " hosts-per-tor=" << c.hostsPerTor << ")";
        if (c.pods == tb.pods && c.torsPerPod == tb.torsPerPod && c.leafsPerPod == tb.leafsPerPod &&
            c.spines == tb.spines && c.spinesPerLeaf == tb.spinesPerLeaf &&
            c.hostsPerTor == tb.hostsPerTor)
        {
            d << ", the paper's testbed (Fig. 2)";
        }
        return MakeClos(c);
    }
    case TopologyGenerator::FATTREE:
        d << "fattree (k=" << o.k << ")";
        return MakeFatTree(o.k);
    case TopologyGenerator::F10:
        d << "f10 (k=" << o.k << ")";
        return MakeF10(o.k);
    case TopologyGenerator::JELLYFISH:
        d << "jellyfish (switches=" << o.switches << " ports=" << o.ports
          << " switch-ports=" << o.switchPorts << " seed=" << o.seed << ")";
        return MakeJellyfish(o.switches, o.ports, o.switchPorts, o.seed);
    case TopologyGenerator::RANDOM_SPARSE:
        d << "random-sparse (switches=" << o.switches << " degree " << o.minDegree << "-"
          << o.maxDegree << ", one host each, seed=" << o.seed << ")";
        return MakeRandomSparse(o.switches, o.minDegree, o.maxDegree, o.seed);
    case TopologyGenerator::BCUBE:
        break;
    }
    d << "bcube (n=" << o.bcubeN << " k=" << o.bcubeK << ", " << o.bcubeK + 1 << " levels)";
    return MakeBCube(o.bcubeN, o.bcubeK);
}

/// Build or read the topology and describe it.
Topology
MakeTopology(const RuleGeneratorOptions& o, std::string& description)
{
    std::ostringstream d;
    Topology topo;
    if (!o.topologyFile.empty())
    {
        bool graphml = false;
        topo = ReadFlagFile("topology-file", o.topologyFile, [&] {
            return ReadTopologyFile(o.topologyFile, o.hostsPerSwitch, &graphml);
        });
        d << "file " << o.topologyFile << " ("
          << (graphml ? "GraphML, hosts-per-switch=" + std::to_string(o.hostsPerSwitch) : "JSON")
          << ")";
    }
    else
    {
        topo = MakeGeneratedTopology(o, d);
    }
    description = d.str();
    return topo;
}

/**
 * Throw when the algorithm or the ELP family needs a layered (Clos) topology
 * and topo has no layers.
 */
void
CheckLayers(const RuleGeneratorOptions& o, const Topology& topo, const std::string& description)
{
    if (topo.IsLayered())
    {
        return;
    }
    if (o.algorithm == TaggingAlgorithm::CLOS)
    {
        throw TaggerError("--algorithm=clos needs a layered (Clos) topology, and " + description +
                          " has no layers");
    }
    if (o.ElpIs(ElpFamily::UPDOWN) || o.ElpIs(ElpFamily::BOUNCE))
    {
        throw TaggerError("--elp=" + GetName(o.elp) +
                          " needs a layered (Clos) topology, and this one has no layers");
    }
}

/// Stage 1: the topology, its relaying hosts, and the checks that need it.
void
TopologyStage(const RuleGeneratorOptions& o, RuleGeneratorResult& r)
{
    r.topology = std::make_unique<Topology>(MakeTopology(o, r.topologyDescription));
    const Topology& topo = *r.topology;
    const std::vector<NodeId> hosts = topo.GetHosts();
    for (NodeId h : hosts)
    {
        r.relays += topo.GetNode(h).relay ? 1 : 0;
    }
    if (hosts.size() < 2)
    {
        throw TaggerError("topology " + r.topologyDescription + " has " +
                          std::to_string(hosts.size()) + " host(s); the ELP needs at least 2");
    }
    CheckLayers(o, topo, r.topologyDescription);
}

/// Build the ELP family of the options and describe it.
Elp
MakeFamilyElp(const RuleGeneratorOptions& o, const Topology& topo, std::ostringstream& d)
{
    ElpOptions eo;
    eo.maxExplicitPaths = kMaxExplicitPaths;
    eo.seed = o.seed;
    eo.keepNextHops = o.emitElp; // written compactly (only trees and shortest keep them)
    eo.threads = o.threads;
    switch (o.elp)
    {
    case ElpFamily::SHORTEST:
        d << "shortest (all equal-cost shortest paths)";
        return MakeShortestPathElp(topo, eo);
    case ElpFamily::TREES:
        d << "trees (one shortest-path tree per destination switch, seed=" << o.seed << ")";
        return MakeShortestPathTreeElp(topo, eo);
    case ElpFamily::UPDOWN:
        d << "updown (up-down paths, no bounce)";
        return MakeUpDownElp(topo, 0, eo);
    case ElpFamily::BOUNCE:
        d << "bounce (up-down paths with up to " << o.bounces << " bounce"
          << (o.bounces == 1 ? "" : "s") << ")";
        return MakeUpDownElp(topo, o.bounces, eo);
    case ElpFamily::KSHORTEST:
        break;
    }
    d << "kshortest (" << o.kPaths << " shortest paths per host pair)";
    return MakeKShortestElp(topo, o.kPaths, eo);
}

/// Build or read the ELP (with the random paths) and describe it.
Elp
MakeElp(const RuleGeneratorOptions& o, const Topology& topo, std::string& description)
{
    std::ostringstream d;
    Elp elp;
    if (!o.elpFile.empty())
    {
        elp = ReadFlagFile("elp-file", o.elpFile, [&] { return ReadElpFile(topo, o.elpFile); });
        d << "file " << o.elpFile;
    }
    else
    {
        elp = MakeFamilyElp(o, topo, d);
    }
    if (o.extraRandomPaths > 0)
    {
        AddRandomPaths(elp, topo, o.extraRandomPaths, o.seed);
        d << " + " << o.extraRandomPaths << " random paths (seed=" << o.seed << ")";
    }
    if (elp.pathCount == 0 || elp.graph.IsEmpty())
    {
        throw TaggerError("the ELP is empty: no host-to-host path (" + d.str() + ")");
    }
    const bool stored = elp.paths.size() == elp.pathCount;
    d << ": " << elp.pathCount << " paths, "
      << (stored ? "stored explicitly" : "kept as per-hop transitions only");
    description = d.str();
    return elp;
}

/// Bounces of a path in a layered topology: a node entered from a higher
/// layer and left toward a higher layer.
uint32_t
CountBounces(const Topology& topo, const Path& p)
{
    uint32_t b = 0;
    for (std::size_t i = 1; i + 1 < p.size(); ++i)
    {
        const int32_t here = topo.GetNode(p[i]).layer;
        if (topo.GetNode(p[i - 1]).layer > here && topo.GetNode(p[i + 1]).layer > here)
        {
            ++b;
        }
    }
    return b;
}

/// true when the clos algorithm's bounces come from the ELP paths (not from the options).
bool
ClosBouncesCounted(const RuleGeneratorOptions& o)
{
    return !o.bouncesGiven && !o.ElpIs(ElpFamily::BOUNCE) && !o.ElpIs(ElpFamily::UPDOWN);
}

/**
 * The bounces the clos algorithm tolerates: options.bounces when given, else
 * the bounce family's (0 for updown), else the most bounces of any stored ELP
 * path (shortest paths and trees in a Clos: none).  Throws when a stored path
 * bounces more often than the bounces given.
 */
uint32_t
ClosBounces(const RuleGeneratorOptions& o, const Topology& topo, const Elp& elp, bool stored)
{
    const bool counted = ClosBouncesCounted(o);
    uint32_t closBounces = (o.bouncesGiven || o.ElpIs(ElpFamily::BOUNCE)) ? o.bounces : 0;
    if (o.algorithm != TaggingAlgorithm::CLOS || !stored)
    {
        return closBounces;
    }
    for (std::size_t i = 0; i < elp.paths.size(); ++i)
    {
        const uint32_t b = CountBounces(topo, elp.paths[i]);
        if (b > closBounces && !counted)
        {
            throw TaggerError("ELP path " + std::to_string(i + 1) + " bounces " +
                              std::to_string(b) + " times, more than the " +
                              std::to_string(closBounces) +
                              " --algorithm=clos tolerates (--bounces)");
        }
        closBounces = std::max(closBounces, b);
    }
    return closBounces;
}

/// Stage 2: the ELP, its longest path, and the bounces the clos algorithm tolerates.
void
ElpStage(const RuleGeneratorOptions& o, RuleGeneratorResult& r)
{
    const Topology& topo = *r.topology;
    r.elp = MakeElp(o, topo, r.elpDescription);
    const bool stored = r.elp.paths.size() == r.elp.pathCount;
    r.longestPath = r.elp.longestPath;
    if (stored)
    {
        r.longestPath = 0;
        for (const Path& p : r.elp.paths)
        {
            r.longestPath = std::max<uint32_t>(r.longestPath, static_cast<uint32_t>(p.size()) - 1);
        }
    }
    if (o.emitElp && !stored && r.elp.nextHops.empty())
    {
        throw TaggerError("--emit-elp: the ELP has " + std::to_string(r.elp.pathCount) +
                          " paths, too many to store explicitly (limit " +
                          std::to_string(kMaxExplicitPaths) + "); drop --emit-elp");
    }
    r.closBounces = ClosBounces(o, topo, r.elp, stored);
}

/// The one place that runs a tagging algorithm (the clos algorithm ignores the ELP).
TagRules
RunAlgorithm(TaggingAlgorithm algorithm,
             const Topology& topo,
             const Elp& elp,
             uint32_t closBounces,
             const TaggingOptions& tagging,
             GreedyStats& greedyStats)
{
    switch (algorithm)
    {
    case TaggingAlgorithm::GREEDY:
        return TagGreedy(elp.graph, tagging, greedyStats);
    case TaggingAlgorithm::BRUTEFORCE:
        return TagBruteForce(elp.graph, tagging);
    case TaggingAlgorithm::CLOS:
        break;
    }
    return TagClos(topo, closBounces, tagging);
}

/**
 * "greedy (Algorithm 2, order=local, cycle-check=incremental)", "greedy
 * (Algorithm 2, best of 67 orders (local, paper, plain, 64 shuffled): plain,
 * cycle-check=incremental)", ...
 */
std::string
DescribeAlgorithm(const RuleGeneratorOptions& o, const RuleGeneratorResult& r)
{
    const std::string check = std::string(", cycle-check=") +
                              (o.tagging.cycleCheck == CycleCheck::NAIVE ? "naive" : "incremental");
    const uint32_t closBounces = r.closBounces;
    switch (o.algorithm)
    {
    case TaggingAlgorithm::GREEDY:
        if (!o.greedySearch)
        {
            return "greedy (Algorithm 2, order=" + GetName(o.tagging.order) + check + ")";
        }
        if (r.searchPlanned == 1)
        {
            return "greedy (Algorithm 2, order=local: the input is too large for the order search, "
                   "1 of " +
                   std::to_string(r.searchPossible) + " attempts; --restarts=N runs them all" +
                   check + ")";
        }
        return "greedy (Algorithm 2, best of " + std::to_string(r.searchAttempts) +
               " orders (local, paper, plain, " + std::to_string(o.search.restarts) +
               " shuffled, seed=" + std::to_string(o.search.seed) +
               (r.searchPossible > r.searchPlanned
                    ? "; the input's size allowed " + std::to_string(r.searchPlanned) + " of " +
                          std::to_string(r.searchPossible)
                    : std::string()) +
               (r.searchStoppedByTime ? "; stopped early by --greedy-time-limit" : "") +
               (r.pathAttempts > 0
                    ? "; then " + std::to_string(r.pathAttempts) + " on the explicit paths and " +
                          std::to_string(r.repairRuns) + " repair reruns"
                    : std::string()) +
               "): " + r.greedyOrder + check + ")";
    case TaggingAlgorithm::BRUTEFORCE:
        return "bruteforce (Algorithm 1, tag = hop number)";
    case TaggingAlgorithm::CLOS:
        break;
    }
    return "clos (bounce tagging, tolerates " + std::to_string(closBounces) + " bounce" +
           (closBounces == 1 ? "" : "s") + ")";
}

/// The optimality line of the summary for the order search's result.
std::string
DescribeOptimality(const RuleGeneratorOptions& o,
                   const GreedySearchResult& best,
                   uint32_t tags,
                   const Elp& elp)
{
    if (tags == best.lowerBound)
    {
        return "yes (the lower bound)";
    }
    if (best.optimal)
    {
        return "yes (the exact solver proved no rules with " + std::to_string(tags - 1) +
               " tags exist for the ELP's paths)";
    }
    const std::string gap = std::to_string(tags - best.lowerBound) + " above the lower bound";
    if (best.exactTried)
    {
        return "no (" + gap + "; the exact solver ran out of its budget, --exact-rlimit)";
    }
    if (elp.paths.size() != elp.pathCount)
    {
        return "no (" + gap + "; the ELP's paths are not stored: no path scope, no exact solver)";
    }
    if (o.tagging.classes > 1)
    {
        return "no (" + gap + "; the exact solver takes one class)";
    }
    if (!ExactTagsAvailable())
    {
        return "no (" + gap + "; built without Z3: no exact solver)";
    }
    return "no (" + gap +
           "; the ELP is above --exact-max-hops=" + std::to_string(o.search.exactMaxHops) +
           " path hops for the exact solver)";
}

/// Stage 3: tagging, and the lossless tag limit.
void
TaggingStage(const RuleGeneratorOptions& o, RuleGeneratorResult& r)
{
    const bool search = o.algorithm == TaggingAlgorithm::GREEDY && o.greedySearch;
    GreedySearchResult best;
    if (search)
    {
        GreedySearchOptions so = o.search;
        so.threads = ResolveThreads(o.threads);
        best = TagGreedyBest(r.elp, o.tagging, so);
        r.rules = std::move(best.rules);
        r.losslessTags = best.winner.losslessTags; // the search counted them
        r.tcam = std::move(best.tcam);
        r.greedyStats = best.stats;
        r.greedyOrder = best.winnerName;
        r.searchAttempts = static_cast<uint32_t>(best.attempts.size());
        r.searchPlanned = best.planned;
        r.searchPossible = best.possible;
        r.searchStoppedByTime = best.stoppedByTime;
        r.pathAttempts = best.pathAttempts;
        r.repairRuns = best.repairRuns;
        r.scope = best.scope;
        r.lowerBound = best.lowerBound;
        r.optimal = best.optimal;
    }
    else
    {
        r.rules =
            RunAlgorithm(o.algorithm, *r.topology, r.elp, r.closBounces, o.tagging, r.greedyStats);
        r.greedyOrder = o.algorithm == TaggingAlgorithm::GREEDY ? GetName(o.tagging.order) : "";
        r.losslessTags = r.rules.GetLosslessTags();
        r.lowerBound = TagLowerBound(r.elp.graph, o.tagging.classes);
        r.optimal = r.losslessTags == r.lowerBound;
    }
    r.algorithmDescription = DescribeAlgorithm(o, r);
    r.optimality = search      ? DescribeOptimality(o, best, r.losslessTags, r.elp)
                   : r.optimal ? "yes (the lower bound)"
                               : "no (" + std::to_string(r.losslessTags - r.lowerBound) +
                                     " above the lower bound; no search asked)";
    if (o.maxLossless > 0 && r.losslessTags > o.maxLossless)
    {
        throw TaggerError(
            "the rules need " + std::to_string(r.losslessTags) +
            " lossless tags, more than --max-lossless=" + std::to_string(o.maxLossless));
    }
}

/**
 * Stage 4: verification (always).  For the up-down families the verifier
 * checks the walk family itself (Elp::upDownBounces), not the HopGraph.
 */
void
VerificationStage(const RuleGeneratorOptions& o, RuleGeneratorResult& r)
{
    r.verification = Verify(r.rules, r.elp, o.tagging.classes, o.threads, r.scope);
    if (r.verification.ok)
    {
        return;
    }
    const bool stored = r.elp.paths.size() == r.elp.pathCount;
    if (o.algorithm == TaggingAlgorithm::CLOS && ClosBouncesCounted(o) && !stored &&
        VerifyDeadlockFree(r.rules).ok)
    {
        // The ELP was not enumerated, so its bounces could not be counted (0
        // was assumed): the user has to say how many the clos rules must tolerate.
        throw TaggerError(
            "--algorithm=clos tolerating " + std::to_string(r.closBounces) +
            " bounces does not cover the ELP (give --bounces=K): " + r.verification.problem);
    }
    throw RuleVerificationError("verification failed: " + r.verification.problem);
}

/// Write the tagger-rules JSON file of a result (with its precomputed TCAM).
void
WriteJsonFile(const RuleGeneratorOptions& o, const RuleGeneratorResult& r)
{
    const Topology& topo = *r.topology;
    RulesOutput out;
    out.losslessTags = r.losslessTags;
    out.rules = &r.rules;
    // with next hops, "elp" holds only the paths they do not describe
    std::vector<Path> extraPaths;
    if (o.emitElp && !r.elp.nextHops.empty())
    {
        extraPaths.assign(r.elp.paths.begin() + r.elp.nextHopPaths, r.elp.paths.end());
        out.elpNextHops = &r.elp.nextHops;
    }
    out.elp = !o.emitElp ? nullptr : r.elp.nextHops.empty() ? &r.elp.paths : &extraPaths;
    out.tcam = &r.tcam;
    auto d = [](auto v) { return static_cast<double>(v); };
    out.stats = {{"switches", d(topo.GetSwitches().size())},
                 {"hosts", d(topo.GetHosts().size())},
                 {"relay_hosts", d(r.relays)},
                 {"links", d(topo.GetLinks().size())},
                 {"elp_paths", d(r.elp.pathCount)},
                 {"longest", d(r.longestPath)},
                 {"lossless_tags", d(r.losslessTags)},
                 {"max_rules", d(r.switchCounts.maxRules)},
                 {"mean_rules", r.switchCounts.MeanRules()},
                 {"max_tcam", d(r.switchCounts.maxTcam)},
                 {"mean_tcam", r.switchCounts.MeanTcam()},
                 {"time_topology_s", r.times.topology},
                 {"time_elp_s", r.times.elp},
                 {"time_tagging_s", r.times.tagging},
                 {"time_verification_s", r.times.verification},
                 {"lower_bound", d(r.lowerBound)},
                 {"optimal", d(r.optimal ? 1 : 0)}};
    out.textStats["elp_scope"] = r.scope == ElpScope::PATHS ? "paths" : "hop-graph";
    if (!r.greedyOrder.empty())
    {
        out.textStats["greedy_order"] = r.greedyOrder;
    }
    std::ofstream os(o.json);
    if (!os)
    {
        throw TaggerError("--json=" + o.json + ": cannot create: " + std::strerror(errno));
    }
    try
    {
        WriteRulesJson(topo, out, os);
    }
    catch (const TaggerError&)
    {
        throw TaggerError("--json=" + o.json + ": writing failed (device full?)");
    }
    os.close();
    if (!os)
    {
        throw TaggerError("--json=" + o.json + ": writing failed (device full?)");
    }
}

/**
 * Before the --json file is created: it must not be an input file (SameFile).
 * \param o the options
 */
void
CheckJsonApartFromInputs(const RuleGeneratorOptions& o)
{
    const std::pair<const char*, const std::string*> inputs[] = {
        {"topology-file", &o.topologyFile},
        {"elp-file", &o.elpFile},
    };
    for (const auto& [flag, path] : inputs)
    {
        if (!path->empty() && SameFile(o.json, *path))
        {
            throw TaggerError("--json=" + o.json + ": writes the file --" + flag + "=" + *path +
                              " is read from (an output never overwrites an input)");
        }
    }
}

/**
 * Before any work: create the --json file, and write one newline to it when it
 * is a character device, so that a path that cannot be written (or a full
 * device such as /dev/full) fails at once rather than after minutes of work.
 * \param o the options
 */
void
CheckJsonWritable(const RuleGeneratorOptions& o)
{
    struct stat info;
    bool device = stat(o.json.c_str(), &info) == 0 && S_ISCHR(info.st_mode);
    std::ofstream os(o.json);
    if (!os)
    {
        throw TaggerError("--json=" + o.json + ": cannot create: " + std::strerror(errno));
    }
    if (device)
    {
        os << '\n';
    }
    os.close();
    if (!os)
    {
        throw TaggerError("--json=" + o.json + ": writing failed (device full?)");
    }
}

/**
 * Stage 5: the TCAM of every node (compressed once, or taken from the order
 * search, and checked against the plain rules), the counts, the JSON file.
 * Nodes are done on options.threads threads; the first failing check in node
 * order is reported.
 */
void
OutputStage(const RuleGeneratorOptions& o, RuleGeneratorResult& r)
{
    const Topology& topo = *r.topology;
    if (r.tcam.size() != topo.GetNNodes())
    {
        r.tcam = CompressTcamTable(r.rules, o.threads);
    }
    std::vector<uint32_t> rules(topo.GetNNodes(), 0);
    ParallelFor(o.threads, topo.GetNNodes(), 16, [&](std::size_t i) {
        const NodeId n = static_cast<NodeId>(i);
        if (!topo.IsForwarder(n))
        {
            return;
        }
        const std::string problem = CheckTcam(r.rules, n, r.tcam[n]);
        if (!problem.empty())
        {
            throw RuleVerificationError("TCAM verification failed: " + problem);
        }
        rules[n] = r.rules.CountRules(n);
    });
    for (NodeId n = 0; n < topo.GetNNodes(); ++n)
    {
        if (topo.IsForwarder(n))
        {
            (topo.IsHost(n) ? r.relayCounts : r.switchCounts).Add(rules[n], r.tcam[n].size());
        }
    }
    if (!o.json.empty())
    {
        WriteJsonFile(o, r);
    }
}

/// Peak resident set size in MB (getrusage ru_maxrss, KB on Linux).
double
PeakMemoryMb()
{
    struct rusage ru;
    std::memset(&ru, 0, sizeof(ru));
    getrusage(RUSAGE_SELF, &ru);
    return static_cast<double>(ru.ru_maxrss) / 1024.0;
}

std::string
Fixed(double v, int digits)
{
    std::ostringstream s;
    s << std::fixed << std::setprecision(digits) << v;
    return s.str();
}

/// The "rules/switch:" line and, with relaying hosts, the "rules/relay:" line.
void
PrintRuleCounts(const RuleGeneratorResult& r, std::ostream& s)
{
    const RuleCounts& sw = r.switchCounts;
    const RuleCounts& relay = r.relayCounts;
    s << "rules/switch:   plain max " << sw.maxRules << " mean " << Fixed(sw.MeanRules(), 2)
      << "; TCAM max " << sw.maxTcam << " mean " << Fixed(sw.MeanTcam(), 2) << " (over all "
      << sw.nodes << " switches";
    if (r.relays == 0)
    {
        s << "; no host relays, hosts hold no rules)\n";
        return;
    }
    s << "; the " << r.relays << " relaying hosts are not included)\n";
    s << "rules/relay:    plain max " << relay.maxRules << " mean " << Fixed(relay.MeanRules(), 2)
      << "; TCAM max " << relay.maxTcam << " mean " << Fixed(relay.MeanTcam(), 2) << " (over the "
      << relay.nodes << " relaying hosts)\n";
}

/// The "runtime:", "peak memory:" and RESULT lines.
void
PrintTimesAndResult(const RuleGeneratorResult& r, std::ostream& s)
{
    const Topology& topo = *r.topology;
    const RuleGeneratorTimes& t = r.times;
    const RuleCounts& sw = r.switchCounts;
    s << "runtime:        " << Fixed(t.total, 4) << " s wall (topology " << Fixed(t.topology, 4)
      << ", ELP " << Fixed(t.elp, 4) << ", tagging " << Fixed(t.tagging, 4) << ", verification "
      << Fixed(t.verification, 4) << ", output " << Fixed(t.output, 4) << ")\n";
    s << "threads:        " << r.threads
      << " (ELP, order search, verification, TCAM; the results do not depend on it)\n";
    s << "peak memory:    " << Fixed(r.peakMemoryMb, 1) << " MB (getrusage ru_maxrss)\n";
    s << "RESULT switches=" << topo.GetSwitches().size() << " hosts=" << topo.GetHosts().size()
      << " relays=" << r.relays << " elp_paths=" << r.elp.pathCount << " longest=" << r.longestPath
      << " lossless_tags=" << r.losslessTags << " max_rules=" << sw.maxRules
      << " mean_rules=" << Fixed(sw.MeanRules(), 2) << " max_tcam=" << sw.maxTcam
      << " mean_tcam=" << Fixed(sw.MeanTcam(), 2) << " relay_max_rules=" << r.relayCounts.maxRules
      << " relay_max_tcam=" << r.relayCounts.maxTcam << " lower_bound=" << r.lowerBound
      << " optimal=" << (r.optimal ? "yes" : "no")
      << " gap=" << (r.losslessTags - std::min(r.losslessTags, r.lowerBound))
      << " greedy_order=" << (r.greedyOrder.empty() ? "none" : r.greedyOrder)
      << " runtime_s=" << Fixed(t.total, 4) << " peak_mb=" << Fixed(r.peakMemoryMb, 1) << "\n";
}

/// Print one error line (newlines inside the message flattened).
void
PrintError(std::ostream& err, const std::string& msg)
{
    std::string line = msg;
    for (char& c : line)
    {
        if (c == '\n' || c == '\r')
        {
            c = ' ';
        }
    }
    while (!line.empty() && line.back() == ' ')
    {
        line.pop_back();
    }
    err << "tagger-rules: " << line << std::endl;
}

} // namespace

std::string
GetName(TopologyGenerator generator)
{
    switch (generator)
    {
    case TopologyGenerator::CLOS:
        return "clos";
    case TopologyGenerator::FATTREE:
        return "fattree";
    case TopologyGenerator::JELLYFISH:
        return "jellyfish";
    case TopologyGenerator::BCUBE:
        return "bcube";
    case TopologyGenerator::F10:
        return "f10";
    case TopologyGenerator::RANDOM_SPARSE:
        break;
    }
    return "random-sparse";
}

std::string
GetName(ElpFamily family)
{
    switch (family)
    {
    case ElpFamily::SHORTEST:
        return "shortest";
    case ElpFamily::TREES:
        return "trees";
    case ElpFamily::UPDOWN:
        return "updown";
    case ElpFamily::BOUNCE:
        return "bounce";
    case ElpFamily::KSHORTEST:
        break;
    }
    return "kshortest";
}

std::string
GetName(TaggingAlgorithm algorithm)
{
    switch (algorithm)
    {
    case TaggingAlgorithm::GREEDY:
        return "greedy";
    case TaggingAlgorithm::BRUTEFORCE:
        return "bruteforce";
    case TaggingAlgorithm::CLOS:
        break;
    }
    return "clos";
}

void
RuleCounts::Add(uint64_t rules, uint64_t tcam)
{
    ++nodes;
    maxRules = std::max(maxRules, rules);
    sumRules += rules;
    maxTcam = std::max(maxTcam, tcam);
    sumTcam += tcam;
}

double
RuleCounts::MeanRules() const
{
    return nodes == 0 ? 0.0 : static_cast<double>(sumRules) / nodes;
}

double
RuleCounts::MeanTcam() const
{
    return nodes == 0 ? 0.0 : static_cast<double>(sumTcam) / nodes;
}

RuleGeneratorResult
GenerateRules(const RuleGeneratorOptions& options)
{
    Stopwatch watch;
    const auto start = std::chrono::steady_clock::now();
    RuleGeneratorResult r;
    r.threads = ResolveThreads(options.threads);
    if (!options.json.empty())
    {
        CheckJsonApartFromInputs(options);
        CheckJsonWritable(options);
    }
    TopologyStage(options, r);
    r.times.topology = watch.Lap();
    ElpStage(options, r);
    r.times.elp = watch.Lap();
    TaggingStage(options, r);
    r.times.tagging = watch.Lap();
    VerificationStage(options, r);
    r.times.verification = watch.Lap();
    OutputStage(options, r);
    r.times.output = watch.Lap();
    r.times.total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.peakMemoryMb = PeakMemoryMb();
    return r;
}

void
PrintRuleSummary(const RuleGeneratorOptions& options,
                 const RuleGeneratorResult& result,
                 std::ostream& os)
{
    const RuleGeneratorOptions& o = options;
    const RuleGeneratorResult& r = result;
    const Topology& topo = *r.topology;
    std::ostringstream s;
    s << "tagger-rules: Tagger tag-rewriting rules (Hu et al., CoNEXT 2017)\n";
    s << "topology:       " << r.topologyDescription << "\n";
    s << "nodes:          " << topo.GetSwitches().size() << " switches, " << topo.GetHosts().size()
      << " hosts (" << r.relays << " relaying), " << topo.GetLinks().size() << " links\n";
    s << "ELP:            " << r.elpDescription << "\n";
    s << "longest path:   " << r.longestPath << " links\n";
    s << "algorithm:      " << r.algorithmDescription << ", classes=" << o.tagging.classes << "\n";
    if (o.algorithm == TaggingAlgorithm::GREEDY)
    {
        const GreedyStats& g = r.greedyStats;
        s << "greedy:         " << g.transitions << " transitions, " << g.merged
          << " kept their tag, " << g.cycleChecks << " cycle checks, " << g.rejected
          << " rejected, " << g.visited << " nodes visited by the searches\n";
    }
    s << "lossless tags:  " << r.losslessTags << " (limit "
      << (o.maxLossless == 0 ? std::string("none") : std::to_string(o.maxLossless))
      << "; highest tag in any rule " << static_cast<uint32_t>(r.rules.GetMaxTag())
      << "; lower bound " << r.lowerBound
      << (r.lowerBound > o.tagging.classes ? ": the ELP's port graph has a cycle"
                                           : ": the ELP's port graph is acyclic")
      << (r.losslessTags == r.lowerBound ? ", so no rules need fewer tags" : "") << ")\n";
    s << "optimal:        " << r.optimality << "\n";
    s << "rules cover:    "
      << (r.scope == ElpScope::PATHS
              ? "the ELP's explicit paths (a walk spliced from two ELP paths may go lossy)"
              : "every walk of the ELP's HopGraph (its paths and the walks spliced from them)")
      << "\n";
    PrintRuleCounts(r, s);
    s << "verified:       yes (no cycle within a tag, no tag decrease, every ELP path lossless)\n";
    if (!o.json.empty())
    {
        s << "json:           " << o.json << (o.emitElp ? " (with the elp array)" : "") << "\n";
    }
    PrintTimesAndResult(r, s);
    os << s.str() << std::flush;
}

int
ReportRuleToolError(std::ostream& err)
{
    try
    {
        throw;
    }
    catch (const RuleVerificationError& e)
    {
        PrintError(err, e.what());
        return kRuleToolVerificationFailed;
    }
    catch (const TaggerError& e)
    {
        PrintError(err, e.what());
    }
    catch (const std::bad_alloc&)
    {
        PrintError(err, "out of memory (the problem is too large for this machine)");
    }
    catch (const std::exception& e)
    {
        PrintError(err, e.what());
    }
    catch (...)
    {
        PrintError(err, "unexpected error");
    }
    return kRuleToolBadInput;
}

TagRules
ComputeDefaultRules(const Topology& topo, uint32_t bounces, uint32_t classes)
{
    TaggingOptions tagging;
    tagging.classes = classes;
    GreedyStats stats;
    if (topo.IsLayered())
    {
        return RunAlgorithm(TaggingAlgorithm::CLOS, topo, Elp(), bounces, tagging, stats);
    }
    if (bounces > 0)
    {
        throw TaggerError("bounces need a layered (Clos) topology");
    }
    return RunAlgorithm(TaggingAlgorithm::GREEDY,
                        topo,
                        MakeShortestPathElp(topo),
                        0,
                        tagging,
                        stats);
}

} // namespace tagger
} // namespace ns3
