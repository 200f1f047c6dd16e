/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * The compact FIB (PfcRouteTable), in the TestSuite "tagger-pfc-switch"
 * (MakePfcRouteTableTestCases(), pfc-test-util.h): the table against a plain
 * one (a map of /32 routes and a prefix list, longest first) over random
 * sequences of changes; its size on a k = 4 fat tree, worked out by hand,
 * with a pinned path and a failure; PfcRouteHelper's routes after failures
 * against a search from every host; a bad mask.
 */

#include "../tagger-test-helpers.h"
#include "pfc-test-util.h"

#include "ns3/pfc-route-table.h"
#include "ns3/pfc-switch-net-device.h"
#include "ns3/pfc-topology-helper.h"
#include "ns3/simulator.h"
#include "ns3/tagger-topology-generators.h"
#include "ns3/test.h"

#include <algorithm>
#include <deque>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace ns3;
using tagger::test::CheckFatalError;

namespace
{

using PortSet = PfcRouteTable::PortSet;

/**
 * The plain table the compact one must agree with: a /32 route per address
 * (a map) and the shorter prefixes in a list, longest first.
 */
class ReferenceFib
{
  public:
    /// \param prefix destination \param mask mask \param ports the set
    void Set(uint32_t prefix, uint32_t mask, const PortSet& ports)
    {
        if (mask == 0xffffffffu)
        {
            m_hosts[prefix] = ports;
            return;
        }
        m_prefixes[{mask, prefix & mask}] = ports;
    }

    /// \param prefix destination \param mask mask \param port appended to the exact route's set
    void Add(uint32_t prefix, uint32_t mask, uint32_t port)
    {
        PortSet ports;
        if (mask == 0xffffffffu && m_hosts.count(prefix))
        {
            ports = m_hosts[prefix];
        }
        else if (mask != 0xffffffffu && m_prefixes.count({mask, prefix & mask}))
        {
            ports = m_prefixes[{mask, prefix & mask}];
        }
        if (std::find(ports.begin(), ports.end(), port) == ports.end())
        {
            ports.push_back(port);
        }
        Set(prefix, mask, ports);
    }

    /// \param port removed from every set \return routes changed
    uint32_t RemovePort(uint32_t port)
    {
        uint32_t changed = 0;
        auto strip = [port, &changed](PortSet& s) {
            auto it = std::remove(s.begin(), s.end(), port);
            changed += it != s.end() ? 1 : 0;
            s.erase(it, s.end());
        };
        for (auto& kv : m_hosts)
        {
            strip(kv.second);
        }
        for (auto& kv : m_prefixes)
        {
            strip(kv.second);
        }
        return changed;
    }

    /// \param dest address \return its longest match's set, nullptr if none
    const PortSet* Find(uint32_t dest) const
    {
        auto h = m_hosts.find(dest);
        if (h != m_hosts.end())
        {
            return &h->second;
        }
        for (auto it = m_prefixes.rbegin(); it != m_prefixes.rend(); ++it) // longest mask first
        {
            if ((dest & it->first.first) == it->first.second)
            {
                return &it->second;
            }
        }
        return nullptr;
    }

    /// \return maximal runs of consecutive /32 addresses with one set
    uint32_t CountRuns() const
    {
        uint32_t runs = 0;
        const std::pair<const uint32_t, PortSet>* last = nullptr;
        for (const auto& kv : m_hosts)
        {
            bool continues = last && last->first + 1 == kv.first && last->second == kv.second;
            runs += continues ? 0 : 1;
            last = &kv;
        }
        return runs;
    }

    /// \return distinct sets over all routes
    uint32_t CountSets() const
    {
        std::set<PortSet> sets;
        for (const auto& kv : m_hosts)
        {
            sets.insert(kv.second);
        }
        for (const auto& kv : m_prefixes)
        {
            sets.insert(kv.second);
        }
        return sets.size();
    }

    /// Remove every route.
    void Clear()
    {
        m_hosts.clear();
        m_prefixes.clear();
    }

