/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef PFC_ROUTE_TABLE_H
#define PFC_ROUTE_TABLE_H

#include <algorithm>
#include <cstdint>
#include <map>
#include <vector>

/**
 * \file
 * \ingroup tagger
 * The FIB of a PfcSwitchNetDevice: longest prefix -> ECMP set, compact.
 */

namespace ns3
{

/**
 * \ingroup tagger
 * A compact IPv4 FIB: longest prefix match -> ECMP set (an ordered list of
 * port indices; the order matters, the ECMP hash indexes it).
 *
 * Its meaning is that of a plain table of /32 routes plus a list of shorter
 * prefixes: a /32 route, even with an empty set, wins over every shorter
 * prefix; among shorter prefixes the longest matching one wins; no match:
 * no route.  Its layout does not store a route per host:
 *
 *  - ECMP sets are interned in a group table: identical sets (same ports,
 *    same order) share one entry, so a switch holds each distinct set once;
 *  - the /32 routes are a sorted vector of disjoint address ranges
 *    [lo, hi] -> group, where a range is a run of consecutive addresses with
 *    the same set.  Routes set in ascending address order append (or extend
 *    the last range) in O(1); a /32 set inside a range splits it in up to
 *    three, and neighbours with the same set merge again.  With hosts
 *    numbered consecutively under each ToR, as PfcTopologyHelper numbers
 *    them, the ranges of a Clos or fat-tree switch are its ToRs' or pods'
 *    blocks (prefix-like), split only by per-host exceptions (a pinned path,
 *    a local reroute's random choice, a SetRoute);
 *  - shorter prefixes are a list, longest first.
 *
 * Find is a binary search over the ranges, then the prefix list: O(log
 * ranges + prefixes), independent of the number of hosts when the ranges are
 * prefix-like.  Memory is O(ranges + groups x set size + prefixes).  Sets no
 * route uses any more are reclaimed by RemovePort, by Clear, and by a Set
 * that creates a set while the table holds 16 + twice as many sets as
 * ranges and prefixes (a reclaim is O(sets + ranges + prefixes)).
 */
class PfcRouteTable
{
  public:
    /// An ECMP set: port indices, in the order the hash indexes them.
    using PortSet = std::vector<uint32_t>;

    /**
     * Set the ECMP set of \p prefix / \p mask, replacing the one it had.
     * \param prefix destination (masked here) \param mask contiguous mask
     * (NS_ABORT_MSG otherwise) \param ports the set (empty: the prefix is
     * routed nowhere, shadowing shorter ones)
     */
    void Set(uint32_t prefix, uint32_t mask, const PortSet& ports);
    /**
     * Append \p port to the ECMP set of exactly \p prefix / \p mask (a new
     * route if there is none; nothing if the port is in the set already).
     * \param prefix destination \param mask contiguous mask \param port port index
     */
    void Add(uint32_t prefix, uint32_t mask, uint32_t port);
    /// Remove every route.
    void Clear();
    /**
     * Remove \p port from every ECMP set; sets left empty stay (their
     * destinations have an empty route).
     * \param port port index
     * \return routes changed, a /32 counting once per address (saturates at 2^32 - 1)
     */
    uint32_t RemovePort(uint32_t port);

    /**
     * \param dest destination address
     * \return the ECMP set of its longest matching prefix, nullptr when no
     * route matches; valid until the next change of the table
     */
    const PortSet* Find(uint32_t dest) const;
    /**
     * Find for the data plane: as Find(\p dest), and when the set has
     * exactly one port, that port in \p only, read from the range itself
     * (kNoSinglePort otherwise).  A switch on a down path (one port) then
     * does not read the set, a memory read that in a large network misses
     * the cache.
     * \param dest destination address \param only (out) the set's one port
     * \return as Find
     */
    const PortSet* Find(uint32_t dest, uint32_t& only) const;

    /// Find's \p only when the set does not have exactly one port.
    static constexpr uint32_t kNoSinglePort = 0xffffffffu;

    /// \return /32 address ranges (runs of consecutive addresses with one set)
    uint32_t GetNRanges() const;
    /// \return distinct ECMP sets the routes use (unused ones not counted)
    uint32_t GetNGroups() const;
    /// \return routes shorter than /32
    uint32_t GetNPrefixes() const;

  private:
    /// A run of consecutive /32 destinations with the same ECMP set.
    struct Range
    {
        uint32_t lo;    //!< first address
        uint32_t hi;    //!< last address (inclusive)
        uint32_t group; //!< index into m_groups
        uint32_t only;  //!< SinglePort(group), for Find's \p only
    };

    /// A route shorter than /32.
    struct Prefix
    {
        uint32_t prefix; //!< masked destination
        uint32_t mask;   //!< contiguous mask, not all ones
        uint32_t group;  //!< index into m_groups
        uint32_t only;   //!< SinglePort(group), for Find's \p only
    };

    /// \param group a group index \return its one port, or kNoSinglePort
    uint32_t SinglePort(uint32_t group) const;
    /// \param lo first \param hi last address \param group group \return the range
    Range MakeRange(uint32_t lo, uint32_t hi, uint32_t group) const;
    /// \param ports a set \return its group index (created if new)
    uint32_t Intern(const PortSet& ports);
    /// \param address a /32 destination \param group its set's group
    void SetHost(uint32_t address, uint32_t group);
    /// Merge range \p i with its neighbours that continue it with the same group.
    /// \param i a range index
    void MergeAround(std::size_t i);
    /**
     * Renumber the groups: drop unused ones and merge equal ones (after
     * RemovePort), then merge the ranges that became equal neighbours.
     * \param sets the new content of every current group
     */
    void Rebuild(std::vector<PortSet> sets);

    std::vector<PortSet> m_groups;       //!< ECMP sets, by group index
    std::map<PortSet, uint32_t> m_index; //!< set -> group index
    std::vector<Range> m_ranges;         //!< /32 routes, sorted, disjoint
    std::vector<Prefix> m_prefixes;      //!< shorter routes, longest mask first
};

inline const PfcRouteTable::PortSet*
PfcRouteTable::Find(uint32_t dest, uint32_t& only) const
{
    std::size_t n = m_ranges.size();
    if (n > 0)
    {
        // Branch-free binary search: the last range starting at or before
        // dest (the first one if none does).
        const Range* r = m_ranges.data();
        while (n > 1)
        {
            std::size_t half = n / 2;
            r = r[half].lo <= dest ? r + half : r;
            n -= half;
        }
        if (r->lo <= dest && dest <= r->hi)
        {
            only = r->only;
            return &m_groups[r->group];
        }
    }
    for (const Prefix& p : m_prefixes)
    {
        if ((dest & p.mask) == p.prefix)
        {
            only = p.only;
            return &m_groups[p.group];
        }
    }
    only = kNoSinglePort;
    return nullptr;
}

inline const PfcRouteTable::PortSet*
PfcRouteTable::Find(uint32_t dest) const
{
    uint32_t only;
    return Find(dest, only);
}

} // namespace ns3

#endif /* PFC_ROUTE_TABLE_H */
