/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 */

#ifndef TAGGER_TOPOLOGY_H
#define TAGGER_TOPOLOGY_H

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{
namespace tagger
{

/**
 * \p text with every byte that would not show as itself escaped as \\xNN:
 * control characters (NUL, CR, ...), DEL, bytes that are not well-formed
 * UTF-8 (a UTF-16 or Latin-1 file), and the invisible code points U+0080 to
 * U+009F, U+00A0, U+00AD, U+200B to U+200F, U+2028, U+2029, U+2060 and
 * U+FEFF (the byte order mark).  Other UTF-8 stays as it is.
 * \param text the text \return it, printable on one line
 */
std::string PrintableText(const std::string& text);

/**
 * \ingroup tagger
 * \brief Error raised by the algorithm library for input a user can get wrong
 * (unknown node, port out of range, malformed file, ...).  The message names
 * the thing at fault and is meant to be printed as is: the input's bytes in it
 * are made printable (PrintableText), so a NUL or a byte order mark read from a
 * file shows in the message.
 */
class TaggerError : public std::runtime_error
{
  public:
    explicit TaggerError(const std::string& what)
        : std::runtime_error(PrintableText(what))
    {
    }
};

/// Node identifier inside a Topology (dense, 0..GetNNodes()-1).
using NodeId = uint32_t;
/// Port number on a node (0..ports-1).
using PortNo = uint32_t;
/// Dense port index over the whole topology (0..GetNPorts()-1).
using PortIndex = uint32_t;

/// Marks "no node" / "no port".
constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

/// The kind of a topology node.
enum class NodeKind
{
    SWITCH,
    HOST
};

/**
 * \brief A node of the topology: a switch, or a host (server).
 *
 * Hosts with relay == true forward packets (BCube servers); for the tagging
 * algorithms they behave as switches for transit traffic.
 */
struct TopoNode
{
    std::string name; //!< unique name, e.g. "T1", "H3"
    NodeKind kind{NodeKind::SWITCH};
    uint32_t ports{0}; //!< number of ports, numbered 0..ports-1
    /**
     * Clos layer: 0 host, 1 ToR, 2 leaf / aggregation, 3 spine / core;
     * -1 when the topology has no layers (Jellyfish, GraphML, ...).
     */
    int32_t layer{-1};
    bool relay{false}; //!< a host that forwards transit traffic (BCube)
};

/// One end of a link: (node, port).
struct PortRef
{
    NodeId node{kNone};
    PortNo port{kNone};

    bool operator==(const PortRef& o) const
    {
        return node == o.node && port == o.port;
    }

    bool operator!=(const PortRef& o) const
    {
        return !(*this == o);
    }
};

/// A full-duplex link between two ports.
struct TopoLink
{
    PortRef a;
    PortRef b;
};

/**
 * \ingroup tagger
 * \brief Switches and hosts with numbered ports, and links between ports.
 *
 * Every port has a dense global PortIndex, so per-port tables are flat
 * vectors.  A port is connected to at most one link.
 */
class Topology
{
  public:
    /**
     * Add a node.  Throws TaggerError when the name is empty or taken.
     * \return the new node's id
     */
    NodeId AddNode(const std::string& name,
                   NodeKind kind,
                   uint32_t ports,
                   int32_t layer = -1,
                   bool relay = false);

    /**
     * Connect (a, aPort) with (b, bPort).  Throws TaggerError when a node id
     * or port is out of range, a port is already connected, or a == b.
     */
    void AddLink(NodeId a, PortNo aPort, NodeId b, PortNo bPort);

    /// Connect the lowest free ports of a and b; throws when none is free.
    void Connect(NodeId a, NodeId b);

    uint32_t GetNNodes() const
    {
        return static_cast<uint32_t>(m_nodes.size());
    }

    const TopoNode& GetNode(NodeId n) const
    {
        return m_nodes[n];
    }

    const std::vector<TopoLink>& GetLinks() const
    {
        return m_links;
    }

    /// \return the node with that name, or kNone
    NodeId FindNode(const std::string& name) const;
    /// \return the node with that name; throws TaggerError naming it when unknown
    NodeId GetNodeId(const std::string& name) const;

    /// Total number of ports over all nodes.
    uint32_t GetNPorts() const
    {
        return static_cast<uint32_t>(m_peer.size());
    }

    /// Dense index of (node, port).
    PortIndex GetPortIndex(NodeId node, PortNo port) const
    {
        return m_portBase[node] + port;
    }

    /// Inverse of GetPortIndex.
    PortRef GetPortRef(PortIndex idx) const;

    /// The far end of (node, port); {kNone, kNone} when the port is unconnected.
    PortRef GetPeer(NodeId node, PortNo port) const
    {
        return m_peer[m_portBase[node] + port];
    }

    /// The lowest-numbered port of a connected to b, or kNone.
    PortNo GetPortTo(NodeId a, NodeId b) const;

    /// Switches and relaying hosts: nodes that forward transit packets.
    bool IsForwarder(NodeId n) const
    {
        return m_nodes[n].kind == NodeKind::SWITCH || m_nodes[n].relay;
    }

    bool IsHost(NodeId n) const
    {
        return m_nodes[n].kind == NodeKind::HOST;
    }

    /// Ids of all hosts, in id order.
    std::vector<NodeId> GetHosts() const;
    /// Ids of all switches, in id order.
    std::vector<NodeId> GetSwitches() const;

    /// Neighbours of n over its connected ports (with repetition for parallel links).
    std::vector<NodeId> GetNeighbors(NodeId n) const;

    /// true when every node has a layer >= 0 (a Clos-like layered topology).
    bool IsLayered() const;

    /// true when the node graph (hosts and switches) is connected.
    bool IsConnected() const;

  private:
    std::vector<TopoNode> m_nodes;
    std::vector<TopoLink> m_links;
    std::vector<PortIndex> m_portBase; //!< first PortIndex of each node
    std::vector<PortRef> m_peer;       //!< per PortIndex: the far end
    std::unordered_map<std::string, NodeId> m_byName;
};

} // namespace tagger
} // namespace ns3

#endif /* TAGGER_TOPOLOGY_H */
