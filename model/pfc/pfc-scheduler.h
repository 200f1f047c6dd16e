/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef PFC_SCHEDULER_H
#define PFC_SCHEDULER_H

#include "pfc-types.h"

#include "ns3/object.h"

#include <array>
#include <vector>

/**
 * \file
 * \ingroup tagger
 * Egress schedulers of a PfcNetDevice: which of the eight class queues sends next.
 */

namespace ns3
{

/**
 * \ingroup tagger
 * Picks the class queue a port transmits from next.  The device calls
 * Select() with the classes that may send now (non-empty and not paused) and
 * the byte size of each queue's head frame; it then sends the head of the
 * class returned and calls NotifySent().
 */
class PfcScheduler : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \param eligible bit c set: class c has a frame and is not paused (never 0)
     * \param headBytes size of the head frame of each class (valid where eligible)
     * \return the class to send from (its bit is set in \p eligible)
     */
    virtual uint8_t Select(uint8_t eligible,
                           const std::array<uint32_t, kPfcClasses>& headBytes) = 0;

    /**
     * The head frame of \p cls, \p bytes long, was sent.
     * \param cls the class Select() returned
     * \param bytes the frame size
     */
    virtual void NotifySent(uint8_t cls, uint32_t bytes);
};

/**
 * \ingroup tagger
 * The strict-priority choice: the highest class of a mask.
 * \param eligible a class mask (never 0)
 * \return the index of its highest set bit (7 first, 0 last)
 */
inline uint8_t
PfcHighestClass(uint8_t eligible)
{
    return static_cast<uint8_t>(31 - __builtin_clz(static_cast<uint32_t>(eligible)));
}

/**
 * \ingroup tagger
 * Strict priority: the highest eligible class number (7 first, 0 last).
 */
class StrictPriorityPfcScheduler : public PfcScheduler
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    uint8_t Select(uint8_t eligible, const std::array<uint32_t, kPfcClasses>& headBytes) override;
};

/**
 * \ingroup tagger
 * Deficit weighted round robin (Shreedhar and Varghese): class c gets a
 * quantum of Weight[c] * Quantum bytes per round; a class that has no frame
 * (or is paused) when its turn comes keeps no deficit.
 */
class DwrrPfcScheduler : public PfcScheduler
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    DwrrPfcScheduler();

    uint8_t Select(uint8_t eligible, const std::array<uint32_t, kPfcClasses>& headBytes) override;
    void NotifySent(uint8_t cls, uint32_t bytes) override;

    /**
     * \param weights eight positive integer weights, class 0 first
     */
    void SetWeights(const std::vector<uint32_t>& weights);

  private:
    /// \param text the Weights attribute, e.g. "1,1,1,1,1,1,1,1"
    void SetWeightsString(std::string text);
    /// \return the Weights attribute text
    std::string GetWeightsString() const;

    std::array<uint32_t, kPfcClasses> m_weights; //!< weight of each class
    uint32_t m_quantum;                          //!< bytes per unit of weight per round
    std::array<int64_t, kPfcClasses> m_deficit;  //!< deficit counters (bytes)
    uint8_t m_current;                           //!< class whose turn it is
    bool m_turnStarted;                          //!< m_current already got its quantum
};

} // namespace ns3

#endif /* PFC_SCHEDULER_H */
