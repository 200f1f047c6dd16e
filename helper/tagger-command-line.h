/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef TAGGER_COMMAND_LINE_H
#define TAGGER_COMMAND_LINE_H

#include "ns3/command-line.h"
#include "ns3/nstime.h"
#include "ns3/tagger-topology.h"

#include <cstdint>
#include <fstream>
#include <functional>
#include <list>
#include <ostream>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup tagger
 * One checked way for the tagger programs to read their flags.
 */

namespace ns3
{

/**
 * \ingroup tagger
 * A command line whose flags are checked: typed values with ranges and units.
 *
 * It wraps ns3::CommandLine (so --PrintHelp, --PrintGlobals and the
 * --ns3::Class::Attribute=value options keep working): every flag is
 * registered as text, and after CommandLine::Parse the text of each flag the
 * user gave is parsed and range-checked.  A flag that was not given keeps
 * its default untouched (so the defaults are exactly the program's).  A bad
 * value gets ONE line on stderr,
 *   program: --flag=value: why (the allowed range)
 * and the process exits with code 2 (std::exit; every check but CloseOutput
 * runs before the simulation).
 *
 * The rules:
 *  - integers are read as signed 64-bit decimal numbers (the whole text,
 *    no sign tricks), then checked against [min, max]: -1 is refused, not
 *    wrapped to 4 billion;
 *  - doubles must be finite numbers within [min, max] (a default is shown
 *    with the fewest digits that read back as the same double);
 *  - times in ms must be finite and within [min, max] with max at most
 *    kMaxMilliSeconds, so the later conversion to ns-3 Time (64-bit ns)
 *    never overflows (MilliSecondsToTime);
 *  - data rates (text such as 40Gbps) must parse as ns3::DataRate and be > 0;
 *  - time texts (such as 1us) must parse as ns3::Time, be >= 0 and at most
 *    kMaxMilliSeconds;
 *  - choices must be one of a list; booleans only 0, 1, true or false (a
 *    bare --flag means true, as with ns3::CommandLine);
 *  - input files (AddInputFile) must be readable regular files, checked when
 *    the flag is not empty;
 *  - no output file (each file of an AddOutputPrefix) may be the same file as
 *    an input file or as another output (tagger::SameFile: through links,
 *    or the same path for a file not created yet), checked before anything
 *    is created;
 *  - output files (AddOutputFile, AddOutputPrefix) are created and probed
 *    right after parsing, whether given or default, unless empty: a path that
 *    cannot be created fails then, and so does a full character device such
 *    as /dev/full (one newline is written to an existing character device to
 *    find out; regular files are left empty).  The program still writes with
 *    OpenOutput and checks with CloseOutput (a disk that fills up during the
 *    run is caught there, after the simulation).
 *
 * The event scheduler: the constructor makes ns3::TaggerWheelScheduler (a
 * timing wheel of vectors, see its class) the default of ns-3's SchedulerType
 * global value, which --SchedulerType still overrides.  Every ns-3 scheduler
 * runs events in the same order (time, then insertion), so results do not
 * change; it allocates nothing per event, unlike the default MapScheduler,
 * and starts reading the next event before it runs (the differences are
 * measured in doc/tagger-performance.rst).
 *
 * --PrintFlagTable prints one line per flag (name, kind, smallest and largest
 * value or the choices, tab-separated) and exits 0: the bad-input test
 * derives its bad values from it, per kind.
 *
 * \code
 *   TaggerCommandLine cmd("pfc-incast", __FILE__);
 *   cmd.AddInteger("spines", "number of spine switches", spines, 1, TaggerCommandLine::kMaxCount);
 *   cmd.AddDataRate("rate", "link rate", rate);
 *   cmd.Parse(argc, argv);            // exits with 2 on a bad value
 *   uint32_t hosts = cmd.CheckedMultiply("leaves", leaves, "hosts-per-leaf", hostsPerLeaf,
 *                                        TaggerCommandLine::kMaxHosts);
 * \endcode
 */
class TaggerCommandLine
{
  public:
    /// Largest number of switches of one kind, hosts per switch or similar counts.
    static constexpr int64_t kMaxCount = 4096;
    /// Largest number of hosts of a whole network (products of counts).
    static constexpr int64_t kMaxHosts = 65536;
    /**
     * Largest time flag in ms: 10^7 ms (about 2.8 hours of simulated time),
     * far below ns-3's 64-bit ns range (about 9.2 * 10^12 ms) so sums of a
     * few such times cannot overflow either.
     */
    static constexpr double kMaxMilliSeconds = 1e7;
    /// Largest flow (message) size in bytes: 2^40 (1 TiB).
    static constexpr int64_t kMaxFlowBytes = int64_t(1) << 40;

