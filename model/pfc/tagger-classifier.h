/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef TAGGER_CLASSIFIER_H
#define TAGGER_CLASSIFIER_H

#include "pfc-classifier.h"

#include "ns3/tagger-rule-table.h"

#include <vector>

/**
 * \file
 * \ingroup tagger
 * Tagger's priority policy: tags rewritten by per-switch rules (TTL classes:
 * ttl-classifier.h).
 */

namespace ns3
{

/**
 * \ingroup tagger
 * Tagger in the switch (Tagger (ToN), Section VII): the tag travels in the IPv4
 * DSCP; ingress queue = the tag (tag 0, the lossy tag, uses queue 0); the
 * rule (tag, in port, out port) -> new tag is applied with TCAM semantics
 * (first matching entry; no match -> the lossy tag); the egress queue is the
 * NEW tag's (Section VII-B), or the old tag's with EgressByOldTag (the wrong
 * behaviour, kept to show its drops: the downstream PAUSE then names a class
 * the upstream does not queue the packet in).  A packet a relay server
 * originates (no ingress port) keeps its tag: the server is the first node
 * of its path, where no rule applies, as on a host's own NIC.
 */
class TaggerClassifier : public PfcClassifier
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TaggerClassifier();

    /**
     * Load this switch's TCAM entries.
     * \param nPorts number of switch ports
     * \param entries the library's entries, ports in the library's numbering
     * \param portMap library port number -> switch port index (kPfcNoPort: none)
     * NS_FATAL_ERROR when a new tag needs a queue beyond class 7.
     */
    void SetTcam(uint32_t nPorts,
                 const std::vector<tagger::TcamEntry>& entries,
                 const std::vector<uint32_t>& portMap);

    /**
     * \param tag a tag \param in ingress port \param out egress port (switch indices)
     * \return the new tag (kLossyTag when no entry matches)
     */
    uint8_t Lookup(uint8_t tag, uint32_t in, uint32_t out) const;
    /// \param tag a tag \return its queue: the tag for 0..7
    static uint8_t QueueOfTag(uint8_t tag);
    uint32_t GetNEntries() const; //!< \return TCAM entries loaded

    uint8_t GetIngressQueue(const PfcPacketContext& ctx) const override;
    uint8_t Rewrite(PfcPacketContext& ctx) override;

  private:
    bool m_egressByOldTag;        //!< EgressByOldTag
    uint32_t m_nPorts;            //!< ports
    uint32_t m_tags;              //!< tags with entries (max tag + 1)
    std::vector<uint8_t> m_table; //!< [(tag * n + in) * n + out] -> new tag
    uint32_t m_entries;           //!< TCAM entries loaded
};

} // namespace ns3

#endif /* TAGGER_CLASSIFIER_H */
