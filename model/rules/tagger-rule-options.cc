/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 */

#include "tagger-rule-options.h"

#include <algorithm>
#include <cctype>
#include <cstdint>

namespace ns3
{
namespace tagger
{

const char* const kRuleToolUsage =
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

namespace
{

/// Most threads --threads accepts.
constexpr uint32_t kMaxRuleThreads = 1024;

/// The flags of the topology generators.
const std::vector<std::string> kClosFlags =
    {"pods", "tors-per-pod", "leafs-per-pod", "spines", "spines-per-leaf", "hosts-per-tor"};
const std::vector<std::string> kGeneratorFlags = {"pods",
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
                                                  "levels",
                                                  "min-degree",
                                                  "max-degree"};

/// The flags that apply to a topology generator.
std::vector<std::string>
FlagsOf(TopologyGenerator g)
{
    switch (g)
    {
    case TopologyGenerator::CLOS:
        return kClosFlags;
    case TopologyGenerator::FATTREE:
    case TopologyGenerator::F10:
        return {"k"};
    case TopologyGenerator::JELLYFISH:
        return {"switches", "ports", "switch-ports"};
    case TopologyGenerator::RANDOM_SPARSE:
        return {"switches", "min-degree", "max-degree"};
    case TopologyGenerator::BCUBE:
        break;
    }
    return {"n", "levels", "k"};
}

/// The names of some enum values (GetName), in the given order.
template <typename E>
std::vector<std::string>
NamesOf(std::initializer_list<E> values)
{
    std::vector<std::string> names;
    for (E v : values)
    {
        names.push_back(GetName(v));
    }
    return names;
}

/// The value among `values` called `name` (which must be one of them).
template <typename E>
E
FromName(const std::string& name, std::initializer_list<E> values)
{
    for (E v : values)
    {
        if (GetName(v) == name)
        {
            return v;
        }
    }
    return *values.begin();
}

} // namespace

RuleFlags::RuleFlags()
{
    AddTopologyFlags();
    AddElpAndTaggingFlags();
}

void
RuleFlags::AddTopologyFlags()
{
    const ClosParams tb = PaperTestbedClos();
    Add("topology",
        "Topology generator: clos|fattree|jellyfish|bcube|f10|random-sparse (default clos, the "
        "paper's testbed)",
        FlagType::TEXT,
        "clos");
    Add("topology-file",
        "Read the topology from FILE instead (JSON, or GraphML when the name ends in "
        ".graphml/.xml or the text starts with '<')",
        FlagType::INPUT);
    Add("hosts-per-switch",
        "GraphML topology file: hosts attached to every switch",
        FlagType::NUMBER,
        "1");
    Add("pods", "clos: number of pods", FlagType::NUMBER, std::to_string(tb.pods));
    Add("tors-per-pod",
        "clos: ToR switches per pod",
        FlagType::NUMBER,
        std::to_string(tb.torsPerPod));
    Add("leafs-per-pod",
        "clos: Leaf switches per pod",
        FlagType::NUMBER,
        std::to_string(tb.leafsPerPod));
    Add("spines", "clos: spine switches", FlagType::NUMBER, std::to_string(tb.spines));
    Add("spines-per-leaf",
        "clos: spine links per Leaf",
        FlagType::NUMBER,
        std::to_string(tb.spinesPerLeaf));
    Add("hosts-per-tor", "clos: hosts per ToR", FlagType::NUMBER, std::to_string(tb.hostsPerTor));
    Add("k",
        "fattree, f10: k (even, ports per switch); bcube: BCube(n,k) has k+1 levels",
        FlagType::NUMBER,
        "4");
    Add("switches", "jellyfish, random-sparse: number of switches", FlagType::NUMBER, "16");
    Add("ports", "jellyfish: ports per switch", FlagType::NUMBER, "8");
    Add("switch-ports",
        "jellyfish: ports per switch that go to other switches (the rest to hosts)",
        FlagType::NUMBER,
        "4");
    Add("min-degree",
        "random-sparse: least target degree (links to other switches; one host each)",
        FlagType::NUMBER,
        "3");
    Add("max-degree",
        "random-sparse: largest target degree (less than --switches)",
        FlagType::NUMBER,
        "6");
    Add("n", "bcube: ports per switch (servers per level-0 switch)", FlagType::NUMBER, "4");
    Add("levels",
        "bcube: levels of switches (= k+1; default 2, i.e. BCube(n,1))",
        FlagType::NUMBER,
        "2");
    Add("seed",
        "Random seed (jellyfish and random-sparse wiring, tie breaks in trees, random paths, "
        "the greedy's shuffled orders)",
        FlagType::NUMBER,
        "1");
}

void
RuleFlags::AddElpAndTaggingFlags()
{
    Add("elp", "ELP family: shortest|trees|updown|bounce|kshortest", FlagType::TEXT, "shortest");
    Add("elp-file",
        "Read ELP paths from FILE instead (one path per line: node names separated by "
        "spaces, '#' comments)",
        FlagType::INPUT);
    Add("bounces",
        "bounce ELP: bounces allowed per path (updown = bounce with 0); clos algorithm: "
        "bounces tolerated",
        FlagType::NUMBER,
        "1");
    Add("paths", "kshortest ELP: paths per host pair", FlagType::NUMBER, "2");
    Add("extra-random-paths",
        "Add N random loop-free host-to-host paths to the ELP",
        FlagType::NUMBER,
        "0");
    Add("algorithm", "Tagging algorithm: greedy|bruteforce|clos", FlagType::TEXT, "greedy");
    Add("classes", "Application classes (class c starts with tag c)", FlagType::NUMBER, "1");
    Add("max-lossless",
        "Fail (exit 2) when the rules need more lossless tags than N (0: no limit)",
        FlagType::NUMBER,
        "0");
    Add("json", "Write topology, rules, TCAM entries and stats to FILE", FlagType::OUTPUT);
    Add("emit-elp",
        "With --json: also write the explicit ELP paths (\"elp\" array)",
        FlagType::BOOL);
    Add("cycle-check",
        "greedy: cycle check per merge, incremental|naive",
        FlagType::TEXT,
        "incremental");
    Add("greedy-order",
        "greedy: tag order, best|local|paper|plain (best: try local, paper, plain and "
        "--restarts shuffled orders, keep the fewest tags, then TCAM entries)",
        FlagType::TEXT,
        "best");
    Add("restarts",
        "greedy-order=best: shuffled orders after local, paper and plain (by default the "
        "attempts shrink on large inputs; given, all are run)",
        FlagType::NUMBER,
        std::to_string(kDefaultRestarts));
    Add("greedy-time-limit",
        "greedy-order=best: stop trying orders once this many seconds of wall-clock time have "
        "passed (0: no limit; with a limit the result can depend on the machine)",
        FlagType::NUMBER,
        "0");
    Add("exact-max-hops",
        "greedy-order=best: ask the exact solver (Z3) for the minimum when the greedy stays above "
        "the lower bound and the ELP's paths have at most this many hops (0: never)",
        FlagType::NUMBER,
        std::to_string(kDefaultExactMaxHops));
    Add("exact-rlimit",
        "greedy-order=best: the exact solver's deterministic budget per tag count (Z3 rlimit)",
        FlagType::NUMBER,
        std::to_string(kDefaultExactResourceLimit));
    Add("threads",
        "Threads for the ELP (trees, shortest), the order search's attempts, the verification, "
        "the TCAM and its checks (0: one per hardware thread; the results do not depend on it)",
        FlagType::NUMBER,
        "0");
}

void
RuleFlags::Add(const std::string& name,
               const std::string& help,
               FlagType type,
               const std::string& defaultValue)
{
    m_flags.push_back(RuleFlag{name, help, type, defaultValue, false, false});
    m_index[name] = m_flags.size() - 1;
}

std::deque<RuleFlag>&
RuleFlags::GetFlags()
{
    return m_flags;
}

void
RuleFlags::PrintFlagTable(std::ostream& os) const
{
    for (const RuleFlag& f : m_flags)
    {
        static const std::map<FlagType, const char*> kinds = {{FlagType::TEXT, "text"},
                                                              {FlagType::INPUT, "input"},
                                                              {FlagType::OUTPUT, "output"},
                                                              {FlagType::NUMBER, "count"},
                                                              {FlagType::BOOL, "bool"}};
        os << f.name << "\t" << kinds.at(f.type) << "\n";
    }
}

const RuleFlag&
RuleFlags::Get(const std::string& name) const
{
    return m_flags[m_index.at(name)];
}

bool
RuleFlags::Given(const std::string& name) const
{
    return Get(name).given;
}

const std::string&
RuleFlags::Value(const std::string& name) const
{
    return Get(name).value;
}

std::vector<std::string>
RuleFlags::CheckArguments(int argc, const char* const argv[], const OtherArgumentCheck& other)
{
    std::vector<std::string> args;
    args.emplace_back(argc > 0 ? argv[0] : "tagger-rules");
    for (int i = 1; i < argc; ++i)
    {
        args.push_back(CheckArgument(argv[i], other));
    }
    return args;
}

std::string
RuleFlags::CheckArgument(const std::string& arg, const OtherArgumentCheck& other)
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
    if (other)
    {
        if (std::optional<std::string> normalized = other(name, hasValue, value))
        {
            return *normalized;
        }
    }
    auto it = m_index.find(name);
    if (name.empty() || it == m_index.end())
    {
        throw TaggerError("unknown flag '--" + name + "' (see --help)");
    }
    RuleFlag& f = m_flags[it->second];
    f.given = true;
    return CheckValue(f, hasValue, value);
}

std::string
RuleFlags::CheckValue(RuleFlag& f, bool hasValue, const std::string& value)
{
    if (f.type == FlagType::BOOL)
    {
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
            throw TaggerError("--" + f.name + "='" + value +
                              "' is not a boolean (true, false, 1 or 0)");
        }
        return "--" + f.name + "=" + (f.boolValue ? "true" : "false");
    }
    if (!hasValue || value.empty())
    {
        // (a command-line parser rejects an empty value too)
        throw TaggerError("--" + f.name + " needs a value, as in --" + f.name +
                          (f.type == FlagType::NUMBER ? "=<number>" : "=<value>"));
    }
    f.value = value;
    return "--" + f.name + "=" + value;
}

