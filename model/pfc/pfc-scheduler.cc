/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#include "pfc-scheduler.h"

#include "ns3/abort.h"
#include "ns3/assert.h"
#include "ns3/fatal-error.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcScheduler");

NS_OBJECT_ENSURE_REGISTERED(PfcScheduler);
NS_OBJECT_ENSURE_REGISTERED(StrictPriorityPfcScheduler);
NS_OBJECT_ENSURE_REGISTERED(DwrrPfcScheduler);

namespace
{

/// Largest weight accepted, so that weight * Quantum * rounds stays far from int64 overflow.
constexpr uint32_t kMaxWeight = 1000000;

} // namespace

// ---------------------------------------------------------------------------
// PfcScheduler
// ---------------------------------------------------------------------------

TypeId
PfcScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcScheduler").SetParent<Object>().SetGroupName("Tagger");
    return tid;
}

void
PfcScheduler::NotifySent(uint8_t /* cls */, uint32_t /* bytes */)
{
}

// ---------------------------------------------------------------------------
// StrictPriorityPfcScheduler
// ---------------------------------------------------------------------------

TypeId
StrictPriorityPfcScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::StrictPriorityPfcScheduler")
                            .SetParent<PfcScheduler>()
                            .SetGroupName("Tagger")
                            .AddConstructor<StrictPriorityPfcScheduler>();
    return tid;
}

uint8_t
StrictPriorityPfcScheduler::Select(uint8_t eligible,
                                   const std::array<uint32_t, kPfcClasses>& /* headBytes */)
{
    NS_ABORT_MSG_IF(eligible == 0, "StrictPriorityPfcScheduler::Select: no eligible class");
    return PfcHighestClass(eligible);
}

// ---------------------------------------------------------------------------
// DwrrPfcScheduler
// ---------------------------------------------------------------------------

TypeId
DwrrPfcScheduler::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DwrrPfcScheduler")
            .SetParent<PfcScheduler>()
            .SetGroupName("Tagger")
            .AddConstructor<DwrrPfcScheduler>()
            .AddAttribute("Weights",
                          "Weight of each class, class 0 first: eight positive integers "
                          "(dimensionless, at most 1000000) separated by commas, "
                          "e.g. \"1,1,1,1,1,1,1,1\". Class c is credited Weight[c] * Quantum "
                          "bytes per round.",
                          StringValue("1,1,1,1,1,1,1,1"),
                          MakeStringAccessor(&DwrrPfcScheduler::SetWeightsString,
                                             &DwrrPfcScheduler::GetWeightsString),
                          MakeStringChecker())
            .AddAttribute("Quantum",
                          "Bytes credited per unit of weight per round (bytes).",
                          UintegerValue(1600),
                          MakeUintegerAccessor(&DwrrPfcScheduler::m_quantum),
                          MakeUintegerChecker<uint32_t>(1));
    return tid;
}

DwrrPfcScheduler::DwrrPfcScheduler()
    : m_quantum(1600),
      m_current(0),
      m_turnStarted(false)
{
    NS_LOG_FUNCTION(this);
    m_weights.fill(1);
    m_deficit.fill(0);
}

