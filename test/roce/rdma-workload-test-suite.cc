/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * Tests of the flow workloads (model/roce/rdma-workload.h), added to the ns-3
 * TestSuite "tagger-roce" through MakeRdmaWorkloadTestCases(): the flow-size
 * CDF (the two shipped distributions: points, mean, quantiles) and the
 * Poisson generator (sizes against the CDF by a Kolmogorov-Smirnov test,
 * offered load, patterns, determinism, bad arguments).  Parsing CDFs and
 * flow files: rdma-workload-parse-test-suite.cc.
 *
 * Every expected value is derived by hand from the tables in the comments,
 * never taken from the code's output.  The shipped distributions
 * (data/websearch.cdf, data/datamining.cdf) are found as the examples find
 * them, with FindTaggerDataFile: data/ seen from the working directory (../data
 * from the standalone build directory, contrib/tagger/data from the top of an
 * ns-3 tree) or $TAGGER_DATA_DIR.
 */

#include "../tagger-test-helpers.h"

#include "ns3/data-rate.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/rdma-workload.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/test.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;
using tagger::test::CheckFatalError;
using tagger::test::FourUlp;

NS_LOG_COMPONENT_DEFINE("RdmaWorkloadTestSuite");

namespace
{

/// Web search (DCTCP): bytes -> cumulative percent, as given in the task.
const std::vector<std::pair<double, double>> kWebSearchPercent = {
    {0, 0},
    {10000, 15},
    {20000, 20},
    {30000, 30},
    {50000, 40},
    {80000, 53},
    {200000, 60},
    {1000000, 70},
    {2000000, 80},
    {5000000, 90},
    {10000000, 97},
    {30000000, 100},
};

/// Data mining (VL2): bytes -> cumulative fraction.
const std::vector<std::pair<double, double>> kDataMining = {
    {100, 0},
    {180, 0.085},
    {250, 0.14},
    {560, 0.33},
    {900, 0.47},
    {1100, 0.55},
    {1870, 0.65},
    {3160, 0.7},
    {10000, 0.8},
    {100001, 0.874},
    {400000, 0.9},
    {1850000, 0.95},
    {10000000, 0.97},
    {30000000, 0.98},
    {100000000, 0.99},
    {250000000, 0.995},
    {1000000000, 1},
};

/// Web search points as fractions.
std::vector<std::pair<double, double>>
WebSearchFraction()
{
    std::vector<std::pair<double, double>> v;
    for (const auto& [x, p] : kWebSearchPercent)
    {
        v.emplace_back(x, p / 100);
    }
    return v;
}

/**
 * A reference CDF written here, independently of FlowSizeCdf::Cdf: 0 below
 * the first point, linear between points, 1 from the last point on.
 */
double
RefCdf(const std::vector<std::pair<double, double>>& pts, double x)
{
    if (x < pts.front().first)
    {
        return 0;
    }
    for (size_t i = 1; i < pts.size(); ++i)
    {
        if (x < pts[i].first)
        {
            double a = pts[i - 1].first;
            double b = pts[i].first;
            return pts[i - 1].second + (x - a) / (b - a) * (pts[i].second - pts[i - 1].second);
        }
    }
    return 1;
}

/// Hosts first..first+n-1.
std::vector<uint32_t>
Hosts(uint32_t first, uint32_t n)
{
    std::vector<uint32_t> v;
    for (uint32_t i = 0; i < n; ++i)
    {
        v.push_back(first + i);
    }
    return v;
}

/**
 * \ingroup tagger-tests
 * A test case of the flow workloads.  A seeded one runs with RngSeed 1 and
 * RngRun 1 and restores the values it found afterwards.
 */
class WorkloadTestCase : public TestCase
{
  protected:
    /// \param name the test case's name \param seeded whether to set RngSeed/RngRun
    WorkloadTestCase(const std::string& name, bool seeded)
        : TestCase(name),
          m_seeded(seeded)
    {
    }

    /// \return a small distribution, for pattern tests: uniform 1000..2000 bytes
    FlowSizeCdf Small()
    {
        FlowSizeCdf cdf;
        std::istringstream in("1000 0\n2000 1\n");
        std::string error;
        bool ok = cdf.Parse(in, "small", &error);
        NS_TEST_EXPECT_MSG_EQ(ok, true, error);
        return cdf;
    }

  private:
    void DoSetup() override
    {
        if (m_seeded)
        {
            m_seed = RngSeedManager::GetSeed();
            m_run = RngSeedManager::GetRun();
            RngSeedManager::SetSeed(1);
            RngSeedManager::SetRun(1);
        }
    }

    void DoTeardown() override
    {
        if (m_seeded)
        {
            RngSeedManager::SetSeed(m_seed);
            RngSeedManager::SetRun(m_run);
        }
    }

    bool m_seeded;       //!< set RngSeed/RngRun while running
    uint32_t m_seed = 1; //!< seed found
    uint64_t m_run = 1;  //!< run found
};

// ---------------------------------------------------------------------------
// FlowSizeCdf: the shipped files

/**
 * \ingroup tagger-tests
 * data/websearch.cdf: its points, mean, quantiles and CDF, by hand.
 */
class WebSearchCdfTestCase : public WorkloadTestCase
{
  public:
    WebSearchCdfTestCase()
        : WorkloadTestCase("FlowSizeCdf: the shipped web search file", false)
    {
    }

