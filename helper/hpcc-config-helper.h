/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef HPCC_CONFIG_HELPER_H
#define HPCC_CONFIG_HELPER_H

#include "ns3/nstime.h"
#include "ns3/tagger-io-hpcc-config.h"
#include "ns3/tagger-io-hpcc.h"

#include <array>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup tagger
 * Apply an HPCC-family config file (config.txt) to this module's attributes.
 */

namespace ns3
{

class HpccScenarioHelper;

/**
 * \ingroup tagger
 * A user's HPCC-family config file (HPCC, ConWeave, ns3-datacenter) run as it
 * is: the files it names, and every key that has a meaning here applied to
 * the matching attribute (GetKeyTable() lists them all; the user manual's
 * "Coming from the HPCC family" has the table).
 *
 * - Inputs (TOPOLOGY_FILE, FLOW_FILE): a relative name is looked up in the
 *   config file's folder first, then in the working directory.  Outputs
 *   (FCT_OUTPUT_FILE, PFC_OUTPUT_FILE) are written as named, relative to the
 *   working directory, as those simulators write them.
 * - SetDefaults() turns the NIC, MMU and switch keys into ns-3 defaults
 *   (Config::SetDefault), so it runs before the network is built;
 *   Configure() does what needs the built network (ECN thresholds per link
 *   rate, LINK_DOWN); ApplyErrorRate() edits the topology read.
 * - A CC_MODE this module does not implement is refused with its name; a
 *   value out of range is refused naming the line.  Keys without a meaning
 *   here (packet traces, HPCC's INT options, ...) are ignored and listed
 *   once by Print().
 *
 * Units as the family reads them: times of the DCQCN timers in
 * microseconds, SIMULATOR_STOP_TIME in seconds, BUFFER_SIZE in MiB,
 * KMIN_MAP and KMAX_MAP in KB (1000 bytes), rates as DataRate strings.
 * Faults throw tagger::TaggerError "config.txt:line: KEY: what".
 */
class HpccConfigHelper
{
  public:
    /// What this module does with a config key.
    struct Key
    {
        std::string name;    //!< the key
        std::string applied; //!< what it sets here ("" when ignored)
        std::string note;    //!< units, or why it is ignored
    };

    /**
     * Read \p filename (tagger::HpccConfig::ReadFile).
     * \param filename the config file
     */
    explicit HpccConfigHelper(const std::string& filename);

    /// \return the file read
    const tagger::HpccConfig& GetConfig() const;

    /**
     * The input file a key names, found: the config's folder first, then the
     * working directory.  Throws TaggerError naming the line when the file is
     * in neither.
     * \param key TOPOLOGY_FILE or FLOW_FILE \return the path, "" when the key is not set
     */
    std::string FindInput(const std::string& key) const;
    /// \param key FCT_OUTPUT_FILE or PFC_OUTPUT_FILE \return the file, "" when not set
    std::string GetOutput(const std::string& key) const;
    /// \param key a key the file sets \return "config.txt:line: KEY" for messages
    std::string Where(const std::string& key) const;
    /// \return SIMULATOR_STOP_TIME, when set
    std::optional<Time> GetStopTime() const;

    /**
     * Set the ns-3 defaults the keys ask for (RdmaNic, SwitchMmu): CC_MODE,
     * payload, ACK interval, window, DCQCN's timers, gain and rates, buffer
     * size; and check what Configure() will need against \p topology (an ECN
     * map covers every switch port's rate, LINK_DOWN names a link).
     * \param topology the topology the config runs
     */
    void SetDefaults(const tagger::HpccTopology& topology);

    /// ERROR_RATE_PER_LINK: every link whose line gives 0 gets it (as those
    /// simulators do). \param topology the topology read, edited
    void ApplyErrorRate(tagger::HpccTopology& topology) const;

    /**
     * After HpccScenarioHelper::Build: ECN thresholds of every switch port by
     * its link rate (KMIN_MAP, KMAX_MAP, PMAX_MAP; ENABLE_QCN 0: none marks)
     * and the LINK_DOWN event.
     * \param scenario the built scenario
     */
    void Configure(HpccScenarioHelper& scenario) const;

    /// One line per key applied ("KEY value -> what"), then one line listing
    /// the keys ignored. \param os where
    void Print(std::ostream& os) const;

    /// \return the keys ignored (after SetDefaults), in file order
    std::vector<std::string> GetIgnored() const;

    /// \return every key of the family's configs this module knows, and what it does
    static const std::vector<Key>& GetKeyTable();

    /**
     * The ACK interval (packets) of the family's receivers: an ACK when the
     * bytes received reach L2_ACK_INTERVAL (from then on at every packet, as
     * their receivers reset the milestone per packet) or a multiple of
     * L2_CHUNK_SIZE, whichever comes first.
     * \param ackIntervalBytes L2_ACK_INTERVAL \param chunkBytes L2_CHUNK_SIZE (0: none)
     * \param payloadBytes PACKET_PAYLOAD_SIZE \return packets per ACK (>= 1)
     */
    static uint32_t AckIntervalPackets(uint64_t ackIntervalBytes,
                                       uint64_t chunkBytes,
                                       uint64_t payloadBytes);

    /**
     * The window HAS_WIN gives a flow in those simulators: the largest
     * bandwidth-delay product over host pairs, (2 d + t) b / 8 bytes, where
     * along the path a breadth-first search from the source first finds
     * (tagger::HpccPathsFrom), d is the sum of delays, t the sum of one
     * payload's serialisation times and b the slowest link's rate.
     * \param topology the topology \param payloadBytes PACKET_PAYLOAD_SIZE
     * \return bytes (0 without two connected hosts)
     */
    static uint64_t MaxBdpBytes(const tagger::HpccTopology& topology, uint64_t payloadBytes);
    /**
     * The largest round trip between two hosts of \p topology, as MaxBdpBytes
     * takes it (HPCC's T with GLOBAL_T).
     * \param topology the topology \param payloadBytes PACKET_PAYLOAD_SIZE
     * \return ns (0 without two connected hosts)
     */
    static uint64_t MaxRttNs(const tagger::HpccTopology& topology, uint64_t payloadBytes);

  private:
    /// Note \p key as applied: \param key the key \param what what it set
    void Applied(const std::string& key, const std::string& what);
    /// \param key a key of the table \return the table's row
    static const Key& Row(const std::string& key);
    /// \return the ECN maps' rates cover every switch port of \p topology, else throw
    /// \param topology the topology
    void CheckEcnMaps(const tagger::HpccTopology& topology) const;
    /// CC_MODE 3: INT on the switches, HPCC's T from \p topology, U_TARGET, MI_THRESH,
    /// RATE_AI; \param topology the topology
    void SetHpccDefaults(const tagger::HpccTopology& topology);

    tagger::HpccConfig m_config;                             //!< the file
    std::string m_folder;                                    //!< its folder ("" = cwd)
    std::vector<std::pair<std::string, std::string>> m_done; //!< applied: key, what
    bool m_ecn = true;                                       //!< ENABLE_QCN
    std::optional<std::array<uint64_t, 3>> m_linkDown;       //!< LINK_DOWN a b c
};

} // namespace ns3

#endif /* HPCC_CONFIG_HELPER_H */
