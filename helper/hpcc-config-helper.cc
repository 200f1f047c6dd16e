/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#include "hpcc-config-helper.h"

#include "hpcc-scenario-helper.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/nstime.h"
#include "ns3/pfc-net-device.h"
#include "ns3/pfc-route-helper.h"
#include "ns3/rdma-dcqcn.h"
#include "ns3/rdma-dctcp.h"
#include "ns3/rdma-hpcc.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-timely.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <sys/stat.h>

namespace ns3
{

namespace
{

/// \param path a file \return whether it is a regular file
bool
IsFile(const std::string& path)
{
    struct stat info;
    return stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

/// \param us microseconds, as the family's timers are given \return the Time
Time
Micros(double us)
{
    return NanoSeconds(int64_t(std::llround(us * 1000)));
}

/// \param bps bits/s \return ns-3's text for it ("40Gbps")
std::string
RateText(uint64_t bps)
{
    return tagger::FormatHpccRate(bps);
}

constexpr double kMaxMicros = 1e9;              //!< largest timer (us): 1000 s
constexpr uint64_t kMaxBufferMiB = 1024 * 1024; //!< largest BUFFER_SIZE (MiB): 1 TiB
constexpr uint64_t kMaxThresholdKb = 4294967;   //!< largest KMIN/KMAX (KB): 2^32 bytes
constexpr double kMaxStopSeconds = 1e4;         //!< largest SIMULATOR_STOP_TIME (s), 1e7 ms
constexpr const char* kHpccOnly = "HPCC (CC_MODE 3) only";       //!< note of HPCC's keys
constexpr const char* kPintOnly = "HPCC-PINT (CC_MODE 10) only"; //!< note of PINT's keys

} // namespace

const std::vector<HpccConfigHelper::Key>&
HpccConfigHelper::GetKeyTable()
{
    static const std::vector<Key> table = {
        {"CC_MODE",
         "RdmaNic::CongestionControl",
         "1 DCQCN, 3 HPCC, 7 TIMELY, 8 DCTCP run; 10 (HPCC-PINT) refused with its name"},
        {"ENABLE_QCN", "PfcNetDevice::EcnKmin/EcnKmax", "0: no switch port marks ECN"},
        {"USE_DYNAMIC_PFC_THRESHOLD",
         "SwitchMmu (dynamic threshold)",
         "1: this module's MMU; 0 ignored"},
        {"PACKET_PAYLOAD_SIZE", "RdmaNic::PayloadSize", "bytes"},
        {"TOPOLOGY_FILE", "--topology-file", "config's folder first, then working directory"},
        {"FLOW_FILE", "--flow-file", "config's folder first, then working directory"},
        {"FCT_OUTPUT_FILE", "--fct", "the family's fct.txt columns"},
        {"PFC_OUTPUT_FILE", "--pfc-file", "the family's pfc.txt columns"},
        {"SIMULATOR_STOP_TIME", "--stop-ms", "seconds"},
        {"ALPHA_RESUME_INTERVAL", "RdmaNic::AlphaTimer", "us"},
        {"RATE_DECREASE_INTERVAL", "RdmaNic::RateDecreaseInterval", "us"},
        {"CLAMP_TARGET_RATE", "RdmaNic::ClampTargetRate", "0 or 1"},
        {"RP_TIMER", "RdmaNic::RateIncreaseTimer", "us"},
        {"EWMA_GAIN", "RdmaNic::AlphaG", "g in (0, 1]"},
        {"FAST_RECOVERY_TIMES",
         "RdmaNic::FastRecoverySteps",
         "F + 1: the family tests before counting"},
        {"RATE_AI", "RdmaNic::RateAI", "rate"},
        {"RATE_HAI", "RdmaNic::RateHAI", "rate"},
        {"MIN_RATE", "RdmaNic::MinRate", "rate"},
        {"ERROR_RATE_PER_LINK", "link error rate", "links whose line gives 0"},
        {"L2_CHUNK_SIZE", "RdmaNic::AckInterval", "bytes, with L2_ACK_INTERVAL"},
        {"L2_ACK_INTERVAL", "RdmaNic::AckInterval", "bytes, with L2_CHUNK_SIZE"},
        {"L2_BACK_TO_ZERO", "go-back-N", "0: as this module; 1 ignored"},
        {"HAS_WIN", "RdmaNic::MaxBytesInFlight", "1: the largest host-pair BDP"},
        {"GLOBAL_T", "RdmaNic::MaxBytesInFlight", "with HAS_WIN 1: one window for every flow"},
        {"RATE_BOUND", "rate pacing", "1: as this module; 0 ignored"},
        {"ACK_HIGH_PRIO", "RdmaNic::ControlDscp", "0: ACKs in the data's class; 1 ignored"},
        {"LINK_DOWN", "PfcRouteHelper::ScheduleFailLink", "a b c: link b-c at 2 s + a us"},
        {"KMAX_MAP", "PfcNetDevice::EcnKmax", "per link rate, KB"},
        {"KMIN_MAP", "PfcNetDevice::EcnKmin", "per link rate, KB"},
        {"PMAX_MAP", "PfcNetDevice::EcnPmax", "per link rate, probability"},
        {"BUFFER_SIZE", "SwitchMmu::BufferSize", "MiB (headroom inside it here)"},
        {"DCTCP_RATE_AI", "RdmaDctcp::RateAI", "rate, with CC_MODE 8"},
        {"VAR_WIN", "RdmaHpcc", "1, with CC_MODE 3: HPCC's own window"},
        {"FAST_REACT", "RdmaHpcc", "1, with CC_MODE 3: HPCC here reacts per ACK"},
        {"U_TARGET", "RdmaHpcc::Eta", kHpccOnly},
        {"MI_THRESH", "RdmaHpcc::MaxStage", kHpccOnly},
        {"INT_MULTI", "", "INT units are fixed here (RoceIntHeader)"},
        {"MULTI_RATE", "", "HPCC here takes each hop's own link rate"},
        {"SAMPLE_FEEDBACK", "RdmaHpcc", "0, with CC_MODE 3: INT on every packet"},
        {"PINT_LOG_BASE", "", kPintOnly},
        {"PINT_PROB", "", kPintOnly},
        {"PAUSE_TIME", "", "pause frames carry 0xffff quanta and are refreshed (PfcNetDevice)"},
        {"ENABLE_TRACE", "", "no packet-level trace file"},
        {"TRACE_FILE", "", "no packet-level trace file"},
        {"TRACE_OUTPUT_FILE", "", "no packet-level trace file"},
        {"QLEN_MON_FILE", "", "no queue-length file (PfcSwitchMonitor samples queues)"},
        {"QLEN_MON_START", "", "no queue-length file"},
        {"QLEN_MON_END", "", "no queue-length file"},
    };
    return table;
}

const HpccConfigHelper::Key&
HpccConfigHelper::Row(const std::string& key)
{
    for (const Key& row : GetKeyTable())
    {
        if (row.name == key)
        {
            return row;
        }
    }
    static const Key unknown{"", "", "not a key this module knows"};
    return unknown;
}

HpccConfigHelper::HpccConfigHelper(const std::string& filename)
    : m_config(tagger::HpccConfig::ReadFile(filename))
{
    std::size_t slash = filename.rfind('/');
    m_folder = slash == std::string::npos ? "" : filename.substr(0, slash + 1);
}

const tagger::HpccConfig&
HpccConfigHelper::GetConfig() const
{
    return m_config;
}

std::string
HpccConfigHelper::Where(const std::string& key) const
{
    return m_config.Where(key);
}

std::string
HpccConfigHelper::FindInput(const std::string& key) const
{
    if (!m_config.Has(key))
    {
        return "";
    }
    std::string name = m_config.GetString(key);
    if (name[0] != '/' && !m_folder.empty() && IsFile(m_folder + name))
    {
        return m_folder + name;
    }
    if (IsFile(name))
    {
        return name;
    }
    throw tagger::TaggerError(
        Where(key) + ": '" + name + "' is not a readable file" +
        (name[0] == '/' || m_folder.empty() ? "" : " in " + m_folder + " nor") +
        " in the working directory");
}

std::string
HpccConfigHelper::GetOutput(const std::string& key) const
{
    return m_config.Has(key) ? m_config.GetString(key) : "";
}

std::optional<Time>
HpccConfigHelper::GetStopTime() const
{
    if (!m_config.Has("SIMULATOR_STOP_TIME"))
    {
        return std::nullopt;
    }
    double s = m_config.GetNumber("SIMULATOR_STOP_TIME", 0, kMaxStopSeconds);
    return NanoSeconds(int64_t(std::llround(s * 1e9)));
}

void
HpccConfigHelper::Applied(const std::string& key, const std::string& what)
{
    m_done.emplace_back(key, what);
}

uint32_t
HpccConfigHelper::AckIntervalPackets(uint64_t ackIntervalBytes,
                                     uint64_t chunkBytes,
                                     uint64_t payloadBytes)
{
    uint64_t byMilestone =
        ackIntervalBytes <= payloadBytes ? 1 : (ackIntervalBytes + payloadBytes - 1) / payloadBytes;
    uint64_t byChunk = chunkBytes == 0 ? std::numeric_limits<uint64_t>::max()
                                       : std::max<uint64_t>(1, chunkBytes / payloadBytes);
    uint64_t packets = std::min(byMilestone, byChunk);
    return uint32_t(std::min<uint64_t>(packets, std::numeric_limits<uint32_t>::max()));
}

namespace
{
/**
 * \param topology the topology \param payloadBytes PACKET_PAYLOAD_SIZE
 * \param fn called with the path of every ordered pair of connected hosts
 */
void
ForEachHostPair(const tagger::HpccTopology& topology,
                uint64_t payloadBytes,
                const std::function<void(const tagger::HpccPairPath&)>& fn)
{
    const tagger::Topology& topo = topology.topo;
    for (tagger::NodeId src : topo.GetHosts())
    {
        std::vector<tagger::HpccPairPath> paths =
            tagger::HpccPathsFrom(topology, src, payloadBytes);
        for (tagger::NodeId dst : topo.GetHosts())
        {
            if (dst != src && paths[dst].reached)
            {
                fn(paths[dst]);
            }
        }
    }
}
} // namespace

uint64_t
HpccConfigHelper::MaxBdpBytes(const tagger::HpccTopology& topology, uint64_t payloadBytes)
{
    uint64_t best = 0;
    ForEachHostPair(topology, payloadBytes, [&best](const tagger::HpccPairPath& p) {
        // As they compute it: rtt (ns) x rate / 1e9 / 8, in whole bytes.
        best =
            std::max(best, uint64_t((__uint128_t(p.GetRttNs()) * p.bottleneckBps) / 8000000000ULL));
    });
    return best;
}

uint64_t
HpccConfigHelper::MaxRttNs(const tagger::HpccTopology& topology, uint64_t payloadBytes)
{
    uint64_t best = 0;
    ForEachHostPair(topology, payloadBytes, [&best](const tagger::HpccPairPath& p) {
        best = std::max<uint64_t>(best, p.GetRttNs());
    });
    return best;
}

void
HpccConfigHelper::SetHpccDefaults(const tagger::HpccTopology& topology)
{
    const tagger::HpccConfig& c = m_config;
    // INT on every switch; T the largest host-pair round trip, as the family's GLOBAL_T
    Config::SetDefault("ns3::PfcSwitchNetDevice::Int", BooleanValue(true));
    const uint64_t payload =
        c.Has("PACKET_PAYLOAD_SIZE") ? c.GetUnsigned("PACKET_PAYLOAD_SIZE", 1, 9000) : 1000;
    const uint64_t rtt = MaxRttNs(topology, payload);
    if (rtt > 0)
    {
        Config::SetDefault("ns3::RdmaHpcc::BaseRtt", TimeValue(NanoSeconds(int64_t(rtt))));
    }
    Applied("CC_MODE",
            "ns3::PfcSwitchNetDevice::Int=true, ns3::RdmaHpcc::BaseRtt=" + std::to_string(rtt) +
                "ns (the largest host-pair round trip)");
    if (c.Has("U_TARGET"))
    {
        double eta = c.GetNumber("U_TARGET", 0.01, 1);
        Config::SetDefault("ns3::RdmaHpcc::Eta", DoubleValue(eta));
        Applied("U_TARGET", "ns3::RdmaHpcc::Eta=" + std::to_string(eta));
    }
    if (c.Has("MI_THRESH"))
    {
        uint64_t stage = c.GetUnsigned("MI_THRESH", 0, 1000000);
        Config::SetDefault("ns3::RdmaHpcc::MaxStage", UintegerValue(stage));
        Applied("MI_THRESH", "ns3::RdmaHpcc::MaxStage=" + std::to_string(stage));
    }
    if (c.Has("RATE_AI"))
    {
        uint64_t bps = c.GetRate("RATE_AI");
        Config::SetDefault("ns3::RdmaHpcc::RateAI", DataRateValue(DataRate(bps)));
        Applied("RATE_AI", "ns3::RdmaHpcc::RateAI=" + RateText(bps));
    }
    const std::pair<const char*, uint64_t> asHere[] = {{"VAR_WIN", 1},
                                                       {"FAST_REACT", 1},
                                                       {"SAMPLE_FEEDBACK", 0}};
    for (const auto& [key, value] : asHere)
    {
        if (c.Has(key) && c.GetUnsigned(key, 0, 1) == value)
        {
            Applied(key, std::string("as HPCC runs here (") + Row(key).note + ")");
        }
    }
}

void
HpccConfigHelper::CheckEcnMaps(const tagger::HpccTopology& topology) const
{
    for (const char* key : {"KMIN_MAP", "KMAX_MAP", "PMAX_MAP"})
    {
        if (!m_config.Has(key))
        {
            continue;
        }
        double most = std::string(key) == "PMAX_MAP" ? 1 : double(kMaxThresholdKb);
        std::vector<std::pair<uint64_t, double>> map = m_config.GetRateMap(key, 0, most);
        const std::vector<tagger::TopoLink>& links = topology.topo.GetLinks();
        for (uint32_t i = 0; i < links.size(); ++i)
        {
            bool switchEnd =
                topology.topo.GetNode(links[i].a.node).kind == tagger::NodeKind::SWITCH ||
                topology.topo.GetNode(links[i].b.node).kind == tagger::NodeKind::SWITCH;
            uint64_t rate = topology.links[i].rateBps;
            bool found = std::any_of(map.begin(), map.end(), [rate](const auto& e) {
                return e.first == rate;
            });
            if (switchEnd && !found)
            {
                throw tagger::TaggerError(Where(key) + ": no value for " + RateText(rate) +
                                          ", the rate of link " + std::to_string(i + 1) +
                                          " of the topology (the family's simulators would "
                                          "use 0 there)");
            }
        }
    }
}

void
HpccConfigHelper::SetDefaults(const tagger::HpccTopology& topology)
{
    const tagger::HpccConfig& c = m_config;
    uint64_t cc = c.Has("CC_MODE") ? c.GetUnsigned("CC_MODE", 0, 1000) : 1;
    if (cc != 1 && cc != 3 && cc != 7 && cc != 8)
    {
        std::string name = tagger::GetHpccCcModeName(cc);
        throw tagger::TaggerError(
            Where("CC_MODE") + ": " +
            (name.empty()
                 ? std::to_string(cc) + " is not a congestion control of the HPCC family (1 DCQCN, "
                                        "3 HPCC, 7 TIMELY, 8 DCTCP, 10 HPCC-PINT)"
                 : std::to_string(cc) + " (" + name +
                       ") is not implemented by this module, whose NICs run DCQCN (CC_MODE 1), "
                       "HPCC (3), TIMELY (7) and DCTCP (8)"));
    }
    const TypeId type = cc == 8   ? RdmaDctcp::GetTypeId()
                        : cc == 7 ? RdmaTimely::GetTypeId()
                        : cc == 3 ? RdmaHpcc::GetTypeId()
                                  : RdmaDcqcn::GetTypeId();
    Config::SetDefault("ns3::RdmaNic::CongestionControl", TypeIdValue(type));
    Config::SetDefault("ns3::RdmaNic::Dcqcn", BooleanValue(true));
    Config::SetDefault("ns3::RdmaNic::ByteCounter", UintegerValue(0)); // the family has none
    if (c.Has("CC_MODE"))
    {
        Applied("CC_MODE",
                "ns3::RdmaNic::CongestionControl=" + type.GetName() +
                    (cc == 1   ? ", ByteCounter=0 (the family's DCQCN has no byte counter)"
                     : cc == 8 ? ", ns3::RdmaDctcp::RateBased=true (the family's DCTCP acts "
                                 "on the rate)"
                               : ""));
    }
    if (cc == 3)
    {
        SetHpccDefaults(topology);
    }
    if (c.Has("RATE_AI") && cc == 7)
    {
        // the family's TIMELY adds RATE_AI per increase (TIMELY's delta)
        uint64_t bps = c.GetRate("RATE_AI");
        Config::SetDefault("ns3::RdmaTimely::Delta", DataRateValue(DataRate(bps)));
        Applied("RATE_AI", "ns3::RdmaTimely::Delta=" + RateText(bps));
    }
    if (cc == 8)
    {
        // the family's DCTCP mode acts on the rate (its window, HAS_WIN, stays fixed)
        Config::SetDefault("ns3::RdmaDctcp::RateBased", BooleanValue(true));
    }
    if (c.Has("DCTCP_RATE_AI") && cc == 8)
    {
        uint64_t bps = c.GetRate("DCTCP_RATE_AI");
        Config::SetDefault("ns3::RdmaDctcp::RateAI", DataRateValue(DataRate(bps)));
        Applied("DCTCP_RATE_AI", "ns3::RdmaDctcp::RateAI=" + RateText(bps));
    }
    if (c.Has("ENABLE_QCN"))
    {
        m_ecn = c.GetUnsigned("ENABLE_QCN", 0, 1) == 1;
        Applied("ENABLE_QCN", m_ecn ? "switch ports mark ECN" : "no switch port marks ECN");
    }
    if (c.Has("USE_DYNAMIC_PFC_THRESHOLD") && c.GetUnsigned("USE_DYNAMIC_PFC_THRESHOLD", 0, 1))
    {
        Applied("USE_DYNAMIC_PFC_THRESHOLD", "ns3::SwitchMmu's dynamic threshold (Alpha)");
    }
    uint64_t payload = 1000;
    if (c.Has("PACKET_PAYLOAD_SIZE"))
    {
        payload = c.GetUnsigned("PACKET_PAYLOAD_SIZE", 1, 9000);
        Config::SetDefault("ns3::RdmaNic::PayloadSize", UintegerValue(payload));
        Applied("PACKET_PAYLOAD_SIZE", "ns3::RdmaNic::PayloadSize=" + std::to_string(payload));
    }

    struct Timer
    {
        const char* key;
        const char* attribute;
    };

    for (const Timer& t : {Timer{"ALPHA_RESUME_INTERVAL", "AlphaTimer"},
                           Timer{"RATE_DECREASE_INTERVAL", "RateDecreaseInterval"},
                           Timer{"RP_TIMER", "RateIncreaseTimer"}})
    {
        if (c.Has(t.key))
        {
            Time value = Micros(c.GetNumber(t.key, 0.001, kMaxMicros));
            Config::SetDefault(std::string("ns3::RdmaNic::") + t.attribute, TimeValue(value));
            Applied(t.key,
                    std::string("ns3::RdmaNic::") + t.attribute + "=" +
                        std::to_string(value.GetNanoSeconds()) + "ns");
        }
    }
    if (c.Has("CLAMP_TARGET_RATE"))
    {
        bool clamp = c.GetUnsigned("CLAMP_TARGET_RATE", 0, 1) == 1;
        Config::SetDefault("ns3::RdmaNic::ClampTargetRate", BooleanValue(clamp));
        Applied("CLAMP_TARGET_RATE",
                std::string("ns3::RdmaNic::ClampTargetRate=") + (clamp ? "true" : "false"));
    }
    if (c.Has("EWMA_GAIN"))
    {
        double g = c.GetNumber("EWMA_GAIN", 1e-9, 1);
        Config::SetDefault("ns3::RdmaNic::AlphaG", DoubleValue(g));
        Applied("EWMA_GAIN", "ns3::RdmaNic::AlphaG=" + c.GetString("EWMA_GAIN"));
    }
    if (c.Has("FAST_RECOVERY_TIMES"))
    {
        uint64_t f = c.GetUnsigned("FAST_RECOVERY_TIMES", 0, 1000000);
        Config::SetDefault("ns3::RdmaNic::FastRecoverySteps", UintegerValue(f + 1));
        Applied("FAST_RECOVERY_TIMES", "ns3::RdmaNic::FastRecoverySteps=" + std::to_string(f + 1));
    }
    for (const Timer& r :
         {Timer{"RATE_AI", "RateAI"}, Timer{"RATE_HAI", "RateHAI"}, Timer{"MIN_RATE", "MinRate"}})
    {
        if (c.Has(r.key))
        {
            uint64_t bps = c.GetRate(r.key);
            Config::SetDefault(std::string("ns3::RdmaNic::") + r.attribute,
                               DataRateValue(DataRate(bps)));
            Applied(r.key, std::string("ns3::RdmaNic::") + r.attribute + "=" + RateText(bps));
        }
    }
    if (c.Has("ERROR_RATE_PER_LINK"))
    {
        double e = c.GetNumber("ERROR_RATE_PER_LINK", 0, 1);
        Applied("ERROR_RATE_PER_LINK",
                "error rate " + c.GetString("ERROR_RATE_PER_LINK") +
                    " on links whose line gives 0" + (e == 0 ? " (none)" : ""));
    }
    if (c.Has("L2_ACK_INTERVAL") || c.Has("L2_CHUNK_SIZE"))
    {
        uint64_t interval = c.Has("L2_ACK_INTERVAL")
                                ? c.GetUnsigned("L2_ACK_INTERVAL", 0, uint64_t(1) << 40)
                                : std::numeric_limits<uint64_t>::max();
        uint64_t chunk = c.Has("L2_CHUNK_SIZE") ? c.GetUnsigned("L2_CHUNK_SIZE", 0, 1u << 30) : 0;
        uint32_t packets = AckIntervalPackets(interval, chunk, payload);
        Config::SetDefault("ns3::RdmaNic::AckInterval", UintegerValue(packets));
        for (const char* key : {"L2_ACK_INTERVAL", "L2_CHUNK_SIZE"})
        {
            if (c.Has(key))
            {
                Applied(key, "ns3::RdmaNic::AckInterval=" + std::to_string(packets) + " packets");
            }
        }
    }
    if (c.Has("L2_BACK_TO_ZERO") && c.GetUnsigned("L2_BACK_TO_ZERO", 0, 1) == 0)
    {
        Applied("L2_BACK_TO_ZERO", "go-back-N from the PSN a NAK names (this module's)");
    }
    bool window = c.Has("HAS_WIN") && c.GetUnsigned("HAS_WIN", 0, 1) == 1;
    if (c.Has("HAS_WIN"))
    {
        uint64_t bdp = window ? MaxBdpBytes(topology, payload) : 0;
        Config::SetDefault("ns3::RdmaNic::MaxBytesInFlight", UintegerValue(bdp));
        Applied("HAS_WIN",
                "ns3::RdmaNic::MaxBytesInFlight=" + std::to_string(bdp) +
                    (window ? " (the largest host-pair BDP)" : " (no window)"));
    }
    if (window && c.Has("GLOBAL_T") && c.GetUnsigned("GLOBAL_T", 0, 1) == 1)
    {
        Applied("GLOBAL_T", "one window for every flow (HAS_WIN)");
    }
    if (c.Has("RATE_BOUND") && c.GetUnsigned("RATE_BOUND", 0, 1) == 1)
    {
        Applied("RATE_BOUND", "NICs pace each flow at its rate (this module's)");
    }
    if (c.Has("ACK_HIGH_PRIO") && c.GetUnsigned("ACK_HIGH_PRIO", 0, 1) == 0)
    {
        Applied("ACK_HIGH_PRIO", "ns3::RdmaNic::ControlDscp=64 (ACKs in the data's class)");
    }
    if (c.Has("LINK_DOWN"))
    {
        std::vector<uint64_t> v = c.GetUnsignedList("LINK_DOWN", 3);
        if (v[0] != 0 || v[1] != 0 || v[2] != 0)
        {
            uint32_t n = topology.topo.GetNNodes();
            if (v[1] >= n || v[2] >= n ||
                topology.topo.GetPortTo(tagger::NodeId(v[1]), tagger::NodeId(v[2])) ==
                    tagger::kNone)
            {
                throw tagger::TaggerError(Where("LINK_DOWN") + ": nodes " + std::to_string(v[1]) +
                                          " and " + std::to_string(v[2]) +
                                          " are not linked in the topology");
            }
            m_linkDown = std::array<uint64_t, 3>{v[0], v[1], v[2]};
            Applied("LINK_DOWN",
                    "link " + std::to_string(v[1]) + "-" + std::to_string(v[2]) +
                        " fails at 2 s + " + std::to_string(v[0]) + " us");
        }
        else
        {
            Applied("LINK_DOWN", "no link fails");
        }
    }
    CheckEcnMaps(topology);
    for (const char* key : {"KMIN_MAP", "KMAX_MAP", "PMAX_MAP"})
    {
        if (c.Has(key))
        {
            Applied(key, std::string("switch ports' ") + Row(key).applied + " by link rate");
        }
    }
    if (c.Has("BUFFER_SIZE"))
    {
        uint64_t mib = c.GetUnsigned("BUFFER_SIZE", 1, kMaxBufferMiB);
        Config::SetDefault("ns3::SwitchMmu::BufferSize", UintegerValue(mib * 1024 * 1024));
        Applied("BUFFER_SIZE", "ns3::SwitchMmu::BufferSize=" + std::to_string(mib * 1024 * 1024));
    }
    for (const char* key : {"TOPOLOGY_FILE", "FLOW_FILE"})
    {
        if (c.Has(key))
        {
            Applied(key, FindInput(key));
        }
    }
    for (const char* key : {"FCT_OUTPUT_FILE", "PFC_OUTPUT_FILE"})
    {
        if (c.Has(key))
        {
            Applied(key, GetOutput(key));
        }
    }
    if (std::optional<Time> stop = GetStopTime())
    {
        Applied("SIMULATOR_STOP_TIME", "stop at " + std::to_string(stop->GetSeconds()) + " s");
    }
}

void
HpccConfigHelper::ApplyErrorRate(tagger::HpccTopology& topology) const
{
    if (!m_config.Has("ERROR_RATE_PER_LINK"))
    {
        return;
    }
    double e = m_config.GetNumber("ERROR_RATE_PER_LINK", 0, 1);
    for (tagger::HpccLink& link : topology.links)
    {
        if (link.errorRate == 0)
        {
            link.errorRate = e;
        }
    }
}

void
HpccConfigHelper::Configure(HpccScenarioHelper& scenario) const
{
    PfcTopologyHelper& net = scenario.GetNetwork();
    const tagger::Topology& topo = net.GetTopology();
    std::map<std::string, std::vector<std::pair<uint64_t, double>>> maps;
    for (const char* key : {"KMIN_MAP", "KMAX_MAP", "PMAX_MAP"})
    {
        if (m_config.Has(key))
        {
            double most = std::string(key) == "PMAX_MAP" ? 1 : double(kMaxThresholdKb);
            maps[key] = m_config.GetRateMap(key, 0, most);
        }
    }
    auto lookup = [&maps](const std::string& key, uint64_t rate, double& value) {
        auto it = maps.find(key);
        if (it == maps.end())
        {
            return false;
        }
        for (const auto& [r, v] : it->second)
        {
            if (r == rate)
            {
                value = v;
                return true;
            }
        }
        return false;
    };
    for (tagger::NodeId v = 0; v < topo.GetNNodes(); ++v)
    {
        if (topo.GetNode(v).kind != tagger::NodeKind::SWITCH)
        {
            continue;
        }
        for (tagger::PortNo p = 0; p < topo.GetNode(v).ports; ++p)
        {
            Ptr<PfcNetDevice> dev = net.GetDevice(v, p);
            if (!dev)
            {
                continue;
            }
            if (!m_ecn)
            {
                dev->SetAttribute("EcnKmin", UintegerValue(std::numeric_limits<uint32_t>::max()));
                dev->SetAttribute("EcnKmax", UintegerValue(std::numeric_limits<uint32_t>::max()));
                continue;
            }
            uint64_t rate = dev->GetDataRate().GetBitRate();
            double value = 0;
            if (lookup("KMIN_MAP", rate, value))
            {
                dev->SetAttribute("EcnKmin", UintegerValue(uint32_t(std::llround(value * 1000))));
            }
            if (lookup("KMAX_MAP", rate, value))
            {
                dev->SetAttribute("EcnKmax", UintegerValue(uint32_t(std::llround(value * 1000))));
            }
            if (lookup("PMAX_MAP", rate, value))
            {
                dev->SetAttribute("EcnPmax", DoubleValue(value));
            }
        }
    }
    if (m_linkDown)
    {
        const std::array<uint64_t, 3>& d = *m_linkDown;
        net.GetRouteHelper().ScheduleFailLink(Seconds(2) + MicroSeconds(int64_t(d[0])),
                                              topo.GetNode(tagger::NodeId(d[1])).name,
                                              topo.GetNode(tagger::NodeId(d[2])).name);
    }
}

std::vector<std::string>
HpccConfigHelper::GetIgnored() const
{
    std::vector<std::string> ignored;
    for (const tagger::HpccConfigLine& line : m_config.GetLines())
    {
        bool done = std::any_of(m_done.begin(), m_done.end(), [&line](const auto& d) {
            return d.first == line.key;
        });
        if (!done)
        {
            ignored.push_back(line.key);
        }
    }
    return ignored;
}

void
HpccConfigHelper::Print(std::ostream& os) const
{
    const std::string& source = m_config.GetSource();
    for (const auto& [key, what] : m_done)
    {
        os << source << ": " << key << " -> " << what << "\n";
    }
    std::vector<std::string> ignored = GetIgnored();
    if (ignored.empty())
    {
        return;
    }
    os << source << ": ignored (no meaning here):";
    for (const std::string& key : ignored)
    {
        os << " " << key << " (" << Row(key).note << ");";
    }
    os << "\n";
}

} // namespace ns3
