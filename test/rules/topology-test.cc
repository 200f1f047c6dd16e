/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the topology generators (Clos / paper testbed, FatTree, F10,
 * Jellyfish, BCube).  Expected values are written by hand or computed from the
 * closed-form sizes of each family, never from the generator itself.
 */

#include "tagger-topology-generators.h"
#include "tagger-topology.h"
#include "test-util.h"

#include <chrono>
#include <cstdint>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace ns3::tagger;
using ns3::tagger::test::ErrorOf;
using ns3::tagger::test::HasSubstr;

namespace
{

/// "name:port" of the far end of (node, port), or "-" when unconnected.
std::string
PeerOf(const Topology& t, const std::string& node, PortNo port)
{
    NodeId n = t.GetNodeId(node);
    EXPECT_LT(port, t.GetNode(n).ports) << node;
    PortRef r = t.GetPeer(n, port);
    if (r.node == kNone)
    {
        return "-";
    }
    return t.GetNode(r.node).name + ":" + std::to_string(r.port);
}

/// The links as a set of "a:p-b:q" strings with the ends in name order.
std::set<std::string>
LinkSet(const Topology& t)
{
    std::set<std::string> s;
    for (const TopoLink& l : t.GetLinks())
    {
        std::string a = t.GetNode(l.a.node).name + ":" + std::to_string(l.a.port);
        std::string b = t.GetNode(l.b.node).name + ":" + std::to_string(l.b.port);
        s.insert(a < b ? a + "-" + b : b + "-" + a);
    }
    return s;
}

/// The links in their order, as one string (for determinism checks).
std::string
LinkString(const Topology& t)
{
    std::string s;
    for (const TopoLink& l : t.GetLinks())
    {
        s += t.GetNode(l.a.node).name + ":" + std::to_string(l.a.port) + "-" +
             t.GetNode(l.b.node).name + ":" + std::to_string(l.b.port) + " ";
    }
    return s;
}

/// Names of the nodes linked to node n (one entry per link).
std::multiset<std::string>
NeighborNames(const Topology& t, NodeId n)
{
    std::multiset<std::string> s;
    for (PortNo p = 0; p < t.GetNode(n).ports; ++p)
    {
        PortRef r = t.GetPeer(n, p);
        if (r.node != kNone)
        {
            s.insert(t.GetNode(r.node).name);
        }
    }
    return s;
}

/// Count of connected nodes reached from node 0 by an independent BFS.
uint32_t
ReachableFrom0(const Topology& t)
{
    std::vector<char> seen(t.GetNNodes(), 0);
    std::vector<NodeId> queue{0};
    seen[0] = 1;
    for (size_t i = 0; i < queue.size(); ++i)
    {
        NodeId n = queue[i];
        for (PortNo p = 0; p < t.GetNode(n).ports; ++p)
        {
            PortRef r = t.GetPeer(n, p);
            if (r.node != kNone && !seen[r.node])
            {
                seen[r.node] = 1;
                queue.push_back(r.node);
            }
        }
    }
    return static_cast<uint32_t>(queue.size());
}

/// Every port of every node is connected.
bool
AllPortsUsed(const Topology& t)
{
    for (NodeId n = 0; n < t.GetNNodes(); ++n)
    {
        for (PortNo p = 0; p < t.GetNode(n).ports; ++p)
        {
            if (t.GetPeer(n, p).node == kNone)
            {
                return false;
            }
        }
    }
    return true;
}

uint64_t
Pow(uint64_t b, uint32_t e)
{
    uint64_t r = 1;
    while (e--)
    {
        r *= b;
    }
    return r;
}

} // namespace

// ---------------------------------------------------------------------------
// Clos and the paper's testbed

TEST(ClosTest, PaperTestbedParameters)
{
    ClosParams p = PaperTestbedClos();
    EXPECT_EQ(p.pods, 2u);
    EXPECT_EQ(p.torsPerPod, 2u);
    EXPECT_EQ(p.leafsPerPod, 2u);
    EXPECT_EQ(p.spines, 2u);
    EXPECT_EQ(p.spinesPerLeaf, 2u);
    EXPECT_EQ(p.hostsPerTor, 4u);
}