  private:
    void DoRun() override
    {
        FlowSizeCdf cdf = FlowSizeCdf::Load(FindTaggerDataFile("websearch.cdf"));
        auto expected = WebSearchFraction();
        NS_TEST_ASSERT_MSG_EQ(cdf.GetPoints().size(), expected.size(), "points");
        if (IsStatusFailure())
        {
            return;
        }
        for (size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(cdf.GetPoints()[i].first,
                                      expected[i].first,
                                      FourUlp(expected[i].first),
                                      i);
            NS_TEST_EXPECT_MSG_EQ_TOL(cdf.GetPoints()[i].second,
                                      expected[i].second,
                                      FourUlp(expected[i].second),
                                      i);
        }
        // Mean = sum over segments of (p1 - p0) * (x0 + x1) / 2:
        //   0.15 *     5,000 =     750      0.07 *   140,000 =   9,800
        //   0.05 *    15,000 =     750      0.10 *   600,000 =  60,000
        //   0.10 *    25,000 =   2,500      0.10 * 1,500,000 = 150,000
        //   0.10 *    40,000 =   4,000      0.10 * 3,500,000 = 350,000
        //   0.13 *    65,000 =   8,450      0.07 * 7,500,000 = 525,000
        //                                   0.03 *20,000,000 = 600,000
        //   total 1,711,250 bytes (about 1.7 MB).
        NS_TEST_EXPECT_MSG_EQ_TOL(cdf.GetMean(), 1711250.0, 1e-6 * 1711250.0, "mean");

        // Quantile at the points (whole bytes; size 0 becomes the 1-byte minimum).
        NS_TEST_EXPECT_MSG_EQ(cdf.Quantile(0.0), 1U, "Quantile(0)");
        NS_TEST_EXPECT_MSG_EQ(cdf.Quantile(0.15), 10000U, "Quantile(0.15)");
        NS_TEST_EXPECT_MSG_EQ(cdf.Quantile(0.20), 20000U, "Quantile(0.20)");
        NS_TEST_EXPECT_MSG_EQ(cdf.Quantile(0.53), 80000U, "Quantile(0.53)");
        NS_TEST_EXPECT_MSG_EQ(cdf.Quantile(0.90), 5000000U, "Quantile(0.90)");
        NS_TEST_EXPECT_MSG_EQ(cdf.Quantile(1.0), 30000000U, "Quantile(1)");
        // Between points: 0.175 is half way from 0.15 to 0.20 -> 15,000;
        // 0.565 half way from 0.53 to 0.60 -> 80,000 + 120,000 / 2 = 140,000;
        // 0.985 is 0.015 / 0.03 = half way from 1e7 to 3e7 -> 2e7;
        // 0.1 -> 0.1 / 0.15 * 10,000 = 6,666.67, rounded up -> 6,667.
        NS_TEST_EXPECT_MSG_EQ(cdf.Quantile(0.175), 15000U, "Quantile(0.175)");
        NS_TEST_EXPECT_MSG_EQ(cdf.Quantile(0.565), 140000U, "Quantile(0.565)");
        NS_TEST_EXPECT_MSG_EQ(cdf.Quantile(0.985), 20000000U, "Quantile(0.985)");
        NS_TEST_EXPECT_MSG_EQ(cdf.Quantile(0.1), 6667U, "Quantile(0.1)");

        // Cdf: 15,000 -> 0.175, 140,000 -> 0.565, 4,000,000 -> 0.8 + 2/3 * 0.1.
        NS_TEST_EXPECT_MSG_EQ_TOL(cdf.Cdf(15000), 0.175, 1e-12, "Cdf(15,000)");
        NS_TEST_EXPECT_MSG_EQ_TOL(cdf.Cdf(140000), 0.565, 1e-12, "Cdf(140,000)");
        NS_TEST_EXPECT_MSG_EQ_TOL(cdf.Cdf(4000000), 0.8 + 0.1 * 2 / 3, 1e-12, "Cdf(4e6)");
        NS_TEST_EXPECT_MSG_EQ(cdf.Cdf(-1), 0.0, "Cdf(-1)");
        NS_TEST_EXPECT_MSG_EQ(cdf.Cdf(0), 0.0, "Cdf(0)");
        NS_TEST_EXPECT_MSG_EQ(cdf.Cdf(30000000), 1.0, "Cdf(3e7)");
        NS_TEST_EXPECT_MSG_EQ(cdf.Cdf(1e12), 1.0, "Cdf(1e12)");
    }
};

/**
 * \ingroup tagger-tests
 * data/datamining.cdf: its points, mean, quantiles and CDF, by hand.
 */
class DataMiningCdfTestCase : public WorkloadTestCase
{
  public:
    DataMiningCdfTestCase()
        : WorkloadTestCase("FlowSizeCdf: the shipped data mining file", false)
    {
    }