uint8_t
DwrrPfcScheduler::Select(uint8_t eligible, const std::array<uint32_t, kPfcClasses>& headBytes)
{
    NS_LOG_FUNCTION(this << static_cast<uint32_t>(eligible));
    NS_ABORT_MSG_IF(eligible == 0, "DwrrPfcScheduler::Select: no eligible class");

    // Visit the classes round robin from m_current.  A class's turn starts
    // with its quantum added to its deficit; an eligible class whose deficit
    // covers its head frame is selected (and keeps the turn); an ineligible
    // class loses its deficit; either way without a selection the turn passes on.
    for (uint32_t visits = 0;; ++visits)
    {
        if (visits == kPfcClasses)
        {
            // A whole round went by without a selection, and m_current is
            // again where this call started, its turn not started.  Every
            // eligible class c has deficit d_c < head_c; it becomes selectable
            // in round k_c = ceil((head_c - d_c) / q_c) from now.  Rounds
            // before min k_c select nothing and only add q_c to each eligible
            // class (ineligible ones stay at 0): credit them in one step, so
            // the round that follows selects a class.
            int64_t skip = std::numeric_limits<int64_t>::max();
            for (uint8_t c = 0; c < kPfcClasses; ++c)
            {
                if (eligible & (1u << c))
                {
                    int64_t q = static_cast<int64_t>(m_weights[c]) * m_quantum;
                    int64_t need = static_cast<int64_t>(headBytes[c]) - m_deficit[c];
                    NS_ASSERT(need > 0);
                    skip = std::min(skip, (need + q - 1) / q - 1);
                }
            }
            for (uint8_t c = 0; c < kPfcClasses; ++c)
            {
                if (eligible & (1u << c))
                {
                    m_deficit[c] += skip * static_cast<int64_t>(m_weights[c]) * m_quantum;
                }
            }
        }
        NS_ASSERT_MSG(visits < 2 * kPfcClasses, "DWRR made two rounds without a selection");

        uint8_t c = m_current;
        if (!m_turnStarted)
        {
            m_deficit[c] += static_cast<int64_t>(m_weights[c]) * m_quantum;
            m_turnStarted = true;
        }
        if (eligible & (1u << c))
        {
            if (m_deficit[c] >= static_cast<int64_t>(headBytes[c]))
            {
                return c;
            }
            // Not enough deficit: keep it for the next round.
        }
        else
        {
            m_deficit[c] = 0;
        }
        m_current = static_cast<uint8_t>((c + 1) % kPfcClasses);
        m_turnStarted = false;
    }
}

void
DwrrPfcScheduler::NotifySent(uint8_t cls, uint32_t bytes)
{
    NS_LOG_FUNCTION(this << static_cast<uint32_t>(cls) << bytes);
    NS_ASSERT_MSG(cls < kPfcClasses, "NotifySent: class " << static_cast<uint32_t>(cls));
    m_deficit[cls] -= bytes;
}

void
DwrrPfcScheduler::SetWeights(const std::vector<uint32_t>& weights)
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(weights.size() != kPfcClasses,
                    "DwrrPfcScheduler::SetWeights: " << weights.size()
                                                     << " weights given, 8 expected");
    for (uint8_t c = 0; c < kPfcClasses; ++c)
    {
        NS_ABORT_MSG_IF(weights[c] == 0 || weights[c] > kMaxWeight,
                        "DwrrPfcScheduler::SetWeights: weight " << weights[c] << " of class "
                                                                << static_cast<uint32_t>(c)
                                                                << " is not in 1.." << kMaxWeight);
        m_weights[c] = weights[c];
    }
}

void
DwrrPfcScheduler::SetWeightsString(std::string text)
{
    NS_LOG_FUNCTION(this << text);
    std::array<uint32_t, kPfcClasses> weights{};
    size_t count = 0;
    size_t pos = 0;
    std::string problem;
    while (problem.empty())
    {
        size_t comma = text.find(',', pos);
        std::string field =
            text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        // Blanks around a number are allowed.
        size_t first = field.find_first_not_of(" \t");
        size_t last = field.find_last_not_of(" \t");
        field = first == std::string::npos ? "" : field.substr(first, last - first + 1);
        if (field.empty() || field.find_first_not_of("0123456789") != std::string::npos)
        {
            problem = "\"" + field + "\" is not a positive integer";
        }
        else if (field.size() > 7 || std::stoul(field) == 0 || std::stoul(field) > kMaxWeight)
        {
            problem = "weight " + field + " is not in 1..1000000";
        }
        else if (count == kPfcClasses)
        {
            problem = "more than 8 weights";
        }
        else
        {
            weights[count++] = static_cast<uint32_t>(std::stoul(field));
        }
        if (comma == std::string::npos)
        {
            break;
        }
        pos = comma + 1;
    }
    if (problem.empty() && count != kPfcClasses)
    {
        problem = std::to_string(count) + " weights instead of 8";
    }
    if (!problem.empty())
    {
        NS_FATAL_ERROR("DwrrPfcScheduler attribute Weights: bad value \""
                       << text << "\" (" << problem
                       << "); expected eight positive integers \"w0,w1,...,w7\"");
    }
    m_weights = weights;
}

std::string
DwrrPfcScheduler::GetWeightsString() const
{
    std::ostringstream os;
    for (uint8_t c = 0; c < kPfcClasses; ++c)
    {
        os << (c == 0 ? "" : ",") << m_weights[c];
    }
    return os.str();
}

} // namespace ns3