TEST(ClosTest, PaperTestbedExactAdjacency)
{
    Topology t = MakeClos(PaperTestbedClos());
    EXPECT_EQ(t.GetSwitches().size(), 10u);
    EXPECT_EQ(t.GetHosts().size(), 16u);
    EXPECT_EQ(t.GetLinks().size(), 32u); // 16 host + 8 ToR-leaf + 8 leaf-spine

    // Hand-listed from Fig. 2: every port of every switch.
    const std::map<std::string, std::vector<std::string>> expected = {
        {"T1", {"H1:0", "H2:0", "H3:0", "H4:0", "L1:0", "L2:0"}},
        {"T2", {"H5:0", "H6:0", "H7:0", "H8:0", "L1:1", "L2:1"}},
        {"T3", {"H9:0", "H10:0", "H11:0", "H12:0", "L3:0", "L4:0"}},
        {"T4", {"H13:0", "H14:0", "H15:0", "H16:0", "L3:1", "L4:1"}},
        {"L1", {"T1:4", "T2:4", "S1:0", "S2:0"}},
        {"L2", {"T1:5", "T2:5", "S1:1", "S2:1"}},
        {"L3", {"T3:4", "T4:4", "S1:2", "S2:2"}},
        {"L4", {"T3:5", "T4:5", "S1:3", "S2:3"}},
        {"S1", {"L1:2", "L2:2", "L3:2", "L4:2"}},
        {"S2", {"L1:3", "L2:3", "L3:3", "L4:3"}},
    };
    const std::map<std::string, int> layer = {{"T", 1}, {"L", 2}, {"S", 3}};
    for (const auto& [name, peers] : expected)
    {
        NodeId n = t.FindNode(name);
        ASSERT_NE(n, kNone) << name;
        EXPECT_EQ(t.GetNode(n).kind, NodeKind::SWITCH) << name;
        EXPECT_EQ(t.GetNode(n).layer, layer.at(name.substr(0, 1))) << name;
        ASSERT_EQ(t.GetNode(n).ports, peers.size()) << name;
        for (PortNo p = 0; p < peers.size(); ++p)
        {
            EXPECT_EQ(PeerOf(t, name, p), peers[p]) << name << " port " << p;
        }
    }
    for (int h = 1; h <= 16; ++h)
    {
        std::string name = "H" + std::to_string(h);
        NodeId n = t.FindNode(name);
        ASSERT_NE(n, kNone) << name;
        EXPECT_EQ(t.GetNode(n).kind, NodeKind::HOST);
        EXPECT_EQ(t.GetNode(n).layer, 0);
        EXPECT_FALSE(t.GetNode(n).relay);
        ASSERT_EQ(t.GetNode(n).ports, 1u);
        EXPECT_EQ(PeerOf(t, name, 0),
                  "T" + std::to_string((h - 1) / 4 + 1) + ":" + std::to_string((h - 1) % 4));
    }
    EXPECT_TRUE(t.IsLayered());
    EXPECT_EQ(ReachableFrom0(t), t.GetNNodes());
}

TEST(ClosTest, PlaneWiring)
{
    // spines = leafsPerPod * spinesPerLeaf: leaf j reaches spines 2j, 2j+1 only
    ClosParams p;
    p.pods = 3;
    p.torsPerPod = 2;
    p.leafsPerPod = 2;
    p.spines = 4;
    p.spinesPerLeaf = 2;
    p.hostsPerTor = 1;
    Topology t = MakeClos(p);
    EXPECT_EQ(t.GetSwitches().size(), 6u + 6u + 4u);
    EXPECT_EQ(t.GetHosts().size(), 6u);
    EXPECT_EQ(t.GetLinks().size(), 6u + 12u + 12u);
    // leafs L1, L3, L5 (leaf 0 of each pod) -> S1, S2; L2, L4, L6 -> S3, S4
    EXPECT_EQ(PeerOf(t, "L1", 2), "S1:0");
    EXPECT_EQ(PeerOf(t, "L1", 3), "S2:0");
    EXPECT_EQ(PeerOf(t, "L2", 2), "S3:0");
    EXPECT_EQ(PeerOf(t, "L2", 3), "S4:0");
    EXPECT_EQ(PeerOf(t, "L3", 2), "S1:1");
    EXPECT_EQ(PeerOf(t, "L6", 3), "S4:2");
    for (const char* s : {"S1", "S2", "S3", "S4"})
    {
        EXPECT_EQ(t.GetNode(t.GetNodeId(s)).ports, 3u) << s; // one leaf per pod
    }
    // ToR ports: host first, then leafs of its pod
    EXPECT_EQ(PeerOf(t, "T3", 0), "H3:0");
    EXPECT_EQ(PeerOf(t, "T3", 1), "L3:0");
    EXPECT_EQ(PeerOf(t, "T3", 2), "L4:0");
    EXPECT_EQ(PeerOf(t, "T4", 1), "L3:1");
    EXPECT_TRUE(AllPortsUsed(t));
}

