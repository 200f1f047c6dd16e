/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tagger-command-line.h"

#include "ns3/abort.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/global-value.h"
#include "ns3/pfc-topology-helper.h"
#include "ns3/rdma-nic.h"
#include "ns3/string.h"
#include "ns3/tagger-io.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <sys/stat.h>
#include <utility>

namespace ns3
{

namespace
{
/// Largest data rate a flag may give: 1 Pbit/s (DataRate holds bit/s in 64 bits).
constexpr double kMaxBitRate = 1e15;

/// \param x a double \return the shortest text that reads back as \p x
std::string
ShortestText(double x)
{
    for (int digits = 6; digits < 17; ++digits)
    {
        std::ostringstream text;
        text.precision(digits);
        text << x;
        if (std::strtod(text.str().c_str(), nullptr) == x)
        {
            return text.str();
        }
    }
    std::ostringstream text;
    text.precision(17);
    text << x;
    return text.str();
}

/// \param x a double \return it as a range bound in a message (whole numbers without exponent)
std::string
BoundText(double x)
{
    if (x == std::floor(x) && std::fabs(x) < 1e15)
    {
        return std::to_string(int64_t(x));
    }
    return ShortestText(x);
}

/**
 * Split a "number unit" text at the first character not in \p numberChars.
 * \param text the text \param numberChars the characters of the number
 * \param number the number \param unit the rest \return "" or why the number is bad
 */
std::string
SplitNumberUnit(const std::string& text, const char* numberChars, double& number, std::string& unit)
{
    std::size_t n = text.find_first_not_of(numberChars);
    std::string digits = text.substr(0, n);
    unit = n == std::string::npos ? "" : text.substr(n);
    char* end = nullptr;
    errno = 0;
    number = digits.empty() ? 0 : std::strtod(digits.c_str(), &end);
    if (digits.empty() || end != digits.c_str() + digits.size() || errno == ERANGE ||
        !std::isfinite(number))
    {
        return "not a number";
    }
    return "";
}
} // namespace

TaggerCommandLine::TaggerCommandLine(const std::string& program, const std::string& file)
    : m_program(program),
      m_cmd(file)
{
    GlobalValue::Bind("SchedulerType", StringValue("ns3::TaggerWheelScheduler"));
}

void
TaggerCommandLine::AddChecked(const std::string& name,
                              const std::string& help,
                              const std::string& kind,
                              const std::string& bounds,
                              const std::string& defaultText,
                              Checker check)
{
    m_flags.push_back({name, kind, bounds, defaultText, defaultText, std::move(check), {}});
    m_cmd.AddValue(name, help, m_flags.back().text);
}

void
TaggerCommandLine::AddText(const std::string& name,
                           const std::string& help,
                           const std::string& kind,
                           std::string& value)
{
    std::string* target = &value;
    AddChecked(name, help, kind, "", value, [target](const std::string& text) {
        *target = text;
        return std::string();
    });
}

std::string
TaggerCommandLine::ParseInteger(const std::string& text, int64_t min, int64_t max, int64_t& v)
{
    std::string range =
        "must be an integer from " + std::to_string(min) + " to " + std::to_string(max);
    char* end = nullptr;
    errno = 0;
    long long parsed = std::strtoll(text.c_str(), &end, 10);
    bool digitsOnly = !text.empty() && text.find_first_not_of("+-0123456789") == std::string::npos;
    if (!digitsOnly || end != text.c_str() + text.size() || errno == ERANGE || parsed < min ||
        parsed > max)
    {
        return range;
    }
    v = parsed;
    return "";
}

std::string
TaggerCommandLine::ParseDouble(const std::string& text, double min, double max, double& v)
{
    std::string range = "must be a number from " + BoundText(min) + " to " + BoundText(max);
    char* end = nullptr;
    errno = 0;
    double parsed =
        text.empty() || std::isspace((unsigned char)text[0]) ? 0 : std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE ||
        !std::isfinite(parsed) || parsed < min || parsed > max)
    {
        return range;
    }
    v = parsed;
    return "";
}

void
TaggerCommandLine::AddDouble(const std::string& name,
                             const std::string& help,
                             double& value,
                             double min,
                             double max)
{
    AddDoubleOfKind(name, help, "double", value, min, max);
}

