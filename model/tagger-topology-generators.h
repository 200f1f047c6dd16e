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
 * Leaf ports; a Leaf's ToR ports first, then its spine ports; a spine's ports
 * follow pod order.
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

/// Build a 3-tier Clos.  Throws TaggerError on a zero parameter.
Topology MakeClos(const ClosParams& p);

/**
 * FatTree(k): k pods of k/2 edge (ToR) and k/2 aggregation switches,
 * (k/2)^2 cores, k^3/4 hosts.  k even >= 2.  Names: T (edge), L (aggregation),
 * S (core), H (hosts).  Layers 1, 2, 3.
 */
Topology MakeFatTree(uint32_t k);

/**
 * F10(k) (Liu et al., NSDI 2013): an AB fat tree.  Like FatTree(k), but pods
 * alternate between two wirings of aggregation switches to cores: in an A pod
 * aggregation switch i connects to cores i*k/2 .. i*k/2+k/2-1 (as in the fat
 * tree); in a B pod it connects to cores i, i+k/2, i+2*k/2, ... (strided).
 */
Topology MakeF10(uint32_t k);

/**
 * Jellyfish (Singla et al., NSDI 2012): N switches with n ports each, r of them
 * to other switches, n-r to hosts.  Random r-regular switch graph built
 * incrementally: join random pairs of switches with free ports that are not
 * yet neighbours; when no such pair remains but a switch has >= 2 free ports,
 * remove a random existing link (x, y) and connect the switch to both x and y.
 * Repeated with new random draws until connected.  Deterministic per seed.
 * Throws TaggerError when N*r is odd, r >= N, r > n, or N < 2.
 * Names: switches W1.., hosts H1...  Layer -1.
 */
Topology MakeJellyfish(uint32_t switches, uint32_t ports, uint32_t switchPorts, uint64_t seed);

/**
 * BCube(n, k) (Guo et al., SIGCOMM 2009): n^(k+1) servers with k+1 ports each,
 * k+1 levels of n^k switches with n ports.  Server with digits a_k..a_0 connects
 * its port l to the level-l switch whose id is its digits without a_l, at that
 * switch's port a_l.  Servers relay (relay = true).  Names: servers H<digits>,
 * switches W<level>_<digits>, e.g. H0123 and W1_023.
 */
Topology MakeBCube(uint32_t n, uint32_t k);

} // namespace tagger
} // namespace ns3

#endif /* TAGGER_TOPOLOGY_GENERATORS_H */
