/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer target: ReadTopologyFile (and so ReadGraphml or ReadTopologyJson,
 * whichever the content sniffing picks).  The first byte chooses
 * hostsPerSwitch (0..3) and the rest is the file.  Bad input must end in
 * TaggerError; a topology read must survive WriteTopologyJson and read back
 * the same.
 */

#include "fuzz-util.h"
#include "tagger-io.h"

#include <sstream>

using namespace ns3::tagger;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static tagger_fuzz::ScratchFile file;
    if (size == 0)
    {
        return 0;
    }
    const uint32_t hostsPerSwitch = data[0] % 4;
    const std::string& path = file.Write(tagger_fuzz::AsText(data + 1, size - 1));
    Topology topo;
    try
    {
        topo = ReadTopologyFile(path, hostsPerSwitch);
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
