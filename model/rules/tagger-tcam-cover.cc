/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 *
 * CompressTcam (tagger-rule-table.h): one node's plain rules as first-match
 * TCAM entries, a greedy rectangle cover per tag and an improvement step.
 */

#include "tagger-rule-table.h"

#include <algorithm>
#include <map>

namespace ns3
{
namespace tagger
{
namespace
{

/**
 * One tag's rewrite function at one node as port bitsets, the input of the
 * rectangle cover: for every action (new tag) and out port, the set of in
 * ports whose (tag, in, out) maps to that new tag.  Bitsets have `words`
 * 64-bit words per out port.
 */
struct TagGrid
{
    Tag tag{0};
    uint32_t ports{0};
    uint32_t words{0};
    std::vector<Tag> actions;               //!< distinct new tags, ascending
    std::vector<std::vector<uint64_t>> ins; //!< per action: [out * words + w]
    std::vector<uint64_t> cells;            //!< per action: number of (in, out) cells
};

/// Per tag with rules at node, its TagGrid (ascending tags).
std::vector<TagGrid>
BuildGrids(const TagRules& rules, NodeId node)
{
    const uint32_t ports = rules.GetTopology().GetNode(node).ports;
    const uint32_t words = (ports + 63) / 64;
    std::vector<TagGrid> grids;
    rules.ForEachRule(node, [&](const Rule& r) {
        if (grids.empty() || grids.back().tag != r.tag)
        {
            grids.push_back(TagGrid{r.tag, ports, words, {}, {}, {}});
        }
        TagGrid& g = grids.back();
        auto it = std::lower_bound(g.actions.begin(), g.actions.end(), r.newTag);
        const size_t a = it - g.actions.begin();
        if (it == g.actions.end() || *it != r.newTag)
        {
            g.actions.insert(it, r.newTag);
            g.ins.insert(g.ins.begin() + a, std::vector<uint64_t>(size_t{ports} * words, 0));
            g.cells.insert(g.cells.begin() + a, 0);
        }
        g.ins[a][size_t{r.outPort} * words + r.inPort / 64] |= uint64_t{1} << (r.inPort % 64);
        ++g.cells[a];
    });
    return grids;
}

/// The ascending port numbers of a bitset.
std::vector<PortNo>
BitsToPorts(const uint64_t* bits, uint32_t words)
{
    std::vector<PortNo> ports;
    for (uint32_t w = 0; w < words; ++w)
    {
        for (uint64_t b = bits[w]; b != 0; b &= b - 1)
        {
            ports.push_back(static_cast<PortNo>(w * 64 + __builtin_ctzll(b)));
        }
    }
    return ports;
}

/// Set bits of x (inline; the library call the compiler emits without a
/// popcount instruction dominates the cover's run time).
inline uint32_t
Popcount(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return static_cast<uint32_t>((x * 0x0101010101010101ULL) >> 56);
}

/**
 * The greedy rectangle cover of one tag with the actions taken in a given
 * order.  Entries are matched first to last, so a later entry may also match
 * cells that an earlier entry already claims (they are don't-cares for it); it
 * may never match an unclaimed cell of another action or without a rule.
 *
 * Each action's cells are covered by repeatedly taking the rectangle that
 * covers the most uncovered cells among those grown from the few out ports
 * and in ports with the most uncovered cells (seeds).  A rectangle grows
 * from one out port (with every in port it may match) by adding the out port
 * that keeps the most uncovered cells inside, while that number grows; from an
 * in port likewise on the transposed grid.  Per in port, the number of the
 * rectangle's out ports where that cell is uncovered is kept bit-sliced
 * (m_planes), so a candidate costs a few word operations whatever the
 * rectangle's width.
 */
class GridCover
{
  public:
    /**
     * \param g the grid \param t the same grid transposed (in and out swapped)
     * \param seedViews bit o set: grow rectangles from the columns of view o
     * (bit 0: from out ports, bit 1: from in ports)
     * \param seeds seed columns per view and step
     */
    GridCover(const TagGrid& g, const TagGrid& t, uint32_t seedViews, size_t seeds)
        : m_seedViews(seedViews),
          m_seeds(seeds),
          m_words(g.words),
          m_ports(g.ports),
          m_s(g.words),
          m_s2(g.words),
          m_inT(g.ports)
    {
        m_grid[0] = &g;
        m_grid[1] = &t;
        for (View& v : m_view)
        {
            v.claimed.assign(size_t{g.ports} * g.words, 0);
            v.unc.resize(v.claimed.size());
            v.ok.resize(v.claimed.size());
        }
        uint32_t planes = 1;
        while ((uint32_t{1} << planes) <= g.ports)
        {
            ++planes;
        }
        m_planes.resize(size_t{planes} * g.words);
    }

