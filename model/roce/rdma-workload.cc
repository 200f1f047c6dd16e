/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#include "rdma-workload.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/fatal-error.h"
#include "ns3/log.h"
#include "ns3/tagger-io.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <dlfcn.h>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace ns3
{

/// Largest flow size a CDF file may name: 2^53 bytes, the largest whole
/// number a double holds exactly (sizes are drawn as doubles and converted).
constexpr double kMaxCdfBytes = 9007199254740992.0;

NS_LOG_COMPONENT_DEFINE("RdmaWorkload");

namespace
{

/// Largest deviation of the last cumulative probability from 1 still read as 1.
constexpr double kLastProbabilityTolerance = 1e-9;

/**
 * Split a line at blanks, dropping a '#' comment.
 * \param line the line \return its fields
 */
std::vector<std::string>
Fields(const std::string& line)
{
    std::string text = line.substr(0, line.find('#'));
    std::istringstream is(text);
    std::vector<std::string> fields;
    std::string f;
    while (is >> f)
    {
        fields.push_back(f);
    }
    return fields;
}

/**
 * Read a whole token as a finite real number.
 * \param s the token \param value the number read \return true when \p s is one
 */
bool
ToDouble(const std::string& s, double* value)
{
    const char* first = s.data();
    const char* last = s.data() + s.size();
    if (first != last && *first == '+')
    {
        ++first; // from_chars does not take a leading '+'
    }
    double v = 0;
    auto [ptr, ec] = std::from_chars(first, last, v);
    if (ec != std::errc() || ptr != last || first == last || !std::isfinite(v))
    {
        return false;
    }
    *value = v;
    return true;
}

/**
 * Read a whole token as an unsigned integer.
 * \param s the token \param value the number read \return true when \p s is one
 */
bool
ToUnsigned(const std::string& s, uint64_t* value)
{
    const char* first = s.data();
    const char* last = s.data() + s.size();
    if (first != last && *first == '+')
    {
        ++first;
    }
    uint64_t v = 0;
    auto [ptr, ec] = std::from_chars(first, last, v);
    if (ec != std::errc() || ptr != last || first == last)
    {
        return false;
    }
    *value = v;
    return true;
}

/**
 * Format "name:line: what".
 * \param name the input's name \param line the line (from 1) \param what the problem
 * \return the message
 */
std::string
Where(const std::string& name, uint32_t line, const std::string& what)
{
    std::ostringstream os;
    os << name << ":" << line << ": " << what;
    return tagger::PrintableText(os.str()); // a NUL or a byte order mark read shows
}

/**
 * Read the next line of a CDF or flow file and count it.
 * \param in the text \param name its name in errors \param lineNo the line count
 * \param line the line read \param err set when the line is longer than
 *        kMaxWorkloadLineBytes
 * \return false at the end of the text, on a line too long or on a read error
 *         (err set for the last two)
 */
bool
NextLine(std::istream& in,
         const std::string& name,
         uint32_t& lineNo,
         std::string& line,
         std::string& err)
{
    bool tooLong = false;
    if (!tagger::GetLineBounded(in, line, kMaxWorkloadLineBytes, tooLong))
    {
        if (in.bad())
        {
            err = name + ": read error after line " + std::to_string(lineNo);
        }
        return false;
    }
    ++lineNo;
    if (tooLong)
    {
        err = Where(name,
                    lineNo,
                    "line longer than the limit of " + std::to_string(kMaxWorkloadLineBytes) +
                        " bytes (kMaxWorkloadLineBytes)");
        return false;
    }
    return true;
}

/**
 * Lower-case copy of a string.
 * \param s the string \return it in lower case
 */
std::string
Lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) {
        return static_cast<char>(std::tolower(c));
    });
    return s;
}

/**
 * Trim blanks at both ends.
 * \param s the string \return it without leading and trailing white space
 */
std::string
Trim(const std::string& s)
{
    const char* blanks = " \t\r\n\v\f";
    auto b = s.find_first_not_of(blanks);
    if (b == std::string::npos)
    {
        return "";
    }
    auto e = s.find_last_not_of(blanks);
    return s.substr(b, e - b + 1);
}