  private:
    void DoRun() override
    {
        FlowSizeCdf cdf = FlowSizeCdf::Load(FindTaggerDataFile("datamining.cdf"));
        NS_TEST_ASSERT_MSG_EQ(cdf.GetPoints().size(), kDataMining.size(), "points");
        if (IsStatusFailure())
        {
            return;
        }
        for (size_t i = 0; i < kDataMining.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(cdf.GetPoints()[i].first,
                                      kDataMining[i].first,
                                      FourUlp(kDataMining[i].first),
                                      i);
            NS_TEST_EXPECT_MSG_EQ_TOL(cdf.GetPoints()[i].second,
                                      kDataMining[i].second,
                                      FourUlp(kDataMining[i].second),
                                      i);
        }
        // Mean, segment by segment, (p1 - p0) * (x0 + x1) / 2:
        //   0.085*140 = 11.9, 0.055*215 = 11.825, 0.19*405 = 76.95, 0.14*730 = 102.2,
        //   0.08*1000 = 80, 0.10*1485 = 148.5, 0.05*2515 = 125.75, 0.10*6580 = 658,
        //   0.074*55000.5 = 4070.037, 0.026*250000.5 = 6500.013,
        //   0.05*1,125,000 = 56,250, 0.02*5,925,000 = 118,500,
        //   0.01*2e7 = 200,000, 0.01*6.5e7 = 650,000, 0.005*1.75e8 = 875,000,
        //   0.005*6.25e8 = 3,125,000
        //   total 5,036,535.175 bytes (about 5.0 MB).
        NS_TEST_EXPECT_MSG_EQ_TOL(cdf.GetMean(), 5036535.175, 1e-6 * 5036535.175, "mean");

        NS_TEST_EXPECT_MSG_EQ(cdf.Quantile(0.0), 100U, "Quantile(0)");
        NS_TEST_EXPECT_MSG_EQ(cdf.Quantile(0.085), 180U, "Quantile(0.085)");
        NS_TEST_EXPECT_MSG_EQ(cdf.Quantile(0.874), 100001U, "Quantile(0.874)");
        NS_TEST_EXPECT_MSG_EQ(cdf.Quantile(1.0), 1000000000U, "Quantile(1)");
        // 0.1125: half way 0.085..0.14 -> 180 + 35 = 215; 0.5: 0.03/0.08 of
        // 900..1100 -> 975; 0.9975: half way 2.5e8..1e9 -> 6.25e8.
        NS_TEST_EXPECT_MSG_EQ(cdf.Quantile(0.1125), 215U, "Quantile(0.1125)");
        NS_TEST_EXPECT_MSG_EQ(cdf.Quantile(0.5), 975U, "Quantile(0.5)");
        NS_TEST_EXPECT_MSG_EQ(cdf.Quantile(0.9975), 625000000U, "Quantile(0.9975)");

        NS_TEST_EXPECT_MSG_EQ(cdf.Cdf(99), 0.0, "Cdf(99)");
        NS_TEST_EXPECT_MSG_EQ(cdf.Cdf(100), 0.0, "Cdf(100)");
        NS_TEST_EXPECT_MSG_EQ_TOL(cdf.Cdf(140), 0.0425, 1e-12, "Cdf(140)");
        NS_TEST_EXPECT_MSG_EQ_TOL(cdf.Cdf(975), 0.5, 1e-12, "Cdf(975)");
        NS_TEST_EXPECT_MSG_EQ(cdf.Cdf(1e9), 1.0, "Cdf(1e9)");
    }
};

/**
 * \ingroup tagger-tests
 * On both shipped files, Cdf agrees with RefCdf and Quantile inverts it:
 * Quantile(u) is the smallest whole size k with Cdf(k) >= u.
 */
class CdfInvertsQuantileTestCase : public WorkloadTestCase
{
  public:
    CdfInvertsQuantileTestCase()
        : WorkloadTestCase("FlowSizeCdf: Cdf inverts Quantile", false)
    {
    }

  private:
    void DoRun() override
    {
        for (const char* file : {"websearch.cdf", "datamining.cdf"})
        {
            FlowSizeCdf cdf = FlowSizeCdf::Load(FindTaggerDataFile(file));
            const auto& pts = cdf.GetPoints();
            // Cdf agrees with the reference interpolation written in this file.
            for (double x = 1; x < 2e9; x *= 1.37)
            {
                NS_TEST_EXPECT_MSG_EQ_TOL(cdf.Cdf(x), RefCdf(pts, x), 1e-12, file << " x=" << x);
            }
            // Quantile(u) is the smallest whole size k with Cdf(k) >= u.
            for (int i = 1; i <= 1000; ++i)
            {
                double u = i / 1000.0;
                uint64_t k = cdf.Quantile(u);
                NS_TEST_EXPECT_MSG_GT_OR_EQ(RefCdf(pts, double(k)), u - 1e-12, file << " u=" << u);
                if (k > 1 && double(k) > pts.front().first)
                {
                    NS_TEST_EXPECT_MSG_LT(RefCdf(pts, double(k - 1)),
                                          u + 1e-12,
                                          file << " u=" << u);
                }
            }
            // And Quantile(Cdf(k)) = k for whole sizes inside the support.
            for (double x : {150.0, 777.0, 12345.0, 654321.0, 7654321.0, 123456789.0})
            {
                if (x > pts.front().first && x < pts.back().first)
                {
                    NS_TEST_EXPECT_MSG_EQ(cdf.Quantile(cdf.Cdf(x)), uint64_t(x), file);
                }
            }
        }
    }
};

// ---------------------------------------------------------------------------
// RdmaFlowGenerator: sizes (Kolmogorov-Smirnov) and load

/**
 * The Kolmogorov-Smirnov distance between the sample and the reference CDF.
 * The sizes are whole bytes and, by construction, P(size <= k) = F(k) at every
 * whole k, so the sample is compared with that step function: at each distinct
 * value k, F_n(k) against F(k) and F_n(k-) (the fraction below k) against F(k-1).
 */
double
KsDistance(std::vector<uint64_t> sizes, const std::vector<std::pair<double, double>>& pts)
{
    std::sort(sizes.begin(), sizes.end());
    const double n = double(sizes.size());
    double d = 0;
    size_t i = 0;
    while (i < sizes.size())
    {
        size_t j = i;
        while (j < sizes.size() && sizes[j] == sizes[i])
        {
            ++j;
        }
        double k = double(sizes[i]);
        d = std::max(d, std::abs(double(i) / n - RefCdf(pts, k - 1)));
        d = std::max(d, std::abs(double(j) / n - RefCdf(pts, k)));
        i = j;
    }
    return d;
}

/**
 * \ingroup tagger-tests
 * 100,000 generated sizes of each shipped distribution pass a one-sample
 * Kolmogorov-Smirnov test at the 1 % level, and fail it against the same
 * distribution shifted by 10 %.
 */
class GeneratorSizesTestCase : public WorkloadTestCase
{
  public:
    GeneratorSizesTestCase()
        : WorkloadTestCase("RdmaFlowGenerator: sizes follow the CDF (Kolmogorov-Smirnov)", true)
    {
    }

