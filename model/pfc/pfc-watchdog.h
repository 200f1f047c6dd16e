/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef PFC_WATCHDOG_H
#define PFC_WATCHDOG_H

#include "pfc-header.h"
#include "pfc-switch-monitor.h"
#include "pfc-types.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <vector>

/**
 * \file
 * \ingroup tagger
 * The PFC watchdog operators run today (switch vendors, SONiC "pfcwd").
 */

namespace ns3
{

class PfcSwitchNetDevice;

/**
 * \ingroup tagger
 * A PFC watchdog of one PfcSwitchNetDevice, a PfcSwitchMonitor (attribute
 * PfcSwitchNetDevice::Watchdog, null by default, or AddMonitor): every PollInterval it
 * looks at each lossless egress queue; one that has been paused by its peer
 * for DetectionTime or more and still holds frames is in a *PFC storm*.
 * Action Drop: its lossless frames are flushed and the frames that arrive
 * for it are dropped (reason pfc-watchdog), while PAUSE is still obeyed.
 * Action Forward: the port ignores its peer's PAUSE for that class (frames
 * go out; the peer may drop them).  Restoration: once no PAUSE has arrived
 * for the class for RestorationTime, the queue is normal again.  A storm
 * that comes back after a restoration counts again (GetStorms).
 *
 * The watchdog knows nothing of loops: it acts on every queue paused too
 * long, deadlocked or merely slow, which is what the comparison with ITSY
 * shows (collateral drops, recurrences).
 */
class PfcWatchdog : public PfcSwitchMonitor
{
  public:
    /// What a storm does.
    enum Action
    {
        ACTION_DROP,   //!< flush and drop the queue's frames
        ACTION_FORWARD //!< ignore the peer's PAUSE
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    PfcWatchdog();

    /// Size the state and start polling (the switch calls it). \param sw the switch
    void Attach(PfcSwitchNetDevice* sw) override;
    PfcDropReason GetRecoveryDropReason() const override; //!< \return pfc-watchdog
    /// A PFC frame arrived on \p port. \param port port \param pfc the body
    void ReceivePfc(uint32_t port, const PfcHeader& pfc) override;
    /// \param port egress port \param cls class \param lossless lossless frame (any is dropped)
    /// \return frames for it are dropped now
    bool IsDropping(uint32_t port, uint8_t cls, bool lossless) const override;

    uint64_t GetStorms() const;       //!< \return storms detected
    uint64_t GetRestorations() const; //!< \return queues restored
    uint64_t GetDrops() const;  //!< \return frames dropped (flushed or arriving): GetRecoveryDrops
    Time GetFirstStorm() const; //!< \return when the first storm was detected (0: none)

    /// TracedCallback signature for Storm: (port, class, detected (else restored)).
    typedef void (*StormTracedCallback)(uint32_t port, uint8_t cls, bool detected);

  protected:
    void DoDispose() override;

  private:
    /// One poll of every queue.
    void Poll();
    /// \param port port \param cls class: a storm is detected
    void Detect(uint32_t port, uint8_t cls);
    /// \param port port \param cls class: restored
    void Restore(uint32_t port, uint8_t cls);

    Time m_poll;        //!< PollInterval
    Time m_detection;   //!< DetectionTime
    Time m_restoration; //!< RestorationTime
    Action m_action;    //!< Action

    PfcSwitchNetDevice* m_sw;       //!< the switch
    std::vector<uint8_t> m_stormed; //!< per (port, class): in storm
    std::vector<Time> m_lastPause;  //!< per (port, class): last PAUSE received
    EventId m_event;                //!< next poll
    uint64_t m_storms;              //!< counter
    uint64_t m_restorations;        //!< counter
    Time m_firstStorm;              //!< first detection
    TracedCallback<uint32_t, uint8_t, bool> m_stormTrace; //!< Storm
};

} // namespace ns3

#endif /* PFC_WATCHDOG_H */
