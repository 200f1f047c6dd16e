/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef TAGGER_HELPER_H
#define TAGGER_HELPER_H

#include "pfc-topology-helper.h"

#include "ns3/object-factory.h"
#include "ns3/tagger-classifier.h"
#include "ns3/tagger-elp.h"
#include "ns3/tagger-rule-table.h"

#include <string>
#include <vector>

/**
 * \file
 * \ingroup tagger
 * Install Tagger rules or TTL priorities on the switches of a network.
 */

namespace ns3
{

/**
 * \ingroup tagger
 * Installs Tagger on every switch of a PfcTopologyHelper network: one
 * TaggerClassifier per switch loaded with the library's TCAM entries for
 * that switch (tagger::CompressTcamTable), the library's port numbers mapped onto
 * the switch's port indices; every device maps DSCP d to class min(d, 7);
 * each MMU makes classes 1..max(lossless tags, highest tag written) lossless
 * (0 stays lossy; a tag only delivered to hosts still crosses the last
 * switch's queue of that class).  Hosts of
 * application class c send with tag c (DSCP c).
 *
 * \code
 *   tagger::Elp elp = tagger::MakeUpDownElp(topo, 1);   // shortest + 1-bounce
 *   tagger::TagRules rules = tagger::TagClos(topo, 1);  // or TagGreedy(elp.graph)
 *   TaggerHelper tagger;
 *   tagger.Install(net, rules);
 * \endcode
 */
class TaggerHelper
{
  public:
    TaggerHelper();

    /// Set an attribute of every TaggerClassifier (e.g. EgressByOldTag). \param n name \param v
    /// value
    void SetClassifierAttribute(std::string n, const AttributeValue& v);

    /**
     * Install \p rules (computed for net.GetTopology()).
     * \param net the network (built) \param rules the rules
     * \param losslessTags lossless tags to provision at least (e.g. a rules
     *        file's lossless_tags; 0: what the rules need)
     * NS_FATAL_ERROR when the rules need more than 7 lossless queues.
     */
    void Install(const PfcTopologyHelper& net,
                 const tagger::TagRules& rules,
                 uint32_t losslessTags = 0);

    /**
     * Install the rules of a tagger-rules JSON file.  A rules file is user
     * input, so it is checked first: node names and port counts must match
     * net's topology (tagger::ReadRulesJson), and, unless SetVerifyRules(false),
     * the rules must meet both deadlock-freedom requirements
     * (tagger::VerifyDeadlockFree with the file's lossless_tags: no cycle
     * inside a tag, no tag decrease, no rule on an unconnected port, no
     * lossless tag beyond lossless_tags).  NS_FATAL_ERROR naming what is
     * wrong (the cycle, the rule).  The ELP is not checked: the file's rules
     * are installed whatever paths they cover.
     * \param net the network \param path the file
     */
    void InstallFromJson(const PfcTopologyHelper& net, const std::string& path);

    /**
     * Read and check a tagger-rules JSON file for \p topo as InstallFromJson
     * does (names, ports and links against \p topo; both deadlock-freedom
     * requirements when \p verify), without installing anything: programs
     * call it while checking their flags, so that a bad file gets their
     * one-line error before the simulation is built.
     * \param topo the network's topology \param path the file
     * \param verify check deadlock freedom too
     * \param rules set to the rules read \param losslessTags set to the file's lossless_tags
     * \return "" or what is wrong (the cycle, the rule, the line)
     */
    static std::string ReadRulesFile(const tagger::Topology& topo,
                                     const std::string& path,
                                     bool verify,
                                     tagger::TagRules& rules,
                                     uint32_t& losslessTags);

    /**
     * Whether InstallFromJson verifies deadlock freedom (default true).
     * False installs rules that may deadlock, for experiments, with a
     * warning on standard error at each such install.
     * \param verify false to install rules files unverified
     */
    void SetVerifyRules(bool verify);

    /**
     * Rules for the up-down ELP with at most \p bounces bounces (shortest
     * paths when 0) on a Clos or fat tree (tagger::TagClos: bounces + 1 tags),
     * or all shortest paths with the greedy merge on any other topology: the
     * rule library's choice, tagger::ComputeDefaultRules.  NS_FATAL_ERROR when
     * the library throws (e.g. bounces > 0 on a topology without layers).
     * \param topo the topology \param bounces bounces \param classes application classes
     * \return the rules
     */
    static tagger::TagRules ComputeRules(const tagger::Topology& topo,
                                         uint32_t bounces,
                                         uint32_t classes = 1);

    uint32_t GetLosslessTags() const; //!< \return lossless tags of the installed rules
    /// \param node topology switch id \return its classifier (nullptr for hosts)
    Ptr<TaggerClassifier> GetClassifier(tagger::NodeId node) const;

  private:
    ObjectFactory m_factory;                          //!< TaggerClassifier factory
    tagger::TagRules m_rules;                         //!< rules installed (copy)
    std::vector<Ptr<TaggerClassifier>> m_classifiers; //!< per node id
    uint32_t m_losslessTags;                          //!< lossless tags
    bool m_verifyRules;                               //!< InstallFromJson verifies
};

/**
 * \ingroup tagger
 * Installs TTL priorities (the TTL scheme) on every switch: a TtlClassifier with
 * Ttl0, every class lossless, and a private buffer of at least one maximum
 * frame per (port, class) (the TTL scheme's partition of at least n * MTU per
 * class).  Hosts must send with TTL Ttl0 (RdmaNic attribute Ttl) and DSCP 0.
 */
class TtlHelper
{
  public:
    /**
     * The Ttl0 for paths of up to \p switches switches: switches + 1;
     * NS_FATAL_ERROR when they need more than 8 classes.
     * \param switches switches on the longest legal path \return Ttl0
     */
    static uint8_t Ttl0ForPath(uint32_t switches);
    /// \param elp the legal paths \return switches on its longest path
    static uint32_t LongestPathSwitches(const tagger::Elp& elp);

    /**
     * Install TTL priorities with \p ttl0 on every switch of \p net.
     * \param net the network (built) \param ttl0 the hosts' TTL
     */
    static void Install(const PfcTopologyHelper& net, uint8_t ttl0);
};

} // namespace ns3

#endif /* TAGGER_HELPER_H */
