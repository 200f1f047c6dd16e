/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the ELP generators.  The per-destination generators never
 * enumerate paths; here every family is recomputed the slow way (all simple
 * host-to-host paths by depth-first search, filtered by length, by tree
 * membership or by the up-down rule; up-down walks by a separate search) and
 * turned into a HopGraph with AddPath / Add, hop by hop.  Small counts are
 * also written out by hand.
 */

#include "tagger-elp.h"
#include "tagger-topology-generators.h"
#include "tagger-topology.h"
#include "test-util.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace ns3::tagger;
using ns3::tagger::test::HasSubstr;

namespace
{

/// The message of the TaggerError f throws ("" when it does not throw).
template <typename F>
std::string
ErrorOf(F f)
{
    try
    {
        f();
    }
    catch (const TaggerError& e)
    {
        return e.what();
    }
    return "";
}

std::string
Text(const Topology& t, const Path& p)
{
    std::string s;
    for (NodeId n : p)
    {
        s += (s.empty() ? "" : " ") + t.GetNode(n).name;
    }
    return s;
}

Path
ByNames(const Topology& t, const std::vector<std::string>& names)
{
    Path p;
    for (const auto& n : names)
    {
        p.push_back(t.GetNodeId(n));
    }
    return p;
}

/// Distinct neighbours of n in id order.
std::vector<NodeId>
Nbrs(const Topology& t, NodeId n)
{
    std::vector<NodeId> v = t.GetNeighbors(n);
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
}

/// Every simple host-to-host path whose inner nodes forward (brute force).
std::vector<Path>
AllSimplePaths(const Topology& t)
{
    std::vector<Path> out;
    Path cur;
    std::vector<char> on(t.GetNNodes(), 0);
    std::function<void(NodeId)> dfs = [&](NodeId x) {
        for (NodeId y : Nbrs(t, x))
        {
            if (on[y])
            {
                continue;
            }
            if (t.IsHost(y))
            {
                out.push_back(cur);
                out.back().push_back(y);
            }
            if (t.IsForwarder(y))
            {
                on[y] = 1;
                cur.push_back(y);
                dfs(y);
                cur.pop_back();
                on[y] = 0;
            }
        }
    };
    for (NodeId s : t.GetHosts())
    {
        cur.assign(1, s);
        on[s] = 1;
        dfs(s);
        on[s] = 0;
    }
    return out;
}

/// Paths grouped by (source, destination), each group in (length, node ids) order.
std::map<std::pair<NodeId, NodeId>, std::vector<Path>>
ByPair(std::vector<Path> paths)
{
    std::sort(paths.begin(), paths.end(), [](const Path& a, const Path& b) {
        return a.size() != b.size() ? a.size() < b.size() : a < b;
    });
    std::map<std::pair<NodeId, NodeId>, std::vector<Path>> m;
    for (const Path& p : paths)
    {
        m[{p.front(), p.back()}].push_back(p);
    }
    return m;
}

std::vector<Path>
ShortestOnly(const std::vector<Path>& all)
{
    std::vector<Path> out;
    for (const auto& [pair, v] : ByPair(all))
    {
        for (const Path& p : v)
        {
            if (p.size() == v.front().size())
            {
                out.push_back(p);
            }
        }
    }
    return out;
}

std::vector<Path>
FirstK(const std::vector<Path>& all, size_t k)
{
    std::vector<Path> out;
    for (const auto& [pair, v] : ByPair(all))
    {
        for (size_t i = 0; i < v.size() && i < k; ++i)
        {
            out.push_back(v[i]);
        }
    }
    return out;
}

HopGraph
GraphOf(const Topology& t, const std::vector<Path>& paths)
{
    HopGraph g(t);
    for (const Path& p : paths)
    {
        g.AddPath(p);
    }
    return g;
}

/// "" when the graphs hold the same masks, else the first difference.
std::string
Diff(const Topology& t, const HopGraph& got, const HopGraph& want)
{
    for (NodeId n = 0; n < t.GetNNodes(); ++n)
    {
        if (!t.IsForwarder(n))
        {
            continue;
        }
        for (PortNo i = 0; i < t.GetNode(n).ports; ++i)
        {
            for (PortNo o = 0; o < t.GetNode(n).ports; ++o)
            {
                if (got.GetMask(n, i, o) != want.GetMask(n, i, o))
                {
                    return t.GetNode(n).name + " in " + std::to_string(i) + " out " +
                           std::to_string(o) + ": got " + std::to_string(got.GetMask(n, i, o)) +
                           " want " + std::to_string(want.GetMask(n, i, o));
                }
            }
        }
    }
    if (got.GetMaxLevel() != want.GetMaxLevel() || got.CountEntries() != want.CountEntries())
    {
        return "max level or entry count differ";
    }
    return "";
}

/// true when every entry of small is in big.
bool
IsSubGraph(const Topology& t, const HopGraph& small, const HopGraph& big)
{
    for (NodeId n = 0; n < t.GetNNodes(); ++n)
    {
        if (!t.IsForwarder(n))
        {
            continue;
        }
        for (PortNo i = 0; i < t.GetNode(n).ports; ++i)
        {
            for (PortNo o = 0; o < t.GetNode(n).ports; ++o)
            {
                if (small.GetMask(n, i, o) & ~big.GetMask(n, i, o))
                {
                    return false;
                }
            }
        }
    }
    return true;
}

uint32_t
Longest(const std::vector<Path>& paths)
{
    size_t m = 0;
    for (const Path& p : paths)
    {
        m = std::max(m, p.size() - 1);
    }
    return static_cast<uint32_t>(m);
}

std::vector<Path>
Sorted(std::vector<Path> v)
{
    std::sort(v.begin(), v.end());
    return v;
}

/**
 * Up-down walks (brute force): host, then forwarders, then a host; every hop
 * changes layer, never straight back to the previous node, at most `bounces`
 * bounces (a node entered from above and left upward).  Walks may revisit
 * nodes.  Adds every hop of every walk to g; returns the number of walks.
 */
uint64_t
UpDownWalks(const Topology& t, uint32_t bounces, HopGraph& g)
{
    uint64_t count = 0;
    Path cur;
    auto layer = [&t](NodeId n) { return t.GetNode(n).layer; };
    std::function<void(uint32_t, bool)> dfs = [&](uint32_t b, bool lastUp) {
        NodeId x = cur.back();
        NodeId prev = cur[cur.size() - 2];
        for (NodeId y : Nbrs(t, x))
        {
            if (y == prev || layer(y) == layer(x))
            {
                continue;
            }
            bool up = layer(y) > layer(x);
            uint32_t b2 = b + (!lastUp && up ? 1 : 0);
            if (b2 > bounces)
            {
                continue;
            }
            if (t.IsHost(y))
            {
                ++count;
                cur.push_back(y);
                for (size_t i = 1; i + 1 < cur.size(); ++i)
                {
                    NodeId p = cur[i - 1];
                    PortNo in = t.GetPeer(p, t.GetPortTo(p, cur[i])).port;
                    g.Add(cur[i], in, t.GetPortTo(cur[i], cur[i + 1]), static_cast<uint32_t>(i));
                }
                cur.pop_back();
            }
            if (t.IsForwarder(y))
            {
                cur.push_back(y);
                dfs(b2, up);
                cur.pop_back();
            }
        }
    };
    for (NodeId h : t.GetHosts())
    {
        for (NodeId x : Nbrs(t, h))
        {
            if (!t.IsForwarder(x) || layer(x) == layer(h))
            {
                continue;
            }
            cur = {h, x};
            dfs(0, layer(x) > layer(h));
        }
    }
    return count;
}

/// Simple paths that follow the up-down rule with at most `bounces` bounces.
std::vector<Path>
UpDownSimple(const Topology& t, const std::vector<Path>& all, uint32_t bounces)
{
    std::vector<Path> out;
    for (const Path& p : all)
    {
        uint32_t b = 0;
        bool ok = true;
        for (size_t i = 0; i + 1 < p.size() && ok; ++i)
        {
            int32_t la = t.GetNode(p[i]).layer;
            int32_t lb = t.GetNode(p[i + 1]).layer;
            if (la == lb)
            {
                ok = false;
            }
            if (i > 0 && t.GetNode(p[i - 1]).layer > la && lb > la)
            {
                ++b;
            }
        }
        if (ok && b <= bounces)
        {
            out.push_back(p);
        }
    }
    return out;
}

/**
 * A small irregular topology exercising the corner cases: a multi-homed host
 * (B on S2 and S3), a relay host R with a host C of its own, parallel links
 * (S1-S3 twice, E to S1 twice), a switch without hosts (S5), a spare port.
 */
Topology
OddTopology()
{
    Topology t;
    NodeId s1 = t.AddNode("S1", NodeKind::SWITCH, 6);
    NodeId s2 = t.AddNode("S2", NodeKind::SWITCH, 5);
    NodeId s3 = t.AddNode("S3", NodeKind::SWITCH, 6);
    NodeId s4 = t.AddNode("S4", NodeKind::SWITCH, 4);
    NodeId s5 = t.AddNode("S5", NodeKind::SWITCH, 2);
    NodeId a = t.AddNode("A", NodeKind::HOST, 1);
    NodeId b = t.AddNode("B", NodeKind::HOST, 2);
    NodeId r = t.AddNode("R", NodeKind::HOST, 3, -1, true);
    NodeId c = t.AddNode("C", NodeKind::HOST, 1);
    NodeId d = t.AddNode("D", NodeKind::HOST, 1);
    NodeId e = t.AddNode("E", NodeKind::HOST, 2);
    t.AddLink(s1, 3, s2, 0);
    t.AddLink(s2, 1, s3, 0);
    t.AddLink(s3, 5, s4, 0);
    t.AddLink(s4, 1, s1, 0);
    t.AddLink(s1, 4, s3, 2); // parallel S1-S3 links: a node path uses S1:1 / S3:1
    t.AddLink(s1, 1, s3, 1);
    t.AddLink(s4, 2, s5, 0);
    t.AddLink(a, 0, s1, 2);
    t.AddLink(b, 0, s2, 2);
    t.AddLink(b, 1, s3, 3);
    t.AddLink(r, 0, s4, 3);
    t.AddLink(r, 1, s2, 3);
    t.AddLink(c, 0, r, 2);
    t.AddLink(d, 0, s3, 4);
    t.AddLink(e, 1, s1, 5);
    t.AddLink(e, 0, s5, 1); // E is multi-homed too (S1, S5)
    return t;
}

/// Like OddTopology but E only on S1 (twice: parallel host links).
Topology
OddTopology2()
{
    Topology t;
    NodeId s1 = t.AddNode("S1", NodeKind::SWITCH, 7);
    NodeId s2 = t.AddNode("S2", NodeKind::SWITCH, 5);
    NodeId s3 = t.AddNode("S3", NodeKind::SWITCH, 6);
    NodeId s4 = t.AddNode("S4", NodeKind::SWITCH, 4);
    NodeId s5 = t.AddNode("S5", NodeKind::SWITCH, 2);
    NodeId a = t.AddNode("A", NodeKind::HOST, 1);
    NodeId b = t.AddNode("B", NodeKind::HOST, 2);
    NodeId r = t.AddNode("R", NodeKind::HOST, 3, -1, true);
    NodeId c = t.AddNode("C", NodeKind::HOST, 1);
    NodeId d = t.AddNode("D", NodeKind::HOST, 1);
    NodeId e = t.AddNode("E", NodeKind::HOST, 2);
    t.AddLink(s1, 3, s2, 0);
    t.AddLink(s2, 1, s3, 0);
    t.AddLink(s3, 5, s4, 0);
    t.AddLink(s4, 1, s1, 0);
    t.AddLink(s1, 4, s3, 2);
    t.AddLink(s1, 1, s3, 1);
    t.AddLink(s4, 2, s5, 0);
    t.AddLink(a, 0, s1, 2);
    t.AddLink(b, 0, s2, 2);
    t.AddLink(b, 1, s3, 3);
    t.AddLink(r, 0, s4, 3);
    t.AddLink(r, 1, s2, 3);
    t.AddLink(c, 0, r, 2);
    t.AddLink(d, 0, s3, 4);
    t.AddLink(e, 1, s1, 6);
    t.AddLink(e, 0, s1, 5);
    return t;
}

/**
 * Tiny Clos for hand counts: pod 1 = T1, T2 under L1, L2; pod 2 = T3, T4
 * under L3, L4; S1 above L1, L3 and S2 above L2, L4.  H1 on T1, H2 on T2, H3
 * on T3, T4 without hosts.
 */
Topology
TinyClos()
{
    Topology t;
    auto sw = [&t](const std::string& n, int32_t layer, uint32_t ports) {
        return t.AddNode(n, NodeKind::SWITCH, ports, layer);
    };
    NodeId t1 = sw("T1", 1, 3);
    NodeId t2 = sw("T2", 1, 3);
    NodeId t3 = sw("T3", 1, 3);
    NodeId t4 = sw("T4", 1, 3);
    NodeId l1 = sw("L1", 2, 3);
    NodeId l2 = sw("L2", 2, 3);
    NodeId l3 = sw("L3", 2, 3);
    NodeId l4 = sw("L4", 2, 3);
    NodeId s1 = sw("S1", 3, 2);
    NodeId s2 = sw("S2", 3, 2);
    t.Connect(t1, l1);
    t.Connect(t1, l2);
    t.Connect(t2, l1);
    t.Connect(t2, l2);
    t.Connect(t3, l3);
    t.Connect(t3, l4);
    t.Connect(t4, l3);
    t.Connect(t4, l4);
    t.Connect(l1, s1);
    t.Connect(l3, s1);
    t.Connect(l2, s2);
    t.Connect(l4, s2);
    t.Connect(t.AddNode("H1", NodeKind::HOST, 1, 0), t1);
    t.Connect(t.AddNode("H2", NodeKind::HOST, 1, 0), t2);
    t.Connect(t.AddNode("H3", NodeKind::HOST, 1, 0), t3);
    return t;
}

/// Checks of a shortest-path-tree ELP with stored paths against brute force.
void
CheckTree(const Topology& t, const Elp& elp, const std::vector<Path>& all)
{
    SCOPED_TRACE("tree");
    auto pairs = ByPair(all);
    ASSERT_EQ(elp.paths.size(), elp.pathCount);
    // exactly one path per connected pair, and it is a shortest one
    std::map<std::pair<NodeId, NodeId>, Path> got;
    for (const Path& p : elp.paths)
    {
        ASSERT_TRUE(got.emplace(std::make_pair(p.front(), p.back()), p).second)
            << "two paths for one pair: " << Text(t, p);
    }
    ASSERT_EQ(got.size(), pairs.size());
    for (const auto& [pair, p] : got)
    {
        const auto& candidates = pairs.at(pair);
        EXPECT_EQ(p.size(), candidates.front().size()) << Text(t, p) << " is not shortest";
        EXPECT_TRUE(std::find(candidates.begin(), candidates.end(), p) != candidates.end())
            << Text(t, p) << " is not a simple path";
    }
    // per destination "unit" (the switch of a single-homed host, else the host
    // itself) the paths form an in-tree: one next hop per node
    auto unitOf = [&t](NodeId h) {
        std::vector<NodeId> nb = Nbrs(t, h);
        if (!t.IsForwarder(h) && nb.size() == 1 && t.IsForwarder(nb[0]))
        {
            return nb[0];
        }
        return h;
    };
    std::map<std::pair<NodeId, NodeId>, NodeId> next; // (unit, node) -> next node
    for (const Path& p : elp.paths)
    {
        NodeId u = unitOf(p.back());
        for (size_t i = 0; i + 1 < p.size(); ++i)
        {
            if (p[i] == u)
            {
                break;
            }
            auto [it, fresh] = next.emplace(std::make_pair(u, p[i]), p[i + 1]);
            EXPECT_EQ(it->second, p[i + 1])
                << "not a tree toward " << t.GetNode(u).name << " at " << t.GetNode(p[i]).name;
        }
    }
    // the mask computation agrees with the paths it claims
    EXPECT_EQ(Diff(t, elp.graph, GraphOf(t, elp.paths)), "");
    EXPECT_EQ(elp.longestPath, Longest(elp.paths));
    EXPECT_EQ(elp.longestPath, elp.graph.GetMaxLevel() + 1);
}

/// Shortest paths, k shortest (k = 1..3) and trees on t against brute force.
void
CheckAllFamilies(const Topology& t)
{
    std::vector<Path> all = AllSimplePaths(t);
    {
        SCOPED_TRACE("shortest paths");
        std::vector<Path> sp = ShortestOnly(all);
        Elp elp = MakeShortestPathElp(t);
        EXPECT_EQ(Diff(t, elp.graph, GraphOf(t, sp)), "");
        EXPECT_EQ(elp.pathCount, sp.size());
        EXPECT_EQ(elp.longestPath, Longest(sp));
        EXPECT_EQ(Sorted(elp.paths), Sorted(sp));
        ElpOptions none;
        none.maxExplicitPaths = 0;
        Elp bare = MakeShortestPathElp(t, none);
        EXPECT_TRUE(bare.paths.empty());
        EXPECT_EQ(bare.pathCount, sp.size());
        EXPECT_EQ(Diff(t, bare.graph, elp.graph), "");
    }
    // k <= 64 takes the first k shortest paths from a per-destination table
    // when there are enough; k = 100 always searches
    for (uint32_t k : {1u, 2u, 3u, 100u})
    {
        SCOPED_TRACE("k shortest, k = " + std::to_string(k));
        std::vector<Path> ks = FirstK(all, k);
        Elp elp = MakeKShortestElp(t, k);
        EXPECT_EQ(Diff(t, elp.graph, GraphOf(t, ks)), "");
        EXPECT_EQ(elp.pathCount, ks.size());
        EXPECT_EQ(elp.longestPath, Longest(ks));
        // same paths, each pair in (length, node id) order
        EXPECT_EQ(elp.paths, ks);
    }
    for (uint64_t seed = 1; seed <= 3; ++seed)
    {
        ElpOptions o;
        o.seed = seed;
        CheckTree(t, MakeShortestPathTreeElp(t, o), all);
    }
}

} // namespace

