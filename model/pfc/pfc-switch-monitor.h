/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef PFC_SWITCH_MONITOR_H
#define PFC_SWITCH_MONITOR_H

#include "pfc-header.h"
#include "pfc-types.h"

#include "ns3/object.h"
#include "ns3/packet.h"

/**
 * \file
 * \ingroup tagger
 * What a deadlock detector or recovery policy sees of a PFC switch, and what
 * it may do there.
 */

namespace ns3
{

class PfcSwitchNetDevice;

/**
 * \ingroup tagger
 * A detector or recovery policy attached to one PfcSwitchNetDevice, the way
 * a queue disc attaches to a device: the switch calls these hooks from its
 * pipeline and knows nothing else of the monitor (ItsyDetector, PfcWatchdog
 * and a user's own subclass alike; PfcSwitchNetDevice::AddMonitor).
 *
 * What a monitor observes (every hook does nothing by default):
 * - lossless frames entering and leaving an egress queue, with the ingress
 *   queue they came from (NotifyEnqueue, NotifyDequeue);
 * - the switch's pause decisions: an ingress (port, PAUSE class) is about to
 *   pause its upstream (BeforePause: the monitor may put bytes in the PAUSE
 *   frame's padding, PfcNetDevice::SetPausePadding), has sent that PAUSE
 *   (AfterPause), has resumed it (AfterResume);
 * - PFC frames received, before they take effect (ReceivePfc);
 * - frames of its own EtherType (GetEtherType, ReceiveFrame), which no
 *   other stage sees.
 *
 * What a monitor may do:
 * - drop for recovery: IsDropping() says an egress queue takes no frame
 *   now (the switch drops it at Enqueue, releasing its buffer), and
 *   PfcSwitchNetDevice::FlushForRecovery drops what a queue holds;
 * - hold a class lossy: IsHoldingLossy() suppresses the PAUSE of an ingress
 *   class, IsHoldDrop() makes its overflow a recovery drop rather than a
 *   lossless one, and PfcSwitchNetDevice::ReevaluatePause sends the PAUSE
 *   the hold suppressed once it ends.
 *
 * Every recovery drop has the monitor's reason (GetRecoveryDropReason) and is
 * counted here (GetRecoveryDrops), whichever of the switch's three paths
 * dropped it: the one definition of a recovery drop.
 */
class PfcSwitchMonitor : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    PfcSwitchMonitor();

    /**
     * The switch initialises (its ports are known): size the state and start.
     * \param sw the switch (it owns the monitor)
     */
    virtual void Attach(PfcSwitchNetDevice* sw) = 0;
    /// \return the reason of this monitor's recovery drops
    virtual PfcDropReason GetRecoveryDropReason() const = 0;

    /**
     * A lossless frame entered egress queue (\p outPort, \p outCls) from the
     * ingress queue of \p inPort whose PAUSE class is \p inCls.
     * \param outPort egress port \param outCls egress class
     * \param inPort ingress port \param inCls the PAUSE class of its ingress queue
     */
    virtual void NotifyEnqueue(uint32_t outPort, uint8_t outCls, uint32_t inPort, uint8_t inCls);
    /**
     * Such a frame left its egress queue (sent or dropped).
     * \param outPort egress port \param outCls egress class
     * \param inPort ingress port \param inCls the PAUSE class of its ingress queue
     */
    virtual void NotifyDequeue(uint32_t outPort, uint8_t outCls, uint32_t inPort, uint8_t inCls);
    /**
     * Ingress (\p port, \p cls) is about to pause its upstream: its PAUSE
     * leaves right after this call.
     * \param port ingress port \param cls PAUSE class
     */
    virtual void BeforePause(uint32_t port, uint8_t cls);
    /// That PAUSE left. \param port ingress port \param cls PAUSE class
    virtual void AfterPause(uint32_t port, uint8_t cls);
    /// Ingress (\p port, \p cls) resumed its upstream. \param port port \param cls class
    virtual void AfterResume(uint32_t port, uint8_t cls);
    /// A PFC frame arrived on \p port. \param port port \param pfc its body
    virtual void ReceivePfc(uint32_t port, const PfcHeader& pfc);
    /// \return the EtherType of this monitor's own frames (0: none)
    virtual uint16_t GetEtherType() const;
    /// A frame of GetEtherType() arrived. \param port port \param body Ethernet header removed
    virtual void ReceiveFrame(uint32_t port, Ptr<Packet> body);

    /**
     * \param outPort egress port \param outCls egress class
     * \param lossless the frame is charged to the lossless pool
     * \return whether the queue takes no such frame now (recovery drop)
     */
    virtual bool IsDropping(uint32_t outPort, uint8_t outCls, bool lossless) const;
    /// \param port ingress port \param cls PAUSE class \return it pauses nobody now
    virtual bool IsHoldingLossy(uint32_t port, uint8_t cls) const;
    /**
     * \param port ingress port \param cls PAUSE class
     * \return whether a lossless overflow there now is this monitor's
     *         recovery drop (its hold let the upstream send)
     */
    virtual bool IsHoldDrop(uint32_t port, uint8_t cls) const;

    /// The switch dropped \p n frames for this monitor's recovery. \param n frames
    void CountRecoveryDrops(uint64_t n);
    uint64_t GetRecoveryDrops() const;     //!< \return frames dropped for this monitor's recovery
    PfcSwitchNetDevice* GetSwitch() const; //!< \return the switch (null before Attach)

  protected:
    void DoDispose() override;
    /// Record the switch (subclasses' Attach call it first). \param sw the switch
    void SetSwitch(PfcSwitchNetDevice* sw);

  private:
    PfcSwitchNetDevice* m_sw; //!< the switch (owns this monitor)
    uint64_t m_recoveryDrops; //!< counter
};

} // namespace ns3

#endif /* PFC_SWITCH_MONITOR_H */