  private:
    std::map<uint32_t, PortSet> m_hosts;                         //!< /32 routes
    std::map<std::pair<uint32_t, uint32_t>, PortSet> m_prefixes; //!< (mask, prefix) -> set
};

/**
 * \ingroup tagger-tests
 * PfcRouteTable against ReferenceFib: 40 random sequences of 400 changes
 * (Set and Add of /32 routes and of /0 to /31 prefixes, ascending sweeps of
 * /32 routes as PfcRouteHelper installs them, RemovePort, Clear) on 64
 * addresses of 10.0.0.0/26 and the four ends of the address space (0, 1,
 * 2^32 - 2, 2^32 - 1), ports 0 to 4, sets of 0 to 3 ports in any order.
 * After every change: Find agrees (the same set, in the same order, or no
 * route) for every address of both blocks and one outside them, RemovePort
 * returns the reference's count, the table has exactly as many ranges as
 * the reference has maximal runs and as many groups as distinct sets.
 */
class RouteTableReferenceTestCase : public TestCase
{
  public:
    RouteTableReferenceTestCase()
        : TestCase("PfcRouteTable agrees with a plain table over random changes, compactly")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<uint32_t>
            masks{0xffffffffu, 0xfffffffeu, 0xfffffffcu, 0xfffffff0u, 0xffffff00u, 0xffff0000u, 0u};
        std::vector<uint32_t> addresses{0, 1, 0xfffffffeu, 0xffffffffu, 0x0a000040u};
        for (uint32_t a = 0; a < 64; ++a)
        {
            addresses.push_back(0x0a000000u + a);
        }
        std::mt19937 rng(20261124);
        for (uint32_t sequence = 0; sequence < 40; ++sequence)
        {
            PfcRouteTable table;
            ReferenceFib ref;
            for (uint32_t step = 0; step < 400; ++step)
            {
                Change(rng, masks, addresses, table, ref);
                if (!Agree(table, ref, addresses, sequence, step))
                {
                    return;
                }
            }
        }
    }

    /**
     * One random change to both tables.
     * \param rng the generator \param masks masks to draw \param addresses
     * addresses to draw (the first 4: the ends of the space; index 4 not routed by /32)
     * \param table compact table \param ref reference
     */
    void Change(std::mt19937& rng,
                const std::vector<uint32_t>& masks,
                const std::vector<uint32_t>& addresses,
                PfcRouteTable& table,
                ReferenceFib& ref)
    {
        auto below = [&rng](uint32_t n) { return uint32_t(rng() % n); };
        PortSet ports;
        for (uint32_t n = below(4); ports.size() < n;)
        {
            uint32_t p = below(5);
            if (std::find(ports.begin(), ports.end(), p) == ports.end())
            {
                ports.push_back(p);
            }
        }
        uint32_t address = addresses[below(addresses.size())];
        uint32_t mask = below(2) ? 0xffffffffu : masks[below(masks.size())];
        uint32_t op = below(100);
        if (op < 45)
        {
            table.Set(address, mask, ports);
            ref.Set(address, mask, ports);
        }
        else if (op < 75)
        {
            uint32_t port = below(5);
            table.Add(address, mask, port);
            ref.Add(address, mask, port);
        }
        else if (op < 85)
        {
            // An ascending sweep of /32 routes, two sets alternating in blocks.
            uint32_t first = 0x0a000000u + below(64);
            uint32_t block = 1 + below(8);
            PortSet other{below(5)};
            for (uint32_t a = first; a < 0x0a000040u; ++a)
            {
                const PortSet& s = ((a - first) / block) % 2 ? other : ports;
                table.Set(a, 0xffffffffu, s);
                ref.Set(a, 0xffffffffu, s);
            }
        }
        else if (op < 98)
        {
            uint32_t port = below(5);
            NS_TEST_EXPECT_MSG_EQ(table.RemovePort(port), ref.RemovePort(port), "RemovePort");
        }
        else
        {
            table.Clear();
            ref.Clear();
        }
    }