// ---------------------------------------------------------------------------
// HopGraph
// ---------------------------------------------------------------------------

TEST(ElpHopGraph, AddPathLevelsByHand)
{
    Topology t = OddTopology2();
    HopGraph g(t);
    EXPECT_TRUE(g.IsEmpty());
    // A S1 S3 D: S1 sees level 1 from A's port 2 toward S3 (lowest port 1),
    // S3 level 2 arriving on port 1 (peer of S1:1), out port 4 to D
    g.AddPath(ByNames(t, {"A", "S1", "S3", "D"}));
    EXPECT_EQ(g.GetMask(t.GetNodeId("S1"), 2, 1), uint64_t{1} << 1);
    EXPECT_EQ(g.GetMask(t.GetNodeId("S3"), 1, 4), uint64_t{1} << 2);
    EXPECT_EQ(g.CountEntries(), 2u);
    EXPECT_EQ(g.GetMaxLevel(), 2u);
    // through the relay host R: C R S2 B: R level 1 (in 2, out 1), S2 level 2 (in 3, out 2)
    g.AddPath(ByNames(t, {"C", "R", "S2", "B"}));
    EXPECT_EQ(g.GetMask(t.GetNodeId("R"), 2, 1), uint64_t{1} << 1);
    EXPECT_EQ(g.GetMask(t.GetNodeId("S2"), 3, 2), uint64_t{1} << 2);
    // E has two links to S1: the node path uses E's lowest port 0, arriving at S1:5
    g.AddPath(ByNames(t, {"E", "S1", "S4", "R", "C"}));
    EXPECT_EQ(g.GetMask(t.GetNodeId("S1"), 5, 0), uint64_t{1} << 1);
    EXPECT_EQ(g.GetMask(t.GetNodeId("S4"), 1, 3), uint64_t{1} << 2);
    EXPECT_EQ(g.GetMask(t.GetNodeId("R"), 0, 2), uint64_t{1} << 3);
    EXPECT_EQ(g.CountEntries(), 7u);
    EXPECT_EQ(g.GetMaxLevel(), 3u);
    // the same transition at another level ORs in
    g.Add(t.GetNodeId("S1"), 2, 1, 5);
    EXPECT_EQ(g.GetMask(t.GetNodeId("S1"), 2, 1), (uint64_t{1} << 1) | (uint64_t{1} << 5));
    EXPECT_EQ(g.GetMaxLevel(), 5u);
    EXPECT_EQ(g.GetMask(t.GetNodeId("S2"), 0, 0), 0u);
}

