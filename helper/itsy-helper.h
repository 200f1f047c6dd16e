/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef ITSY_HELPER_H
#define ITSY_HELPER_H

#include "ns3/itsy-detector.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/pfc-deadlock-oracle.h"

#include <cstdint>
#include <ostream>
#include <vector>

/**
 * \file
 * \ingroup tagger
 * Turns ITSY on in every switch of a network and collects its declarations.
 */

namespace ns3
{

/**
 * \ingroup tagger
 * Gives every PfcSwitchNetDevice among some nodes its own ItsyDetector
 * (ITSY is off unless a switch has one) and records every declaration.
 * Install() must run before the simulation starts (the switches size the
 * detector's state when they initialise), and the helper must outlive the
 * simulation: it records the declarations, and with Recovery Trigger it
 * hands each one to the initial trigger's switch (ItsyDetector::ResolveTrigger).
 *
 * \code
 *   ItsyHelper itsy;
 *   itsy.SetDetectorAttribute("ProbeInterval", TimeValue(MicroSeconds(50)));
 *   itsy.Install(net.GetForwarders());
 *   Simulator::Run();
 *   for (const auto& d : itsy.GetDeclarations()) { ... }
 * \endcode
 */
class ItsyHelper
{
  public:
    ItsyHelper();
    /// \param name attribute of ItsyDetector \param value its value
    void SetDetectorAttribute(std::string name, const AttributeValue& value);
    /**
     * Give each switch among \p nodes a detector.
     * \param nodes nodes (those without a PfcSwitchNetDevice are skipped)
     * \return the detectors made
     */
    std::vector<Ptr<ItsyDetector>> Install(const NodeContainer& nodes);

    /// \return every declaration so far, in time order
    const std::vector<ItsyDetector::Declaration>& GetDeclarations() const;
    /// \return the detectors installed
    const std::vector<Ptr<ItsyDetector>>& GetDetectors() const;
    uint64_t GetPiggybacked() const; //!< \return checking messages in PAUSE frames, all switches
    uint64_t GetSynthesized() const; //!< \return synthesized frames, all switches
    /**
     * Print one line per declaration, naming nodes by their ns-3 name
     * (Names::Add; PfcTopologyHelper names them after the topology) or,
     * unnamed, by id.
     * \param os stream
     */
    void PrintDeclarations(std::ostream& os) const;
    /// \param id a node id \return its ns-3 name, or "node <id>"
    static std::string NodeName(uint32_t id);

    /**
     * Make \p oracle check the network at every causality loop an installed
     * detector finds (the start of its temporal check), so that
     * Confirms() can judge a declaration at its detection exactly.  Call
     * after Install().
     * \param oracle the oracle watching the same switches
     */
    void CheckAtDetections(Ptr<PfcDeadlockOracle> oracle) const;
    /**
     * The verdict on a declaration.  ITSY's temporal check shows that every
     * port of the loop was pausing at the loop's detection and stayed so
     * until the check passed it (ITSY Lemma 2); a port may resume after its
     * check, before the declaration (at most one lap of the loop later).
     * So a declaration is right when its loop's queues were one cycle of
     * the oracle's wait-for graph at the detection (CheckAtDetections), or
     * are one now.
     * \param oracle the oracle \param d a declaration
     * \return confirmed (false: a false positive)
     */
    static bool Confirms(Ptr<PfcDeadlockOracle> oracle, const ItsyDetector::Declaration& d);

  private:
    /// Record a declaration. \param d it
    void Record(const ItsyDetector::Declaration& d);

    ObjectFactory m_factory;                               //!< detector factory
    std::vector<Ptr<ItsyDetector>> m_detectors;            //!< installed
    std::vector<ItsyDetector::Declaration> m_declarations; //!< seen
};

} // namespace ns3

#endif /* ITSY_HELPER_H */