    /// Cover with the actions in `order` (indices into g.actions); append the entries.
    void Run(const std::vector<size_t>& order, std::vector<TcamEntry>& entries)
    {
        for (size_t a : order)
        {
            CoverAction(a, entries);
        }
    }

  private:
    static constexpr PortNo kNoPort = ~PortNo{0};

    /// The cover's state in one orientation (0: columns are out ports, 1: in ports).
    struct View
    {
        std::vector<uint64_t> claimed; //!< cells matched by an earlier entry
        std::vector<uint64_t> unc;     //!< cells of the current action not yet matched
        std::vector<uint64_t> ok;      //!< cells the current action may match
        std::vector<uint32_t> left;    //!< uncovered cells per column
        std::vector<PortNo> byLeft;    //!< columns with uncovered cells, most first
    };

    void CoverAction(size_t a, std::vector<TcamEntry>& entries)
    {
        ResetUncovered(a);
        while (SortByLeft(m_view[0]))
        {
            GreedyStep();
            Emit(a, entries);
        }
    }

    /// The cells of action a not yet matched, in both views.
    void ResetUncovered(size_t a)
    {
        for (int o = 0; o < 2; ++o)
        {
            View& v = m_view[o];
            v.left.assign(m_ports, 0);
            for (size_t i = 0; i < v.unc.size(); ++i)
            {
                v.unc[i] = m_grid[o]->ins[a][i] & ~v.claimed[i];
                v.ok[i] = m_grid[o]->ins[a][i] | v.claimed[i];
                v.left[i / m_words] += Popcount(v.unc[i]);
            }
        }
    }

    /// Find the best rectangle grown from the seeds (view 0 sorted).
    void GreedyStep()
    {
        SortByLeft(m_view[1]);
        m_bestGain = 0;
        for (int o = 0; o < 2; ++o)
        {
            const View& v = m_view[o];
            for (size_t k = 0; ((m_seedViews >> o) & 1) && k < std::min(m_seeds, v.byLeft.size());
                 ++k)
            {
                TryGrow(o, v.byLeft[k]);
            }
        }
    }

    /// Grow a rectangle in view o from column seed; keep it when it covers
    /// more than the best so far.
    void TryGrow(int o, PortNo seed)
    {
        const uint32_t gain = Grow(m_view[o], seed);
        if (gain > m_bestGain)
        {
            m_bestGain = gain;
            m_bestView = o;
            m_bestBits = m_s;
            m_bestT = m_t;
        }
    }

    /// Claim the best rectangle and append it as an entry of action a.
    void Emit(size_t a, std::vector<TcamEntry>& entries)
    {
        m_bestS = BitsToPorts(m_bestBits.data(), m_words);
        std::sort(m_bestT.begin(), m_bestT.end());
        Claim(m_view[m_bestView], m_bestS, m_bestT);
        Claim(m_view[1 - m_bestView], m_bestT, m_bestS);
        TcamEntry e{m_grid[0]->tag, m_bestS, m_bestT, m_grid[0]->actions[a]};
        if (m_bestView == 1)
        {
            std::swap(e.inPorts, e.outPorts);
        }
        entries.push_back(std::move(e));
    }

    /// Mark the cells rows x cols of view v as matched.
    void Claim(View& v, const std::vector<PortNo>& rows, const std::vector<PortNo>& cols)
    {
        for (PortNo c : cols)
        {
            for (PortNo r : rows)
            {
                const size_t i = size_t{c} * m_words + r / 64;
                const uint64_t bit = uint64_t{1} << (r % 64);
                v.left[c] -= (v.unc[i] & bit) != 0;
                v.unc[i] &= ~bit;
                v.claimed[i] |= bit;
                v.ok[i] |= bit;
            }
        }
    }