    /**
     * Make ns3::TaggerWheelScheduler the default scheduler (see the class comment).
     * \param program the program's name (first word of every message)
     * \param file the program's source (__FILE__, for ns3::CommandLine's usage)
     */
    TaggerCommandLine(const std::string& program, const std::string& file);

    /**
     * An integer flag of any integer type.
     * \param name the flag (without --) \param help its help (say the unit)
     * \param value the variable (keeps its value when the flag is absent)
     * \param min smallest value \param max largest value (both within T's range)
     */
    template <typename T>
    void AddInteger(const std::string& name,
                    const std::string& help,
                    T& value,
                    int64_t min,
                    int64_t max)
    {
        T* target = &value;
        std::string bounds = std::to_string(min) + "\t" + std::to_string(max);
        AddChecked(name,
                   help,
                   "integer",
                   bounds,
                   std::to_string(value),
                   [target, min, max](const std::string& text) {
                       int64_t v = 0;
                       std::string why = ParseInteger(text, min, max, v);
                       if (why.empty())
                       {
                           *target = T(v);
                       }
                       return why;
                   });
    }

    /**
     * A comma-separated list of integers, each within [min, max] (at least one).
     * \param name the flag (without --) \param help its help (say the unit)
     * \param values the variable (keeps its values when the flag is absent)
     * \param min smallest value \param max largest value (both within T's range)
     */
    template <typename T>
    void AddIntegerList(const std::string& name,
                        const std::string& help,
                        std::vector<T>& values,
                        int64_t min,
                        int64_t max)
    {
        std::vector<T>* target = &values;
        std::string defaultText;
        for (const T& v : values)
        {
            defaultText += (defaultText.empty() ? "" : ",") + std::to_string(v);
        }
        AddChecked(name,
                   help,
                   "integer-list",
                   std::to_string(min) + "\t" + std::to_string(max),
                   defaultText,
                   [target, min, max](const std::string& text) {
                       std::vector<std::string> items;
                       std::string why = SplitListText(text, items);
                       std::vector<T> parsed;
                       for (std::size_t i = 0; why.empty() && i < items.size(); ++i)
                       {
                           int64_t v = 0;
                           why = ParseInteger(items[i], min, max, v);
                           parsed.push_back(T(v));
                       }
                       if (!why.empty())
                       {
                           return "must be a comma-separated list of integers from " +
                                  std::to_string(min) + " to " + std::to_string(max);
                       }
                       *target = parsed;
                       return std::string();
                   });
    }

    /// A comma-separated list of finite doubles, each within [min, max] (at least one).
    /// \param name the flag \param help its help \param values the variable
    /// \param min smallest \param max largest
    void AddDoubleList(const std::string& name,
                       const std::string& help,
                       std::vector<double>& values,
                       double min,
                       double max);

    /// A finite double within [min, max]. \param name the flag \param help its help
    /// \param value the variable \param min smallest \param max largest
    void AddDouble(const std::string& name,
                   const std::string& help,
                   double& value,
                   double min,
                   double max);

    /// A time in ms (a double) within [min, max], max <= kMaxMilliSeconds.
    /// \param name the flag \param help its help \param ms the variable (ms)
    /// \param min smallest \param max largest
    void AddMilliSeconds(const std::string& name,
                         const std::string& help,
                         double& ms,
                         double min = 0,
                         double max = kMaxMilliSeconds);

    /// A data rate text (e.g. 40Gbps), > 0 bit/s. \param name the flag
    /// \param help its help \param rate the variable (kept as the text given)
    void AddDataRate(const std::string& name, const std::string& help, std::string& rate);

