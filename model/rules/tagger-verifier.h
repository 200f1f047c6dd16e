/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 */

#ifndef TAGGER_VERIFIER_H
#define TAGGER_VERIFIER_H

#include "tagger-elp.h"
#include "tagger-rule-table.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{
namespace tagger
{

/// A node of the tagged graph: packets with `tag` arriving at (node, port).
struct TaggedNode
{
    NodeId node;
    PortNo port;
    Tag tag;
};

/**
 * \ingroup tagger
 * \brief What the verifier found.  ok is true when every check passed;
 * otherwise `problem` says which requirement failed in one line and `cycle`
 * or `path` holds the counterexample.
 */
struct VerifyResult
{
    bool ok{true};
    std::string problem;              //!< one line, names nodes and ports
    std::vector<TaggedNode> cycle;    //!< a cycle inside one tag's subgraph
    std::vector<TaggedNode> decrease; //!< the two ends of a tag-decreasing edge
    Path path;                        //!< an ELP path that does not stay lossless
};

/**
 * Check the two deadlock-freedom requirements of section V on the tagged graph
 * the rules define: (1) no cycle inside any tag's subgraph, (2) no edge from a
 * higher tag to a lower one.  Only lossless tags (1..lossless) count; an edge to
 * a tag above `lossless` at a forwarding node is a violation too (the packet
 * would sit in a queue that does not exist), unless lossless is 0 (no limit).
 */
VerifyResult VerifyDeadlockFree(const TagRules& rules, uint32_t lossless = 0, unsigned threads = 1);

/**
 * Check that every ELP path stays lossless: starting with each class's tag,
 * every hop finds a rule and every tag at a forwarding node is <= lossless
 * (0: no limit).  Uses the explicit paths when present (the counterexample is
 * then a path), and with ElpScope::HOP_GRAPH also the HopGraph (every
 * transition reachable with a tag must have a rule).  ElpScope::PATHS checks
 * the explicit paths only and needs every path stored (else the result is not
 * ok and says so).
 *
 * Both checks go over the nodes on `threads` threads (0: one per hardware
 * thread) where that pays; the verdict and its counterexample do not depend on
 * the thread count.
 */
VerifyResult VerifyElpLossless(const TagRules& rules,
                               const Elp& elp,
                               uint32_t classes = 1,
                               uint32_t lossless = 0,
                               unsigned threads = 1,
                               ElpScope scope = ElpScope::HOP_GRAPH);

/// Both checks (on `threads` threads and in `scope`, see VerifyElpLossless); the first
/// failure wins.
VerifyResult Verify(const TagRules& rules,
                    const Elp& elp,
                    uint32_t classes = 1,
                    unsigned threads = 1,
                    ElpScope scope = ElpScope::HOP_GRAPH);

/// Format a tagged node as "T1 port 3 tag 2".
std::string FormatTaggedNode(const Topology& topo, const TaggedNode& n);

} // namespace tagger
} // namespace ns3

#endif /* TAGGER_VERIFIER_H */
