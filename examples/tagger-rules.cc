/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * tagger-rules: compute Tagger tag-rewriting rules offline for a topology and
 * a set of expected lossless paths (ELP), verify them, print a summary and
 * optionally write everything as JSON.
 *
 * Tagger: Hu et al., "Tagger: Practical PFC Deadlock Prevention in Data
 * Center Networks", CoNEXT 2017 (sections IV-VII).
 *
 * Exit codes: 0 success; 2 bad input (one line on stderr naming the problem);
 * 3 the verifier rejected the computed rules (a bug in the library).
 */

#include "ns3/command-line.h"
#include "ns3/tagger-algorithms.h"
#include "ns3/tagger-elp.h"
#include "ns3/tagger-io.h"
#include "ns3/tagger-rule-table.h"
#include "ns3/tagger-topology-generators.h"
#include "ns3/tagger-topology.h"
#include "ns3/tagger-verifier.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <exception>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <new>
#include <sstream>
#include <stdexcept>
#include <string>
#include <sys/resource.h>
#include <vector>

using namespace ns3;
using namespace ns3::tagger;

namespace
{

/// Program name used as the prefix of every error line.
const char* const kProgram = "tagger-rules";

constexpr int kExitBadInput = 2; //!< bad input: one line on stderr
constexpr int kExitBug = 3;      //!< the verifier rejected our own output

/// Keep explicit ELP paths (and allow --emit-elp) up to this many paths.
constexpr uint64_t kMaxExplicitPaths = 1000000;

/**
 * \brief The verifier rejected the rules computed by the library: this is a
 * bug of ours, reported with exit code 3.
 */
class VerificationFailure : public std::runtime_error
{
  public:
    explicit VerificationFailure(const std::string& what)
        : std::runtime_error(what)
    {
    }
};

/// How a flag's value is checked before ns3::CommandLine sees it.
enum class FlagType
{
    TEXT,   //!< any string (a name, a file name); a value is required
    NUMBER, //!< a non-negative integer, converted by ToUint()
    BOOL    //!< true/false/1/0/t/f, or no value (true)
};

/// One command-line flag: its text value as given, and whether it was given.
struct Flag
{
    std::string name;
    std::string help;
    FlagType type;
    std::string value; //!< the default until given (TEXT and NUMBER)
    bool boolValue{false};
    bool given{false};
};

/**
 * \brief The flags of tagger-rules, registered with ns3::CommandLine.
 *
 * Every argument is checked here first, so that an unknown flag, a missing or
 * malformed value gives one error line (exit code 2) instead of
 * CommandLine's usage dump (exit code 1) or a fatal error.  Numbers are kept
 * as strings for CommandLine and converted with a checked converter.
 */
class Flags
{
  public:
    /// Register a flag (defaults are shown by --help).
    void Add(const std::string& name,
             const std::string& help,
             FlagType type,
             const std::string& defaultValue = "")
    {
        m_flags.push_back(Flag{name, help, type, defaultValue, false, false});
        m_index[name] = m_flags.size() - 1;
    }

    /// The flag called name (which must have been registered).
    const Flag& Get(const std::string& name) const
    {
        return m_flags[m_index.at(name)];
    }

    bool Given(const std::string& name) const
    {
        return Get(name).given;
    }

    const std::string& Value(const std::string& name) const
    {
        return Get(name).value;
    }

    /**
     * Check argv against the registered flags and CommandLine's own general
     * arguments, then let ns3::CommandLine parse a normalised copy (which
     * handles --help / --PrintHelp and the other --Print* arguments itself).
     * Throws TaggerError naming the offending argument.
     */
    void Parse(int argc, char* argv[], const std::string& usage)
    {
        CommandLine cmd(__FILE__);
        cmd.Usage(usage);
        for (auto& f : m_flags)
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

        std::vector<std::string> args;
        args.emplace_back(argc > 0 ? argv[0] : kProgram);
        for (int i = 1; i < argc; ++i)
        {
            args.push_back(CheckArgument(argv[i]));
        }
        cmd.Parse(args);
    }

  private:
    /// Validate one argument; return it in the form --name[=value].
    std::string CheckArgument(const std::string& arg)
    {
        if (arg.size() < 2 || arg[0] != '-')
        {
            throw TaggerError("unexpected argument '" + arg +
                              "' (flags are written --name=value; see --help)");
        }
        std::string body = arg.substr(arg[1] == '-' ? 2 : 1);
        const std::size_t eq = body.find('=');
        const bool hasValue = eq != std::string::npos;
        const std::string name = body.substr(0, eq);
        const std::string value = hasValue ? body.substr(eq + 1) : "";

        // ns3::CommandLine's general arguments.
        static const char* const general[] =
            {"help", "PrintHelp", "PrintVersion", "PrintGlobals", "PrintGroups", "PrintTypeIds"};
        for (const char* g : general)
        {
            if (name == g)
            {
                return "--" + name;
            }
        }
        if (name == "PrintGroup" || name == "PrintAttributes")
        {
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

        auto it = m_index.find(name);
        if (name.empty() || it == m_index.end())
        {
            throw TaggerError("unknown flag '--" + name + "' (see --help)");
        }
        Flag& f = m_flags[it->second];
        f.given = true;
        switch (f.type)
        {
        case FlagType::BOOL: {
            std::string v = value;
            std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) {
                return static_cast<char>(std::tolower(c));
            });
            if (!hasValue || v == "true" || v == "t" || v == "1")
            {
                f.boolValue = true;
            }
            else if (v == "false" || v == "f" || v == "0")
            {
                f.boolValue = false;
            }
            else
            {
                throw TaggerError("--" + name + "='" + value +
                                  "' is not a boolean (true, false, 1 or 0)");
            }
            return "--" + name + "=" + (f.boolValue ? "true" : "false");
        }
        case FlagType::NUMBER:
        case FlagType::TEXT:
            if (!hasValue || value.empty())
            {
                // (CommandLine rejects an empty value too)
                throw TaggerError("--" + name + " needs a value, as in --" + name +
                                  (f.type == FlagType::NUMBER ? "=<number>" : "=<value>"));
            }
            f.value = value;
            return "--" + name + "=" + value;
        }
        return arg;
    }

