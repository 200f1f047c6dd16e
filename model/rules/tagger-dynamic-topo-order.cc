/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tagger-dynamic-topo-order.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{
namespace tagger
{

DynamicTopoOrder::DynamicTopoOrder(uint32_t nodes, bool naive)
    : m_naive(naive)
{
    Resize(nodes);
}

void
DynamicTopoOrder::Resize(uint32_t n)
{
    uint32_t old = GetNNodes();
    if (n <= old)
    {
        return;
    }
    m_out.resize(n);
    m_in.resize(n);
    if (m_landmarks)
    {
        m_reach.resize(static_cast<size_t>(n) * kLandmarkWords, 0);
        m_reachedBy.resize(static_cast<size_t>(n) * kLandmarkWords, 0);
    }
    m_ord.resize(n);
    m_pos.resize(n);
    m_mark.resize(n, 0);
    m_markBack.resize(n, 0);
    for (uint32_t i = old; i < n; ++i)
    {
        // new nodes have no edges: append them at the end of the order
        m_ord[i] = i;
        m_pos[i] = i;
    }
}

void
DynamicTopoOrder::SetInitialOrder(const std::vector<uint32_t>& order)
{
    if (m_nEdges != 0 || order.size() != m_ord.size())
    {
        throw std::logic_error("DynamicTopoOrder::SetInitialOrder: graph not empty or wrong size");
    }
    for (uint32_t p = 0; p < order.size(); ++p)
    {
        m_pos[p] = order[p];
        m_ord[order[p]] = p;
    }
}

void
DynamicTopoOrder::SetLandmarks(const std::vector<uint32_t>& landmarks)
{
    if (m_nEdges != 0 || landmarks.size() > kMaxLandmarks)
    {
        throw std::logic_error("DynamicTopoOrder::SetLandmarks: graph not empty or too many");
    }
    m_reach.assign(m_ord.size() * kLandmarkWords, 0);
    m_reachedBy.assign(m_ord.size() * kLandmarkWords, 0);
    for (size_t i = 0; i < landmarks.size(); ++i)
    {
        const size_t word = landmarks[i] * kLandmarkWords + i / 64;
        m_reach[word] |= 1ULL << (i % 64);
        m_reachedBy[word] |= 1ULL << (i % 64);
    }
    m_landmarks = !m_naive && !landmarks.empty();
}

bool
DynamicTopoOrder::TryAddEdge(uint32_t u, uint32_t v)
{
    if (u == v)
    {
        return false;
    }
    Resize(std::max(u, v) + 1);
    if (std::find(m_out[u].begin(), m_out[u].end(), v) != m_out[u].end())
    {
        return true;
    }
    if (m_naive)
    {
        // a fresh search from the head for the tail, every time
        if (Reaches(v, u))
        {
            return false;
        }
    }
    else if (m_ord[v] < m_ord[u])
    {
        if (m_landmarks && ThroughLandmark(v, u))
        {
            ++m_filtered;
            return false; // v reaches a landmark that reaches u
        }
        if (!Reorder(u, v))
        {
            return false;
        }
    }
    m_out[u].push_back(v);
    m_in[v].push_back(u);
    ++m_nEdges;
    if (m_landmarks)
    {
        SpreadLandmarks(u, v);
    }
    if (m_recording)
    {
        m_addedEdges.emplace_back(u, v);
    }
    return true;
}

bool
DynamicTopoOrder::Reaches(uint32_t from, uint32_t to)
{
    ++m_epoch;
    m_stack.clear();
    m_stack.push_back(from);
    m_mark[from] = m_epoch;
    while (!m_stack.empty())
    {
        uint32_t n = m_stack.back();
        m_stack.pop_back();
        ++m_visited;
        if (n == to)
        {
            return true;
        }
        for (uint32_t m : m_out[n])
        {
            if (m_mark[m] != m_epoch)
            {
                m_mark[m] = m_epoch;
                m_stack.push_back(m);
            }
        }
    }
    return false;
}

bool
DynamicTopoOrder::Reorder(uint32_t u, uint32_t v)
{
    // Pearce-Kelly: the edge u -> v violates the order (ord[v] < ord[u]); only
    // nodes with positions in [ord[v], ord[u]] can be affected.
    if (!SearchAffected(u, v))
    {
        return false;
    }
    Reassign();
    return true;
}

bool
DynamicTopoOrder::SearchAffected(uint32_t u, uint32_t v)
{
    const uint32_t lb = m_ord[v];
    const uint32_t ub = m_ord[u];
    ++m_epoch;
    // Forward search from v among nodes before u, backward search from u among
    // nodes after v, both breadth first, always growing the smaller frontier by
    // one layer: when the edge closes a cycle the two searches meet half way
    // (a dense graph's short cycle is found after a few thousand nodes instead
    // of a whole region); otherwise both sets end complete, as Pearce-Kelly needs.
    m_fwd.assign(1, v);
    m_mark[v] = m_epoch;
    m_bwd.assign(1, u);
    m_markBack[u] = m_epoch;
    size_t fHead = 0;
    size_t bHead = 0;
    while (fHead < m_fwd.size() && bHead < m_bwd.size())
    {
        const bool grown = (m_fwd.size() - fHead <= m_bwd.size() - bHead)
                               ? ForwardLayer(u, ub, fHead, true)
                               : BackwardLayer(v, lb, bHead, true);
        if (!grown)
        {
            return false;
        }
    }
    // one side is complete without meeting the other: no cycle; complete the other
    while (fHead < m_fwd.size())
    {
        ForwardLayer(u, ub, fHead, false);
    }
    while (bHead < m_bwd.size())
    {
        BackwardLayer(v, lb, bHead, false);
    }
    return true;
}

bool
DynamicTopoOrder::ForwardLayer(uint32_t u, uint32_t ub, size_t& head, bool meet)
{
    for (const size_t end = m_fwd.size(); head < end; ++head)
    {
        const uint32_t n = m_fwd[head];
        ++m_visited;
        for (uint32_t m : m_out[n])
        {
            if (meet && (m == u || m_markBack[m] == m_epoch))
            {
                return false; // v reaches u: the edge closes a cycle
            }
            if (m_mark[m] != m_epoch && m_ord[m] < ub)
            {
                m_mark[m] = m_epoch;
                m_fwd.push_back(m);
            }
        }
    }
    return true;
}

bool
DynamicTopoOrder::BackwardLayer(uint32_t v, uint32_t lb, size_t& head, bool meet)
{
    for (const size_t end = m_bwd.size(); head < end; ++head)
    {
        const uint32_t n = m_bwd[head];
        ++m_visited;
        for (uint32_t m : m_in[n])
        {
            if (meet && (m == v || m_mark[m] == m_epoch))
            {
                return false; // v reaches u: the edge closes a cycle
            }
            if (m_markBack[m] != m_epoch && m_ord[m] > lb)
            {
                m_markBack[m] = m_epoch;
                m_bwd.push_back(m);
            }
        }
    }
    return true;
}

void
DynamicTopoOrder::SortByPosition(const std::vector<uint32_t>& nodes,
                                 std::vector<uint64_t>& keys) const
{
    keys.clear();
    for (uint32_t n : nodes)
    {
        keys.push_back((uint64_t{m_ord[n]} << 32) | n);
    }
    std::sort(keys.begin(), keys.end());
}

void
DynamicTopoOrder::Reassign()
{
    // the backward set must come before the forward set; reuse their positions
    // sort both sets by position with packed (position, node) keys
    SortByPosition(m_bwd, m_bwdKeys);
    SortByPosition(m_fwd, m_fwdKeys);
    // the positions both sets occupied, in increasing order
    m_slots.resize(m_bwdKeys.size() + m_fwdKeys.size());
    std::merge(m_bwdKeys.begin(),
               m_bwdKeys.end(),
               m_fwdKeys.begin(),
               m_fwdKeys.end(),
               m_slots.begin());
    size_t i = 0;
    for (const std::vector<uint64_t>* keys : {&m_bwdKeys, &m_fwdKeys})
    {
        for (uint64_t key : *keys)
        {
            const uint32_t n = static_cast<uint32_t>(key);
            const uint32_t p = static_cast<uint32_t>(m_slots[i++] >> 32);
            if (m_recording && m_ord[n] != p)
            {
                m_ordChanges.emplace_back(n, m_ord[n]);
            }
            m_ord[n] = p;
            m_pos[p] = n;
        }
    }
}

bool
DynamicTopoOrder::ThroughLandmark(uint32_t from, uint32_t to) const
{
    const uint64_t* reach = &m_reach[static_cast<size_t>(from) * kLandmarkWords];
    const uint64_t* by = &m_reachedBy[static_cast<size_t>(to) * kLandmarkWords];
    for (uint32_t w = 0; w < kLandmarkWords; ++w)
    {
        if ((reach[w] & by[w]) != 0)
        {
            return true;
        }
    }
    return false;
}

bool
DynamicTopoOrder::Absorb(std::vector<uint64_t>& masks, uint32_t from, uint32_t to)
{
    const uint64_t* src = &masks[static_cast<size_t>(from) * kLandmarkWords];
    uint64_t* dst = &masks[static_cast<size_t>(to) * kLandmarkWords];
    bool grew = false;
    for (uint32_t w = 0; w < kLandmarkWords; ++w)
    {
        const uint64_t add = src[w] & ~dst[w];
        dst[w] |= add;
        grew |= (add != 0);
    }
    return grew;
}

void
DynamicTopoOrder::SpreadLandmarks(uint32_t u, uint32_t v)
{
    // landmarks reaching u now reach v and everything after it
    if (Absorb(m_reachedBy, u, v))
    {
        m_stack.assign(1, v);
        while (!m_stack.empty())
        {
            const uint32_t n = m_stack.back();
            m_stack.pop_back();
            for (uint32_t m : m_out[n])
            {
                if (Absorb(m_reachedBy, n, m))
                {
                    m_stack.push_back(m);
                }
            }
        }
    }
    // landmarks reached from v are now reached from u and everything before it
    if (Absorb(m_reach, v, u))
    {
        m_stack.assign(1, u);
        while (!m_stack.empty())
        {
            const uint32_t n = m_stack.back();
            m_stack.pop_back();
            for (uint32_t m : m_in[n])
            {
                if (Absorb(m_reach, n, m))
                {
                    m_stack.push_back(m);
                }
            }
        }
    }
}

bool
DynamicTopoOrder::CheckOrder() const
{
    for (uint32_t u = 0; u < m_out.size(); ++u)
    {
        if (m_pos[m_ord[u]] != u)
        {
            return false;
        }
        for (uint32_t v : m_out[u])
        {
            if (!m_naive && m_ord[u] >= m_ord[v])
            {
                return false;
            }
        }
    }
    return true;
}

void
DynamicTopoOrder::Checkpoint()
{
    m_recording = true;
    m_addedEdges.clear();
    m_ordChanges.clear();
}

void
DynamicTopoOrder::Rollback()
{
    for (auto it = m_addedEdges.rbegin(); it != m_addedEdges.rend(); ++it)
    {
        auto& out = m_out[it->first];
        out.erase(std::find(out.begin(), out.end(), it->second));
        auto& in = m_in[it->second];
        in.erase(std::find(in.begin(), in.end(), it->first));
        --m_nEdges;
    }
    for (auto it = m_ordChanges.rbegin(); it != m_ordChanges.rend(); ++it)
    {
        m_ord[it->first] = it->second;
        m_pos[it->second] = it->first;
    }
    m_addedEdges.clear();
    m_ordChanges.clear();
    m_recording = false;
    m_landmarks = false; // reachability bits may describe removed edges
}

} // namespace tagger
} // namespace ns3
