/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * tagger-rules: compute Tagger tag-rewriting rules offline for a topology and
 * a set of expected lossless paths (ELP), verify them, print a summary and
 * optionally write everything as JSON.
 *
 * Tagger (Hu et al., CoNEXT 2017), sections IV-VII.
 *
 * The pipeline is the rule library's (tagger::GenerateRules), the flags are
 * tagger::RuleFlags; this program adds ns3::CommandLine for --help and the
 * other general arguments.
 *
 * Exit codes: 0 success; 2 bad input (one line on stderr naming the problem);
 * 3 the verifier rejected the computed rules (a bug in the library).
 */

#include "ns3/command-line.h"
#include "ns3/tagger-rule-generator.h"
#include "ns3/tagger-rule-options.h"
#include "ns3/type-id.h"

#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::tagger;

namespace
{

/**
 * ns3::CommandLine's general arguments (--help, --PrintHelp, ...): checked
 * here, so that a bad one gives one error line; printed by CommandLine.
 */
std::optional<std::string>
CheckGeneralArgument(const std::string& name, bool hasValue, const std::string& value)
{
    static const char* const general[] =
        {"help", "PrintHelp", "PrintVersion", "PrintGlobals", "PrintGroups", "PrintTypeIds"};
    for (const char* g : general)
    {
        if (name == g)
        {
            return "--" + name;
        }
    }
    if (name != "PrintGroup" && name != "PrintAttributes")
    {
        return std::nullopt;
    }
    if (!hasValue || value.empty())
    {
        throw TaggerError("--" + name + " needs a value, as in --" + name +
                          (name == "PrintGroup" ? "=Core" : "=ns3::Object"));
    }
    TypeId tid;
    if (name == "PrintAttributes" && !TypeId::LookupByNameFailSafe(value, &tid))
    {
        throw TaggerError("--PrintAttributes: unknown TypeId '" + value + "'");
    }
    return "--" + name + "=" + value;
}

/// Check the arguments (RuleFlags), let ns3::CommandLine see them, convert them.
RuleGeneratorOptions
ParseCommandLine(int argc, char* argv[])
{
    RuleFlags flags;
    for (int i = 1; i < argc; ++i)
    {
        if (std::string(argv[i]) == "--PrintFlagTable")
        {
            flags.PrintFlagTable(std::cout);
            std::exit(0);
        }
    }
    CommandLine cmd(__FILE__);
    cmd.Usage(kRuleToolUsage);
    for (RuleFlag& f : flags.GetFlags())
    {
        if (f.type == FlagType::BOOL)
        {
            cmd.AddValue(f.name, f.help, f.boolValue);
        }
        else
        {
            cmd.AddValue(f.name, f.help, f.value);
        }
    }
    cmd.Parse(flags.CheckArguments(argc, argv, CheckGeneralArgument));
    return flags.ToOptions();
}

} // namespace

int
main(int argc, char* argv[])
{
    try
    {
        const RuleGeneratorOptions options = ParseCommandLine(argc, argv);
        const RuleGeneratorResult result = GenerateRules(options);
        PrintRuleSummary(options, result, std::cout);
        return 0;
    }
    catch (...)
    {
        return ReportRuleToolError(std::cerr);
    }
}