/**
 * Recognise a "# unit: <value>" comment line.
 * \param line the line \param unit the value (lower case) when it is one
 * \return true when \p line is a unit line
 */
bool
UnitLine(const std::string& line, std::string* unit)
{
    std::string t = Trim(line);
    if (t.empty() || t[0] != '#')
    {
        return false;
    }
    t = Trim(t.substr(1));
    if (Lower(t.substr(0, 4)) != "unit")
    {
        return false;
    }
    t = Trim(t.substr(4));
    if (t.empty() || t[0] != ':')
    {
        return false; // e.g. "# units are bytes": an ordinary comment
    }
    *unit = Lower(Trim(t.substr(1)));
    return true;
}

/**
 * Pick an index in [0, n) from a uniform draw in [0, 1).
 * \param u the draw \param n the number of choices (> 0) \return the index
 */
uint32_t
Index(double u, size_t n)
{
    auto i = static_cast<size_t>(u * static_cast<double>(n));
    return static_cast<uint32_t>(std::min(i, n - 1));
}

} // namespace

// ---------------------------------------------------------------------------
// FlowSizeCdf

bool
FlowSizeCdf::Parse(std::istream& in, const std::string& name, std::string* error)
{
    NS_LOG_FUNCTION(this << name);
    std::string dummy;
    std::string& err = error != nullptr ? *error : dummy;
    err.clear();

    std::vector<std::pair<double, double>> points;
    double scale = 1; // probabilities are divided by it (100 for percent)
    uint32_t lineNo = 0;
    uint32_t lastPointLine = 0;
    std::string line;
    while (NextLine(in, name, lineNo, line, err))
    {
        std::string unit;
        if (UnitLine(line, &unit))
        {
            if (!points.empty())
            {
                err = Where(name, lineNo, "the unit line must come before the first point");
                return false;
            }
            if (unit == "percent" || unit == "%")
            {
                scale = 100;
            }
            else if (unit == "fraction")
            {
                scale = 1;
            }
            else
            {
                err = Where(name,
                            lineNo,
                            "unknown unit '" + unit + "' (expected 'percent' or 'fraction')");
                return false;
            }
            continue;
        }
        auto fields = Fields(line);
        if (fields.empty())
        {
            continue;
        }
        if (fields.size() != 2)
        {
            err = Where(name,
                        lineNo,
                        "expected 2 fields \"<bytes> <cumulative probability>\", found " +
                            std::to_string(fields.size()));
            return false;
        }
        double bytes = 0;
        double prob = 0;
        if (!ToDouble(fields[0], &bytes))
        {
            err = Where(name, lineNo, "size '" + fields[0] + "' is not a number");
            return false;
        }
        if (!ToDouble(fields[1], &prob))
        {
            err = Where(name, lineNo, "probability '" + fields[1] + "' is not a number");
            return false;
        }
        if (bytes > kMaxCdfBytes)
        {
            err = Where(name, lineNo, "size " + fields[0] + " is above 2^53 bytes");
            return false;
        }
        if (bytes < 0)
        {
            err = Where(name, lineNo, "size " + fields[0] + " is negative");
            return false;
        }
        if (prob < 0 || prob > scale)
        {
            err = Where(
                name,
                lineNo,
                "probability " + fields[1] +
                    (scale == 100 ? " is outside [0, 100] (unit: percent)" : " is outside [0, 1]"));
            return false;
        }
        prob /= scale;
        if (!points.empty() && bytes < points.back().first)
        {
            err = Where(name, lineNo, "size " + fields[0] + " is smaller than the previous one");
            return false;
        }
        if (!points.empty() && prob < points.back().second)
        {
            err = Where(name,
                        lineNo,
                        "probability " + fields[1] + " is smaller than the previous one");
            return false;
        }
        if (points.size() == kMaxCdfPoints)
        {
            err = Where(name,
                        lineNo,
                        "more than " + std::to_string(kMaxCdfPoints) +
                            " points (the limit, kMaxCdfPoints)");
            return false;
        }
        points.emplace_back(bytes, prob);
        lastPointLine = lineNo;
    }
    if (!err.empty())
    {
        return false;
    }

    if (points.empty())
    {
        err = Where(name, std::max<uint32_t>(lineNo, 1), "no points (empty distribution)");
        return false;
    }
    if (points.size() < 2)
    {
        err = Where(name, lastPointLine, "only 1 point; a distribution needs at least 2");
        return false;
    }
    if (std::abs(points.back().second - 1) > kLastProbabilityTolerance)
    {
        std::ostringstream os;
        os << "the last probability is " << points.back().second * scale << ", it must be "
           << (scale == 100 ? "100" : "1");
        err = Where(name, lastPointLine, os.str());
        return false;
    }
    points.back().second = 1;
    m_points = std::move(points);
    return true;
}