  private:
    void DoRun() override
    {
        // n = 100,000 sizes drawn by Generate.  The 1 % critical value of the
        // one-sample KS statistic is about 1.63 / sqrt(n) = 1.63 / 316.23 = 0.00515
        // (conservative for a discrete distribution, as here).
        const size_t n = 100000;
        const double bound = 1.63 / std::sqrt(double(n));

        struct Item
        {
            const char* file;
            std::vector<std::pair<double, double>> pts;
            double seconds; // window giving > n flows: 100 Gb/s at load 1 is
                            // 1e11 / 8 / mean flows per second
        };

        // Web search: 1e11 / 8 / 1,711,250 = 7,304 flows/s, 15 s -> ~109,600 flows.
        // Data mining: 1e11 / 8 / 5,036,535 = 2,482 flows/s, 45 s -> ~111,700 flows.
        const Item items[] = {{"websearch.cdf", WebSearchFraction(), 15},
                              {"datamining.cdf", kDataMining, 45}};
        int64_t stream = 10;
        for (const auto& item : items)
        {
            RdmaFlowGenerator gen(FlowSizeCdf::Load(FindTaggerDataFile(item.file)));
            gen.AssignStreams(stream);
            stream += 2;
            auto flows = gen.Generate(Hosts(1, 8),
                                      {0},
                                      RdmaFlowGenerator::INCAST,
                                      DataRate("100Gbps"),
                                      1.0,
                                      Seconds(0),
                                      Seconds(item.seconds));
            NS_TEST_ASSERT_MSG_GT_OR_EQ(flows.size(), n, item.file);
            if (IsStatusFailure())
            {
                return;
            }
            std::vector<uint64_t> sizes;
            for (size_t i = 0; i < n; ++i)
            {
                sizes.push_back(flows[i].bytes);
            }
            double d = KsDistance(sizes, item.pts);
            NS_LOG_INFO(item.file << ": KS distance " << d << " (bound " << bound << ")");
            NS_TEST_EXPECT_MSG_LT(d, bound, item.file << ": KS distance");
            // A sanity check that the test can fail: the same sizes are far
            // from a distribution shifted by 10 %.
            auto shifted = item.pts;
            for (auto& p : shifted)
            {
                p.first *= 1.1;
            }
            NS_TEST_EXPECT_MSG_GT(KsDistance(sizes, shifted), bound, item.file << ": shifted");
        }
    }
};

/**
 * \ingroup tagger-tests
 * The offered bytes and the flow count of long windows at load 0.5 match
 * the load and the Poisson rate worked out by hand.
 */
class GeneratorOfferedLoadTestCase : public WorkloadTestCase
{
  public:
    GeneratorOfferedLoadTestCase()
        : WorkloadTestCase("RdmaFlowGenerator: offered load", true)
    {
    }