    /// v.byLeft: the columns with uncovered cells, most first (ties: lower
    /// port; a counting sort: a column has at most m_ports cells); false when
    /// nothing is left.
    bool SortByLeft(View& v)
    {
        m_bucket.assign(m_ports + 1, 0); // by m_ports - left, then the start of each
        uint32_t n = 0;
        for (PortNo c = 0; c < m_ports; ++c)
        {
            if (v.left[c] > 0)
            {
                ++m_bucket[m_ports - v.left[c]];
                ++n;
            }
        }
        uint32_t start = 0;
        for (uint32_t& b : m_bucket)
        {
            const uint32_t count = b;
            b = start;
            start += count;
        }
        v.byLeft.resize(n);
        for (PortNo c = 0; c < m_ports; ++c)
        {
            if (v.left[c] > 0)
            {
                v.byLeft[m_bucket[m_ports - v.left[c]]++] = c;
            }
        }
        return n > 0;
    }

    /// Add column c of view v to the rectangle: its uncovered cells into the counters.
    void AddColumn(const View& v, PortNo c)
    {
        for (uint32_t w = 0; w < m_words; ++w)
        {
            m_s[w] &= v.ok[size_t{c} * m_words + w];
            uint64_t carry = v.unc[size_t{c} * m_words + w];
            for (uint32_t b = 0; carry != 0; ++b)
            {
                uint64_t& plane = m_planes[size_t{b} * m_words + w];
                const uint64_t next = plane & carry;
                plane ^= carry;
                carry = next;
            }
        }
        m_t.push_back(c);
        m_inT[c] = 1;
        while ((size_t{1} << m_usedPlanes) <= m_t.size())
        {
            ++m_usedPlanes; // the counts reach m_t.size()
        }
    }

    /// Uncovered cells inside (rows s) x (the rectangle's columns, and column
    /// c of view v unless c is kNoPort).
    uint32_t GainWith(const View& v, PortNo c, const std::vector<uint64_t>& s) const
    {
        uint32_t g = 0;
        for (uint32_t w = 0; w < m_words; ++w)
        {
            if (c != kNoPort)
            {
                g += Popcount(s[w] & v.unc[size_t{c} * m_words + w]);
            }
            for (uint32_t b = 0; b < m_usedPlanes; ++b)
            {
                g += Popcount(s[w] & m_planes[size_t{b} * m_words + w]) << b;
            }
        }
        return g;
    }

    /**
     * The column of v whose addition covers the most uncovered cells, if more
     * than `gain` (then `gain` becomes that number).  Adding c cannot cover
     * more than gain + (c's uncovered cells), so candidates are tried by
     * uncovered cells, most first, until none can win.
     */
    PortNo BestAddition(const View& v, uint32_t& gain)
    {
        const uint32_t base = gain;
        PortNo best = kNoPort;
        for (PortNo c : v.byLeft)
        {
            if (base + v.left[c] <= gain)
            {
                break;
            }
            if (m_inT[c])
            {
                continue;
            }
            uint32_t own = 0;
            for (uint32_t w = 0; w < m_words; ++w)
            {
                m_s2[w] = m_s[w] & v.ok[size_t{c} * m_words + w];
                own += Popcount(m_s2[w] & v.unc[size_t{c} * m_words + w]);
            }
            if (base + own > gain)
            {
                const uint32_t g = GainWith(v, c, m_s2);
                if (g > gain)
                {
                    gain = g;
                    best = c;
                }
            }
        }
        return best;
    }

    /// Grow a rectangle (rows m_s x columns m_t) of view v from column seed; return its gain.
    uint32_t Grow(const View& v, PortNo seed)
    {
        for (PortNo c : m_t)
        {
            m_inT[c] = 0;
        }
        m_t.clear();
        m_usedPlanes = 0;
        std::fill(m_planes.begin(), m_planes.end(), 0);
        std::fill(m_s.begin(), m_s.end(), ~uint64_t{0});
        AddColumn(v, seed);
        uint32_t gain = GainWith(v, kNoPort, m_s);
        for (PortNo c = BestAddition(v, gain); c != kNoPort; c = BestAddition(v, gain))
        {
            AddColumn(v, c);
        }
        return gain;
    }

