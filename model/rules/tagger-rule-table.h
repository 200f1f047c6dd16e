/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 */

#ifndef TAGGER_RULE_TABLE_H
#define TAGGER_RULE_TABLE_H

#include "tagger-topology.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{
namespace tagger
{

/// A tag value (carried in the IPv4 DSCP); 1..63.  0 is the lossy tag.
using Tag = uint8_t;
/// The tag of packets that left the ELP: lossy queue, never paused.
constexpr Tag kLossyTag = 0;
/// Highest tag value (6-bit DSCP).
constexpr Tag kMaxTag = 63;

/// One plain rule: (tag, in port, out port) -> new tag at one node.
struct Rule
{
    Tag tag;
    PortNo inPort;
    PortNo outPort;
    Tag newTag;
};

/**
 * \ingroup tagger
 * \brief The output of a tagging algorithm: per forwarding node the rewrite
 * function (tag, in port, out port) -> new tag; anything without a rule is
 * lossy.  Tag t (1 <= t <= GetLosslessTags()) maps to lossless queue t.
 *
 * The switch action is a function by construction: Set() refuses a second,
 * different new tag for the same (node, tag, in, out).
 */
class TagRules
{
  public:
    TagRules() = default;
    explicit TagRules(const Topology& topo);

    /// Set the rule; throws std::logic_error when it already maps elsewhere.
    void Set(NodeId node, Tag tag, PortNo in, PortNo out, Tag newTag);

    /// The new tag for (tag, in, out) at node, or kLossyTag when no rule.
    Tag Get(NodeId node, Tag tag, PortNo in, PortNo out) const
    {
        const auto& perTag = m_table[node];
        if (tag == 0 || tag >= perTag.size() || perTag[tag].empty())
        {
            return kLossyTag;
        }
        return perTag[tag][in * m_ports[node] + out];
    }

    /// Number of plain rules at node.
    uint32_t CountRules(NodeId node) const;

    /// All rules at node, ordered by (tag, in, out).
    std::vector<Rule> GetRules(NodeId node) const;

    /// Call fn for every rule at node, ordered by (tag, in, out).
    void ForEachRule(NodeId node, const std::function<void(const Rule&)>& fn) const;

    /**
     * Number of lossless tags (= lossless queues) needed: the highest tag with
     * which a packet can arrive at a forwarding node's ingress port.  Tags that
     * only ever reach a destination host's NIC are not counted (Table III: tag 4
     * appears only on destination servers).
     */
    uint32_t GetLosslessTags() const;

    /// Highest tag in any rule (including tags only delivered to hosts).
    Tag GetMaxTag() const;

    const Topology& GetTopology() const
    {
        return *m_topo;
    }

  private:
    const Topology* m_topo{nullptr};
    std::vector<uint32_t> m_ports;
    /// per node, per tag: dense [in * ports + out] -> new tag (0 = none)
    std::vector<std::vector<std::vector<Tag>>> m_table;
};

/**
 * \ingroup tagger
 * \brief A TCAM entry with port bitmaps (Tagger (ToN), Sec. VII-C, Fig. 9):
 * matches an exact tag, any in port of inPorts and any out port of outPorts,
 * and rewrites the tag to newTag.  On the paper's ASICs a port field is a
 * bitmap with a mask, so one entry matches any port set: one entry is one
 * TCAM entry, counted like one of the paper's rules.
 */
struct TcamEntry
{
    Tag tag;
    std::vector<PortNo> inPorts;  //!< sorted, unique, non-empty
    std::vector<PortNo> outPorts; //!< sorted, unique, non-empty
    Tag newTag;                   //!< never kLossyTag
};

/**
 * Compress one node's plain rules into TCAM entries, matched first to last
 * (the first matching entry wins), no match meaning lossy; the result gives
 * exactly the plain rules' new tag for every (tag, in, out), hairpins (in ==
 * out) and tags without rules included.
 *
 * Entries of different tags never overlap; a tag's entries are a cover of its
 * (in, out) -> new tag relation by port-set rectangles (a biclique cover).  The
 * tag's actions (new tags) are covered one after the other, fewest cells
 * first; a rectangle may also match cells an earlier entry already matched
 * (first match wins, so they are don't-cares), never an unmatched cell of
 * another action or without a rule.  Rectangles are chosen greedily (the one
 * covering the most uncovered cells among those grown from a few seed ports),
 * once growing from out ports and once from in ports.  Each cover is then
 * improved per action: an entry is dropped when the action's other entries,
 * given extra ports, match its cells, and two entries are merged into one
 * rectangle when that rectangle matches no cell it may not; entries only grow
 * onto cells of their action or of an action covered before.  The tag keeps
 * the fewest entries among those two covers and the per-out-port aggregation (in
 * ports aggregated per out port, out ports with equal in-port sets sharing
 * one entry), so it never has more entries than that aggregation.  Heuristic:
 * not always the minimum (which is NP-hard to find).  thorough: also try
 * covers grown from in and out ports at once and with more seed ports (never
 * more entries; about 5 times the time).
 */
std::vector<TcamEntry> CompressTcam(const TagRules& rules, NodeId node, bool thorough = false);

/// CompressTcamTable compresses the fullest nodes again (thorough) while at
/// most this many nodes hold the most entries, and this many in all.
constexpr uint32_t kThoroughNodes = 64;

/// TCAM entries per node id (empty for nodes without rules).
using TcamTable = std::vector<std::vector<TcamEntry>>;

/**
 * CompressTcam for every node of the rules' topology, indexed by node id,
 * on `threads` threads (0: one per hardware thread); the table does not
 * depend on the thread count.  Then the nodes with the most entries are
 * compressed again, thorough, as long as that lowers the most entries on a
 * node and at most kThoroughNodes nodes hold the most: a node of the table
 * can have fewer entries than CompressTcam(rules, node).
 */
TcamTable CompressTcamTable(const TagRules& rules, unsigned threads = 0);

/// Evaluate a TCAM list for (tag, in, out): the first matching entry's new tag,
/// kLossyTag when none matches.
Tag LookupTcam(const std::vector<TcamEntry>& entries, Tag tag, PortNo in, PortNo out);

/**
 * Check that first-match evaluation of `entries` gives the plain rules' new
 * tag at node for every (tag, in, out), tags 0 .. (the node's highest tag + 1), hairpins
 * included.  Evaluates every entry's cells once (last entry first, so earlier
 * entries overwrite), not entry by entry as LookupTcam does.
 * \return "" when equivalent, else the first difference
 */
std::string CheckTcam(const TagRules& rules, NodeId node, const std::vector<TcamEntry>& entries);

} // namespace tagger
} // namespace ns3

#endif /* TAGGER_RULE_TABLE_H */