TEST(ClosTest, SpinesSharedByLeafsOfOnePod)
{
    // leafsPerPod * spinesPerLeaf = 4 > spines = 2: leaf j -> spine (j*1+0) mod 2
    ClosParams p;
    p.pods = 1;
    p.torsPerPod = 1;
    p.leafsPerPod = 4;
    p.spines = 2;
    p.spinesPerLeaf = 1;
    p.hostsPerTor = 1;
    Topology t = MakeClos(p);
    EXPECT_EQ(PeerOf(t, "S1", 0), "L1:1");
    EXPECT_EQ(PeerOf(t, "S1", 1), "L3:1");
    EXPECT_EQ(PeerOf(t, "S2", 0), "L2:1");
    EXPECT_EQ(PeerOf(t, "S2", 1), "L4:1");
}

TEST(ClosTest, BadParametersNameTheParameter)
{
    const char* fields[] =
        {"pods", "torsPerPod", "leafsPerPod", "spines", "spinesPerLeaf", "hostsPerTor"};
    for (int i = 0; i < 6; ++i)
    {
        ClosParams p = PaperTestbedClos();
        uint32_t* f[] =
            {&p.pods, &p.torsPerPod, &p.leafsPerPod, &p.spines, &p.spinesPerLeaf, &p.hostsPerTor};
        *f[i] = 0;
        EXPECT_TRUE(HasSubstr(ErrorOf([&] { MakeClos(p); }), std::string(fields[i]) + " must be"))
            << fields[i];
    }
    ClosParams p = PaperTestbedClos();
    p.spinesPerLeaf = 3; // > spines: parallel links
    EXPECT_TRUE(HasSubstr(ErrorOf([&] { MakeClos(p); }), "spinesPerLeaf (3)"));
    p = PaperTestbedClos();
    p.spines = 5; // > 2 leafs * 2: some spine unconnected
    EXPECT_TRUE(HasSubstr(ErrorOf([&] { MakeClos(p); }), "spines (5)"));
    p = PaperTestbedClos();
    p.pods = 100000;
    p.hostsPerTor = 100000;
    EXPECT_TRUE(HasSubstr(ErrorOf([&] { MakeClos(p); }), "too large"));
}

// ---------------------------------------------------------------------------
// FatTree and F10

TEST(FatTreeTest, Counts)
{
    for (uint32_t k : {2u, 4u, 6u, 8u})
    {
        Topology t = MakeFatTree(k);
        EXPECT_EQ(t.GetSwitches().size(), 5u * k * k / 4) << k; // k^2 pod switches + k^2/4 cores
        EXPECT_EQ(t.GetHosts().size(), k * k * k / 4) << k;
        EXPECT_EQ(t.GetLinks().size(), 3u * k * k * k / 4) << k;
        EXPECT_TRUE(AllPortsUsed(t)) << k;
        EXPECT_EQ(ReachableFrom0(t), t.GetNNodes()) << k;
        for (NodeId s : t.GetSwitches())
        {
            EXPECT_EQ(t.GetNode(s).ports, k) << t.GetNode(s).name;
        }
    }
    Topology t = MakeFatTree(4);
    EXPECT_EQ(t.GetSwitches().size(), 20u);
    EXPECT_EQ(t.GetHosts().size(), 16u);
    EXPECT_EQ(t.GetLinks().size(), 48u);
}