    std::deque<Flag> m_flags; //!< deque: CommandLine keeps references to the values
    std::map<std::string, std::size_t> m_index;
};

/**
 * Convert a NUMBER flag: digits only, within [lo, hi].  Throws TaggerError
 * naming the flag and the value.
 */
uint64_t
ToUint(const Flags& flags, const std::string& name, uint64_t lo, uint64_t hi)
{
    const std::string& s = flags.Value(name);
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
    {
        throw TaggerError("--" + name + "='" + s + "' is not a number (expected an integer from " +
                          std::to_string(lo) + " to " + std::to_string(hi) + ")");
    }
    uint64_t v = 0;
    bool overflow = false;
    for (char c : s)
    {
        const uint64_t d = static_cast<uint64_t>(c - '0');
        if (v > (UINT64_MAX - d) / 10)
        {
            overflow = true;
            break;
        }
        v = v * 10 + d;
    }
    if (overflow || v < lo || v > hi)
    {
        throw TaggerError("--" + name + "=" + s + " is out of range (" + std::to_string(lo) +
                          " to " + std::to_string(hi) + ")");
    }
    return v;
}

uint32_t
ToUint32(const Flags& flags, const std::string& name, uint32_t lo, uint32_t hi)
{
    return static_cast<uint32_t>(ToUint(flags, name, lo, hi));
}

/// Check a TEXT flag against a list of choices; throws naming the value.
const std::string&
Choice(const Flags& flags, const std::string& name, const std::vector<std::string>& choices)
{
    const std::string& v = flags.Value(name);
    if (std::find(choices.begin(), choices.end(), v) == choices.end())
    {
        std::string list;
        for (const auto& c : choices)
        {
            list += (list.empty() ? "" : "|") + c;
        }
        throw TaggerError("--" + name + "='" + v + "' is not one of " + list);
    }
    return v;
}

/// Throw when any of names was given: it does not apply in context `where`.
void
RejectFlags(const Flags& flags, const std::vector<std::string>& names, const std::string& where)
{
    for (const auto& n : names)
    {
        if (flags.Given(n))
        {
            throw TaggerError("--" + n + " does not apply to " + where);
        }
    }
}

/// Everything tagger-rules was asked to do, checked and converted.
struct Options
{
    std::string topology;     //!< generator name, or "" with topologyFile
    std::string topologyFile; //!< topology file, or ""
    ClosParams clos;
    uint32_t k{4};
    uint32_t switches{16};
    uint32_t ports{8};
    uint32_t switchPorts{4};
    uint32_t bcubeN{4};
    uint32_t bcubeK{1};
    uint32_t hostsPerSwitch{1};
    uint64_t seed{1};

    std::string elp; //!< family name, or "" with elpFile
    std::string elpFile;
    uint32_t bounces{1};
    bool bouncesGiven{false};
    uint32_t kPaths{2};
    uint64_t extraRandomPaths{0};

    std::string algorithm;
    uint32_t classes{1};
    uint32_t maxLossless{0}; //!< 0: no limit
    std::string json;
    bool emitElp{false};
    TaggingOptions tagging;
};

const char* const kUsage =
    "Compute Tagger tag-rewriting rules offline (Hu et al., CoNEXT 2017) for a\n"
    "topology and a set of expected lossless paths (ELP), verify them (no cycle\n"
    "within a tag, no tag decrease, every ELP path lossless), print a summary\n"
    "whose last line starts with RESULT, and optionally write JSON.\n"
    "Exit codes: 0 ok, 2 bad input (one line on stderr), 3 verification failed.\n"
    "Examples:\n"
    "  tagger-rules --topology=clos --elp=bounce --bounces=1 --algorithm=clos\n"
    "  tagger-rules --topology=jellyfish --switches=100 --ports=32 --switch-ports=16 "
    "--elp=trees\n"
    "  tagger-rules --topology-file=net.json --elp-file=paths.txt --algorithm=bruteforce";

