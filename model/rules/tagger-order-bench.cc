/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 */

#include "tagger-order-bench.h"

#include "tagger-topology-generators.h"
#include "tagger-verifier.h"

#include <algorithm>
#include <iomanip>
#include <map>
#include <ostream>
#include <sstream>

namespace ns3
{
namespace tagger
{

namespace
{

const GreedyOrder kOrders[kBenchOrders] = {GreedyOrder::LOCAL,
                                           GreedyOrder::PAPER,
                                           GreedyOrder::PLAIN};

/// Throw when rules fail the verifier (a bug of the library).
void
CheckVerified(const TagRules& rules,
              const Elp& elp,
              const OrderBenchCase& c,
              const std::string& who)
{
    const VerifyResult v = Verify(rules, elp, 1);
    if (!v.ok)
    {
        throw TaggerError("order bench: " + who + " on switches=" + std::to_string(c.switches) +
                          " seed=" + std::to_string(c.seed) + " failed verification: " + v.problem);
    }
}

/// Tag one case with every order and the search; the exact minimum when small.
void
RunCase(const OrderBenchConfig& config, OrderBenchCase& c)
{
    const Topology topo = MakeRandomSparse(c.switches, config.minDegree, c.maxDegree, c.seed);
    ElpOptions eo;
    eo.seed = c.seed;
    Elp elp = MakeShortestPathTreeElp(topo, eo);
    if (c.extraPaths > 0)
    {
        AddRandomPaths(elp, topo, c.extraPaths, c.seed);
    }
    for (uint32_t i = 0; i < kBenchOrders; ++i)
    {
        TaggingOptions opt;
        opt.order = kOrders[i];
        const TagRules rules = TagGreedy(elp.graph, opt);
        CheckVerified(rules, elp, c, GetName(kOrders[i]));
        c.tags[i] = rules.GetLosslessTags();
    }
    const GreedySearchResult best = TagGreedyBest(elp.graph, TaggingOptions(), config.search);
    CheckVerified(best.rules, elp, c, "the order search");
    c.defaultTags = best.rules.GetLosslessTags();
    c.winner = best.winnerName;
    c.lowerBound = TagLowerBound(elp.graph);
    c.exactTried = ExactTagsAvailable() && c.switches <= config.exactMaxSwitches &&
                   elp.paths.size() == elp.pathCount;
    if (c.exactTried)
    {
        uint32_t upper = c.defaultTags;
        for (uint32_t t : c.tags)
        {
            upper = std::min(upper, t);
        }
        c.exact = MinimumLosslessTags(topo,
                                      elp.paths,
                                      std::min(c.lowerBound, upper),
                                      upper,
                                      config.exactResourceLimit);
    }
}

/// "k=2: 31  k=3: 9" for a tag-count histogram.
std::string
Histogram(const std::map<uint32_t, size_t>& h)
{
    std::ostringstream s;
    for (const auto& kv : h)
    {
        s << "  " << kv.first << " tags: " << std::setw(4) << kv.second;
    }
    return s.str();
}

/// The mean of the tag counts picked by get.
template <typename Get>
double
Mean(const std::vector<OrderBenchCase>& cases, Get get)
{
    double sum = 0;
    for (const auto& c : cases)
    {
        sum += get(c);
    }
    return cases.empty() ? 0 : sum / cases.size();
}

/// Per order and the default: how often it needs k tags.
void
PrintHistograms(const std::vector<OrderBenchCase>& cases, std::ostream& s)
{
    s << "lossless tags needed, over " << cases.size() << " cases:\n";
    for (uint32_t i = 0; i <= kBenchOrders; ++i)
    {
        std::map<uint32_t, size_t> h;
        for (const auto& c : cases)
        {
            ++h[i < kBenchOrders ? c.tags[i] : c.defaultTags];
        }
        s << "  " << std::left << std::setw(8)
          << (i < kBenchOrders ? GetName(kOrders[i]) : "default") << std::right << Histogram(h)
          << "\n";
    }
}

/// The default against each order; returns the cases where it is worse than some order.
size_t
PrintVersus(const std::vector<OrderBenchCase>& cases, std::ostream& s)
{
    s << "default (order search) against each order: worse / equal / better\n";
    for (uint32_t i = 0; i < kBenchOrders; ++i)
    {
        size_t worse = 0;
        size_t equal = 0;
        size_t better = 0;
        for (const auto& c : cases)
        {
            worse += c.defaultTags > c.tags[i];
            equal += c.defaultTags == c.tags[i];
            better += c.defaultTags < c.tags[i];
        }
        s << "  vs " << std::left << std::setw(6) << GetName(kOrders[i]) << std::right
          << std::setw(5) << worse << " / " << std::setw(4) << equal << " / " << std::setw(4)
          << better << "\n";
    }
    size_t worseThanAny = 0;
    for (const auto& c : cases)
    {
        worseThanAny += std::any_of(std::begin(c.tags), std::end(c.tags), [&c](uint32_t t) {
            return c.defaultTags > t;
        });
    }
    return worseThanAny;
}

/// The default's gap to the exact minimum, over the cases where it is known.
struct ExactGap
{
    size_t solved{0};   //!< cases with the minimum known
    size_t unsolved{0}; //!< cases out of the solver's resource limit
    size_t optimal{0};  //!< the default needs the minimum
    size_t miss1{0};    //!< one tag more
    size_t miss2{0};    //!< two or more
};

/// The winning orders, the lower bound and the gap to the exact minimum.
ExactGap
PrintGap(const std::vector<OrderBenchCase>& cases, std::ostream& s)
{
    std::map<std::string, size_t> winners;
    size_t atBound = 0;
    ExactGap g;
    for (const auto& c : cases)
    {
        ++winners[c.winner.substr(0, c.winner.find('#'))];
        atBound += c.defaultTags == c.lowerBound;
        if (c.exactTried && !c.exact.solved)
        {
            ++g.unsolved;
        }
        if (!c.exactTried || !c.exact.solved)
        {
            continue;
        }
        ++g.solved;
        const uint32_t gap = c.defaultTags - c.exact.minimum;
        g.optimal += gap == 0;
        g.miss1 += gap == 1;
        g.miss2 += gap >= 2;
    }
    s << "winning order of the default:";
    for (const auto& kv : winners)
    {
        s << " " << kv.first << " " << kv.second;
    }
    s << "\ndefault at the lower bound (so optimal): " << atBound << " of " << cases.size() << "\n";
    s << "exact minimum (Z3): " << g.solved << " cases solved, " << g.unsolved
      << " out of the resource limit; default optimal in " << g.optimal << ", one tag more in "
      << g.miss1 << ", two or more in " << g.miss2 << "\n";
    return g;
}

} // namespace

std::vector<OrderBenchCase>
RunOrderBench(const OrderBenchConfig& config, const std::function<void(size_t, size_t)>& progress)
{
    std::vector<OrderBenchCase> cases;
    for (uint32_t n : config.sizes)
    {
        for (uint32_t d : config.maxDegrees)
        {
            for (uint64_t extra : config.extraPaths)
            {
                for (uint32_t g = 0; g < config.graphs; ++g)
                {
                    OrderBenchCase c;
                    c.switches = n;
                    c.maxDegree = std::min(d, n - 1);
                    c.extraPaths = extra;
                    c.seed = config.seed + cases.size();
                    cases.push_back(c);
                }
            }
        }
    }
    for (size_t i = 0; i < cases.size(); ++i)
    {
        RunCase(config, cases[i]);
        if (progress)
        {
            progress(i + 1, cases.size());
        }
    }
    return cases;
}

void
PrintOrderBench(const std::vector<OrderBenchCase>& cases, std::ostream& os)
{
    std::ostringstream s;
    PrintHistograms(cases, s);
    const size_t worseThanAny = PrintVersus(cases, s);
    const ExactGap gap = PrintGap(cases, s);
    s << std::fixed << std::setprecision(3) << "RESULT cases=" << cases.size()
      << " default_worse=" << worseThanAny;
    for (uint32_t i = 0; i < kBenchOrders; ++i)
    {
        s << " mean_tags_" << GetName(kOrders[i]) << "="
          << Mean(cases, [i](const OrderBenchCase& c) { return c.tags[i]; });
    }
    s << " mean_tags_default=" << Mean(cases, [](const OrderBenchCase& c) { return c.defaultTags; })
      << " exact_cases=" << gap.solved << " default_optimal=" << gap.optimal
      << " default_miss1=" << gap.miss1 << " default_miss2=" << gap.miss2 << "\n";
    os << s.str();
}

} // namespace tagger
} // namespace ns3