    const uint32_t m_seedViews; //!< bit o: grow from the columns of view o
    const size_t m_seeds;       //!< seed columns per view and step
    const uint32_t m_words;
    const uint32_t m_ports;
    const TagGrid* m_grid[2];         //!< the grid and its transpose
    View m_view[2];                   //!< the cover's state in both orientations
    uint32_t m_usedPlanes{0};         //!< planes for counts up to m_t.size()
    std::vector<uint64_t> m_s;        //!< rows of the rectangle being grown
    std::vector<uint64_t> m_s2;       //!< scratch: rows with a candidate column added
    std::vector<PortNo> m_t;          //!< columns of the rectangle being grown
    std::vector<uint64_t> m_planes;   //!< bit-sliced uncovered counts per row
    std::vector<char> m_inT;          //!< column in m_t
    std::vector<uint32_t> m_bucket;   //!< SortByLeft's counts
    uint32_t m_bestGain{0};           //!< uncovered cells of the best rectangle of this step
    int m_bestView{0};                //!< its view
    std::vector<uint64_t> m_bestBits; //!< its rows as a bitset
    std::vector<PortNo> m_bestS;      //!< its rows
    std::vector<PortNo> m_bestT;      //!< its columns
};

/**
 * The per-out-port aggregation: for each action, out ports with the same
 * in-port set share one entry.  Entries are disjoint.
 */
void
AggregatePerOutPort(const TagGrid& g, std::vector<TcamEntry>& entries)
{
    for (size_t a = 0; a < g.actions.size(); ++a)
    {
        std::map<std::vector<PortNo>, std::vector<PortNo>> byInSet;
        for (PortNo o = 0; o < g.ports; ++o)
        {
            std::vector<PortNo> ins = BitsToPorts(&g.ins[a][size_t{o} * g.words], g.words);
            if (!ins.empty())
            {
                byInSet[ins].push_back(o);
            }
        }
        for (auto& [ins, outs] : byInSet)
        {
            entries.push_back(TcamEntry{g.tag, ins, outs, g.actions[a]});
        }
    }
}

/// The order in which a tag's actions are covered: fewest cells first, so the
/// largest action comes last, where the most cells are don't-cares.  (Trying
/// every permutation gained one entry on a few switches at twice the time.)
std::vector<size_t>
ActionOrder(const TagGrid& g)
{
    std::vector<size_t> order(g.actions.size());
    for (size_t a = 0; a < order.size(); ++a)
    {
        order[a] = a;
    }
    std::stable_sort(order.begin(), order.end(), [&g](size_t x, size_t y) {
        return g.cells[x] < g.cells[y];
    });
    return order;
}

/// The grid with in and out ports swapped.
TagGrid
Transpose(const TagGrid& g)
{
    TagGrid t{g.tag, g.ports, g.words, g.actions, {}, g.cells};
    for (const std::vector<uint64_t>& ins : g.ins)
    {
        std::vector<uint64_t> outs(ins.size(), 0);
        for (PortNo o = 0; o < g.ports; ++o)
        {
            for (PortNo i : BitsToPorts(&ins[size_t{o} * g.words], g.words))
            {
                outs[size_t{i} * g.words + o / 64] |= uint64_t{1} << (o % 64);
            }
        }
        t.ins.push_back(std::move(outs));
    }
    return t;
}

/// Call fn(p) for every set bit p of a bitset of `words` words.
template <typename Fn>
inline void
ForEachBit(const uint64_t* bits, uint32_t words, Fn fn)
{
    for (uint32_t w = 0; w < words; ++w)
    {
        for (uint64_t b = bits[w]; b != 0; b &= b - 1)
        {
            fn(static_cast<PortNo>(w * 64 + __builtin_ctzll(b)));
        }
    }
}

/**
 * The improvement step after a greedy cover of one tag, per action (new tag).
 * A cell is *allowed* for the action when it belongs to that action or to an
 * action covered before it (decided by an earlier entry: first match wins);
 * entries only ever grow onto allowed cells, so the entries still give every
 * cell its rule's new tag.  Two steps:
 * - drop: an entry goes when the action's other entries still match all its
 *   cells of the action once ports are added to them (entries are tried
 *   fewest own cells first; a cell is taken by the first entry that can add
 *   one port for it, else an in and an out port);
 * - merge: two entries become one, the smallest rectangle holding the cells
 *   of the action that no third entry matches, when all its cells are allowed
 *   (pairs are screened with bitsets first: Box).
 * The greedy takes rectangles one at a time; these steps see its whole cover
 * and undo choices that later rectangles made redundant.
 */
class CoverReducer
{
  public:
    /// \param g the grid \param t the same grid transposed
    CoverReducer(const TagGrid& g, const TagGrid& t)
        : m_g(g),
          m_t(t),
          m_words(g.words),
          m_allowed(size_t{g.ports} * g.words, 0),
          m_allowedT(size_t{g.ports} * g.words, 0),
          m_cover(size_t{g.ports} * g.ports, 0)
    {
    }