TEST(FatTreeTest, DegreesAndWiringK4)
{
    Topology t = MakeFatTree(4);
    // 8 edge T1..T8, 8 aggregation L1..L8, 4 cores S1..S4; pod p = T/L 2p+1, 2p+2
    for (uint32_t e = 0; e < 8; ++e)
    {
        NodeId n = t.GetNodeId("T" + std::to_string(e + 1));
        EXPECT_EQ(t.GetNode(n).layer, 1);
        uint32_t pod = e / 2;
        std::multiset<std::string> expect = {"H" + std::to_string(2 * e + 1),
                                             "H" + std::to_string(2 * e + 2),
                                             "L" + std::to_string(2 * pod + 1),
                                             "L" + std::to_string(2 * pod + 2)};
        EXPECT_EQ(NeighborNames(t, n), expect) << e;
    }
    for (uint32_t a = 0; a < 8; ++a)
    {
        NodeId n = t.GetNodeId("L" + std::to_string(a + 1));
        EXPECT_EQ(t.GetNode(n).layer, 2);
        uint32_t pod = a / 2;
        uint32_t i = a % 2;
        std::multiset<std::string> expect = {"T" + std::to_string(2 * pod + 1),
                                             "T" + std::to_string(2 * pod + 2),
                                             "S" + std::to_string(2 * i + 1),
                                             "S" + std::to_string(2 * i + 2)};
        EXPECT_EQ(NeighborNames(t, n), expect) << a;
    }
    for (uint32_t c = 0; c < 4; ++c)
    {
        const std::string name = "S" + std::to_string(c + 1);
        EXPECT_EQ(t.GetNode(t.GetNodeId(name)).layer, 3);
        // core c's port p goes to pod p, to aggregation switch c / 2 of the pod
        for (uint32_t p = 0; p < 4; ++p)
        {
            EXPECT_EQ(PeerOf(t, name, p).substr(0, 2), "L" + std::to_string(2 * p + c / 2 + 1))
                << name << " port " << p;
        }
    }
    EXPECT_EQ(PeerOf(t, "L3", 2), "S1:1");
    EXPECT_EQ(PeerOf(t, "L3", 3), "S2:1");
}

TEST(FatTreeTest, BadK)
{
    for (uint32_t k : {0u, 1u, 3u, 7u})
    {
        EXPECT_TRUE(HasSubstr(ErrorOf([&] { MakeFatTree(k); }), "k = " + std::to_string(k))) << k;
        EXPECT_TRUE(HasSubstr(ErrorOf([&] { MakeF10(k); }), "k must be an even number")) << k;
    }
    EXPECT_TRUE(HasSubstr(ErrorOf([] { MakeFatTree(100000); }), "too large"));
}

namespace
{

/// Pod of an aggregation switch "L<m>" in a fat tree of the given k.
uint32_t
AggPod(const std::string& name, uint32_t k)
{
    return (std::stoul(name.substr(1)) - 1) / (k / 2);
}

} // namespace

TEST(F10Test, DiffersFromFatTreeOnlyInBPodAggCoreLinks)
{
    for (uint32_t k : {4u, 6u, 8u})
    {
        const uint32_t h = k / 2;
        Topology ft = MakeFatTree(k);
        Topology f10 = MakeF10(k);
        ASSERT_EQ(f10.GetNNodes(), ft.GetNNodes());
        for (NodeId n = 0; n < ft.GetNNodes(); ++n)
        {
            EXPECT_EQ(f10.GetNode(n).name, ft.GetNode(n).name);
            EXPECT_EQ(f10.GetNode(n).ports, ft.GetNode(n).ports);
            EXPECT_EQ(f10.GetNode(n).layer, ft.GetNode(n).layer);
            EXPECT_EQ(f10.GetNode(n).kind, ft.GetNode(n).kind);
        }
        EXPECT_EQ(f10.GetLinks().size(), ft.GetLinks().size());
        EXPECT_TRUE(AllPortsUsed(f10));

        // links not touching a core, and all links of A (even) pods, are identical
        auto coreFree = [](const std::set<std::string>& s, bool keepAPods, uint32_t k) {
            std::set<std::string> r;
            for (const auto& l : s)
            {
                bool core = l.find('S') != std::string::npos;
                if (!core || (keepAPods && AggPod(l.substr(0, l.find(':')), k) % 2 == 0))
                {
                    r.insert(l);
                }
            }
            return r;
        };
        EXPECT_EQ(coreFree(LinkSet(f10), true, k), coreFree(LinkSet(ft), true, k)) << k;

        // B pods: aggregation i -> cores i + j*h
        for (uint32_t pod = 1; pod < k; pod += 2)
        {
            for (uint32_t i = 0; i < h; ++i)
            {
                const std::string agg = "L" + std::to_string(pod * h + i + 1);
                for (uint32_t j = 0; j < h; ++j)
                {
                    std::string peer = PeerOf(f10, agg, h + j);
                    EXPECT_EQ(peer, "S" + std::to_string(i + j * h + 1) + ":" + std::to_string(pod))
                        << agg << " uplink " << j;
                }
            }
        }
        // every core: exactly one link per pod (port p to pod p)
        for (uint32_t c = 0; c < h * h; ++c)
        {
            const std::string core = "S" + std::to_string(c + 1);
            for (uint32_t p = 0; p < k; ++p)
            {
                std::string peer = PeerOf(f10, core, p);
                EXPECT_EQ(AggPod(peer.substr(0, peer.find(':')), k), p) << core << " port " << p;
            }
        }
        // the AB property: an A-pod and a B-pod aggregation switch share exactly
        // one core; in the fat tree two aggregation switches share h or 0 cores
        auto cores = [](const Topology& t, const std::string& agg, uint32_t h) {
            std::set<std::string> s;
            for (uint32_t j = 0; j < h; ++j)
            {
                std::string p = PeerOf(t, agg, h + j);
                s.insert(p.substr(0, p.find(':')));
            }
            return s;
        };
        for (uint32_t i = 0; i < h; ++i)
        {
            for (uint32_t j = 0; j < h; ++j)
            {
                auto a = cores(f10, "L" + std::to_string(i + 1), h);     // pod 0 (A)
                auto b = cores(f10, "L" + std::to_string(h + j + 1), h); // pod 1 (B)
                auto fa = cores(ft, "L" + std::to_string(i + 1), h);
                auto fb = cores(ft, "L" + std::to_string(h + j + 1), h);
                size_t shared = 0;
                size_t ftShared = 0;
                for (const auto& c : a)
                {
                    shared += b.count(c);
                }
                for (const auto& c : fa)
                {
                    ftShared += fb.count(c);
                }
                EXPECT_EQ(shared, 1u) << k << " " << i << " " << j;
                EXPECT_EQ(ftShared, i == j ? h : 0u);
            }
        }
    }
    EXPECT_EQ(LinkString(MakeF10(2)), LinkString(MakeFatTree(2)));
}

