/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer target: the HPCC-family files (tagger-io-hpcc.h,
 * tagger-io-hpcc-config.h).  A first byte of 0xf0 or more makes the rest a
 * config file for HpccConfig, whose every getter is tried on every key; else
 * an even first byte makes the rest a topology file for ReadHpccTopology, an
 * odd one a flow file for ReadHpccFlows on a fixed topology (hosts 0..2,
 * switch 3).  Bad input must end in TaggerError; what is read must be
 * written without error, read back as the same, and written again as the
 * same text.
 */

#include "fuzz-util.h"
#include "tagger-io-hpcc-config.h"
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

/// Config file text: every getter on every key ends in a value or a TaggerError.
void
ConfigGetters(const std::string& text)
{
    std::istringstream in(text);
    try
    {
        HpccConfig config(in, "fuzz.txt");
        for (const HpccConfigLine& line : config.GetLines())
        {
            tagger_fuzz::Require(config.Has(line.key) &&
                                     config.Where(line.key).compare(0, 9, "fuzz.txt:") == 0,
                                 "HPCC config: a key read is found, with its place");
            auto attempt = [](const auto& get) {
                try
                {
                    get();
                }
                catch (const TaggerError&)
                {
                }
            };
            attempt([&] { config.GetString(line.key); });
            attempt([&] {
                double v = config.GetNumber(line.key, 0, 1e6);
                tagger_fuzz::Require(v >= 0 && v <= 1e6, "HPCC config: number in bounds");
            });
            attempt([&] {
                uint64_t v = config.GetUnsigned(line.key, 1, 1000);
                tagger_fuzz::Require(v >= 1 && v <= 1000, "HPCC config: whole number in bounds");
            });
            attempt([&] { config.GetRate(line.key); });
            attempt([&] {
                auto map = config.GetRateMap(line.key, 0, 1);
                tagger_fuzz::Require(!map.empty() && line.values.size() == 1 + 2 * map.size(),
                                     "HPCC config: map of n pairs");
            });
            attempt([&] { config.GetUnsignedList(line.key, 3); });
        }
    }
    catch (const TaggerError&)
    {
    }
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
    if (data[0] >= 0xf0)
    {
        ConfigGetters(text);
    }
    else if (data[0] % 2 == 0)
    {
        TopologyRoundTrip(text);
    }
    else
    {
        FlowRoundTrip(text);
    }
    return 0;
}