    /**
     * \param table compact table \param ref reference \param addresses checked
     * \param sequence for messages \param step for messages
     * \return whether they agree
     */
    bool Agree(const PfcRouteTable& table,
               const ReferenceFib& ref,
               const std::vector<uint32_t>& addresses,
               uint32_t sequence,
               uint32_t step)
    {
        std::string where =
            "sequence " + std::to_string(sequence) + ", step " + std::to_string(step);
        for (uint32_t a : addresses)
        {
            const PortSet* got = table.Find(a);
            const PortSet* want = ref.Find(a);
            bool same = (got == nullptr) == (want == nullptr) && (!got || *got == *want);
            NS_TEST_ASSERT_MSG_EQ_RETURNS_BOOL(same,
                                               true,
                                               where + ": address " + std::to_string(a));
            // The data plane's shortcut: the one port of a one-port set.
            uint32_t only = 0;
            table.Find(a, only);
            uint32_t wantOnly =
                want && want->size() == 1 ? (*want)[0] : PfcRouteTable::kNoSinglePort;
            NS_TEST_ASSERT_MSG_EQ_RETURNS_BOOL(only,
                                               wantOnly,
                                               where + ": one port of address " +
                                                   std::to_string(a));
        }
        NS_TEST_ASSERT_MSG_EQ_RETURNS_BOOL(table.GetNRanges(), ref.CountRuns(), where + ": ranges");
        NS_TEST_ASSERT_MSG_EQ_RETURNS_BOOL(table.GetNGroups(), ref.CountSets(), where + ": groups");
        return true;
    }
};

/// \param net a network \param v a forwarder \return its routes' (ranges, groups)
std::pair<uint32_t, uint32_t>
TableSize(const PfcTopologyHelper& net, tagger::NodeId v)
{
    const PfcRouteTable& t = net.GetSwitch(v)->GetRouteTable();
    return {t.GetNRanges(), t.GetNGroups()};
}

/**
 * \param net a network whose only routes are /32 routes to its hosts
 * \param v a forwarder
 * \return (runs of consecutive host addresses with one Lookup set, distinct sets)
 */
std::pair<uint32_t, uint32_t>
LookupRuns(const PfcTopologyHelper& net, tagger::NodeId v)
{
    uint32_t runs = 0;
    std::set<PortSet> sets;
    PortSet last;
    for (uint32_t h = 0; h < net.GetNHosts(); ++h)
    {
        PortSet s = net.GetSwitch(v)->Lookup(net.GetHostAddress(h));
        runs += (h == 0 || s != last) ? 1 : 0;
        sets.insert(s);
        last = s;
    }
    return {runs, uint32_t(sets.size())};
}

/**
 * \ingroup tagger-tests
 * The size of the routes of a k = 4 fat tree (16 hosts H1..H16, two per
 * ToR, addresses consecutive; ToRs T1..T8, leaves L1..L8, two per pod,
 * spines S1..S4), worked out by hand, against 320 /32 routes for a table
 * per host:
 *  - ToR: one range per own host (its port) and the other hosts, one ECMP
 *    set over both leaves, before and after them (T1 and T8: one side only):
 *    4 ranges (T1, T8: 3), 3 sets;
 *  - leaf: one range per ToR of its pod (2), the other pods (both spines)
 *    before and after (pods 0 and 3: one side): 4 ranges (L1, L2, L7, L8:
 *    3), 3 sets;
 *  - spine: one range per pod (its port to the pod), 4 ranges, 4 sets.
 * Total 74 ranges.  Pinning H5 (under T3) along T1-L1-S1-L3-T3: T1's
 * range of the other hosts splits around H5 ({L1} alone): 5 ranges, 4 sets;
 * L1's other pods split at H5 ({S1}): 4 ranges, 4 sets; the rest already
 * had those sets.  Failing T1-L1: T1's sets all lose L1, H5's is rerouted
 * to the only candidate (L2), so the other hosts merge again: 3 ranges,
 * 3 sets.  L1 reroutes H1 and H2 at random: every switch's ranges and sets
 * are then checked against runs of its Lookup over the host addresses.
 */
class RouteTableFatTreeTestCase : public TestCase
{
  public:
    RouteTableFatTreeTestCase()
        : TestCase("PfcRouteTable: ranges and sets on a k = 4 fat tree, pinned path, failure")
    {
    }