TEST(F10Test, HandListedK4)
{
    Topology t = MakeF10(4);
    // pod 1 (B): L3 = agg 0 -> S1, S3; L4 = agg 1 -> S2, S4
    EXPECT_EQ(PeerOf(t, "L3", 2), "S1:1");
    EXPECT_EQ(PeerOf(t, "L3", 3), "S3:1");
    EXPECT_EQ(PeerOf(t, "L4", 2), "S2:1");
    EXPECT_EQ(PeerOf(t, "L4", 3), "S4:1");
    // pod 2 (A): L5 -> S1, S2
    EXPECT_EQ(PeerOf(t, "L5", 2), "S1:2");
    EXPECT_EQ(PeerOf(t, "L5", 3), "S2:2");
}

// ---------------------------------------------------------------------------
// Jellyfish

namespace
{

/// Check every Jellyfish invariant; returns the number of failures seen.
void
CheckJellyfish(const Topology& t, uint32_t N, uint32_t n, uint32_t r, const std::string& ctx)
{
    const uint32_t hp = n - r;
    ASSERT_EQ(t.GetSwitches().size(), N) << ctx;
    ASSERT_EQ(t.GetHosts().size(), N * hp) << ctx;
    ASSERT_EQ(t.GetLinks().size(), N * hp + N * r / 2) << ctx;
    for (uint32_t i = 0; i < N; ++i)
    {
        const std::string name = "W" + std::to_string(i + 1);
        NodeId s = t.FindNode(name);
        ASSERT_NE(s, kNone) << ctx << " " << name;
        ASSERT_EQ(t.GetNode(s).ports, n) << ctx;
        EXPECT_EQ(t.GetNode(s).layer, -1);
        std::set<NodeId> switchPeers;
        uint32_t switchLinks = 0;
        for (PortNo p = 0; p < n; ++p)
        {
            PortRef peer = t.GetPeer(s, p);
            ASSERT_NE(peer.node, kNone) << ctx << " " << name << " port " << p << " unused";
            if (p < hp)
            {
                // host ports first: H(i*hp + p + 1)
                EXPECT_EQ(t.GetNode(peer.node).name, "H" + std::to_string(i * hp + p + 1)) << ctx;
                EXPECT_EQ(t.GetNode(peer.node).kind, NodeKind::HOST);
            }
            else
            {
                EXPECT_EQ(t.GetNode(peer.node).kind, NodeKind::SWITCH) << ctx;
                ++switchLinks;
                switchPeers.insert(peer.node);
            }
        }
        EXPECT_EQ(switchLinks, r) << ctx << " " << name;
        EXPECT_EQ(switchPeers.size(), r) << ctx << " " << name << ": parallel links";
        EXPECT_EQ(switchPeers.count(s), 0u) << ctx;
    }
    EXPECT_EQ(ReachableFrom0(t), t.GetNNodes()) << ctx << ": not connected";
}

} // namespace