TEST(ElpHopGraph, AddPathErrors)
{
    Topology t = OddTopology2();
    HopGraph g(t);
    auto err = [&](const std::vector<std::string>& names) {
        return ErrorOf([&] { g.AddPath(ByNames(t, names)); });
    };
    EXPECT_TRUE(HasSubstr(err({"A"}), "at least two nodes"));
    EXPECT_TRUE(HasSubstr(err({"S1", "S3", "D"}), "starts at S1, which is not a host"));
    EXPECT_TRUE(HasSubstr(err({"A", "S1", "S3"}), "ends at S3, which is not a host"));
    EXPECT_TRUE(HasSubstr(err({"A", "S1", "S3", "S1", "E"}), "S1 appears twice"));
    EXPECT_TRUE(HasSubstr(err({"A", "S1", "S5", "S4", "R"}), "S1 and S5 are not linked"));
    EXPECT_TRUE(HasSubstr(err({"A", "S1", "S2", "B", "S3", "D"}), "host B, which does not relay"));
    EXPECT_TRUE(HasSubstr(err({"A", "S1", "S2", "B", "S3", "D"}), "path A S1 S2 B S3 D"));
    EXPECT_EQ(err({"A", "S1", "S2", "R", "C"}), "");
    EXPECT_TRUE(HasSubstr(ErrorOf([&] { g.AddPath(Path{0, 99}); }), "node id 99"));
    EXPECT_TRUE(HasSubstr(ErrorOf([&] { g.Add(0, 0, 1, 0); }), "out of range"));
    EXPECT_TRUE(HasSubstr(ErrorOf([&] { g.Add(0, 0, 1, 64); }), "out of range"));
    EXPECT_TRUE(
        HasSubstr(ErrorOf([&] { g.Add(t.GetNodeId("A"), 0, 0, 1); }), "A does not forward"));
    EXPECT_TRUE(HasSubstr(ErrorOf([&] { g.Add(0, 0, 7, 1); }), "port 7 out of range on S1"));
    // 63 forwarders fit, 64 do not
    Topology l63 = test::MakeLine(63);
    HopGraph g63(l63);
    Path p63;
    for (NodeId n = 0; n < l63.GetNNodes(); ++n)
    {
        p63.push_back(n);
    }
    g63.AddPath(p63);
    EXPECT_EQ(g63.GetMaxLevel(), 63u);
    Topology l64 = test::MakeLine(64);
    HopGraph g64(l64);
    Path p64;
    for (NodeId n = 0; n < l64.GetNNodes(); ++n)
    {
        p64.push_back(n);
    }
    EXPECT_TRUE(HasSubstr(ErrorOf([&] { g64.AddPath(p64); }), "64 forwarding nodes; at most 63"));
    // and the generators refuse such a topology instead of wrapping levels
    EXPECT_TRUE(HasSubstr(ErrorOf([&] { MakeShortestPathElp(l64); }), "more than 63"));
    EXPECT_TRUE(HasSubstr(ErrorOf([&] { MakeShortestPathTreeElp(l64); }), "more than 63"));
    EXPECT_TRUE(HasSubstr(ErrorOf([&] { MakeKShortestElp(l64, 2); }), "more than 63"));
    EXPECT_EQ(MakeShortestPathElp(l63).longestPath, 64u);
    EXPECT_EQ(MakeKShortestElp(l63, 3).pathCount, 2u);
}