  private:
    void DoRun() override
    {
        // The offered bytes of a Poisson stream of rate lambda over T seconds is a
        // compound Poisson sum: mean lambda*T*E[S], variance lambda*T*E[S^2], so
        // its relative standard deviation is sqrt(E[S^2] / E[S]^2 / n), n = lambda*T.
        // E[S^2] of a piecewise-uniform distribution = sum of (p1-p0)(a^2+ab+b^2)/3:
        //  - web search: E[S^2] = 1.866e13, E[S]^2 = 2.928e12, ratio 6.37;
        //    100 Gb/s at load 0.5: lambda = 5e10 / 8 / 1,711,250 = 3,652 flows/s;
        //    T = 55 s -> n = 200,900, relative sd = sqrt(6.37 / 200,900) = 0.56 %:
        //    5 % is about 9 sd.
        //  - data mining: E[S^2] = 2.402e15 (dominated by the 2.5e8..1e9 bytes
        //    segment), E[S]^2 = 2.537e13, ratio 94.7;
        //    lambda = 5e10 / 8 / 5,036,535 = 1,241 flows/s; T = 800 s ->
        //    n = 992,700, relative sd = sqrt(94.7 / 992,700) = 0.98 %: 5 % is about
        //    5 sd.  (At 40 Gb/s for 1 s, n would be ~500 and the sd 44 %.)
        struct Item
        {
            const char* file;
            double seconds;
            double lambda; // flows per second, by hand above
        };

        const Item items[] = {{"websearch.cdf", 55, 5e10 / 8 / 1711250.0},
                              {"datamining.cdf", 800, 5e10 / 8 / 5036535.175}};
        int64_t stream = 20;
        for (const auto& item : items)
        {
            RdmaFlowGenerator gen(FlowSizeCdf::Load(FindTaggerDataFile(item.file)));
            gen.AssignStreams(stream);
            stream += 2;
            const Time start = Seconds(2);
            const Time duration = Seconds(item.seconds);
            auto flows = gen.Generate(Hosts(0, 16),
                                      Hosts(0, 16),
                                      RdmaFlowGenerator::ALL_TO_ALL,
                                      DataRate("100Gbps"),
                                      0.5,
                                      start,
                                      duration);
            double bytes = 0;
            Time last = start;
            for (const auto& f : flows)
            {
                bytes += double(f.bytes);
                NS_TEST_ASSERT_MSG_GT_OR_EQ(f.start, last, "flows in start-time order");
                NS_TEST_ASSERT_MSG_LT(f.start, start + duration, "flows in the window");
                if (IsStatusFailure())
                {
                    return;
                }
                last = f.start;
            }
            // Expected bytes = load * capacity / 8 * T.
            double offered = bytes / (0.5 * 100e9 / 8 * item.seconds);
            NS_LOG_INFO(item.file << ": " << flows.size() << " flows, offered load "
                                  << offered * 0.5 << " (deviation " << (offered - 1) * 100
                                  << " %)");
            NS_TEST_EXPECT_MSG_EQ_TOL(offered, 1.0, 0.05, item.file << ": offered load");
            // The flow count is Poisson(lambda T): within 5 sd of it.
            double expected = item.lambda * item.seconds;
            NS_TEST_EXPECT_MSG_EQ_TOL(double(flows.size()),
                                      expected,
                                      5 * std::sqrt(expected),
                                      item.file << ": flows");
        }
    }
};

// ---------------------------------------------------------------------------
// RdmaFlowGenerator: patterns and determinism

/// About 5,000 flows: 10 Gb/s at load 1, mean 1,500 bytes -> 833,333 flows/s, 6 ms.
std::vector<GeneratedFlow>
Flows(RdmaFlowGenerator& gen,
      const std::vector<uint32_t>& senders,
      const std::vector<uint32_t>& receivers,
      RdmaFlowGenerator::Pattern pattern)
{
    return gen.Generate(senders,
                        receivers,
                        pattern,
                        DataRate("10Gbps"),
                        1.0,
                        MilliSeconds(1),
                        MilliSeconds(6));
}

/**
 * \ingroup tagger-tests
 * INCAST: every flow goes to the first receiver, from every sender but it.
 */
class GeneratorIncastTestCase : public WorkloadTestCase
{
  public:
    GeneratorIncastTestCase()
        : WorkloadTestCase("RdmaFlowGenerator: incast pattern", true)
    {
    }

  private:
    void DoRun() override
    {
        RdmaFlowGenerator gen(Small());
        gen.AssignStreams(30);
        // Receiver 3 is also listed as a sender: it never sends to itself.
        auto flows = Flows(gen, Hosts(0, 8), {3, 9}, RdmaFlowGenerator::INCAST);
        NS_TEST_ASSERT_MSG_GT(flows.size(), 4000U, "flows");
        if (IsStatusFailure())
        {
            return;
        }
        std::set<uint32_t> srcs;
        for (const auto& f : flows)
        {
            NS_TEST_EXPECT_MSG_EQ(f.dst, 3U, "destination");
            NS_TEST_EXPECT_MSG_NE(f.src, 3U, "source");
            NS_TEST_EXPECT_MSG_LT(f.src, 8U, "source");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(f.bytes, 1000U, "size");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(f.bytes, 2000U, "size");
            NS_TEST_EXPECT_MSG_EQ(int(f.dscp), 24, "DSCP");
            srcs.insert(f.src);
        }
        NS_TEST_EXPECT_MSG_EQ(srcs.size(), 7U, "senders: 0..7 without 3");
    }
};

/**
 * \ingroup tagger-tests
 * SYNCHRONIZED_INCAST: each arrival is one flow from every sender, at one
 * time; arrivals come at lambda / N, so the flows offer the load.
 */
class GeneratorSynchronizedIncastTestCase : public WorkloadTestCase
{
  public:
    GeneratorSynchronizedIncastTestCase()
        : WorkloadTestCase("RdmaFlowGenerator: synchronized incast", true)
    {
    }

  private:
    void DoRun() override
    {
        RdmaFlowGenerator gen(Small());
        gen.AssignStreams(40);
        // 10 Gb/s at load 1, mean 1,500 bytes: lambda = 833,333 flows/s, in
        // 6 ms 5,000 flows in 5000 / 7 = 714 arrivals of 7 (senders 0..7 but 3).
        auto flows = Flows(gen, Hosts(0, 8), {3}, RdmaFlowGenerator::SYNCHRONIZED_INCAST);
        NS_TEST_ASSERT_MSG_EQ(flows.size() % 7, 0u, "whole arrivals of 7 flows");
        std::map<Time, std::set<uint32_t>> arrivals;
        for (const auto& f : flows)
        {
            NS_TEST_EXPECT_MSG_EQ(f.dst, 3U, "destination");
            NS_TEST_EXPECT_MSG_EQ(arrivals[f.start].insert(f.src).second, true, "one per sender");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(f.start, MilliSeconds(1), "in the window");
            NS_TEST_EXPECT_MSG_LT(f.start, MilliSeconds(7), "in the window");
        }
        for (const auto& [t, srcs] : arrivals)
        {
            NS_TEST_EXPECT_MSG_EQ(srcs.size(), 7u, "every sender but the receiver at " << t);
            NS_TEST_EXPECT_MSG_EQ(srcs.count(3), 0u, "not the receiver");
        }
        // Arrivals: Poisson with mean 714.3; 5 standard deviations = 134.
        NS_TEST_EXPECT_MSG_GT(arrivals.size(), 714u - 134u, "arrival rate lambda / N");
        NS_TEST_EXPECT_MSG_LT(arrivals.size(), 714u + 134u, "arrival rate lambda / N");
    }
};

/**
 * \ingroup tagger-tests
 * SetFixedOffer: every draw offers exactly load x capacity x window / 8
 * bytes within the window, from the same size draws as the drawn offer;
 * the drawn offer varies around it.
 */
class GeneratorFixedOfferTestCase : public WorkloadTestCase
{
  public:
    GeneratorFixedOfferTestCase()
        : WorkloadTestCase("RdmaFlowGenerator: fixed offered bytes", true)
    {
    }

