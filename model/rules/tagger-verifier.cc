/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tagger-verifier.h"

#include "tagger-parallel.h"

#include <algorithm>
#include <sstream>

namespace ns3
{
namespace tagger
{

namespace
{

bool
Forwards(const Topology& topo, NodeId n)
{
    return n != kNone && topo.IsForwarder(n) && topo.GetNode(n).ports > 0;
}

TaggedNode
NodeOfPort(const Topology& topo, PortIndex idx, Tag tag)
{
    PortRef r = topo.GetPortRef(idx);
    return TaggedNode{r.node, r.port, tag};
}

std::string
FormatRule(const Topology& topo, NodeId x, const Rule& r)
{
    std::ostringstream os;
    os << topo.GetNode(x).name << " (tag " << unsigned(r.tag) << ", in " << r.inPort << ", out "
       << r.outPort << ") -> " << unsigned(r.newTag);
    return os.str();
}

std::string
FormatPath(const Topology& topo, const Path& path)
{
    std::string s;
    for (NodeId n : path)
    {
        s += (s.empty() ? "" : " ") + topo.GetNode(n).name;
    }
    return s;
}

/// Bitmask of the start tags of `classes` classes: tags 1..classes.
uint64_t
ClassTags(uint32_t classes)
{
    uint64_t start = 0;
    for (uint32_t c = 1; c <= classes; ++c)
    {
        start |= 1ULL << c;
    }
    return start;
}

/**
 * Every Clos up-down walk with at most `bounces` bounces (a switch where a packet
 * that came from a higher layer leaves to a higher layer) must stay lossless:
 * a fixpoint over states (ingress port, bounces so far) holding the set of tags
 * packets can carry there, starting at every ToR host port with the class tags.
 */
class UpDownWalks
{
  public:
    UpDownWalks(const TagRules& rules, uint32_t bounces, uint32_t lossless)
        : m_rules(rules),
          m_topo(rules.GetTopology()),
          m_bounces(bounces),
          m_nb(bounces + 1),
          m_lossless(lossless),
          m_tags(static_cast<size_t>(m_topo.GetNPorts()) * m_nb, 0)
    {
    }

    /// Run the fixpoint from the class tags; the first failure wins.
    VerifyResult Run(uint32_t classes)
    {
        Seed(ClassTags(classes));
        while (!m_work.empty() && m_res.ok)
        {
            const uint32_t s = m_work.back();
            m_work.pop_back();
            Expand(s);
        }
        return m_res;
    }

  private:
    /// Packets of every host enter their first forwarder with the start tags.
    void Seed(uint64_t start)
    {
        for (NodeId h : m_topo.GetHosts())
        {
            for (PortNo p = 0; p < m_topo.GetNode(h).ports; ++p)
            {
                const PortRef first = m_topo.GetPeer(h, p);
                if (Forwards(m_topo, first.node))
                {
                    uint32_t s = m_topo.GetPortIndex(first.node, first.port) * m_nb;
                    if ((m_tags[s] | start) != m_tags[s])
                    {
                        m_tags[s] |= start;
                        m_work.push_back(s);
                    }
                }
            }
        }
    }

    /// Follow every up-down hop out of state s (port index * nb + bounces so far).
    void Expand(uint32_t s)
    {
        const uint32_t b = s % m_nb;
        const PortRef at = m_topo.GetPortRef(s / m_nb);
        const NodeId x = at.node;
        const int32_t layer = m_topo.GetNode(x).layer;
        const PortRef from = m_topo.GetPeer(x, at.port);
        const bool cameDown = from.node != kNone && m_topo.GetNode(from.node).layer > layer;
        for (PortNo out = 0; out < m_topo.GetNode(x).ports && m_res.ok; ++out)
        {
            const PortRef to = m_topo.GetPeer(x, out);
            if (out == at.port || to.node == kNone)
            {
                continue;
            }
            const uint32_t nbNext =
                b + ((cameDown && m_topo.GetNode(to.node).layer > layer) ? 1 : 0);
            if (nbNext > m_bounces)
            {
                continue; // not in the ELP: may be lossy
            }
            Hop(s, at, out, to, nbNext);
        }
    }

