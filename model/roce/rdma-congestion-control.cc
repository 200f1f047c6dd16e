/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-congestion-control.h"

#include "rdma-nic.h"

#include "ns3/abort.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaCongestionControl);
NS_OBJECT_ENSURE_REGISTERED(RdmaNoCongestionControl);

TypeId
RdmaCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaCongestionControl").SetParent<Object>().SetGroupName("Tagger");
    return tid;
}

void
RdmaCongestionControl::SetNic(RdmaNic* nic)
{
    m_nic = nic;
}

void
RdmaCongestionControl::FlowAdded(uint32_t /* flow */)
{
}

void
RdmaCongestionControl::FlowStarted(uint32_t /* flow */)
{
}

void
RdmaCongestionControl::PacketSent(uint32_t /* flow */, uint32_t /* bytes */)
{
}

void
RdmaCongestionControl::AckReceived(uint32_t /* flow */, const RdmaAckInfo& /* ack */)
{
}

void
RdmaCongestionControl::CnpReceived(uint32_t /* flow */)
{
}

void
RdmaCongestionControl::FlowFinished(uint32_t /* flow */)
{
}

bool
RdmaCongestionControl::SendsCnps() const
{
    return true;
}

bool
RdmaCongestionControl::EchoesEcn() const
{
    return false;
}

bool
RdmaCongestionControl::WantsRtt() const
{
    return false;
}

bool
RdmaCongestionControl::WantsInt() const
{
    return false;
}

double
RdmaCongestionControl::GetLineRate() const
{
    return m_nic->m_lineRate;
}

double
RdmaCongestionControl::GetRate(uint32_t flow) const
{
    return m_nic->GetFlowRate(flow);
}

void
RdmaCongestionControl::SetRate(uint32_t flow, double bps)
{
    m_nic->SetFlowRate(flow, bps);
}

void
RdmaCongestionControl::SetWindow(uint32_t flow, uint64_t bytes)
{
    m_nic->SetFlowWindow(flow, bytes);
}

uint32_t
RdmaCongestionControl::GetPayloadSize() const
{
    return m_nic->m_payloadSize;
}

RdmaNic*
RdmaCongestionControl::GetNic() const
{
    NS_ABORT_MSG_IF(!m_nic, "RdmaCongestionControl: not attached to a NIC");
    return m_nic;
}

TypeId
RdmaNoCongestionControl::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaNoCongestionControl")
                            .SetParent<RdmaCongestionControl>()
                            .SetGroupName("Tagger")
                            .AddConstructor<RdmaNoCongestionControl>();
    return tid;
}

std::string
RdmaNoCongestionControl::GetName() const
{
    return "none";
}

} // namespace ns3