std::string
TaggerCommandLine::SplitListText(const std::string& text, std::vector<std::string>& items)
{
    items.clear();
    std::size_t start = 0;
    while (true)
    {
        std::size_t comma = text.find(',', start);
        items.push_back(text.substr(start, comma == std::string::npos ? comma : comma - start));
        if (items.back().empty())
        {
            return "an empty item";
        }
        if (comma == std::string::npos)
        {
            return "";
        }
        start = comma + 1;
    }
}

void
TaggerCommandLine::AddDoubleList(const std::string& name,
                                 const std::string& help,
                                 std::vector<double>& values,
                                 double min,
                                 double max)
{
    std::vector<double>* target = &values;
    std::string defaultText;
    for (double v : values)
    {
        defaultText += (defaultText.empty() ? "" : ",") + ShortestText(v);
    }
    std::string bounds = ShortestText(min) + "\t" + ShortestText(max);
    AddChecked(name,
               help,
               "double-list",
               bounds,
               defaultText,
               [target, min, max](const std::string& text) {
                   std::vector<std::string> items;
                   std::string why = SplitListText(text, items);
                   std::vector<double> parsed(items.size());
                   for (std::size_t i = 0; why.empty() && i < items.size(); ++i)
                   {
                       why = ParseDouble(items[i], min, max, parsed[i]);
                   }
                   if (!why.empty())
                   {
                       return "must be a comma-separated list of numbers from " + BoundText(min) +
                              " to " + BoundText(max);
                   }
                   *target = parsed;
                   return std::string();
               });
}

void
TaggerCommandLine::AddMilliSeconds(const std::string& name,
                                   const std::string& help,
                                   double& ms,
                                   double min,
                                   double max)
{
    double* target = &ms;
    const double low = std::max(min, 0.0);
    const double high = std::min(max, kMaxMilliSeconds);
    AddChecked(name,
               help,
               "ms",
               ShortestText(low) + "\t" + ShortestText(high),
               ShortestText(ms),
               [target, low, high](const std::string& text) {
                   double value = 0;
                   std::string why = ParseDouble(text, low, high, value);
                   if (why.empty() && value > 0 && value < 0.001)
                   {
                       // MilliSecondsToTime takes whole microseconds: this would be 0.
                       why = "must be 0 or at least 0.001 (1 us, the resolution of times in ms)";
                   }
                   *target = why.empty() ? value : *target;
                   return why;
               });
}

void
TaggerCommandLine::AddDataRate(const std::string& name, const std::string& help, std::string& rate)
{
    std::string* target = &rate;
    AddChecked(name, help, "rate", "", rate, [target](const std::string& text) {
        std::string why = "must be a data rate above 0 and at most 1Pbps (e.g. 40Gbps)";
        double number = 0;
        std::string unit;
        DataRateValue one;
        if (!SplitNumberUnit(text, "0123456789.", number, unit).empty() || unit.empty() ||
            !one.DeserializeFromString("1" + unit, nullptr) ||
            number * double(one.Get().GetBitRate()) > kMaxBitRate)
        {
            return why;
        }
        DataRateValue parsed;
        if (!parsed.DeserializeFromString(text, nullptr) || parsed.Get().GetBitRate() == 0)
        {
            return why;
        }
        *target = text;
        return std::string();
    });
}

void
TaggerCommandLine::AddTime(const std::string& name, const std::string& help, std::string& time)
{
    std::string* target = &time;
    std::string bounds = "0\t" + BoundText(kMaxMilliSeconds) + "ms";
    AddChecked(name, help, "time", bounds, time, [target](const std::string& text) {
        static const std::vector<std::pair<std::string, double>> msPerUnit = {{"", 1e3},
                                                                              {"s", 1e3},
                                                                              {"ms", 1},
                                                                              {"us", 1e-3},
                                                                              {"ns", 1e-6},
                                                                              {"ps", 1e-9},
                                                                              {"fs", 1e-12},
                                                                              {"min", 6e4},
                                                                              {"h", 3.6e6},
                                                                              {"d", 8.64e7},
                                                                              {"y", 3.1536e10}};
        std::string why =
            "must be a time from 0 to " + BoundText(kMaxMilliSeconds) + "ms with a unit (e.g. 1us)";
        double number = 0;
        std::string unit;
        if (!SplitNumberUnit(text, "+-0123456789.eE", number, unit).empty())
        {
            return why;
        }
        auto it = std::find_if(msPerUnit.begin(), msPerUnit.end(), [&unit](const auto& u) {
            return u.first == unit;
        });
        if (it == msPerUnit.end() || number < 0 || number * it->second > kMaxMilliSeconds)
        {
            return why;
        }
        *target = text;
        return std::string();
    });
}

