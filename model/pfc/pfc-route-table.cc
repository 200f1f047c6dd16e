/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#include "pfc-route-table.h"

#include "ns3/abort.h"
#include "ns3/ipv4-address.h"

#include <array>
#include <limits>

namespace ns3
{

namespace
{
/// \param mask an IPv4 mask \return its length (NS_ABORT_MSG unless contiguous)
uint32_t
CheckedPrefixLength(uint32_t mask)
{
    uint32_t n = 0;
    while (n < 32 && (mask & (0x80000000u >> n)))
    {
        ++n;
    }
    NS_ABORT_MSG_IF(n < 32 && (mask << n) != 0,
                    "PfcRouteTable: mask " << Ipv4Address(mask) << " is not contiguous");
    return n;
}
} // namespace

void
PfcRouteTable::Set(uint32_t prefix, uint32_t mask, const PortSet& ports)
{
    if (CheckedPrefixLength(mask) == 32)
    {
        if (!m_ranges.empty() && m_ranges.back().hi < prefix)
        {
            // Ascending installation (PfcRouteHelper): extend the last run.
            Range& last = m_ranges.back();
            if (last.hi + 1 == prefix && m_groups[last.group] == ports)
            {
                last.hi = prefix;
                return;
            }
        }
        SetHost(prefix, Intern(ports));
        return;
    }
    uint32_t group = Intern(ports);
    prefix &= mask;
    for (Prefix& p : m_prefixes)
    {
        if (p.mask == mask && p.prefix == prefix)
        {
            p.group = group;
            p.only = SinglePort(group);
            return;
        }
    }
    // Contiguous masks: a larger value is a longer prefix.
    auto pos = std::find_if(m_prefixes.begin(), m_prefixes.end(), [mask](const Prefix& p) {
        return p.mask < mask;
    });
    m_prefixes.insert(pos, Prefix{prefix, mask, group, SinglePort(group)});
}

void
PfcRouteTable::Add(uint32_t prefix, uint32_t mask, uint32_t port)
{
    PortSet ports;
    if (CheckedPrefixLength(mask) == 32)
    {
        auto it = std::upper_bound(m_ranges.begin(),
                                   m_ranges.end(),
                                   prefix,
                                   [](uint32_t d, const Range& r) { return d < r.lo; });
        if (it != m_ranges.begin() && prefix <= (it - 1)->hi)
        {
            ports = m_groups[(it - 1)->group];
        }
    }
    else
    {
        for (const Prefix& p : m_prefixes)
        {
            if (p.mask == mask && p.prefix == (prefix & mask))
            {
                ports = m_groups[p.group];
                break;
            }
        }
    }
    if (std::find(ports.begin(), ports.end(), port) == ports.end())
    {
        ports.push_back(port);
    }
    Set(prefix, mask, ports);
}

void
PfcRouteTable::Clear()
{
    m_groups.clear();
    m_index.clear();
    m_ranges.clear();
    m_prefixes.clear();
}

uint32_t
PfcRouteTable::RemovePort(uint32_t port)
{
    std::vector<PortSet> sets = m_groups;
    std::vector<bool> changed(sets.size(), false);
    for (std::size_t g = 0; g < sets.size(); ++g)
    {
        auto it = std::remove(sets[g].begin(), sets[g].end(), port);
        changed[g] = it != sets[g].end();
        sets[g].erase(it, sets[g].end());
    }
    uint64_t routes = 0;
    for (const Range& r : m_ranges)
    {
        routes += changed[r.group] ? uint64_t(r.hi - r.lo) + 1 : 0;
    }
    for (const Prefix& p : m_prefixes)
    {
        routes += changed[p.group] ? 1 : 0;
    }
    Rebuild(std::move(sets));
    return uint32_t(std::min<uint64_t>(routes, std::numeric_limits<uint32_t>::max()));
}

uint32_t
PfcRouteTable::GetNRanges() const
{
    return m_ranges.size();
}

uint32_t
PfcRouteTable::GetNGroups() const
{
    std::vector<bool> used(m_groups.size(), false);
    for (const Range& r : m_ranges)
    {
        used[r.group] = true;
    }
    for (const Prefix& p : m_prefixes)
    {
        used[p.group] = true;
    }
    return std::count(used.begin(), used.end(), true);
}

uint32_t
PfcRouteTable::GetNPrefixes() const
{
    return m_prefixes.size();
}

uint32_t
PfcRouteTable::SinglePort(uint32_t group) const
{
    return m_groups[group].size() == 1 ? m_groups[group][0] : kNoSinglePort;
}

PfcRouteTable::Range
PfcRouteTable::MakeRange(uint32_t lo, uint32_t hi, uint32_t group) const
{
    return Range{lo, hi, group, SinglePort(group)};
}

uint32_t
PfcRouteTable::Intern(const PortSet& ports)
{
    auto it = m_index.find(ports);
    if (it != m_index.end())
    {
        return it->second;
    }
    if (m_groups.size() >= 2 * (m_ranges.size() + m_prefixes.size()) + 16)
    {
        Rebuild(m_groups); // reclaim the sets no route uses any more
    }
    m_index.emplace(ports, m_groups.size());
    m_groups.push_back(ports);
    return m_groups.size() - 1;
}

void
PfcRouteTable::SetHost(uint32_t address, uint32_t group)
{
    // The first range that ends at or after the address.
    auto it =
        std::lower_bound(m_ranges.begin(), m_ranges.end(), address, [](const Range& r, uint32_t a) {
            return r.hi < a;
        });
    std::size_t i = it - m_ranges.begin();
    if (it == m_ranges.end() || it->lo > address)
    {
        m_ranges.insert(it, MakeRange(address, address, group));
        MergeAround(i);
        return;
    }
    const Range r = *it;
    if (r.group == group)
    {
        return;
    }
    // Split r around the address: [lo, address - 1], [address], [address + 1, hi].
    std::array<Range, 3> pieces;
    std::size_t n = 0;
    if (r.lo < address)
    {
        pieces[n++] = MakeRange(r.lo, address - 1, r.group);
    }
    std::size_t mine = i + n;
    pieces[n++] = MakeRange(address, address, group);
    if (address < r.hi)
    {
        pieces[n++] = MakeRange(address + 1, r.hi, r.group);
    }
    m_ranges[i] = pieces[0];
    m_ranges.insert(m_ranges.begin() + i + 1, pieces.begin() + 1, pieces.begin() + n);
    MergeAround(mine);
}

void
PfcRouteTable::MergeAround(std::size_t i)
{
    if (i + 1 < m_ranges.size() && m_ranges[i].hi + 1 == m_ranges[i + 1].lo &&
        m_ranges[i].group == m_ranges[i + 1].group)
    {
        m_ranges[i].hi = m_ranges[i + 1].hi;
        m_ranges.erase(m_ranges.begin() + i + 1);
    }
    if (i > 0 && m_ranges[i - 1].hi + 1 == m_ranges[i].lo &&
        m_ranges[i - 1].group == m_ranges[i].group)
    {
        m_ranges[i - 1].hi = m_ranges[i].hi;
        m_ranges.erase(m_ranges.begin() + i);
    }
}

void
PfcRouteTable::Rebuild(std::vector<PortSet> sets)
{
    std::vector<bool> used(sets.size(), false);
    for (const Range& r : m_ranges)
    {
        used[r.group] = true;
    }
    for (const Prefix& p : m_prefixes)
    {
        used[p.group] = true;
    }
    m_groups.clear();
    m_index.clear();
    std::vector<uint32_t> renumber(sets.size(), 0);
    for (std::size_t g = 0; g < sets.size(); ++g)
    {
        if (used[g])
        {
            auto [it, added] = m_index.emplace(sets[g], m_groups.size());
            if (added)
            {
                m_groups.push_back(std::move(sets[g]));
            }
            renumber[g] = it->second;
        }
    }
    for (Prefix& p : m_prefixes)
    {
        p.group = renumber[p.group];
        p.only = SinglePort(p.group);
    }
    std::vector<Range> merged;
    merged.reserve(m_ranges.size());
    for (Range r : m_ranges)
    {
        r.group = renumber[r.group];
        r.only = SinglePort(r.group);
        if (!merged.empty() && merged.back().hi + 1 == r.lo && merged.back().group == r.group)
        {
            merged.back().hi = r.hi;
        }
        else
        {
            merged.push_back(r);
        }
    }
    m_ranges.swap(merged);
}

} // namespace ns3
