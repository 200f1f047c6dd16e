/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 */

#ifndef TAGGER_BOUNCE_GRID_H
#define TAGGER_BOUNCE_GRID_H

#include "tagger-bounce-model.h"

#include <array>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup tagger
 * The grid of Tagger (ToN) Fig. 14: the bounce model over fat-tree sizes,
 * failure rates and seeds, with confidence intervals, CSV and gnuplot output.
 */

namespace ns3
{
namespace tagger
{

/// What RunBounceGrid runs.
struct BounceGridConfig
{
    std::vector<uint32_t> ks;                                    //!< fat-tree port counts
    std::vector<double> rates{0.01, 0.02, 0.05, 0.1, 0.15, 0.2}; //!< link failure rates
    uint64_t flows{1000000};                                     //!< flows per (k, rate)
    uint32_t seeds{10};  //!< failure draws per (k, rate); the flows are split among them
    uint64_t seed{1};    //!< base seed
    unsigned threads{1}; //!< worker threads (the results do not depend on them)
    bool redraw{false};  //!< WalkFlow's redraw variant (a sensitivity check)
};

/// The results of one (k, rate) point, percentages of all its flows.
struct BouncePoint
{
    uint32_t k{0};     //!< fat-tree port count
    double rate{0};    //!< link failure rate
    uint64_t flows{0}; //!< flows walked over all seeds
    uint32_t seeds{0}; //!< failure draws
    MeanCi once;       //!< delivered after one bounce (%)
    MeanCi twice;      //!< delivered after two bounces (%)
    MeanCi more;       //!< delivered after more than two bounces (%)
    MeanCi looped;     //!< looped or ran out of TTL (%)
    MeanCi noRoute;    //!< met a switch without route (%)
};

/**
 * Run the model for every k and rate: seed number s of (k, rate) draws
 * its failures (DrawLinkFailures), reroute choices and flows from
 * BounceRunSeed(seed, k, rate, s) and walks flows / seeds flows (the first
 * flows % seeds seeds one more).  \p progress is called after each point.
 * Throws TaggerError for an odd k or k < 4, a rate outside [0, 1], no
 * flows or fewer flows than seeds.
 * \param cfg the grid \param progress called with each point done (may be empty)
 * \return the points, k-major in the order given
 */
std::vector<BouncePoint> RunBounceGrid(const BounceGridConfig& cfg,
                                       const std::function<void(const BouncePoint&)>& progress);

/// \param seed base seed \param k port count \param rate failure rate \param s seed number
/// \return the seed of one run of the grid
uint64_t BounceRunSeed(uint64_t seed, uint32_t k, double rate, uint32_t s);

/// \param p a point \return "RESULT k=.. failure_rate=.. flows=.. once=.. twice=.. more=..
/// unreachable=.." (percentages; unreachable: never delivered, looped or no route)
std::string FormatBounceResult(const BouncePoint& p);

/// \return the header of the table FormatBounceRow writes (two lines, ending in a newline)
std::string BounceTableHeader();

/// \param p a point \return its table row: k, failure rate, once, twice and more (% with the
/// 95 % CI half-widths), looped and no route (%), ending in a newline
std::string FormatBounceRow(const BouncePoint& p);

/// \param plot a gnuplot script's name \return the image it draws: the name with ".plt"
/// replaced by ".png" (".png" appended when it does not end in ".plt")
std::string BouncePlotImage(const std::string& plot);

/// Write the points as CSV (header line, then one row per point).
/// \param os the stream \param points the points
void WriteBounceCsv(std::ostream& os, const std::vector<BouncePoint>& points);

/**
 * Write a gnuplot script drawing the three panels of Fig. 14 (flows bounced
 * once, twice, more than twice, in % against the failure rate in %, one
 * line with 95 % error bars per k) from \p csv into \p png.
 * \param os the stream \param csv the CSV file (WriteBounceCsv)
 * \param png the image to write \param ks the port counts
 */
void WriteBouncePlot(std::ostream& os,
                     const std::string& csv,
                     const std::string& png,
                     const std::vector<uint32_t>& ks);

} // namespace tagger
} // namespace ns3

#endif /* TAGGER_BOUNCE_GRID_H */
