/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 */

#include "tagger-order-bench.h"

#include "tagger-greedy-paths.h"
#include "tagger-topology-generators.h"
#include "tagger-verifier.h"

#include <algorithm>
#include <chrono>
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
                                           GreedyOrder::PLAIN,
                                           GreedyOrder::PLAIN};

/// The name of order i of the comparison.
std::string
OrderName(uint32_t i)
{
    return i + 1 == kBenchOrders ? GetPathOrderName(kOrders[i]) : GetName(kOrders[i]);
}

/// Throw when rules fail the verifier (a bug of the library).
void
CheckVerified(const TagRules& rules,
              const Elp& elp,
              const OrderBenchCase& c,
              const std::string& who,
              ElpScope scope = ElpScope::HOP_GRAPH)
{
    const VerifyResult v = Verify(rules, elp, 1, 1, scope);
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
    for (uint32_t i = 0; i + 1 < kBenchOrders; ++i)
    {
        TaggingOptions opt;
        opt.order = kOrders[i];
        const TagRules rules = TagGreedy(elp.graph, opt);
        CheckVerified(rules, elp, c, GetName(kOrders[i]));
        c.tags[i] = rules.GetLosslessTags();
    }
    const PathGreedyRun plain = PathGreedy(topo, elp.paths).Run(GreedyOrder::PLAIN);
    CheckVerified(plain.rules, elp, c, OrderName(kBenchOrders - 1), ElpScope::PATHS);
    c.tags[kBenchOrders - 1] = plain.losslessTags;
    const auto start = std::chrono::steady_clock::now();
    const GreedySearchResult best = TagGreedyBest(elp, TaggingOptions(), config.search);
    c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CheckVerified(best.rules, elp, c, "the default", best.scope);
    c.defaultTags = best.rules.GetLosslessTags();
    c.winner = best.winnerName;
    c.lowerBound = best.lowerBound;
    c.optimal = best.optimal;
    c.exactTried = best.exactTried;
    c.exact = best.exact;
    if (!c.optimal && !c.exactTried && ExactTagsAvailable() &&
        c.switches <= config.exactMaxSwitches)
    {
        c.exactTried = true;
        c.exact = MinimumLosslessTags(topo,
                                      elp.paths,
                                      c.lowerBound,
                                      c.defaultTags,
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
        s << "  " << std::left << std::setw(12) << (i < kBenchOrders ? OrderName(i) : "default")
          << std::right << Histogram(h) << "\n";
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
        s << "  vs " << std::left << std::setw(12) << OrderName(i) << std::right << std::setw(5)
          << worse << " / " << std::setw(4) << equal << " / " << std::setw(4) << better << "\n";
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

/// How far the default is from the optimum.
struct Optimality
{
    size_t optimal{0};     //!< proven optimal (lower bound or exact solver)
    size_t exactSolved{0}; //!< cases where an exact minimum is known
    size_t aboveBest{0};   //!< a count below the default's is known
    size_t unproven1{0};   //!< not proven, one tag above the lower bound
    size_t unproven2{0};   //!< not proven, two or more above
};

/// The best count known for a case: the default, every order, the exact minimum.
uint32_t
BestKnown(const OrderBenchCase& c)
{
    uint32_t best = c.defaultTags;
    for (uint32_t t : c.tags)
    {
        best = std::min(best, t);
    }
    if (c.exactTried && c.exact.solved)
    {
        best = std::min(best, c.exact.minimum);
    }
    return best;
}

/// The winning attempts, optimality and gaps.
Optimality
PrintOptimality(const std::vector<OrderBenchCase>& cases, std::ostream& s)
{
    std::map<std::string, size_t> winners;
    size_t atBound = 0;
    Optimality o;
    for (const auto& c : cases)
    {
        ++winners[c.winner.substr(0, c.winner.find('#'))];
        atBound += c.defaultTags == c.lowerBound;
        o.optimal += c.optimal;
        o.exactSolved += c.exactTried && c.exact.solved;
        o.aboveBest += c.defaultTags > BestKnown(c);
        if (!c.optimal)
        {
            (c.defaultTags - c.lowerBound == 1 ? o.unproven1 : o.unproven2) += 1;
        }
    }
    s << "winning attempt of the default:";
    for (const auto& kv : winners)
    {
        s << " " << kv.first << " " << kv.second;
    }
    s << "\ndefault proven optimal: " << o.optimal << " of " << cases.size() << " (" << atBound
      << " at the lower bound, " << o.optimal - atBound
      << " by the exact solver above it); exact minimum known in " << o.exactSolved << "\n";
    s << "default above the best count known: " << o.aboveBest << "; not proven: " << o.unproven1
      << " one tag above the lower bound, " << o.unproven2 << " two or more\n";
    return o;
}

/// The median of v (0 when empty).
double
Median(std::vector<double> v)
{
    if (v.empty())
    {
        return 0;
    }
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/**
 * One line per size: "SIZE switches=<n> cases=<n> optimal=<n> unproven=<n>
 * mean_tags_plain=... mean_tags_paths-plain=... mean_tags_default=...
 * median_s=... max_s=..." (the default's wall time per graph).  \return the
 * median and the maximum time over all cases
 */
std::pair<double, double>
PrintBySize(const std::vector<OrderBenchCase>& cases, std::ostream& s)
{
    std::map<uint32_t, std::vector<const OrderBenchCase*>> bySize;
    std::vector<double> all;
    for (const auto& c : cases)
    {
        bySize[c.switches].push_back(&c);
        all.push_back(c.seconds);
    }
    for (const auto& [n, group] : bySize)
    {
        std::vector<double> t;
        size_t optimal = 0;
        double plain = 0;
        double paths = 0;
        double def = 0;
        for (const OrderBenchCase* c : group)
        {
            t.push_back(c->seconds);
            optimal += c->optimal;
            plain += c->tags[2];
            paths += c->tags[kBenchOrders - 1];
            def += c->defaultTags;
        }
        const double k = static_cast<double>(group.size());
        s << std::fixed << std::setprecision(3) << "SIZE switches=" << n
          << " cases=" << group.size() << " optimal=" << optimal
          << " unproven=" << group.size() - optimal << " mean_tags_plain=" << plain / k
          << " mean_tags_paths-plain=" << paths / k << " mean_tags_default=" << def / k
          << " median_s=" << Median(t) << " max_s=" << *std::max_element(t.begin(), t.end())
          << "\n";
    }
    return {Median(all), all.empty() ? 0 : *std::max_element(all.begin(), all.end())};
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
    const Optimality o = PrintOptimality(cases, s);
    const auto [median, max] = PrintBySize(cases, s);
    s << std::fixed << std::setprecision(3) << "RESULT cases=" << cases.size()
      << " default_worse=" << worseThanAny;
    for (uint32_t i = 0; i < kBenchOrders; ++i)
    {
        s << " mean_tags_" << OrderName(i) << "="
          << Mean(cases, [i](const OrderBenchCase& c) { return c.tags[i]; });
    }
    s << " mean_tags_default=" << Mean(cases, [](const OrderBenchCase& c) { return c.defaultTags; })
      << " optimal=" << o.optimal << " above_best=" << o.aboveBest
      << " unproven_gap1=" << o.unproven1 << " unproven_gap2=" << o.unproven2
      << " exact_cases=" << o.exactSolved << " median_s=" << median << " max_s=" << max << "\n";
    os << s.str();
}

} // namespace tagger
} // namespace ns3
