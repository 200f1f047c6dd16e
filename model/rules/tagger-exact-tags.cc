/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 */

#include "tagger-exact-tags.h"

#include "tagger-elp-core.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

#ifdef TAGGER_HAVE_Z3
#include <z3++.h>
#endif

namespace ns3
{
namespace tagger
{

namespace
{

/// One distinct path prefix: the hop at its last node.
struct Prefix
{
    PortIndex inIdx;           //!< the ingress port of the hop (names node and in port)
    uint32_t parent;           //!< the prefix one hop shorter, or kNone for a first hop
    PortNo parentOut;          //!< the parent's out port toward this hop
    std::vector<PortNo> exits; //!< out ports of the paths that end after this hop
};

/// The distinct prefixes of the paths (children after their parents).
std::vector<Prefix>
BuildPrefixes(const Topology& topo, const std::vector<Path>& paths)
{
    std::vector<Prefix> prefixes;
    std::map<std::pair<uint32_t, PortIndex>, uint32_t> index;
    for (size_t k = 0; k < paths.size(); ++k)
    {
        const Path& path = paths[k];
        const std::string why = detail::CheckPath(topo, path);
        if (!why.empty())
        {
            throw TaggerError("exact tags: path " + std::to_string(k + 1) + " (" +
                              detail::PathText(topo, path) + "): " + why);
        }
        uint32_t parent = kNone;
        PortNo parentOut = kNone;
        for (size_t i = 1; i + 1 < path.size(); ++i)
        {
            const PortRef at = topo.GetPeer(path[i - 1], topo.GetPortTo(path[i - 1], path[i]));
            const PortIndex inIdx = topo.GetPortIndex(at.node, at.port);
            auto it = index.find({parent, inIdx});
            if (it == index.end())
            {
                it = index.emplace(std::make_pair(parent, inIdx), prefixes.size()).first;
                prefixes.push_back(Prefix{inIdx, parent, parentOut, {}});
            }
            parent = it->second;
            parentOut = topo.GetPortTo(path[i], path[i + 1]);
        }
        std::vector<PortNo>& exits = prefixes[parent].exits;
        if (std::find(exits.begin(), exits.end(), parentOut) == exits.end())
        {
            exits.push_back(parentOut);
        }
    }
    return prefixes;
}

#ifdef TAGGER_HAVE_Z3
/// The rules of a solution: the tag of every prefix from the model.
void
Witness(const std::vector<Prefix>& prefixes,
        const std::vector<z3::expr>& tag,
        const z3::model& model,
        TagRules& rules)
{
    const Topology& topo = rules.GetTopology();
    std::vector<Tag> value(prefixes.size());
    for (size_t v = 0; v < prefixes.size(); ++v)
    {
        value[v] = static_cast<Tag>(model.eval(tag[v], true).get_numeral_int());
    }
    for (size_t v = 0; v < prefixes.size(); ++v)
    {
        if (prefixes[v].parent != kNone)
        {
            const PortRef from = topo.GetPortRef(prefixes[prefixes[v].parent].inIdx);
            rules.Set(from.node,
                      value[prefixes[v].parent],
                      from.port,
                      prefixes[v].parentOut,
                      value[v]);
        }
    }
    // last hops: the tag delivered is free; keep it unless a longer path set the rule
    for (size_t v = 0; v < prefixes.size(); ++v)
    {
        const PortRef at = topo.GetPortRef(prefixes[v].inIdx);
        for (PortNo out : prefixes[v].exits)
        {
            if (rules.Get(at.node, value[v], at.port, out) == kLossyTag)
            {
                rules.Set(at.node, value[v], at.port, out, value[v]);
            }
        }
    }
}

/**
 * Whether rules with tags 1..K exist (the encoding of the file comment of
 * tagger-exact-tags.h): 1 yes (and the rules of the solution in witness),
 * 0 no, -1 the resource limit ran out.
 */
int
Feasible(const std::vector<Prefix>& prefixes, uint32_t K, uint64_t resourceLimit, TagRules& witness)
{
    z3::context ctx;
    z3::solver solver(ctx);
    if (resourceLimit > 0)
    {
        solver.set("rlimit", static_cast<unsigned>(std::min<uint64_t>(resourceLimit, UINT32_MAX)));
    }
    const int k = static_cast<int>(K);
    std::vector<z3::expr> tag;
    std::map<std::tuple<PortIndex, PortNo, int>, z3::expr> rule;
    std::map<std::pair<int, PortIndex>, z3::expr> rank;
    auto rankOf = [&](int t, PortIndex p) {
        auto it = rank.find({t, p});
        if (it == rank.end())
        {
            const std::string name = "r" + std::to_string(t) + "_" + std::to_string(p);
            it = rank.emplace(std::make_pair(t, p), ctx.int_const(name.c_str())).first;
        }
        return it->second;
    };
    for (size_t v = 0; v < prefixes.size(); ++v)
    {
        const Prefix& pv = prefixes[v];
        tag.push_back(ctx.int_const(("t" + std::to_string(v)).c_str()));
        const z3::expr& tv = tag.back();
        if (pv.parent == kNone)
        {
            solver.add(tv == 1);
            continue;
        }
        solver.add(tv >= 1 && tv <= k);
        const z3::expr tu = tag[pv.parent];
        const PortIndex inU = prefixes[pv.parent].inIdx;
        for (int t = 1; t <= k; ++t)
        {
            auto key = std::make_tuple(inU, pv.parentOut, t);
            auto it = rule.find(key);
            if (it == rule.end())
            {
                const std::string name = "f" + std::to_string(inU) + "_" +
                                         std::to_string(pv.parentOut) + "_" + std::to_string(t);
                it = rule.emplace(key, ctx.int_const(name.c_str())).first;
                solver.add(it->second >= t && it->second <= k);
            }
            solver.add(z3::implies(tu == t, tv == it->second));
            solver.add(z3::implies(tu == t && tv == t, rankOf(t, inU) < rankOf(t, pv.inIdx)));
        }
    }
    switch (solver.check())
    {
    case z3::sat:
        Witness(prefixes, tag, solver.get_model(), witness);
        return 1;
    case z3::unsat:
        return 0;
    default:
        return -1;
    }
}
#endif

} // namespace

bool
ExactTagsAvailable()
{
#ifdef TAGGER_HAVE_Z3
    return true;
#else
    return false;
#endif
}

ExactTagsResult
MinimumLosslessTags(const Topology& topo,
                    const std::vector<Path>& paths,
                    uint32_t lowerBound,
                    uint32_t upperBound,
                    uint64_t resourceLimit)
{
    if (!ExactTagsAvailable())
    {
        throw TaggerError("exact tags: the rule library was built without Z3 (libz3-dev)");
    }
    if (lowerBound == 0 || lowerBound > upperBound)
    {
        throw TaggerError("exact tags: need 1 <= lower bound <= upper bound (got " +
                          std::to_string(lowerBound) + " and " + std::to_string(upperBound) + ")");
    }
    ExactTagsResult r;
    const std::vector<Prefix> prefixes = BuildPrefixes(topo, paths);
    r.prefixes = prefixes.size();
#ifdef TAGGER_HAVE_Z3
    try
    {
        for (uint32_t K = lowerBound; K < upperBound; ++K)
        {
            r.witness = TagRules(topo);
            const int feasible = Feasible(prefixes, K, resourceLimit, r.witness);
            if (feasible != 0)
            {
                r.solved = feasible == 1;
                r.minimum = r.solved ? K : 0;
                r.hasWitness = r.solved;
                return r;
            }
        }
    }
    catch (const z3::exception& e)
    {
        throw TaggerError(std::string("exact tags: Z3 failed: ") + e.msg());
    }
#else
    (void)resourceLimit;
#endif
    r.solved = true;
    r.minimum = upperBound;
    return r;
}

} // namespace tagger
} // namespace ns3
