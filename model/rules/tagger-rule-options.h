/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 */

#ifndef TAGGER_RULE_OPTIONS_H
#define TAGGER_RULE_OPTIONS_H

#include "tagger-rule-generator.h"

#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup tagger
 * The command-line flags of tagger-rules: registered, checked and converted
 * into RuleGeneratorOptions without any ns-3 code.  The program hands the
 * flags to ns3::CommandLine only for --help and its other general arguments.
 */

namespace ns3
{
namespace tagger
{

/// How a flag's value is checked.
enum class FlagType
{
    TEXT,   //!< any string (a name); a value is required
    INPUT,  //!< like TEXT: the name of a file to read
    OUTPUT, //!< like TEXT: the name of a file to write
    NUMBER, //!< a non-negative integer, converted with a range check
    BOOL    //!< true/false/1/0/t/f (any case), or no value (true)
};

/// One command-line flag: its text value as given, and whether it was given.
struct RuleFlag
{
    std::string name;      //!< without the leading dashes
    std::string help;      //!< help text (--help)
    FlagType type;         //!< how the value is checked
    std::string value;     //!< TEXT and NUMBER: the default until given
    bool boolValue{false}; //!< BOOL: the value
    bool given{false};     //!< the flag was on the command line
};

/**
 * Checks an argument that is no tagger-rules flag, e.g. a general argument of
 * the command-line parser the program uses (--help, --PrintHelp, ...).
 * Called with the name (without dashes), whether a value was given, and the
 * value; returns the argument as the parser should see it (--name[=value]),
 * or std::nullopt when it does not know the name.  Throws TaggerError for a
 * bad value.
 */
using OtherArgumentCheck = std::function<
    std::optional<std::string>(const std::string& name, bool hasValue, const std::string& value)>;

/**
 * \ingroup tagger
 * \brief The flags of tagger-rules.
 *
 * Every argument is checked here first, so that an unknown flag, a missing or
 * malformed value gives one TaggerError (exit code 2 of the tool) naming the
 * argument.  Numbers are kept as strings (for a command-line parser that shows
 * them as defaults) and converted with range checks by ToOptions(), which
 * also rejects flags that do not apply to the chosen topology, ELP or
 * algorithm.
 */
class RuleFlags
{
  public:
    /// Register every flag of tagger-rules with its help text and default.
    RuleFlags();

    /**
     * The flags in registration order, for registering with a command-line
     * parser; a deque, so the values stay where they are.
     * \return the flags
     */
    std::deque<RuleFlag>& GetFlags();

    /**
     * Print one line per flag: its name and kind (text, input, output,
     * count: a non-negative integer, bool), tab-separated, as
     * ns3::TaggerCommandLine does for the simulation programs (for the
     * bad-input test).
     * \param os the stream
     */
    void PrintFlagTable(std::ostream& os) const;

    /**
     * Check argv[1..argc-1]: each is a flag of tagger-rules (its value is
     * recorded) or an argument `other` accepts.
     * \param argc argument count \param argv the arguments
     * \param other checks the arguments that are no tagger-rules flag
     * \return the program name (argv[0], or "tagger-rules") and the arguments
     *         in the form --name[=value]
     */
    std::vector<std::string> CheckArguments(int argc,
                                            const char* const argv[],
                                            const OtherArgumentCheck& other);

    /**
     * Convert the recorded values into options (range checks, and flags that
     * do not apply to the chosen topology, ELP or algorithm are rejected).
     * Throws TaggerError naming the flag.
     * \return the options
     */
    RuleGeneratorOptions ToOptions() const;

  private:
    void AddTopologyFlags();      //!< topology generators and files, seed
    void AddElpAndTaggingFlags(); //!< ELP, algorithm, output
    /// Register one flag (its default is shown by --help).
    void Add(const std::string& name,
             const std::string& help,
             FlagType type,
             const std::string& defaultValue = "");
    const RuleFlag& Get(const std::string& name) const;      //!< a registered flag
    bool Given(const std::string& name) const;               //!< it was on the command line
    const std::string& Value(const std::string& name) const; //!< its text value
    /// Check one argument; return it as --name[=value].
    std::string CheckArgument(const std::string& arg, const OtherArgumentCheck& other);
    /// Check and record the value of flag f; return it as --name=value.
    std::string CheckValue(RuleFlag& f, bool hasValue, const std::string& value);

    /// A NUMBER flag: digits only, within [lo, hi]; throws naming flag and value.
    uint64_t ToUint(const std::string& name, uint64_t lo, uint64_t hi) const;
    /// ToUint for 32-bit ranges.
    uint32_t ToUint32(const std::string& name, uint32_t lo, uint32_t hi) const;
    /// A TEXT flag that must be one of choices; throws naming the value.
    const std::string& Choice(const std::string& name,
                              const std::vector<std::string>& choices) const;
    /// Throw when one of names was given: it does not apply to `where`.
    void RejectFlags(const std::vector<std::string>& names, const std::string& where) const;

    void ToTopologyOptions(RuleGeneratorOptions& o) const; //!< --topology / --topology-file
    void ToClosOptions(RuleGeneratorOptions& o) const;     //!< --topology=clos
    /// --topology=fattree or f10 (`where` names it in messages).
    void ToFatTreeOptions(RuleGeneratorOptions& o, const std::string& where) const;
    void ToJellyfishOptions(RuleGeneratorOptions& o) const;    //!< --topology=jellyfish
    void ToRandomSparseOptions(RuleGeneratorOptions& o) const; //!< --topology=random-sparse
    void ToBCubeOptions(RuleGeneratorOptions& o) const;        //!< --topology=bcube
    void ToElpOptions(RuleGeneratorOptions& o) const;          //!< --elp / --elp-file
    void ToTaggingOptions(RuleGeneratorOptions& o) const;      //!< --algorithm and its flags
    void ToGreedyOrderOptions(RuleGeneratorOptions& o) const;  //!< --greedy-order, --restarts, ...
    void ToOutputOptions(RuleGeneratorOptions& o) const;       //!< --json, --emit-elp

    std::deque<RuleFlag> m_flags; //!< deque: a parser may keep references to the values
    std::map<std::string, std::size_t> m_index; //!< name -> position in m_flags
};

/// The usage text of tagger-rules (what it does, exit codes, examples).
extern const char* const kRuleToolUsage;

} // namespace tagger
} // namespace ns3

#endif /* TAGGER_RULE_OPTIONS_H */
