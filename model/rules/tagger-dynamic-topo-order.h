/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 */

#ifndef TAGGER_DYNAMIC_TOPO_ORDER_H
#define TAGGER_DYNAMIC_TOPO_ORDER_H

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace ns3
{
namespace tagger
{

/**
 * \ingroup tagger
 * \brief A directed graph over dense integer ids that stays acyclic: edges are
 * inserted one at a time and an insertion that would close a cycle is refused.
 *
 * Two checkers behind one interface.  The incremental one keeps a topological
 * order of the nodes as a linked list with 64-bit labels and, for an edge
 * u -> v against the order, runs the two-way ordered search of Haeupler et al.
 * ("Incremental cycle detection, topological ordering, and strong component
 * maintenance", ACM TALG 2012): forward from v in increasing order, backward
 * from u in decreasing order, until the two frontiers cross; only the nodes the
 * searches expanded move (the backward ones, then the forward ones, into one
 * gap of the list).  Pearce and Kelly's algorithm, used before, moves every
 * node of the window between v and u that either search can reach, tens of
 * thousands per insertion in a dense tag graph.  The naive checker searches
 * from the new edge's head for its tail every time.
 *
 * Decisions do not depend on the checker nor on the initial order: an edge is
 * refused exactly when its head reaches its tail.  Only the work does.
 */
class DynamicTopoOrder
{
  public:
    /// 64-bit words per node in each landmark mask.
    static constexpr uint32_t kLandmarkWords = 1;
    /// Most landmarks SetLandmarks() takes.
    static constexpr uint32_t kMaxLandmarks = 64 * kLandmarkWords;

    /// \param nodes number of nodes (ids 0..nodes-1)  \param naive use the naive check
    explicit DynamicTopoOrder(uint32_t nodes = 0, bool naive = false);

    /// Grow the id space to at least n nodes (new nodes go to the end of the order).
    void Resize(uint32_t n);

    uint32_t GetNNodes() const
    {
        return static_cast<uint32_t>(m_label.size());
    }

    /**
     * Start from this order of the nodes (a permutation of 0..GetNNodes()-1);
     * only allowed while the graph has no edge.  A good guess (sources first)
     * saves re-ordering work later; any permutation is correct.
     */
    void SetInitialOrder(const std::vector<uint32_t>& order);

    /**
     * Insert u -> v unless it closes a cycle (u == v counts as one).
     * \return true when inserted (or already present), false when refused.
     */
    bool TryAddEdge(uint32_t u, uint32_t v);

    /// true when the edge u -> v is in the graph.
    bool HasEdge(uint32_t u, uint32_t v) const;

    /// Number of edges.
    uint64_t GetNEdges() const
    {
        return m_nEdges;
    }

    /**
     * Label of n in the maintained order (incremental mode): labels increase
     * along the order and are distinct, but not consecutive, and a node's
     * label changes when it or its neighbours in the list move.
     */
    uint64_t GetOrder(uint32_t n) const
    {
        return m_label[n];
    }

    /**
     * true when the list holds every node once, labels increase along it, and
     * every edge u->v has GetOrder(u) < GetOrder(v) (for tests).
     */
    bool CheckOrder() const;

    /**
     * Pick up to kMaxLandmarks landmark nodes (for the refusal filter of the incremental
     * mode); only while the graph has no edge.  A landmark is worth most where
     * many paths pass through it.
     */
    void SetLandmarks(const std::vector<uint32_t>& landmarks);

    /// Statistics: refusals proven by the landmark filter without a search.
    uint64_t GetFiltered() const
    {
        return m_filtered;
    }

    /// Statistics: nodes expanded by searches so far.
    uint64_t GetVisited() const
    {
        return m_visited;
    }

    /// Statistics: labels rewritten to make room in a full gap (incremental mode).
    uint64_t GetRelabelled() const
    {
        return m_relabelled;
    }

  private:
    static constexpr uint32_t kNil = UINT32_MAX; //!< no node (list ends)

    bool Reaches(uint32_t from, uint32_t to); //!< naive search
    /**
     * The two-way ordered search for the edge u -> v (GetOrder(v) <
     * GetOrder(u)): false when v reaches u; else m_fwd holds the nodes expanded
     * forward (increasing order) and m_bwd those expanded backward (decreasing).
     */
    bool Search(uint32_t u, uint32_t v);
    /// Expand the forward frontier's first node; false when it meets the backward search.
    bool ExpandForward(uint32_t u);
    /// Expand the backward frontier's last node; false when it meets the forward search.
    bool ExpandBackward(uint32_t v);
    /// After a successful Search() for u -> v: move m_bwd, then m_fwd, into one gap of the list.
    void Move(uint32_t v);
    /// Take n out of the list.
    void Unlink(uint32_t n);
    /// Link the nodes of m_slots, in that order, after `anchor` (kNil: at the front), and label
    /// them.
    void LinkAfter(uint32_t anchor);
    /// Give the nodes strictly between lo and hi (kNil: the list's ends) evenly spaced labels,
    /// widening the range first until every one has room (count nodes inside).
    void Relabel(uint32_t lo, uint32_t hi, uint64_t count);
    /// After inserting u -> v: spread landmark reachability to v's descendants
    /// and u's ancestors (bits only ever get set, so each node is updated at
    /// most kMaxLandmarks times per direction).
    void SpreadLandmarks(uint32_t u, uint32_t v);
    /// true when `from` reaches a landmark that reaches `to`.
    bool ThroughLandmark(uint32_t from, uint32_t to) const;
    /// OR the landmark mask of `from` into that of `to`; true when `to` grew.
    static bool Absorb(std::vector<uint64_t>& masks, uint32_t from, uint32_t to);

    bool m_naive;
    std::vector<std::vector<uint32_t>> m_out;
    std::vector<std::vector<uint32_t>> m_in;
    std::vector<uint64_t> m_label;    //!< node -> label (increasing along the list)
    std::vector<uint32_t> m_next;     //!< node -> next node in the order (kNil: last)
    std::vector<uint32_t> m_prev;     //!< node -> previous node (kNil: first)
    uint32_t m_head{kNil};            //!< first node of the order
    uint32_t m_tail{kNil};            //!< last node of the order
    std::vector<uint32_t> m_mark;     //!< found by the forward search (epoch)
    std::vector<uint32_t> m_markBack; //!< found by the backward search (epoch)
    std::vector<uint32_t> m_expanded; //!< expanded by either search (epoch)
    uint32_t m_epoch{0};
    uint64_t m_nEdges{0};
    uint64_t m_visited{0};
    uint64_t m_filtered{0};
    uint64_t m_relabelled{0};

    // Landmark filter (incremental mode): bit i of node n's m_reach mask says n
    // reaches landmark i, bit i of its m_reachedBy mask that landmark i reaches
    // n (kLandmarkWords words per node).  When the reach mask of v and the
    // reachedBy mask of u share a bit, v reaches u through a landmark and
    // u -> v closes a cycle: most refusals in dense graphs are proven this way
    // without a search.  Exact (no false positive).
    bool m_landmarks{false};
    std::vector<uint64_t> m_reach;
    std::vector<uint64_t> m_reachedBy;

    // scratch of the search: frontiers as heaps of (label, node), expanded nodes
    std::vector<std::pair<uint64_t, uint32_t>> m_fwdHeap; //!< min-heap
    std::vector<std::pair<uint64_t, uint32_t>> m_bwdHeap; //!< max-heap
    std::vector<uint32_t> m_fwd;
    std::vector<uint32_t> m_bwd;
    std::vector<uint32_t> m_slots; //!< nodes to link, in order
    std::vector<uint32_t> m_stack;
};

} // namespace tagger
} // namespace ns3

#endif /* TAGGER_DYNAMIC_TOPO_ORDER_H */