  private:
    void DoRun() override
    {
        // 10 Gb/s x 0.5 x 6 ms / 8 = 3,750,000 bytes.
        const uint64_t target = 3750000;
        std::set<uint64_t> drawnTotals;
        for (int64_t stream = 50; stream < 60; stream += 2)
        {
            for (auto pattern : {RdmaFlowGenerator::INCAST, RdmaFlowGenerator::SYNCHRONIZED_INCAST})
            {
                RdmaFlowGenerator fixed(Small());
                fixed.AssignStreams(stream);
                fixed.SetFixedOffer(true);
                RdmaFlowGenerator drawn(Small());
                drawn.AssignStreams(stream);
                auto run = [&](RdmaFlowGenerator& gen) {
                    return gen.Generate(Hosts(0, 8),
                                        {3},
                                        pattern,
                                        DataRate("10Gbps"),
                                        0.5,
                                        MilliSeconds(1),
                                        MilliSeconds(6));
                };
                auto a = run(fixed);
                auto b = run(drawn);
                uint64_t total = 0;
                Time last;
                for (size_t i = 0; i < a.size(); ++i)
                {
                    total += a[i].bytes;
                    NS_TEST_EXPECT_MSG_GT_OR_EQ(a[i].start,
                                                std::max(last, MilliSeconds(1)),
                                                "in order, in the window");
                    NS_TEST_EXPECT_MSG_LT(a[i].start, MilliSeconds(7), "in the window");
                    last = a[i].start;
                    if (i + 1 < a.size() && i < b.size())
                    {
                        NS_TEST_EXPECT_MSG_EQ(a[i].bytes, b[i].bytes, "the same size draws");
                        NS_TEST_EXPECT_MSG_EQ(a[i].src, b[i].src, "the same senders");
                    }
                }
                NS_TEST_EXPECT_MSG_EQ(total, target, "stream " << stream << ": the offer");
                NS_TEST_EXPECT_MSG_GT(last, MicroSeconds(6800), "the window is filled");
                uint64_t drawnTotal = 0;
                for (const auto& f : b)
                {
                    drawnTotal += f.bytes;
                }
                drawnTotals.insert(drawnTotal);
            }
        }
        NS_TEST_EXPECT_MSG_GT(drawnTotals.size(), 5u, "the drawn offer varies");
        NS_TEST_EXPECT_MSG_EQ(drawnTotals.count(target), 0u, "and is not the target");
    }
};

/**
 * \ingroup tagger-tests
 * ALL_TO_ALL: all 56 ordered pairs of 8 hosts, each about equally often.
 */
class GeneratorAllToAllTestCase : public WorkloadTestCase
{
  public:
    GeneratorAllToAllTestCase()
        : WorkloadTestCase("RdmaFlowGenerator: all-to-all pattern", true)
    {
    }

  private:
    void DoRun() override
    {
        RdmaFlowGenerator gen(Small());
        gen.AssignStreams(32);
        auto flows = Flows(gen, Hosts(0, 8), Hosts(0, 8), RdmaFlowGenerator::ALL_TO_ALL);
        NS_TEST_ASSERT_MSG_GT(flows.size(), 4000U, "flows");
        if (IsStatusFailure())
        {
            return;
        }
        std::map<std::pair<uint32_t, uint32_t>, int> count;
        for (const auto& f : flows)
        {
            NS_TEST_ASSERT_MSG_NE(f.src, f.dst, "a host sends to itself");
            NS_TEST_ASSERT_MSG_LT(f.src, 8U, "source");
            NS_TEST_ASSERT_MSG_LT(f.dst, 8U, "destination");
            if (IsStatusFailure())
            {
                return;
            }
            ++count[{f.src, f.dst}];
        }
        // All 8 * 7 = 56 ordered pairs, each about n / 56 (~89, sd ~9.4) times;
        // a pair is missed with probability (55/56)^4000 ~ e^-72.  Within
        // +-50 % of the mean (~4.7 sd) for every pair.
        NS_TEST_EXPECT_MSG_EQ(count.size(), 56U, "pairs");
        double mean = double(flows.size()) / 56;
        for (const auto& [pair, c] : count)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(c, mean, 0.5 * mean, pair.first << "->" << pair.second);
        }
    }
};

/**
 * \ingroup tagger-tests
 * PERMUTATION: each sender keeps one partner, a derangement that varies
 * with the stream; disjoint sets give a bijection, more receivers an
 * injection.
 */
class GeneratorPermutationTestCase : public WorkloadTestCase
{
  public:
    GeneratorPermutationTestCase()
        : WorkloadTestCase("RdmaFlowGenerator: permutation pattern", true)
    {
    }