uint64_t
RuleFlags::ToUint(const std::string& name, uint64_t lo, uint64_t hi) const
{
    const std::string& s = Value(name);
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
RuleFlags::ToUint32(const std::string& name, uint32_t lo, uint32_t hi) const
{
    return static_cast<uint32_t>(ToUint(name, lo, hi));
}

const std::string&
RuleFlags::Choice(const std::string& name, const std::vector<std::string>& choices) const
{
    const std::string& v = Value(name);
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

void
RuleFlags::RejectFlags(const std::vector<std::string>& names, const std::string& where) const
{
    for (const auto& n : names)
    {
        if (Given(n))
        {
            throw TaggerError("--" + n + " does not apply to " + where);
        }
    }
}

RuleGeneratorOptions
RuleFlags::ToOptions() const
{
    RuleGeneratorOptions o;
    o.seed = ToUint("seed", 0, UINT64_MAX);
    ToTopologyOptions(o);
    ToElpOptions(o);
    o.extraRandomPaths = ToUint("extra-random-paths", 0, 100000000);
    ToTaggingOptions(o);
    ToOutputOptions(o);
    return o;
}

void
RuleFlags::ToTopologyOptions(RuleGeneratorOptions& o) const
{
    if (Given("topology-file"))
    {
        if (Given("topology"))
        {
            throw TaggerError("give either --topology or --topology-file, not both");
        }
        o.topologyFile = Value("topology-file");
        if (o.topologyFile.empty())
        {
            throw TaggerError("--topology-file needs a file name");
        }
        RejectFlags(kGeneratorFlags, "--topology-file (it is for --topology generators)");
        o.hostsPerSwitch = ToUint32("hosts-per-switch", 0, 1024);
        return;
    }
    using G = TopologyGenerator;
    const auto generators = {G::CLOS, G::FATTREE, G::JELLYFISH, G::BCUBE, G::F10, G::RANDOM_SPARSE};
    o.topology = FromName(Choice("topology", NamesOf(generators)), generators);
    RejectFlags({"hosts-per-switch"}, "--topology (only to a GraphML --topology-file)");
    const std::string where = "--topology=" + GetName(o.topology);
    const std::vector<std::string> here = FlagsOf(o.topology);
    std::vector<std::string> notHere;
    for (const auto& f : kGeneratorFlags)
    {
        if (std::find(here.begin(), here.end(), f) == here.end())
        {
            notHere.push_back(f);
        }
    }
    RejectFlags(notHere, where);
    switch (o.topology)
    {
    case G::CLOS:
        ToClosOptions(o);
        break;
    case G::FATTREE:
    case G::F10:
        ToFatTreeOptions(o, where);
        break;
    case G::JELLYFISH:
        ToJellyfishOptions(o);
        break;
    case G::RANDOM_SPARSE:
        ToRandomSparseOptions(o);
        break;
    case G::BCUBE:
        ToBCubeOptions(o);
        break;
    }
}

void
RuleFlags::ToClosOptions(RuleGeneratorOptions& o) const
{
    o.clos.pods = ToUint32("pods", 1, 4096);
    o.clos.torsPerPod = ToUint32("tors-per-pod", 1, 4096);
    o.clos.leafsPerPod = ToUint32("leafs-per-pod", 1, 4096);
    o.clos.spines = ToUint32("spines", 1, 65536);
    o.clos.spinesPerLeaf = ToUint32("spines-per-leaf", 1, 65536);
    o.clos.hostsPerTor = ToUint32("hosts-per-tor", 1, 4096);
    if (o.clos.spinesPerLeaf > o.clos.spines)
    {
        throw TaggerError("--spines-per-leaf=" + std::to_string(o.clos.spinesPerLeaf) +
                          " is out of range (at most --spines=" + std::to_string(o.clos.spines) +
                          ")");
    }
    const uint64_t hosts = uint64_t{o.clos.pods} * o.clos.torsPerPod * o.clos.hostsPerTor;
    if (hosts > 4000000)
    {
        throw TaggerError("clos: " + std::to_string(hosts) +
                          " hosts is too large (at most 4000000)");
    }
}

void
RuleFlags::ToFatTreeOptions(RuleGeneratorOptions& o, const std::string& where) const
{
    o.k = ToUint32("k", 2, 128);
    if (o.k % 2 != 0)
    {
        throw TaggerError("--k=" + std::to_string(o.k) + " must be even for " + where);
    }
    if (o.topology == TopologyGenerator::F10 && o.k < 4)
    {
        throw TaggerError("--k=" + std::to_string(o.k) +
                          " is out of range for --topology=f10 (at least 4)");
    }
}

namespace
{

/// Throw unless a switch-to-switch degree fits the switch count: below it, and at least 2
/// when there are more than 2 switches.  \param flag the degree's flag \param degree its
/// value \param switches --switches
void
RequireDegreeFits(const std::string& flag, uint32_t degree, uint32_t switches)
{
    if (degree >= switches)
    {
        throw TaggerError("--" + flag + "=" + std::to_string(degree) +
                          " is out of range (less than --switches=" + std::to_string(switches) +
                          ")");
    }
    if (degree < 2 && switches > 2)
    {
        throw TaggerError("--" + flag + "=" + std::to_string(degree) + " cannot connect " +
                          std::to_string(switches) + " switches (at least 2)");
    }
}

} // namespace

void
RuleFlags::ToJellyfishOptions(RuleGeneratorOptions& o) const
{
    o.switches = ToUint32("switches", 2, 100000);
    o.ports = ToUint32("ports", 1, 4096);
    o.switchPorts = ToUint32("switch-ports", 1, 4096);
    if (o.switchPorts > o.ports)
    {
        throw TaggerError("--switch-ports=" + std::to_string(o.switchPorts) +
                          " is out of range (at most --ports=" + std::to_string(o.ports) + ")");
    }
    RequireDegreeFits("switch-ports", o.switchPorts, o.switches);
    if ((uint64_t{o.switches} * o.switchPorts) % 2 != 0)
    {
        throw TaggerError("--switches=" + std::to_string(o.switches) +
                          " times --switch-ports=" + std::to_string(o.switchPorts) +
                          " must be even (every link uses two switch ports)");
    }
}

void
RuleFlags::ToRandomSparseOptions(RuleGeneratorOptions& o) const
{
    o.switches = ToUint32("switches", 2, 100000);
    o.minDegree = ToUint32("min-degree", 1, 4096);
    o.maxDegree = ToUint32("max-degree", 1, 4096);
    if (o.maxDegree < o.minDegree)
    {
        throw TaggerError("--max-degree=" + std::to_string(o.maxDegree) +
                          " is out of range (at least --min-degree=" + std::to_string(o.minDegree) +
                          ")");
    }
    RequireDegreeFits("max-degree", o.maxDegree, o.switches);
}

void
RuleFlags::ToBCubeOptions(RuleGeneratorOptions& o) const
{
    o.bcubeN = ToUint32("n", 2, 1024);
    if (Given("k") && Given("levels"))
    {
        const uint32_t k = ToUint32("k", 0, 19);
        const uint32_t levels = ToUint32("levels", 1, 20);
        if (levels != k + 1)
        {
            throw TaggerError("--levels=" + std::to_string(levels) + " contradicts --k=" +
                              std::to_string(k) + " (BCube(n,k) has k+1 levels)");
        }
    }
    o.bcubeK = Given("k") ? ToUint32("k", 0, 19) : ToUint32("levels", 1, 20) - 1;
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

void
RuleFlags::ToElpOptions(RuleGeneratorOptions& o) const
{
    if (Given("elp-file"))
    {
        if (Given("elp"))
        {
            throw TaggerError("give either --elp or --elp-file, not both");
        }
        o.elpFile = Value("elp-file");
        if (o.elpFile.empty())
        {
            throw TaggerError("--elp-file needs a file name");
        }
        RejectFlags({"paths"}, "--elp-file (only to --elp=kshortest)");
        return;
    }
    using F = ElpFamily;
    const auto families = {F::SHORTEST, F::TREES, F::UPDOWN, F::BOUNCE, F::KSHORTEST};
    o.elp = FromName(Choice("elp", NamesOf(families)), families);
    if (o.elp != ElpFamily::KSHORTEST)
    {
        RejectFlags({"paths"}, "--elp=" + GetName(o.elp) + " (only to --elp=kshortest)");
    }
    o.kPaths = ToUint32("paths", 1, 1000);
}

void
RuleFlags::ToTaggingOptions(RuleGeneratorOptions& o) const
{
    using A = TaggingAlgorithm;
    const auto algorithms = {A::GREEDY, A::BRUTEFORCE, A::CLOS};
    o.algorithm = FromName(Choice("algorithm", NamesOf(algorithms)), algorithms);
    const std::string algorithm = GetName(o.algorithm);
    if (!o.ElpIs(ElpFamily::BOUNCE) && o.algorithm != A::CLOS)
    {
        RejectFlags({"bounces"},
                    (o.elpFile.empty() ? "--elp=" + GetName(o.elp) : std::string("--elp-file")) +
                        " with --algorithm=" + algorithm +
                        " (only to --elp=bounce or --algorithm=clos)");
    }
    o.bounces = ToUint32("bounces", 0, kMaxTag - 1);
    o.bouncesGiven = Given("bounces");
    if (o.algorithm != A::GREEDY)
    {
        RejectFlags({"cycle-check",
                     "greedy-order",
                     "restarts",
                     "greedy-time-limit",
                     "exact-max-hops",
                     "exact-rlimit"},
                    "--algorithm=" + algorithm + " (only to --algorithm=greedy)");
    }
    o.tagging.cycleCheck = Choice("cycle-check", {"incremental", "naive"}) == "naive"
                               ? CycleCheck::NAIVE
                               : CycleCheck::INCREMENTAL;
    ToGreedyOrderOptions(o);
    o.tagging.classes = ToUint32("classes", 1, kMaxTag);
    o.maxLossless = ToUint32("max-lossless", 0, kMaxTag);
}

void
RuleFlags::ToGreedyOrderOptions(RuleGeneratorOptions& o) const
{
    using O = GreedyOrder;
    const std::string& order = Choice("greedy-order", {"best", "local", "paper", "plain"});
    o.greedySearch = order == "best";
    if (!o.greedySearch)
    {
        RejectFlags({"restarts", "greedy-time-limit", "exact-max-hops", "exact-rlimit"},
                    "--greedy-order=" + order + " (only to --greedy-order=best)");
        const auto orders = {O::LOCAL, O::PAPER, O::PLAIN};
        o.tagging.order = FromName(order, orders);
    }
    o.search.restarts = ToUint32("restarts", 0, 100000);
    o.search.maxWork = Given("restarts") ? 0 : kDefaultSearchWork;
    o.search.seed = o.seed;
    o.search.timeLimit = static_cast<double>(ToUint32("greedy-time-limit", 0, 86400));
    o.search.exactMaxHops = ToUint("exact-max-hops", 0, 1000000000000ULL);
    o.search.exactResourceLimit = ToUint("exact-rlimit", 1, 1000000000000000ULL);
}

void
RuleFlags::ToOutputOptions(RuleGeneratorOptions& o) const
{
    o.json = Value("json");
    if (Given("json") && o.json.empty())
    {
        throw TaggerError("--json needs a file name");
    }
    o.emitElp = Get("emit-elp").boolValue;
    o.threads = ToUint32("threads", 0, kMaxRuleThreads);
    if (o.emitElp && o.json.empty())
    {
        throw TaggerError("--emit-elp needs --json=FILE");
    }
}

} // namespace tagger
} // namespace ns3
