/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-channel.h"

#include "pfc-net-device.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcChannel");
NS_OBJECT_ENSURE_REGISTERED(PfcChannel);

/**
 * \ingroup tagger
 * The frames reaching one node at the current instant (PfcChannel's
 * OrderArrivals), aggregated to the node: handed to their channels' Deliver
 * by one event scheduled for "now" when the first arrives, so after the
 * node's events of this instant that were scheduled earlier, in the order of
 * the receiving devices' interface indices.
 */
class PfcArrivalOrder : public Object
{
  public:
    /// \return the object TypeId
    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("ns3::PfcArrivalOrder").SetParent<Object>().SetGroupName("Tagger");
        return tid;
    }

    /// One frame that arrived.
    struct Arrival
    {
        uint32_t ifIndex;        //!< the receiving device's interface index (the order)
        Ptr<PfcChannel> channel; //!< its channel
        Ptr<Packet> frame;       //!< the frame
        uint8_t to;              //!< the receiving end of the channel
        uint64_t epoch;          //!< the link epoch at send
    };

    /// \param a a frame that arrives now
    void Add(Arrival a)
    {
        m_pending.push_back(std::move(a));
        if (m_drain.IsExpired())
        {
            m_drain = Simulator::ScheduleNow(&PfcArrivalOrder::Drain, this);
        }
    }

  private:
    void DoDispose() override
    {
        m_drain.Cancel();
        m_pending.clear();
        Object::DoDispose();
    }

    /// Deliver this instant's frames, in interface order.
    void Drain()
    {
        std::vector<Arrival> batch;
        batch.swap(m_pending);
        std::stable_sort(batch.begin(), batch.end(), [](const Arrival& x, const Arrival& y) {
            return x.ifIndex < y.ifIndex;
        });
        for (Arrival& a : batch)
        {
            a.channel->Deliver(a.frame, a.to, a.epoch);
        }
    }

    std::vector<Arrival> m_pending; //!< frames of this instant
    EventId m_drain;                //!< the event that delivers them
};

NS_OBJECT_ENSURE_REGISTERED(PfcArrivalOrder);

