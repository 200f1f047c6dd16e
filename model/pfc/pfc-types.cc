/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-types.h"

#include "ns3/fatal-error.h"
#include "ns3/tagger-topology.h"

#include <cstdlib>
#include <iostream>

namespace ns3
{

namespace
{
/// How PfcConfigurationError ends the program (program "": NS_FATAL_ERROR).
struct ConfigurationExit
{
    std::string program;  //!< the line's start
    std::string settings; //!< the line's end
};

/// \return the process's ConfigurationExit
ConfigurationExit&
GetConfigurationExit()
{
    static ConfigurationExit exit;
    return exit;
}
} // namespace

void
PfcConfigurationError(const std::string& message)
{
    const ConfigurationExit& how = GetConfigurationExit();
    if (how.program.empty())
    {
        NS_FATAL_ERROR(message);
    }
    std::cerr << how.program << ": " << tagger::PrintableText(message + how.settings) << std::endl;
    std::exit(2);
}

void
SetPfcConfigurationExit(const std::string& program, const std::string& settings)
{
    GetConfigurationExit() = {program, settings};
}

std::string
PfcDropReasonName(PfcDropReason reason)
{
    switch (reason)
    {
    case PfcDropReason::LOSSLESS_OVERFLOW:
        return "lossless-overflow";
    case PfcDropReason::LOSSY_OVERFLOW:
        return "lossy-overflow";
    case PfcDropReason::TTL_EXPIRED:
        return "ttl-expired";
    case PfcDropReason::LINK_DOWN:
        return "link-down";
    case PfcDropReason::NO_ROUTE:
        return "no-route";
    case PfcDropReason::NOT_IPV4:
        return "not-ipv4";
    case PfcDropReason::DEVICE_QUEUE_FULL:
        return "device-queue-full";
    case PfcDropReason::ITSY_RECOVERY:
        return "itsy-recovery";
    case PfcDropReason::PFC_WATCHDOG:
        return "pfc-watchdog";
    case PfcDropReason::RX_BUFFER_OVERFLOW:
        return "rx-buffer-overflow";
    case PfcDropReason::LINK_ERROR:
        return "link-error";
    case PfcDropReason::COUNT:
        break;
    }
    return "unknown";
}

std::ostream&
operator<<(std::ostream& os, PfcDropReason reason)
{
    return os << PfcDropReasonName(reason);
}

Time
PfcTxTime(const DataRate& rate, uint64_t bytes)
{
    return Seconds(int64x64_t(bytes * 8) / int64x64_t(rate.GetBitRate()));
}

} // namespace ns3