/// Register the flags, parse argv and convert everything into Options.
Options
ParseOptions(int argc, char* argv[])
{
    const ClosParams tb = PaperTestbedClos();
    Flags flags;
    flags.Add("topology",
              "Topology generator: clos|fattree|jellyfish|bcube|f10 (default clos, the paper's "
              "testbed)",
              FlagType::TEXT,
              "clos");
    flags.Add("topology-file",
              "Read the topology from FILE instead (JSON, or GraphML when the name ends in "
              ".graphml/.xml or the text starts with '<')",
              FlagType::TEXT);
    flags.Add("hosts-per-switch",
              "GraphML topology file: hosts attached to every switch",
              FlagType::NUMBER,
              "1");
    flags.Add("pods", "clos: number of pods", FlagType::NUMBER, std::to_string(tb.pods));
    flags.Add("tors-per-pod",
              "clos: ToR switches per pod",
              FlagType::NUMBER,
              std::to_string(tb.torsPerPod));
    flags.Add("leafs-per-pod",
              "clos: Leaf switches per pod",
              FlagType::NUMBER,
              std::to_string(tb.leafsPerPod));
    flags.Add("spines", "clos: spine switches", FlagType::NUMBER, std::to_string(tb.spines));
    flags.Add("spines-per-leaf",
              "clos: spine links per Leaf",
              FlagType::NUMBER,
              std::to_string(tb.spinesPerLeaf));
    flags.Add("hosts-per-tor",
              "clos: hosts per ToR",
              FlagType::NUMBER,
              std::to_string(tb.hostsPerTor));
    flags.Add("k",
              "fattree, f10: k (even, ports per switch); bcube: BCube(n,k) has k+1 levels",
              FlagType::NUMBER,
              "4");
    flags.Add("switches", "jellyfish: number of switches", FlagType::NUMBER, "16");
    flags.Add("ports", "jellyfish: ports per switch", FlagType::NUMBER, "8");
    flags.Add("switch-ports",
              "jellyfish: ports per switch that go to other switches (the rest to hosts)",
              FlagType::NUMBER,
              "4");
    flags.Add("n", "bcube: ports per switch (servers per level-0 switch)", FlagType::NUMBER, "4");
    flags.Add("levels",
              "bcube: levels of switches (= k+1; default 2, i.e. BCube(n,1))",
              FlagType::NUMBER,
              "2");
    flags.Add("seed",
              "Random seed (jellyfish wiring, tie breaks in trees, random paths)",
              FlagType::NUMBER,
              "1");
    flags.Add("elp",
              "ELP family: shortest|trees|updown|bounce|kshortest",
              FlagType::TEXT,
              "shortest");
    flags.Add("elp-file",
              "Read ELP paths from FILE instead (one path per line: node names separated by "
              "spaces, '#' comments)",
              FlagType::TEXT);
    flags.Add("bounces",
              "bounce ELP: bounces allowed per path (updown = bounce with 0); clos algorithm: "
              "bounces tolerated",
              FlagType::NUMBER,
              "1");
    flags.Add("paths", "kshortest ELP: paths per host pair", FlagType::NUMBER, "2");
    flags.Add("extra-random-paths",
              "Add N random loop-free host-to-host paths to the ELP",
              FlagType::NUMBER,
              "0");
    flags.Add("algorithm", "Tagging algorithm: greedy|bruteforce|clos", FlagType::TEXT, "greedy");
    flags.Add("classes", "Application classes (class c starts with tag c)", FlagType::NUMBER, "1");
    flags.Add("max-lossless",
              "Fail (exit 2) when the rules need more lossless tags than N (0: no limit)",
              FlagType::NUMBER,
              "0");
    flags.Add("json", "Write topology, rules, TCAM entries and stats to FILE", FlagType::TEXT);
    flags.Add("emit-elp",
              "With --json: also write the explicit ELP paths (\"elp\" array)",
              FlagType::BOOL);
    flags.Add("cycle-check",
              "greedy: cycle check per merge, incremental|naive",
              FlagType::TEXT,
              "incremental");
    flags.Add("greedy-order", "greedy: tag order, local|paper", FlagType::TEXT, "local");

    flags.Parse(argc, argv, kUsage);

    Options o;
    o.seed = ToUint(flags, "seed", 0, UINT64_MAX);

    // Topology.
    const std::vector<std::string> closFlags =
        {"pods", "tors-per-pod", "leafs-per-pod", "spines", "spines-per-leaf", "hosts-per-tor"};
    const std::vector<std::string> allGenFlags = {"pods",
                                                  "tors-per-pod",
                                                  "leafs-per-pod",
                                                  "spines",
                                                  "spines-per-leaf",
                                                  "hosts-per-tor",
                                                  "k",
                                                  "switches",
                                                  "ports",
                                                  "switch-ports",
                                                  "n",
                                                  "levels"};
    if (flags.Given("topology-file"))
    {
        if (flags.Given("topology"))
        {
            throw TaggerError("give either --topology or --topology-file, not both");
        }
        o.topologyFile = flags.Value("topology-file");
        if (o.topologyFile.empty())
        {
            throw TaggerError("--topology-file needs a file name");
        }
        RejectFlags(flags, allGenFlags, "--topology-file (it is for --topology generators)");
        o.hostsPerSwitch = ToUint32(flags, "hosts-per-switch", 0, 1024);
    }
    else
    {
        o.topology = Choice(flags, "topology", {"clos", "fattree", "jellyfish", "bcube", "f10"});
        RejectFlags(flags, {"hosts-per-switch"}, "--topology (only to a GraphML --topology-file)");
        const std::string where = "--topology=" + o.topology;
        std::vector<std::string> notHere;
        std::vector<std::string> here;
        if (o.topology == "clos")
        {
            here = closFlags;
        }
        else if (o.topology == "fattree" || o.topology == "f10")
        {
            here = {"k"};
        }
        else if (o.topology == "jellyfish")
        {
            here = {"switches", "ports", "switch-ports"};
        }
        else
        {
            here = {"n", "levels", "k"};
        }
        for (const auto& f : allGenFlags)
        {
            if (std::find(here.begin(), here.end(), f) == here.end())
            {
                notHere.push_back(f);
            }
        }
        RejectFlags(flags, notHere, where);

        if (o.topology == "clos")
        {
            o.clos.pods = ToUint32(flags, "pods", 1, 4096);
            o.clos.torsPerPod = ToUint32(flags, "tors-per-pod", 1, 4096);
            o.clos.leafsPerPod = ToUint32(flags, "leafs-per-pod", 1, 4096);
            o.clos.spines = ToUint32(flags, "spines", 1, 65536);
            o.clos.spinesPerLeaf = ToUint32(flags, "spines-per-leaf", 1, 65536);
            o.clos.hostsPerTor = ToUint32(flags, "hosts-per-tor", 1, 4096);
            if (o.clos.spinesPerLeaf > o.clos.spines)
            {
                throw TaggerError(
                    "--spines-per-leaf=" + std::to_string(o.clos.spinesPerLeaf) +
                    " is out of range (at most --spines=" + std::to_string(o.clos.spines) + ")");
            }
            const uint64_t hosts = uint64_t{o.clos.pods} * o.clos.torsPerPod * o.clos.hostsPerTor;
            if (hosts > 4000000)
            {
                throw TaggerError("clos: " + std::to_string(hosts) +
                                  " hosts is too large (at most 4000000)");
            }
        }
        else if (o.topology == "fattree" || o.topology == "f10")
        {
            o.k = ToUint32(flags, "k", 2, 128);
            if (o.k % 2 != 0)
            {
                throw TaggerError("--k=" + std::to_string(o.k) + " must be even for " + where);
            }
            if (o.topology == "f10" && o.k < 4)
            {
                throw TaggerError("--k=" + std::to_string(o.k) +
                                  " is out of range for --topology=f10 (at least 4)");
            }
        }
        else if (o.topology == "jellyfish")
        {
            o.switches = ToUint32(flags, "switches", 2, 100000);
            o.ports = ToUint32(flags, "ports", 1, 4096);
            o.switchPorts = ToUint32(flags, "switch-ports", 1, 4096);
            if (o.switchPorts > o.ports)
            {
                throw TaggerError("--switch-ports=" + std::to_string(o.switchPorts) +
                                  " is out of range (at most --ports=" + std::to_string(o.ports) +
                                  ")");
            }
            if (o.switchPorts >= o.switches)
            {
                throw TaggerError(
                    "--switch-ports=" + std::to_string(o.switchPorts) +
                    " is out of range (less than --switches=" + std::to_string(o.switches) + ")");
            }
            if (o.switchPorts < 2 && o.switches > 2)
            {
                throw TaggerError("--switch-ports=" + std::to_string(o.switchPorts) +
                                  " cannot connect " + std::to_string(o.switches) +
                                  " switches (at least 2)");
            }
            if ((uint64_t{o.switches} * o.switchPorts) % 2 != 0)
            {
                throw TaggerError("--switches=" + std::to_string(o.switches) +
                                  " times --switch-ports=" + std::to_string(o.switchPorts) +
                                  " must be even (every link uses two switch ports)");
            }
        }
        else // bcube
        {
            o.bcubeN = ToUint32(flags, "n", 2, 1024);
            if (flags.Given("k") && flags.Given("levels"))
            {
                const uint32_t k = ToUint32(flags, "k", 0, 19);
                const uint32_t levels = ToUint32(flags, "levels", 1, 20);
                if (levels != k + 1)
                {
                    throw TaggerError("--levels=" + std::to_string(levels) + " contradicts --k=" +
                                      std::to_string(k) + " (BCube(n,k) has k+1 levels)");
                }
            }
            o.bcubeK = flags.Given("k") ? ToUint32(flags, "k", 0, 19)
                                        : ToUint32(flags, "levels", 1, 20) - 1;
            uint64_t servers = 1;
            for (uint32_t i = 0; i <= o.bcubeK; ++i)
            {
                servers *= o.bcubeN;
                if (servers > 4000000)
                {
                    throw TaggerError("bcube: --n=" + std::to_string(o.bcubeN) + " with " +
                                      std::to_string(o.bcubeK + 1) +
                                      " levels is too large (more than 4000000 servers)");
                }
            }
        }
    }

    // ELP.
    if (flags.Given("elp-file"))
    {
        if (flags.Given("elp"))
        {
            throw TaggerError("give either --elp or --elp-file, not both");
        }
        o.elpFile = flags.Value("elp-file");
        if (o.elpFile.empty())
        {
            throw TaggerError("--elp-file needs a file name");
        }
        RejectFlags(flags, {"paths"}, "--elp-file (only to --elp=kshortest)");
    }
    else
    {
        o.elp = Choice(flags, "elp", {"shortest", "trees", "updown", "bounce", "kshortest"});
        if (o.elp != "kshortest")
        {
            RejectFlags(flags, {"paths"}, "--elp=" + o.elp + " (only to --elp=kshortest)");
        }
        o.kPaths = ToUint32(flags, "paths", 1, 1000);
    }
    o.extraRandomPaths = ToUint(flags, "extra-random-paths", 0, 100000000);

    // Algorithm.
    o.algorithm = Choice(flags, "algorithm", {"greedy", "bruteforce", "clos"});
    if (o.elp != "bounce" && o.algorithm != "clos")
    {
        RejectFlags(flags,
                    {"bounces"},
                    (o.elpFile.empty() ? "--elp=" + o.elp : std::string("--elp-file")) +
                        " with --algorithm=" + o.algorithm +
                        " (only to --elp=bounce or --algorithm=clos)");
    }
    o.bounces = ToUint32(flags, "bounces", 0, kMaxTag - 1);
    o.bouncesGiven = flags.Given("bounces");
    if (o.algorithm != "greedy")
    {
        RejectFlags(flags,
                    {"cycle-check", "greedy-order"},
                    "--algorithm=" + o.algorithm + " (only to --algorithm=greedy)");
    }
    o.tagging.cycleCheck = Choice(flags, "cycle-check", {"incremental", "naive"}) == "naive"
                               ? CycleCheck::NAIVE
                               : CycleCheck::INCREMENTAL;
    o.tagging.order = Choice(flags, "greedy-order", {"local", "paper"}) == "paper"
                          ? GreedyOrder::PAPER
                          : GreedyOrder::LOCAL;
    o.classes = ToUint32(flags, "classes", 1, kMaxTag);
    o.tagging.classes = o.classes;
    o.maxLossless = ToUint32(flags, "max-lossless", 0, kMaxTag);

    // Output.
    o.json = flags.Value("json");
    if (flags.Given("json") && o.json.empty())
    {
        throw TaggerError("--json needs a file name");
    }
    o.emitElp = flags.Get("emit-elp").boolValue;
    if (o.emitElp && o.json.empty())
    {
        throw TaggerError("--emit-elp needs --json=FILE");
    }
    return o;
}

