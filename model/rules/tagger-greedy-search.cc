/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 */

#include "tagger-greedy-search.h"

#include "tagger-greedy-paths.h"
#include "tagger-parallel.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <tuple>

namespace ns3
{
namespace tagger
{

namespace
{

/// SplitMix64: well-spread seeds from consecutive integers.
uint64_t
SplitMix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/// The attempts the options ask for, in order.
std::vector<GreedyAttempt>
PlanAttempts(const GreedySearchOptions& search)
{
    std::vector<GreedyAttempt> plan;
    for (GreedyOrder o : {GreedyOrder::LOCAL, GreedyOrder::PAPER, GreedyOrder::PLAIN})
    {
        GreedyAttempt a;
        a.order = o;
        plan.push_back(a);
    }
    for (uint32_t i = 0; i < search.restarts; ++i)
    {
        GreedyAttempt a;
        a.order = GreedyOrder::SHUFFLED;
        a.seed = SplitMix64(search.seed + i);
        plan.push_back(a);
    }
    return plan;
}

/// Fill the TCAM counts of an attempt. \return its TCAM table (CompressTcamTable)
TcamTable
CountTcam(const TagRules& rules, unsigned threads, GreedyAttempt& a)
{
    TcamTable tcam = CompressTcamTable(rules, threads);
    a.maxTcam = 0;
    a.sumTcam = 0;
    for (const auto& entries : tcam)
    {
        a.maxTcam = std::max<uint64_t>(a.maxTcam, entries.size());
        a.sumTcam += entries.size();
    }
    return tcam;
}

/// Ranking of attempts: fewer tags, then fewer TCAM entries at the fullest node, then in all.
bool
Better(const GreedyAttempt& a, const GreedyAttempt& b)
{
    return std::make_tuple(a.losslessTags, a.maxTcam, a.sumTcam) <
           std::make_tuple(b.losslessTags, b.maxTcam, b.sumTcam);
}

} // namespace

std::string
GetName(const GreedyAttempt& attempt, uint32_t restart)
{
    const std::string prefix = attempt.scope == ElpScope::PATHS ? "paths-" : "";
    if (attempt.order == GreedyOrder::SHUFFLED)
    {
        return prefix + "shuffled#" + std::to_string(restart);
    }
    return prefix + GetName(attempt.order);
}

GreedySearchResult
TagGreedyBest(const HopGraph& elp, const TaggingOptions& opt, const GreedySearchOptions& search)
{
    const auto start = std::chrono::steady_clock::now();
    const std::vector<GreedyAttempt> plan = PlanAttempts(search);
    GreedySearchResult r;
    r.possible = static_cast<uint32_t>(plan.size());
    const uint64_t entries = std::max<uint64_t>(1, elp.CountEntries());
    r.planned =
        search.maxWork == 0
            ? r.possible
            : static_cast<uint32_t>(std::clamp<uint64_t>(search.maxWork / entries, 1, r.possible));
    // Rounds of up to `threads` attempts run side by side; each attempt is
    // independent and the winner is chosen in plan order afterwards, so the
    // result does not depend on the thread count (the time limit is checked
    // between rounds).
    const uint32_t threads = std::max<uint32_t>(1, search.threads);
    for (uint32_t first = 0; first < r.planned; first += threads)
    {
        if (first > 0 && search.timeLimit > 0 &&
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >
                search.timeLimit)
        {
            r.stoppedByTime = true;
            break;
        }
        const uint32_t count = std::min(threads, r.planned - first);
        std::vector<std::optional<TagRules>> rules(count);
        std::vector<GreedyAttempt> attempts(plan.begin() + first, plan.begin() + first + count);
        std::vector<GreedyStats> stats(count);
        std::vector<TcamTable> tcams(count);
        // one attempt alone in its round compresses on the threads, side by side on one each
        const unsigned tcamThreads = count == 1 ? threads : 1;
        ParallelFor(count, count, 1, [&](std::size_t k) {
            TaggingOptions o = opt;
            o.order = attempts[k].order;
            o.shuffleSeed = attempts[k].seed;
            rules[k].emplace(TagGreedy(elp, o, stats[k]));
            attempts[k].losslessTags = rules[k]->GetLosslessTags();
            if (r.planned > 1)
            {
                tcams[k] = CountTcam(*rules[k], tcamThreads, attempts[k]);
            }
        });
        for (uint32_t k = 0; k < count; ++k)
        {
            const uint32_t i = first + k;
            r.stats += stats[k];
            r.attempts.push_back(attempts[k]);
            if (i == 0 || Better(attempts[k], r.winner))
            {
                r.winner = attempts[k];
                r.winnerName = GetName(attempts[k], i >= 3 ? i - 2 : 0);
                r.rules = std::move(*rules[k]);
                r.tcam = std::move(tcams[k]);
            }
        }
    }
    return r;
}

namespace
{

/**
 * The path scope of TagGreedyBest(Elp): the attempts in plan order within the
 * budget, side by side on search.threads, the best by (tags, hops at the
 * highest tag, plan order), then the repair step on it.  Replaces r's rules
 * when the paths need fewer tags.
 */
void
SearchPaths(const Elp& elp,
            const TaggingOptions& opt,
            const GreedySearchOptions& search,
            GreedySearchResult& r)
{
    const PathGreedy greedy(elp.graph.GetTopology(), elp.paths, opt.classes);
    std::vector<GreedyAttempt> plan;
    for (GreedyOrder o : {GreedyOrder::PLAIN, GreedyOrder::HEAVY, GreedyOrder::CONFLICT})
    {
        plan.push_back(GreedyAttempt{o, ElpScope::PATHS});
    }
    for (uint32_t i = 0; i < search.pathRestarts; ++i)
    {
        GreedyAttempt a{GreedyOrder::SHUFFLED, ElpScope::PATHS};
        a.seed = SplitMix64(search.seed + i);
        plan.push_back(a);
    }
    const uint64_t hops = std::max<uint64_t>(1, greedy.GetHops());
    const uint64_t runs =
        search.maxPathWork == 0 ? ~0ULL : std::max<uint64_t>(1, search.maxPathWork / hops);
    plan.resize(std::min<uint64_t>(plan.size(), runs));
    std::vector<std::optional<PathGreedyRun>> done(plan.size());
    ParallelFor(search.threads, plan.size(), 1, [&](std::size_t k) {
        done[k].emplace(greedy.Run(plan[k].order, plan[k].seed));
    });
    size_t best = 0;
    for (size_t k = 1; k < plan.size(); ++k)
    {
        if (std::make_tuple(done[k]->losslessTags, done[k]->topHops) <
            std::make_tuple(done[best]->losslessTags, done[best]->topHops))
        {
            best = k;
        }
    }
    r.pathAttempts = static_cast<uint32_t>(plan.size());
    PathGreedyRun run = std::move(*done[best]);
    const uint32_t before = run.losslessTags;
    if (search.repair && runs > plan.size())
    {
        const uint64_t left = std::min<uint64_t>(runs - plan.size(), 1U << 30);
        run = greedy.Repair(std::move(run),
                            plan[best].order,
                            plan[best].seed,
                            r.lowerBound,
                            static_cast<uint32_t>(left),
                            &r.repairRuns);
        r.repaired = run.losslessTags < before;
    }
    if (run.losslessTags < r.winner.losslessTags)
    {
        r.rules = std::move(run.rules);
        r.scope = ElpScope::PATHS;
        r.winner = plan[best];
        r.winner.losslessTags = run.losslessTags;
        r.winnerName = GetName(plan[best], best >= 3 ? static_cast<uint32_t>(best - 2) : 0) +
                       (r.repaired ? "+repair" : "");
        r.tcam = CountTcam(r.rules, search.threads, r.winner);
    }
}

/// The exact solver's step of TagGreedyBest(Elp) (see there).
void
SolveExactly(const Elp& elp, const GreedySearchOptions& search, GreedySearchResult& r)
{
    const uint32_t tags = r.winner.losslessTags;
    r.exactTried = true;
    r.exact = MinimumLosslessTags(elp.graph.GetTopology(),
                                  elp.paths,
                                  r.lowerBound,
                                  tags,
                                  search.exactResourceLimit);
    if (!r.exact.solved)
    {
        return;
    }
    r.optimal = true;
    if (r.exact.minimum < tags && r.exact.hasWitness)
    {
        r.rules = std::move(r.exact.witness);
        r.exact.witness = TagRules();
        r.scope = ElpScope::PATHS;
        r.winner = GreedyAttempt{GreedyOrder::PLAIN, ElpScope::PATHS};
        r.winner.losslessTags = r.exact.minimum;
        r.winnerName = "exact";
        r.tcam = CountTcam(r.rules, search.threads, r.winner);
    }
}

} // namespace

GreedySearchResult
TagGreedyBest(const Elp& elp, const TaggingOptions& opt, const GreedySearchOptions& search)
{
    // r.winner.losslessTags counts the rules' tags throughout (counting them again costs
    // seconds on the largest inputs)
    GreedySearchResult r = TagGreedyBest(elp.graph, opt, search);
    r.lowerBound = TagLowerBound(elp.graph, opt.classes);
    const bool stored = !elp.paths.empty() && elp.paths.size() == elp.pathCount;
    if (stored && r.winner.losslessTags > r.lowerBound)
    {
        SearchPaths(elp, opt, search, r);
    }
    uint64_t hops = 0;
    for (const Path& p : elp.paths)
    {
        hops += p.size() - 2;
    }
    if (stored && r.winner.losslessTags > r.lowerBound && opt.classes == 1 &&
        ExactTagsAvailable() && hops <= search.exactMaxHops)
    {
        SolveExactly(elp, search, r);
    }
    r.optimal |= r.winner.losslessTags == r.lowerBound;
    return r;
}

uint32_t
TagLowerBound(const HopGraph& elp, uint32_t classes)
{
    const Topology& topo = elp.GetTopology();
    const uint32_t nPorts = topo.GetNPorts();
    // the port graph's successors of ingress port i, enumerated (never stored: Table V's
    // largest inputs have tens of millions of edges)
    auto forEachNext = [&](PortIndex i, auto f) {
        const PortRef at = topo.GetPortRef(i);
        if (!topo.IsForwarder(at.node))
        {
            return;
        }
        for (PortNo out = 0; out < topo.GetNode(at.node).ports; ++out)
        {
            const PortRef peer = topo.GetPeer(at.node, out);
            if (elp.GetMask(at.node, at.port, out) != 0 && peer.node != kNone &&
                topo.IsForwarder(peer.node))
            {
                f(topo.GetPortIndex(peer.node, peer.port));
            }
        }
    };
    // Kahn's algorithm: the graph is acyclic when every port gets removed
    std::vector<uint32_t> indegree(nPorts, 0);
    for (PortIndex i = 0; i < nPorts; ++i)
    {
        forEachNext(i, [&](PortIndex j) { ++indegree[j]; });
    }
    std::vector<PortIndex> ready;
    for (PortIndex i = 0; i < nPorts; ++i)
    {
        if (indegree[i] == 0)
        {
            ready.push_back(i);
        }
    }
    uint32_t removed = 0;
    while (!ready.empty())
    {
        const PortIndex i = ready.back();
        ready.pop_back();
        ++removed;
        forEachNext(i, [&](PortIndex j) {
            if (--indegree[j] == 0)
            {
                ready.push_back(j);
            }
        });
    }
    return classes + (removed < nPorts ? 1 : 0);
}

} // namespace tagger
} // namespace ns3
