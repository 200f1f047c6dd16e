/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer target: the HPCC-family files (tagger-io-hpcc.h).  An even first
 * byte makes the rest a topology file for ReadHpccTopology, an odd one a
 * flow file for ReadHpccFlows on a fixed topology (hosts 0..2, switch 3).
 * Bad input must end in TaggerError; what is read must be written without
 * error, read back as the same, and written again as the same text.
 */

#include "fuzz-util.h"
#include "tagger-io-hpcc.h"

#include <sstream>

using namespace ns3::tagger;

namespace
{

/// Topology file text: read, write, read, write; the two texts must agree.
void
TopologyRoundTrip(const std::string& text)
{
    std::istringstream in(text);
    HpccTopology first;
    try
    {
        first = ReadHpccTopology(in, "fuzz.txt");
    }
    catch (const TaggerError&)
    {
        return;
    }
    std::ostringstream out;
    WriteHpccTopology(first, out); // in the layout read
    std::istringstream again(out.str());
    HpccTopology second = ReadHpccTopology(again, "written.txt");
    tagger_fuzz::Require(second.topo.GetNNodes() == first.topo.GetNNodes() &&
                             second.topo.GetLinks().size() == first.topo.GetLinks().size() &&
                             second.header == first.header && second.torCount == first.torCount,
                         "HPCC topology round trip: node and link counts, first line");
    std::ostringstream out2;
    WriteHpccTopology(second, out2);
    tagger_fuzz::Require(out.str() == out2.str(), "HPCC topology round trip: text");
}

/// Flow file text: read, write, read, write; the two texts must agree.
void
FlowRoundTrip(const std::string& text)
{
    static const Topology topo = [] {
        std::istringstream in("4 1 3\n3\n0 3 1Gbps 1us 0\n1 3 1Gbps 1us 0\n2 3 1Gbps 1us 0\n");
        return ReadHpccTopology(in, "fixed.txt").topo;
    }();
    std::istringstream in(text);
    std::vector<HpccFlow> flows;
    try
    {
        flows = ReadHpccFlows(in, "fuzz.txt", topo);
    }
    catch (const TaggerError&)
    {
        return;
    }
    std::ostringstream out;
    WriteHpccFlows(flows, out);
    std::istringstream again(out.str());
    std::ostringstream out2;
    WriteHpccFlows(ReadHpccFlows(again, "written.txt", topo), out2);
    tagger_fuzz::Require(out.str() == out2.str(), "HPCC flow round trip: text");
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size == 0)
    {
        return 0;
    }
    std::string text = tagger_fuzz::AsText(data + 1, size - 1);
    if (data[0] % 2 == 0)
    {
        TopologyRoundTrip(text);
    }
    else
    {
        FlowRoundTrip(text);
    }
    return 0;
}
