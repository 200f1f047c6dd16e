/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer target: FlowSizeCdf::Parse (the reader behind FlowSizeCdf::Load,
 * which turns its error message into NS_FATAL_ERROR).  Bad input must give
 * false and a message; a CDF read must give finite means, sizes of at least
 * one byte and probabilities in [0, 1].
 */

#include "fuzz-util.h"
#include "rdma-workload.h"

#include <cmath>
#include <sstream>

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::istringstream in(tagger_fuzz::AsText(data, size));
    FlowSizeCdf cdf;
    std::string error;
    if (!cdf.Parse(in, "fuzz.cdf", &error))
    {
        tagger_fuzz::Require(!error.empty(), "Parse gives a message when it fails");
        return 0;
    }
    tagger_fuzz::Require(!cdf.GetPoints().empty(), "a CDF read has points");
    tagger_fuzz::Require(std::isfinite(cdf.GetMean()), "finite mean");
    for (double u : {0.0, 1e-12, 0.25, 0.5, 0.999999, 1.0})
    {
        tagger_fuzz::Require(cdf.Quantile(u) >= 1, "Quantile >= 1 byte");
    }
    for (const auto& point : cdf.GetPoints())
    {
        double p = cdf.Cdf(point.first);
        tagger_fuzz::Require(p >= 0 && p <= 1, "Cdf in [0, 1]");
    }
    return 0;
}
