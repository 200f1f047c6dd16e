/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * Table III of Tagger (ToN): the rules Algorithm 1 (brute force) gives the
 * triangle of Fig. 5, transcribed once from the paper for every test that
 * checks them: the GoogleTest files of the rule library (through
 * test-util.h) and the ns-3 TestSuite "tagger-rules".  Plain C++ (neither
 * ns-3 nor GoogleTest), so both kinds of test can include it.
 *
 * The port numbers are the paper's (each switch has ports 0..4):
 *   A: port 2 host HA, port 3 to B, port 4 to C
 *   B: port 1 to A, port 2 host HB, port 4 to C
 *   C: port 1 to A, port 3 to B, port 4 host HC
 */

#ifndef TAGGER_TEST_TABLE_III_H
#define TAGGER_TEST_TABLE_III_H

#include <set>
#include <tuple>

namespace ns3
{
namespace tagger
{
namespace test
{

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
