/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 */

#ifndef TAGGER_RULE_GENERATOR_H
#define TAGGER_RULE_GENERATOR_H

#include "tagger-algorithms.h"
#include "tagger-elp.h"
#include "tagger-greedy-search.h"
#include "tagger-rule-table.h"
#include "tagger-topology-generators.h"
#include "tagger-topology.h"
#include "tagger-verifier.h"

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <stdexcept>
#include <string>

/**
 * \file
 * \ingroup tagger
 * The offline rule generator: the pipeline of the tagger-rules program
 * (topology and ELP -> tagging -> verification -> TCAM -> JSON) as a library
 * call, used by the program and by TaggerHelper.
 */

namespace ns3
{
namespace tagger
{

/// Topology generators (tagger-rules --topology).
enum class TopologyGenerator
{
    CLOS,         //!< MakeClos
    FATTREE,      //!< MakeFatTree
    JELLYFISH,    //!< MakeJellyfish
    BCUBE,        //!< MakeBCube
    F10,          //!< MakeF10
    RANDOM_SPARSE //!< MakeRandomSparse
};

/// ELP families (tagger-rules --elp).
enum class ElpFamily
{
    SHORTEST, //!< all equal-cost shortest paths (MakeShortestPathElp)
    TREES,    //!< one shortest-path tree per destination (MakeShortestPathTreeElp)
    UPDOWN,   //!< up-down paths without bounce (MakeUpDownElp, 0 bounces)
    BOUNCE,   //!< up-down paths with up to `bounces` bounces (MakeUpDownElp)
    KSHORTEST //!< the k shortest paths per host pair (MakeKShortestElp)
};

/// Tagging algorithms (tagger-rules --algorithm).
enum class TaggingAlgorithm
{
    GREEDY,     //!< Algorithm 2 (TagGreedy)
    BRUTEFORCE, //!< Algorithm 1 (TagBruteForce)
    CLOS        //!< bounce tagging of a layered topology (TagClos)
};

/// The tagger-rules name: "clos", "fattree", "jellyfish", "bcube", "f10", "random-sparse".
std::string GetName(TopologyGenerator generator);
/// The tagger-rules name: "shortest", "trees", "updown", "bounce", "kshortest".
std::string GetName(ElpFamily family);
/// The tagger-rules name: "greedy", "bruteforce", "clos".
std::string GetName(TaggingAlgorithm algorithm);

/**
 * \ingroup tagger
 * \brief What to generate: the checked options of tagger-rules (the defaults
 * are the program's).  Range checks are the caller's (RuleFlags does them for
 * the program); GenerateRules checks what needs the topology.
 */
struct RuleGeneratorOptions
{
    // Topology: a generator, or a file when topologyFile is set.
    TopologyGenerator topology{TopologyGenerator::CLOS}; //!< the generator
    std::string topologyFile;   //!< read the topology from this file instead (JSON or GraphML)
    uint32_t hostsPerSwitch{1}; //!< GraphML file: hosts attached to every switch
    ClosParams clos{PaperTestbedClos()}; //!< clos
    uint32_t k{4};                       //!< fattree, f10: k (ports per switch)
    uint32_t switches{16};               //!< jellyfish, random-sparse: switches
    uint32_t ports{8};                   //!< jellyfish: ports per switch
    uint32_t switchPorts{4};             //!< jellyfish: ports per switch toward switches
    uint32_t bcubeN{4};                  //!< bcube: n (ports per switch)
    uint32_t bcubeK{1};                  //!< bcube: k (k + 1 levels)
    uint32_t minDegree{3};               //!< random-sparse: least target degree
    uint32_t maxDegree{6};               //!< random-sparse: largest target degree
    /// jellyfish and random-sparse wiring, tie breaks in trees, random paths (the
    /// greedy's shuffled orders use search.seed)
    uint64_t seed{1};