    /// A time text (e.g. 1us), 0 .. kMaxMilliSeconds. \param name the flag
    /// \param help its help \param time the variable (kept as the text given)
    void AddTime(const std::string& name, const std::string& help, std::string& time);

    /// One of \p choices. \param name the flag \param help its help
    /// \param value the variable \param choices the allowed values
    void AddChoice(const std::string& name,
                   const std::string& help,
                   std::string& value,
                   const std::vector<std::string>& choices);

    /// A boolean: 0, 1, true or false. \param name the flag \param help its help
    /// \param value the variable
    void AddBool(const std::string& name, const std::string& help, bool& value);

    /// Free text that the program checks itself (a name).
    /// \param name the flag \param help its help \param value the variable
    void AddString(const std::string& name, const std::string& help, std::string& value);

    /// A list (e.g. "L1-S1@2,L3-S2@2.5") that the program checks itself.
    /// \param name the flag \param help its help \param value the variable
    void AddList(const std::string& name, const std::string& help, std::string& value);

    /// A file to read: when not empty, a readable regular file (checked by Parse).
    /// \param name the flag \param help its help \param path the variable
    void AddInputFile(const std::string& name, const std::string& help, std::string& path);

    /// A file to write: when not empty, created and probed by Parse (see the class comment).
    /// \param name the flag \param help its help \param path the variable
    void AddOutputFile(const std::string& name, const std::string& help, std::string& path);

    /**
     * A prefix of files to write: when not empty, Parse creates and probes
     * prefix + each of \p suffixes.
     * \param name the flag \param help its help \param prefix the variable
     * \param suffixes the file name endings (e.g. "-rate.dat")
     */
    void AddOutputPrefix(const std::string& name,
                         const std::string& help,
                         std::string& prefix,
                         const std::vector<std::string>& suffixes);

    /**
     * Parse \p argv and check every flag given, then the input and output
     * files; exits with 2 on a bad value.  With --PrintFlagTable, prints
     * the flag table and exits 0.
     * \param argc count \param argv values
     */
    void Parse(int argc, char* argv[]);

    /**
     * Give the file flag \p name (an input or an output file) the file \p path
     * named elsewhere, e.g. by a config file line (\p origin, which starts
     * messages about it: "--config=config.txt: config.txt:9: FCT_OUTPUT_FILE",
     * so they name the flag that named the file), unless the command line
     * named the flag (WasGiven); then CheckFileFlags() applies to it as to a
     * flag given.
     * \param name the flag \param path the file \param origin where it is named
     * \param variable the flag's variable, set to \p path when taken
     * \return whether \p path was taken (false: the command line gave the flag)
     */
    bool TakeFile(const std::string& name,
                  const std::string& path,
                  const std::string& origin,
                  std::string& variable);

    /// \param name a flag \return whether the command line named it (even with its default value)
    bool WasGiven(const std::string& name) const;

    /**
     * Set again, with Config::SetDefault, every --ns3::Type::Attribute=value
     * the command line gave (Parse checked them): a program that sets
     * defaults from elsewhere (a config file) calls this after, so that what
     * the user typed wins.
     */
    void ReapplyAttributeArguments() const;

    /// Check the file flags again (Parse does it once): inputs readable, outputs
    /// writable, no output on an input or on another output; Fail otherwise.
    void CheckFileFlags() const;

    /// Print one line per flag: name, kind, bounds (tab-separated). \param os the stream
    void PrintFlagTable(std::ostream& os) const;

    /**
     * Report a bad value and exit with code 2.
     * \param flag the flag (without --) \param value its text \param why the rule it breaks
     */
    [[noreturn]] void Fail(const std::string& flag,
                           const std::string& value,
                           const std::string& why) const;

    /**
     * \p a * \p b, or Fail naming both flags when the product exceeds \p max.
     * \param nameA flag of a \param a a value \param nameB flag of b \param b a value
     * \param max the largest allowed product \return the product
     */
    uint64_t CheckedMultiply(const std::string& nameA,
                             uint64_t a,
                             const std::string& nameB,
                             uint64_t b,
                             uint64_t max) const;

