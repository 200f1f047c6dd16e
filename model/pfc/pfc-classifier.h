/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef PFC_CLASSIFIER_H
#define PFC_CLASSIFIER_H

#include "pfc-types.h"

#include "ns3/ipv4-header.h"
#include "ns3/object.h"

#include <array>

/**
 * \file
 * \ingroup tagger
 * The priority policy of a PfcSwitchNetDevice.
 */

namespace ns3
{

/**
 * \ingroup tagger
 * What a classifier sees of a packet crossing a switch.
 */
struct PfcPacketContext
{
    uint32_t inPort;    //!< ingress port index
    uint32_t outPort;   //!< egress port index (set before Rewrite)
    Ipv4Header* ip;     //!< the IPv4 header; Rewrite may change it (DSCP, TTL)
    bool hasVlan;       //!< the frame carried an 802.1Q tag
    uint8_t pcp;        //!< its PCP (valid when hasVlan)
    uint8_t frameClass; //!< the class the frame carried (PCP or DSCP map, per the port)
};

/**
 * \ingroup tagger
 * The switch's priority policy.  One small interface, so that plain PFC
 * (DSCP/PCP map), Tagger rules and TTL priorities are interchangeable.
 */
class PfcClassifier : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * Called for transit packets only (a packet the node originates has no
     * ingress queue).
     * \param ctx the packet (outPort not yet known)
     * \return the ingress queue (class) the MMU accounts the packet to
     */
    virtual uint8_t GetIngressQueue(const PfcPacketContext& ctx) const = 0;

    /**
     * Called once the egress port is known (and, for a lossless ingress
     * queue, after the MMU admitted the packet; a lossy packet is admitted
     * to the lossy pool afterwards, on the egress queue returned here): may
     * rewrite ctx.ip (DSCP, TTL) and returns the egress queue (class), which
     * the next hop reads from the rewritten header.  A transit packet's TTL
     * is decremented by then; a packet the node originates (ctx.inPort
     * kPfcNoPort) keeps its TTL.
     * \param ctx the packet
     * \return the egress queue
     */
    virtual uint8_t Rewrite(PfcPacketContext& ctx) = 0;

    /**
     * Several ingress queues may name one class; the switch then pauses it
     * while any of them is OFF.
     * \param ingressQueue an ingress queue that turned OFF or ON
     * \return the class the PAUSE/RESUME frame names upstream
     */
    virtual uint8_t GetPauseClass(uint8_t ingressQueue) const;
};

/**
 * \ingroup tagger
 * Plain PFC: the class the frame carries (802.1Q PCP, or the DSCP mapped by
 * the port) is both the ingress and the egress queue; nothing is rewritten.
 */
class DscpPfcClassifier : public PfcClassifier
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    uint8_t GetIngressQueue(const PfcPacketContext& ctx) const override;
    uint8_t Rewrite(PfcPacketContext& ctx) override;
};

} // namespace ns3

#endif /* PFC_CLASSIFIER_H */