// ---------------------------------------------------------------------------
// Per-destination generators against brute force
// ---------------------------------------------------------------------------

TEST(ElpBruteForce, TriangleCountsByHand)
{
    // three switches in a triangle, one host each: 6 ordered pairs, each with
    // one shortest path (2 switches) and one longer path (3 switches)
    Topology t;
    NodeId a = t.AddNode("A", NodeKind::SWITCH, 3);
    NodeId b = t.AddNode("B", NodeKind::SWITCH, 3);
    NodeId c = t.AddNode("C", NodeKind::SWITCH, 3);
    t.Connect(a, b);
    t.Connect(b, c);
    t.Connect(a, c);
    t.Connect(t.AddNode("HA", NodeKind::HOST, 1), a);
    t.Connect(t.AddNode("HB", NodeKind::HOST, 1), b);
    t.Connect(t.AddNode("HC", NodeKind::HOST, 1), c);
    Elp sp = MakeShortestPathElp(t);
    EXPECT_EQ(sp.pathCount, 6u);
    EXPECT_EQ(sp.longestPath, 3u);
    EXPECT_EQ(sp.graph.CountEntries(), 12u); // 6 paths x 2 switches, all distinct
    Elp k2 = MakeKShortestElp(t, 2);
    EXPECT_EQ(k2.pathCount, 12u);
    EXPECT_EQ(k2.longestPath, 4u);
    // the 6 longer paths add 3 entries each, but their first hop (e.g. A from
    // HA toward C at level 1) is already the first hop of a shortest path
    EXPECT_EQ(k2.graph.CountEntries(), 12u + 6u * 2);
    Elp k5 = MakeKShortestElp(t, 5); // only 2 loop-free paths per pair exist
    EXPECT_EQ(k5.pathCount, 12u);
    // HA to HB: A B first (shorter), then A C B
    std::vector<Path> ab;
    for (const Path& p : k2.paths)
    {
        if (p.front() == t.GetNodeId("HA") && p.back() == t.GetNodeId("HB"))
        {
            ab.push_back(p);
        }
    }
    ASSERT_EQ(ab.size(), 2u);
    EXPECT_EQ(Text(t, ab[0]), "HA A B HB");
    EXPECT_EQ(Text(t, ab[1]), "HA A C B HB");
    Elp tree = MakeShortestPathTreeElp(t);
    EXPECT_EQ(tree.pathCount, 6u);
    EXPECT_EQ(Diff(t, tree.graph, sp.graph), ""); // unique shortest paths
}

