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
 * \brief A TCAM entry with port bitmaps (section VII-C): matches an exact tag,
 * any in port of inPorts and any out port of outPorts.
 */
struct TcamEntry
{
    Tag tag;
    std::vector<PortNo> inPorts;  //!< sorted
    std::vector<PortNo> outPorts; //!< sorted
    Tag newTag;
};

/**
 * Compress one node's plain rules into TCAM entries, matched first to last, no
 * match meaning lossy.  Rules are grouped by (tag, new tag); within a group the
 * in ports are aggregated per out port, then out ports with identical in-port
 * sets share one entry.  The entries are disjoint, so their order does not
 * matter; the result is exactly equivalent to the plain rules.
 */
std::vector<TcamEntry> CompressTcam(const TagRules& rules, NodeId node);

/// TCAM entries per node id (empty for nodes without rules).
using TcamTable = std::vector<std::vector<TcamEntry>>;

/// CompressTcam for every node of the rules' topology, indexed by node id.
TcamTable CompressTcamTable(const TagRules& rules);

/// Evaluate a TCAM list for (tag, in, out): the first matching entry's new tag,
/// kLossyTag when none matches.
Tag LookupTcam(const std::vector<TcamEntry>& entries, Tag tag, PortNo in, PortNo out);

} // namespace tagger
} // namespace ns3

#endif /* TAGGER_RULE_TABLE_H */
