/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tagger-dynamic-topo-order.h"

#include <algorithm>
#include <functional>
#include <stdexcept>

namespace ns3
{
namespace tagger
{

namespace
{

/// Label distance between neighbours in a fresh order: 2^32 leaves room for 32
/// halvings of a gap before any relabelling (less above 2^32 - 1 nodes, where
/// the labels of the whole list are spread over 2^64 instead).
constexpr uint64_t kSpacing = uint64_t{1} << 32;

} // namespace

DynamicTopoOrder::DynamicTopoOrder(uint32_t nodes, bool naive)
    : m_naive(naive)
{
    Resize(nodes);
}

void
DynamicTopoOrder::Resize(uint32_t n)
{
    const uint32_t old = GetNNodes();
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
    m_label.resize(n);
    m_next.resize(n, kNil);
    m_prev.resize(n, kNil);
    m_mark.resize(n, 0);
    m_markBack.resize(n, 0);
    m_expanded.resize(n, 0);
    // new nodes have no edges: append them at the end of the order
    m_slots.clear();
    for (uint32_t i = old; i < n; ++i)
    {
        m_slots.push_back(i);
    }
    LinkAfter(m_tail);
}

void
DynamicTopoOrder::SetInitialOrder(const std::vector<uint32_t>& order)
{
    if (m_nEdges != 0 || order.size() != m_label.size())
    {
        throw std::logic_error("DynamicTopoOrder::SetInitialOrder: graph not empty or wrong size");
    }
    std::vector<char> seen(order.size(), 0);
    for (uint32_t n : order)
    {
        if (n >= order.size() || seen[n])
        {
            throw std::logic_error("DynamicTopoOrder::SetInitialOrder: not a permutation");
        }
        seen[n] = 1;
    }
    m_head = kNil;
    m_tail = kNil;
    m_slots = order;
    LinkAfter(kNil);
}

void
DynamicTopoOrder::SetLandmarks(const std::vector<uint32_t>& landmarks)
{
    if (m_nEdges != 0 || landmarks.size() > kMaxLandmarks)
    {
        throw std::logic_error("DynamicTopoOrder::SetLandmarks: graph not empty or too many");
    }
    m_reach.assign(m_label.size() * kLandmarkWords, 0);
    m_reachedBy.assign(m_label.size() * kLandmarkWords, 0);
    for (size_t i = 0; i < landmarks.size(); ++i)
    {
        const size_t word = landmarks[i] * kLandmarkWords + i / 64;
        m_reach[word] |= 1ULL << (i % 64);
        m_reachedBy[word] |= 1ULL << (i % 64);
    }
    m_landmarks = !m_naive && !landmarks.empty();
}

bool
DynamicTopoOrder::HasEdge(uint32_t u, uint32_t v) const
{
    return u < m_out.size() && std::find(m_out[u].begin(), m_out[u].end(), v) != m_out[u].end();
}

bool
DynamicTopoOrder::TryAddEdge(uint32_t u, uint32_t v)
{
    if (u == v)
    {
        return false;
    }
    Resize(std::max(u, v) + 1);
    if (HasEdge(u, v))
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
    else if (m_label[v] < m_label[u])
    {
        if (m_landmarks && ThroughLandmark(v, u))
        {
            ++m_filtered;
            return false; // v reaches a landmark that reaches u
        }
        if (!Search(u, v))
        {
            return false;
        }
        Move(v);
    }
    m_out[u].push_back(v);
    m_in[v].push_back(u);
    ++m_nEdges;
    if (m_landmarks)
    {
        SpreadLandmarks(u, v);
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
DynamicTopoOrder::Search(uint32_t u, uint32_t v)
{
    // Both searches stay inside the window (label v, label u): a node outside it
    // cannot lie on a path from v to u.  Each step expands the first node of the
    // forward frontier or the last of the backward one, whichever side has done
    // less work, while the former comes before the latter in the order.  When
    // they cross (or one frontier is empty) and have not met, v does not reach u
    // (the two-way search of Haeupler et al.).
    ++m_epoch;
    m_fwd.clear();
    m_bwd.clear();
    m_fwdHeap.assign(1, {m_label[v], v});
    m_bwdHeap.assign(1, {m_label[u], u});
    m_mark[v] = m_epoch;
    m_markBack[u] = m_epoch;
    while (!m_fwdHeap.empty() && !m_bwdHeap.empty() &&
           m_fwdHeap.front().first < m_bwdHeap.front().first)
    {
        const bool met = m_fwd.size() <= m_bwd.size() ? !ExpandForward(u) : !ExpandBackward(v);
        if (met)
        {
            return false; // v reaches u: the edge closes a cycle
        }
    }
    return true;
}

bool
DynamicTopoOrder::ExpandForward(uint32_t u)
{
    std::pop_heap(m_fwdHeap.begin(), m_fwdHeap.end(), std::greater<>());
    const uint32_t n = m_fwdHeap.back().second;
    m_fwdHeap.pop_back();
    m_fwd.push_back(n);
    m_expanded[n] = m_epoch;
    ++m_visited;
    const uint64_t limit = m_label[u];
    for (uint32_t m : m_out[n])
    {
        if (m_markBack[m] == m_epoch)
        {
            return false; // m reaches u
        }
        if (m_mark[m] != m_epoch && m_label[m] < limit)
        {
            m_mark[m] = m_epoch;
            m_fwdHeap.emplace_back(m_label[m], m);
            std::push_heap(m_fwdHeap.begin(), m_fwdHeap.end(), std::greater<>());
        }
    }
    return true;
}

bool
DynamicTopoOrder::ExpandBackward(uint32_t v)
{
    std::pop_heap(m_bwdHeap.begin(), m_bwdHeap.end());
    const uint32_t n = m_bwdHeap.back().second;
    m_bwdHeap.pop_back();
    m_bwd.push_back(n);
    m_expanded[n] = m_epoch;
    ++m_visited;
    const uint64_t limit = m_label[v];
    for (uint32_t m : m_in[n])
    {
        if (m_mark[m] == m_epoch)
        {
            return false; // v reaches m
        }
        if (m_markBack[m] != m_epoch && m_label[m] > limit)
        {
            m_markBack[m] = m_epoch;
            m_bwdHeap.emplace_back(m_label[m], m);
            std::push_heap(m_bwdHeap.begin(), m_bwdHeap.end());
        }
    }
    return true;
}

void
DynamicTopoOrder::Move(uint32_t v)
{
    // Every forward-expanded node comes before every backward-expanded one, the
    // forward frontier (with the nodes pruned after u) after both, the
    // backward frontier (with the nodes pruned before v) before the forward
    // frontier.  The gap after the last node that stays, among those up to the
    // latest of the last forward-expanded node, the first of the backward
    // frontier and (nothing expanded forward) v's predecessor, is before every
    // node a moved forward node points to and after every node that points to
    // a moved backward node: the backward nodes then the forward nodes, each in
    // their old order, fit there.
    uint32_t anchor = m_fwd.empty() ? m_prev[v] : m_fwd.back();
    if (!m_bwdHeap.empty() &&
        (anchor == kNil || m_label[m_bwdHeap.front().second] > m_label[anchor]))
    {
        anchor = m_bwdHeap.front().second;
    }
    while (anchor != kNil && m_expanded[anchor] == m_epoch)
    {
        anchor = m_prev[anchor];
    }
    m_slots.assign(m_bwd.rbegin(), m_bwd.rend());
    m_slots.insert(m_slots.end(), m_fwd.begin(), m_fwd.end());
    for (uint32_t n : m_slots)
    {
        Unlink(n);
    }
    LinkAfter(anchor);
}

void
DynamicTopoOrder::Unlink(uint32_t n)
{
    (m_prev[n] == kNil ? m_head : m_next[m_prev[n]]) = m_next[n];
    (m_next[n] == kNil ? m_tail : m_prev[m_next[n]]) = m_prev[n];
    m_prev[n] = kNil;
    m_next[n] = kNil;
}

void
DynamicTopoOrder::LinkAfter(uint32_t anchor)
{
    if (m_slots.empty())
    {
        return;
    }
    const uint32_t after = anchor == kNil ? m_head : m_next[anchor];
    uint32_t prev = anchor;
    for (uint32_t n : m_slots)
    {
        m_prev[n] = prev;
        (prev == kNil ? m_head : m_next[prev]) = n;
        prev = n;
    }
    m_next[prev] = after;
    (after == kNil ? m_tail : m_prev[after]) = prev;
    Relabel(anchor, after, m_slots.size());
}

void
DynamicTopoOrder::Relabel(uint32_t lo, uint32_t hi, uint64_t count)
{
    // Widen the range (doubling the nodes inside) until its label span gives
    // every node inside a gap of at least `count` (the density rule of list
    // order maintenance: a full gap is rare and its relabelling amortised).
    auto span = [this](uint32_t a, uint32_t b) {
        const uint64_t from = a == kNil ? 0 : m_label[a];
        const uint64_t to = b == kNil ? UINT64_MAX : m_label[b];
        return to - from;
    };
    const uint64_t spacing =
        (lo == kNil && hi == kNil) ? std::min(kSpacing, UINT64_MAX / (count + 1)) : 0;
    while (spacing == 0 && span(lo, hi) / (count + 1) <= count)
    {
        if (lo == kNil && hi == kNil)
        {
            break; // the whole list: 2^64 labels for at most 2^32 nodes
        }
        for (uint64_t k = std::max<uint64_t>(1, count / 2); k > 0 && lo != kNil; --k, ++count)
        {
            lo = m_prev[lo];
        }
        for (uint64_t k = std::max<uint64_t>(1, count / 2); k > 0 && hi != kNil; --k, ++count)
        {
            hi = m_next[hi];
        }
    }
    const uint64_t base = lo == kNil ? 0 : m_label[lo];
    const uint64_t step = spacing != 0 ? spacing : span(lo, hi) / (count + 1);
    uint64_t label = base;
    for (uint32_t n = (lo == kNil ? m_head : m_next[lo]); n != hi; n = m_next[n])
    {
        label += step;
        m_label[n] = label;
    }
    m_relabelled += count > m_slots.size() ? count - m_slots.size() : 0;
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
    uint64_t count = 0;
    for (uint32_t n = m_head; n != kNil; n = m_next[n], ++count)
    {
        if (count > m_label.size() || (m_next[n] != kNil && m_label[n] >= m_label[m_next[n]]))
        {
            return false;
        }
    }
    if (count != m_label.size())
    {
        return false;
    }
    for (uint32_t u = 0; u < m_out.size(); ++u)
    {
        for (uint32_t v : m_out[u])
        {
            if (!m_naive && m_label[u] >= m_label[v])
            {
                return false;
            }
        }
    }
    return true;
}

} // namespace tagger
} // namespace ns3
