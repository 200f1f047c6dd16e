/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger helpers (ns-3).
 */

#include "tagger-mpi-helper.h"

#include "pfc-topology-helper.h"
#include "rdma-helper.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/global-value.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <cstring>

#ifdef NS3_MPI
#include "ns3/mpi-interface.h"
#include "ns3/pfc-remote-channel.h"

#include <mpi.h>
#endif

namespace ns3
{

namespace
{

/// Append the bytes of \p v to \p out. \param out buffer \param v value
template <typename T>
void
Put(std::vector<uint8_t>& out, T v)
{
    uint8_t b[sizeof(T)];
    std::memcpy(b, &v, sizeof(T));
    out.insert(out.end(), b, b + sizeof(T));
}

/// Read a value from \p in at \p pos (advanced). \param in buffer \param pos offset \return value
template <typename T>
T
Get(const std::vector<uint8_t>& in, std::size_t& pos)
{
    NS_ABORT_MSG_IF(pos + sizeof(T) > in.size(), "TaggerMpiHelper: truncated flow records");
    T v;
    std::memcpy(&v, in.data() + pos, sizeof(T));
    pos += sizeof(T);
    return v;
}

/// One record, with its host index, as bytes (same machine type on every rank).
/// \param out buffer \param host host index \param r record
void
PutRecord(std::vector<uint8_t>& out, uint32_t host, const RdmaFlowRecord& r)
{
    Put(out, host);
    Put(out, r.flowId);
    Put(out, r.src.Get());
    Put(out, r.dst.Get());
    Put(out, r.sport);
    Put(out, r.dscp);
    Put(out, r.bytes);
    Put(out, r.start.GetTimeStep());
    Put(out, uint8_t(r.finished));
    Put(out, r.finish.GetTimeStep());
    Put(out, r.fct.GetTimeStep());
    Put(out, r.idealFct.GetTimeStep());
    Put(out, r.slowdown);
    Put(out, r.packets);
    Put(out, r.retransmitted);
    Put(out, r.timeouts);
    Put(out, r.cnps);
}

/// The inverse of PutRecord. \param in buffer \param pos offset (advanced)
/// \param host set to the host index \return the record
RdmaFlowRecord
GetRecord(const std::vector<uint8_t>& in, std::size_t& pos, uint32_t& host)
{
    RdmaFlowRecord r;
    host = Get<uint32_t>(in, pos);
    r.flowId = Get<uint32_t>(in, pos);
    r.src = Ipv4Address(Get<uint32_t>(in, pos));
    r.dst = Ipv4Address(Get<uint32_t>(in, pos));
    r.sport = Get<uint16_t>(in, pos);
    r.dscp = Get<uint8_t>(in, pos);
    r.bytes = Get<uint64_t>(in, pos);
    r.start = TimeStep(Get<int64_t>(in, pos));
    r.finished = Get<uint8_t>(in, pos) != 0;
    r.finish = TimeStep(Get<int64_t>(in, pos));
    r.fct = TimeStep(Get<int64_t>(in, pos));
    r.idealFct = TimeStep(Get<int64_t>(in, pos));
    r.slowdown = Get<double>(in, pos);
    r.packets = Get<uint64_t>(in, pos);
    r.retransmitted = Get<uint64_t>(in, pos);
    r.timeouts = Get<uint64_t>(in, pos);
    r.cnps = Get<uint64_t>(in, pos);
    return r;
}

/// Rank 0 gets every rank's bytes, in rank order (the others: their own).
/// \param mine this rank's bytes \param sizes set to each rank's byte count (rank 0)
/// \return all of them on rank 0
std::vector<uint8_t>
GatherBytes(const std::vector<uint8_t>& mine, std::vector<int>& sizes)
{
    sizes.assign(1, int(mine.size()));
#ifdef NS3_MPI
    if (MpiInterface::IsEnabled() && MpiInterface::GetSize() > 1)
    {
        const int size = int(MpiInterface::GetSize());
        int count = int(mine.size());
        std::vector<int> counts(size);
        MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
        std::vector<int> offsets(size, 0);
        for (int i = 1; i < size; ++i)
        {
            offsets[i] = offsets[i - 1] + counts[i - 1];
        }
        std::vector<uint8_t> all(
            MpiInterface::GetSystemId() == 0 ? std::size_t(offsets.back() + counts.back()) : 0);
        MPI_Gatherv(mine.data(),
                    count,
                    MPI_BYTE,
                    all.data(),
                    counts.data(),
                    offsets.data(),
                    MPI_BYTE,
                    0,
                    MPI_COMM_WORLD);
        sizes = counts;
        return all;
    }
#endif
    return mine;
}

} // namespace

void
TaggerMpiHelper::Enable(int* argc, char*** argv)
{
    // Same-time arrivals in an order that does not depend on the ranks (in
    // every build, so that a program's one-process run matches its MPI runs).
    Config::SetDefault("ns3::PfcChannel::OrderArrivals", BooleanValue(true));
#ifdef NS3_MPI
    StringValue impl;
    GlobalValue::GetValueByName("SimulatorImplementationType", impl);
    if (impl.Get() != "ns3::NullMessageSimulatorImpl" &&
        impl.Get() != "ns3::DistributedSimulatorImpl")
    {
        GlobalValue::Bind("SimulatorImplementationType",
                          StringValue("ns3::DistributedSimulatorImpl"));
    }
    MpiInterface::Enable(argc, argv);
#else
    (void)argc;
    (void)argv;
#endif
}

void
TaggerMpiHelper::Disable()
{
#ifdef NS3_MPI
    if (MpiInterface::IsEnabled())
    {
        MpiInterface::Disable();
    }
#endif
}

uint32_t
TaggerMpiHelper::GetRank()
{
#ifdef NS3_MPI
    return MpiInterface::IsEnabled() ? MpiInterface::GetSystemId() : 0;
#else
    return 0;
#endif
}

uint32_t
TaggerMpiHelper::GetSize()
{
#ifdef NS3_MPI
    return MpiInterface::IsEnabled() ? MpiInterface::GetSize() : 1;
#else
    return 1;
#endif
}

void
TaggerMpiHelper::SplitByPod(PfcTopologyHelper& net)
{
    Split(net, PfcTopologyHelper::RanksByPod(net.GetTopology(), GetSize()));
}

void
TaggerMpiHelper::Split(PfcTopologyHelper& net, const std::vector<uint32_t>& ranks)
{
    for (std::size_t v = 0; v < ranks.size(); ++v)
    {
        NS_ABORT_MSG_IF(ranks[v] >= GetSize(),
                        "TaggerMpiHelper::Split: node "
                            << net.GetTopology().GetNode(v).name << " is put on rank " << ranks[v]
                            << ", but " << GetSize() << " rank(s) run (mpirun -np)");
    }
    net.SetNodeRanks(ranks);
}

bool
TaggerMpiHelper::IsLocal(Ptr<const Node> node)
{
    return node->GetSystemId() == GetRank();
}

uint64_t
TaggerMpiHelper::Sum(uint64_t value)
{
#ifdef NS3_MPI
    if (GetSize() > 1)
    {
        unsigned long long in = value;
        unsigned long long out = 0;
        MPI_Allreduce(&in, &out, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
        return out;
    }
#endif
    return value;
}

uint64_t
TaggerMpiHelper::CountCrossRankFrames(const PfcTopologyHelper& net)
{
    uint64_t sent = 0;
#ifdef NS3_MPI
    const tagger::Topology& topo = net.GetTopology();
    for (const tagger::TopoLink& l : topo.GetLinks())
    {
        Ptr<PfcNetDevice> dev = net.GetDevice(l.a.node, l.a.port);
        Ptr<PfcRemoteChannel> remote = DynamicCast<PfcRemoteChannel>(dev->GetPfcChannel());
        sent += remote ? remote->GetFramesSent() : 0;
    }
#else
    (void)net;
#endif
    return Sum(sent);
}

std::vector<std::string>
TaggerMpiHelper::GatherText(const std::string& mine)
{
    std::vector<int> sizes;
    std::vector<uint8_t> all = GatherBytes(std::vector<uint8_t>(mine.begin(), mine.end()), sizes);
    std::vector<std::string> texts;
    if (GetRank() != 0)
    {
        return texts;
    }
    std::size_t pos = 0;
    for (int n : sizes)
    {
        texts.emplace_back(all.begin() + pos, all.begin() + pos + n);
        pos += n;
    }
    return texts;
}

std::vector<RdmaFlowRecord>
TaggerMpiHelper::GatherFlowRecords(const RdmaHelper& rdma)
{
    std::vector<uint8_t> mine;
    for (uint32_t h = 0; h < rdma.GetNHosts(); ++h)
    {
        Ptr<RdmaNic> nic = rdma.GetNic(h);
        if (!IsLocal(nic->GetNode()))
        {
            continue;
        }
        for (const RdmaFlowRecord& r : nic->GetFlowRecords())
        {
            PutRecord(mine, h, r);
        }
    }
    std::vector<int> sizes;
    std::vector<uint8_t> all = GatherBytes(mine, sizes);
    if (GetRank() != 0)
    {
        return {};
    }
    // Back in host order (ranks hold interleaved hosts); flows of one host
    // come from one rank, already in order.
    std::vector<std::vector<RdmaFlowRecord>> byHost(rdma.GetNHosts());
    std::size_t pos = 0;
    while (pos < all.size())
    {
        uint32_t host = 0;
        RdmaFlowRecord r = GetRecord(all, pos, host);
        NS_ABORT_MSG_IF(host >= byHost.size(), "TaggerMpiHelper: a record of host " << host);
        byHost[host].push_back(r);
    }
    std::vector<RdmaFlowRecord> records;
    for (const auto& list : byHost)
    {
        records.insert(records.end(), list.begin(), list.end());
    }
    return records;
}

} // namespace ns3