    /**
     * The leaf-spine flags --leaves, --spines and --hosts-per-leaf, each 1 .. kMaxCount.
     * \param leaves leaf switches \param spines spine switches \param hostsPerLeaf hosts per leaf
     */
    void AddLeafSpine(uint32_t& leaves, uint32_t& spines, uint32_t& hostsPerLeaf);

    /**
     * After Parse: Fail unless leaves * spines (the links between the tiers)
     * and leaves * hosts-per-leaf (the hosts) are at most kMaxHosts and there
     * are at least 2 hosts.
     * \param leaves leaf switches \param spines spine switches \param hostsPerLeaf hosts per leaf
     * \return the number of hosts
     */
    uint64_t CheckLeafSpine(uint32_t leaves, uint32_t spines, uint32_t hostsPerLeaf) const;

    /// Fail unless 1 <= \p senders < \p hosts (hosts 1..senders send to host 0).
    /// \param senders the --senders value \param hosts the hosts of the network
    void CheckSenders(uint32_t senders, uint64_t hosts) const;

    /**
     * Fail unless a RoCE flow of \p bytes fits in one queue pair
     * (RdmaNic::GetMaxFlowBytes with the PayloadSize in force after parsing).
     * \param flag the flag at fault \param value its text \param bytes the flow size
     * \param what the flow, for the message (e.g. "the largest size of the CDF")
     */
    void CheckFlowBytes(const std::string& flag,
                        const std::string& value,
                        uint64_t bytes,
                        const std::string& what = "a flow") const;

    /**
     * Fail unless a run of \p topology with \p flows RoCE flows fits in the
     * memory available (PfcTopologyHelper::CheckMemory), before it is built.
     * \param flag the flag that sizes it \param value its text
     * \param topology the network \param flows the flows
     */
    void CheckMemory(const std::string& flag,
                     const std::string& value,
                     const tagger::Topology& topology,
                     uint64_t flows) const;

    /**
     * Open \p path for writing (truncating it) before the simulation runs;
     * Fail naming \p flag when it cannot be created.  Write to it, then call
     * CloseOutput, which checks that every byte reached the file (a full
     * device such as /dev/full is only detected there).
     * \param flag the flag naming the file \param path the file \param file the stream
     * \param value the flag's text when it is not \p path (an --out prefix)
     */
    void OpenOutput(const std::string& flag,
                    const std::string& path,
                    std::ofstream& file,
                    const std::string& value = "") const;

    /// Flush and close \p file; Fail naming \p flag when a write failed.
    /// \param flag the flag \param path the file \param file the stream
    /// \param value the flag's text when it is not \p path (an --out prefix)
    void CloseOutput(const std::string& flag,
                     const std::string& path,
                     std::ofstream& file,
                     const std::string& value = "") const;

    /// Check that \p path can be created and written (it is created, empty;
    /// a character device gets one newline); Fail otherwise.
    /// \param flag the flag \param path the file
    /// \param value the flag's text when it is not \p path (an --out prefix)
    void CheckWritable(const std::string& flag,
                       const std::string& path,
                       const std::string& value = "") const;

    /// Fail unless \p path is a regular file that can be read.
    /// \param flag the flag \param path the file
    void CheckReadableFile(const std::string& flag, const std::string& path) const;

    /**
     * Parse \p text as a decimal signed 64-bit integer within [min, max].
     * \param text the text \param min smallest \param max largest \param v the value
     * \return "" or why \p text is refused
     */
    static std::string ParseInteger(const std::string& text, int64_t min, int64_t max, int64_t& v);

    /**
     * Split a comma-separated list into its items.
     * \param text the list \param items set to the items
     * \return "" or why the list is malformed (empty, or an empty item)
     */
    static std::string SplitListText(const std::string& text, std::vector<std::string>& items);

    /**
     * Parse \p text as a finite double within [min, max].
     * \param text the text \param min smallest \param max largest \param v the value
     * \return "" or why \p text is refused
     */
    static std::string ParseDouble(const std::string& text, double min, double max, double& v);