FlowSizeCdf
FlowSizeCdf::Load(const std::string& path)
{
    NS_LOG_FUNCTION(path);
    std::ifstream in(path);
    if (!in)
    {
        NS_FATAL_ERROR("cannot open " << path << " (flow-size distribution)");
    }
    FlowSizeCdf cdf;
    std::string error;
    if (!cdf.Parse(in, path, &error))
    {
        NS_FATAL_ERROR(error);
    }
    return cdf;
}

const std::vector<std::pair<double, double>>&
FlowSizeCdf::GetPoints() const
{
    return m_points;
}

double
FlowSizeCdf::GetMean() const
{
    NS_ABORT_MSG_IF(m_points.empty(), "FlowSizeCdf::GetMean: no distribution (Parse or Load it)");
    // A step of p0 at x0 (when the first probability is not 0), then a
    // uniform density on each segment: its mass times its midpoint.
    double mean = m_points.front().second * m_points.front().first;
    for (size_t i = 1; i < m_points.size(); ++i)
    {
        const auto& [x0, p0] = m_points[i - 1];
        const auto& [x1, p1] = m_points[i];
        mean += (p1 - p0) * (x0 + x1) / 2;
    }
    return mean;
}

uint64_t
FlowSizeCdf::Quantile(double u) const
{
    NS_ABORT_MSG_IF(m_points.empty(), "FlowSizeCdf::Quantile: no distribution (Parse or Load it)");
    NS_ABORT_MSG_UNLESS(u >= 0 && u <= 1,
                        "FlowSizeCdf::Quantile: probability " << u << " is not in [0, 1]");
    // The smallest x with CDF(x) >= u: the first point at or above u, and
    // linear back from it (its predecessor is below u, so the step is > 0).
    auto it =
        std::lower_bound(m_points.begin(),
                         m_points.end(),
                         u,
                         [](const std::pair<double, double>& p, double v) { return p.second < v; });
    double x;
    if (it == m_points.begin())
    {
        x = it->first;
    }
    else
    {
        const auto& [x1, p1] = *it;
        const auto& [x0, p0] = *(it - 1);
        x = x0 + (u - p0) / (p1 - p0) * (x1 - x0);
    }
    // Whole bytes: ceil keeps P(size <= k) = CDF(k) at every integer k.  A
    // size that is an integer up to rounding error (a point) stays itself.
    double bytes = std::ceil(x - (1e-9 + 1e-12 * x));
    return std::max<uint64_t>(1, static_cast<uint64_t>(std::max(bytes, 0.0)));
}

double
FlowSizeCdf::Cdf(double bytes) const
{
    NS_ABORT_MSG_IF(m_points.empty(), "FlowSizeCdf::Cdf: no distribution (Parse or Load it)");
    // The first point above bytes; the one before it is the last at or below.
    auto it =
        std::upper_bound(m_points.begin(),
                         m_points.end(),
                         bytes,
                         [](double v, const std::pair<double, double>& p) { return v < p.first; });
    if (it == m_points.begin())
    {
        return 0;
    }
    if (it == m_points.end())
    {
        return 1;
    }
    const auto& [x1, p1] = *it;
    const auto& [x0, p0] = *(it - 1);
    return p0 + (bytes - x0) / (x1 - x0) * (p1 - p0);
}