    /// Reduce `entries`, a cover of the tag with each action's entries consecutive.
    void Run(std::vector<TcamEntry>& entries)
    {
        std::vector<TcamEntry> reduced;
        for (size_t begin = 0; begin < entries.size();)
        {
            size_t end = begin;
            while (end < entries.size() && entries[end].newTag == entries[begin].newTag)
            {
                ++end;
            }
            const size_t a =
                std::lower_bound(m_g.actions.begin(), m_g.actions.end(), entries[begin].newTag) -
                m_g.actions.begin();
            for (size_t i = 0; i < m_allowed.size(); ++i)
            {
                m_allowed[i] |= m_g.ins[a][i];
                m_allowedT[i] |= m_t.ins[a][i];
            }
            ReduceAction(a, &entries[begin], end - begin, reduced);
            begin = end;
        }
        entries = std::move(reduced);
    }

  private:
    /// bit p of a bitset
    static bool Has(const uint64_t* bits, PortNo p)
    {
        return (bits[p / 64] >> (p % 64)) & 1;
    }

    /// In ports of rectangle f (m_words words; its out ports follow).
    uint64_t* In(size_t f)
    {
        return &m_rects[2 * f * m_words];
    }

    /// Out ports of rectangle f.
    uint64_t* Out(size_t f)
    {
        return &m_rects[(2 * f + 1) * m_words];
    }

    /// bits is a subset of row p of grid
    bool Within(const uint64_t* bits, const std::vector<uint64_t>& grid, PortNo p) const
    {
        for (uint32_t w = 0; w < m_words; ++w)
        {
            if (bits[w] & ~grid[size_t{p} * m_words + w])
            {
                return false;
            }
        }
        return true;
    }

    /// Add delta to the cover count of every cell of rectangle f.
    void CountRect(size_t f, int delta)
    {
        const uint64_t* in = In(f);
        ForEachBit(Out(f), m_words, [&](PortNo out) {
            ForEachBit(in, m_words, [&](PortNo i) {
                m_cover[size_t{i} * m_g.ports + out] += delta;
            });
        });
    }

    /// Add in port `in` and/or out port `out` to a live rectangle so that it
    /// matches (in, out); false when none can.
    bool Extend(PortNo in, PortNo out)
    {
        for (int both = 0; both < 2; ++both)
        {
            for (size_t f = 0; f < m_live.size(); ++f)
            {
                if (!m_live[f])
                {
                    continue;
                }
                uint64_t* ins = In(f);
                uint64_t* outs = Out(f);
                const bool hasIn = Has(ins, in);
                const bool hasOut = Has(outs, out);
                if ((hasIn || hasOut || both) && (hasIn || Within(outs, m_allowedT, in)) &&
                    (hasOut || Within(ins, m_allowed, out)))
                {
                    if (!hasIn)
                    {
                        ForEachBit(outs, m_words, [&](PortNo o) {
                            ++m_cover[size_t{in} * m_g.ports + o];
                        });
                        ins[in / 64] |= uint64_t{1} << (in % 64);
                    }
                    if (!hasOut)
                    {
                        ForEachBit(ins, m_words, [&](PortNo i) {
                            ++m_cover[size_t{i} * m_g.ports + out];
                        });
                        outs[out / 64] |= uint64_t{1} << (out % 64);
                    }
                    return true;
                }
            }
        }
        return false;
    }

    /// Replace rectangles e1 and e2 by one: the smallest rectangle holding the
    /// cells of action a that no other live rectangle matches, if allowed.
    bool TryMerge(size_t a, size_t e1, size_t e2)
    {
        std::vector<uint64_t>& rows = m_rows;
        std::vector<uint64_t>& cols = m_cols;
        rows.assign(m_words, 0);
        cols.assign(m_words, 0);
        for (size_t e : {e1, e2})
        {
            const uint64_t* ins = In(e);
            ForEachBit(Out(e), m_words, [&](PortNo out) {
                ForEachBit(ins, m_words, [&](PortNo in) {
                    const uint32_t mine = (Has(In(e1), in) && Has(Out(e1), out)) +
                                          (Has(In(e2), in) && Has(Out(e2), out));
                    if (m_cover[size_t{in} * m_g.ports + out] == mine &&
                        Has(&m_g.ins[a][size_t{out} * m_words], in))
                    {
                        rows[in / 64] |= uint64_t{1} << (in % 64);
                        cols[out / 64] |= uint64_t{1} << (out % 64);
                    }
                });
            });
        }
        bool ok = true;
        ForEachBit(cols.data(), m_words, [&](PortNo out) {
            ok = ok && Within(rows.data(), m_allowed, out);
        });
        if (!ok)
        {
            return false;
        }
        CountRect(e1, -1);
        CountRect(e2, -1);
        m_live[e2] = 0;
        std::copy(rows.begin(), rows.end(), In(e1));
        std::copy(cols.begin(), cols.end(), Out(e1));
        CountRect(e1, 1);
        return true;
    }

