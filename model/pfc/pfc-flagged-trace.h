/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef PFC_FLAGGED_TRACE_H
#define PFC_FLAGGED_TRACE_H

#include "ns3/traced-callback.h"

#include <cstdint>
#include <string>

/**
 * \file
 * \ingroup tagger
 * A TracedCallback that keeps a bit of its owner set while it has sinks
 * (PfcFlaggedTrace).
 */

namespace ns3
{

/**
 * \ingroup tagger
 * A TracedCallback that keeps one bit of a byte of its owner set while at
 * least one sink is connected, so the owner can test whether to fire it
 * without reading the trace itself.
 *
 * PfcNetDevice fires seven trace sources per frame.  Testing each one's
 * emptiness reads its sink list, and the seven lists take three cache lines
 * of the device; in a large network the lines are cold by the time the next
 * frame comes, so the tests alone cost several memory reads per frame.  With
 * this class the device tests one byte that sits with the rest of its
 * per-frame state.
 *
 * The connect and disconnect methods hide TracedCallback's (they are not
 * virtual): ns-3's trace source accessors (MakeTraceSourceAccessor, used by
 * TraceConnect, TraceConnectWithoutContext and Config::Connect) call them on
 * the member's own type, so every connection made through ns-3's trace
 * system updates the bit.  A connection made through a reference to the
 * TracedCallback base would not; nothing does that.
 */
template <typename... Ts>
class PfcFlaggedTrace : public TracedCallback<Ts...>
{
  public:
    /**
     * Tie this trace to a bit of its owner's byte (set now if it has sinks).
     * \param flags the owner's byte (it outlives this trace: same object)
     * \param bit the bit (a mask with one bit set)
     */
    void BindFlag(uint8_t* flags, uint8_t bit)
    {
        m_flags = flags;
        m_bit = bit;
        Update();
    }

    /// \param callback the sink (see TracedCallback)
    void ConnectWithoutContext(const CallbackBase& callback)
    {
        TracedCallback<Ts...>::ConnectWithoutContext(callback);
        Update();
    }

    /// \param callback the sink \param path its context (see TracedCallback)
    void Connect(const CallbackBase& callback, std::string path)
    {
        TracedCallback<Ts...>::Connect(callback, path);
        Update();
    }

    /// \param callback the sink (see TracedCallback)
    void DisconnectWithoutContext(const CallbackBase& callback)
    {
        TracedCallback<Ts...>::DisconnectWithoutContext(callback);
        Update();
    }

    /// \param callback the sink \param path its context (see TracedCallback)
    void Disconnect(const CallbackBase& callback, std::string path)
    {
        TracedCallback<Ts...>::Disconnect(callback, path);
        Update();
    }

  private:
    /// Set or clear the owner's bit from whether a sink is connected.
    void Update()
    {
        if (m_flags)
        {
            *m_flags = this->IsEmpty() ? uint8_t(*m_flags & ~m_bit) : uint8_t(*m_flags | m_bit);
        }
    }

    uint8_t* m_flags{nullptr}; //!< the owner's byte, or none yet
    uint8_t m_bit{0};          //!< this trace's bit in it
};

} // namespace ns3

#endif /* PFC_FLAGGED_TRACE_H */
