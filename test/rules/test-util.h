/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Shared helpers for the GoogleTest suites of the tagger algorithm library.
 *
 * Everything here is written independently of the library's algorithms: the
 * expected values (brute-force rules, deadlock freedom, ELP coverage, tags
 * along a path) are recomputed from first principles so that the tests can
 * catch a wrong implementation instead of echoing it.
 */

#ifndef TAGGER_TEST_UTIL_H
#define TAGGER_TEST_UTIL_H

#include "table-iii.h"
#include "tagger-algorithms.h"
#include "tagger-elp.h"
#include "tagger-rule-table.h"
#include "tagger-topology-generators.h"
#include "tagger-topology.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <gtest/gtest.h>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace ns3
{
namespace tagger
{
namespace test
{

/// Whether text contains part, with both shown on failure (gmock-free HasSubstr).
inline ::testing::AssertionResult
HasSubstr(const std::string& text, const std::string& part)
{
    if (text.find(part) != std::string::npos)
    {
        return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure()
           << "\"" << text << "\" does not contain \"" << part << "\"";
}

/**
 * \param fn code that may throw a TaggerError
 * \return the message of the TaggerError \p fn throws ("" when none is thrown)
 */
inline std::string
ErrorOf(const std::function<void()>& fn)
{
    try
    {
        fn();
    }
    catch (const TaggerError& e)
    {
        return e.what();
    }
    return "";
}

/// A rule with its node: (node, tag, in, out, new tag).
using NodeRule = std::tuple<NodeId, int, int, int, int>;
/// A set of rules over a whole topology.
using RuleSet = std::set<NodeRule>;

/// All rules of a TagRules object as a set.
inline RuleSet
CollectRules(const TagRules& rules)
{
    RuleSet out;
    const Topology& topo = rules.GetTopology();
    for (NodeId n = 0; n < topo.GetNNodes(); ++n)
    {
        for (const Rule& r : rules.GetRules(n))
        {
            out.emplace(n, r.tag, r.inPort, r.outPort, r.newTag);
        }
    }
    return out;
}

/// The rules at one node as (tag, in, out, new tag) tuples, sorted.
inline std::set<std::tuple<int, int, int, int>>
RulesAt(const TagRules& rules, NodeId node)
{
    std::set<std::tuple<int, int, int, int>> out;
    for (const Rule& r : rules.GetRules(node))
    {
        out.emplace(r.tag, r.inPort, r.outPort, r.newTag);
    }
    return out;
}

/// Printable form of a rule set (for failure messages).
inline std::string
FormatRuleSet(const Topology& topo, const RuleSet& rules)
{
    std::ostringstream os;
    for (const auto& [n, t, i, o, nt] : rules)
    {
        os << topo.GetNode(n).name << ": tag " << t << " in " << i << " out " << o << " -> " << nt
           << "\n";
    }
    return os.str();
}

/// Printable form of a path.
inline std::string
FormatPath(const Topology& topo, const Path& p)
{
    std::string s;
    for (NodeId n : p)
    {
        s += (s.empty() ? "" : " ") + topo.GetNode(n).name;
    }
    return s;
}

/// The port of `node` that leads to `next` (the tests avoid parallel links).
inline PortNo
PortTo(const Topology& topo, NodeId node, NodeId next)
{
    return topo.GetPortTo(node, next);
}

/**
 * Follow a path through the rules, starting with `startTag` at the first
 * switch.  Returns the tag carried after each forwarding node of the path (one
 * entry per forwarding node); the walk stops with a kLossyTag entry at the
 * first hop that has no rule.
 */
inline std::vector<Tag>
WalkTags(const TagRules& rules, const Path& path, Tag startTag)
{
    const Topology& topo = rules.GetTopology();
    std::vector<Tag> out;
    Tag tag = startTag;
    for (size_t i = 1; i + 1 < path.size(); ++i)
    {
        NodeId n = path[i];
        PortNo in = PortTo(topo, n, path[i - 1]);
        PortNo outPort = PortTo(topo, n, path[i + 1]);
        tag = rules.Get(n, tag, in, outPort);
        out.push_back(tag);
        if (tag == kLossyTag)
        {
            break;
        }
    }
    return out;
}

/// Number of forwarding nodes on a host-to-host path.
inline uint32_t
CountForwarders(const Topology& topo, const Path& p)
{
    uint32_t n = 0;
    for (size_t i = 1; i + 1 < p.size(); ++i)
    {
        n += topo.IsForwarder(p[i]) ? 1 : 0;
    }
    return n;
}

/**
 * Algorithm 1 recomputed by hand from explicit paths: the packet of class c
 * arrives at the i-th forwarding node (i >= 1) with tag i + c - 1 and leaves
 * with tag i + c (the last hop into the destination host increments too).
 */
inline RuleSet
ExpectedBruteForce(const Topology& topo, const std::vector<Path>& paths, uint32_t classes = 1)
{
    RuleSet out;
    for (const Path& p : paths)
    {
        for (uint32_t c = 1; c <= classes; ++c)
        {
            for (size_t i = 1; i + 1 < p.size(); ++i)
            {
                int tag = static_cast<int>(i + c - 1);
                out.emplace(p[i],
                            tag,
                            PortTo(topo, p[i], p[i - 1]),
                            PortTo(topo, p[i], p[i + 1]),
                            tag + 1);
            }
        }
    }
    return out;
}

/**
 * Lossless tag count recomputed from the rules: the highest tag a packet can
 * carry when it arrives at a forwarding node, i.e. the tag of any rule, or the
 * new tag of a rule whose out port leads to a forwarding node.
 */
inline uint32_t
IndependentLosslessTags(const TagRules& rules)
{
    const Topology& topo = rules.GetTopology();
    uint32_t best = 0;
    for (NodeId n = 0; n < topo.GetNNodes(); ++n)
    {
        for (const Rule& r : rules.GetRules(n))
        {
            best = std::max<uint32_t>(best, r.tag);
            PortRef peer = topo.GetPeer(n, r.outPort);
            if (peer.node != kNone && topo.IsForwarder(peer.node))
            {
                best = std::max<uint32_t>(best, r.newTag);
            }
        }
    }
    return best;
}

/**
 * A second, independent implementation of the two requirements of section V.
 * Tagged-graph node (port, tag) gets id portIndex * 64 + tag; an edge joins
 * (n_in, t) to (peer_port, t') for every rule (t, in, out) -> t' at n whose out
 * port leads to a forwarding node.  Returns "" when both requirements hold
 * (and every tag reaching a forwarder is <= lossless when lossless > 0), else a
 * description of the first problem found.
 */
inline std::string
IndependentDeadlockCheck(const TagRules& rules, uint32_t lossless = 0)
{
    const Topology& topo = rules.GetTopology();
    const uint32_t nIds = topo.GetNPorts() * 64;
    std::vector<std::vector<uint32_t>> same(nIds);
    for (NodeId n = 0; n < topo.GetNNodes(); ++n)
    {
        for (const Rule& r : rules.GetRules(n))
        {
            PortRef peer = topo.GetPeer(n, r.outPort);
            if (peer.node == kNone || !topo.IsForwarder(peer.node))
            {
                continue;
            }
            if (r.newTag < r.tag)
            {
                return "decreasing edge at " + topo.GetNode(n).name;
            }
            if (lossless > 0 && (r.newTag > lossless || r.tag > lossless))
            {
                return "tag above the lossless limit at " + topo.GetNode(n).name;
            }
            if (r.newTag == r.tag)
            {
                same[topo.GetPortIndex(n, r.inPort) * 64 + r.tag].push_back(
                    topo.GetPortIndex(peer.node, peer.port) * 64 + r.tag);
            }
        }
    }
    // iterative three-colour DFS over the same-tag edges
    std::vector<uint8_t> colour(nIds, 0);
    std::vector<std::pair<uint32_t, size_t>> stack;
    for (uint32_t s = 0; s < nIds; ++s)
    {
        if (colour[s] != 0 || same[s].empty())
        {
            continue;
        }
        stack.emplace_back(s, 0);
        colour[s] = 1;
        while (!stack.empty())
        {
            auto& [v, i] = stack.back();
            if (i < same[v].size())
            {
                uint32_t w = same[v][i++];
                if (colour[w] == 1)
                {
                    PortRef pr = topo.GetPortRef(w / 64);
                    return "cycle in tag " + std::to_string(w % 64) + " through " +
                           topo.GetNode(pr.node).name;
                }
                if (colour[w] == 0)
                {
                    colour[w] = 1;
                    stack.emplace_back(w, 0);
                }
            }
            else
            {
                colour[v] = 2;
                stack.pop_back();
            }
        }
    }
    return "";
}

/**
 * Independent ELP coverage check over explicit paths: every class c starts
 * with tag c, every hop must find a rule, and (lossless > 0) every tag arriving
 * at a forwarding node must be <= lossless.  Returns "" or the first failure.
 */
inline std::string
IndependentElpCheck(const TagRules& rules,
                    const std::vector<Path>& paths,
                    uint32_t classes = 1,
                    uint32_t lossless = 0)
{
    const Topology& topo = rules.GetTopology();
    for (const Path& p : paths)
    {
        for (uint32_t c = 1; c <= classes; ++c)
        {
            Tag tag = static_cast<Tag>(c);
            for (size_t i = 1; i + 1 < p.size(); ++i)
            {
                if (lossless > 0 && tag > lossless)
                {
                    return "tag above limit on " + FormatPath(topo, p);
                }
                tag = rules.Get(p[i],
                                tag,
                                PortTo(topo, p[i], p[i - 1]),
                                PortTo(topo, p[i], p[i + 1]));
                if (tag == kLossyTag)
                {
                    return "class " + std::to_string(c) + " goes lossy at " +
                           topo.GetNode(p[i]).name + " on " + FormatPath(topo, p);
                }
            }
        }
    }
    return "";
}

/// A line of n switches with a host at each end: HA S1 .. Sn HB (node ids in that order).
inline Topology
MakeLine(uint32_t n)
{
    Topology t;
    NodeId prev = t.AddNode("HA", NodeKind::HOST, 1);
    for (uint32_t i = 0; i < n; ++i)
    {
        NodeId s = t.AddNode("S" + std::to_string(i + 1), NodeKind::SWITCH, 2);
        t.Connect(prev, s);
        prev = s;
    }
    t.Connect(prev, t.AddNode("HB", NodeKind::HOST, 1));
    return t;
}

/**
 * A random connected switch graph: a random spanning tree plus each other pair
 * with probability `extra`, 1-2 hosts per switch, sometimes a spare unconnected
 * port, port numbers shuffled.  No parallel links.  Switches S1.., hosts H1...
 */
inline Topology
MakeRandomTopology(std::mt19937_64& rng, uint32_t nSwitches, double extra)
{
    std::vector<std::pair<uint32_t, uint32_t>> edges;
    std::set<std::pair<uint32_t, uint32_t>> have;
    for (uint32_t i = 1; i < nSwitches; ++i)
    {
        uint32_t j = std::uniform_int_distribution<uint32_t>(0, i - 1)(rng);
        edges.emplace_back(j, i);
        have.emplace(j, i);
    }
    std::bernoulli_distribution coin(extra);
    for (uint32_t i = 0; i < nSwitches; ++i)
    {
        for (uint32_t j = i + 1; j < nSwitches; ++j)
        {
            if (!have.count({i, j}) && coin(rng))
            {
                edges.emplace_back(i, j);
                have.emplace(i, j);
            }
        }
    }
    std::vector<uint32_t> deg(nSwitches, 0);
    for (const auto& e : edges)
    {
        ++deg[e.first];
        ++deg[e.second];
    }
    std::vector<uint32_t> hosts(nSwitches);
    std::vector<std::vector<PortNo>> freePorts(nSwitches);
    Topology t;
    std::vector<NodeId> sw(nSwitches);
    for (uint32_t i = 0; i < nSwitches; ++i)
    {
        hosts[i] = std::uniform_int_distribution<uint32_t>(1, 2)(rng);
        uint32_t spare = std::uniform_int_distribution<uint32_t>(0, 1)(rng);
        uint32_t ports = deg[i] + hosts[i] + spare;
        sw[i] = t.AddNode("S" + std::to_string(i + 1), NodeKind::SWITCH, ports);
        for (PortNo p = 0; p < ports; ++p)
        {
            freePorts[i].push_back(p);
        }
        std::shuffle(freePorts[i].begin(), freePorts[i].end(), rng);
    }
    auto take = [&](uint32_t i) {
        PortNo p = freePorts[i].back();
        freePorts[i].pop_back();
        return p;
    };
    std::shuffle(edges.begin(), edges.end(), rng);
    for (const auto& e : edges)
    {
        PortNo pa = take(e.first);
        PortNo pb = take(e.second);
        t.AddLink(sw[e.first], pa, sw[e.second], pb);
    }
    uint32_t h = 0;
    for (uint32_t i = 0; i < nSwitches; ++i)
    {
        for (uint32_t k = 0; k < hosts[i]; ++k)
        {
            NodeId hn = t.AddNode("H" + std::to_string(++h), NodeKind::HOST, 1);
            t.AddLink(sw[i], take(i), hn, 0);
        }
    }
    return t;
}

/**
 * A random loop-free host-to-host path: a self-avoiding random walk over the
 * forwarding nodes from the source host's switch that, at each switch carrying
 * a host other than the source, stops there with probability 0.35 (and always
 * when it is stuck).  Returns an empty path when it fails (no other host
 * reachable on the walk).
 */
inline Path
RandomWalkPath(const Topology& topo, std::mt19937_64& rng)
{
    std::vector<NodeId> hostList = topo.GetHosts();
    for (int attempt = 0; attempt < 50; ++attempt)
    {
        NodeId src = hostList[std::uniform_int_distribution<size_t>(0, hostList.size() - 1)(rng)];
        NodeId first = topo.GetPeer(src, 0).node;
        Path p{src, first};
        std::set<NodeId> seen{src, first};
        while (true)
        {
            NodeId cur = p.back();
            std::vector<NodeId> hostsHere;
            std::vector<NodeId> next;
            for (NodeId nb : topo.GetNeighbors(cur))
            {
                if (seen.count(nb))
                {
                    continue;
                }
                if (topo.IsForwarder(nb))
                {
                    next.push_back(nb);
                }
                else
                {
                    hostsHere.push_back(nb);
                }
            }
            bool stop =
                !hostsHere.empty() && (next.empty() || std::bernoulli_distribution(0.35)(rng));
            if (stop)
            {
                p.push_back(
                    hostsHere[std::uniform_int_distribution<size_t>(0, hostsHere.size() - 1)(rng)]);
                return p;
            }
            if (next.empty())
            {
                break; // stuck without a destination: retry
            }
            NodeId nb = next[std::uniform_int_distribution<size_t>(0, next.size() - 1)(rng)];
            seen.insert(nb);
            p.push_back(nb);
        }
    }
    return {};
}

/// n random loop-free paths (see RandomWalkPath), duplicates removed.
inline std::vector<Path>
RandomPaths(const Topology& topo, std::mt19937_64& rng, uint32_t n)
{
    std::set<Path> s;
    for (uint32_t i = 0; i < n; ++i)
    {
        Path p = RandomWalkPath(topo, rng);
        if (!p.empty())
        {
            s.insert(p);
        }
    }
    return std::vector<Path>(s.begin(), s.end());
}

/// Number of bounces of a path in a layered topology: forwarding nodes whose
/// previous and next nodes are both in a higher layer (came down, goes up).
inline uint32_t
CountBounces(const Topology& topo, const Path& p)
{
    uint32_t n = 0;
    for (size_t i = 1; i + 1 < p.size(); ++i)
    {
        int l = topo.GetNode(p[i]).layer;
        if (topo.GetNode(p[i - 1]).layer > l && topo.GetNode(p[i + 1]).layer > l)
        {
            ++n;
        }
    }
    return n;
}

/**
 * Every loop-free host-to-host path of a layered topology with at most
 * `bounces` bounces, enumerated by a plain depth-first search (no host in the
 * middle of a path).  For small topologies only.
 */
inline std::set<Path>
EnumerateUpDownPaths(const Topology& topo, uint32_t bounces)
{
    std::set<Path> out;
    std::vector<char> onPath(topo.GetNNodes(), 0);
    Path p;
    // dfs(extend p whose last node is a forwarder, b bounces so far)
    std::function<void(uint32_t)> dfs = [&](uint32_t b) {
        NodeId cur = p.back();
        NodeId prev = p[p.size() - 2];
        std::vector<NodeId> nbs = topo.GetNeighbors(cur);
        std::sort(nbs.begin(), nbs.end());
        nbs.erase(std::unique(nbs.begin(), nbs.end()), nbs.end());
        for (NodeId nb : nbs)
        {
            if (onPath[nb])
            {
                continue;
            }
            uint32_t nbB = b;
            int l = topo.GetNode(cur).layer;
            if (topo.GetNode(prev).layer > l && topo.GetNode(nb).layer > l)
            {
                ++nbB;
            }
            if (nbB > bounces)
            {
                continue;
            }
            p.push_back(nb);
            onPath[nb] = 1;
            if (topo.IsForwarder(nb))
            {
                dfs(nbB);
            }
            else
            {
                out.insert(p);
            }
            onPath[nb] = 0;
            p.pop_back();
        }
    };
    for (NodeId h : topo.GetHosts())
    {
        NodeId sw = topo.GetPeer(h, 0).node;
        if (sw == kNone)
        {
            continue;
        }
        p = {h, sw};
        onPath[h] = onPath[sw] = 1;
        dfs(0);
        onPath[h] = onPath[sw] = 0;
    }
    return out;
}

/// Entries (node, in, out, level mask) where two HopGraphs differ; "" when equal.
inline std::string
DiffHopGraphs(const Topology& topo, const HopGraph& x, const HopGraph& y)
{
    std::ostringstream os;
    int shown = 0;
    for (NodeId n = 0; n < topo.GetNNodes(); ++n)
    {
        if (!topo.IsForwarder(n))
        {
            continue;
        }
        const uint32_t ports = topo.GetNode(n).ports;
        for (PortNo i = 0; i < ports; ++i)
        {
            for (PortNo o = 0; o < ports; ++o)
            {
                uint64_t a = x.GetMask(n, i, o);
                uint64_t b = y.GetMask(n, i, o);
                if (a != b && shown++ < 5)
                {
                    os << topo.GetNode(n).name << " in " << i << " out " << o << ": levels";
                    for (uint32_t l = 1; l <= kMaxLevel; ++l)
                    {
                        if ((a ^ b) >> l & 1)
                        {
                            os << " " << l << ((a >> l & 1) ? "(only first)" : "(only second)");
                        }
                    }
                    os << "; ";
                }
            }
        }
    }
    return os.str();
}

/// An ELP with the same explicit paths and no HopGraph (nor up-down bounce
/// limit), so that the verifier checks exactly the explicit paths.
inline Elp
PathsOnly(const Topology& topo, const Elp& elp)
{
    Elp e = elp;
    e.graph = HopGraph(topo);
    e.upDownBounces = -1; // no up-down state machine either: the paths alone
    return e;
}

/// Compare the TCAM of every node with the plain rules for every (tag, in, out),
/// tags 0 .. maxTag + 1.  Returns "" or the first mismatch.
inline std::string
CheckTcamEquivalent(const TagRules& rules)
{
    const Topology& topo = rules.GetTopology();
    const uint32_t maxTag = std::min<uint32_t>(kMaxTag, rules.GetMaxTag() + 1u);
    for (NodeId n = 0; n < topo.GetNNodes(); ++n)
    {
        if (!topo.IsForwarder(n))
        {
            continue;
        }
        std::vector<TcamEntry> tcam = CompressTcam(rules, n);
        if (tcam.size() > rules.CountRules(n))
        {
            return "more TCAM entries than rules at " + topo.GetNode(n).name;
        }
        const uint32_t ports = topo.GetNode(n).ports;
        for (uint32_t t = 0; t <= maxTag; ++t)
        {
            for (PortNo i = 0; i < ports; ++i)
            {
                for (PortNo o = 0; o < ports; ++o)
                {
                    Tag want = rules.Get(n, static_cast<Tag>(t), i, o);
                    Tag got = LookupTcam(tcam, static_cast<Tag>(t), i, o);
                    if (want != got)
                    {
                        return "TCAM mismatch at " + topo.GetNode(n).name + " tag " +
                               std::to_string(t) + " in " + std::to_string(i) + " out " +
                               std::to_string(o) + ": rule " + std::to_string(want) + " tcam " +
                               std::to_string(got);
                    }
                }
            }
        }
    }
    return "";
}

/// true when `to` is reachable from `from` in the graph adj (a fresh depth-first search).
inline bool
ReachesInGraph(const std::map<PortIndex, std::set<PortIndex>>& adj, PortIndex from, PortIndex to)
{
    std::set<PortIndex> seen{from};
    std::vector<PortIndex> stack{from};
    while (!stack.empty())
    {
        const PortIndex u = stack.back();
        stack.pop_back();
        if (u == to)
        {
            return true;
        }
        const auto it = adj.find(u);
        for (PortIndex v : it == adj.end() ? std::set<PortIndex>() : it->second)
        {
            if (seen.insert(v).second)
            {
                stack.push_back(v);
            }
        }
    }
    return false;
}

/// A random sparse graph (MakeRandomSparse) and its shortest-path-tree ELP plus `extra`
/// random paths, all seeded by `seed` (as the order benchmark builds its cases).
struct SparseElpCase
{
    SparseElpCase(uint32_t n, uint32_t minDegree, uint32_t maxDegree, uint64_t extra, uint64_t seed)
        : topo(MakeRandomSparse(n, minDegree, maxDegree, seed))
    {
        ElpOptions eo;
        eo.seed = seed;
        elp = MakeShortestPathTreeElp(topo, eo);
        if (extra > 0)
        {
            AddRandomPaths(elp, topo, extra, seed);
        }
    }

    Topology topo; //!< the graph
    Elp elp;       //!< its ELP
};

} // namespace test
} // namespace tagger
} // namespace ns3

#endif /* TAGGER_TEST_UTIL_H */
