/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 */

#include "tagger-elp-core.h"

#include <algorithm>

namespace ns3
{
namespace tagger
{
namespace detail
{

void
ThrowTooLong()
{
    throw TaggerError("an ELP path would pass more than " + std::to_string(kMaxLevel) +
                      " forwarding nodes (the most a HopGraph can hold)");
}

std::string
PathText(const Topology& topo, const Path& path)
{
    std::string s;
    for (size_t i = 0; i < path.size(); ++i)
    {
        if (path.size() > 24 && i == 12)
        {
            s += " ...";
            i = path.size() - 12;
        }
        if (!s.empty())
        {
            s += ' ';
        }
        s +=
            path[i] < topo.GetNNodes() ? topo.GetNode(path[i]).name : "#" + std::to_string(path[i]);
    }
    return s;
}

std::string
CheckPath(const Topology& topo, const Path& path)
{
    if (path.size() < 2)
    {
        return "a path needs at least two nodes, this one has " + std::to_string(path.size());
    }
    for (NodeId n : path)
    {
        if (n >= topo.GetNNodes())
        {
            return "node id " + std::to_string(n) + " does not exist";
        }
    }
    if (!topo.IsHost(path.front()))
    {
        return "the path starts at " + topo.GetNode(path.front()).name + ", which is not a host";
    }
    if (!topo.IsHost(path.back()))
    {
        return "the path ends at " + topo.GetNode(path.back()).name + ", which is not a host";
    }
    {
        std::vector<NodeId> sorted(path);
        std::sort(sorted.begin(), sorted.end());
        auto it = std::adjacent_find(sorted.begin(), sorted.end());
        if (it != sorted.end())
        {
            return "node " + topo.GetNode(*it).name + " appears twice (a loop)";
        }
    }
    for (size_t i = 0; i + 1 < path.size(); ++i)
    {
        if (topo.GetPortTo(path[i], path[i + 1]) == kNone)
        {
            return topo.GetNode(path[i]).name + " and " + topo.GetNode(path[i + 1]).name +
                   " are not linked";
        }
    }
    for (size_t i = 1; i + 1 < path.size(); ++i)
    {
        if (!topo.IsForwarder(path[i]))
        {
            return "the path passes through host " + topo.GetNode(path[i]).name +
                   ", which does not relay";
        }
    }
    if (path.size() - 2 > kMaxLevel)
    {
        return "the path has " + std::to_string(path.size() - 2) + " forwarding nodes; at most " +
               std::to_string(kMaxLevel) +
               " are supported (kMaxLevel: a HopGraph keeps the hop levels of a transition in 64 "
               "bits)";
    }
    return "";
}

void
SortPaths(std::vector<Path>& paths)
{
    std::stable_sort(paths.begin(), paths.end(), [](const Path& a, const Path& b) {
        return a.front() != b.front() ? a.front() < b.front() : a.back() < b.back();
    });
}

Net::Net(const Topology& t)
    : topo(t),
      n(t.GetNNodes())
{
    fwd.resize(n);
    host.resize(n);
    for (NodeId x = 0; x < n; ++x)
    {
        fwd[x] = t.IsForwarder(x);
        host[x] = t.IsHost(x);
        if (host[x])
        {
            hosts.push_back(x);
        }
    }
    BuildAdjacency();
    LinkDirections();
    FindAttachments();
    FindUnits();
}

void
Net::BuildAdjacency()
{
    begin.assign(n + 1, 0);
    fwdEnd.assign(n, 0);
    std::vector<NodeId> mark(n, kNone);
    std::vector<Adj> list;
    for (NodeId x = 0; x < n; ++x)
    {
        list.clear();
        for (PortNo p = 0; p < topo.GetNode(x).ports; ++p)
        {
            PortRef r = topo.GetPeer(x, p);
            if (r.node == kNone || mark[r.node] == x)
            {
                continue;
            }
            mark[r.node] = x;
            list.push_back(Adj{r.node, p, kNone, r.port});
        }
        std::sort(list.begin(), list.end(), [this](const Adj& a, const Adj& b) {
            if (fwd[a.nbr] != fwd[b.nbr])
            {
                return fwd[a.nbr] > fwd[b.nbr];
            }
            return a.nbr < b.nbr;
        });
        begin[x] = static_cast<uint32_t>(adj.size());
        uint32_t nf = 0;
        for (const Adj& a : list)
        {
            nf += fwd[a.nbr] ? 1 : 0;
        }
        fwdEnd[x] = begin[x] + nf;
        adj.insert(adj.end(), list.begin(), list.end());
    }
    begin[n] = static_cast<uint32_t>(adj.size());
    nbr.resize(adj.size());
    for (size_t i = 0; i < adj.size(); ++i)
    {
        nbr[i] = adj[i].nbr;
    }
}

void
Net::LinkDirections()
{
    rev.assign(adj.size(), kNone);
    for (NodeId x = 0; x < n; ++x)
    {
        for (uint32_t i = begin[x]; i < begin[x + 1]; ++i)
        {
            uint32_t j = FindEntry(adj[i].nbr, x);
            rev[i] = j;
            adj[i].in = adj[j].farIn;
        }
    }
}

void
Net::FindAttachments()
{
    anchorOf.assign(n, kNone);
    for (NodeId h : hosts)
    {
        if (!fwd[h] && begin[h + 1] - begin[h] == 1 && fwd[adj[begin[h]].nbr])
        {
            anchorOf[h] = adj[begin[h]].nbr;
        }
    }
    attBegin.assign(n + 1, 0);
    for (NodeId x = 0; x < n; ++x)
    {
        attBegin[x] = static_cast<uint32_t>(att.size());
        if (!fwd[x])
        {
            continue;
        }
        for (uint32_t i = fwdEnd[x]; i < begin[x + 1]; ++i)
        {
            if (anchorOf[adj[i].nbr] == x)
            {
                att.push_back(i);
            }
        }
    }
    attBegin[n] = static_cast<uint32_t>(att.size());
}

void
Net::FindUnits()
{
    for (NodeId x = 0; x < n; ++x)
    {
        bool freeHost = host[x] && anchorOf[x] == kNone && begin[x + 1] > begin[x];
        if ((fwd[x] && AttCount(x) > 0) || freeHost)
        {
            units.push_back(x);
        }
        if (freeHost && !fwd[x])
        {
            freeNonFwd.push_back(x);
        }
    }
}

void
BfsOverForwarders(const Net& net,
                  NodeId root,
                  std::vector<int32_t>& dist,
                  std::vector<NodeId>& order)
{
    order.assign(1, root);
    dist[root] = 0;
    for (size_t q = 0; q < order.size(); ++q)
    {
        const NodeId x = order[q];
        for (uint32_t i = net.begin[x]; i < net.fwdEnd[x]; ++i)
        {
            const NodeId w = net.nbr[i];
            if (dist[w] < 0)
            {
                dist[w] = dist[x] + 1;
                order.push_back(w);
            }
        }
    }
}

RootBfsScratch::RootBfsScratch(const Net& net)
    : dist(net.n, -1),
      pos(net.n, 0)
{
    uint32_t widest = 1;
    for (NodeId x = 0; x < net.n; ++x)
    {
        widest = std::max(widest, net.fwdEnd[x] - net.begin[x]);
        if (net.fwd[x])
        {
            fwds.push_back(x);
        }
    }
    words = (widest + 63) / 64;
}

namespace
{

/**
 * Append the candidates of the nodes at positions [from, order.size()) to b,
 * from s.tmp: node at position from + k has s.tmp[s.at[k] .. s.at[k+1]).
 */
void
LayOutCandidates(RootBfsScratch& s, RootBfs& b, size_t from)
{
    for (size_t k = 0; from + k < b.order.size(); ++k)
    {
        b.cands.insert(b.cands.end(), s.tmp.begin() + s.at[k], s.tmp.begin() + s.at[k + 1]);
        b.candBegin.push_back(static_cast<uint32_t>(b.cands.size()));
    }
}

/**
 * Top-down step from the frontier [fb, fe) at level: discover the next level
 * in order, and give each of its nodes its candidates (the frontier
 * forwarders next to it, marked in a bitset over its adjacency, so that they
 * come out in adjacency order).
 * \return the nodes discovered
 */
size_t
TopDown(const Net& net, RootBfsScratch& s, RootBfs& b, size_t fb, size_t fe, int32_t level)
{
    int32_t* d = s.dist.data();
    const uint32_t words = s.words;
    std::vector<uint64_t>& marks = s.keys; // per new node: `words` words over its adjacency
    marks.clear();                         // (a bottom-up step leaves its keys)
    for (size_t q = fb; q < fe; ++q)
    {
        const NodeId x = b.order[q];
        const bool fwd = net.fwd[x]; // only a host root does not forward
        for (uint32_t i = net.begin[x]; i < net.fwdEnd[x]; ++i)
        {
            const NodeId y = net.nbr[i];
            if (d[y] < 0)
            {
                d[y] = level + 1;
                s.pos[y] = static_cast<uint32_t>(b.order.size());
                b.order.push_back(y);
                b.dist.push_back(level + 1);
                marks.resize((b.order.size() - fe) * words, 0);
            }
            else if (d[y] != level + 1)
            {
                continue;
            }
            if (fwd)
            {
                const uint32_t bit = net.rev[i] - net.begin[y];
                marks[(s.pos[y] - fe) * words + bit / 64] |= uint64_t{1} << (bit % 64);
            }
        }
    }
    const size_t found = b.order.size() - fe;
    for (size_t k = 0; k < found; ++k)
    {
        const uint32_t base = net.begin[b.order[fe + k]];
        for (uint32_t w = 0; w < words; ++w)
        {
            for (uint64_t m = marks[k * words + w]; m != 0; m &= m - 1)
            {
                b.cands.push_back(base + w * 64 + static_cast<uint32_t>(__builtin_ctzll(m)));
            }
        }
        b.candBegin.push_back(static_cast<uint32_t>(b.cands.size()));
    }
    return found;
}

/**
 * Bottom-up step from the frontier at level: every unreached forwarder with a
 * neighbour at level joins the next level, with those neighbours as its
 * candidates; the new nodes are put in top-down order.
 * \return the nodes discovered
 */
size_t
BottomUp(const Net& net, RootBfsScratch& s, RootBfs& b, int32_t level)
{
    int32_t* d = s.dist.data();
    s.keys.clear();
    s.tmp.clear();
    std::vector<uint32_t> start; // per node found (in s.keys order): its first candidate in tmp
    size_t kept = 0;
    for (NodeId u : s.unseen)
    {
        if (d[u] >= 0)
        {
            continue; // reached by a top-down step
        }
        const size_t first = s.tmp.size();
        uint64_t key = ~uint64_t{0};
        for (uint32_t i = net.begin[u]; i < net.fwdEnd[u]; ++i)
        {
            const NodeId y = net.nbr[i];
            if (d[y] == level)
            {
                s.tmp.push_back(i);
                key = std::min(key, uint64_t{s.pos[y]} << 32 | net.rev[i]);
            }
        }
        if (s.tmp.size() == first)
        {
            s.unseen[kept++] = u;
            continue;
        }
        start.push_back(static_cast<uint32_t>(first));
        s.keys.push_back(key);
        s.keys.push_back(uint64_t{u} << 32 | (start.size() - 1));
    }
    s.unseen.resize(kept);
    // sort the new nodes by key (pairs of words: key, then node and index)
    const size_t found = start.size();
    std::vector<std::pair<uint64_t, uint64_t>> byKey(found);
    for (size_t k = 0; k < found; ++k)
    {
        byKey[k] = {s.keys[2 * k], s.keys[2 * k + 1]};
    }
    std::sort(byKey.begin(), byKey.end());
    start.push_back(static_cast<uint32_t>(s.tmp.size()));
    std::vector<uint32_t> ordered; // the candidates in the new order
    s.at.assign(1, 0);
    const size_t from = b.order.size();
    for (const auto& [key, node] : byKey)
    {
        const NodeId u = static_cast<NodeId>(node >> 32);
        const uint32_t k = static_cast<uint32_t>(node);
        d[u] = level + 1;
        s.pos[u] = static_cast<uint32_t>(b.order.size());
        b.order.push_back(u);
        b.dist.push_back(level + 1);
        ordered.insert(ordered.end(), s.tmp.begin() + start[k], s.tmp.begin() + start[k + 1]);
        s.at.push_back(static_cast<uint32_t>(ordered.size()));
    }
    s.tmp.swap(ordered);
    LayOutCandidates(s, b, from);
    return found;
}

} // namespace

void
RunRootBfs(const Net& net, NodeId r, RootBfsScratch& s, RootBfs& b)
{
    b.order.assign(1, r);
    b.dist.assign(1, 0);
    b.candBegin.assign(2, 0); // the root has no candidates
    b.cands.clear();
    s.dist[r] = 0;
    s.pos[r] = 0;
    size_t unreached = s.fwds.size() - (net.fwd[r] ? 1 : 0);
    bool listed = false; // s.unseen holds the unreached forwarders (and maybe reached ones)
    size_t fb = 0;
    for (int32_t level = 0; fb < b.order.size() && unreached > 0; ++level)
    {
        const size_t fe = b.order.size();
        // level 0 top-down: a host root is no neighbour's candidate, yet reaches them
        if (level > 0 && unreached < fe - fb)
        {
            if (!listed)
            {
                s.unseen.clear();
                for (NodeId x : s.fwds)
                {
                    if (s.dist[x] < 0)
                    {
                        s.unseen.push_back(x);
                    }
                }
                listed = true;
            }
            unreached -= BottomUp(net, s, b, level);
        }
        else
        {
            unreached -= TopDown(net, s, b, fb, fe, level);
        }
        fb = fe;
    }
    b.candAdj.resize(b.cands.size());
    for (size_t k = 0; k < b.cands.size(); ++k)
    {
        b.candAdj[k] = net.adj[b.cands[k]];
    }
    for (NodeId x : b.order)
    {
        s.dist[x] = -1;
    }
}

PortSets::PortSets(const Topology& topo)
{
    m_base.resize(topo.GetNNodes() + 1, 0);
    for (NodeId x = 0; x < topo.GetNNodes(); ++x)
    {
        m_base[x + 1] = m_base[x] + (topo.GetNode(x).ports + 63) / 64;
    }
    m_bits.assign(m_base.back(), 0);
}

void
FillAttachedSources(const Net& net, const PortSets& outs, HopGraph& g)
{
    for (NodeId x = 0; x < net.n; ++x)
    {
        if (!net.fwd[x] || net.AttCount(x) == 0)
        {
            continue;
        }
        outs.ForEach(x, [&](PortNo p) {
            for (uint32_t k = net.attBegin[x]; k < net.attBegin[x + 1]; ++k)
            {
                g.AddMask(x, net.adj[net.att[k]].in, p, uint64_t{1} << 1);
            }
        });
    }
}

} // namespace detail
} // namespace tagger
} // namespace ns3