// ---------------------------------------------------------------------------
// RdmaFlowGenerator

RdmaFlowGenerator::RdmaFlowGenerator(const FlowSizeCdf& cdf)
    : m_cdf(cdf)
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_cdf.GetPoints().empty(),
                    "RdmaFlowGenerator: the flow-size distribution has no points");
    m_arrival = CreateObject<ExponentialRandomVariable>();
    m_arrival->SetAttribute("Mean", DoubleValue(1));
    m_arrival->SetAttribute("Bound", DoubleValue(0)); // no bound
    m_uniform = CreateObject<UniformRandomVariable>();
    m_uniform->SetAttribute("Min", DoubleValue(0));
    m_uniform->SetAttribute("Max", DoubleValue(1));
}

int64_t
RdmaFlowGenerator::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_arrival->SetStream(stream);
    m_uniform->SetStream(stream + 1);
    return 2;
}

void
RdmaFlowGenerator::SetFixedOffer(bool fixed)
{
    m_fixedOffer = fixed;
}

std::vector<GeneratedFlow>
RdmaFlowGenerator::Generate(const std::vector<uint32_t>& senders,
                            const std::vector<uint32_t>& receivers,
                            Pattern pattern,
                            DataRate capacity,
                            double load,
                            Time start,
                            Time duration)
{
    NS_LOG_FUNCTION(this << senders.size() << receivers.size() << pattern << capacity << load
                         << start << duration);
    NS_ABORT_MSG_IF(senders.empty(), "RdmaFlowGenerator::Generate: no senders");
    NS_ABORT_MSG_IF(receivers.empty(), "RdmaFlowGenerator::Generate: no receivers");
    NS_ABORT_MSG_UNLESS(std::set<uint32_t>(senders.begin(), senders.end()).size() == senders.size(),
                        "RdmaFlowGenerator::Generate: a host is listed twice in the senders");
    NS_ABORT_MSG_UNLESS(std::set<uint32_t>(receivers.begin(), receivers.end()).size() ==
                            receivers.size(),
                        "RdmaFlowGenerator::Generate: a host is listed twice in the receivers");
    NS_ABORT_MSG_UNLESS(load > 0 && load <= 1,
                        "RdmaFlowGenerator::Generate: load " << load << " is not in (0, 1]");
    NS_ABORT_MSG_IF(capacity.GetBitRate() == 0, "RdmaFlowGenerator::Generate: capacity is 0 bit/s");
    NS_ABORT_MSG_IF(duration.IsStrictlyNegative(),
                    "RdmaFlowGenerator::Generate: duration " << duration << " is negative");
    const double mean = m_cdf.GetMean();
    NS_ABORT_MSG_IF(mean < 1,
                    "RdmaFlowGenerator::Generate: the mean flow size " << mean
                                                                       << " bytes is below 1");

    // Who may send, and to whom.
    std::vector<uint32_t> incastSenders; // (SYNCHRONIZED_)INCAST: senders but the receiver
    std::vector<uint32_t> partner;       // PERMUTATION: receiver of senders[i]
    switch (pattern)
    {
    case INCAST:
    case SYNCHRONIZED_INCAST:
        for (uint32_t s : senders)
        {
            if (s != receivers[0])
            {
                incastSenders.push_back(s);
            }
        }
        NS_ABORT_MSG_IF(incastSenders.empty(),
                        "RdmaFlowGenerator::Generate: INCAST to host "
                            << receivers[0] << " has no sender other than the receiver");
        break;
    case ALL_TO_ALL:
        NS_ABORT_MSG_IF(senders.size() == 1 && receivers.size() == 1 && senders[0] == receivers[0],
                        "RdmaFlowGenerator::Generate: ALL_TO_ALL with the single host "
                            << senders[0] << " has no pair of different hosts");
        break;
    case PERMUTATION: {
        NS_ABORT_MSG_IF(receivers.size() < senders.size(),
                        "RdmaFlowGenerator::Generate: PERMUTATION needs at least as many "
                        "receivers as senders ("
                            << receivers.size() << " < " << senders.size() << ")");
        // A uniform shuffle of the receivers (Fisher-Yates); sender i takes
        // pool[i].  Then each sender drawn to itself swaps its receiver with
        // another position (used or spare) where neither ends on itself.
        std::vector<uint32_t> pool(receivers);
        for (size_t i = pool.size() - 1; i > 0; --i)
        {
            std::swap(pool[i], pool[Index(m_uniform->GetValue(), i + 1)]);
        }
        const size_t n = senders.size();
        for (size_t i = 0; i < n; ++i)
        {
            if (pool[i] != senders[i])
            {
                continue;
            }
            const size_t offset = Index(m_uniform->GetValue(), pool.size());
            bool fixed = false;
            for (size_t k = 0; k < pool.size() && !fixed; ++k)
            {
                size_t j = (offset + k) % pool.size();
                if (j == i || pool[j] == senders[i] || (j < n && pool[i] == senders[j]))
                {
                    continue;
                }
                std::swap(pool[i], pool[j]);
                fixed = true;
            }
            NS_ABORT_MSG_UNLESS(fixed,
                                "RdmaFlowGenerator::Generate: PERMUTATION cannot give host "
                                    << senders[i] << " a receiver other than itself");
        }
        partner.assign(pool.begin(), pool.begin() + n);
        break;
    }
    default:
        NS_ABORT_MSG("RdmaFlowGenerator::Generate: unknown pattern " << pattern);
    }

    // Poisson arrivals at lambda = load * capacity / (8 * mean) flows per
    // second (SYNCHRONIZED_INCAST: lambda / N arrivals of N flows each).
    const bool synchronized = pattern == SYNCHRONIZED_INCAST;
    const double perArrival = synchronized ? double(incastSenders.size()) : 1.0;
    const double lambda = load * static_cast<double>(capacity.GetBitRate()) / (8 * mean);
    const double arrivalRate = lambda / perArrival;
    std::vector<GeneratedFlow> flows;
    // Room for the expected count plus 5 standard deviations (capped): before
    // Simulator::Run, ns-3 records every Time object in a set, so copies made
    // by a growing vector are costly.
    const double expected = lambda * duration.GetSeconds();
    flows.reserve(static_cast<size_t>(
        std::min(expected + 5 * std::sqrt(expected) * perArrival + 16 + perArrival,
                 double(uint64_t(1) << 24))));
    // Arrival times in time steps of the current resolution, rounded to the
    // nearest step (fewer Time objects, see above); a fixed offer scales them
    // once every flow is drawn, so it keeps the unrounded offsets first.
    const int64_t startStep = start.GetTimeStep();
    const int64_t window = duration.GetTimeStep();
    const double stepsPerSecond = static_cast<double>(Seconds(1).GetTimeStep());
    const uint64_t target = static_cast<uint64_t>(std::llround(
        load * static_cast<double>(capacity.GetBitRate()) * duration.GetSeconds() / 8));
    uint64_t offered = 0;
    std::vector<double> offsets; // fixed offer: each flow's unscaled offset (steps)
    double t = 0;                // seconds since start
    double scale = 1;            // fixed offer: window / the first arrival not drawn
    while (true)
    {
        t += m_arrival->GetValue() / arrivalRate;
        const double offset = t * stepsPerSecond;
        if (m_fixedOffer ? offered >= target : std::round(offset) >= static_cast<double>(window))
        {
            scale = offset > 0 ? static_cast<double>(window) / offset : 1;
            break;
        }
        for (uint32_t member = 0; member < perArrival && (!m_fixedOffer || offered < target);
             ++member)
        {
            GeneratedFlow f;
            f.bytes = m_cdf.Quantile(m_uniform->GetValue());
            if (m_fixedOffer)
            {
                f.bytes = std::min(f.bytes, target - offered); // the last flow fits the target
                offsets.push_back(offset);
            }
            else
            {
                f.start = TimeStep(startStep + static_cast<int64_t>(std::round(offset)));
            }
            offered += f.bytes;
            switch (pattern)
            {
            case INCAST:
                f.src = incastSenders[Index(m_uniform->GetValue(), incastSenders.size())];
                f.dst = receivers[0];
                break;
            case SYNCHRONIZED_INCAST:
                f.src = incastSenders[member];
                f.dst = receivers[0];
                break;
            case ALL_TO_ALL:
                do
                {
                    f.src = senders[Index(m_uniform->GetValue(), senders.size())];
                    f.dst = receivers[Index(m_uniform->GetValue(), receivers.size())];
                } while (f.src == f.dst);
                break;
            case PERMUTATION: {
                uint32_t i = Index(m_uniform->GetValue(), senders.size());
                f.src = senders[i];
                f.dst = partner[i];
                break;
            }
            }
            flows.push_back(f);
        }
    }
    if (m_fixedOffer)
    {
        // The arrival after the last would come at the window's end.
        for (size_t i = 0; i < flows.size(); ++i)
        {
            const double at = std::min(std::round(offsets[i] * scale), double(window - 1));
            flows[i].start = TimeStep(startStep + static_cast<int64_t>(std::max(at, 0.0)));
        }
    }
    NS_LOG_INFO("generated " << flows.size() << " flows at " << lambda << " flows/s");
    return flows;
}

