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