void
TaggerCommandLine::AddChoice(const std::string& name,
                             const std::string& help,
                             std::string& value,
                             const std::vector<std::string>& choices)
{
    std::string* target = &value;
    std::string bounds;
    for (const std::string& choice : choices)
    {
        bounds += (bounds.empty() ? "" : "|") + choice;
    }
    AddChecked(name, help, "choice", bounds, value, [target, choices](const std::string& text) {
        if (std::find(choices.begin(), choices.end(), text) == choices.end())
        {
            std::string why = "must be one of";
            for (std::size_t i = 0; i < choices.size(); ++i)
            {
                why += (i ? ", " : " ") + choices[i];
            }
            return why;
        }
        *target = text;
        return std::string();
    });
}

void
TaggerCommandLine::AddBool(const std::string& name, const std::string& help, bool& value)
{
    bool* target = &value;
    AddChecked(name, help, "bool", "", value ? "true" : "false", [target](const std::string& text) {
        if (text.empty() || text == "1" || text == "true")
        {
            *target = true;
        }
        else if (text == "0" || text == "false")
        {
            *target = false;
        }
        else
        {
            return std::string("must be 0, 1, true or false");
        }
        return std::string();
    });
}

void
TaggerCommandLine::AddDoubleOfKind(const std::string& name,
                                   const std::string& help,
                                   const std::string& kind,
                                   double& value,
                                   double min,
                                   double max)
{
    double* target = &value;
    std::string bounds = ShortestText(min) + "\t" + ShortestText(max);
    AddChecked(name,
               help,
               kind,
               bounds,
               ShortestText(value),
               [target, min, max](const std::string& text) {
                   return ParseDouble(text, min, max, *target);
               });
}

void
TaggerCommandLine::AddString(const std::string& name, const std::string& help, std::string& value)
{
    AddText(name, help, "text", value);
}

void
TaggerCommandLine::AddList(const std::string& name, const std::string& help, std::string& value)
{
    AddText(name, help, "list", value);
}

void
TaggerCommandLine::AddInputFile(const std::string& name, const std::string& help, std::string& path)
{
    AddText(name, help, "input", path);
}

void
TaggerCommandLine::AddOutputFile(const std::string& name,
                                 const std::string& help,
                                 std::string& path)
{
    AddOutputPrefix(name, help, path, {""});
    m_flags.back().kind = "output";
}

void
TaggerCommandLine::AddOutputPrefix(const std::string& name,
                                   const std::string& help,
                                   std::string& prefix,
                                   const std::vector<std::string>& suffixes)
{
    AddText(name, help, "output-prefix", prefix);
    m_flags.back().suffixes = suffixes;
}

void
TaggerCommandLine::Parse(int argc, char* argv[])
{
    for (int i = 1; i < argc; ++i)
    {
        if (std::string(argv[i]) == "--PrintFlagTable")
        {
            PrintFlagTable(std::cout);
            std::exit(0);
        }
    }
    CheckAttributeArguments(argc, argv);
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        const std::size_t eq = arg.find('=');
        if (arg.compare(0, 7, "--ns3::") == 0 && eq != std::string::npos)
        {
            m_attributeArgs.emplace_back(arg.substr(2, eq - 2), arg.substr(eq + 1));
        }
        else if (arg.compare(0, 2, "--") == 0)
        {
            const std::string name = arg.substr(2, eq == std::string::npos ? eq : eq - 2);
            for (Flag& flag : m_flags)
            {
                flag.given = flag.given || flag.name == name;
            }
        }
    }
    std::vector<char*> args(argv, argv + argc);
    args.erase(std::remove_if(args.begin() + std::min(argc, 1),
                              args.end(),
                              [this](char* arg) { return TakeValueless(arg); }),
               args.end());
    m_cmd.Parse(int(args.size()), args.data());
    // A model's refusal (PfcConfigurationError): one line, exit code 2, with
    // the settings given, since a model knows its attributes, not the flags.
    std::string given;
    for (const Flag& flag : m_flags)
    {
        if (flag.text != flag.defaultText)
        {
            given += " --" + flag.name + "=" + flag.text;
        }
    }
    for (int i = 1; i < argc; ++i)
    {
        if (std::string(argv[i]).compare(0, 7, "--ns3::") == 0)
        {
            given += std::string(" ") + argv[i];
        }
    }
    SetPfcConfigurationExit(m_program, given.empty() ? "" : " (given:" + given + ")");
    for (const Flag& flag : m_flags)
    {
        if (flag.text != flag.defaultText)
        {
            std::string why = flag.check(flag.text);
            if (!why.empty())
            {
                Fail(flag.name, flag.text, why);
            }
        }
    }
    CheckFiles();
}

