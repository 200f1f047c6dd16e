/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * The remote PFC link against a local one, on two MPI ranks (built only
 * with ns-3's mpi module; run as `mpirun -np 2 <program>`, exit 0 when
 * every check passes).
 *
 * Two identical links, 8 Gbps and 1 us: A-B local (both nodes on rank 0)
 * and C-D remote (C on rank 0, D on rank 1).  The same things happen on
 * both: at t0 the left end queues three 1000-byte class-3 frames; at
 * t0 + 3500 ns the right end starts pausing class 3 (a PFC PAUSE crosses
 * right to left) and stops at t0 + 5 us; at t1 = t0 + 20 us three more
 * frames are queued and the link goes down at t1 + 1500 ns (two frames
 * lost in flight, one dropped from the queue).
 *
 * Expected by hand (see pfc-device-test-suite.cc for the Ethernet rules):
 * a 1000-byte frame occupies 1024 ns of wire at 8 Gbps (preamble, SFD and
 * inter-frame gap: 24 bytes), so frame i (from 0) arrives at
 * t0 + 1024 (i + 1) + 1000 ns; the 64-byte PAUSE occupies 84 ns and takes
 * effect ProcessingDelay after it arrives (default: 3840 bytes' time, 3840 ns
 * here; see pfc-device-pause-test.cc), so the left end is paused at
 * t0 + 3500 + 84 + 1000 + 3840 ns; after t1 nothing arrives and
 * three frames are dropped as LINK_DOWN (one queued, two in flight).
 * The remote link must give the same times and counts as the local one
 * and as these figures.
 */

#include "ns3/core-module.h"
#include "ns3/ipv4-header.h"
#include "ns3/network-module.h"
#include "ns3/pfc-channel.h"
#include "ns3/pfc-helper.h"
#include "ns3/pfc-net-device.h"
#include "ns3/pfc-types.h"
#include "ns3/tagger-mpi-helper.h"

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const Time kT0 = MicroSeconds(10); //!< first sends
const Time kT1 = MicroSeconds(30); //!< second sends; the link goes down 1500 ns later

/// Send a 1000-byte class-3 IPv4 frame from \p dev to its peer. \param dev the device
void
SendFrame(Ptr<PfcNetDevice> dev)
{
    Ptr<Packet> p = Create<Packet>(1000 - 14 - 20);
    Ipv4Header ip;
    ip.SetSource(Ipv4Address("10.0.0.1"));
    ip.SetDestination(Ipv4Address("10.0.0.2"));
    ip.SetProtocol(253);
    ip.SetPayloadSize(p->GetSize());
    ip.SetDscp(Ipv4Header::DscpType(3 << 3));
    p->AddHeader(ip);
    dev->Send(p, dev->GetPeerAddress(), kEtherTypeIpv4);
}

/// Appends "<what> <ns since t0>" lines.
struct Log
{
    std::ostringstream text; //!< the lines

    /// \param what the event \param t0 origin
    void Add(const std::string& what, Time t0)
    {
        text << what << " " << (Simulator::Now() - t0).GetNanoSeconds() << "\n";
    }
};

/// MacRx sink. \param log the log \param frame the frame
void
Arrived(Log* log, Ptr<const Packet> frame)
{
    log->Add("rx", kT0);
}

/// ClassPause sink. \param log the log \param cls class \param paused state
void
Paused(Log* log, uint8_t cls, bool paused)
{
    if (paused)
    {
        log->Add("paused", kT0);
    }
}

/// Schedule one link's script on the ranks of its ends.
/// \param left the sending end \param right the pausing end
void
Script(Ptr<PfcNetDevice> left, Ptr<PfcNetDevice> right)
{
    Ptr<PfcChannel> channel = left->GetPfcChannel();
    if (TaggerMpiHelper::IsLocal(left->GetNode()))
    {
        for (Time at : {kT0, kT1})
        {
            for (int i = 0; i < 3; ++i)
            {
                Simulator::ScheduleWithContext(left->GetNode()->GetId(), at, &SendFrame, left);
            }
        }
    }
    if (TaggerMpiHelper::IsLocal(right->GetNode()))
    {
        Simulator::ScheduleWithContext(right->GetNode()->GetId(),
                                       kT0 + NanoSeconds(3500),
                                       &PfcNetDevice::StartPausing,
                                       right,
                                       uint8_t(3));
        Simulator::ScheduleWithContext(right->GetNode()->GetId(),
                                       kT0 + MicroSeconds(5),
                                       &PfcNetDevice::StopPausing,
                                       right,
                                       uint8_t(3));
    }
    // Every rank takes the link down at the same time (as helpers do).
    Simulator::Schedule(kT1 + NanoSeconds(1500), &PfcChannel::SetLinkUp, channel, false);
}

} // namespace

