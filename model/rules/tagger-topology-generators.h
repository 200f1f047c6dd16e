/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 */

#ifndef TAGGER_TOPOLOGY_GENERATORS_H
#define TAGGER_TOPOLOGY_GENERATORS_H

#include "tagger-topology.h"

#include <cstdint>
#include <string>

namespace ns3
{
namespace tagger
{

/**
 * \ingroup tagger
 * \brief Parameters of a 3-tier Clos: pods of ToR and Leaf switches under a
 * spine layer.
 *
 * Inside a pod every ToR connects to every Leaf of the pod.  Leaf j of each pod
 * (j = 0..leafsPerPod-1) connects to spines (j*spinesPerLeaf + s) mod spines for
 * s = 0..spinesPerLeaf-1 (the usual "plane" wiring when spines =
 * leafsPerPod * spinesPerLeaf; full leaf-spine mesh when spinesPerLeaf = spines).
 *
 * Names: ToRs T1.., Leafs L1.., spines S1.., hosts H1.. numbered across pods in
 * order.  Ports: a ToR's host ports come first (0..hostsPerTor-1), then its
 * Leaf ports (ToR port hostsPerTor + j to leaf j of its pod); a Leaf's ToR ports
 * first (port i to ToR i of its pod), then its spine ports (port torsPerPod + s
 * for its s-th spine); a spine's ports follow pod order, and inside a pod leaf
 * order.
 */
struct ClosParams
{
    uint32_t pods{2};
    uint32_t torsPerPod{2};
    uint32_t leafsPerPod{2};
    uint32_t spines{2};
    uint32_t spinesPerLeaf{1};
    uint32_t hostsPerTor{4};
};

/// The paper's testbed (Fig. 2): T1-T4, L1-L4, S1-S2, H1-H16.
ClosParams PaperTestbedClos();

/**
 * Build a 3-tier Clos.  Node ids: ToRs, leafs, spines, hosts (each in name
 * order); host Hm sits on ToR T((m-1)/hostsPerTor + 1).  Throws TaggerError
 * naming the parameter on a zero parameter, when spinesPerLeaf > spines
 * (parallel links) or when spines > leafsPerPod * spinesPerLeaf (a spine
 * without links).
 */
Topology MakeClos(const ClosParams& p);

/**
 * FatTree(k): k pods of k/2 edge (ToR) and k/2 aggregation switches,
 * (k/2)^2 cores, k^3/4 hosts.  k even >= 2.  Names: T (edge), L (aggregation),
 * S (core), H (hosts).  Layers 1, 2, 3.
 *
 * It is MakeClos with pods = k, torsPerPod = leafsPerPod = hostsPerTor = k/2,
 * spines = (k/2)^2, spinesPerLeaf = k/2: aggregation switch i (0-based inside
 * its pod) connects its port k/2 + j to core i*k/2 + j (j = 0..k/2-1), and
 * core c's port p goes to pod p.  Node ids: ToRs, aggregations, cores, hosts.
 * Throws TaggerError naming k when it is odd or < 2.
 */
Topology MakeFatTree(uint32_t k);

/**
 * F10(k) (Liu et al., NSDI 2013): an AB fat tree.  Like FatTree(k), but pods
 * alternate between two wirings of aggregation switches to cores.  With h = k/2
 * and pods numbered from 0: even pods are A pods, where aggregation switch i
 * connects its port h + j to core i*h + j (as in the fat tree); odd pods are B
 * pods, where aggregation switch i connects its port h + j to core i + j*h
 * (strided), j = 0..h-1.  Everything else (names, ports, node ids, hosts,
 * edge-aggregation links) is identical to FatTree(k), and core c's port p still
 * goes to pod p (one link per pod).  For k = 2 it equals FatTree(2).
 */
Topology MakeF10(uint32_t k);

/**
 * Jellyfish (Singla et al., NSDI 2012): N switches with n ports each, r of them
 * to other switches, n-r to hosts.  Random r-regular switch graph built
 * incrementally: join random pairs of switches with free ports that are not
 * yet neighbours; when no such pair remains but a switch has >= 2 free ports,
 * remove a random existing link (x, y) and connect the switch to both x and y
 * (x, y not already its neighbours); when the only free ports left are single
 * ports on switches u, v that are already neighbours, remove a random link
 * (x, y) and add (u, x), (v, y).  Repeated with new random draws until the
 * graph is connected (at most 1000 attempts, then TaggerError).  The result
 * is a simple graph: no parallel links, every switch port used.
 *
 * Randomness: std::mt19937_64 seeded with `seed`, uniform integers by
 * rejection sampling (no std::uniform_int_distribution), so a seed gives the
 * same topology with every standard library.
 *
 * Throws TaggerError when N*r is odd, r >= N, r > n, r = 0, N < 2, or r = 1
 * with N > 2 (never connected).
 * Names: switches W1..WN (node ids 0..N-1), hosts H1.. (ids N..), switch i
 * (0-based) hosting H(i*(n-r)+1) .. H((i+1)*(n-r)) on its ports 0..n-r-1.
 * Switch ports n-r..n-1 go to other switches, assigned in increasing order of
 * the links sorted by (lower switch id, higher switch id).  Layer -1.
 */
Topology MakeJellyfish(uint32_t switches, uint32_t ports, uint32_t switchPorts, uint64_t seed);

/**
 * A two-tier leaf-spine: every leaf (ToR) connects to every spine.  Names:
 * spines S1.., leaves L1.., hosts H1.. (host h on leaf h / hostsPerLeaf).
 * Node ids: spines, leaves, hosts.  Ports: a leaf's host ports first
 * (0..hostsPerLeaf-1), then spine s on port hostsPerLeaf + s; spine port l
 * goes to leaf l.  Layers: host 0, leaf 1, spine 2.  Throws TaggerError
 * naming the parameter when one is 0.
 */
Topology MakeLeafSpine(uint32_t leaves, uint32_t spines, uint32_t hostsPerLeaf);

/**
 * BCube(n, k) (Guo et al., SIGCOMM 2009): n^(k+1) servers with k+1 ports each,
 * k+1 levels of n^k switches with n ports.  Server with digits a_k..a_0 connects
 * its port l to the level-l switch whose id is its digits without a_l, at that
 * switch's port a_l.  Servers relay (relay = true).  Names: servers H<digits>,
 * switches W<level>_<digits>, e.g. H0123 and W1_023 (digits most significant
 * first; when n > 10 the digits are decimal numbers separated by '.', e.g.
 * H11.0.3).  Node ids: servers in digit order, then the switches level by
 * level in digit order.  Layer -1 everywhere.  Throws TaggerError when n < 2 or
 * k < 1.
 */
Topology MakeBCube(uint32_t n, uint32_t k);

/**
 * A connected random sparse switch graph with one host per switch (for the
 * order benchmark of the greedy, tagger-order-bench.h, and tagger-rules
 * --topology=random-sparse).  Seeded, the same with every standard library
 * (std::mt19937_64 with rejection sampling).
 *
 * Every switch draws a target degree uniform in [minDegree, maxDegree].  A
 * random spanning tree comes first (the switches in random order, each joined
 * to a random earlier one below its target degree, else below maxDegree), so
 * the graph is connected; then random pairs of switches below their targets
 * that are not yet neighbours are joined until no such pair is left.  Every
 * switch ends with at most maxDegree and at most its target links, except
 * that the spanning tree may take a switch past its target (never past
 * maxDegree); a switch can end below minDegree when no partner is left
 * (rare, mostly with minDegree close to switches - 1).  No parallel links.
 *
 * Names: switches W1..WN (node ids 0..N-1), hosts H1..HN (ids N..2N-1), host
 * Hi on switch Wi.  Switch i has degree + 1 ports; which port goes to its host
 * and which to each neighbour is a seeded random permutation (so port numbers
 * carry no structure).  Layer -1.
 *
 * Throws TaggerError when switches < 2 or > 100000, minDegree < 1,
 * maxDegree < minDegree, maxDegree >= switches, or maxDegree < 2 with more
 * than 2 switches (never connected).
 */
Topology MakeRandomSparse(uint32_t switches, uint32_t minDegree, uint32_t maxDegree, uint64_t seed);

} // namespace tagger
} // namespace ns3

#endif /* TAGGER_TOPOLOGY_GENERATORS_H */
