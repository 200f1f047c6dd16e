/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 *
 * Topology and flow files of the HPCC family of ns-3 simulators (HPCC,
 * ConWeave, ns3-datacenter): ReadHpccTopology, WriteHpccTopology,
 * ReadHpccFlows, WriteHpccFlows, and the rate and time parsers they use.
 */

#include "tagger-io-hpcc.h"

#include "tagger-io.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <fstream>
#include <functional>
#include <iomanip>
#include <istream>
#include <iterator>
#include <limits>
#include <locale>
#include <ostream>
#include <queue>
#include <sstream>

namespace ns3
{
namespace tagger
{

namespace
{

/// A unit suffix and its value in the base unit (bits/s or seconds).
struct Unit
{
    const char* suffix;
    double scale;
};

/// Rate units, longest suffix first where one ends another.
const Unit kRateUnits[] = {{"Gbps", 1e9}, {"Mbps", 1e6}, {"Kbps", 1e3}, {"kbps", 1e3}, {"bps", 1}};
/// Time units, "s" last since it ends the others.
const Unit kTimeUnits[] = {{"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}, {"s", 1}};

/**
 * Parse a whole unsigned decimal number made of the characters in allowed
 * (in the classic locale, whatever the global one).
 * \return false when text is empty, has another character, or is not a finite number
 */
bool
ParseReal(const std::string& text, const char* allowed, double& value)
{
    if (text.empty() || text.find_first_not_of(allowed) != std::string::npos)
    {
        return false;
    }
    std::istringstream is(text);
    is.imbue(std::locale::classic());
    is >> value;
    return !is.fail() && is.peek() == std::char_traits<char>::eof() && std::isfinite(value);
}

/// Split text into number and unit (one of units, or none: scale 1) and parse the number.
bool
ParseWithUnit(const std::string& text,
              const Unit* units,
              size_t nUnits,
              const char* allowed,
              double& value)
{
    double scale = 1;
    std::string number = text;
    for (size_t i = 0; i < nUnits; ++i)
    {
        std::string suffix = units[i].suffix;
        if (text.size() > suffix.size() &&
            text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0)
        {
            number = text.substr(0, text.size() - suffix.size());
            scale = units[i].scale;
            break;
        }
    }
    if (!ParseReal(number, allowed, value))
    {
        return false;
    }
    value *= scale;
    return true;
}

/// The shortest "%g" text of value that reads back (with ParseReal) as exactly value.
std::string
ShortestReal(double value)
{
    std::string text;
    for (int precision = 1; precision <= 17; ++precision)
    {
        // "%.*g" is what an ostream with that precision writes (its default
        // floatfield); snprintf takes a small part of the time (the C locale:
        // nothing in the module sets another).
        char buf[32];
        std::snprintf(buf, sizeof(buf), "%.*g", precision, value);
        text = buf;
        double back = 0;
        if (ParseReal(text, "0123456789.eE+-", back) && back == value)
        {
            break;
        }
    }
    return text;
}

/**
 * The lines of a file, blank ones skipped, split into fields; throws
 * TaggerError "source:line: ..." through Fail.
 */
class LineReader
{
  public:
    /// \param in the input \param source its name \param linesBefore lines of the file before \p in
    LineReader(std::istream& in, const std::string& source, uint64_t linesBefore = 0)
        : m_in(in),
          m_source(source),
          m_lineNo(linesBefore)
    {
    }

    /// \return the input's name in messages
    const std::string& GetSource() const
    {
        return m_source;
    }

    /// Read the next non-blank line into fields; false at the end of the input.
    bool Next(std::vector<std::string>& fields)
    {
        std::string line;
        bool tooLong = false;
        while (GetLineBounded(m_in, line, kMaxLineBytes, tooLong))
        {
            ++m_lineNo;
            if (tooLong)
            {
                Fail("line longer than the limit of " + std::to_string(kMaxLineBytes) +
                     " bytes (kMaxLineBytes)");
            }
            std::istringstream words(line);
            fields.clear();
            for (std::string word; words >> word;)
            {
                fields.push_back(word);
            }
            if (!fields.empty())
            {
                return true;
            }
        }
        if (m_in.bad())
        {
            throw TaggerError(m_source + ": read error after line " + std::to_string(m_lineNo));
        }
        return false;
    }

    /**
     * Read the next non-blank line, which must exist; what names it in the
     * error, placed on the line after the last one.
     */
    void Expect(std::vector<std::string>& fields, const std::string& what)
    {
        if (!Next(fields))
        {
            throw TaggerError(m_source + ":" + std::to_string(m_lineNo + 1) +
                              ": the file ends before " + what);
        }
    }

    /// \return the number of the last line read (1 for the first line of the input)
    uint64_t GetLineNo() const
    {
        return m_lineNo;
    }

    /// Throw "source:line: message".
    [[noreturn]] void Fail(const std::string& message) const
    {
        throw TaggerError(m_source + ":" + std::to_string(m_lineNo) + ": " + message);
    }

    /// Refuse a line whose field count is not n; names lists the fields expected.
    void CheckCount(const std::vector<std::string>& fields,
                    size_t n,
                    const std::string& names) const
    {
        if (fields.size() != n)
        {
            Fail(std::string(fields.size() < n ? "missing fields" : "extra fields") + ": " +
                 std::to_string(fields.size()) + " fields, expected " + std::to_string(n) + " (" +
                 names + ")");
        }
    }

    /// Parse field text as a whole number in [low, high]; what names it in the error.
    uint64_t Unsigned(const std::string& text,
                      const std::string& what,
                      uint64_t low,
                      uint64_t high) const
    {
        bool digits = !text.empty() && text.size() <= 19 &&
                      text.find_first_not_of("0123456789") == std::string::npos;
        uint64_t value = digits ? std::stoull(text) : 0;
        if (!digits || value < low || value > high)
        {
            std::string reason = text[0] == '-' ? "negative"
                                 : digits       ? "out of range"
                                                : "not a whole number";
            Fail(what + " '" + text + "' is " + reason + ": expected a whole number in [" +
                 std::to_string(low) + ", " + std::to_string(high) + "]");
        }
        return value;
    }

    /// Parse field text as a node id below nodes.
    NodeId Node(const std::string& text, const std::string& what, uint64_t nodes) const
    {
        if (nodes == 0)
        {
            Fail(what + " '" + text + "': the file has no node");
        }
        return static_cast<NodeId>(Unsigned(text, what, 0, nodes - 1));
    }

  private:
    std::istream& m_in;
    const std::string& m_source;
    uint64_t m_lineNo{0};
};

/// A link line of a topology file, before ports are numbered.
struct RawLink
{
    NodeId a;
    NodeId b;
    HpccLink params;
};

/// One way to read the first line of a topology file.
struct HeaderReading
{
    HpccHeader header; //!< the layout
    uint64_t links;    //!< L
    uint64_t tors;     //!< T (0 in HpccHeader::NSL)
};

/// Largest capacity C1, C2 of HpccHeader::NSTLCC (19 digits).
constexpr uint64_t kMaxHpccCapacity = 9999999999999999999ULL;

/**
 * Read the first line: N, S and the readings it allows (one, or two for
 * four numbers that fit both N S T L and N S L T); fills capacities.
 */
std::vector<HeaderReading>
ReadHpccCounts(LineReader& lines, HpccTopology& result, uint64_t& nNodes, uint64_t& nSwitches)
{
    std::vector<std::string> f;
    lines.Expect(f, "the first line (N S L: node, switch and link counts)");
    if (f.size() != 3 && f.size() != 4 && f.size() != 6)
    {
        lines.Fail("the first line must be 'N S L' (HPCC, ConWeave), 'N S T L' or 'N S T L C1 "
                   "C2' (ns3-datacenter: T ToR switches, C1 and C2 capacities); it has " +
                   std::to_string(f.size()) + " fields");
    }
    nNodes = lines.Unsigned(f[0], "node count", 1, kMaxFileNodes);
    nSwitches = lines.Unsigned(f[1], "switch count", 0, nNodes);
    const uint64_t maxLinks = kMaxFileTotalPorts / 2;
    if (f.size() == 3)
    {
        return {{HpccHeader::NSL, lines.Unsigned(f[2], "link count", 0, maxLinks), 0}};
    }
    if (f.size() == 6)
    {
        uint64_t tors = lines.Unsigned(f[2], "ToR count", 0, nSwitches);
        uint64_t links = lines.Unsigned(f[3], "link count", 0, maxLinks);
        result.capacities = {lines.Unsigned(f[4], "capacity C1", 0, kMaxHpccCapacity),
                             lines.Unsigned(f[5], "capacity C2", 0, kMaxHpccCapacity)};
        return {{HpccHeader::NSTLCC, links, tors}};
    }
    uint64_t third = lines.Unsigned(f[2], "third number", 0, maxLinks);
    uint64_t fourth = lines.Unsigned(f[3], "fourth number", 0, maxLinks);
    std::vector<HeaderReading> readings;
    if (third <= nSwitches)
    {
        readings.push_back({HpccHeader::NSTL, fourth, third});
    }
    if (fourth <= nSwitches && fourth != third)
    {
        readings.push_back({HpccHeader::NSLT, third, fourth});
    }
    if (readings.empty())
    {
        lines.Fail("the first line '" + f[0] + " " + f[1] + " " + f[2] + " " + f[3] +
                   "' reads neither as N S T L (ns3-datacenter: the ToR count " + f[2] +
                   " is above the switch count " + f[1] + ") nor as N S L T (the ToR count " +
                   f[3] + " is above it)");
    }
    return readings;
}

/// Read the line of switch ids (absent when nSwitches is 0). \return per node: a switch?
std::vector<bool>
ReadHpccSwitchIds(LineReader& lines, uint64_t nNodes, uint64_t nSwitches)
{
    std::vector<bool> isSwitch(nNodes, false);
    if (nSwitches == 0)
    {
        return isSwitch;
    }
    std::vector<std::string> f;
    lines.Expect(f, "the line of switch ids");
    if (f.size() != nSwitches)
    {
        lines.Fail("switch count mismatch: " + std::to_string(f.size()) +
                   " switch ids, the first line says " + std::to_string(nSwitches));
    }
    for (const auto& text : f)
    {
        NodeId id = lines.Node(text, "switch id", nNodes);
        if (isSwitch[id])
        {
            lines.Fail("duplicate switch id " + text);
        }
        isSwitch[id] = true;
    }
    return isSwitch;
}

/**
 * Of two readings of a four-number first line, the one the link lines in
 * \p rest decide: the reading whose L is the number of link-shaped lines (5
 * fields) with nothing after them, else the only one they can fill.
 * Throws TaggerError naming both readings when they cannot tell.
 */
HeaderReading
DecideReading(const std::vector<HeaderReading>& readings,
              const std::string& rest,
              const std::string& where)
{
    uint64_t linkShaped = 0;
    uint64_t lines = 0;
    bool leading = true;
    std::istringstream scan(rest);
    for (std::string line; std::getline(scan, line);)
    {
        std::istringstream words(line);
        size_t n = 0;
        for (std::string w; n < 6 && words >> w;)
        {
            ++n;
        }
        if (n == 0)
        {
            continue;
        }
        ++lines;
        leading = leading && n == 5;
        linkShaped += leading ? 1 : 0;
    }
    std::vector<const HeaderReading*> exact;
    std::vector<const HeaderReading*> fits;
    for (const HeaderReading& r : readings)
    {
        if (r.links == linkShaped && lines == linkShaped)
        {
            exact.push_back(&r);
        }
        if (r.links <= linkShaped)
        {
            fits.push_back(&r);
        }
    }
    if (exact.size() == 1)
    {
        return *exact[0];
    }
    if (fits.size() == 1)
    {
        return *fits[0];
    }
    const HeaderReading& a = readings[0];
    const HeaderReading& b = readings[1];
    throw TaggerError(
        where + ": the first line reads as N S T L (ns3-datacenter: " + std::to_string(a.tors) +
        " ToRs, " + std::to_string(a.links) + " links) and as N S L T (" + std::to_string(b.links) +
        " links, " + std::to_string(b.tors) + " ToRs), and the " + std::to_string(linkShaped) +
        " link lines that follow do not tell which");
}

/**
 * After the announced records: nothing, or lines that are ignored (the
 * warning returned) or, with strict, refused.
 * \param what "link" or "flow" \param announced the records read
 */
std::string
IgnoreRest(LineReader& lines, const std::string& what, uint64_t announced, bool strict)
{
    std::vector<std::string> f;
    if (!lines.Next(f))
    {
        return "";
    }
    const uint64_t first = lines.GetLineNo();
    if (strict)
    {
        lines.Fail(what + " count mismatch: more lines than the " + std::to_string(announced) +
                   " " + what +
                   "s the first line announces (strict; without it they are "
                   "ignored, as the HPCC family's simulators ignore them)");
    }
    uint64_t n = 1;
    while (lines.Next(f))
    {
        ++n;
    }
    return lines.GetSource() + ":" + std::to_string(first) + ": " + std::to_string(n) +
           (n == 1 ? " line" : " lines") + " after the " + std::to_string(announced) + " " + what +
           "s the first line announces ignored, as the HPCC family's simulators ignore them "
           "(strict reading refuses them)";
}

/// Read the nLinks link lines (what follows them: IgnoreRest).
std::vector<RawLink>
ReadHpccLinks(LineReader& lines, uint64_t nNodes, uint64_t nLinks)
{
    std::vector<RawLink> raw;
    std::vector<std::string> f;
    const std::string names = "src dst rate delay error_rate";
    while (raw.size() < nLinks)
    {
        lines.Expect(f,
                     "link " + std::to_string(raw.size() + 1) + " of the " +
                         std::to_string(nLinks) +
                         " the first line announces (link count mismatch)");
        lines.CheckCount(f, 5, names);
        RawLink link;
        link.a = lines.Node(f[0], "src", nNodes);
        link.b = lines.Node(f[1], "dst", nNodes);
        if (link.a == link.b)
        {
            lines.Fail("self link: node " + f[0] + " is linked to itself");
        }
        std::string err = ParseHpccRate(f[2], link.params.rateBps);
        if (err.empty())
        {
            err = ParseHpccTime(f[3], link.params.delaySeconds);
        }
        double& loss = link.params.errorRate;
        if (err.empty() && (!ParseReal(f[4], "0123456789.eE+-", loss) || loss < 0 || loss > 1))
        {
            err = "error rate '" + f[4] + "' is not a probability (a number in [0, 1])";
        }
        if (!err.empty())
        {
            lines.Fail(err);
        }
        raw.push_back(link);
    }
    return raw;
}

/// Check the values of one link to be written; i is its index.
void
CheckHpccLink(const HpccLink& link, size_t i)
{
    if (link.rateBps == 0 || link.rateBps > kMaxHpccRateBps ||
        !(link.delaySeconds >= 0 && link.delaySeconds <= kMaxHpccSeconds) ||
        !(link.errorRate >= 0 && link.errorRate <= 1))
    {
        throw TaggerError("HPCC topology output: link " + std::to_string(i) +
                          " has a rate of 0, a delay outside [0, kMaxHpccSeconds] or an error "
                          "rate outside [0, 1]");
    }
}

/**
 * The link index at every port of topo (by PortIndex); throws TaggerError for
 * an unconnected port, which the format cannot express.
 */
std::vector<size_t>
LinkAtPort(const Topology& topo)
{
    const auto& links = topo.GetLinks();
    std::vector<size_t> linkAt(topo.GetNPorts(), links.size());
    for (size_t i = 0; i < links.size(); ++i)
    {
        linkAt[topo.GetPortIndex(links[i].a.node, links[i].a.port)] = i;
        linkAt[topo.GetPortIndex(links[i].b.node, links[i].b.port)] = i;
    }
    for (PortIndex p = 0; p < topo.GetNPorts(); ++p)
    {
        if (linkAt[p] == links.size())
        {
            PortRef ref = topo.GetPortRef(p);
            throw TaggerError("HPCC topology output: port " + std::to_string(ref.port) +
                              " of node " + topo.GetNode(ref.node).name +
                              " is not connected (the format numbers ports by their links)");
        }
    }
    return linkAt;
}

/**
 * The links of topo in an order where the ports of every node come in
 * increasing order (Kahn's algorithm, lowest link index first).
 */
std::vector<size_t>
PortOrderedLinks(const Topology& topo)
{
    const auto& links = topo.GetLinks();
    const std::vector<size_t> linkAt = LinkAtPort(topo);
    // A link must wait for the link on the port below each of its two ends.
    std::vector<uint32_t> waits(links.size(), 0);
    for (const auto& l : links)
    {
        for (const PortRef& end : {l.a, l.b})
        {
            if (end.port + 1 < topo.GetNode(end.node).ports)
            {
                ++waits[linkAt[topo.GetPortIndex(end.node, end.port + 1)]];
            }
        }
    }
    std::priority_queue<size_t, std::vector<size_t>, std::greater<>> ready;
    for (size_t i = 0; i < links.size(); ++i)
    {
        if (waits[i] == 0)
        {
            ready.push(i);
        }
    }
    std::vector<size_t> order;
    while (!ready.empty())
    {
        size_t i = ready.top();
        ready.pop();
        order.push_back(i);
        for (const PortRef& end : {links[i].a, links[i].b})
        {
            if (end.port + 1 < topo.GetNode(end.node).ports &&
                --waits[linkAt[topo.GetPortIndex(end.node, end.port + 1)]] == 0)
            {
                ready.push(linkAt[topo.GetPortIndex(end.node, end.port + 1)]);
            }
        }
    }
    if (order.size() != links.size())
    {
        throw TaggerError("HPCC topology output: no link order numbers every node's ports as "
                          "the topology does (the format numbers ports by link order)");
    }
    return order;
}

/**
 * Write a topology with the first line in header's layout (its ToR count
 * and capacities); checks the links.
 */
void
WriteHpccTopologyAs(const Topology& topo,
                    const std::vector<HpccLink>& links,
                    const HpccTopology& header,
                    std::ostream& out)
{
    if (links.size() != topo.GetLinks().size())
    {
        throw TaggerError("HPCC topology output: " + std::to_string(links.size()) +
                          " link properties for " + std::to_string(topo.GetLinks().size()) +
                          " links");
    }
    for (size_t i = 0; i < links.size(); ++i)
    {
        CheckHpccLink(links[i], i);
    }
    std::vector<size_t> order = PortOrderedLinks(topo);
    std::vector<NodeId> switches = topo.GetSwitches();
    const uint64_t tors = header.torCount.value_or(0);
    if (tors > switches.size())
    {
        throw TaggerError("HPCC topology output: ToR count " + std::to_string(tors) +
                          " above the switch count " + std::to_string(switches.size()));
    }
    out << topo.GetNNodes() << ' ' << switches.size() << ' ';
    switch (header.header)
    {
    case HpccHeader::NSL:
        out << links.size();
        break;
    case HpccHeader::NSTL:
        out << tors << ' ' << links.size();
        break;
    case HpccHeader::NSTLCC:
        out << tors << ' ' << links.size() << ' ' << header.capacities[0] << ' '
            << header.capacities[1];
        break;
    case HpccHeader::NSLT:
        out << links.size() << ' ' << tors;
        break;
    }
    out << '\n';
    for (size_t i = 0; i < switches.size(); ++i)
    {
        out << (i == 0 ? "" : " ") << switches[i];
    }
    out << '\n';
    for (size_t i : order)
    {
        const TopoLink& l = topo.GetLinks()[i];
        out << l.a.node << ' ' << l.b.node << ' ' << FormatHpccRate(links[i].rateBps) << ' '
            << FormatHpccTime(links[i].delaySeconds) << ' ' << ShortestReal(links[i].errorRate)
            << '\n';
    }
}

/// Open filename for reading; throws TaggerError naming what (topology, flow) when it cannot.
std::ifstream
OpenInput(const std::string& filename, const std::string& what)
{
    std::ifstream in(filename);
    if (!in)
    {
        throw TaggerError("cannot open " + what + " file '" + filename + "'");
    }
    return in;
}

} // namespace

std::string
ParseHpccRate(const std::string& text, uint64_t& bitsPerSecond)
{
    double value = 0;
    if (!ParseWithUnit(text, kRateUnits, std::size(kRateUnits), "0123456789.", value))
    {
        return "rate '" + text + "' is not a number followed by bps, Kbps, Mbps or Gbps";
    }
    double rounded = std::round(value);
    if (rounded < 1 || rounded > static_cast<double>(kMaxHpccRateBps))
    {
        return "rate '" + text + "' is out of range (1 bps to 2^53 bps, kMaxHpccRateBps)";
    }
    bitsPerSecond = static_cast<uint64_t>(rounded);
    return "";
}

std::string
ParseHpccTime(const std::string& text, double& seconds)
{
    double value = 0;
    if (!ParseWithUnit(text, kTimeUnits, std::size(kTimeUnits), "0123456789.eE+-", value) ||
        text[0] == '-' || text[0] == '+')
    {
        return "time '" + text + "' is not a number followed by s, ms, us or ns" +
               (text[0] == '-' ? " (negative)" : "");
    }
    if (value > kMaxHpccSeconds)
    {
        return "time '" + text + "' is out of range (0 to 1e9 s, kMaxHpccSeconds)";
    }
    seconds = value;
    return "";
}

std::string
FormatHpccRate(uint64_t bitsPerSecond)
{
    for (const Unit& unit : kRateUnits)
    {
        auto scale = static_cast<uint64_t>(unit.scale);
        if (bitsPerSecond % scale == 0)
        {
            return std::to_string(bitsPerSecond / scale) + unit.suffix;
        }
    }
    return std::to_string(bitsPerSecond) + "bps"; // not reached: scale 1 divides all
}

std::string
FormatHpccTime(double seconds)
{
    std::string best;
    for (const Unit& unit : kTimeUnits)
    {
        std::string text = ShortestReal(seconds / unit.scale) + unit.suffix;
        double back = -1;
        if (ParseHpccTime(text, back).empty() && back == seconds &&
            (best.empty() || text.size() < best.size()))
        {
            best = text;
        }
    }
    return best.empty() ? ShortestReal(seconds) + "s" : best;
}

std::string
GetHpccHeaderName(HpccHeader header)
{
    switch (header)
    {
    case HpccHeader::NSL:
        return "N S L";
    case HpccHeader::NSTL:
        return "N S T L";
    case HpccHeader::NSTLCC:
        return "N S T L C1 C2";
    case HpccHeader::NSLT:
        return "N S L T";
    }
    return "?";
}

HpccTopology
ReadHpccTopology(std::istream& in, const std::string& source, const HpccReadOptions& options)
{
    LineReader lines(in, source);
    HpccTopology result;
    uint64_t nNodes = 0;
    uint64_t nSwitches = 0;
    std::vector<HeaderReading> readings = ReadHpccCounts(lines, result, nNodes, nSwitches);
    const uint64_t countsLine = lines.GetLineNo();
    std::vector<bool> isSwitch = ReadHpccSwitchIds(lines, nNodes, nSwitches);
    HeaderReading chosen = readings[0];
    // Two readings: the rest of the file decides, then is read from memory.
    std::istringstream restIn;
    LineReader restLines(restIn, source, lines.GetLineNo());
    LineReader* linkLines = &lines;
    if (readings.size() == 2)
    {
        std::string rest{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
        chosen = DecideReading(readings, rest, source + ":" + std::to_string(countsLine));
        restIn.str(std::move(rest));
        linkLines = &restLines;
    }
    result.header = chosen.header;
    if (chosen.header != HpccHeader::NSL)
    {
        result.torCount = static_cast<uint32_t>(chosen.tors);
    }
    std::vector<RawLink> raw = ReadHpccLinks(*linkLines, nNodes, chosen.links);
    result.warning = IgnoreRest(*linkLines, "link", chosen.links, options.strict);
    std::vector<uint32_t> ports(isSwitch.size(), 0);
    for (const auto& l : raw)
    {
        ++ports[l.a];
        ++ports[l.b];
    }
    for (size_t n = 0; n < isSwitch.size(); ++n)
    {
        if (ports[n] == 0)
        {
            // Refused so that a short file cannot ask for millions of nodes.
            throw TaggerError(source + ":" + std::to_string(countsLine) + ": node " +
                              std::to_string(n) + " has no link: the node count " +
                              std::to_string(isSwitch.size()) +
                              " counts nodes that no link line names");
        }
        if (ports[n] > kMaxFilePorts)
        {
            throw TaggerError(source + ": node " + std::to_string(n) + " has " +
                              std::to_string(ports[n]) + " links, over the limit of " +
                              std::to_string(kMaxFilePorts) + " ports (kMaxFilePorts)");
        }
        result.topo.AddNode((isSwitch[n] ? "S" : "H") + std::to_string(n),
                            isSwitch[n] ? NodeKind::SWITCH : NodeKind::HOST,
                            ports[n]);
    }
    std::vector<uint32_t> nextPort(isSwitch.size(), 0);
    result.links.reserve(raw.size());
    for (const auto& l : raw)
    {
        result.topo.AddLink(l.a, nextPort[l.a]++, l.b, nextPort[l.b]++);
        result.links.push_back(l.params);
    }
    return result;
}

HpccTopology
ReadHpccTopologyFile(const std::string& filename, const HpccReadOptions& options)
{
    std::ifstream in = OpenInput(filename, "HPCC topology");
    return ReadHpccTopology(in, filename, options);
}

void
WriteHpccTopology(const Topology& topo,
                  const std::vector<HpccLink>& links,
                  std::ostream& out,
                  std::optional<uint32_t> torCount)
{
    HpccTopology header;
    header.header = torCount ? HpccHeader::NSTL : HpccHeader::NSL;
    header.torCount = torCount;
    WriteHpccTopologyAs(topo, links, header, out);
}

void
WriteHpccTopology(const HpccTopology& read, std::ostream& out)
{
    WriteHpccTopologyAs(read.topo, read.links, read, out);
}

std::vector<HpccFlow>
ReadHpccFlows(std::istream& in,
              const std::string& source,
              const Topology& topo,
              const HpccReadOptions& options,
              std::string* warning)
{
    LineReader lines(in, source);
    std::vector<std::string> f;
    lines.Expect(f, "the first line (F: the flow count)");
    lines.CheckCount(f, 1, "the flow count");
    uint64_t count = lines.Unsigned(f[0], "flow count", 0, kMaxHpccFlows);
    std::vector<HpccFlow> flows;
    while (flows.size() < count)
    {
        lines.Expect(f,
                     "flow " + std::to_string(flows.size() + 1) + " of the " +
                         std::to_string(count) + " the first line announces (flow count mismatch)");
        lines.CheckCount(f, 6, "src dst priority dport size start_time");
        HpccFlow flow;
        flow.src = lines.Node(f[0], "src", topo.GetNNodes());
        flow.dst = lines.Node(f[1], "dst", topo.GetNNodes());
        for (NodeId n : {flow.src, flow.dst})
        {
            if (!topo.IsHost(n))
            {
                lines.Fail("node " + std::to_string(n) + " is a switch: flows run between hosts");
            }
        }
        if (flow.src == flow.dst)
        {
            lines.Fail("src and dst are the same host " + f[0]);
        }
        flow.priority =
            static_cast<uint32_t>(lines.Unsigned(f[2], "priority", 0, kMaxHpccPriority));
        flow.dport = static_cast<uint32_t>(lines.Unsigned(f[3], "dport", 0, 65535));
        flow.sizeBytes = lines.Unsigned(f[4], "size", 1, kMaxHpccFlowBytes);
        double& start = flow.startSeconds;
        if (!ParseReal(f[5], "0123456789.eE+-", start) || start < 0 || start > kMaxHpccSeconds)
        {
            lines.Fail("start_time '" + f[5] + "' is not a number of seconds in [0, 1e9]" +
                       (f[5][0] == '-' ? " (negative)" : ""));
        }
        flows.push_back(flow);
    }
    std::string ignored = IgnoreRest(lines, "flow", count, options.strict);
    if (warning)
    {
        *warning = ignored;
    }
    return flows;
}

std::vector<HpccFlow>
ReadHpccFlowFile(const std::string& filename,
                 const Topology& topo,
                 const HpccReadOptions& options,
                 std::string* warning)
{
    std::ifstream in = OpenInput(filename, "HPCC flow");
    return ReadHpccFlows(in, filename, topo, options, warning);
}

void
WriteHpccFlows(const std::vector<HpccFlow>& flows, std::ostream& out)
{
    out << flows.size() << '\n';
    for (size_t i = 0; i < flows.size(); ++i)
    {
        const HpccFlow& f = flows[i];
        if (f.priority > kMaxHpccPriority || f.dport > 65535 || f.sizeBytes == 0 ||
            f.sizeBytes > kMaxHpccFlowBytes ||
            !(f.startSeconds >= 0 && f.startSeconds <= kMaxHpccSeconds))
        {
            throw TaggerError("HPCC flow output: flow " + std::to_string(i) +
                              " has a priority, dport, size or start time out of range");
        }
        out << f.src << ' ' << f.dst << ' ' << f.priority << ' ' << f.dport << ' ' << f.sizeBytes
            << ' ' << ShortestReal(f.startSeconds) << '\n';
    }
}

std::vector<HpccPairPath>
HpccPathsFrom(const HpccTopology& topology, NodeId src, uint64_t payloadBytes)
{
    const Topology& topo = topology.topo;
    const std::vector<TopoLink>& links = topo.GetLinks();
    std::vector<std::vector<std::pair<NodeId, uint32_t>>> adj(topo.GetNNodes());
    for (uint32_t i = 0; i < links.size(); ++i)
    {
        adj[links[i].a.node].emplace_back(links[i].b.node, i);
        adj[links[i].b.node].emplace_back(links[i].a.node, i);
    }
    std::vector<HpccPairPath> path(topo.GetNNodes());
    path[src].reached = true;
    path[src].bottleneckBps = std::numeric_limits<uint64_t>::max();
    std::deque<NodeId> queue{src};
    while (!queue.empty())
    {
        NodeId now = queue.front();
        queue.pop_front();
        for (const auto& [next, link] : adj[now])
        {
            if (path[next].reached)
            {
                continue;
            }
            const HpccLink& l = topology.links[link];
            HpccPairPath& p = path[next];
            p.reached = true;
            p.delayNs = path[now].delayNs + uint64_t(std::llround(l.delaySeconds * 1e9));
            p.txNs = path[now].txNs + payloadBytes * 8000000000ULL / l.rateBps;
            p.bottleneckBps = std::min(path[now].bottleneckBps, l.rateBps);
            if (topo.GetNode(next).kind == NodeKind::SWITCH)
            {
                queue.push_back(next); // hosts do not forward
            }
        }
    }
    return path;
}

uint64_t
HpccStandaloneFctNs(const HpccPairPath& path,
                    uint64_t bytes,
                    uint64_t payloadBytes,
                    uint64_t headerBytes)
{
    uint64_t packets = bytes == 0 ? 0 : (bytes - 1) / payloadBytes + 1;
    long double wire = static_cast<long double>(bytes + packets * headerBytes);
    return path.GetRttNs() +
           static_cast<uint64_t>(wire * 8e9L / static_cast<long double>(path.bottleneckBps));
}

} // namespace tagger
} // namespace ns3