/// Wall-clock seconds since construction or the last Lap().
class Stopwatch
{
  public:
    double Lap()
    {
        const auto now = std::chrono::steady_clock::now();
        const double s = std::chrono::duration<double>(now - m_last).count();
        m_last = now;
        return s;
    }

  private:
    std::chrono::steady_clock::time_point m_last{std::chrono::steady_clock::now()};
};

/// Throw TaggerError when a file cannot be opened for reading.
void
CheckReadable(const std::string& file)
{
    std::ifstream in(file);
    if (!in)
    {
        throw TaggerError("cannot read '" + file + "': " + std::strerror(errno));
    }
}

/// true when the file looks like GraphML (same rule as ReadTopologyFile).
bool
LooksLikeGraphml(const std::string& file)
{
    auto endsWith = [&file](const std::string& suffix) {
        return file.size() >= suffix.size() &&
               file.compare(file.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    if (endsWith(".graphml") || endsWith(".xml"))
    {
        return true;
    }
    std::ifstream in(file);
    char c = 0;
    while (in.get(c) && std::isspace(static_cast<unsigned char>(c)))
    {
    }
    return in && c == '<';
}

/// Build the topology and describe it ("clos (pods=2 ...)").
Topology
BuildTopology(const Options& o, std::string& description)
{
    std::ostringstream d;
    Topology topo;
    if (!o.topologyFile.empty())
    {
        CheckReadable(o.topologyFile);
        const bool graphml = LooksLikeGraphml(o.topologyFile);
        topo = ReadTopologyFile(o.topologyFile, o.hostsPerSwitch);
        d << "file " << o.topologyFile << " ("
          << (graphml ? "GraphML, hosts-per-switch=" + std::to_string(o.hostsPerSwitch) : "JSON")
          << ")";
    }
    else if (o.topology == "clos")
    {
        topo = MakeClos(o.clos);
        const ClosParams tb = PaperTestbedClos();
        const ClosParams& c = o.clos;
        d << "clos (pods=" << c.pods << " tors-per-pod=" << c.torsPerPod
          << " leafs-per-pod=" << c.leafsPerPod << " spines=" << c.spines
          << " spines-per-leaf=" << c.spinesPerLeaf << " hosts-per-tor=" << c.hostsPerTor << ")";
        if (c.pods == tb.pods && c.torsPerPod == tb.torsPerPod && c.leafsPerPod == tb.leafsPerPod &&
            c.spines == tb.spines && c.spinesPerLeaf == tb.spinesPerLeaf &&
            c.hostsPerTor == tb.hostsPerTor)
        {
            d << ", the paper's testbed (Fig. 2)";
        }
    }
    else if (o.topology == "fattree")
    {
        topo = MakeFatTree(o.k);
        d << "fattree (k=" << o.k << ")";
    }
    else if (o.topology == "f10")
    {
        topo = MakeF10(o.k);
        d << "f10 (k=" << o.k << ")";
    }
    else if (o.topology == "jellyfish")
    {
        topo = MakeJellyfish(o.switches, o.ports, o.switchPorts, o.seed);
        d << "jellyfish (switches=" << o.switches << " ports=" << o.ports
          << " switch-ports=" << o.switchPorts << " seed=" << o.seed << ")";
    }
    else
    {
        topo = MakeBCube(o.bcubeN, o.bcubeK);
        d << "bcube (n=" << o.bcubeN << " k=" << o.bcubeK << ", " << o.bcubeK + 1 << " levels)";
    }
    description = d.str();
    return topo;
}

/// Bounces of a path in a layered topology: a node entered from a higher
/// layer and left toward a higher layer.
uint32_t
CountBounces(const Topology& topo, const Path& p)
{
    uint32_t b = 0;
    for (std::size_t i = 1; i + 1 < p.size(); ++i)
    {
        const int32_t here = topo.GetNode(p[i]).layer;
        if (topo.GetNode(p[i - 1]).layer > here && topo.GetNode(p[i + 1]).layer > here)
        {
            ++b;
        }
    }
    return b;
}

/// Build the ELP and describe it.
Elp
BuildElp(const Options& o, const Topology& topo, std::string& description)
{
    ElpOptions eo;
    eo.maxExplicitPaths = kMaxExplicitPaths;
    eo.seed = o.seed;
    std::ostringstream d;
    Elp elp;
    if (!o.elpFile.empty())
    {
        CheckReadable(o.elpFile);
        elp = ReadElpFile(topo, o.elpFile);
        d << "file " << o.elpFile;
    }
    else
    {
        if ((o.elp == "updown" || o.elp == "bounce") && !topo.IsLayered())
        {
            throw TaggerError("--elp=" + o.elp +
                              " needs a layered (Clos) topology, and this one has no layers");
        }
        if (o.elp == "shortest")
        {
            elp = MakeShortestPathElp(topo, eo);
            d << "shortest (all equal-cost shortest paths)";
        }
        else if (o.elp == "trees")
        {
            elp = MakeShortestPathTreeElp(topo, eo);
            d << "trees (one shortest-path tree per destination switch, seed=" << o.seed << ")";
        }
        else if (o.elp == "updown")
        {
            elp = MakeUpDownElp(topo, 0, eo);
            d << "updown (up-down paths, no bounce)";
        }
        else if (o.elp == "bounce")
        {
            elp = MakeUpDownElp(topo, o.bounces, eo);
            d << "bounce (up-down paths with up to " << o.bounces << " bounce"
              << (o.bounces == 1 ? "" : "s") << ")";
        }
        else
        {
            elp = MakeKShortestElp(topo, o.kPaths, eo);
            d << "kshortest (" << o.kPaths << " shortest paths per host pair)";
        }
    }
    if (o.extraRandomPaths > 0)
    {
        AddRandomPaths(elp, topo, o.extraRandomPaths, o.seed);
        d << " + " << o.extraRandomPaths << " random paths (seed=" << o.seed << ")";
    }
    if (elp.pathCount == 0 || elp.graph.IsEmpty())
    {
        throw TaggerError("the ELP is empty: no host-to-host path (" + d.str() + ")");
    }
    const bool stored = elp.paths.size() == elp.pathCount;
    d << ": " << elp.pathCount << " paths, "
      << (stored ? "stored explicitly" : "kept as per-hop transitions only");
    description = d.str();
    return elp;
}

/// Plain-rule and TCAM-entry counts over a set of nodes.
struct RuleCounts
{
    uint32_t nodes{0};
    uint64_t maxRules{0};
    uint64_t sumRules{0};
    uint64_t maxTcam{0};
    uint64_t sumTcam{0};

    void Add(uint64_t rules, uint64_t tcam)
    {
        ++nodes;
        maxRules = std::max(maxRules, rules);
        sumRules += rules;
        maxTcam = std::max(maxTcam, tcam);
        sumTcam += tcam;
    }

    double MeanRules() const
    {
        return nodes == 0 ? 0.0 : static_cast<double>(sumRules) / nodes;
    }

    double MeanTcam() const
    {
        return nodes == 0 ? 0.0 : static_cast<double>(sumTcam) / nodes;
    }
};

/// Peak resident set size in MB (getrusage ru_maxrss, KB on Linux).
double
PeakMemoryMb()
{
    struct rusage ru;
    std::memset(&ru, 0, sizeof(ru));
    getrusage(RUSAGE_SELF, &ru);
    return static_cast<double>(ru.ru_maxrss) / 1024.0;
}

std::string
Fixed(double v, int digits)
{
    std::ostringstream s;
    s << std::fixed << std::setprecision(digits) << v;
    return s.str();
}

/// Run the whole pipeline for the given options; return the exit code.
int
Run(const Options& o)
{
    Stopwatch watch;
    const auto start = std::chrono::steady_clock::now();

    // Phase 1: topology.
    std::string topoDescription;
    const Topology topo = BuildTopology(o, topoDescription);
    const std::vector<NodeId> switches = topo.GetSwitches();
    const std::vector<NodeId> hosts = topo.GetHosts();
    uint32_t relays = 0;
    for (NodeId h : hosts)
    {
        relays += topo.GetNode(h).relay ? 1 : 0;
    }
    if (hosts.size() < 2)
    {
        throw TaggerError("topology " + topoDescription + " has " + std::to_string(hosts.size()) +
                          " host(s); the ELP needs at least 2");
    }
    if (o.algorithm == "clos" && !topo.IsLayered())
    {
        throw TaggerError("--algorithm=clos needs a layered (Clos) topology, and " +
                          topoDescription + " has no layers");
    }
    const double tTopology = watch.Lap();

    // Phase 2: ELP.
    std::string elpDescription;
    Elp elp = BuildElp(o, topo, elpDescription);
    const bool stored = elp.paths.size() == elp.pathCount;
    // Longest path in links: from the paths themselves when all are stored (a
    // family's HopGraph can hold longer spliced walks), else from the ELP.
    uint32_t longest = elp.longestPath;
    if (stored)
    {
        longest = 0;
        for (const Path& p : elp.paths)
        {
            longest = std::max<uint32_t>(longest, static_cast<uint32_t>(p.size()) - 1);
        }
    }
    if (o.emitElp && !stored)
    {
        throw TaggerError("--emit-elp: the ELP has " + std::to_string(elp.pathCount) +
                          " paths, too many to store explicitly (limit " +
                          std::to_string(kMaxExplicitPaths) + "); drop --emit-elp");
    }
    // The Clos algorithm tolerates a fixed number of bounces: --bounces when
    // given, else the bounce family's K (0 for updown), else the most bounces
    // of any explicit ELP path (shortest paths and trees in a Clos: none).
    uint32_t closBounces = 0;
    bool closBouncesCounted = false;
    if (o.bouncesGiven || o.elp == "bounce")
    {
        closBounces = o.bounces;
    }
    else if (o.elp != "updown")
    {
        closBouncesCounted = true;
    }
    if (o.algorithm == "clos" && stored)
    {
        for (std::size_t i = 0; i < elp.paths.size(); ++i)
        {
            const uint32_t b = CountBounces(topo, elp.paths[i]);
            if (b > closBounces && !closBouncesCounted)
            {
                throw TaggerError("ELP path " + std::to_string(i + 1) + " bounces " +
                                  std::to_string(b) + " times, more than the " +
                                  std::to_string(closBounces) +
                                  " --algorithm=clos tolerates (--bounces)");
            }
            closBounces = std::max(closBounces, b);
        }
    }
    // Bounces guessed (0) for an ELP that is not enumerated.
    const bool closBouncesGuessed = closBouncesCounted && !stored;
    const double tElp = watch.Lap();

    // Phase 3: tagging.
    TagRules rules;
    GreedyStats greedyStats;
    std::string algoDescription;
    if (o.algorithm == "greedy")
    {
        rules = TagGreedy(elp.graph, o.tagging, greedyStats);
        algoDescription =
            std::string("greedy (Algorithm 2, order=") +
            (o.tagging.order == GreedyOrder::PAPER ? "paper" : "local") + ", cycle-check=" +
            (o.tagging.cycleCheck == CycleCheck::NAIVE ? "naive" : "incremental") + ")";
    }
    else if (o.algorithm == "bruteforce")
    {
        rules = TagBruteForce(elp.graph, o.tagging);
        algoDescription = "bruteforce (Algorithm 1, tag = hop number)";
    }
    else
    {
        rules = TagClos(topo, closBounces, o.tagging);
        algoDescription = "clos (bounce tagging, tolerates " + std::to_string(closBounces) +
                          " bounce" + (closBounces == 1 ? "" : "s") + ")";
    }
    const uint32_t lossless = rules.GetLosslessTags();
    if (o.maxLossless > 0 && lossless > o.maxLossless)
    {
        throw TaggerError(
            "the rules need " + std::to_string(lossless) +
            " lossless tags, more than --max-lossless=" + std::to_string(o.maxLossless));
    }
    const double tTagging = watch.Lap();

    // Phase 4: verification (always).  For the up-down families the verifier
    // checks the walk family itself (Elp::upDownBounces), not the HopGraph.
    const VerifyResult verdict = Verify(rules, elp, o.classes);
    if (!verdict.ok)
    {
        if (o.algorithm == "clos" && closBouncesGuessed && VerifyDeadlockFree(rules).ok)
        {
            // The ELP was not enumerated, so its bounces could not be counted:
            // the user has to say how many bounces the clos rules must tolerate.
            throw TaggerError(
                "--algorithm=clos tolerating " + std::to_string(closBounces) +
                " bounces does not cover the ELP (give --bounces=K): " + verdict.problem);
        }
        throw VerificationFailure("verification failed: " + verdict.problem);
    }
    const double tVerify = watch.Lap();

    // Phase 5: output.
    RuleCounts sw;
    RuleCounts relay;
    for (NodeId n = 0; n < topo.GetNNodes(); ++n)
    {
        if (!topo.IsForwarder(n))
        {
            continue;
        }
        const uint64_t plain = rules.CountRules(n);
        const uint64_t tcam = CompressTcam(rules, n).size();
        (topo.IsHost(n) ? relay : sw).Add(plain, tcam);
    }
    if (!o.json.empty())
    {
        RulesOutput out;
        out.losslessTags = lossless;
        out.rules = &rules;
        out.elp = o.emitElp ? &elp.paths : nullptr;
        auto d = [](auto v) { return static_cast<double>(v); };
        out.stats = {{"switches", d(switches.size())},
                     {"hosts", d(hosts.size())},
                     {"relay_hosts", d(relays)},
                     {"links", d(topo.GetLinks().size())},
                     {"elp_paths", d(elp.pathCount)},
                     {"longest", d(longest)},
                     {"lossless_tags", d(lossless)},
                     {"max_rules", d(sw.maxRules)},
                     {"mean_rules", sw.MeanRules()},
                     {"max_tcam", d(sw.maxTcam)},
                     {"mean_tcam", sw.MeanTcam()},
                     {"time_topology_s", tTopology},
                     {"time_elp_s", tElp},
                     {"time_tagging_s", tTagging},
                     {"time_verification_s", tVerify}};
        std::ofstream os(o.json);
        if (!os)
        {
            throw TaggerError("cannot write '" + o.json + "': " + std::strerror(errno));
        }
        WriteRulesJson(topo, out, os);
        os.close();
        if (!os)
        {
            throw TaggerError("cannot write '" + o.json + "': write failed");
        }
    }
    const double tOutput = watch.Lap();
    const double total =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double peakMb = PeakMemoryMb();

    std::ostringstream s;
    s << "tagger-rules: Tagger tag-rewriting rules (Hu et al., CoNEXT 2017)\n";
    s << "topology:       " << topoDescription << "\n";
    s << "nodes:          " << switches.size() << " switches, " << hosts.size() << " hosts ("
      << relays << " relaying), " << topo.GetLinks().size() << " links\n";
    s << "ELP:            " << elpDescription << "\n";
    s << "longest path:   " << longest << " links\n";
    s << "algorithm:      " << algoDescription << ", classes=" << o.classes << "\n";
    if (o.algorithm == "greedy")
    {
        s << "greedy:         " << greedyStats.transitions << " transitions, " << greedyStats.merged
          << " kept their tag, " << greedyStats.cycleChecks << " cycle checks, "
          << greedyStats.rejected << " rejected, " << greedyStats.visited
          << " nodes visited by the searches\n";
    }
    s << "lossless tags:  " << lossless << " (limit "
      << (o.maxLossless == 0 ? std::string("none") : std::to_string(o.maxLossless))
      << "; highest tag in any rule " << static_cast<uint32_t>(rules.GetMaxTag()) << ")\n";
    s << "rules/switch:   plain max " << sw.maxRules << " mean " << Fixed(sw.MeanRules(), 2)
      << "; TCAM max " << sw.maxTcam << " mean " << Fixed(sw.MeanTcam(), 2) << " (over all "
      << sw.nodes << " switches";
    if (relays == 0)
    {
        s << "; no host relays, hosts hold no rules)\n";
    }
    else
    {
        s << "; the " << relays << " relaying hosts are not included)\n";
        s << "rules/relay:    plain max " << relay.maxRules << " mean "
          << Fixed(relay.MeanRules(), 2) << "; TCAM max " << relay.maxTcam << " mean "
          << Fixed(relay.MeanTcam(), 2) << " (over the " << relay.nodes << " relaying hosts)\n";
    }
    s << "verified:       yes (no cycle within a tag, no tag decrease, every ELP path lossless)\n";
    if (!o.json.empty())
    {
        s << "json:           " << o.json << (o.emitElp ? " (with the elp array)" : "") << "\n";
    }
    s << "runtime:        " << Fixed(total, 4) << " s wall (topology " << Fixed(tTopology, 4)
      << ", ELP " << Fixed(tElp, 4) << ", tagging " << Fixed(tTagging, 4) << ", verification "
      << Fixed(tVerify, 4) << ", output " << Fixed(tOutput, 4) << ")\n";
    s << "peak memory:    " << Fixed(peakMb, 1) << " MB (getrusage ru_maxrss)\n";
    s << "RESULT switches=" << switches.size() << " hosts=" << hosts.size() << " relays=" << relays
      << " elp_paths=" << elp.pathCount << " longest=" << longest << " lossless_tags=" << lossless
      << " max_rules=" << sw.maxRules << " mean_rules=" << Fixed(sw.MeanRules(), 2)
      << " max_tcam=" << sw.maxTcam << " mean_tcam=" << Fixed(sw.MeanTcam(), 2)
      << " relay_max_rules=" << relay.maxRules << " relay_max_tcam=" << relay.maxTcam
      << " runtime_s=" << Fixed(total, 4) << " peak_mb=" << Fixed(peakMb, 1) << "\n";
    std::cout << s.str() << std::flush;
    return 0;
}

/// Print one error line on stderr (newlines inside the message flattened).
void
PrintError(const std::string& msg)
{
    std::string line = msg;
    for (char& c : line)
    {
        if (c == '\n' || c == '\r')
        {
            c = ' ';
        }
    }
    while (!line.empty() && line.back() == ' ')
    {
        line.pop_back();
    }
    std::cerr << kProgram << ": " << line << std::endl;
}

} // namespace

int
main(int argc, char* argv[])
{
    try
    {
        const Options options = ParseOptions(argc, argv);
        return Run(options);
    }
    catch (const VerificationFailure& e)
    {
        PrintError(e.what());
        return kExitBug;
    }
    catch (const TaggerError& e)
    {
        PrintError(e.what());
        return kExitBadInput;
    }
    catch (const std::bad_alloc&)
    {
        PrintError("out of memory (the problem is too large for this machine)");
        return kExitBadInput;
    }
    catch (const std::exception& e)
    {
        PrintError(e.what());
        return kExitBadInput;
    }
    catch (...)
    {
        PrintError("unexpected error");
        return kExitBadInput;
    }
}
