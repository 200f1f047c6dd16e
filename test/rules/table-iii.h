/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * The triangle of Fig. 5 of Tagger (ToN) and Table III, the rules Algorithm 1
 * (brute force) gives it, transcribed once from the paper for every test that
 * checks them: the GoogleTest files of the rule library (through
 * test-util.h) and the ns-3 TestSuite "tagger-rules".  Plain C++ and the
 * rule library (neither ns-3 nor GoogleTest), so both kinds of test can
 * include it.
 *
 * The port numbers are the paper's (each switch has ports 0..4):
 *   A: port 2 host HA, port 3 to B, port 4 to C
 *   B: port 1 to A, port 2 host HB, port 4 to C
 *   C: port 1 to A, port 3 to B, port 4 host HC
 */

#ifndef TAGGER_TEST_TABLE_III_H
#define TAGGER_TEST_TABLE_III_H

#include "tagger-elp.h"
#include "tagger-topology.h"

#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace ns3
{
namespace tagger
{
namespace test
{

/**
 * \param topo a topology \param names node names, in path order
 * \return the path through those nodes
 */
inline Path
PathByNames(const Topology& topo, const std::vector<std::string>& names)
{
    Path p;
    for (const auto& s : names)
    {
        p.push_back(topo.GetNodeId(s));
    }
    return p;
}

/**
 * The topology of Fig. 5: switches A, B and C in a triangle, one host each
 * (HA, HB, HC).  Every switch has 5 ports so that the port numbers of Tables
 * III and IV are used as printed (see the file comment); a host has one.
 * \return the topology (nodes A, B, C, HA, HB, HC in this order)
 */
inline Topology
MakeTriangleTopology()
{
    Topology t;
    NodeId a = t.AddNode("A", NodeKind::SWITCH, 5);
    NodeId b = t.AddNode("B", NodeKind::SWITCH, 5);
    NodeId c = t.AddNode("C", NodeKind::SWITCH, 5);
    NodeId ha = t.AddNode("HA", NodeKind::HOST, 1);
    NodeId hb = t.AddNode("HB", NodeKind::HOST, 1);
    NodeId hc = t.AddNode("HC", NodeKind::HOST, 1);
    t.AddLink(a, 2, ha, 0);
    t.AddLink(a, 3, b, 1);
    t.AddLink(a, 4, c, 1);
    t.AddLink(b, 2, hb, 0);
    t.AddLink(b, 4, c, 3);
    t.AddLink(c, 4, hc, 0);
    return t;
}

/**
 * The ELP of Fig. 5: every loop-free host-to-host path, the 6 direct ones
 * then the 6 via the third switch.
 * \param t the triangle (MakeTriangleTopology) \return the 12 paths
 */
inline std::vector<Path>
TrianglePaths(const Topology& t)
{
    std::vector<std::vector<std::string>> names = {
        {"HA", "A", "B", "HB"},
        {"HA", "A", "C", "HC"},
        {"HB", "B", "A", "HA"},
        {"HB", "B", "C", "HC"},
        {"HC", "C", "A", "HA"},
        {"HC", "C", "B", "HB"},
        {"HA", "A", "C", "B", "HB"},
        {"HA", "A", "B", "C", "HC"},
        {"HB", "B", "C", "A", "HA"},
        {"HB", "B", "A", "C", "HC"},
        {"HC", "C", "B", "A", "HA"},
        {"HC", "C", "A", "B", "HB"},
    };
    std::vector<Path> out;
    for (const auto& n : names)
    {
        out.push_back(PathByNames(t, n));
    }
    return out;
}

/**
 * Rules of one switch as (Tag, InPort, OutPort, Newtag), ordered as the
 * paper prints them (by tag, then in port, then out port).
 */
using PaperTable = std::set<std::tuple<int, int, int, int>>;

/**
 * TABLE III of the paper (rules of Algorithm 1 for the Fig. 5 triangle),
 * transcribed from the text.
 * \param sw the switch: 'A', 'B' or 'C' (any other letter gives C's table)
 * \return its eight rules
 */
inline const PaperTable&
PaperTableIII(char sw)
{
    static const PaperTable a = {{1, 2, 3, 2},
                                 {1, 2, 4, 2},
                                 {2, 3, 2, 3},
                                 {2, 3, 4, 3},
                                 {2, 4, 2, 3},
                                 {2, 4, 3, 3},
                                 {3, 3, 2, 4},
                                 {3, 4, 2, 4}};
    static const PaperTable b = {{1, 2, 1, 2},
                                 {1, 2, 4, 2},
                                 {2, 1, 2, 3},
                                 {2, 1, 4, 3},
                                 {2, 4, 1, 3},
                                 {2, 4, 2, 3},
                                 {3, 1, 2, 4},
                                 {3, 4, 2, 4}};
    static const PaperTable c = {{1, 4, 1, 2},
                                 {1, 4, 3, 2},
                                 {2, 1, 3, 3},
                                 {2, 1, 4, 3},
                                 {2, 3, 1, 3},
                                 {2, 3, 4, 3},
                                 {3, 1, 4, 4},
                                 {3, 3, 4, 4}};
    return sw == 'A' ? a : (sw == 'B' ? b : c);
}

} // namespace test
} // namespace tagger
} // namespace ns3

#endif /* TAGGER_TEST_TABLE_III_H */