    /// m_box for rectangle f: the in ports of its cells of action a that no
    /// other rectangle matches, and the in ports allowed at all their out ports.
    void Box(size_t a, size_t f)
    {
        uint64_t* rows = &m_box[2 * f * m_words];
        uint64_t* allowed = &m_box[(2 * f + 1) * m_words];
        std::fill(rows, rows + m_words, 0);
        std::fill(allowed, allowed + m_words, ~uint64_t{0});
        if (!m_live[f])
        {
            return;
        }
        const uint64_t* ins = In(f);
        ForEachBit(Out(f), m_words, [&](PortNo out) {
            bool any = false;
            ForEachBit(ins, m_words, [&](PortNo in) {
                if (m_cover[size_t{in} * m_g.ports + out] == 1 &&
                    Has(&m_g.ins[a][size_t{out} * m_words], in))
                {
                    rows[in / 64] |= uint64_t{1} << (in % 64);
                    any = true;
                }
            });
            for (uint32_t w = 0; w < m_words && any; ++w)
            {
                allowed[w] &= m_allowed[size_t{out} * m_words + w];
            }
        });
    }

    /// Try TryMerge on every pair of the n rectangles whose Box allows it.
    void MergePairs(size_t a, size_t n)
    {
        m_box.assign(2 * n * m_words, 0);
        m_touched.assign(2 * m_words, 0);
        for (size_t f = 0; f < n; ++f)
        {
            Box(a, f);
        }
        for (size_t e1 = 0; e1 < n; ++e1)
        {
            for (size_t e2 = e1 + 1; e2 < n && m_live[e1]; ++e2)
            {
                // the merged rectangle holds both boxes' in ports at both boxes' out ports
                bool fits = m_live[e2];
                for (uint32_t w = 0; w < m_words && fits; ++w)
                {
                    fits = ((m_box[2 * e1 * m_words + w] | m_box[2 * e2 * m_words + w]) &
                            ~(m_box[(2 * e1 + 1) * m_words + w] &
                              m_box[(2 * e2 + 1) * m_words + w])) == 0;
                }
                if (!fits)
                {
                    continue;
                }
                // the cells whose counts a merge changes lie in these ports
                for (uint32_t w = 0; w < m_words; ++w)
                {
                    m_touched[w] = In(e1)[w] | In(e2)[w];
                    m_touched[m_words + w] = Out(e1)[w] | Out(e2)[w];
                }
                if (TryMerge(a, e1, e2))
                {
                    for (size_t f = 0; f < n; ++f)
                    {
                        bool rows = false;
                        bool cols = false;
                        for (uint32_t w = 0; w < m_words; ++w)
                        {
                            rows = rows || (In(f)[w] & (m_touched[w] | In(e1)[w])) != 0;
                            cols = cols || (Out(f)[w] & (m_touched[m_words + w] | Out(e1)[w])) != 0;
                        }
                        if (rows && cols)
                        {
                            Box(a, f);
                        }
                    }
                    Box(a, e2); // dropped
                }
            }
        }
    }

    /// Drop rectangle e if the others, extended, match its cells of action a.
    bool TryDrop(size_t a, size_t e)
    {
        m_live[e] = 0;
        CountRect(e, -1);
        bool ok = true;
        const uint64_t* ins = In(e);
        ForEachBit(Out(e), m_words, [&](PortNo out) {
            ForEachBit(ins, m_words, [&](PortNo in) {
                ok = ok && (m_cover[size_t{in} * m_g.ports + out] > 0 ||
                            !Has(&m_g.ins[a][size_t{out} * m_words], in) || Extend(in, out));
            });
        });
        return ok;
    }