    /**
     * The ns-3 time of \p ms milliseconds, truncated to whole microseconds
     * (the examples' historical rounding).  \p ms must be within
     * [0, kMaxMilliSeconds] (as AddMilliSeconds checks).
     * \param ms milliseconds \return the time
     */
    static Time MilliSecondsToTime(double ms);

    /// \param x a number \return the shortest text that reads back as \p x
    static std::string FormatNumber(double x);

    /**
     * The largest UDP payload a device of \p deviceType carries: its Mtu
     * attribute's default (as --ns3::Type::Mtu may have set it) minus the
     * IPv4 and UDP headers (28 bytes).
     * \param deviceType e.g. "ns3::PfcNetDevice" \return the payload limit (bytes)
     */
    static uint32_t GetMaxUdpPayload(const std::string& deviceType);

    /// \param name a flag \return its text as given, or its default's text
    std::string GetText(const std::string& name) const;

    /// \return the wrapped ns3::CommandLine (to add ns-3 typed values unchecked: avoid)
    CommandLine& GetCommandLine();

  private:
    /// Check one flag's text: "" when good (and the variable set), else why not.
    using Checker = std::function<std::string(const std::string&)>;

    /// One registered flag.
    struct Flag
    {
        std::string name;                  //!< without --
        std::string kind;                  //!< integer, double, ms, rate, time, choice, ...
        std::string bounds;                //!< "min<TAB>max", or the choices ('|')
        std::string text;                  //!< the text ns3::CommandLine fills
        std::string defaultText;           //!< its initial value
        Checker check;                     //!< applied when text != defaultText
        std::vector<std::string> suffixes; //!< outputs: the files (prefix + suffix)
        std::string origin;                //!< where text came from when not the command line
        bool given{false};                 //!< the command line named the flag
    };

    /// \param flag a flag \return "--name=text", or "origin (text)" for a file named elsewhere
    static std::string Naming(const Flag& flag);

    /// Register a flag. \param name the flag \param help its help
    /// \param kind its kind (PrintFlagTable) \param bounds its bounds (PrintFlagTable)
    /// \param defaultText the default's text \param check its checker
    void AddChecked(const std::string& name,
                    const std::string& help,
                    const std::string& kind,
                    const std::string& bounds,
                    const std::string& defaultText,
                    Checker check);
    /// Register a flag whose text is the variable. \param name the flag
    /// \param help its help \param kind its kind \param value the variable
    void AddText(const std::string& name,
                 const std::string& help,
                 const std::string& kind,
                 std::string& value);
    /// Register a double of \p kind (double or ms). \param name the flag \param help its help
    /// \param kind its kind \param value the variable \param min smallest \param max largest
    void AddDoubleOfKind(const std::string& name,
                         const std::string& help,
                         const std::string& kind,
                         double& value,
                         double min,
                         double max);
    /**
     * Take a flag argument without a value (which ns3::CommandLine refuses
     * with its whole help text): a bare --flag of a boolean means true, an
     * empty --file= of a text, list or file flag means none; any other
     * Fails naming the flag.
     * \param arg one argument \return whether it was such a flag (and is taken)
     */
    bool TakeValueless(const std::string& arg);
    /**
     * Fail on a --ns3::Class::Attribute=value whose value the attribute's
     * checker refuses (ns-3 would end the program with an abort), naming the
     * valid values where the checker knows them (an enum's names).
     * \param argc count \param argv the arguments
     */
    void CheckAttributeArguments(int argc, char* argv[]) const;
    /// Check the input and output files of the flags (after parsing).
    void CheckFiles() const;
    /// Fail on an output that is the same file as an input or as another output
    /// (tagger::SameFile), before any output is created.
    void CheckFilesApart() const;

    std::string m_program;   //!< program name
    CommandLine m_cmd;       //!< the wrapped command line
    std::list<Flag> m_flags; //!< the flags (a list: CommandLine keeps pointers to their text)
    std::vector<std::pair<std::string, std::string>> m_attributeArgs; //!< --ns3:: name, value
};

} // namespace ns3

#endif /* TAGGER_COMMAND_LINE_H */