    // ELP: a family, or a path file when elpFile is set.
    ElpFamily elp{ElpFamily::SHORTEST}; //!< the family
    std::string elpFile;                //!< read the ELP from this path file instead
    /// Bounce family: bounces per path; clos algorithm: bounces tolerated.
    uint32_t bounces{1};
    /**
     * true when bounces was chosen explicitly: the clos algorithm then
     * tolerates exactly that many.  Otherwise it tolerates the bounce family's
     * bounces (0 for updown), else the most bounces of any stored ELP path.
     */
    bool bouncesGiven{false};
    uint32_t kPaths{2};           //!< kshortest: paths per host pair
    uint64_t extraRandomPaths{0}; //!< random paths added to the ELP (AddRandomPaths)

    // Tagging.
    TaggingAlgorithm algorithm{TaggingAlgorithm::GREEDY}; //!< the algorithm
    TaggingOptions tagging; //!< application classes; greedy: cycle check and order
    /// greedy: run the order search (TagGreedyBest) instead of tagging.order alone
    bool greedySearch{true};
    GreedySearchOptions search; //!< greedy with greedySearch: the orders and the budget
    uint32_t maxLossless{0};    //!< fail when the rules need more lossless tags (0: no limit)

    // Output.
    std::string json;    //!< write topology, rules, TCAM and stats here ("": no file)
    bool emitElp{false}; //!< with json: also the explicit ELP paths (needs them stored)

    /// Threads for the ELP, the order search's attempts, the verification, the TCAM and its
    /// checks (0: one per hardware thread); the results do not depend on it
    uint32_t threads{0};

    /// true when the ELP is the family f (not a path file).
    bool ElpIs(ElpFamily f) const
    {
        return elpFile.empty() && elp == f;
    }
};

/// Plain-rule and TCAM-entry counts over a set of forwarding nodes.
struct RuleCounts
{
    uint32_t nodes{0};    //!< nodes counted
    uint64_t maxRules{0}; //!< most plain rules at one node
    uint64_t sumRules{0}; //!< plain rules in total
    uint64_t maxTcam{0};  //!< most TCAM entries at one node
    uint64_t sumTcam{0};  //!< TCAM entries in total