// ---------------------------------------------------------------------------
// Flow files

bool
ParseFlowFile(std::istream& in,
              const std::string& name,
              std::vector<GeneratedFlow>* flows,
              std::string* error)
{
    NS_LOG_FUNCTION(name);
    std::string dummy;
    std::string& err = error != nullptr ? *error : dummy;
    err.clear();

    std::vector<GeneratedFlow> read;
    uint32_t lineNo = 0;
    std::string line;
    while (NextLine(in, name, lineNo, line, err))
    {
        auto fields = Fields(line);
        if (fields.empty())
        {
            continue;
        }
        if (fields.size() != 4 && fields.size() != 5)
        {
            err = Where(name,
                        lineNo,
                        "expected 4 or 5 fields \"<src> <dst> <bytes> <start seconds> [<dscp>]\", "
                        "found " +
                            std::to_string(fields.size()));
            return false;
        }
        uint64_t src = 0;
        uint64_t dst = 0;
        uint64_t bytes = 0;
        uint64_t dscp = 24;
        double startSeconds = 0;
        const uint64_t maxHost = std::numeric_limits<uint32_t>::max();
        if (!ToUnsigned(fields[0], &src) || src > maxHost)
        {
            err = Where(name, lineNo, "source '" + fields[0] + "' is not a host index");
            return false;
        }
        if (!ToUnsigned(fields[1], &dst) || dst > maxHost)
        {
            err = Where(name, lineNo, "destination '" + fields[1] + "' is not a host index");
            return false;
        }
        if (!ToUnsigned(fields[2], &bytes))
        {
            err = Where(name, lineNo, "size '" + fields[2] + "' is not a whole number of bytes");
            return false;
        }
        if (!ToDouble(fields[3], &startSeconds))
        {
            err = Where(name, lineNo, "start time '" + fields[3] + "' is not a number");
            return false;
        }
        if (fields.size() == 5 && !ToUnsigned(fields[4], &dscp))
        {
            err = Where(name, lineNo, "DSCP '" + fields[4] + "' is not a whole number");
            return false;
        }
        if (src == dst)
        {
            err = Where(name, lineNo, "source and destination are both host " + fields[0]);
            return false;
        }
        if (bytes == 0)
        {
            err = Where(name, lineNo, "size is 0 bytes");
            return false;
        }
        if (startSeconds >= Time::Max().GetSeconds())
        {
            err = Where(name, lineNo, "start time " + fields[3] + " s is beyond ns-3's time range");
            return false;
        }
        if (startSeconds < 0)
        {
            err = Where(name, lineNo, "start time " + fields[3] + " s is negative");
            return false;
        }
        if (dscp > 63)
        {
            err = Where(name, lineNo, "DSCP " + fields[4] + " is above 63");
            return false;
        }
        if (read.size() == kMaxFlowFileFlows)
        {
            err = Where(name,
                        lineNo,
                        "more than " + std::to_string(kMaxFlowFileFlows) +
                            " flows (the limit, kMaxFlowFileFlows)");
            return false;
        }
        GeneratedFlow f;
        f.src = static_cast<uint32_t>(src);
        f.dst = static_cast<uint32_t>(dst);
        f.bytes = bytes;
        f.start = Seconds(startSeconds);
        f.dscp = static_cast<uint8_t>(dscp);
        read.push_back(f);
    }
    if (!err.empty())
    {
        return false;
    }
    if (flows != nullptr)
    {
        *flows = std::move(read);
    }
    return true;
}