void
TaggerCommandLine::CheckAttributeArguments(int argc, char* argv[]) const
{
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        const std::size_t eq = arg.find('=');
        if (arg.compare(0, 7, "--ns3::") != 0 || eq == std::string::npos)
        {
            continue; // ns3::CommandLine reports what it does not know
        }
        const std::string name = arg.substr(2, eq - 2); // ns3::Class::Attribute
        const std::string value = arg.substr(eq + 1);
        const std::size_t colons = name.rfind("::");
        TypeId tid;
        TypeId::AttributeInformation info;
        if (colons == std::string::npos || colons < 5 ||
            !TypeId::LookupByNameFailSafe(name.substr(0, colons), &tid) ||
            !tid.LookupAttributeByName(name.substr(colons + 2), &info))
        {
            continue;
        }
        // ns-3's integer values abort on text that is not a number: read it first.
        const std::string type = info.checker->GetValueTypeName();
        const bool integer = type == "ns3::UintegerValue" || type == "ns3::IntegerValue";
        const std::size_t digits = value.find_first_not_of("0123456789", value[0] == '-' ? 1 : 0);
        Ptr<AttributeValue> parsed = info.checker->Create();
        if ((integer && (value.empty() || digits != std::string::npos || value == "-")) ||
            !parsed->DeserializeFromString(value, info.checker) || !info.checker->Check(*parsed))
        {
            std::string why = "is not a valid value of this attribute";
            if (info.checker->HasUnderlyingTypeInformation())
            {
                why += " (" + info.checker->GetUnderlyingTypeInformation() + ")";
            }
            Fail(name, value, why);
        }
    }
}

bool
TaggerCommandLine::TakeValueless(const std::string& arg)
{
    std::size_t eq = arg.find('=');
    bool hasValue = eq != std::string::npos;
    if (arg.compare(0, 2, "--") != 0 || (hasValue && eq + 1 < arg.size()))
    {
        return false; // not a flag, or a flag with a value: ns3::CommandLine's
    }
    std::string name = arg.substr(2, hasValue ? eq - 2 : std::string::npos);
    auto flag = std::find_if(m_flags.begin(), m_flags.end(), [&name](const Flag& f) {
        return f.name == name;
    });
    if (flag == m_flags.end())
    {
        return false;
    }
    static const std::vector<std::string> textKinds = {"text",
                                                       "list",
                                                       "input",
                                                       "output",
                                                       "output-prefix"};
    bool text = std::find(textKinds.begin(), textKinds.end(), flag->kind) != textKinds.end();
    if (!hasValue && flag->kind == "bool")
    {
        flag->text = "true"; // a bare --flag means true
    }
    else if (hasValue && text)
    {
        flag->text = ""; // --file= : none
    }
    else
    {
        std::string why = hasValue ? flag->check("") : "";
        Fail(name, "", why.empty() ? "needs a value (--" + name + "=VALUE)" : why);
    }
    return true;
}

void
TaggerCommandLine::CheckFiles() const
{
    CheckFilesApart();
    for (const Flag& flag : m_flags)
    {
        if (flag.text.empty())
        {
            continue;
        }
        if (flag.kind == "input")
        {
            CheckReadableFile(flag.name, flag.text);
        }
        for (const std::string& suffix : flag.suffixes)
        {
            CheckWritable(flag.name, flag.text + suffix, suffix.empty() ? "" : flag.text);
        }
    }
}

std::string
TaggerCommandLine::Naming(const Flag& flag)
{
    if (flag.origin.empty())
    {
        return "--" + flag.name + "=" + flag.text;
    }
    std::size_t place = flag.origin.find(": "); // after "--config=FILE"
    return flag.origin.substr(place == std::string::npos ? 0 : place + 2) + " (" + flag.text + ")";
}

