/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef PFC_TYPES_H
#define PFC_TYPES_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <ostream>
#include <string>

/**
 * \file
 * \ingroup tagger
 * Constants and enums shared by the PFC devices, the switch and its MMU.
 */

namespace ns3
{

/// Number of IEEE 802.1Qbb priority classes (and of queues per port).
constexpr uint8_t kPfcClasses = 8;

/// Why a data frame was dropped.  Every drop in the data plane has one.
enum class PfcDropReason : uint8_t
{
    LOSSLESS_OVERFLOW = 0, //!< lossless ingress queue above phi + T(t) + eta (MMU case 4)
    LOSSY_OVERFLOW,        //!< lossy egress queue above its dynamic threshold
    TTL_EXPIRED,           //!< IPv4 TTL reached 0 at a switch
    LINK_DOWN,             //!< in flight on, or queued for, a link that went down
    NO_ROUTE,              //!< no FIB entry (or an empty ECMP set) for the destination
    NOT_IPV4,              //!< a switch received a frame that is neither IPv4 nor PFC
    DEVICE_QUEUE_FULL,     //!< a host device queue was full (no traffic control above it)
    ITSY_RECOVERY,         //!< flushed from a deadlocked queue by ITSY's recovery (break)
    PFC_WATCHDOG,          //!< flushed or dropped by the PFC watchdog (a queue paused too long)
    RX_BUFFER_OVERFLOW,    //!< a host NIC's receive buffer was full (RdmaRxBuffer)
    LINK_ERROR,            //!< lost on the link: the receiving device's ReceiveErrorModel
    COUNT                  //!< number of reasons (not a reason)
};

/// Number of drop reasons.
constexpr uint8_t kPfcDropReasons = static_cast<uint8_t>(PfcDropReason::COUNT);

/**
 * \param reason a drop reason
 * \return its name, e.g. "lossless-overflow"
 */
std::string PfcDropReasonName(PfcDropReason reason);

/**
 * \param os the stream
 * \param reason a drop reason
 * \return os
 */
std::ostream& operator<<(std::ostream& os, PfcDropReason reason);

/// Where the MMU accounted an admitted lossless packet (the PFC buffer background, the four cases).
enum class MmuSegment : uint8_t
{
    PRIVATE = 0, //!< case 1: q < phi
    SHARED,      //!< case 2: phi <= q < phi + T(t)
    HEADROOM,    //!< case 3: phi + T(t) <= q < phi + T(t) + eta
    DROPPED,     //!< case 4: q >= phi + T(t) + eta (not admitted)
    LOSSY        //!< the lossy pool (egress accounting)
};

/**
 * The time \p bytes take on the wire at \p rate, to the nearest nanosecond
 * (with the default 1 ns time resolution): bits / rate in ns-3's 128-bit
 * fixed point, then rounded.  This is the arithmetic of ns-3.37's
 * DataRate::CalculateBytesTxTime; ns-3.35's truncates instead (a 1,082-byte
 * frame at 10 Gbps: 866 ns here, 865 ns there), so every timing of the
 * module's links goes through this function and is the same on every ns-3
 * release.
 * \param rate the link rate (must not be zero)
 * \param bytes the bytes on the wire
 * \return their serialization time
 */
Time PfcTxTime(const DataRate& rate, uint64_t bytes);

/**
 * Report a configuration the model cannot run, found while it is set up
 * (buffers that do not fit their links, a payload above the MTU, ...), and
 * end the program: with NS_FATAL_ERROR, or, once a program has asked for it
 * with SetPfcConfigurationExit (TaggerCommandLine::Parse does), with one line
 * "<program>: <message>" on standard error and exit code 2, the programs' way
 * of refusing bad flags.  The one place such a refusal happens.
 * \param message what cannot run, and why
 */
[[noreturn]] void PfcConfigurationError(const std::string& message);

/**
 * Make PfcConfigurationError print one line and exit with code 2.
 * \param program the program's name, which starts the line
 * \param settings what ends the line (e.g. " (given: --delay=1ms)": the
 *        settings that may have caused the refusal)
 */
void SetPfcConfigurationExit(const std::string& program, const std::string& settings = "");

} // namespace ns3

#endif /* PFC_TYPES_H */
