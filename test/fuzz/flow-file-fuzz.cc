/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer target: ParseFlowFile (the reader behind LoadFlowFile, which
 * turns its error message into NS_FATAL_ERROR).  Bad input must give false
 * and a message; flows read must have distinct ends, at least one byte, a
 * start time not before 0 and a DSCP up to 63.
 */

#include "fuzz-util.h"
#include "rdma-workload.h"

#include <sstream>

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::istringstream in(tagger_fuzz::AsText(data, size));
    std::vector<GeneratedFlow> flows;
    std::string error;
    if (!ParseFlowFile(in, "fuzz.txt", &flows, &error))
    {
        tagger_fuzz::Require(!error.empty(), "ParseFlowFile gives a message when it fails");
        return 0;
    }
    for (const auto& f : flows)
    {
        tagger_fuzz::Require(f.src != f.dst && f.bytes >= 1 && !f.start.IsStrictlyNegative() &&
                                 f.dscp <= 63,
                             "flows read are valid");
    }
    return 0;
}