TEST(ElpBruteForce, OddTopologies)
{
    {
        SCOPED_TRACE("odd 1");
        CheckAllFamilies(OddTopology());
    }
    {
        SCOPED_TRACE("odd 2");
        CheckAllFamilies(OddTopology2());
    }
}

TEST(ElpBruteForce, PaperTestbed)
{
    Topology t = MakeClos(PaperTestbedClos());
    CheckAllFamilies(t);
    // by hand: 16 hosts, 4 per ToR; same ToR: 1 shortest path, same pod: 2
    // (via L1 or L2), other pod: 8 (either leaf, either spine, either leaf:
    // every leaf reaches both spines in the testbed)
    Elp sp = MakeShortestPathElp(t);
    EXPECT_EQ(sp.pathCount, 16u * 3 + 16u * 4 * 2 + 16u * 8 * 8);
    EXPECT_EQ(sp.longestPath, 6u);
}

TEST(ElpBruteForce, SmallGenerated)
{
    {
        SCOPED_TRACE("bcube(3,1)");
        CheckAllFamilies(MakeBCube(3, 1));
    }
    {
        SCOPED_TRACE("bcube(2,2)");
        CheckAllFamilies(MakeBCube(2, 2));
    }
    {
        SCOPED_TRACE("jellyfish 12/5/3");
        CheckAllFamilies(MakeJellyfish(12, 5, 3, 7));
    }
}

TEST(ElpBruteForce, BCubeShortestCounts)
{
    // BCube(n, 1): servers differing in both digits have 2 shortest paths
    // (fix digit 0 or digit 1 first), 4 links; one digit: 1 path, 2 links
    for (uint32_t n : {2u, 3u, 4u})
    {
        Topology t = MakeBCube(n, 1);
        Elp sp = MakeShortestPathElp(t);
        uint64_t servers = n * n;
        uint64_t oneDigit = servers * 2 * (n - 1);
        uint64_t twoDigits = servers * (n - 1) * (n - 1);
        EXPECT_EQ(sp.pathCount, oneDigit + 2 * twoDigits) << n;
        EXPECT_EQ(sp.longestPath, 4u);
        // the tree keeps one path per pair
        EXPECT_EQ(MakeShortestPathTreeElp(t).pathCount, servers * (servers - 1));
    }
}

TEST(ElpBruteForce, KShortestFewPathsNextToDenseRegion)
{
    // a chain P1 - P2 - P3 hanging off a 9-switch clique at C1, hosts on P2
    // and P3 (and on C1).  P2 and P3 have exactly one loop-free path between
    // them, but a search bounded only by distances wanders into the clique:
    // the generator must still stop (its budget hands such pairs to Yen's
    // algorithm) and agree with brute force.
    Topology t;
    std::vector<NodeId> c;
    for (int i = 0; i < 9; ++i)
    {
        c.push_back(t.AddNode("C" + std::to_string(i + 1), NodeKind::SWITCH, 10));
    }
    for (int i = 0; i < 9; ++i)
    {
        for (int j = i + 1; j < 9; ++j)
        {
            t.Connect(c[i], c[j]);
        }
    }
    NodeId p1 = t.AddNode("P1", NodeKind::SWITCH, 2);
    NodeId p2 = t.AddNode("P2", NodeKind::SWITCH, 3);
    NodeId p3 = t.AddNode("P3", NodeKind::SWITCH, 2);
    t.Connect(c[0], p1);
    t.Connect(p1, p2);
    t.Connect(p2, p3);
    t.Connect(t.AddNode("H2", NodeKind::HOST, 1), p2);
    t.Connect(t.AddNode("H3", NodeKind::HOST, 1), p3);
    t.Connect(t.AddNode("H1", NodeKind::HOST, 1), c[0]);
    std::vector<Path> all = AllSimplePaths(t);
    EXPECT_EQ(all.size(), 6u);
    for (uint32_t k : {1u, 2u, 4u})
    {
        std::vector<Path> ks = FirstK(all, k);
        Elp elp = MakeKShortestElp(t, k);
        EXPECT_EQ(elp.paths, ks) << k;
        EXPECT_EQ(Diff(t, elp.graph, GraphOf(t, ks)), "") << k;
    }
}