std::vector<GeneratedFlow>
LoadFlowFile(const std::string& path)
{
    NS_LOG_FUNCTION(path);
    std::ifstream in(path);
    if (!in)
    {
        NS_FATAL_ERROR("cannot open " << path << " (flow file)");
    }
    std::vector<GeneratedFlow> flows;
    std::string error;
    if (!ParseFlowFile(in, path, &flows, &error))
    {
        NS_FATAL_ERROR(error);
    }
    return flows;
}

namespace
{
/// \param path a path \return whether it is a regular file that can be opened for reading
bool
IsReadableFile(const std::string& path)
{
    struct stat st;
    return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && std::ifstream(path).good();
}

/// \param path a file's path \return its directory ("" when it has none)
std::string
DirectoryOf(const std::string& path)
{
    std::size_t slash = path.rfind('/');
    return slash == std::string::npos ? "" : path.substr(0, slash);
}

/// \return the directory of the running program ("" when unknown)
std::string
ExecutableDirectory()
{
    std::vector<char> buf(4096);
    ssize_t n = readlink("/proc/self/exe", buf.data(), buf.size() - 1);
    if (n <= 0)
    {
        return "";
    }
    return DirectoryOf(std::string(buf.data(), std::size_t(n)));
}

/// An object of this library, for LibraryDirectory.
const char g_libraryAnchor = 0;

/// \return the directory of the shared library this code is in ("" when unknown)
std::string
LibraryDirectory()
{
    Dl_info info;
    if (dladdr(&g_libraryAnchor, &info) == 0 || info.dli_fname == nullptr)
    {
        return "";
    }
    return DirectoryOf(info.dli_fname);
}
} // namespace