    /// Reduce the n entries of action a (consecutive in the cover); append the result.
    void ReduceAction(size_t a, const TcamEntry* entries, size_t n, std::vector<TcamEntry>& reduced)
    {
        m_rects.assign(2 * n * m_words, 0);
        m_live.assign(n, 1);
        std::fill(m_cover.begin(), m_cover.end(), 0);
        std::vector<std::pair<uint32_t, size_t>> byOwn;
        for (size_t f = 0; f < n; ++f)
        {
            for (PortNo in : entries[f].inPorts)
            {
                In(f)[in / 64] |= uint64_t{1} << (in % 64);
            }
            uint32_t own = 0;
            for (PortNo out : entries[f].outPorts)
            {
                Out(f)[out / 64] |= uint64_t{1} << (out % 64);
                for (uint32_t w = 0; w < m_words; ++w)
                {
                    own += Popcount(In(f)[w] & m_g.ins[a][size_t{out} * m_words + w]);
                }
            }
            byOwn.emplace_back(own, f);
            CountRect(f, 1);
        }
        std::sort(byOwn.begin(), byOwn.end());
        for (const auto& [own, e] : byOwn)
        {
            m_savedRects = m_rects;
            m_savedCover = m_cover;
            if (!TryDrop(a, e))
            {
                m_rects.swap(m_savedRects);
                m_cover.swap(m_savedCover);
                m_live[e] = 1;
            }
        }
        MergePairs(a, n);
        for (size_t f = 0; f < n; ++f)
        {
            if (m_live[f])
            {
                reduced.push_back(TcamEntry{m_g.tag,
                                            BitsToPorts(In(f), m_words),
                                            BitsToPorts(Out(f), m_words),
                                            m_g.actions[a]});
            }
        }
    }

    const TagGrid& m_g;
    const TagGrid& m_t;
    const uint32_t m_words;
    std::vector<uint64_t> m_allowed;    //!< per out port: in ports whose cell may be matched
    std::vector<uint64_t> m_allowedT;   //!< per in port: out ports whose cell may be matched
    std::vector<uint16_t> m_cover;      //!< per (in, out): live rectangles matching it
    std::vector<uint64_t> m_rects;      //!< the action's rectangles: in ports, out ports
    std::vector<char> m_live;           //!< rectangle not dropped
    std::vector<uint64_t> m_savedRects; //!< m_rects before a drop attempt
    std::vector<uint16_t> m_savedCover; //!< m_cover before a drop attempt
    std::vector<uint64_t> m_box;        //!< per rectangle: Box's in ports and allowed in ports
    std::vector<uint64_t> m_touched;    //!< MergePairs: in and out ports of the merged pair
    std::vector<uint64_t> m_rows;       //!< TryMerge's in ports
    std::vector<uint64_t> m_cols;       //!< TryMerge's out ports
};

/**
 * The fewest entries for one tag among the per-out-port aggregation and the
 * rectangle covers (each with its drop and merge steps) grown from out ports
 * and from in ports, 2 seeds each (the better one depends on the switch: each
 * wins on some); thorough: also from both at once, and all three with 4 seeds.
 */
std::vector<TcamEntry>
CoverTag(const TagGrid& g, bool thorough)
{
    std::vector<TcamEntry> best;
    AggregatePerOutPort(g, best);
    const TagGrid t = Transpose(g);
    const std::vector<size_t> order = ActionOrder(g);
    for (size_t seeds = 2; seeds <= (thorough ? 4 : 2); seeds += 2)
    {
        for (uint32_t seedViews = 1; seedViews <= (thorough ? 3 : 2); ++seedViews)
        {
            std::vector<TcamEntry> cover;
            GridCover(g, t, seedViews, seeds).Run(order, cover);
            CoverReducer(g, t).Run(cover);
            if (cover.size() < best.size())
            {
                best = std::move(cover);
            }
        }
    }
    return best;
}

} // namespace

std::vector<TcamEntry>
CompressTcam(const TagRules& rules, NodeId node, bool thorough)
{
    std::vector<TcamEntry> entries;
    for (const TagGrid& g : BuildGrids(rules, node))
    {
        std::vector<TcamEntry> part = CoverTag(g, thorough);
        entries.insert(entries.end(),
                       std::make_move_iterator(part.begin()),
                       std::make_move_iterator(part.end()));
    }
    return entries;
}

} // namespace tagger
} // namespace ns3
