/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 */

#ifndef TAGGER_IO_HPCC_CONFIG_H
#define TAGGER_IO_HPCC_CONFIG_H

#include <cstdint>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{
namespace tagger
{

/// One "KEY value..." line of an HPCC-family config file.
struct HpccConfigLine
{
    std::string key;                 //!< the first word
    std::vector<std::string> values; //!< the words after it
    uint32_t line{0};                //!< its line number (from 1)
};

/**
 * An HPCC-family config file (HPCC, ConWeave, ns3-datacenter): one
 * "KEY value..." per line, words separated by blanks, blank lines skipped.
 * Those simulators read the file word by word and let a repeated key's last
 * value win; so does this reader (with one warning per repeated key).  What a
 * key means, and which keys this module applies, is the business of the
 * caller (HpccConfigHelper on the ns-3 side); this class checks the syntax
 * of the values a caller asks for and names the line of a fault:
 * "config.txt:14: RP_TIMER: 'abc' is not a number".
 *
 * Rates are ns-3's DataRate strings as those files write them: a number
 * followed by b/s, Kb/s, Mb/s, Gb/s (or bps, Kbps, Mbps, Gbps).
 */
class HpccConfig
{
  public:
    /**
     * Read a config file's text.  Throws TaggerError "source:line: what" for
     * a line whose first word is not a KEY (capitals, digits, '_').
     * \param in the text \param source its name in messages
     */
    HpccConfig(std::istream& in, const std::string& source);

    /**
     * Read the config file \p filename (TaggerError when it cannot be opened).
     * \param filename the file \return what it holds
     */
    static HpccConfig ReadFile(const std::string& filename);

    /// \return the name used in messages (the file name)
    const std::string& GetSource() const;
    /// \return every key line, in file order (a repeated key: its last line only)
    const std::vector<HpccConfigLine>& GetLines() const;
    /// \return one warning per key given more than once, "" when none was
    const std::string& GetWarning() const;

    /// \param key a key \return whether the file sets it
    bool Has(const std::string& key) const;
    /// \param key a key the file sets \return "source:line: KEY" for messages
    std::string Where(const std::string& key) const;

    /// \param key a key the file sets \return its one value (a file name, a word)
    std::string GetString(const std::string& key) const;
    /**
     * \param key a key the file sets \param min least \param max most
     * \return its one value, a decimal number in [min, max]
     */
    double GetNumber(const std::string& key, double min, double max) const;
    /**
     * \param key a key the file sets \param min least \param max most
     * \return its one value, a whole number in [min, max]
     */
    uint64_t GetUnsigned(const std::string& key, uint64_t min, uint64_t max) const;
    /// \param key a key the file sets \return its one value, a rate in bits/s
    uint64_t GetRate(const std::string& key) const;
    /**
     * A per-link-rate map, "n rate1 value1 ... raten valuen" (KMIN_MAP and
     * the like: rates in bits/s as whole numbers or rate strings).
     * \param key a key the file sets \param min least value \param max most value
     * \return the n (rate in bits/s, value) pairs, in file order
     */
    std::vector<std::pair<uint64_t, double>> GetRateMap(const std::string& key,
                                                        double min,
                                                        double max) const;
    /**
     * \param key a key the file sets \param count how many values it must have
     * \return its values, whole numbers
     */
    std::vector<uint64_t> GetUnsignedList(const std::string& key, std::size_t count) const;

  private:
    /// \param key a key \return its line (TaggerError when the file does not set it)
    const HpccConfigLine& Get(const std::string& key) const;
    /// \param key a key \param count values it must have \return its line
    const HpccConfigLine& GetValues(const std::string& key, std::size_t count) const;

    std::string m_source;                //!< name in messages
    std::vector<HpccConfigLine> m_lines; //!< key lines, file order
    std::string m_warning;               //!< repeated keys
};

/**
 * The congestion control an HPCC-family CC_MODE number selects, as HPCC and
 * ns3-datacenter number them: 1 DCQCN, 3 HPCC, 7 TIMELY, 8 DCTCP,
 * 10 HPCC-PINT.
 * \param mode a CC_MODE value \return its name, "" for a number none uses
 */
std::string GetHpccCcModeName(uint64_t mode);

} // namespace tagger
} // namespace ns3

#endif /* TAGGER_IO_HPCC_CONFIG_H */
