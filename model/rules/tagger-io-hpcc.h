/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 */

#ifndef TAGGER_IO_HPCC_H
#define TAGGER_IO_HPCC_H

#include "tagger-topology.h"

#include <array>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{
namespace tagger
{

/**
 * Largest time (a link delay or a flow start) read from an HPCC-family file,
 * in seconds: an ns-3 Time of nanosecond resolution holds about 9.2e9 s.
 */
constexpr double kMaxHpccSeconds = 1e9;
/**
 * Largest data rate of a topology file, in bits/s (2^53, about 9e15): every
 * rate up to it reads back exactly from the text FormatHpccRate writes.
 */
constexpr uint64_t kMaxHpccRateBps = uint64_t(1) << 53;
/// Highest flow priority (priority group) of a flow file: PFC has eight priorities.
constexpr uint32_t kMaxHpccPriority = 7;
/// Largest flow size of a flow file, in bytes (2^53, as the module's own flow files).
constexpr uint64_t kMaxHpccFlowBytes = uint64_t(1) << 53;
/**
 * Most flows a flow file may announce: 2^22 (4,194,304).  Each flow takes
 * about 1.2 KB once the network is built (RdmaNic queue pair and record), so
 * 2^22 flows take about 5 GB and two minutes of set-up (measured in the
 * manual, "Limits"); 2^24 would take 20 GB.
 */
constexpr uint64_t kMaxHpccFlows = uint64_t(1) << 22;

/// The physical properties of one link of an HPCC-family topology file.
struct HpccLink
{
    uint64_t rateBps{0};    //!< data rate, bits/s (1..kMaxHpccRateBps)
    double delaySeconds{0}; //!< propagation delay, seconds (0..kMaxHpccSeconds)
    double errorRate{0};    //!< probability that a packet is lost on the link (0..1)
};

/**
 * The first line of an HPCC-family topology file: the node count N, the
 * switch count S, the link count L and, in ns3-datacenter's files, a ToR count
 * T and two capacities.
 */
enum class HpccHeader
{
    NSL,    //!< "N S L": HPCC, ConWeave
    NSTL,   //!< "N S T L": ns3-datacenter (its reader takes nodes, switches, ToRs, links)
    NSTLCC, //!< "N S T L C1 C2": ns3-datacenter's Reverie (two capacities, bits/s)
    NSLT,   //!< "N S L T": this module's files before it read ns3-datacenter's
};

/// \param header a layout \return its fields, e.g. "N S T L"
std::string GetHpccHeaderName(HpccHeader header);

/// How to read an HPCC-family file.
struct HpccReadOptions
{
    /**
     * Refuse lines after the records the first line announces.  The family's
     * simulators read the announced number of links (or flows) and ignore
     * the rest, and their users' files often carry more (HPCC's own sample
     * topology announces 65 links and has 262 link lines); by default such
     * lines are ignored and reported in one warning.
     */
    bool strict{false};
};

/**
 * An HPCC-family topology file read: file node i is topo node i, named
 * "S<i>" for a switch and "H<i>" for a host (layer -1, no relay); the ports of
 * a node are numbered 0, 1, ... in the order its links appear in the file.
 */
struct HpccTopology
{
    Topology topo;                        //!< hosts and switches
    std::vector<HpccLink> links;          //!< per link, in topo.GetLinks() order (= file order)
    std::optional<uint32_t> torCount;     //!< T, in the layouts that have it
    HpccHeader header{HpccHeader::NSL};   //!< the layout of the first line (written back so)
    std::array<uint64_t, 2> capacities{}; //!< C1 and C2 of HpccHeader::NSTLCC (bits/s)
    /// "source:line: ... ignored" when lines after the announced links were ignored, else ""
    std::string warning;
};

/// One flow of an HPCC-family flow file.
struct HpccFlow
{
    NodeId src{kNone};      //!< sending host (file node id = topology node id)
    NodeId dst{kNone};      //!< receiving host
    uint32_t priority{0};   //!< priority group, 0..kMaxHpccPriority
    uint32_t dport{0};      //!< destination port, 0..65535
    uint64_t sizeBytes{0};  //!< bytes to send, 1..kMaxHpccFlowBytes
    double startSeconds{0}; //!< start time, seconds (0..kMaxHpccSeconds)
};

/**
 * Parse a data rate as ns-3 writes it: a decimal number (digits and at most
 * one '.', no sign, no exponent) followed by bps, Kbps (or kbps), Mbps or
 * Gbps; a number alone is bits/s.  The result is rounded to whole bits/s
 * and must be in [1, kMaxHpccRateBps].
 * \param text the rate, e.g. "100Gbps"
 * \param bitsPerSecond set to the rate on success
 * \return "" on success, else why the text is refused (to be prefixed with the place)
 */
std::string ParseHpccRate(const std::string& text, uint64_t& bitsPerSecond);

/**
 * Parse a duration as ns-3 writes a Time: a decimal number (an exponent is
 * allowed, no sign) followed by s, ms, us or ns; a number alone is seconds.
 * \param text the duration, e.g. "0.001ms"
 * \param seconds set to the duration on success (0..kMaxHpccSeconds)
 * \return "" on success, else why the text is refused
 */
std::string ParseHpccTime(const std::string& text, double& seconds);

/// The shortest text of ParseHpccRate's form for a rate (e.g. "40Gbps").
std::string FormatHpccRate(uint64_t bitsPerSecond);

/// The shortest text of ParseHpccTime's form that ParseHpccTime reads back as exactly seconds.
std::string FormatHpccTime(double seconds);

/**
 * Read an HPCC-family topology file (HPCC, ConWeave, ns3-datacenter): the
 * first line (HpccHeader: "N S L", "N S T L" or "N S T L C1 C2"), a line of
 * the S switch ids (absent when S is 0), then L lines "src dst rate delay
 * error_rate".  T, a count of ToR switches, is at most S.  Four numbers are
 * read as ns3-datacenter's "N S T L", or as this module's older "N S L T"
 * when only that reading fits (T at most S); when both fit, the link lines
 * that follow decide (the reading whose L is their number, else the one
 * they can fill), and when they cannot the file is refused naming both
 * readings.  Lines after the L links are ignored and reported in
 * HpccTopology::warning, as the family's simulators ignore them, or refused
 * with HpccReadOptions::strict.  Blank lines are skipped; a link line with a
 * field more or less is refused.  Parallel links are kept.  Every node must
 * have a link (so that a short file cannot ask for millions of nodes).
 * Throws TaggerError "source:line: what is wrong" (one message, the first
 * fault): missing or extra fields, a number that is not one or is out of
 * range, a node id >= N, a switch count or link count that does not match,
 * a repeated switch id, a self link, a node without a link (placed on the
 * first line), a line over kMaxLineBytes.
 */
HpccTopology ReadHpccTopology(std::istream& in,
                              const std::string& source,
                              const HpccReadOptions& options = {});

/// ReadHpccTopology of a file; throws TaggerError when it cannot be opened.
HpccTopology ReadHpccTopologyFile(const std::string& filename, const HpccReadOptions& options = {});

/**
 * Write a topology in the format ReadHpccTopology reads, node ids as ids
 * (names, layers and relay flags are not written): "N S L", or
 * ns3-datacenter's "N S T L" with a ToR count.  Links are written in an
 * order where every node's ports come in increasing order (the topology's
 * link order when it has that property), so that reading the output gives
 * the same nodes, ports and links; links[i] belongs to topo.GetLinks()[i]
 * and is written with its link.  Throws TaggerError when links has the wrong
 * size or a bad value, a port is not connected, or no such order exists
 * (e.g. two parallel links on ports 0, 1 of one end and 1, 0 of the other).
 */
void WriteHpccTopology(const Topology& topo,
                       const std::vector<HpccLink>& links,
                       std::ostream& out,
                       std::optional<uint32_t> torCount = std::nullopt);

/**
 * Write a topology read by ReadHpccTopology back in the layout it was read
 * in (HpccTopology::header: the ToR count and capacities as read), so that a
 * user's tools read the output as they read the input.  Throws TaggerError as
 * the other WriteHpccTopology.
 * \param read what ReadHpccTopology returned (or built alike) \param out where
 */
void WriteHpccTopology(const HpccTopology& read, std::ostream& out);

/**
 * Read an HPCC-family flow file: the flow count F, then F lines "src dst
 * priority dport size start_time" (size in bytes, start_time in seconds, a
 * plain decimal number).  Flows keep the file order (it need not be sorted
 * by start time).  src and dst must be distinct hosts of topo; F is at
 * most kMaxHpccFlows.  Lines after the F flows are ignored and reported in
 * \p warning, or refused with HpccReadOptions::strict (as ReadHpccTopology).
 * Throws TaggerError "source:line: what is wrong", like ReadHpccTopology.
 * \param in the file \param source its name in messages \param topo the topology
 * \param options how strictly \param warning if given, set to the warning or ""
 * \return the flows
 */
std::vector<HpccFlow> ReadHpccFlows(std::istream& in,
                                    const std::string& source,
                                    const Topology& topo,
                                    const HpccReadOptions& options = {},
                                    std::string* warning = nullptr);

/// ReadHpccFlows of a file; throws TaggerError when it cannot be opened.
std::vector<HpccFlow> ReadHpccFlowFile(const std::string& filename,
                                       const Topology& topo,
                                       const HpccReadOptions& options = {},
                                       std::string* warning = nullptr);

/// Write flows in the format ReadHpccFlows reads; throws TaggerError for a value out of range.
void WriteHpccFlows(const std::vector<HpccFlow>& flows, std::ostream& out);

/**
 * A host pair's path as the HPCC family's simulators measure it for windows
 * and standalone FCTs: the path a breadth-first search from the source finds
 * first (links taken in file order; hosts do not forward).
 */
struct HpccPairPath
{
    bool reached{false};       //!< the search reached the node
    uint64_t delayNs{0};       //!< sum of the link delays, ns (each rounded)
    uint64_t txNs{0};          //!< sum of one payload's serialisation per link, ns (truncated)
    uint64_t bottleneckBps{0}; //!< the slowest link's rate, bits/s

    /// \return the base RTT they use: 2 delayNs + txNs (ns)
    uint64_t GetRttNs() const
    {
        return 2 * delayNs + txNs;
    }
};

/**
 * \param topology a topology read \param src a node id (a host)
 * \param payloadBytes the payload of a packet (PACKET_PAYLOAD_SIZE)
 * \return per node id, the path from \p src (reached false where none is)
 */
std::vector<HpccPairPath> HpccPathsFrom(const HpccTopology& topology,
                                        NodeId src,
                                        uint64_t payloadBytes);

/**
 * The "standalone FCT" column of the family's fct.txt: the base RTT plus
 * the message with \p headerBytes per packet at the bottleneck rate,
 * rtt + (bytes + packets headerBytes) 8e9 / bottleneck, in whole ns.
 * \param path the pair's path (reached) \param bytes the message
 * \param payloadBytes payload per packet \param headerBytes header bytes per packet
 * \return nanoseconds
 */
uint64_t HpccStandaloneFctNs(const HpccPairPath& path,
                             uint64_t bytes,
                             uint64_t payloadBytes,
                             uint64_t headerBytes);

} // namespace tagger
} // namespace ns3

#endif /* TAGGER_IO_HPCC_H */