void
TaggerCommandLine::CheckFilesApart() const
{
    struct Named
    {
        const Flag* flag; // the flag that names the file
        std::string path; // the file
    };

    std::vector<Named> inputs;
    std::vector<Named> outputs;
    for (const Flag& flag : m_flags)
    {
        if (flag.text.empty())
        {
            continue;
        }
        if (flag.kind == "input")
        {
            inputs.push_back({&flag, flag.text});
        }
        for (const std::string& suffix : flag.suffixes)
        {
            outputs.push_back({&flag, flag.text + suffix});
        }
    }
    for (std::size_t i = 0; i < outputs.size(); ++i)
    {
        const Named& out = outputs[i];
        for (const Named& in : inputs)
        {
            if (tagger::SameFile(out.path, in.path))
            {
                Fail(out.flag->name,
                     out.flag->text,
                     "writes " + out.path + ", the file " + Naming(*in.flag) +
                         " is read from (an output never overwrites an input)");
            }
        }
        for (std::size_t j = 0; j < i; ++j)
        {
            if (tagger::SameFile(out.path, outputs[j].path))
            {
                Fail(out.flag->name,
                     out.flag->text,
                     "writes " + out.path + ", which " + Naming(*outputs[j].flag) +
                         " writes too (one file per output)");
            }
        }
    }
}

void
TaggerCommandLine::PrintFlagTable(std::ostream& os) const
{
    for (const Flag& flag : m_flags)
    {
        os << flag.name << "\t" << flag.kind;
        if (!flag.bounds.empty())
        {
            os << "\t" << flag.bounds;
        }
        os << "\n";
    }
}

void
TaggerCommandLine::Fail(const std::string& flag,
                        const std::string& value,
                        const std::string& why) const
{
    for (const Flag& f : m_flags)
    {
        if (f.name == flag && !f.origin.empty())
        {
            std::cerr << m_program << ": " << tagger::PrintableText(f.origin) << " "
                      << tagger::PrintableText(value) << ": " << tagger::PrintableText(why)
                      << std::endl;
            std::exit(2);
        }
    }
    std::cerr << m_program << ": --" << flag << "=" << tagger::PrintableText(value) << ": "
              << tagger::PrintableText(why) << std::endl;
    std::exit(2);
}

bool
TaggerCommandLine::TakeFile(const std::string& name,
                            const std::string& path,
                            const std::string& origin,
                            std::string& variable)
{
    for (Flag& flag : m_flags)
    {
        if (flag.name != name)
        {
            continue;
        }
        NS_ABORT_MSG_UNLESS(flag.kind == "input" || flag.kind == "output",
                            "TakeFile: --" << name << " is not a file flag");
        if (flag.given)
        {
            return false;
        }
        flag.text = path;
        flag.origin = origin;
        variable = path;
        return true;
    }
    NS_ABORT_MSG("TakeFile: no flag --" << name);
}

void
TaggerCommandLine::CheckFileFlags() const
{
    CheckFiles();
}

bool
TaggerCommandLine::WasGiven(const std::string& name) const
{
    for (const Flag& flag : m_flags)
    {
        if (flag.name == name)
        {
            return flag.given;
        }
    }
    NS_ABORT_MSG("WasGiven: no flag --" << name);
}

void
TaggerCommandLine::ReapplyAttributeArguments() const
{
    for (const auto& [name, value] : m_attributeArgs)
    {
        Config::SetDefaultFailSafe(name, StringValue(value));
    }
}

uint64_t
TaggerCommandLine::CheckedMultiply(const std::string& nameA,
                                   uint64_t a,
                                   const std::string& nameB,
                                   uint64_t b,
                                   uint64_t max) const
{
    if (a != 0 && b > max / a)
    {
        std::cerr << m_program << ": --" << nameA << "=" << a << " times --" << nameB << "=" << b
                  << " must be at most " << max << std::endl;
        std::exit(2);
    }
    return a * b;
}

void
TaggerCommandLine::CheckMemory(const std::string& flag,
                               const std::string& value,
                               const tagger::Topology& topology,
                               uint64_t flows) const
{
    const std::string why = PfcTopologyHelper::CheckMemory(topology, flows);
    if (!why.empty())
    {
        Fail(flag, value, why);
    }
}

void
TaggerCommandLine::CheckFlowBytes(const std::string& flag,
                                  const std::string& value,
                                  uint64_t bytes,
                                  const std::string& what) const
{
    const uint64_t max = RdmaNic::GetMaxFlowBytes();
    if (bytes > max)
    {
        Fail(flag,
             value,
             what + " of " + std::to_string(bytes) + " bytes is more than the " +
                 std::to_string(max) + " one RoCE flow may carry (" +
                 std::to_string(RdmaNic::kMaxFlowPackets) +
                 " packets of ns3::RdmaNic::PayloadSize bytes: 24-bit PSNs)");
    }
}