  private:
    void DoRun() override
    {
        std::set<std::map<uint32_t, uint32_t>> seen;
        for (int64_t s = 0; s < 6; ++s)
        {
            RdmaFlowGenerator gen(Small());
            gen.AssignStreams(40 + 2 * s);
            auto flows = Flows(gen, Hosts(0, 8), Hosts(0, 8), RdmaFlowGenerator::PERMUTATION);
            NS_TEST_ASSERT_MSG_GT(flows.size(), 4000U, "flows");
            if (IsStatusFailure())
            {
                return;
            }
            std::map<uint32_t, uint32_t> partner;
            for (const auto& f : flows)
            {
                auto it = partner.emplace(f.src, f.dst).first;
                NS_TEST_ASSERT_MSG_NE(f.src, f.dst, "a host sends to itself");
                NS_TEST_ASSERT_MSG_EQ(it->second, f.dst, "sender " << f.src << " changed partner");
                if (IsStatusFailure())
                {
                    return;
                }
            }
            NS_TEST_ASSERT_MSG_EQ(partner.size(), 8U, "senders");
            if (IsStatusFailure())
            {
                return;
            }
            std::set<uint32_t> dsts;
            for (const auto& [src, dst] : partner)
            {
                dsts.insert(dst);
            }
            NS_TEST_EXPECT_MSG_EQ(dsts.size(), 8U, "each receiver once");
            seen.insert(partner);
        }
        // 14,833 derangements of 8: six streams giving one and the same is
        // (practically) impossible.
        NS_TEST_EXPECT_MSG_GT(seen.size(), 1U, "permutations over six streams");
        CheckUnequalSets();
    }

    /// Disjoint sets: a bijection; more receivers than senders: an injection.
    void CheckUnequalSets()
    {
        RdmaFlowGenerator gen(Small());
        gen.AssignStreams(60);
        auto flows = Flows(gen, Hosts(0, 4), Hosts(4, 4), RdmaFlowGenerator::PERMUTATION);
        std::map<uint32_t, std::set<uint32_t>> partners;
        for (const auto& f : flows)
        {
            partners[f.src].insert(f.dst);
        }
        NS_TEST_ASSERT_MSG_EQ(partners.size(), 4U, "senders");
        if (IsStatusFailure())
        {
            return;
        }
        std::set<uint32_t> dsts;
        for (const auto& [src, d] : partners)
        {
            NS_TEST_ASSERT_MSG_EQ(d.size(), 1U, "partners of " << src);
            if (IsStatusFailure())
            {
                return;
            }
            NS_TEST_EXPECT_MSG_GT_OR_EQ(*d.begin(), 4U, "partner of " << src);
            dsts.insert(*d.begin());
        }
        NS_TEST_EXPECT_MSG_EQ(dsts.size(), 4U, "receivers");

        flows = Flows(gen, {0, 1}, {0, 1, 2}, RdmaFlowGenerator::PERMUTATION);
        partners.clear();
        for (const auto& f : flows)
        {
            NS_TEST_EXPECT_MSG_NE(f.src, f.dst, "a host sends to itself");
            partners[f.src].insert(f.dst);
        }
        NS_TEST_ASSERT_MSG_EQ(partners.size(), 2U, "senders");
        if (IsStatusFailure())
        {
            return;
        }
        NS_TEST_EXPECT_MSG_EQ(partners[0].size(), 1U, "partners of 0");
        NS_TEST_EXPECT_MSG_EQ(partners[1].size(), 1U, "partners of 1");
        NS_TEST_EXPECT_MSG_NE(*partners[0].begin(), *partners[1].begin(), "one receiver each");
    }
};

/// Flows of a fixed stream under seed and run.
std::vector<GeneratedFlow>
Draw(uint32_t seed, uint64_t run, RdmaFlowGenerator::Pattern pattern)
{
    RngSeedManager::SetSeed(seed);
    RngSeedManager::SetRun(run);
    RdmaFlowGenerator gen(FlowSizeCdf::Load(FindTaggerDataFile("websearch.cdf")));
    gen.AssignStreams(7);
    return gen.Generate(Hosts(0, 8),
                        Hosts(0, 8),
                        pattern,
                        DataRate("40Gbps"),
                        0.7,
                        Seconds(0),
                        Seconds(0.1));
}

/// Whether two flow lists are identical.
bool
Same(const std::vector<GeneratedFlow>& a, const std::vector<GeneratedFlow>& b)
{
    if (a.size() != b.size())
    {
        return false;
    }
    for (size_t i = 0; i < a.size(); ++i)
    {
        if (a[i].src != b[i].src || a[i].dst != b[i].dst || a[i].bytes != b[i].bytes ||
            a[i].start != b[i].start)
        {
            return false;
        }
    }
    return true;
}

/**
 * \ingroup tagger-tests
 * The same seed and run give the same flows; another seed or run others.
 */
class GeneratorDeterminismTestCase : public WorkloadTestCase
{
  public:
    GeneratorDeterminismTestCase()
        : WorkloadTestCase("RdmaFlowGenerator: deterministic per seed and run", true)
    {
    }

  private:
    void DoRun() override
    {
        // 40 Gb/s * 0.7 / 8 / 1,711,250 = 2,045 flows/s: ~200 flows in 0.1 s.
        for (auto pattern : {RdmaFlowGenerator::INCAST,
                             RdmaFlowGenerator::ALL_TO_ALL,
                             RdmaFlowGenerator::PERMUTATION})
        {
            auto a = Draw(5, 1, pattern);
            auto b = Draw(5, 1, pattern);
            auto c = Draw(5, 2, pattern);
            auto d = Draw(6, 1, pattern);
            NS_TEST_EXPECT_MSG_GT(a.size(), 100U, "flows, pattern " << pattern);
            NS_TEST_EXPECT_MSG_EQ(Same(a, b), true, "same seed and run, same flows");
            NS_TEST_EXPECT_MSG_EQ(Same(a, c), false, "another run, other flows");
            NS_TEST_EXPECT_MSG_EQ(Same(a, d), false, "another seed, other flows");
        }
    }
};