    /// The tags of state s take (at.node, at.port, out) to `to` with nbNext bounces.
    void Hop(uint32_t s, const PortRef& at, PortNo out, const PortRef& to, uint32_t nbNext)
    {
        const NodeId x = at.node;
        for (uint32_t t = 1; m_tags[s] >> t; ++t)
        {
            if (!(m_tags[s] >> t & 1))
            {
                continue;
            }
            const Tag nt = m_rules.Get(x, static_cast<Tag>(t), at.port, out);
            if (nt == kLossyTag || (m_lossless > 0 && t > m_lossless))
            {
                m_res.ok = false;
                m_res.problem = "up-down walk with " + std::to_string(nbNext) +
                                " bounce(s) leaves the lossless tags: " + m_topo.GetNode(x).name +
                                " (tag " + std::to_string(t) + ", in " + std::to_string(at.port) +
                                ", out " + std::to_string(out) + ") has no lossless rule";
                return;
            }
            if (Forwards(m_topo, to.node))
            {
                const uint32_t n = m_topo.GetPortIndex(to.node, to.port) * m_nb + nbNext;
                if (!(m_tags[n] >> nt & 1))
                {
                    m_tags[n] |= 1ULL << nt;
                    m_work.push_back(n);
                }
            }
        }
    }

    const TagRules& m_rules;
    const Topology& m_topo;
    uint32_t m_bounces;
    uint32_t m_nb; //!< bounce counts per port (bounces + 1)
    uint32_t m_lossless;
    std::vector<uint64_t> m_tags; //!< per state: the tags packets can carry there
    std::vector<uint32_t> m_work; //!< states whose tags grew
    VerifyResult m_res;
};

/**
 * The edges of every tag's subgraph (rules that keep the tag toward a
 * forwarder), checking the other requirements on the way: no rule on an
 * unconnected port, no tag decrease, no tag above `lossless` (0: no limit).
 * res records the first violation.
 */
/// A check failed at one node (thrown out of ParallelFor: the lowest node's wins).
struct NodeFailure
{
    VerifyResult res; //!< the failure
};

/**
 * The checks of VerifyDeadlockFree at node x but the cycles: false with the
 * first violation.  maxTag becomes the highest tag of x's rules (checked ones).
 */
bool
CheckNodeRules(const TagRules& rules, NodeId x, uint32_t lossless, VerifyResult& res, Tag& maxTag)
{
    const Topology& topo = rules.GetTopology();
    rules.ForEachRule(x, [&](const Rule& r) {
        if (!res.ok)
        {
            return;
        }
        maxTag = std::max({maxTag, r.tag, r.newTag});
        const PortRef peer = topo.GetPeer(x, r.outPort);
        if (peer.node == kNone)
        {
            res.ok = false;
            res.problem = "rule on an unconnected port: " + FormatRule(topo, x, r);
            return;
        }
        if (r.newTag < r.tag)
        {
            res.ok = false;
            res.decrease = {TaggedNode{x, r.inPort, r.tag},
                            TaggedNode{peer.node, peer.port, r.newTag}};
            res.problem = "tag decreases along an edge (requirement 2): " + FormatRule(topo, x, r);
            return;
        }
        const bool toForwarder = Forwards(topo, peer.node);
        if (lossless > 0 && (r.tag > lossless || (toForwarder && r.newTag > lossless)))
        {
            res.ok = false;
            res.problem = "tag above the " + std::to_string(lossless) +
                          " lossless queues: " + FormatRule(topo, x, r);
        }
    });
    return res.ok;
}

/**
 * The requirements on single rules: no rule on an unconnected port, no tag
 * decrease, no tag above `lossless` (0: no limit).  Nodes are checked on
 * `threads` threads; the first violation in node and rule order is returned.
 * maxTag becomes the highest tag of the rules at forwarding nodes.
 */
VerifyResult
CheckRules(const TagRules& rules, uint32_t lossless, unsigned threads, Tag& maxTag)
{
    const Topology& topo = rules.GetTopology();
    std::vector<Tag> maxTags(topo.GetNNodes(), 0);
    try
    {
        ParallelFor(threads, topo.GetNNodes(), 16, [&](std::size_t i) {
            const NodeId x = static_cast<NodeId>(i);
            VerifyResult failure;
            if (Forwards(topo, x) && !CheckNodeRules(rules, x, lossless, failure, maxTags[x]))
            {
                throw NodeFailure{failure};
            }
        });
    }
    catch (const NodeFailure& f)
    {
        return f.res;
    }
    maxTag = maxTags.empty() ? 0 : *std::max_element(maxTags.begin(), maxTags.end());
    return VerifyResult();
}

/// Record the cycle closed by the edge u -> v (v on the search path, parent[] its tree edges).
void
ReportCycle(const Topology& topo,
            Tag tag,
            const std::vector<PortIndex>& parent,
            PortIndex u,
            PortIndex v,
            VerifyResult& res)
{
    // the cycle: v ... u along tree edges, then back to v
    std::vector<TaggedNode> cycle;
    for (PortIndex n = u; n != v; n = parent[n])
    {
        cycle.push_back(NodeOfPort(topo, n, tag));
    }
    cycle.push_back(NodeOfPort(topo, v, tag));
    std::reverse(cycle.begin(), cycle.end());
    res.ok = false;
    res.cycle = cycle;
    res.problem = "cycle inside tag " + std::to_string(tag) + " (requirement 1):";
    for (const auto& c : cycle)
    {
        res.problem += " " + topo.GetNode(c.node).name + ":" + std::to_string(c.port);
    }
    res.problem += " -> back to " + topo.GetNode(cycle.front().node).name;
}

/**
 * Requirement 1 for one tag: its subgraph (an edge from ingress port (x, in)
 * to the ingress port behind out for every rule (x, tag, in, out) -> tag
 * toward a forwarder) is acyclic.  A depth-first search over the ports in
 * ascending order, each port's edges by ascending out port, enumerated from
 * the rules rather than stored; the first edge to a port on the search path
 * closes the cycle reported in res (then false).
 */
bool
CheckAcyclic(const TagRules& rules, Tag tag, VerifyResult& res)
{
    const Topology& topo = rules.GetTopology();
    const PortIndex nPorts = topo.GetNPorts();

    enum : uint8_t
    {
        WHITE,
        GRAY,
        BLACK
    };

    std::vector<uint8_t> color(nPorts, WHITE);
    std::vector<PortIndex> parent(nPorts);
    std::vector<std::pair<PortIndex, PortNo>> stack; // (port, next out port to try)
    // the next edge of port u from out port `out` on: its target, or kNone
    auto next = [&](PortIndex u, PortNo& out) {
        const PortRef at = topo.GetPortRef(u);
        const uint32_t p = Forwards(topo, at.node) ? topo.GetNode(at.node).ports : 0;
        for (; out < p; ++out)
        {
            if (rules.Get(at.node, tag, at.port, out) == tag)
            {
                const PortRef peer = topo.GetPeer(at.node, out);
                if (Forwards(topo, peer.node))
                {
                    return topo.GetPortIndex(peer.node, peer.port);
                }
            }
        }
        return kNone;
    };
    for (PortIndex root = 0; root < nPorts; ++root)
    {
        if (color[root] != WHITE)
        {
            continue;
        }
        color[root] = GRAY;
        parent[root] = root;
        stack.assign(1, {root, 0});
        while (!stack.empty())
        {
            auto& [u, out] = stack.back();
            const PortIndex v = next(u, out);
            if (v == kNone)
            {
                color[u] = BLACK;
                stack.pop_back();
                continue;
            }
            ++out;
            if (color[v] == WHITE)
            {
                color[v] = GRAY;
                parent[v] = u;
                stack.emplace_back(v, 0);
            }
            else if (color[v] == GRAY)
            {
                ReportCycle(topo, tag, parent, u, v, res);
                return false;
            }
        }
    }
    return true;
}

/// Every explicit ELP path, with every class tag, stays lossless (the counterexample is a path).
VerifyResult
VerifyPathsLossless(const TagRules& rules, const Elp& elp, uint32_t classes, uint32_t lossless)
{
    const Topology& topo = rules.GetTopology();
    VerifyResult res;
    for (const Path& path : elp.paths)
    {
        for (uint32_t c = 1; c <= classes; ++c)
        {
            Tag tag = static_cast<Tag>(c);
            for (size_t i = 1; i + 1 < path.size(); ++i)
            {
                const NodeId prev = path[i - 1];
                const NodeId x = path[i];
                const PortRef in = topo.GetPeer(prev, topo.GetPortTo(prev, x));
                const PortNo out = topo.GetPortTo(x, path[i + 1]);
                const Tag next = rules.Get(x, tag, in.port, out);
                if (next == kLossyTag || (lossless > 0 && tag > lossless))
                {
                    res.ok = false;
                    res.path = path;
                    res.problem = "ELP path leaves the lossless tags at " + topo.GetNode(x).name +
                                  " (class " + std::to_string(c) + ", tag " + std::to_string(tag) +
                                  ", in " + std::to_string(in.port) + ", out " +
                                  std::to_string(out) + "): " + FormatPath(topo, path);
                    return res;
                }
                tag = next;
            }
        }
    }
    return res;
}

/**
 * Every transition of the brute-force graph at `level` out of node x, with
 * every tag `here` says packets carry at its ingress ports, has a lossless
 * rule; the tags they leave with toward a forwarder are added to `leaving` at
 * x's out port (only x's ports are written).  Records the first failure in res
 * and returns false.
 */
bool
CheckLevelAtNode(const TagRules& rules,
                 const HopGraph& g,
                 uint32_t level,
                 NodeId x,
                 uint32_t lossless,
                 const std::vector<uint64_t>& here,
                 std::vector<uint64_t>& leaving,
                 VerifyResult& res)
{
    const Topology& topo = rules.GetTopology();
    const uint32_t p = topo.GetNode(x).ports;
    for (PortNo in = 0; in < p; ++in)
    {
        const uint64_t tagsIn = here[topo.GetPortIndex(x, in)];
        for (PortNo out = 0; tagsIn != 0 && out < p; ++out)
        {
            if (!(g.GetMask(x, in, out) >> level & 1))
            {
                continue;
            }
            const PortRef peer = topo.GetPeer(x, out);
            for (uint32_t t = 1; tagsIn >> t; ++t)
            {
                if (!(tagsIn >> t & 1))
                {
                    continue;
                }
                const Tag nt = rules.Get(x, static_cast<Tag>(t), in, out);
                if (nt == kLossyTag || (lossless > 0 && t > lossless))
                {
                    res.ok = false;
                    res.problem = "ELP transition at level " + std::to_string(level) +
                                  " leaves the lossless tags: " + topo.GetNode(x).name + " (tag " +
                                  std::to_string(t) + ", in " + std::to_string(in) + ", out " +
                                  std::to_string(out) + ") has no lossless rule";
                    return false;
                }
                if (Forwards(topo, peer.node))
                {
                    leaving[topo.GetPortIndex(x, out)] |= 1ULL << nt;
                }
            }
        }
    }
    return true;
}

/**
 * Every transition of the brute-force graph, with every tag it can carry, has
 * a lossless rule.  Per level the nodes are checked on `threads` threads; the
 * lowest failing node's failure is the sequential one.
 */
VerifyResult
VerifyHopGraphLossless(const TagRules& rules,
                       const HopGraph& g,
                       uint32_t classes,
                       uint32_t lossless,
                       unsigned threads)
{
    const Topology& topo = rules.GetTopology();
    VerifyResult res;
    if (g.IsEmpty())
    {
        return res;
    }
    const uint32_t nPorts = topo.GetNPorts();
    std::vector<uint64_t> here(nPorts, ClassTags(classes));
    std::vector<uint64_t> leaving(nPorts, 0); // per out port: the tags sent to a forwarder
    for (uint32_t level = 1; level <= g.GetMaxLevel(); ++level)
    {
        std::fill(leaving.begin(), leaving.end(), 0);
        try
        {
            ParallelFor(threads, topo.GetNNodes(), 64, [&](std::size_t i) {
                const NodeId x = static_cast<NodeId>(i);
                VerifyResult failure;
                if (Forwards(topo, x) &&
                    !CheckLevelAtNode(rules, g, level, x, lossless, here, leaving, failure))
                {
                    throw NodeFailure{failure};
                }
            });
        }
        catch (const NodeFailure& f)
        {
            return f.res;
        }
        // the tags leaving by a port arrive at its peer's ingress (point-to-point links)
        std::fill(here.begin(), here.end(), 0);
        for (PortIndex i = 0; i < nPorts; ++i)
        {
            if (leaving[i] != 0)
            {
                const PortRef at = topo.GetPortRef(i);
                const PortRef peer = topo.GetPeer(at.node, at.port);
                here[topo.GetPortIndex(peer.node, peer.port)] |= leaving[i];
            }
        }
    }
    return res;
}

} // namespace

std::string
FormatTaggedNode(const Topology& topo, const TaggedNode& n)
{
    return topo.GetNode(n.node).name + " port " + std::to_string(n.port) + " tag " +
           std::to_string(n.tag);
}

VerifyResult
VerifyDeadlockFree(const TagRules& rules, uint32_t lossless, unsigned threads)
{
    Tag tags = 0; // the highest tag: the searches cover 1..tags
    VerifyResult res = CheckRules(rules, lossless, threads, tags);
    if (!res.ok)
    {
        return res;
    }
    // one search per tag, on threads; the lowest tag with a cycle is reported
    std::vector<VerifyResult> perTag(tags + 1);
    ParallelFor(threads, tags, 1, [&](std::size_t i) {
        CheckAcyclic(rules, static_cast<Tag>(i + 1), perTag[i + 1]);
    });
    for (uint32_t t = 1; t <= tags; ++t)
    {
        if (!perTag[t].ok)
        {
            return perTag[t];
        }
    }
    return res;
}

VerifyResult
VerifyElpLossless(const TagRules& rules,
                  const Elp& elp,
                  uint32_t classes,
                  uint32_t lossless,
                  unsigned threads,
                  ElpScope scope)
{
    if (scope == ElpScope::PATHS && elp.paths.size() != elp.pathCount)
    {
        VerifyResult res;
        res.ok = false;
        res.problem = "rules for the explicit paths only, but " +
                      std::to_string(elp.pathCount - elp.paths.size()) +
                      " ELP paths are not stored";
        return res;
    }
    // explicit paths first: the counterexample is then a whole path
    VerifyResult res = VerifyPathsLossless(rules, elp, classes, lossless);
    if (!res.ok || scope == ElpScope::PATHS)
    {
        return res;
    }
    if (elp.upDownBounces >= 0)
    {
        return UpDownWalks(rules, static_cast<uint32_t>(elp.upDownBounces), lossless).Run(classes);
    }
    // then every transition of the brute-force graph, with every tag it can carry
    return VerifyHopGraphLossless(rules, elp.graph, classes, lossless, threads);
}

VerifyResult
Verify(const TagRules& rules, const Elp& elp, uint32_t classes, unsigned threads, ElpScope scope)
{
    VerifyResult res = VerifyDeadlockFree(rules, 0, threads);
    if (!res.ok)
    {
        return res;
    }
    return VerifyElpLossless(rules, elp, classes, 0, threads, scope);
}

} // namespace tagger
} // namespace ns3