TypeId
PfcChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfcChannel")
            .SetParent<Channel>()
            .SetGroupName("Tagger")
            .AddConstructor<PfcChannel>()
            .AddAttribute("Delay",
                          "One-way propagation delay of the cable (time; 300 m of fibre "
                          "is about 1.5 us).",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&PfcChannel::SetDelay, &PfcChannel::GetDelay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute(
                "OrderArrivals",
                "Hand the frames that reach a node at one instant to their devices "
                "after the node's other events of that instant, in interface order, "
                "so that the order does not depend on when the deliveries were "
                "scheduled (identical results on any number of MPI ranks; one extra "
                "event per instant with arrivals).  Off: in scheduling order.",
                BooleanValue(false),
                MakeBooleanAccessor(&PfcChannel::SetOrderArrivals, &PfcChannel::GetOrderArrivals),
                MakeBooleanChecker())
            .AddTraceSource("Lost",
                            "A frame in flight was lost because the link went down.",
                            MakeTraceSourceAccessor(&PfcChannel::m_lostTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

PfcChannel::PfcChannel()
    : m_delay(MicroSeconds(1)),
      m_context{Simulator::NO_CONTEXT, Simulator::NO_CONTEXT},
      m_nDevices(0),
      m_up(true),
      m_epoch(0),
      m_orderArrivals(false)
{
}

PfcChannel::~PfcChannel() = default;

void
PfcChannel::DoDispose()
{
    m_order[0] = nullptr;
    m_order[1] = nullptr;
    Channel::DoDispose();
}

void
PfcChannel::Attach(Ptr<PfcNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    NS_ABORT_MSG_IF(m_nDevices >= 2,
                    "PfcChannel::Attach: a PfcChannel joins exactly two devices; "
                    "a third was attached");
    m_device[m_nDevices++] = device;
    UpdateDirectPeers();
}

void
PfcChannel::SetDelay(Time delay)
{
    m_delay = delay;
    UpdateDirectPeers();
}

void
PfcChannel::SetOrderArrivals(bool order)
{
    m_orderArrivals = order;
    UpdateDirectPeers();
}

bool
PfcChannel::GetOrderArrivals() const
{
    return m_orderArrivals;
}

bool
PfcChannel::SendsDirectly() const
{
    return !m_orderArrivals;
}

void
PfcChannel::UpdateDirectPeers()
{
    bool direct = m_nDevices == 2 && SendsDirectly();
    for (std::size_t i = 0; i < m_nDevices; ++i)
    {
        m_device[i]->SetDirectPeer(direct ? PeekPointer(m_device[1 - i]) : nullptr, m_delay);
    }
}

bool
PfcChannel::TransmitStart(const Ptr<Packet>& frame, const Ptr<PfcNetDevice>& src, Time txTime)
{
    NS_LOG_FUNCTION(this << frame << src << txTime);
    if (!m_up || m_nDevices < 2)
    {
        return false;
    }
    uint8_t to = m_device[0] == src ? 1 : 0;
    if (m_context[to] == Simulator::NO_CONTEXT)
    {
        m_context[to] = m_device[to]->GetNodeContext(); // once on its node
    }
    Simulator::ScheduleWithContext(m_context[to],
                                   txTime + m_delay,
                                   &PfcChannel::Arrive,
                                   this,
                                   m_delay.IsStrictlyPositive() ? frame : frame->Copy(),
                                   to,
                                   m_epoch);
    return true;
}

void
PfcChannel::Arrive(Ptr<Packet> frame, uint8_t to, uint64_t epoch)
{
    if (!m_orderArrivals)
    {
        Deliver(frame, to, epoch);
        return;
    }
    if (!m_order[to])
    {
        Ptr<Node> node = m_device[to]->GetNode();
        m_order[to] = node->GetObject<PfcArrivalOrder>();
        if (!m_order[to])
        {
            m_order[to] = CreateObject<PfcArrivalOrder>();
            node->AggregateObject(m_order[to]);
        }
    }
    m_order[to]->Add({m_device[to]->GetIfIndex(), this, frame, to, epoch});
}

void
PfcChannel::Deliver(Ptr<Packet> frame, uint8_t to, uint64_t epoch)
{
    if (!m_up || epoch != m_epoch)
    {
        LoseInFlight(frame, m_device[to]);
        return;
    }
    m_device[to]->Receive(frame);
}

void
PfcChannel::LoseInFlight(Ptr<const Packet> frame, Ptr<const PfcNetDevice> receiver)
{
    NS_LOG_LOGIC("frame lost in flight: the link went down");
    m_lostTrace(frame);
    m_device[m_device[0] == receiver ? 1 : 0]->NotifyLostInFlight(frame);
}

void
PfcChannel::SetLinkUp(bool up)
{
    NS_LOG_FUNCTION(this << up);
    if (up == m_up)
    {
        return;
    }
    m_up = up;
    if (!up)
    {
        ++m_epoch;
    }
    for (std::size_t i = 0; i < m_nDevices; ++i)
    {
        m_device[i]->NotifyLinkChange(up);
    }
}

uint64_t
PfcChannel::GetEpoch() const
{
    return m_epoch;
}

bool
PfcChannel::IsLinkUp() const
{
    return m_up;
}

Ptr<PfcNetDevice>
PfcChannel::GetPeer(Ptr<const PfcNetDevice> device) const
{
    if (m_nDevices < 2)
    {
        return nullptr;
    }
    return m_device[0] == device ? m_device[1] : m_device[0];
}

Time
PfcChannel::GetDelay() const
{
    return m_delay;
}

std::size_t
PfcChannel::GetNDevices() const
{
    return m_nDevices;
}

Ptr<NetDevice>
PfcChannel::GetDevice(std::size_t i) const
{
    NS_ASSERT(i < m_nDevices);
    return m_device[i];
}

} // namespace ns3
