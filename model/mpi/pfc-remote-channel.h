/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3), built only with ns-3's mpi module.
 */

#ifndef PFC_REMOTE_CHANNEL_H
#define PFC_REMOTE_CHANNEL_H

#include "ns3/pfc-channel.h"

/**
 * \file
 * \ingroup tagger
 * A PfcChannel whose two ends are simulated by different MPI ranks.
 */

namespace ns3
{

/**
 * \ingroup tagger
 * The PFC cable between two nodes of different MPI ranks (as
 * PointToPointRemoteChannel is for point-to-point): a frame sent from the
 * local end is handed to ns-3's MpiInterface, which delivers it on the
 * peer's rank at Now + txTime + Delay, the instant a PfcChannel would
 * deliver it.  PFC PAUSE frames are frames like any other, so nothing
 * crosses ranks outside packets.  Each rank builds the whole network and
 * holds both ends; only the end of its own rank ever transmits (a
 * transmission by the other end is a model error: NS_FATAL_ERROR).
 *
 * Link failures: every rank runs the same SetLinkUp calls at the same
 * simulated times (helpers schedule them on all ranks), so the link
 * epoch is the same on both sides.  A frame carries the epoch it was sent
 * in (a packet tag, serialised with it); the receiving rank drops it as
 * lost in flight when the link went down since, and counts the loss on its
 * copy of the sending device (counters summed over ranks are right; a
 * trace sink of the sending device on the sending rank does not see it).
 *
 * The smallest Delay of the remote channels of a rank is the lookahead of
 * ns-3's distributed simulators: it must be positive.
 */
class PfcRemoteChannel : public PfcChannel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    PfcRemoteChannel();

    /**
     * Attach a device and give it the MpiReceiver through which frames from
     * the other rank arrive.
     * \param device the device
     */
    void Attach(Ptr<PfcNetDevice> device) override;

    /**
     * Hand a frame from the local end to the MPI interface, for the other rank.
     * \param frame the frame \param src the sending (local) device \param txTime serialisation
     * \return false when the link is down (nothing sent)
     */
    bool TransmitStart(const Ptr<Packet>& frame,
                       const Ptr<PfcNetDevice>& src,
                       Time txTime) override;

    /// \return frames this rank handed to MPI on this link (both directions)
    uint64_t GetFramesSent() const;

  protected:
    /// \return false: frames go through TransmitStart, to MPI
    bool SendsDirectly() const override;

  private:
    /// A frame for end \p to arrived from the other rank.
    /// \param to the receiving end \param frame the frame (epoch tag on)
    void ReceiveFromRank(uint8_t to, Ptr<Packet> frame);
    void ReceiveAtEnd0(Ptr<Packet> frame); //!< \param frame arrived for end 0
    void ReceiveAtEnd1(Ptr<Packet> frame); //!< \param frame arrived for end 1

    uint64_t m_sent = 0; //!< frames handed to MPI
};

} // namespace ns3

#endif /* PFC_REMOTE_CHANNEL_H */