  private:
    void DoRun() override
    {
        PfcTopologyHelper net(tagger::MakeFatTree(4));
        net.Build();
        uint32_t total = 0;
        for (uint32_t t = 0; t < 8; ++t)
        {
            uint32_t ranges = (t == 0 || t == 7) ? 3 : 4;
            NS_TEST_EXPECT_MSG_EQ((TableSize(net, t) == std::make_pair(ranges, 3u)),
                                  true,
                                  "T" << t + 1);
            total += TableSize(net, t).first;
        }
        for (uint32_t l = 0; l < 8; ++l)
        {
            uint32_t ranges = (l / 2 == 0 || l / 2 == 3) ? 3 : 4;
            NS_TEST_EXPECT_MSG_EQ((TableSize(net, 8 + l) == std::make_pair(ranges, 3u)),
                                  true,
                                  "L" << l + 1);
            total += TableSize(net, 8 + l).first;
        }
        for (uint32_t s = 0; s < 4; ++s)
        {
            NS_TEST_EXPECT_MSG_EQ((TableSize(net, 16 + s) == std::make_pair(4u, 4u)),
                                  true,
                                  "S" << s + 1);
            total += TableSize(net, 16 + s).first;
        }
        NS_TEST_EXPECT_MSG_EQ(total, 74, "ranges in all");

        PfcRouteHelper& routes = net.GetRouteHelper();
        routes.PinPath({"T1", "L1", "S1", "L3", "T3"}, 4);
        NS_TEST_EXPECT_MSG_EQ((TableSize(net, 0) == std::make_pair(5u, 4u)), true, "T1 pinned");
        NS_TEST_EXPECT_MSG_EQ((TableSize(net, 8) == std::make_pair(4u, 4u)), true, "L1 pinned");
        NS_TEST_EXPECT_MSG_EQ((TableSize(net, 16) == std::make_pair(4u, 4u)), true, "S1 pinned");
        NS_TEST_EXPECT_MSG_EQ((TableSize(net, 10) == std::make_pair(4u, 3u)), true, "L3 pinned");

        routes.FailLink("T1", "L1");
        NS_TEST_EXPECT_MSG_EQ((TableSize(net, 0) == std::make_pair(3u, 3u)), true, "T1 failed");
        for (tagger::NodeId v = 0; v < 20; ++v)
        {
            NS_TEST_EXPECT_MSG_EQ((TableSize(net, v) == LookupRuns(net, v)),
                                  true,
                                  net.GetTopology().GetNode(v).name << " after the failure");
        }
        Simulator::Destroy();
    }
};

/**
 * \param net a network \param host host index
 * \return per node id, the ECMP set of a search from the host itself over
 *         the links that are up (PfcRouteHelper's rule, in switch ports)
 */
std::vector<PortSet>
SetsFromHost(const PfcTopologyHelper& net, uint32_t host)
{
    const tagger::Topology& topo = net.GetTopology();
    const tagger::NodeId from = topo.GetHosts()[host];
    auto up = [&net](tagger::NodeId v, tagger::PortNo p) {
        return net.GetDevice(v, p) && net.GetDevice(v, p)->IsLinkUp();
    };
    std::vector<uint32_t> dist(topo.GetNNodes(), tagger::kNone);
    dist[from] = 0;
    std::deque<tagger::NodeId> queue{from};
    while (!queue.empty())
    {
        tagger::NodeId u = queue.front();
        queue.pop_front();
        for (tagger::PortNo p = 0; p < topo.GetNode(u).ports && (u == from || net.GetSwitch(u));
             ++p)
        {
            tagger::NodeId w = topo.GetPeer(u, p).node;
            if (up(u, p) && dist[w] == tagger::kNone)
            {
                dist[w] = dist[u] + 1;
                queue.push_back(w);
            }
        }
    }
    std::vector<PortSet> sets(topo.GetNNodes());
    for (tagger::NodeId v = 0; v < topo.GetNNodes(); ++v)
    {
        for (tagger::PortNo p = 0; net.GetSwitch(v) && p < topo.GetNode(v).ports; ++p)
        {
            tagger::NodeId w = topo.GetPeer(v, p).node;
            if (up(v, p) && dist[w] + 1 == dist[v] && (w == from || net.GetSwitch(w)))
            {
                sets[v].push_back(net.GetSwitchPort(v, p));
            }
        }
    }
    return sets;
}

