/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer target: ReadTopologyJson.  Bad input must end in TaggerError;
 * a topology read must survive WriteTopologyJson and read back the same.
 */

#include "fuzz-util.h"
#include "tagger-io.h"

#include <sstream>

using namespace ns3::tagger;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::istringstream in(tagger_fuzz::AsText(data, size));
    Topology topo;
    try
    {
        topo = ReadTopologyJson(in, "fuzz.json");
    }
    catch (const TaggerError&)
    {
        return 0;
    }
    std::ostringstream first;
    WriteTopologyJson(topo, first);
    std::istringstream again(first.str());
    std::ostringstream second;
    WriteTopologyJson(ReadTopologyJson(again, "written.json"), second);
    tagger_fuzz::Require(first.str() == second.str(), "WriteTopologyJson round trip");
    return 0;
}