/**
 * \ingroup tagger-tests
 * An empty window gives no flow; flows start inside [start, start + duration).
 */
class GeneratorWindowTestCase : public WorkloadTestCase
{
  public:
    GeneratorWindowTestCase()
        : WorkloadTestCase("RdmaFlowGenerator: empty window and start offset", true)
    {
    }

  private:
    void DoRun() override
    {
        RdmaFlowGenerator gen(Small());
        gen.AssignStreams(70);
        auto none = gen.Generate(Hosts(0, 2),
                                 {5},
                                 RdmaFlowGenerator::INCAST,
                                 DataRate("10Gbps"),
                                 1.0,
                                 Seconds(3),
                                 Seconds(0));
        NS_TEST_EXPECT_MSG_EQ(none.empty(), true, "flows in an empty window");
        auto flows = Flows(gen, Hosts(0, 2), {5}, RdmaFlowGenerator::INCAST);
        NS_TEST_ASSERT_MSG_EQ(flows.empty(), false, "flows in 1 ms .. 7 ms");
        if (IsStatusFailure())
        {
            return;
        }
        NS_TEST_EXPECT_MSG_GT_OR_EQ(flows.front().start, MilliSeconds(1), "first start");
        NS_TEST_EXPECT_MSG_LT(flows.back().start, MilliSeconds(7), "last start");
    }
};

/**
 * \ingroup tagger-tests
 * Bad arguments to Generate (and a generator without a distribution) end
 * the program with a message saying what is wrong (checked in a child
 * process).
 */
class GeneratorBadArgumentsTestCase : public WorkloadTestCase
{
  public:
    GeneratorBadArgumentsTestCase()
        : WorkloadTestCase("RdmaFlowGenerator: bad arguments end the program", false)
    {
    }

  private:
    void DoRun() override
    {
        RdmaFlowGenerator gen(Small());
        auto run = [&gen](std::vector<uint32_t> s,
                          std::vector<uint32_t> r,
                          RdmaFlowGenerator::Pattern p,
                          double load) {
            return [&gen, s, r, p, load]() {
                gen.Generate(s, r, p, DataRate("10Gbps"), load, Seconds(0), Seconds(1));
            };
        };
        NS_TEST_EXPECT_MSG_EQ(CheckFatalError(run({0}, {1}, RdmaFlowGenerator::INCAST, 0.0),
                                              "load 0 is not in \\(0, 1\\]"),
                              "",
                              "load 0");
        NS_TEST_EXPECT_MSG_EQ(
            CheckFatalError(run({0}, {1}, RdmaFlowGenerator::INCAST, 1.5), "load 1.5 is not in"),
            "",
            "load 1.5");
        NS_TEST_EXPECT_MSG_EQ(
            CheckFatalError(run({}, {1}, RdmaFlowGenerator::INCAST, 0.5), "no senders"),
            "",
            "no senders");
        NS_TEST_EXPECT_MSG_EQ(
            CheckFatalError(run({0}, {}, RdmaFlowGenerator::INCAST, 0.5), "no receivers"),
            "",
            "no receivers");
        NS_TEST_EXPECT_MSG_EQ(
            CheckFatalError(run({1}, {1}, RdmaFlowGenerator::INCAST, 0.5), "no sender other than"),
            "",
            "incast to the only sender");
        NS_TEST_EXPECT_MSG_EQ(
            CheckFatalError(run({1}, {1}, RdmaFlowGenerator::ALL_TO_ALL, 0.5), "no pair"),
            "",
            "all-to-all of one host");
        NS_TEST_EXPECT_MSG_EQ(CheckFatalError(run({1}, {1}, RdmaFlowGenerator::PERMUTATION, 0.5),
                                              "other than itself"),
                              "",
                              "permutation of one host");
        NS_TEST_EXPECT_MSG_EQ(
            CheckFatalError(run({0, 1, 2}, {3, 4}, RdmaFlowGenerator::PERMUTATION, 0.5),
                            "at least as many receivers"),
            "",
            "permutation onto fewer receivers");
        NS_TEST_EXPECT_MSG_EQ(
            CheckFatalError(run({0, 0}, {3}, RdmaFlowGenerator::INCAST, 0.5), "listed twice"),
            "",
            "a sender listed twice");
        NS_TEST_EXPECT_MSG_EQ(
            CheckFatalError([]() { RdmaFlowGenerator g{FlowSizeCdf{}}; }, "no points"),
            "",
            "a generator without a distribution");
    }
};

} // namespace

/**
 * The flow-size CDF and flow generator test cases, for the TestSuite
 * "tagger-roce".
 * \return new test cases (the suite takes ownership)
 */
std::vector<TestCase*>
MakeRdmaWorkloadTestCases()
{
    return {new WebSearchCdfTestCase,
            new DataMiningCdfTestCase,
            new CdfInvertsQuantileTestCase,
            new GeneratorSizesTestCase,
            new GeneratorOfferedLoadTestCase,
            new GeneratorIncastTestCase,
            new GeneratorSynchronizedIncastTestCase,
            new GeneratorFixedOfferTestCase,
            new GeneratorAllToAllTestCase,
            new GeneratorPermutationTestCase,
            new GeneratorDeterminismTestCase,
            new GeneratorWindowTestCase,
            new GeneratorBadArgumentsTestCase};
}
