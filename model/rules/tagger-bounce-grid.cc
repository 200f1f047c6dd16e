/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tagger-bounce-grid.h"

#include "tagger-topology-generators.h"

#include <cmath>
#include <cstdio>
#include <iomanip>
#include <sstream>

namespace ns3
{
namespace tagger
{

namespace
{

/// \param x a percentage \return it with 4 decimals
std::string
Pct(double x)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(4) << x;
    return os.str();
}

/// Check the grid's values; throws TaggerError naming the bad one. \param cfg the grid
void
CheckGrid(const BounceGridConfig& cfg)
{
    for (uint32_t k : cfg.ks)
    {
        if (k < 4 || k % 2 != 0)
        {
            throw TaggerError("bounce grid: k=" + std::to_string(k) + " is not even and >= 4");
        }
    }
    for (double r : cfg.rates)
    {
        if (!(r >= 0 && r <= 1))
        {
            throw TaggerError("bounce grid: failure rate " + std::to_string(r) +
                              " is not within [0, 1]");
        }
    }
    if (cfg.seeds == 0 || cfg.flows < cfg.seeds)
    {
        throw TaggerError("bounce grid: need at least one seed and one flow per seed");
    }
}

} // namespace

uint64_t
BounceRunSeed(uint64_t seed, uint32_t k, double rate, uint32_t s)
{
    return HashMix(HashMix(HashMix(seed, k), uint64_t(std::llround(rate * 1e9))), s);
}

std::vector<BouncePoint>
RunBounceGrid(const BounceGridConfig& cfg, const std::function<void(const BouncePoint&)>& progress)
{
    CheckGrid(cfg);
    std::vector<BouncePoint> points;
    for (uint32_t k : cfg.ks)
    {
        Topology topo = MakeFatTree(k);
        EcmpDistances dist(topo, cfg.threads);
        for (double rate : cfg.rates)
        {
            std::array<std::vector<double>, 5> pct; // once, twice, more, looped, unreachable
            BouncePoint p;
            p.k = k;
            p.rate = rate;
            p.seeds = cfg.seeds;
            for (uint32_t s = 0; s < cfg.seeds; ++s)
            {
                uint64_t runSeed = BounceRunSeed(cfg.seed, k, rate, s);
                uint64_t flows = cfg.flows / cfg.seeds + (s < cfg.flows % cfg.seeds ? 1 : 0);
                BounceRoutes routes(dist, DrawLinkFailures(topo, rate, runSeed), runSeed);
                BounceCounts c = RunBounceFlows(routes,
                                                dist,
                                                flows,
                                                HashMix(runSeed, 1),
                                                cfg.threads,
                                                cfg.redraw);
                p.flows += c.flows;
                uint64_t counts[5] = {c.bounced[1],
                                      c.bounced[2],
                                      c.bounced[3],
                                      c.looped,
                                      c.unreachable};
                for (int i = 0; i < 5; ++i)
                {
                    pct[i].push_back(100.0 * double(counts[i]) / double(c.flows));
                }
            }
            p.once = MeanCi95(pct[0]);
            p.twice = MeanCi95(pct[1]);
            p.more = MeanCi95(pct[2]);
            p.looped = MeanCi95(pct[3]);
            p.noRoute = MeanCi95(pct[4]);
            points.push_back(p);
            if (progress)
            {
                progress(p);
            }
        }
    }
    return points;
}

std::string
FormatBounceResult(const BouncePoint& p)
{
    std::ostringstream os;
    os << "RESULT k=" << p.k << " failure_rate=" << p.rate << " flows=" << p.flows
       << " once=" << Pct(p.once.mean) << " twice=" << Pct(p.twice.mean)
       << " more=" << Pct(p.more.mean) << " unreachable=" << Pct(p.looped.mean + p.noRoute.mean);
    return os.str();
}

std::string
BounceTableHeader()
{
    return "   k   fail%   once% (95% CI)        twice% (95% CI)      more% (95% CI)"
           "       looped%  noroute%\n";
}

std::string
FormatBounceRow(const BouncePoint& p)
{
    char row[160];
    std::snprintf(row,
                  sizeof(row),
                  "%4u %7.1f %8.4f +- %-8.4f %8.4f +- %-8.4f %8.4f +- %-8.4f %9.4f %9.4f\n",
                  p.k,
                  100 * p.rate,
                  p.once.mean,
                  p.once.half,
                  p.twice.mean,
                  p.twice.half,
                  p.more.mean,
                  p.more.half,
                  p.looped.mean,
                  p.noRoute.mean);
    return row;
}

std::string
BouncePlotImage(const std::string& plot)
{
    const std::string ext = ".plt";
    bool plt =
        plot.size() > ext.size() && plot.compare(plot.size() - ext.size(), ext.size(), ext) == 0;
    return (plt ? plot.substr(0, plot.size() - ext.size()) : plot) + ".png";
}

void
WriteBounceCsv(std::ostream& os, const std::vector<BouncePoint>& points)
{
    os << "k,failure_rate,flows,seeds,once,once_ci,twice,twice_ci,more,more_ci,looped,"
          "looped_ci,no_route,no_route_ci\n";
    for (const BouncePoint& p : points)
    {
        os << p.k << ',' << p.rate << ',' << p.flows << ',' << p.seeds;
        for (const MeanCi* m : {&p.once, &p.twice, &p.more, &p.looped, &p.noRoute})
        {
            os << ',' << Pct(m->mean) << ',' << Pct(m->half);
        }
        os << '\n';
    }
}

void
WriteBouncePlot(std::ostream& os,
                const std::string& csv,
                const std::string& png,
                const std::vector<uint32_t>& ks)
{
    os << "# Tagger (ToN) Fig. 14: flows bounced under link failures (flow-level model)\n"
       << "set terminal png size 1500,450\nset output '" << png << "'\n"
       << "set datafile separator ','\nset key top left\nset grid\n"
       << "set xlabel 'link failure rate (%)'\nset ylabel 'flows (%)'\nset yrange [0:*]\n"
       << "set multiplot layout 1,3\n";
    const char* titles[] = {"(a) bounced once", "(b) bounced twice", "(c) bounced more than twice"};
    for (int panel = 0; panel < 3; ++panel)
    {
        int col = 5 + 2 * panel; // once, twice, more; the CI follows each
        os << "set title '" << titles[panel] << "'\nplot ";
        for (std::size_t i = 0; i < ks.size(); ++i)
        {
            os << (i ? ", \\\n     " : "") << "'" << csv << "' using ($2*100):($1==" << ks[i]
               << " ? $" << col << " : 1/0):" << col + 1 << " with yerrorlines title 'k=" << ks[i]
               << "'";
        }
        os << "\n";
    }
    os << "unset multiplot\n";
}

} // namespace tagger
} // namespace ns3