TEST(ElpBruteForce, KShortestTreeWithCycle)
{
    // a binary tree of switches plus one cycle: most pairs have fewer than k
    // loop-free paths
    Topology t;
    std::vector<NodeId> s;
    for (int i = 0; i < 7; ++i)
    {
        s.push_back(t.AddNode("S" + std::to_string(i + 1), NodeKind::SWITCH, 5));
    }
    t.Connect(s[0], s[1]);
    t.Connect(s[0], s[2]);
    t.Connect(s[1], s[3]);
    t.Connect(s[1], s[4]);
    t.Connect(s[2], s[5]);
    t.Connect(s[2], s[6]);
    t.Connect(s[5], s[6]);
    for (int i = 3; i < 7; ++i)
    {
        t.Connect(t.AddNode("H" + std::to_string(i), NodeKind::HOST, 1), s[i]);
    }
    std::vector<Path> all = AllSimplePaths(t);
    for (uint32_t k : {1u, 2u, 4u})
    {
        std::vector<Path> ks = FirstK(all, k);
        Elp elp = MakeKShortestElp(t, k);
        EXPECT_EQ(elp.paths, ks) << k;
        EXPECT_EQ(Diff(t, elp.graph, GraphOf(t, ks)), "") << k;
    }
}

TEST(ElpBruteForce, ExplicitPathThreshold)
{
    Topology t = MakeClos(PaperTestbedClos());
    ElpOptions o;
    o.maxExplicitPaths = 100; // fewer than the 1200 shortest paths
    Elp sp = MakeShortestPathElp(t, o);
    EXPECT_TRUE(sp.paths.empty());
    EXPECT_EQ(sp.pathCount, 1200u);
    Elp tree = MakeShortestPathTreeElp(t, o);
    EXPECT_TRUE(tree.paths.empty());
    EXPECT_EQ(tree.pathCount, 240u);
    Elp ks = MakeKShortestElp(t, 2, o);
    EXPECT_TRUE(ks.paths.empty());
    EXPECT_EQ(ks.pathCount, MakeKShortestElp(t, 2).paths.size());
    o.maxExplicitPaths = 240;
    EXPECT_EQ(MakeShortestPathTreeElp(t, o).paths.size(), 240u);
}

TEST(ElpTree, DeterministicPerSeed)
{
    Topology t = MakeJellyfish(30, 8, 5, 3);
    ElpOptions a;
    a.seed = 11;
    ElpOptions b;
    b.seed = 12;
    Elp t1 = MakeShortestPathTreeElp(t, a);
    Elp t2 = MakeShortestPathTreeElp(t, a);
    Elp t3 = MakeShortestPathTreeElp(t, b);
    EXPECT_EQ(t1.paths, t2.paths);
    EXPECT_EQ(Diff(t, t1.graph, t2.graph), "");
    EXPECT_NE(t1.paths, t3.paths);
    EXPECT_EQ(t1.pathCount, 90u * 89u);
    EXPECT_EQ(t3.pathCount, 90u * 89u);
    // a tree is a subset of all shortest paths
    Elp sp = MakeShortestPathElp(t);
    EXPECT_TRUE(IsSubGraph(t, t1.graph, sp.graph));
    EXPECT_TRUE(IsSubGraph(t, t3.graph, sp.graph));
    EXPECT_EQ(t1.longestPath, sp.longestPath);
}

TEST(ElpTree, LevelRangesByHand)
{
    // a path of switches X1 - X2 - X3 with hosts on X1 and X3, and one more
    // host on X2: toward X3's host, X2 sees X1's host at level 2 and its own
    // host at level 1; X3 sees level 3 (from X1's host) and 2 (from X2's).
    Topology t;
    NodeId x1 = t.AddNode("X1", NodeKind::SWITCH, 2);
    NodeId x2 = t.AddNode("X2", NodeKind::SWITCH, 3);
    NodeId x3 = t.AddNode("X3", NodeKind::SWITCH, 2);
    t.AddLink(x1, 1, x2, 0);
    t.AddLink(x2, 1, x3, 0);
    t.AddLink(t.AddNode("H1", NodeKind::HOST, 1), 0, x1, 0);
    t.AddLink(t.AddNode("H2", NodeKind::HOST, 1), 0, x2, 2);
    t.AddLink(t.AddNode("H3", NodeKind::HOST, 1), 0, x3, 1);
    Elp e = MakeShortestPathTreeElp(t);
    EXPECT_EQ(e.graph.GetMask(x2, 0, 1), uint64_t{1} << 2); // H1 via X1 toward X3
    EXPECT_EQ(e.graph.GetMask(x2, 2, 1), uint64_t{1} << 1); // H2 toward X3
    EXPECT_EQ(e.graph.GetMask(x3, 0, 1), (uint64_t{1} << 2) | (uint64_t{1} << 3));
    EXPECT_EQ(e.graph.GetMask(x2, 1, 0), uint64_t{1} << 2); // H3 via X3 toward X1
    EXPECT_EQ(e.graph.GetMask(x2, 0, 2), uint64_t{1} << 2); // H1 to H2
    EXPECT_EQ(e.graph.GetMask(x2, 1, 2), uint64_t{1} << 2); // H3 to H2
    EXPECT_EQ(e.graph.GetMask(x1, 0, 1), uint64_t{1} << 1);
    EXPECT_EQ(e.graph.CountEntries(), 12u); // 3 at X1, 6 at X2, 3 at X3
    EXPECT_EQ(e.pathCount, 6u);
    EXPECT_EQ(e.longestPath, 4u);
}

// ---------------------------------------------------------------------------
// Up-down
// ---------------------------------------------------------------------------