    /// Count one node with `rules` plain rules and `tcam` TCAM entries.
    void Add(uint64_t rules, uint64_t tcam);
    /// \return the mean plain rules per node (0 without nodes)
    double MeanRules() const;
    /// \return the mean TCAM entries per node (0 without nodes)
    double MeanTcam() const;
};

/// Wall-clock seconds of the stages of GenerateRules.
struct RuleGeneratorTimes
{
    double topology{0};     //!< building or reading the topology
    double elp{0};          //!< building or reading the ELP
    double tagging{0};      //!< the tagging algorithm
    double verification{0}; //!< the verifier
    double output{0};       //!< TCAM compression, counts and the JSON file
    double total{0};        //!< from the start of GenerateRules to the end of the output
};

/**
 * \ingroup tagger
 * \brief Everything GenerateRules computed.  The topology lives on the heap
 * because elp and rules refer to it: move the result, never the topology.
 */
struct RuleGeneratorResult
{
    std::unique_ptr<Topology> topology; //!< the topology
    std::string topologyDescription;    //!< e.g. "fattree (k=8)", "file net.json (JSON)"
    uint32_t relays{0};                 //!< hosts that relay
    Elp elp;                            //!< the expected lossless paths
    std::string elpDescription;         //!< e.g. "bounce (...): 7088 paths, stored explicitly"
    /// Links on the longest ELP path: from the paths when all are stored (a
    /// family's HopGraph can hold longer spliced walks), else elp.longestPath.
    uint32_t longestPath{0};
    TagRules rules;                   //!< the rules
    std::string algorithmDescription; //!< e.g. "greedy (Algorithm 2, order=local, ...)"
    GreedyStats greedyStats;          //!< greedy algorithm: its counters (summed over attempts)
    /// greedy algorithm: the order that gave the rules ("local", "shuffled#3", ...)
    std::string greedyOrder;
    /// greedy with the order search: attempts run, allowed by the budget, asked for,
    /// and whether the wall-clock limit stopped it
    uint32_t searchAttempts{0};
    uint32_t searchPlanned{0};       //!< attempts the budget allowed
    uint32_t searchPossible{0};      //!< attempts the options asked for
    bool searchStoppedByTime{false}; //!< the wall-clock limit stopped the search
    uint32_t pathAttempts{0};        //!< order search: attempts on the explicit paths (path scope)
    uint32_t repairRuns{0};          //!< order search: reruns of the repair step
    uint32_t lowerBound{0}; //!< TagLowerBound(elp.graph, classes): no rules need fewer tags
    /// what the rules cover: HOP_GRAPH, or PATHS when the order search's path scope or the
    /// exact solver gave them (walks spliced from two ELP paths may then go lossy)
    ElpScope scope{ElpScope::HOP_GRAPH};
    /// the lossless tag count is proven minimal (= lowerBound, or by the exact solver)
    bool optimal{false};
    /// why optimal is what it is, e.g. "yes (the lower bound)", "no (... gap 1 ...)"
    std::string optimality;
    uint32_t closBounces{0};   //!< clos algorithm: the bounces tolerated
    uint32_t losslessTags{0};  //!< rules.GetLosslessTags()
    VerifyResult verification; //!< the verifier's verdict (ok: failures throw)
    TcamTable tcam;            //!< CompressTcamTable(rules), computed once
    RuleCounts switchCounts;   //!< rules and TCAM entries over the switches
    RuleCounts relayCounts;    //!< ... over the relaying hosts
    uint32_t threads{0};       //!< the threads used (options.threads resolved)
    RuleGeneratorTimes times;  //!< stage times
    double peakMemoryMb{0};    //!< peak resident set (getrusage) after the output
};

/**
 * \ingroup tagger
 * \brief The verifier rejected the rules the library computed: a bug of the
 * library (tagger-rules exit code 3), not bad input.
 */
class RuleVerificationError : public std::runtime_error
{
  public:
    /// \param what the message ("verification failed: ...")
    explicit RuleVerificationError(const std::string& what)
        : std::runtime_error(what)
    {
    }
};

/// tagger-rules exit code for bad input (one line on stderr).
constexpr int kRuleToolBadInput = 2;
/// tagger-rules exit code when the verifier rejected the computed rules.
constexpr int kRuleToolVerificationFailed = 3;

/**
 * Run the tagger-rules pipeline: build (or read) the topology and the ELP,
 * tag with options.algorithm, verify (always: no cycle within a tag, no tag
 * decrease, every ELP path lossless), compress every node's rules into TCAM
 * entries once, count them, and write options.json when set (with the
 * precomputed TCAM).
 *
 * Throws TaggerError for input the pipeline cannot serve (unreadable files,
 * fewer than 2 hosts, a family or algorithm that needs a layered topology on
 * one without layers, an empty ELP, --emit-elp for an ELP too large to store,
 * more lossless tags than maxLossless, clos bounces that do not cover a
 * non-enumerated ELP, an unwritable JSON file), and RuleVerificationError when
 * the verifier rejects the rules.
 */
RuleGeneratorResult GenerateRules(const RuleGeneratorOptions& options);

/**
 * Print the tagger-rules summary of a result: topology, ELP, algorithm, rule
 * and TCAM counts, times, peak memory, and a last line starting with RESULT.
 */
void PrintRuleSummary(const RuleGeneratorOptions& options,
                      const RuleGeneratorResult& result,
                      std::ostream& os);

/**
 * Report the exception being handled as tagger-rules does: one line on err,
 * "tagger-rules: <message>" (newlines flattened), and return the exit code:
 * kRuleToolVerificationFailed for RuleVerificationError, kRuleToolBadInput
 * for anything else (TaggerError, out of memory, ...).  Call it only inside a
 * catch block.
 */
int ReportRuleToolError(std::ostream& err);

/**
 * The rules the library picks for a topology when no ELP is named
 * (TaggerHelper::ComputeRules): on a layered topology the clos algorithm
 * tolerating `bounces` bounces (which covers the up-down paths with at most
 * that many bounces), on any other topology the greedy algorithm over all
 * shortest paths.  Not verified.  Throws TaggerError, also for bounces > 0 on
 * a topology without layers.
 */
TagRules ComputeDefaultRules(const Topology& topo, uint32_t bounces, uint32_t classes = 1);

} // namespace tagger
} // namespace ns3

#endif /* TAGGER_RULE_GENERATOR_H */
