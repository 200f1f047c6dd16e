/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef TTL_CLASSIFIER_H
#define TTL_CLASSIFIER_H

#include "pfc-classifier.h"

/**
 * \file
 * \ingroup tagger
 * The TTL scheme's priority policy: the class grows by one per hop.
 */

namespace ns3
{

/**
 * \ingroup tagger
 * TTL-based priorities (the TTL scheme): hosts send with TTL = Ttl0; a packet
 * that arrives with TTL t is in class Ttl0 - t (0 at the first switch) and
 * stays in that class through the switch (egress queue = ingress queue); the
 * next switch sees one class higher.  A path through s switches needs
 * Ttl0 >= s + 1 (the switch drops a packet whose TTL would reach 0) and s
 * classes.  So the PAUSE raised by ingress queue j names class j - 1
 * upstream (class 0 for j = 0: the host's class), and ingress queues 0 and 1
 * both name class 0: the switch pauses it while either is OFF.  A packet
 * whose TTL runs out is dropped (TTL_EXPIRED) by the switch.
 */
class TtlClassifier : public PfcClassifier
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TtlClassifier();

    uint8_t GetIngressQueue(const PfcPacketContext& ctx) const override;
    uint8_t Rewrite(PfcPacketContext& ctx) override;
    uint8_t GetPauseClass(uint8_t ingressQueue) const override;

  private:
    uint8_t m_ttl0; //!< Ttl0
};

} // namespace ns3

#endif /* TTL_CLASSIFIER_H */
