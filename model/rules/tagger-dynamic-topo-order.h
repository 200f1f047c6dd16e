/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 */

#ifndef TAGGER_DYNAMIC_TOPO_ORDER_H
#define TAGGER_DYNAMIC_TOPO_ORDER_H

#include <cstddef>
#include <cstdint>
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
 * Two checkers behind one interface: the incremental one keeps a topological
 * order and repairs only the affected region on insertion (Pearce and Kelly,
 * "A dynamic topological sort algorithm for directed acyclic graphs", JEA 2006);
 * the naive one searches from the new edge's head for its tail every time.
 *
 * Checkpoint()/Rollback() undo every insertion (and order change) made since the
 * checkpoint, for callers that add several edges as one step.
 */
class DynamicTopoOrder
{
  public:
    /// 64-bit words per node in each landmark mask.
    static constexpr uint32_t kLandmarkWords = 4;
    /// Most landmarks SetLandmarks() takes.
    static constexpr uint32_t kMaxLandmarks = 64 * kLandmarkWords;

    /// \param nodes number of nodes (ids 0..nodes-1)  \param naive use the naive check
    explicit DynamicTopoOrder(uint32_t nodes = 0, bool naive = false);

    /// Grow the id space to at least n nodes.
    void Resize(uint32_t n);

    uint32_t GetNNodes() const
    {
        return static_cast<uint32_t>(m_ord.size());
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

    /// Number of edges.
    uint64_t GetNEdges() const
    {
        return m_nEdges;
    }

    /// Position of n in the maintained topological order (incremental mode).
    uint32_t GetOrder(uint32_t n) const
    {
        return m_ord[n];
    }

    /// true when every edge u->v has GetOrder(u) < GetOrder(v) (for tests).
    bool CheckOrder() const;

    /// Start recording changes for Rollback().
    void Checkpoint();
    /// Undo every change since the last Checkpoint().
    void Rollback();

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

    /// Statistics: nodes visited by searches so far.
    uint64_t GetVisited() const
    {
        return m_visited;
    }

  private:
    bool Reaches(uint32_t from, uint32_t to); //!< naive search
    bool Reorder(uint32_t u, uint32_t v);     //!< Pearce-Kelly; false on cycle
    /**
     * Reorder's searches for the edge u -> v: m_fwd gets the nodes v reaches
     * before u's position, m_bwd those reaching u after v's; false (the
     * edge closes a cycle) as soon as the two meet.
     */
    bool SearchAffected(uint32_t u, uint32_t v);
    /// One breadth-first layer of the forward search (m_fwd from head); false when
    /// `meet` and it reached u or the backward set.
    bool ForwardLayer(uint32_t u, uint32_t ub, size_t& head, bool meet);
    /// One layer of the backward search (m_bwd from head); false when `meet` and
    /// it reached v or the forward set.
    bool BackwardLayer(uint32_t v, uint32_t lb, size_t& head, bool meet);
    /// (position, node) keys of nodes, sorted.
    void SortByPosition(const std::vector<uint32_t>& nodes, std::vector<uint64_t>& keys) const;
    /// Give the backward set, then the forward set, the positions both occupied.
    void Reassign();
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
    std::vector<uint32_t> m_ord;      //!< node -> position
    std::vector<uint32_t> m_pos;      //!< position -> node
    std::vector<uint32_t> m_mark;     //!< visited by the forward search (epoch)
    std::vector<uint32_t> m_markBack; //!< visited by the backward search (epoch)
    uint32_t m_epoch{0};
    uint64_t m_nEdges{0};
    uint64_t m_visited{0};
    uint64_t m_filtered{0};

    // Landmark filter (incremental mode): bit i of node n's m_reach mask says n
    // reaches landmark i, bit i of its m_reachedBy mask that landmark i reaches
    // n (kLandmarkWords words per node).  When the reach mask of v and the
    // reachedBy mask of u share a bit, v reaches u through a landmark and
    // u -> v closes a cycle: most refusals in dense graphs are proven this way
    // without a search.  Exact (no false positive); off after a Rollback.
    bool m_landmarks{false};
    std::vector<uint64_t> m_reach;
    std::vector<uint64_t> m_reachedBy;

    // undo log
    bool m_recording{false};
    std::vector<std::pair<uint32_t, uint32_t>> m_addedEdges;
    std::vector<std::pair<uint32_t, uint32_t>> m_ordChanges; //!< (node, old position)

    // scratch
    std::vector<uint32_t> m_fwd;
    std::vector<uint32_t> m_bwd;
    std::vector<uint32_t> m_stack;
    std::vector<uint64_t> m_fwdKeys;
    std::vector<uint64_t> m_bwdKeys;
    std::vector<uint64_t> m_slots;
};

} // namespace tagger
} // namespace ns3

#endif /* TAGGER_DYNAMIC_TOPO_ORDER_H */
