/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer target: ReadRulesJson for the triangle of data/triangle.json
 * (TAGGER_FUZZ_TOPOLOGY).  Bad input must end in TaggerError; rules read
 * must survive WriteRulesJson and read back the same.
 */

#include "fuzz-util.h"
#include "tagger-io.h"

#include <sstream>

using namespace ns3::tagger;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static const Topology topo = ReadTopologyFile(TAGGER_FUZZ_TOPOLOGY, 0);
    std::istringstream in(tagger_fuzz::AsText(data, size));
    uint32_t losslessTags = 0;
    TagRules rules;
    try
    {
        rules = ReadRulesJson(topo, in, "fuzz.json", losslessTags);
    }
    catch (const TaggerError&)
    {
        return 0;
    }
    RulesOutput out;
    out.losslessTags = losslessTags;
    out.rules = &rules;
    std::ostringstream first;
    WriteRulesJson(topo, out, first);
    std::istringstream again(first.str());
    uint32_t againTags = 0;
    TagRules reread = ReadRulesJson(topo, again, "written.json", againTags);
    out.losslessTags = againTags;
    out.rules = &reread;
    std::ostringstream second;
    WriteRulesJson(topo, out, second);
    tagger_fuzz::Require(againTags == losslessTags && first.str() == second.str(),
                         "WriteRulesJson round trip");
    return 0;
}