TEST(ElpUpDown, TinyClosCountsByHand)
{
    Topology t = TinyClos();
    // 0 bounces: 2 paths for each of the 6 ordered pairs (via either leaf /
    // spine plane) = 12
    Elp e0 = MakeUpDownElp(t, 0);
    EXPECT_EQ(e0.pathCount, 12u);
    EXPECT_EQ(e0.paths.size(), 12u);
    // 1 bounce: H1->H2 adds 4 paths bouncing at T3 or T4 (e.g. T1 L1 S1 L3 T3
    // L4 S2 L2 T2); H1->H3 adds 4 (bounce at T2: T1 L1 T2 L2 S2 L4 T3, and at
    // T4: T1 L1 S1 L3 T4 L4 T3, each in both planes); the same for the other
    // pairs by symmetry: 6 pairs x 6 paths = 36
    Elp e1 = MakeUpDownElp(t, 1);
    EXPECT_EQ(e1.pathCount, 36u);
    EXPECT_EQ(e1.longestPath, 10u); // H1 T1 L1 S1 L3 T3 L4 S2 L2 T2 H2
    std::vector<Path> all = AllSimplePaths(t);
    EXPECT_EQ(Sorted(e0.paths), Sorted(UpDownSimple(t, all, 0)));
    EXPECT_EQ(Sorted(e1.paths), Sorted(UpDownSimple(t, all, 1)));
}

TEST(ElpUpDown, TransitionsEqualBruteForceWalks)
{
    std::vector<Topology> topos;
    topos.push_back(TinyClos());
    topos.push_back(MakeClos(PaperTestbedClos()));
    topos.push_back(MakeFatTree(4));
    ClosParams mesh; // full leaf-spine mesh: walks can revisit a ToR
    mesh.pods = 2;
    mesh.torsPerPod = 2;
    mesh.leafsPerPod = 2;
    mesh.spines = 2;
    mesh.spinesPerLeaf = 2;
    mesh.hostsPerTor = 1;
    topos.push_back(MakeClos(mesh));
    for (size_t i = 0; i < topos.size(); ++i)
    {
        const Topology& t = topos[i];
        std::vector<Path> all = AllSimplePaths(t);
        for (uint32_t b = 0; b <= 2; ++b)
        {
            SCOPED_TRACE("topology " + std::to_string(i) + " bounces " + std::to_string(b));
            HopGraph walks(t);
            UpDownWalks(t, b, walks);
            Elp e = MakeUpDownElp(t, b);
            EXPECT_EQ(Diff(t, e.graph, walks), "");
            EXPECT_EQ(e.longestPath, walks.GetMaxLevel() + 1);
            std::vector<Path> simple = UpDownSimple(t, all, b);
            EXPECT_EQ(e.pathCount, simple.size());
            EXPECT_EQ(Sorted(e.paths), Sorted(simple));
            EXPECT_TRUE(IsSubGraph(t, GraphOf(t, simple), e.graph));
        }
    }
}

TEST(ElpUpDown, WalkCountWithManyHosts)
{
    // more than 64 hosts: pathCount is the number of walks (counted by DP)
    ClosParams p;
    p.pods = 2;
    p.torsPerPod = 2;
    p.leafsPerPod = 2;
    p.spines = 2;
    p.spinesPerLeaf = 1;
    p.hostsPerTor = 17;
    Topology t = MakeClos(p);
    for (uint32_t b = 0; b <= 2; ++b)
    {
        HopGraph walks(t);
        uint64_t n = UpDownWalks(t, b, walks);
        Elp e = MakeUpDownElp(t, b);
        EXPECT_EQ(e.pathCount, n) << b;
        EXPECT_TRUE(e.paths.empty());
        EXPECT_EQ(Diff(t, e.graph, walks), "") << b;
    }
    Topology ft = MakeFatTree(8);
    HopGraph walks(ft);
    uint64_t n = UpDownWalks(ft, 0, walks);
    Elp e = MakeUpDownElp(ft, 0);
    EXPECT_EQ(e.pathCount, n);
    EXPECT_EQ(Diff(ft, e.graph, walks), "");
    // by hand: same edge switch 3 walks per source, same pod (other edge) 4
    // aggregation choices x 12 hosts, other pods 4 x 4 cores x 112 hosts
    EXPECT_EQ(n, 128u * (3 + 4 * 12 + 16 * 112));
}

TEST(ElpUpDown, NeedsLayers)
{
    Topology t = MakeJellyfish(10, 6, 3, 1);
    EXPECT_TRUE(
        HasSubstr(ErrorOf([&] { MakeUpDownElp(t, 1); }), "needs a layered (Clos) topology"));
    Topology clos = MakeClos(PaperTestbedClos());
    EXPECT_TRUE(HasSubstr(ErrorOf([&] { MakeUpDownElp(clos, 1000); }), "fewer bounces"));
}

// ---------------------------------------------------------------------------
// Random paths, files, explicit lists
// ---------------------------------------------------------------------------

TEST(ElpRandom, LoopFreeDeterministicBounded)
{
    Topology t = MakeJellyfish(40, 8, 4, 5);
    Elp base = MakeShortestPathTreeElp(t);
    const uint64_t before = base.pathCount;
    const uint32_t longest = base.longestPath;
    Elp a = base;
    AddRandomPaths(a, t, 500, 9);
    Elp b = base;
    AddRandomPaths(b, t, 500, 9);
    Elp c = base;
    AddRandomPaths(c, t, 500, 10);
    EXPECT_EQ(a.pathCount, before + 500);
    ASSERT_EQ(a.paths.size(), before + 500);
    EXPECT_EQ(a.paths, b.paths);
    EXPECT_NE(a.paths, c.paths);
    EXPECT_EQ(a.longestPath, longest); // random paths never lengthen the ELP
    HopGraph check(t);
    std::set<std::pair<NodeId, NodeId>> pairs;
    for (size_t i = before; i < a.paths.size(); ++i)
    {
        const Path& p = a.paths[i];
        EXPECT_LE(p.size() - 1, longest);
        EXPECT_NO_THROW(check.AddPath(p)) << Text(t, p); // hosts at the ends, no loop, linked
        pairs.emplace(p.front(), p.back());
    }
    EXPECT_GT(pairs.size(), 400u); // random pairs
    EXPECT_TRUE(IsSubGraph(t, check, a.graph));
    EXPECT_TRUE(IsSubGraph(t, base.graph, a.graph));
    EXPECT_EQ(Diff(t, a.graph, GraphOf(t, a.paths)), "");
    // some of the random paths are longer than shortest
    Elp sp = MakeShortestPathElp(t);
    EXPECT_FALSE(IsSubGraph(t, a.graph, sp.graph));

    // on an empty ELP: a fresh graph, walks bounded by 64 links only
    Elp fresh;
    AddRandomPaths(fresh, t, 50, 3);
    EXPECT_EQ(fresh.pathCount, 50u);
    ASSERT_EQ(fresh.paths.size(), 50u);
    EXPECT_EQ(Diff(t, fresh.graph, GraphOf(t, fresh.paths)), "");
    EXPECT_EQ(fresh.longestPath, Longest(fresh.paths));

    // relaying hosts (BCube) are walked through as well
    Topology bc = MakeBCube(3, 2);
    Elp r;
    AddRandomPaths(r, bc, 200, 4);
    HopGraph gb(bc);
    for (const Path& p : r.paths)
    {
        EXPECT_NO_THROW(gb.AddPath(p)) << Text(bc, p);
    }
}

