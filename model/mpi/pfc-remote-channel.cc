/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3), built only with ns-3's mpi module.
 */

#include "pfc-remote-channel.h"

#include "ns3/log.h"
#include "ns3/mpi-interface.h"
#include "ns3/mpi-receiver.h"
#include "ns3/node.h"
#include "ns3/pfc-net-device.h"
#include "ns3/simulator.h"
#include "ns3/tag.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcRemoteChannel");

NS_OBJECT_ENSURE_REGISTERED(PfcRemoteChannel);

namespace
{

/// The link epoch a frame was sent in, carried across ranks with the frame.
class PfcLinkEpochTag : public Tag
{
  public:
    /// \return the object TypeId
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::PfcLinkEpochTag")
                                .SetParent<Tag>()
                                .SetGroupName("Tagger")
                                .AddConstructor<PfcLinkEpochTag>();
        return tid;
    }

    TypeId GetInstanceTypeId() const override
    {
        return GetTypeId();
    }

    uint32_t GetSerializedSize() const override
    {
        return 8;
    }

    void Serialize(TagBuffer i) const override
    {
        i.WriteU64(epoch);
    }

    void Deserialize(TagBuffer i) override
    {
        epoch = i.ReadU64();
    }

    void Print(std::ostream& os) const override
    {
        os << "epoch=" << epoch;
    }

    uint64_t epoch = 0; //!< the link epoch at send
};

} // namespace

NS_OBJECT_ENSURE_REGISTERED(PfcLinkEpochTag);

TypeId
PfcRemoteChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcRemoteChannel")
                            .SetParent<PfcChannel>()
                            .SetGroupName("Tagger")
                            .AddConstructor<PfcRemoteChannel>();
    return tid;
}

PfcRemoteChannel::PfcRemoteChannel() = default;

void
PfcRemoteChannel::Attach(Ptr<PfcNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    PfcChannel::Attach(device);
    Ptr<MpiReceiver> receiver = CreateObject<MpiReceiver>();
    receiver->SetReceiveCallback(GetNDevices() == 1
                                     ? MakeCallback(&PfcRemoteChannel::ReceiveAtEnd0, this)
                                     : MakeCallback(&PfcRemoteChannel::ReceiveAtEnd1, this));
    device->AggregateObject(receiver);
}

bool
PfcRemoteChannel::TransmitStart(const Ptr<Packet>& frame, const Ptr<PfcNetDevice>& src, Time txTime)
{
    NS_LOG_FUNCTION(this << frame << src << txTime);
    NS_ABORT_MSG_IF(src->GetNode()->GetSystemId() != MpiInterface::GetSystemId(),
                    "PfcRemoteChannel: node "
                        << src->GetNode()->GetId() << " of rank " << src->GetNode()->GetSystemId()
                        << " transmits on rank " << MpiInterface::GetSystemId()
                        << " (an event was scheduled for a node "
                           "of another rank)");
    if (!IsLinkUp() || GetNDevices() < 2)
    {
        return false;
    }
    Ptr<NetDevice> dst = GetDevice(GetDevice(0) == src ? 1 : 0);
    Ptr<Packet> copy = frame->Copy();
    PfcLinkEpochTag tag;
    tag.epoch = GetEpoch();
    copy->AddPacketTag(tag);
    ++m_sent;
    MpiInterface::SendPacket(copy,
                             Simulator::Now() + txTime + GetDelay(),
                             dst->GetNode()->GetId(),
                             dst->GetIfIndex());
    return true;
}

bool
PfcRemoteChannel::SendsDirectly() const
{
    return false;
}

uint64_t
PfcRemoteChannel::GetFramesSent() const
{
    return m_sent;
}

void
PfcRemoteChannel::ReceiveFromRank(uint8_t to, Ptr<Packet> frame)
{
    PfcLinkEpochTag tag;
    bool tagged = frame->RemovePacketTag(tag);
    NS_ABORT_MSG_IF(!tagged, "PfcRemoteChannel: a frame from another rank without its epoch");
    Arrive(frame, to, tag.epoch);
}

void
PfcRemoteChannel::ReceiveAtEnd0(Ptr<Packet> frame)
{
    ReceiveFromRank(0, frame);
}

void
PfcRemoteChannel::ReceiveAtEnd1(Ptr<Packet> frame)
{
    ReceiveFromRank(1, frame);
}

} // namespace ns3