TEST(JellyfishTest, InvariantsOverManySeeds)
{
    struct Case
    {
        uint32_t N, n, r, seeds;
    };

    const Case cases[] = {
        {10, 6, 3, 200}, // 3-regular
        {20, 8, 5, 50},  // odd r, even N
        {7, 3, 2, 100},  // r = 2: must be a Hamiltonian cycle to be connected
        {5, 4, 4, 20},   // complete graph K5
        {6, 5, 5, 20},   // complete graph K6
        {2, 3, 1, 10},   // a single link
        {11, 4, 4, 50},  // odd N, even r
        {9, 2, 2, 20},   // no hosts
        {40, 12, 7, 20},
        {50, 46, 45, 10}, // dense: plain random pairing almost always gets stuck,
                          // so this needs the link-splicing steps
    };
    for (const Case& c : cases)
    {
        for (uint64_t seed = 1; seed <= c.seeds; ++seed)
        {
            const std::string ctx = "N=" + std::to_string(c.N) + " n=" + std::to_string(c.n) +
                                    " r=" + std::to_string(c.r) + " seed=" + std::to_string(seed);
            Topology t = MakeJellyfish(c.N, c.n, c.r, seed);
            CheckJellyfish(t, c.N, c.n, c.r, ctx);
            if (::testing::Test::HasFailure())
            {
                return;
            }
        }
    }
}

TEST(JellyfishTest, DeterministicPerSeedDifferentAcrossSeeds)
{
    std::set<std::string> seen;
    for (uint64_t seed = 0; seed < 30; ++seed)
    {
        std::string a = LinkString(MakeJellyfish(20, 8, 5, seed));
        std::string b = LinkString(MakeJellyfish(20, 8, 5, seed));
        EXPECT_EQ(a, b) << seed;
        seen.insert(a);
    }
    // 30 seeds, 30 different graphs (a collision among 5-regular graphs on 20
    // labelled switches is astronomically unlikely)
    EXPECT_EQ(seen.size(), 30u);
    EXPECT_NE(LinkString(MakeJellyfish(20, 8, 5, 1)),
              LinkString(MakeJellyfish(20, 8, 5, uint64_t(1) << 40)));
}

TEST(JellyfishTest, SwitchLinksListedInSortedOrder)
{
    // switch ports after the host ports are assigned in (lower id, higher id)
    // link order, so each switch's switch-facing peers appear in a sorted
    // order among the links sorted that way; check the peers of W1 ascend.
    Topology t = MakeJellyfish(12, 5, 3, 7);
    NodeId w1 = t.GetNodeId("W1");
    for (PortNo p = 3; p < 5; ++p)
    {
        EXPECT_LT(t.GetPeer(w1, p - 1).node, t.GetPeer(w1, p).node);
    }
}

TEST(JellyfishTest, RegressionSeed42)
{
    // Not derived independently: a golden value that pins the random stream
    // (std::mt19937_64 is fully specified and the library draws integers with
    // its own rejection sampler), so a change of standard library or of the
    // construction shows up here.
    Topology t = MakeJellyfish(6, 3, 3, 42);
    std::set<std::string> links = LinkSet(t);
    EXPECT_EQ(links.size(), 9u);
    EXPECT_EQ(LinkString(t),
              "W1:0-W3:0 W1:1-W4:0 W1:2-W6:0 W2:0-W3:1 W2:1-W4:1 W2:2-W5:0 W3:2-W5:1 "
              "W4:2-W6:1 W5:2-W6:2 ");
}

TEST(JellyfishTest, Large)
{
    auto start = std::chrono::steady_clock::now();
    Topology t = MakeJellyfish(2000, 48, 24, 3);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CheckJellyfish(t, 2000, 48, 24, "N=2000");
    EXPECT_LT(secs, 10.0);
}