void
TaggerCommandLine::AddLeafSpine(uint32_t& leaves, uint32_t& spines, uint32_t& hostsPerLeaf)
{
    AddInteger("leaves", "number of leaf (ToR) switches", leaves, 1, kMaxCount);
    AddInteger("spines", "number of spine switches", spines, 1, kMaxCount);
    AddInteger("hosts-per-leaf", "hosts on each leaf", hostsPerLeaf, 1, kMaxCount);
}

uint64_t
TaggerCommandLine::CheckLeafSpine(uint32_t leaves, uint32_t spines, uint32_t hostsPerLeaf) const
{
    CheckedMultiply("leaves", leaves, "spines", spines, kMaxHosts);
    uint64_t hosts = CheckedMultiply("leaves", leaves, "hosts-per-leaf", hostsPerLeaf, kMaxHosts);
    if (hosts < 2)
    {
        Fail("hosts-per-leaf",
             std::to_string(hostsPerLeaf),
             "with --leaves=" + std::to_string(leaves) + " makes fewer than 2 hosts");
    }
    return hosts;
}

void
TaggerCommandLine::CheckSenders(uint32_t senders, uint64_t hosts) const
{
    if (senders < 1 || senders >= hosts)
    {
        Fail("senders",
             std::to_string(senders),
             "must be an integer from 1 to " + std::to_string(hosts - 1) + " (" +
                 std::to_string(hosts) + " hosts)");
    }
}

void
TaggerCommandLine::OpenOutput(const std::string& flag,
                              const std::string& path,
                              std::ofstream& file,
                              const std::string& value) const
{
    file.open(path, std::ios::out | std::ios::trunc);
    if (!file.is_open())
    {
        Fail(flag, value.empty() ? path : value, "cannot create " + path + " for writing");
    }
}

void
TaggerCommandLine::CloseOutput(const std::string& flag,
                               const std::string& path,
                               std::ofstream& file,
                               const std::string& value) const
{
    file.flush();
    bool good = file.good();
    file.close();
    if (!good || file.fail())
    {
        Fail(flag, value.empty() ? path : value, "writing " + path + " failed (device full?)");
    }
}

void
TaggerCommandLine::CheckWritable(const std::string& flag,
                                 const std::string& path,
                                 const std::string& value) const
{
    struct stat info;
    bool device = stat(path.c_str(), &info) == 0 && S_ISCHR(info.st_mode);
    std::ofstream file;
    OpenOutput(flag, path, file, value);
    if (device)
    {
        file << '\n'; // a full device (such as /dev/full) fails only on a write
    }
    CloseOutput(flag, path, file, value);
}

void
TaggerCommandLine::CheckReadableFile(const std::string& flag, const std::string& path) const
{
    struct stat info;
    if (stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode))
    {
        Fail(flag, path, "must be an existing regular file");
    }
    std::ifstream file(path);
    if (!file.is_open())
    {
        Fail(flag, path, "cannot be read");
    }
}

Time
TaggerCommandLine::MilliSecondsToTime(double ms)
{
    return MicroSeconds(uint64_t(ms * 1000));
}

std::string
TaggerCommandLine::FormatNumber(double x)
{
    return ShortestText(x);
}

uint32_t
TaggerCommandLine::GetMaxUdpPayload(const std::string& deviceType)
{
    TypeId::AttributeInformation info;
    bool found = TypeId::LookupByName(deviceType).LookupAttributeByName("Mtu", &info);
    NS_ABORT_MSG_UNLESS(found, deviceType << " has no Mtu attribute");
    Ptr<const UintegerValue> mtu = DynamicCast<const UintegerValue>(info.initialValue);
    NS_ABORT_MSG_UNLESS(mtu, deviceType << "::Mtu is not an integer");
    uint64_t headers = 20 + 8; // IPv4 and UDP
    return mtu->Get() > headers ? uint32_t(mtu->Get() - headers) : 0;
}

std::string
TaggerCommandLine::GetText(const std::string& name) const
{
    for (const Flag& flag : m_flags)
    {
        if (flag.name == name)
        {
            return flag.text;
        }
    }
    NS_FATAL_ERROR("TaggerCommandLine::GetText: no flag --" << name);
    return "";
}

CommandLine&
TaggerCommandLine::GetCommandLine()
{
    return m_cmd;
}

} // namespace ns3
