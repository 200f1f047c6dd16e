/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 */

#include "tagger-io-hpcc-config.h"

#include "tagger-io-hpcc.h"
#include "tagger-topology.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <istream>
#include <map>
#include <sstream>

namespace ns3
{
namespace tagger
{

namespace
{

/// \param word a word \return whether it reads as a KEY (capitals, digits, '_')
bool
IsKey(const std::string& word)
{
    for (char c : word)
    {
        if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
        {
            return false;
        }
    }
    return !word.empty() && !(word[0] >= '0' && word[0] <= '9');
}

/// \param text a decimal number \param value set on success \return whether all of it read
bool
ReadDecimal(const std::string& text, double& value)
{
    if (text.empty() || text.find_first_not_of("0123456789.eE+-") != std::string::npos)
    {
        return false;
    }
    char* end = nullptr;
    value = std::strtod(text.c_str(), &end);
    return end == text.c_str() + text.size() && std::isfinite(value);
}

/// \param number a printed bound \return it without trailing zeros
std::string
Show(double number)
{
    std::ostringstream os;
    os << number;
    return os.str();
}

/// \param text a rate as the family writes it \param bps set on success \return "" or why not
std::string
ReadRate(const std::string& text, uint64_t& bps)
{
    std::string ns3Form = text;
    if (ns3Form.size() > 3 && ns3Form.compare(ns3Form.size() - 3, 3, "b/s") == 0)
    {
        ns3Form.replace(ns3Form.size() - 3, 3, "bps"); // "40Mb/s" is ns-3's "40Mbps"
    }
    std::string err = ParseHpccRate(ns3Form, bps);
    if (!err.empty())
    {
        return "rate '" + text + "' is not a number followed by b/s, Kb/s, Mb/s or Gb/s";
    }
    return "";
}

} // namespace

HpccConfig::HpccConfig(std::istream& in, const std::string& source)
    : m_source(source)
{
    std::map<std::string, std::size_t> seen; // key -> index in m_lines
    std::string text;
    uint32_t number = 0;
    while (std::getline(in, text))
    {
        ++number;
        std::istringstream words(text);
        HpccConfigLine line;
        line.line = number;
        if (!(words >> line.key))
        {
            continue; // blank
        }
        if (!IsKey(line.key))
        {
            throw TaggerError(source + ":" + std::to_string(number) + ": '" + line.key +
                              "' is not a KEY (capital letters, digits and '_'), so this is "
                              "not a 'KEY value...' line of an HPCC-family config");
        }
        std::string value;
        while (words >> value)
        {
            line.values.push_back(value);
        }
        auto it = seen.find(line.key);
        if (it == seen.end())
        {
            seen.emplace(line.key, m_lines.size());
            m_lines.push_back(line);
            continue;
        }
        HpccConfigLine& first = m_lines[it->second];
        m_warning += source + ":" + std::to_string(number) + ": " + line.key + " repeats line " +
                     std::to_string(first.line) +
                     "; the last value is used, as the HPCC family's simulators use it\n";
        first = line;
    }
    if (in.bad())
    {
        throw TaggerError(source + ": read error");
    }
}

HpccConfig
HpccConfig::ReadFile(const std::string& filename)
{
    std::ifstream in(filename);
    if (!in)
    {
        throw TaggerError("cannot open HPCC config file '" + filename + "'");
    }
    return HpccConfig(in, filename);
}

const std::string&
HpccConfig::GetSource() const
{
    return m_source;
}

const std::vector<HpccConfigLine>&
HpccConfig::GetLines() const
{
    return m_lines;
}

const std::string&
HpccConfig::GetWarning() const
{
    return m_warning;
}

bool
HpccConfig::Has(const std::string& key) const
{
    for (const HpccConfigLine& line : m_lines)
    {
        if (line.key == key)
        {
            return true;
        }
    }
    return false;
}

const HpccConfigLine&
HpccConfig::Get(const std::string& key) const
{
    for (const HpccConfigLine& line : m_lines)
    {
        if (line.key == key)
        {
            return line;
        }
    }
    throw TaggerError(m_source + ": no " + key + " line");
}

std::string
HpccConfig::Where(const std::string& key) const
{
    return m_source + ":" + std::to_string(Get(key).line) + ": " + key;
}

const HpccConfigLine&
HpccConfig::GetValues(const std::string& key, std::size_t count) const
{
    const HpccConfigLine& line = Get(key);
    if (line.values.size() != count)
    {
        throw TaggerError(Where(key) + ": expected " + std::to_string(count) +
                          (count == 1 ? " value" : " values") + ", found " +
                          std::to_string(line.values.size()));
    }
    return line;
}

std::string
HpccConfig::GetString(const std::string& key) const
{
    return GetValues(key, 1).values[0];
}

double
HpccConfig::GetNumber(const std::string& key, double min, double max) const
{
    const std::string& text = GetValues(key, 1).values[0];
    double value = 0;
    if (!ReadDecimal(text, value) || value < min || value > max)
    {
        throw TaggerError(Where(key) + ": '" + text + "' is not a number in [" + Show(min) + ", " +
                          Show(max) + "]");
    }
    return value;
}

uint64_t
HpccConfig::GetUnsigned(const std::string& key, uint64_t min, uint64_t max) const
{
    const std::string& text = GetValues(key, 1).values[0];
    char* end = nullptr;
    errno = 0;
    unsigned long long value = std::strtoull(text.c_str(), &end, 10);
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos ||
        end != text.c_str() + text.size() || errno == ERANGE || value < min || value > max)
    {
        throw TaggerError(Where(key) + ": '" + text + "' is not a whole number in [" +
                          std::to_string(min) + ", " + std::to_string(max) + "]");
    }
    return value;
}

uint64_t
HpccConfig::GetRate(const std::string& key) const
{
    uint64_t bps = 0;
    std::string err = ReadRate(GetValues(key, 1).values[0], bps);
    if (!err.empty())
    {
        throw TaggerError(Where(key) + ": " + err);
    }
    return bps;
}

std::vector<std::pair<uint64_t, double>>
HpccConfig::GetRateMap(const std::string& key, double min, double max) const
{
    const HpccConfigLine& line = Get(key);
    const std::vector<std::string>& v = line.values;
    char* end = nullptr;
    errno = 0;
    unsigned long n = v.empty() ? 0 : std::strtoul(v[0].c_str(), &end, 10);
    if (v.empty() || v[0].find_first_not_of("0123456789") != std::string::npos || n == 0 ||
        errno == ERANGE || v.size() != 1 + 2 * n)
    {
        throw TaggerError(Where(key) + ": expected a count n >= 1 and n (link rate, value) " +
                          "pairs, found " + std::to_string(v.size()) + " values");
    }
    std::vector<std::pair<uint64_t, double>> map;
    for (unsigned long i = 0; i < n; ++i)
    {
        const std::string& rateText = v[1 + 2 * i];
        uint64_t bps = 0;
        double bits = 0;
        if (ReadDecimal(rateText, bits) && bits >= 1 && bits <= double(kMaxHpccRateBps))
        {
            bps = uint64_t(std::llround(bits)); // the family writes bits/s as a number
        }
        else if (std::string err = ReadRate(rateText, bps); !err.empty())
        {
            throw TaggerError(Where(key) + ": pair " + std::to_string(i + 1) + ": " + err);
        }
        double value = 0;
        const std::string& valueText = v[2 + 2 * i];
        if (!ReadDecimal(valueText, value) || value < min || value > max)
        {
            throw TaggerError(Where(key) + ": pair " + std::to_string(i + 1) + ": '" + valueText +
                              "' is not a number in [" + Show(min) + ", " + Show(max) + "]");
        }
        for (const auto& [rate, unused] : map)
        {
            if (rate == bps)
            {
                throw TaggerError(Where(key) + ": pair " + std::to_string(i + 1) + ": rate " +
                                  rateText + " is given twice");
            }
        }
        map.emplace_back(bps, value);
    }
    return map;
}

std::vector<uint64_t>
HpccConfig::GetUnsignedList(const std::string& key, std::size_t count) const
{
    const HpccConfigLine& line = GetValues(key, count);
    std::vector<uint64_t> values;
    for (const std::string& text : line.values)
    {
        char* end = nullptr;
        errno = 0;
        unsigned long long value = std::strtoull(text.c_str(), &end, 10);
        if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos ||
            end != text.c_str() + text.size() || errno == ERANGE)
        {
            throw TaggerError(Where(key) + ": '" + text + "' is not a whole number");
        }
        values.push_back(value);
    }
    return values;
}

std::string
GetHpccCcModeName(uint64_t mode)
{
    switch (mode)
    {
    case 1:
        return "DCQCN";
    case 3:
        return "HPCC";
    case 7:
        return "TIMELY";
    case 8:
        return "DCTCP";
    case 10:
        return "HPCC-PINT";
    default:
        return "";
    }
}

} // namespace tagger
} // namespace ns3