TEST(JellyfishTest, BadParameters)
{
    EXPECT_TRUE(HasSubstr(ErrorOf([] { MakeJellyfish(5, 4, 3, 1); }), "must be even"));
    EXPECT_TRUE(HasSubstr(ErrorOf([] { MakeJellyfish(4, 6, 4, 1); }),
                          "switchPorts (4) must be less than switches (4)"));
    EXPECT_TRUE(HasSubstr(ErrorOf([] { MakeJellyfish(10, 3, 4, 1); }),
                          "switchPorts (4) must not exceed ports (3)"));
    EXPECT_TRUE(HasSubstr(ErrorOf([] { MakeJellyfish(1, 3, 0, 1); }), "switches must be >= 2"));
    EXPECT_TRUE(HasSubstr(ErrorOf([] { MakeJellyfish(0, 3, 1, 1); }), "switches must be >= 2"));
    EXPECT_TRUE(HasSubstr(ErrorOf([] { MakeJellyfish(4, 3, 0, 1); }), "switchPorts must be >= 1"));
    EXPECT_TRUE(HasSubstr(ErrorOf([] { MakeJellyfish(4, 3, 1, 1); }), "switchPorts = 1"));
    EXPECT_TRUE(HasSubstr(ErrorOf([] { MakeJellyfish(4000000, 1000, 10, 1); }), "too large"));
}

// ---------------------------------------------------------------------------
// BCube

namespace
{

/// Digits of a BCube server name H<digits> (single characters when n <= 10).
std::vector<uint32_t>
ServerDigits(const std::string& name, uint32_t n)
{
    std::vector<uint32_t> d;
    std::string s = name.substr(1);
    if (n <= 10)
    {
        for (char c : s)
        {
            d.push_back(static_cast<uint32_t>(c - '0'));
        }
    }
    else
    {
        size_t pos = 0;
        while (pos <= s.size())
        {
            size_t dot = s.find('.', pos);
            if (dot == std::string::npos)
            {
                dot = s.size();
            }
            d.push_back(static_cast<uint32_t>(std::stoul(s.substr(pos, dot - pos))));
            pos = dot + 1;
        }
    }
    return d; // most significant first: d[0] = a_k
}

} // namespace

TEST(BCubeTest, Counts)
{
    struct Case
    {
        uint32_t n, k;
    };

    for (Case c : {Case{2, 1}, Case{4, 1}, Case{3, 2}, Case{2, 3}, Case{5, 2}})
    {
        Topology t = MakeBCube(c.n, c.k);
        const std::string ctx = std::to_string(c.n) + "," + std::to_string(c.k);
        const uint64_t servers = Pow(c.n, c.k + 1);
        EXPECT_EQ(t.GetHosts().size(), servers) << ctx;
        EXPECT_EQ(t.GetSwitches().size(), (c.k + 1) * Pow(c.n, c.k)) << ctx;
        EXPECT_EQ(t.GetLinks().size(), (c.k + 1) * servers) << ctx;
        EXPECT_TRUE(AllPortsUsed(t)) << ctx;
        EXPECT_EQ(ReachableFrom0(t), t.GetNNodes()) << ctx;
        for (NodeId h : t.GetHosts())
        {
            EXPECT_TRUE(t.GetNode(h).relay);
            EXPECT_TRUE(t.IsForwarder(h));
            EXPECT_EQ(t.GetNode(h).ports, c.k + 1);
            EXPECT_EQ(t.GetNode(h).layer, -1);
        }
        for (NodeId s : t.GetSwitches())
        {
            EXPECT_EQ(t.GetNode(s).ports, c.n);
            EXPECT_EQ(t.GetNode(s).layer, -1);
            for (NodeId m : t.GetNeighbors(s))
            {
                EXPECT_TRUE(t.IsHost(m)); // switches connect only servers
            }
        }
    }
}

TEST(BCubeTest, ServersDifferingInOneDigitShareTheLevelSwitch)
{
    for (auto [n, k] : {std::pair<uint32_t, uint32_t>{3, 2}, {2, 3}, {4, 1}, {11, 1}})
    {
        Topology t = MakeBCube(n, k);
        std::vector<NodeId> hosts = t.GetHosts();
        for (NodeId a : hosts)
        {
            auto da = ServerDigits(t.GetNode(a).name, n);
            ASSERT_EQ(da.size(), k + 1) << t.GetNode(a).name;
            // port l reaches a level-l switch at port a_l
            for (uint32_t l = 0; l <= k; ++l)
            {
                PortRef sw = t.GetPeer(a, l);
                ASSERT_NE(sw.node, kNone);
                EXPECT_EQ(t.GetNode(sw.node).name.rfind("W" + std::to_string(l) + "_", 0), 0u);
                EXPECT_EQ(sw.port, da[k - l]);
            }
            for (NodeId b : hosts)
            {
                if (b == a)
                {
                    continue;
                }
                auto db = ServerDigits(t.GetNode(b).name, n);
                int differ = 0;
                uint32_t level = 0;
                for (uint32_t pos = 0; pos <= k; ++pos)
                {
                    if (da[pos] != db[pos])
                    {
                        ++differ;
                        level = k - pos;
                    }
                }
                std::set<NodeId> sa;
                std::set<NodeId> sb;
                for (uint32_t l = 0; l <= k; ++l)
                {
                    sa.insert(t.GetPeer(a, l).node);
                    sb.insert(t.GetPeer(b, l).node);
                }
                size_t shared = 0;
                for (NodeId s : sa)
                {
                    shared += sb.count(s);
                }
                if (differ == 1)
                {
                    EXPECT_EQ(t.GetPeer(a, level).node, t.GetPeer(b, level).node);
                    EXPECT_EQ(shared, 1u);
                }
                else
                {
                    EXPECT_EQ(shared, 0u);
                }
            }
        }
    }
}