int
main(int argc, char* argv[])
{
    TaggerMpiHelper::Enable(&argc, &argv);
    if (TaggerMpiHelper::GetSize() != 2)
    {
        std::cerr << "pfc-remote-link-test: run it on two ranks (mpirun -np 2)\n";
        TaggerMpiHelper::Disable();
        return 1;
    }
    Ptr<Node> a = CreateObject<Node>(0);
    Ptr<Node> b = CreateObject<Node>(0);
    Ptr<Node> c = CreateObject<Node>(0);
    Ptr<Node> d = CreateObject<Node>(1);
    PfcHelper helper;
    helper.SetDeviceAttribute("DataRate", StringValue("8Gbps"));
    helper.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    NetDeviceContainer ab = helper.Connect(a, b);
    NetDeviceContainer cd = helper.Connect(c, d);
    std::vector<Ptr<PfcNetDevice>> dev;
    for (const NetDeviceContainer* pair : {&ab, &cd})
    {
        dev.push_back(DynamicCast<PfcNetDevice>(pair->Get(0)));
        dev.push_back(DynamicCast<PfcNetDevice>(pair->Get(1)));
    }
    bool remote = dev[2]->GetPfcChannel()->GetInstanceTypeId().GetName() == "ns3::PfcRemoteChannel";
    Log local;
    Log crossing;
    dev[1]->TraceConnectWithoutContext("MacRx", MakeBoundCallback(&Arrived, &local));
    dev[0]->TraceConnectWithoutContext("ClassPause", MakeBoundCallback(&Paused, &local));
    dev[3]->TraceConnectWithoutContext("MacRx", MakeBoundCallback(&Arrived, &crossing));
    dev[2]->TraceConnectWithoutContext("ClassPause", MakeBoundCallback(&Paused, &crossing));
    Script(dev[0], dev[1]);
    Script(dev[2], dev[3]);
    Simulator::Stop(MicroSeconds(100));
    Simulator::Run();

    // Drops: the sending end's queue on its rank; in flight, on the rank
    // that saw them lost (the receiving one): summed over ranks.
    uint64_t localDrops = TaggerMpiHelper::Sum(dev[0]->GetDropCount(PfcDropReason::LINK_DOWN));
    uint64_t remoteDrops = TaggerMpiHelper::Sum(dev[2]->GetDropCount(PfcDropReason::LINK_DOWN));
    std::vector<std::string> texts = TaggerMpiHelper::GatherText(crossing.text.str());
    int failures = 0;
    if (TaggerMpiHelper::GetRank() == 0)
    {
        // Rank 0 saw the local link's events and C's pause; rank 1 saw D's arrivals.
        std::string remoteText = texts[0] + texts[1];
        std::ostringstream hand;
        hand << "paused " << 3500 + 84 + 1000 + 3840 << "\n";
        for (int i = 0; i < 3; ++i)
        {
            hand << "rx " << 1024 * (i + 1) + 1000 << "\n";
        }
        auto sorted = [](const std::string& text) {
            std::istringstream in(text);
            std::vector<std::pair<int64_t, std::string>> lines;
            std::string what;
            int64_t ns;
            while (in >> what >> ns)
            {
                lines.emplace_back(ns, what);
            }
            std::sort(lines.begin(), lines.end());
            std::ostringstream out;
            for (const auto& [t, w] : lines)
            {
                out << w << " " << t << "\n";
            }
            return out.str();
        };
        auto check = [&failures](bool ok, const std::string& what) {
            std::cout << (ok ? "PASS: " : "FAIL: ") << what << "\n";
            failures += ok ? 0 : 1;
        };
        check(remote, "the C-D link is a PfcRemoteChannel");
        check(sorted(local.text.str()) == sorted(hand.str()),
              "local link: arrival and pause times as worked out by hand");
        check(sorted(remoteText) == sorted(local.text.str()),
              "remote link: the same times as the local link");
        check(localDrops == 3,
              "local link: 3 LINK_DOWN drops (got " + std::to_string(localDrops) + ")");
        check(remoteDrops == localDrops,
              "remote link: as many LINK_DOWN drops (got " + std::to_string(remoteDrops) + ")");
        if (failures > 0)
        {
            std::cout << "local:\n"
                      << sorted(local.text.str()) << "remote:\n"
                      << sorted(remoteText);
        }
    }
    Simulator::Destroy();
    TaggerMpiHelper::Disable();
    return failures == 0 ? 0 : 1;
}