std::string
FindTaggerDataFile(const std::string& name)
{
    std::vector<std::string> dirs;
    // An installed module (cmake --install): <prefix>/share/tagger/data, the
    // library being in <prefix>/lib or <prefix>/lib/<multiarch>.
    std::string lib = LibraryDirectory();
    for (int up = 0; up < 3 && !lib.empty(); ++up)
    {
        lib = DirectoryOf(lib);
        dirs.push_back(lib + "/share/tagger/data");
    }
#ifdef TAGGER_DATA_DIR_BUILTIN
    dirs.emplace_back(TAGGER_DATA_DIR_BUILTIN); // the source tree's data/, set by the build
#endif
    // From the program's directory upwards: data/ or contrib/tagger/data/ in
    // a standalone build directory's parent or an ns-3 tree's top.
    std::string dir = ExecutableDirectory();
    for (int up = 0; up < 6 && !dir.empty(); ++up)
    {
        dirs.push_back(dir + "/data");
        dirs.push_back(dir + "/contrib/tagger/data");
        std::size_t slash = dir.rfind('/');
        dir = slash == std::string::npos || slash == 0 ? "" : dir.substr(0, slash);
    }
    if (const char* env = std::getenv("TAGGER_DATA_DIR"))
    {
        dirs.emplace_back(env);
    }
    std::string tried;
    for (const std::string& d : dirs)
    {
        std::string path = d + "/" + name;
        if (IsReadableFile(path))
        {
            return path;
        }
        tried += (tried.empty() ? "" : ", ") + path;
    }
    NS_FATAL_ERROR("tagger data file " << name << " not found (tried " << tried
                                       << "; set TAGGER_DATA_DIR)");
    return "";
}

} // namespace ns3