/**
 * \ingroup tagger-tests
 * PfcRouteHelper searches once per ToR, not per host: its routes must be
 * those of a search from every host (SetsFromHost, the rule as the class
 * comment states it), in the same port order, with links down.  A k = 4 fat
 * tree with H1-T1 (a host cut off), T3-L3 and L5-S1 failed, then routes
 * computed again (RestoreLink of a fourth failed link, T8-L8); and BCube(2,1)
 * (relay servers, searched from themselves) with one link failed.
 */
class RouteHelperFailuresTestCase : public TestCase
{
  public:
    RouteHelperFailuresTestCase()
        : TestCase("PfcRouteHelper: routes after failures match a search from every host")
    {
    }

  private:
    void DoRun() override
    {
        PfcTopologyHelper net(tagger::MakeFatTree(4));
        net.Build();
        PfcRouteHelper& routes = net.GetRouteHelper();
        for (const auto& [a, b] : std::vector<std::pair<std::string, std::string>>{{"H1", "T1"},
                                                                                   {"T3", "L3"},
                                                                                   {"L5", "S1"},
                                                                                   {"T8", "L8"}})
        {
            routes.FailLink(a, b);
        }
        routes.RestoreLink("T8", "L8");
        Check(net, "fat tree");
        Simulator::Destroy();

        PfcTopologyHelper bcube(tagger::MakeBCube(2, 1));
        bcube.Build();
        const tagger::Topology& topo = bcube.GetTopology();
        tagger::NodeId h0 = topo.GetHosts()[0];
        bcube.GetRouteHelper().FailLink(topo.GetNode(h0).name,
                                        topo.GetNode(topo.GetPeer(h0, 0).node).name);
        bcube.GetRouteHelper().PopulateRoutes();
        Check(bcube, "BCube");
        Simulator::Destroy();
    }

    /// \param net the network \param label for messages
    void Check(const PfcTopologyHelper& net, const std::string& label)
    {
        const tagger::Topology& topo = net.GetTopology();
        for (uint32_t h = 0; h < net.GetNHosts(); ++h)
        {
            std::vector<PortSet> want = SetsFromHost(net, h);
            for (tagger::NodeId v = 0; v < topo.GetNNodes(); ++v)
            {
                if (net.GetSwitch(v) && v != topo.GetHosts()[h])
                {
                    NS_TEST_EXPECT_MSG_EQ(
                        (net.GetSwitch(v)->Lookup(net.GetHostAddress(h)) == want[v]),
                        true,
                        label << ": " << topo.GetNode(v).name << " to host " << h);
                }
            }
        }
    }
};

/**
 * \ingroup tagger-tests
 * A mask that is not contiguous ends the program, named.
 */
class RouteTableBadMaskTestCase : public TestCase
{
  public:
    RouteTableBadMaskTestCase()
        : TestCase("PfcRouteTable: a mask that is not contiguous ends the program")
    {
    }

  private:
    void DoRun() override
    {
        PfcRouteTable table;
        NS_TEST_EXPECT_MSG_EQ(
            CheckFatalError([&table]() { table.Set(0x0a000000u, 0xff00ff00u, {1}); },
                            "mask 255.0.255.0 is not contiguous"),
            "",
            "Set with 255.0.255.0");
        NS_TEST_EXPECT_MSG_EQ(
            CheckFatalError([&table]() { table.Add(0, 0x7fffffffu, 1); }, "is not contiguous"),
            "",
            "Add with 127.255.255.255");
    }
};

} // namespace

std::vector<TestCase*>
MakePfcRouteTableTestCases()
{
    return {new RouteTableReferenceTestCase,
            new RouteTableFatTreeTestCase,
            new RouteHelperFailuresTestCase,
            new RouteTableBadMaskTestCase};
}