TEST(BCubeTest, Names)
{
    Topology t = MakeBCube(4, 3);
    // H0123: a3=0 a2=1 a1=2 a0=3; port l -> W<l>_<digits without a_l> at port a_l
    EXPECT_EQ(PeerOf(t, "H0123", 0), "W0_012:3");
    EXPECT_EQ(PeerOf(t, "H0123", 1), "W1_013:2");
    EXPECT_EQ(PeerOf(t, "H0123", 2), "W2_023:1");
    EXPECT_EQ(PeerOf(t, "H0123", 3), "W3_123:0");
    EXPECT_NE(t.FindNode("W1_023"), kNone);
    EXPECT_EQ(t.FindNode("W4_000"), kNone);

    Topology big = MakeBCube(11, 1);
    EXPECT_EQ(PeerOf(big, "H10.3", 0), "W0_10:3");
    EXPECT_EQ(PeerOf(big, "H10.3", 1), "W1_3:10");
}

TEST(BCubeTest, BadParameters)
{
    EXPECT_TRUE(HasSubstr(ErrorOf([] { MakeBCube(1, 1); }), "n (switch ports) must be >= 2"));
    EXPECT_TRUE(HasSubstr(ErrorOf([] { MakeBCube(0, 2); }), "n (switch ports)"));
    EXPECT_TRUE(HasSubstr(ErrorOf([] { MakeBCube(4, 0); }), "k must be >= 1"));
    EXPECT_TRUE(HasSubstr(ErrorOf([] { MakeBCube(100, 5); }), "too large"));
    EXPECT_TRUE(HasSubstr(ErrorOf([] { MakeBCube(2, 4000000000u); }), "too large"));
}

TEST(LeafSpineTest, CountsPortsAndWiring)
{
    // 3 leaves, 2 spines, 4 hosts per leaf: 5 switches, 12 hosts,
    // 12 host links + 3 * 2 leaf-spine links = 18 links.
    Topology t = MakeLeafSpine(3, 2, 4);
    EXPECT_EQ(t.GetSwitches().size(), 5u);
    EXPECT_EQ(t.GetHosts().size(), 12u);
    EXPECT_EQ(t.GetLinks().size(), 18u);
    NodeId l2 = t.GetNodeId("L2");
    NodeId s2 = t.GetNodeId("S2");
    // Leaf ports: hosts 0..3, then spine s on 4 + s; spine port l to leaf l.
    EXPECT_EQ(t.GetPeer(l2, 0).node, t.GetNodeId("H5"));
    EXPECT_EQ(t.GetPeer(l2, 3).node, t.GetNodeId("H8"));
    EXPECT_EQ(t.GetPeer(l2, 5), (PortRef{s2, 1}));
    EXPECT_EQ(t.GetNode(l2).layer, 1);
    EXPECT_EQ(t.GetNode(s2).layer, 2);
    EXPECT_TRUE(t.IsConnected());
}

TEST(LeafSpineTest, ZeroParameterIsNamed)
{
    for (auto [leaves, spines, hosts, name] : {std::make_tuple(0u, 1u, 1u, "leaves"),
                                               std::make_tuple(1u, 0u, 1u, "spines"),
                                               std::make_tuple(1u, 1u, 0u, "hostsPerLeaf")})
    {
        try
        {
            MakeLeafSpine(leaves, spines, hosts);
            ADD_FAILURE() << "no error for " << name;
        }
        catch (const TaggerError& e)
        {
            EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
        }
    }
}
