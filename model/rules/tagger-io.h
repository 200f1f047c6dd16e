/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 */

#ifndef TAGGER_IO_H
#define TAGGER_IO_H

#include "tagger-elp.h"
#include "tagger-rule-table.h"
#include "tagger-topology.h"

#include <cstdint>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

namespace ns3
{
namespace tagger
{

/// Most ports a node read from a topology file may have.
constexpr uint32_t kMaxFilePorts = uint32_t(1) << 20;
/// Most nodes a topology file may describe (hosts added to a GraphML file included).
constexpr uint64_t kMaxFileNodes = uint64_t(1) << 24;
/// Most ports in total a topology file may describe.
constexpr uint64_t kMaxFileTotalPorts = uint64_t(1) << 28;
/**
 * Largest GraphML file read, in bytes (256 MiB): the file is held and parsed
 * in memory, whole, so its size bounds the memory the reader takes (the
 * parsed tree takes several times the file).  Checked while reading, before
 * parsing.
 */
constexpr uint64_t kMaxGraphmlBytes = uint64_t(1) << 28;
/**
 * Deepest element nesting a GraphML file may have (the <graphml> root is
 * level 1).  Boost's XML parser recurses once per level, so a deeper file
 * could overflow the stack: a scan of the bytes counts the nesting before
 * the parser runs.  Real GraphML needs about 5 levels, plus 2 per nested graph.
 */
constexpr uint32_t kMaxXmlDepth = 256;
/**
 * Deepest nesting of JSON objects and arrays in a topology or rules file
 * (the top-level object is level 1; a tagger-rules file needs 4).  Checked
 * while parsing, so that no deep value is built (copying, printing and, in
 * older nlohmann::json releases, parsing recurse once per level).  JSON
 * files have no size limit: the readers keep only the small members and
 * stream "rules", so memory grows with the topology, not the file.
 */
constexpr uint32_t kMaxJsonDepth = 256;
/**
 * Longest line of a line-based input (an ELP path file), in bytes (1 MiB,
 * a path of about 100,000 hops): a longer line is refused when it is read,
 * so that a file without line breaks cannot fill the memory.
 */
constexpr uint64_t kMaxLineBytes = uint64_t(1) << 20;

/**
 * Read one line, like std::getline, but never more than maxBytes of it.
 * \param in the stream
 * \param line set to the line, without its '\n'
 * \param maxBytes the longest line accepted
 * \param tooLong set to true when the line is longer than maxBytes (line
 *        then holds its first maxBytes bytes and the rest is unread); false otherwise
 * \return false at the end of the input (no line read), true otherwise
 */
bool GetLineBounded(std::istream& in, std::string& line, uint64_t maxBytes, bool& tooLong);
// A read error of the file (such as EIO) sets in's badbit and returns false:
// a caller that stops at false checks in.bad() and reports ReadErrorText.

/**
 * The message for a file that cannot be read, with the system's reason when
 * errno holds one: "cannot read <what> '<filename>': <reason>".
 * \param what what the file is (e.g. "HPCC flow file") \param filename its path
 * \return the message
 */
std::string ReadErrorText(const std::string& what, const std::string& filename);

/**
 * Whether two paths name one file: the same device and inode when both
 * exist (through symbolic and hard links; regular files and folders only,
 * so that /dev/null or a FIFO may be named twice), the same resolved path
 * when neither exists yet.  The programs refuse an output that is the same
 * file as an input, or as another output.
 * \param a a path \param b another \return true when writing one would change the other
 */
bool SameFile(const std::string& a, const std::string& b);

/**
 * Read a topology from JSON text:
 * {"nodes": [{"name": "T1", "kind": "switch", "ports": 4, "layer": 1}, ...],
 *  "links": [{"a": "T1", "a_port": 0, "b": "H1", "b_port": 0}, ...]}
 * "layer" and "relay" (bool, hosts only) are optional; other keys (rules, tcam,
 * elp, stats of a tagger-rules output) are ignored.  Throws TaggerError naming
 * the source and the field at fault, and for JSON nested deeper than
 * kMaxJsonDepth.
 */
Topology ReadTopologyJson(std::istream& in, const std::string& source);

/// Write the topology part ("nodes" and "links") as JSON.
void WriteTopologyJson(const Topology& topo, std::ostream& out);

/**
 * Read a GraphML file (e.g. a Topology Zoo file) as switches and links; node
 * names from the "label" attribute when present and unique, else the node id.
 * Each switch gets one port per incident edge plus hostsPerSwitch host ports,
 * and hostsPerSwitch hosts named H1.. are attached.  Self-loops are skipped.
 * Throws TaggerError on a malformed file, one larger than kMaxGraphmlBytes or
 * nested deeper than kMaxXmlDepth (the limit named in the message).
 *
 * Details: switches keep the file's node order (ids 0..), hosts follow; switch
 * i has its hosts H(i*h+1)..H(i*h+h) on ports 0..h-1 (h = hostsPerSwitch), then
 * one port per edge in file order.  Parallel edges become parallel links;
 * edge direction is ignored.  In names, white space, control characters, '#'
 * and bytes that are not well-formed UTF-8 (e.g. of a Latin-1 label) become
 * '_'; a name that would clash with a host name or an earlier switch falls
 * back to the node id, then to id_2, id_3, ...  Node labels come
 * from <key attr.name="label" for="node"> (any case).  Parsed with
 * Boost.PropertyTree's XML reader (the one Boost.Graph's read_graphml uses),
 * so that GraphML node ids are available for naming.
 */
Topology ReadGraphml(std::istream& in, const std::string& source, uint32_t hostsPerSwitch);

/**
 * Read a topology file: GraphML when its name ends in .graphml or .xml (any
 * case) or its first non-blank character (after a UTF-8 byte order mark) is
 * '<', JSON otherwise.  Throws TaggerError (unreadable, malformed).
 * \param filename the file
 * \param hostsPerSwitch GraphML: hosts attached to every switch (ignored for JSON)
 * \param graphml when not null, set to true when the file was read as GraphML
 * \return the topology
 */
Topology ReadTopologyFile(const std::string& filename,
                          uint32_t hostsPerSwitch,
                          bool* graphml = nullptr);

/// Everything tagger-rules writes besides the topology.
struct RulesOutput
{
    uint32_t losslessTags{0};
    const TagRules* rules{nullptr};
    const std::vector<Path>* elp{nullptr}; //!< written as "elp" when non-null
    /// written as "elp_next_hops" when non-null (destination-rooted families)
    const std::vector<ElpNextHops>* elpNextHops{nullptr};
    /// The TCAM entries per node id (CompressTcamTable of rules); null: each
    /// node's entries are compressed while writing (CompressTcam, without the
    /// table's thorough pass: the fullest nodes may get more entries).
    const TcamTable* tcam{nullptr};
    std::map<std::string, double> stats; //!< written in "stats"
    /// written in "stats" too, after the numbers, as strings
    std::map<std::string, std::string> textStats;
};

/**
 * Write the full tagger-rules JSON: nodes, links, lossless_tags, rules (per
 * forwarding node with at least one rule), tcam (those nodes' entries: from
 * out.tcam, else CompressTcam), elp, elp_next_hops, stats.  Throws TaggerError when the rules
 * or the TCAM table belong to another topology, or an ELP path names a node
 * that does not exist.
 */
void WriteRulesJson(const Topology& topo, const RulesOutput& out, std::ostream& os);

/**
 * Read the ELP of a tagger-rules JSON file written with --emit-elp:
 * "elp_next_hops" (destination-rooted next hops, ElpNextHops; built with
 * MakeNextHopElp) and/or "elp" (explicit paths, arrays of node names).  Other
 * members are skipped unparsed.  Throws TaggerError naming the file and the
 * member for an unknown node, a bad path or next hop, or a file with neither.
 */
Elp ReadElpJson(const Topology& topo, std::istream& in, const std::string& source);

/**
 * Read the rules part of a tagger-rules JSON file back into TagRules for the
 * given topology (node names must match).  Returns the lossless tag count in
 * losslessTags.  Throws TaggerError naming what is wrong.
 *
 * "rules" is streamed (no DOM; tcam, elp and stats are skipped unparsed
 * into objects).  When the file has "nodes", each must exist in the topology
 * with the same port count; when it has "links", each must be a link of the
 * topology between the same ports (so rules computed for another wiring with
 * the same names are refused).  A rule with new_tag 0 is accepted and means
 * no rule.  lossless_tags must be at least TagRules::GetLosslessTags() of the
 * rules read.  JSON nested deeper than kMaxJsonDepth is refused.
 * The rules are not verified (VerifyDeadlockFree does that).
 */
TagRules ReadRulesJson(const Topology& topo,
                       std::istream& in,
                       const std::string& source,
                       uint32_t& losslessTags);

} // namespace tagger
} // namespace ns3

#endif /* TAGGER_IO_H */