TEST(ElpRandom, DisconnectedHosts)
{
    // two separate triangles-with-a-host plus an isolated host: pairs across
    // parts are redrawn, never returned
    Topology t;
    for (int part = 0; part < 2; ++part)
    {
        std::string p = std::to_string(part);
        NodeId a = t.AddNode("A" + p, NodeKind::SWITCH, 3);
        NodeId b = t.AddNode("B" + p, NodeKind::SWITCH, 3);
        t.Connect(a, b);
        t.Connect(t.AddNode("HA" + p, NodeKind::HOST, 1), a);
        t.Connect(t.AddNode("HB" + p, NodeKind::HOST, 1), b);
    }
    t.AddNode("LONELY", NodeKind::HOST, 1);
    Elp e;
    AddRandomPaths(e, t, 100, 1);
    ASSERT_EQ(e.paths.size(), 100u);
    for (const Path& p : e.paths)
    {
        EXPECT_EQ(p.size(), 4u) << Text(t, p); // HAx Ax Bx HBx or back
    }
    // the generators skip the unconnected pairs too: 4 connected ordered pairs
    EXPECT_EQ(MakeShortestPathElp(t).pathCount, 4u);
    EXPECT_EQ(MakeShortestPathTreeElp(t).pathCount, 4u);
    EXPECT_EQ(MakeKShortestElp(t, 3).pathCount, 4u);
    Topology none;
    NodeId s = none.AddNode("S", NodeKind::SWITCH, 1);
    none.Connect(none.AddNode("H1", NodeKind::HOST, 1), s);
    none.AddNode("H2", NodeKind::HOST, 1);
    Elp e2;
    EXPECT_TRUE(HasSubstr(ErrorOf([&] { AddRandomPaths(e2, none, 1, 1); }), "not connected"));
}

TEST(ElpFile, ReadAndErrors)
{
    Topology t = OddTopology2();
    const std::string dir = ::testing::TempDir();
    auto write = [&dir](const std::string& name, const std::string& text) {
        std::string path = dir + "/" + name;
        std::ofstream(path) << text;
        return path;
    };
    std::string good = write("elp-good.txt",
                             "# comment line\n"
                             "\n"
                             "A S1 S3 D   # trailing comment\n"
                             "  C R S2 B\r\n"
                             "E S1 S4 R C\n");
    Elp e = ReadElpFile(t, good);
    ASSERT_EQ(e.paths.size(), 3u);
    EXPECT_EQ(e.pathCount, 3u);
    EXPECT_EQ(Text(t, e.paths[1]), "C R S2 B");
    EXPECT_EQ(e.longestPath, 4u);
    EXPECT_EQ(Diff(t, e.graph, GraphOf(t, e.paths)), "");

    auto errorOf = [&](const std::string& name, const std::string& text) {
        std::string path = write(name, text);
        return std::make_pair(path, ErrorOf([&] { ReadElpFile(t, path); }));
    };
    {
        auto [path, msg] = errorOf("elp-unknown.txt", "A S1 S3 D\n\n# x\nA S1 X9 D\n");
        EXPECT_TRUE(HasSubstr(msg, path + ":4: unknown node 'X9'"));
    }
    {
        auto [path, msg] = errorOf("elp-loop.txt", "A S1 S3 S1 E\n");
        EXPECT_TRUE(HasSubstr(msg, path + ":1: node S1 appears twice"));
    }
    {
        auto [path, msg] = errorOf("elp-unlinked.txt", "A S1 S3 D\nA S1 S5 S4 R\n");
        EXPECT_TRUE(HasSubstr(msg, path + ":2: S1 and S5 are not linked"));
    }
    {
        auto [path, msg] = errorOf("elp-short.txt", "A S1 S3 D\n#\n  S1   \n");
        EXPECT_TRUE(HasSubstr(msg, path + ":3: a path needs at least two nodes"));
    }
    {
        auto [path, msg] = errorOf("elp-switch.txt", "S1 S3 D\n");
        EXPECT_TRUE(HasSubstr(msg, path + ":1: the path starts at S1, which is not a host"));
    }
    {
        auto [path, msg] = errorOf("elp-relay.txt", "A S1 S2 B S3 D\n");
        EXPECT_TRUE(HasSubstr(msg, path + ":1: the path passes through host B"));
    }
    {
        auto [path, msg] = errorOf("elp-empty.txt", "# nothing\n\n");
        EXPECT_TRUE(HasSubstr(msg, path + ": no path"));
    }
    EXPECT_TRUE(HasSubstr(ErrorOf([&] { ReadElpFile(t, dir + "/does-not-exist.txt"); }),
                          "cannot open ELP file"));
}

TEST(ElpFile, FromPaths)
{
    Topology t = OddTopology2();
    std::vector<Path> paths{ByNames(t, {"A", "S1", "S3", "D"}),
                            ByNames(t, {"C", "R", "S2", "S3", "D"})};
    Elp e = MakeElpFromPaths(t, paths);
    EXPECT_EQ(e.pathCount, 2u);
    EXPECT_EQ(e.longestPath, 4u);
    EXPECT_EQ(e.paths, paths);
    EXPECT_EQ(e.graph.CountEntries(), 5u);
    paths.push_back(ByNames(t, {"A", "S1", "A"}));
    EXPECT_TRUE(HasSubstr(ErrorOf([&] { MakeElpFromPaths(t, paths); }), "ELP path 3 (A S1 A)"));
}
