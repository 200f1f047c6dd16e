/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the flow workloads (model/rdma-workload.h): the flow-size CDF
 * (the two shipped distributions, quantiles, errors), the Poisson generator
 * (sizes against the CDF by a Kolmogorov-Smirnov test, offered load,
 * patterns, determinism) and flow files.
 *
 * Every expected value is derived by hand from the tables in the comments,
 * never taken from the code's output.
 */

#include "rdma-workload.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/rng-seed-manager.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

/// Directory of the shipped data files (<source tree>/data).
std::string
DataDir()
{
    std::string f = __FILE__; // .../test/gtest/rdma-workload-test.cc
    auto pos = f.rfind("test/gtest/");
    return (pos == std::string::npos ? std::string("") : f.substr(0, pos)) + "data";
}

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

/// Parse text, returning the error ("" on success).
std::string
CdfError(const std::string& text, const std::string& name = "t.cdf")
{
    FlowSizeCdf cdf;
    std::istringstream in(text);
    std::string error;
    bool ok = cdf.Parse(in, name, &error);
    EXPECT_EQ(ok, error.empty()) << error;
    return ok ? std::string() : error;
}

/// Parse a flow file, returning the error ("" on success).
std::string
FlowError(const std::string& text, const std::string& name = "f.txt")
{
    std::vector<GeneratedFlow> flows;
    std::istringstream in(text);
    std::string error;
    bool ok = ParseFlowFile(in, name, &flows, &error);
    EXPECT_EQ(ok, error.empty()) << error;
    return ok ? std::string() : error;
}

/// Write text to a file in the test temp directory; \return its path.
std::string
WriteTemp(const std::string& fileName, const std::string& text)
{
    std::string path = ::testing::TempDir() + fileName;
    std::ofstream out(path);
    out << text;
    return path;
}

/// Keeps RngSeed/RngRun as found and restores them after each test.
class RdmaWorkloadTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        m_seed = RngSeedManager::GetSeed();
        m_run = RngSeedManager::GetRun();
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
    }

    void TearDown() override
    {
        RngSeedManager::SetSeed(m_seed);
        RngSeedManager::SetRun(m_run);
    }

    uint32_t m_seed = 1; //!< seed found
    uint64_t m_run = 1;  //!< run found
};

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

} // namespace

// ---------------------------------------------------------------------------
// FlowSizeCdf: the shipped files

TEST(FlowSizeCdfTest, WebSearchFile)
{
    FlowSizeCdf cdf = FlowSizeCdf::Load(DataDir() + "/websearch.cdf");
    auto expected = WebSearchFraction();
    ASSERT_EQ(cdf.GetPoints().size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i)
    {
        EXPECT_DOUBLE_EQ(cdf.GetPoints()[i].first, expected[i].first) << i;
        EXPECT_DOUBLE_EQ(cdf.GetPoints()[i].second, expected[i].second) << i;
    }
    // Mean = sum over segments of (p1 - p0) * (x0 + x1) / 2:
    //   0.15 *     5,000 =     750      0.07 *   140,000 =   9,800
    //   0.05 *    15,000 =     750      0.10 *   600,000 =  60,000
    //   0.10 *    25,000 =   2,500      0.10 * 1,500,000 = 150,000
    //   0.10 *    40,000 =   4,000      0.10 * 3,500,000 = 350,000
    //   0.13 *    65,000 =   8,450      0.07 * 7,500,000 = 525,000
    //                                   0.03 *20,000,000 = 600,000
    //   total 1,711,250 bytes (about 1.7 MB).
    EXPECT_NEAR(cdf.GetMean(), 1711250.0, 1e-6 * 1711250.0);

    // Quantile at the points (whole bytes; size 0 becomes the 1-byte minimum).
    EXPECT_EQ(cdf.Quantile(0.0), 1U);
    EXPECT_EQ(cdf.Quantile(0.15), 10000U);
    EXPECT_EQ(cdf.Quantile(0.20), 20000U);
    EXPECT_EQ(cdf.Quantile(0.53), 80000U);
    EXPECT_EQ(cdf.Quantile(0.90), 5000000U);
    EXPECT_EQ(cdf.Quantile(1.0), 30000000U);
    // Between points: 0.175 is half way from 0.15 to 0.20 -> 15,000;
    // 0.565 half way from 0.53 to 0.60 -> 80,000 + 120,000 / 2 = 140,000;
    // 0.985 is 0.015 / 0.03 = half way from 1e7 to 3e7 -> 2e7;
    // 0.1 -> 0.1 / 0.15 * 10,000 = 6,666.67, rounded up -> 6,667.
    EXPECT_EQ(cdf.Quantile(0.175), 15000U);
    EXPECT_EQ(cdf.Quantile(0.565), 140000U);
    EXPECT_EQ(cdf.Quantile(0.985), 20000000U);
    EXPECT_EQ(cdf.Quantile(0.1), 6667U);

    // Cdf: 15,000 -> 0.175, 140,000 -> 0.565, 4,000,000 -> 0.8 + 2/3 * 0.1.
    EXPECT_NEAR(cdf.Cdf(15000), 0.175, 1e-12);
    EXPECT_NEAR(cdf.Cdf(140000), 0.565, 1e-12);
    EXPECT_NEAR(cdf.Cdf(4000000), 0.8 + 0.1 * 2 / 3, 1e-12);
    EXPECT_EQ(cdf.Cdf(-1), 0.0);
    EXPECT_EQ(cdf.Cdf(0), 0.0);
    EXPECT_EQ(cdf.Cdf(30000000), 1.0);
    EXPECT_EQ(cdf.Cdf(1e12), 1.0);
}

TEST(FlowSizeCdfTest, DataMiningFile)
{
    FlowSizeCdf cdf = FlowSizeCdf::Load(DataDir() + "/datamining.cdf");
    ASSERT_EQ(cdf.GetPoints().size(), kDataMining.size());
    for (size_t i = 0; i < kDataMining.size(); ++i)
    {
        EXPECT_DOUBLE_EQ(cdf.GetPoints()[i].first, kDataMining[i].first) << i;
        EXPECT_DOUBLE_EQ(cdf.GetPoints()[i].second, kDataMining[i].second) << i;
    }
    // Mean, segment by segment, (p1 - p0) * (x0 + x1) / 2:
    //   0.085*140 = 11.9, 0.055*215 = 11.825, 0.19*405 = 76.95, 0.14*730 = 102.2,
    //   0.08*1000 = 80, 0.10*1485 = 148.5, 0.05*2515 = 125.75, 0.10*6580 = 658,
    //   0.074*55000.5 = 4070.037, 0.026*250000.5 = 6500.013,
    //   0.05*1,125,000 = 56,250, 0.02*5,925,000 = 118,500,
    //   0.01*2e7 = 200,000, 0.01*6.5e7 = 650,000, 0.005*1.75e8 = 875,000,
    //   0.005*6.25e8 = 3,125,000
    //   total 5,036,535.175 bytes (about 5.0 MB).
    EXPECT_NEAR(cdf.GetMean(), 5036535.175, 1e-6 * 5036535.175);

    EXPECT_EQ(cdf.Quantile(0.0), 100U);
    EXPECT_EQ(cdf.Quantile(0.085), 180U);
    EXPECT_EQ(cdf.Quantile(0.874), 100001U);
    EXPECT_EQ(cdf.Quantile(1.0), 1000000000U);
    // 0.1125: half way 0.085..0.14 -> 180 + 35 = 215; 0.5: 0.03/0.08 of
    // 900..1100 -> 975; 0.9975: half way 2.5e8..1e9 -> 6.25e8.
    EXPECT_EQ(cdf.Quantile(0.1125), 215U);
    EXPECT_EQ(cdf.Quantile(0.5), 975U);
    EXPECT_EQ(cdf.Quantile(0.9975), 625000000U);

    EXPECT_EQ(cdf.Cdf(99), 0.0);
    EXPECT_EQ(cdf.Cdf(100), 0.0);
    EXPECT_NEAR(cdf.Cdf(140), 0.0425, 1e-12);
    EXPECT_NEAR(cdf.Cdf(975), 0.5, 1e-12);
    EXPECT_EQ(cdf.Cdf(1e9), 1.0);
}

TEST(FlowSizeCdfTest, CdfInvertsQuantile)
{
    for (const char* file : {"/websearch.cdf", "/datamining.cdf"})
    {
        FlowSizeCdf cdf = FlowSizeCdf::Load(DataDir() + file);
        const auto& pts = cdf.GetPoints();
        // Cdf agrees with the reference interpolation written in this file.
        for (double x = 1; x < 2e9; x *= 1.37)
        {
            EXPECT_NEAR(cdf.Cdf(x), RefCdf(pts, x), 1e-12) << file << " x=" << x;
        }
        // Quantile(u) is the smallest whole size k with Cdf(k) >= u.
        for (int i = 1; i <= 1000; ++i)
        {
            double u = i / 1000.0;
            uint64_t k = cdf.Quantile(u);
            EXPECT_GE(RefCdf(pts, double(k)), u - 1e-12) << file << " u=" << u;
            if (k > 1 && double(k) > pts.front().first)
            {
                EXPECT_LT(RefCdf(pts, double(k - 1)), u + 1e-12) << file << " u=" << u;
            }
        }
        // And Quantile(Cdf(k)) = k for whole sizes inside the support.
        for (double x : {150.0, 777.0, 12345.0, 654321.0, 7654321.0, 123456789.0})
        {
            if (x > pts.front().first && x < pts.back().first)
            {
                EXPECT_EQ(cdf.Quantile(cdf.Cdf(x)), uint64_t(x)) << file;
            }
        }
    }
}

TEST(FlowSizeCdfTest, FirstProbabilityAboveZeroIsAStep)
{
    // 20 % of the flows are exactly 100 bytes, the rest uniform on 100..200:
    // mean = 0.2 * 100 + 0.8 * 150 = 140.
    FlowSizeCdf cdf;
    std::istringstream in("100 0.2\n200 1\n");
    std::string error;
    ASSERT_TRUE(cdf.Parse(in, "step", &error)) << error;
    EXPECT_NEAR(cdf.GetMean(), 140.0, 1e-9);
    EXPECT_EQ(cdf.Quantile(0.1), 100U);
    EXPECT_EQ(cdf.Quantile(0.2), 100U);
    EXPECT_EQ(cdf.Quantile(0.6), 150U);
    EXPECT_EQ(cdf.Cdf(99.9), 0.0);
    EXPECT_NEAR(cdf.Cdf(100), 0.2, 1e-12);
}

TEST(FlowSizeCdfTest, CommentsBlankLinesAndUnits)
{
    // Inline comments and blank lines are skipped; percent divides by 100.
    FlowSizeCdf cdf;
    std::istringstream in("# header\n\n# unit: percent\n  10   0  # start\n\n30 50\n50 100\n");
    std::string error;
    ASSERT_TRUE(cdf.Parse(in, "u", &error)) << error;
    ASSERT_EQ(cdf.GetPoints().size(), 3U);
    EXPECT_DOUBLE_EQ(cdf.GetPoints()[1].second, 0.5);
    EXPECT_DOUBLE_EQ(cdf.GetPoints()[2].second, 1.0);
    // Mean: 0.5 * 20 + 0.5 * 40 = 30.
    EXPECT_NEAR(cdf.GetMean(), 30.0, 1e-12);
    // A comment that merely starts with "units" is not a unit line.
    EXPECT_EQ(CdfError("# units are bytes\n1 0\n2 1\n"), "");
    EXPECT_EQ(CdfError("# unit: fraction\n1 0\n2 1\n"), "");
}

// ---------------------------------------------------------------------------
// FlowSizeCdf: errors, each naming the file and the line

TEST(FlowSizeCdfTest, ParseErrorsNameFileAndLine)
{
    struct Case
    {
        const char* text;
        const char* where; // "name:line:"
        const char* what;  // a word of the message
    };

    const Case cases[] = {
        {"0 0\n10 abc\n20 1\n", "t.cdf:2:", "not a number"},
        {"x10 0\n20 1\n", "t.cdf:1:", "not a number"},
        {"0 0\n-5 0.5\n20 1\n", "t.cdf:2:", "negative"},
        {"0 0\n50 0.5\n40 1\n", "t.cdf:3:", "smaller than the previous"},
        {"0 0\n50 0.5\n60 0.4\n70 1\n", "t.cdf:3:", "smaller than the previous"},
        {"0 0\n50 1.5\n60 1\n", "t.cdf:2:", "outside [0, 1]"},
        {"0 -0.1\n60 1\n", "t.cdf:1:", "outside [0, 1]"},
        {"0 0\n10 15\n20 100\n", "t.cdf:2:", "outside [0, 1]"}, // percent without the unit line
        {"# unit: percent\n0 0\n10 101\n", "t.cdf:3:", "outside [0, 100]"},
        {"# c\n0 0\n10 0.5\n20 0.9\n\n", "t.cdf:4:", "must be 1"},
        {"# unit: percent\n0 0\n10 90\n", "t.cdf:3:", "must be 100"},
        {"# only one\n10 1\n", "t.cdf:2:", "at least 2"},
        {"", "t.cdf:1:", "no points"},
        {"# nothing\n\n# here\n", "t.cdf:3:", "no points"},
        {"0 0\n10\n20 1\n", "t.cdf:2:", "2 fields"},
        {"0 0\n10 0.5 7\n20 1\n", "t.cdf:2:", "2 fields"},
        {"0 0\n# unit: percent\n20 100\n", "t.cdf:2:", "before the first point"},
        {"# unit: bytes\n0 0\n20 1\n", "t.cdf:1:", "unknown unit"},
        {"0 nan\n20 1\n", "t.cdf:1:", "not a number"},
        {"inf 0\n20 1\n", "t.cdf:1:", "not a number"},
    };
    for (const auto& c : cases)
    {
        std::string error = CdfError(c.text);
        EXPECT_EQ(error.rfind(c.where, 0), 0U) << "text:\n" << c.text << "error: " << error;
        EXPECT_NE(error.find(c.what), std::string::npos) << "text:\n"
                                                         << c.text << "error: " << error;
        EXPECT_EQ(error.find('\n'), std::string::npos) << "one line: " << error;
    }
}

TEST(FlowSizeCdfTest, FailedParseKeepsPreviousDistribution)
{
    FlowSizeCdf cdf;
    std::istringstream good("0 0\n10 1\n");
    std::string error;
    ASSERT_TRUE(cdf.Parse(good, "g", &error));
    std::istringstream bad("0 0\n10 0.5\n");
    EXPECT_FALSE(cdf.Parse(bad, "b", &error));
    EXPECT_EQ(cdf.GetPoints().size(), 2U);
    EXPECT_DOUBLE_EQ(cdf.GetPoints()[1].second, 1.0);
}

TEST(FlowSizeCdfDeathTest, LoadMissingFile)
{
    std::string path = ::testing::TempDir() + "no-such-flow-sizes.cdf";
    std::remove(path.c_str());
    EXPECT_DEATH(FlowSizeCdf::Load(path), "cannot open .*no-such-flow-sizes\\.cdf");
}

TEST(FlowSizeCdfDeathTest, LoadBadFileNamesTheLine)
{
    std::string path = WriteTemp("rdma-workload-bad.cdf", "# c\n0 0\n10 0.7\n20 0.6\n30 1\n");
    EXPECT_DEATH(FlowSizeCdf::Load(path), "rdma-workload-bad\\.cdf:4: probability 0\\.6");
}

// ---------------------------------------------------------------------------
// RdmaFlowGenerator: sizes (Kolmogorov-Smirnov) and load

namespace
{

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

} // namespace

TEST_F(RdmaWorkloadTest, SizesFollowTheCdf)
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
    const Item items[] = {{"/websearch.cdf", WebSearchFraction(), 15},
                          {"/datamining.cdf", kDataMining, 45}};
    int64_t stream = 10;
    for (const auto& item : items)
    {
        RdmaFlowGenerator gen(FlowSizeCdf::Load(DataDir() + item.file));
        gen.AssignStreams(stream);
        stream += 2;
        auto flows = gen.Generate(Hosts(1, 8),
                                  {0},
                                  RdmaFlowGenerator::INCAST,
                                  DataRate("100Gbps"),
                                  1.0,
                                  Seconds(0),
                                  Seconds(item.seconds));
        ASSERT_GE(flows.size(), n) << item.file;
        std::vector<uint64_t> sizes;
        for (size_t i = 0; i < n; ++i)
        {
            sizes.push_back(flows[i].bytes);
        }
        double d = KsDistance(sizes, item.pts);
        std::cout << "[          ] " << item.file << ": KS distance " << d << " (bound " << bound
                  << ")" << std::endl;
        EXPECT_LT(d, bound) << item.file;
        // A sanity check that the test can fail: the same sizes are far
        // from a distribution shifted by 10 %.
        auto shifted = item.pts;
        for (auto& p : shifted)
        {
            p.first *= 1.1;
        }
        EXPECT_GT(KsDistance(sizes, shifted), bound) << item.file;
    }
}

TEST_F(RdmaWorkloadTest, OfferedLoad)
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

    const Item items[] = {{"/websearch.cdf", 55, 5e10 / 8 / 1711250.0},
                          {"/datamining.cdf", 800, 5e10 / 8 / 5036535.175}};
    int64_t stream = 20;
    for (const auto& item : items)
    {
        RdmaFlowGenerator gen(FlowSizeCdf::Load(DataDir() + item.file));
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
            ASSERT_GE(f.start, last) << "flows in start-time order";
            ASSERT_LT(f.start, start + duration);
            last = f.start;
        }
        // Expected bytes = load * capacity / 8 * T.
        double offered = bytes / (0.5 * 100e9 / 8 * item.seconds);
        std::cout << "[          ] " << item.file << ": " << flows.size() << " flows, offered load "
                  << offered * 0.5 << " (deviation " << (offered - 1) * 100 << " %)" << std::endl;
        EXPECT_NEAR(offered, 1.0, 0.05) << item.file;
        // The flow count is Poisson(lambda T): within 5 sd of it.
        double expected = item.lambda * item.seconds;
        EXPECT_NEAR(double(flows.size()), expected, 5 * std::sqrt(expected)) << item.file;
    }
}

// ---------------------------------------------------------------------------
// RdmaFlowGenerator: patterns and determinism

namespace
{

/// A small distribution, for pattern tests: uniform 1000..2000 bytes.
FlowSizeCdf
Small()
{
    FlowSizeCdf cdf;
    std::istringstream in("1000 0\n2000 1\n");
    std::string error;
    EXPECT_TRUE(cdf.Parse(in, "small", &error)) << error;
    return cdf;
}

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

} // namespace

TEST_F(RdmaWorkloadTest, IncastPattern)
{
    RdmaFlowGenerator gen(Small());
    gen.AssignStreams(30);
    // Receiver 3 is also listed as a sender: it never sends to itself.
    auto flows = Flows(gen, Hosts(0, 8), {3, 9}, RdmaFlowGenerator::INCAST);
    ASSERT_GT(flows.size(), 4000U);
    std::set<uint32_t> srcs;
    for (const auto& f : flows)
    {
        EXPECT_EQ(f.dst, 3U);
        EXPECT_NE(f.src, 3U);
        EXPECT_LT(f.src, 8U);
        EXPECT_GE(f.bytes, 1000U);
        EXPECT_LE(f.bytes, 2000U);
        EXPECT_EQ(f.dscp, 24);
        srcs.insert(f.src);
    }
    EXPECT_EQ(srcs.size(), 7U); // 0..7 without 3
}

TEST_F(RdmaWorkloadTest, AllToAllPattern)
{
    RdmaFlowGenerator gen(Small());
    gen.AssignStreams(32);
    auto flows = Flows(gen, Hosts(0, 8), Hosts(0, 8), RdmaFlowGenerator::ALL_TO_ALL);
    ASSERT_GT(flows.size(), 4000U);
    std::map<std::pair<uint32_t, uint32_t>, int> count;
    for (const auto& f : flows)
    {
        ASSERT_NE(f.src, f.dst);
        ASSERT_LT(f.src, 8U);
        ASSERT_LT(f.dst, 8U);
        ++count[{f.src, f.dst}];
    }
    // All 8 * 7 = 56 ordered pairs, each about n / 56 (~89, sd ~9.4) times;
    // a pair is missed with probability (55/56)^4000 ~ e^-72.  Within
    // +-50 % of the mean (~4.7 sd) for every pair.
    EXPECT_EQ(count.size(), 56U);
    double mean = double(flows.size()) / 56;
    for (const auto& [pair, c] : count)
    {
        EXPECT_NEAR(c, mean, 0.5 * mean) << pair.first << "->" << pair.second;
    }
}

TEST_F(RdmaWorkloadTest, PermutationPattern)
{
    std::set<std::map<uint32_t, uint32_t>> seen;
    for (int64_t s = 0; s < 6; ++s)
    {
        RdmaFlowGenerator gen(Small());
        gen.AssignStreams(40 + 2 * s);
        auto flows = Flows(gen, Hosts(0, 8), Hosts(0, 8), RdmaFlowGenerator::PERMUTATION);
        ASSERT_GT(flows.size(), 4000U);
        std::map<uint32_t, uint32_t> partner;
        for (const auto& f : flows)
        {
            ASSERT_NE(f.src, f.dst);
            auto [it, fresh] = partner.emplace(f.src, f.dst);
            ASSERT_EQ(it->second, f.dst) << "sender " << f.src << " changed partner";
        }
        ASSERT_EQ(partner.size(), 8U);
        std::set<uint32_t> dsts;
        for (const auto& [src, dst] : partner)
        {
            dsts.insert(dst);
        }
        EXPECT_EQ(dsts.size(), 8U) << "each receiver once";
        seen.insert(partner);
    }
    // 14,833 derangements of 8: six streams giving one and the same is
    // (practically) impossible.
    EXPECT_GT(seen.size(), 1U);

    // Disjoint sets: a bijection; more receivers than senders: an injection.
    RdmaFlowGenerator gen(Small());
    gen.AssignStreams(60);
    auto flows = Flows(gen, Hosts(0, 4), Hosts(4, 4), RdmaFlowGenerator::PERMUTATION);
    std::map<uint32_t, std::set<uint32_t>> partners;
    for (const auto& f : flows)
    {
        partners[f.src].insert(f.dst);
    }
    ASSERT_EQ(partners.size(), 4U);
    std::set<uint32_t> dsts;
    for (const auto& [src, d] : partners)
    {
        ASSERT_EQ(d.size(), 1U);
        EXPECT_GE(*d.begin(), 4U);
        dsts.insert(*d.begin());
    }
    EXPECT_EQ(dsts.size(), 4U);

    flows = Flows(gen, {0, 1}, {0, 1, 2}, RdmaFlowGenerator::PERMUTATION);
    partners.clear();
    for (const auto& f : flows)
    {
        EXPECT_NE(f.src, f.dst);
        partners[f.src].insert(f.dst);
    }
    ASSERT_EQ(partners.size(), 2U);
    EXPECT_EQ(partners[0].size(), 1U);
    EXPECT_EQ(partners[1].size(), 1U);
    EXPECT_NE(*partners[0].begin(), *partners[1].begin());
}

namespace
{

/// Flows of a fixed stream under seed and run.
std::vector<GeneratedFlow>
Draw(uint32_t seed, uint64_t run, RdmaFlowGenerator::Pattern pattern)
{
    RngSeedManager::SetSeed(seed);
    RngSeedManager::SetRun(run);
    RdmaFlowGenerator gen(FlowSizeCdf::Load(DataDir() + "/websearch.cdf"));
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

} // namespace

TEST_F(RdmaWorkloadTest, DeterministicPerSeedAndRun)
{
    // 40 Gb/s * 0.7 / 8 / 1,711,250 = 2,045 flows/s: ~200 flows in 0.1 s.
    for (auto pattern :
         {RdmaFlowGenerator::INCAST, RdmaFlowGenerator::ALL_TO_ALL, RdmaFlowGenerator::PERMUTATION})
    {
        auto a = Draw(5, 1, pattern);
        auto b = Draw(5, 1, pattern);
        auto c = Draw(5, 2, pattern);
        auto d = Draw(6, 1, pattern);
        EXPECT_GT(a.size(), 100U);
        EXPECT_TRUE(Same(a, b)) << "same seed and run, same flows";
        EXPECT_FALSE(Same(a, c)) << "another run, other flows";
        EXPECT_FALSE(Same(a, d)) << "another seed, other flows";
    }
}

TEST_F(RdmaWorkloadTest, EmptyWindowAndStartOffset)
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
    EXPECT_TRUE(none.empty());
    auto flows = Flows(gen, Hosts(0, 2), {5}, RdmaFlowGenerator::INCAST);
    ASSERT_FALSE(flows.empty());
    EXPECT_GE(flows.front().start, MilliSeconds(1));
    EXPECT_LT(flows.back().start, MilliSeconds(7));
}

TEST(RdmaWorkloadDeathTest, BadArguments)
{
    RdmaFlowGenerator gen(Small());
    auto run = [&gen](std::vector<uint32_t> s,
                      std::vector<uint32_t> r,
                      RdmaFlowGenerator::Pattern p,
                      double load) {
        gen.Generate(s, r, p, DataRate("10Gbps"), load, Seconds(0), Seconds(1));
    };
    EXPECT_DEATH(run({0}, {1}, RdmaFlowGenerator::INCAST, 0.0), "load 0 is not in \\(0, 1\\]");
    EXPECT_DEATH(run({0}, {1}, RdmaFlowGenerator::INCAST, 1.5), "load 1.5 is not in");
    EXPECT_DEATH(run({}, {1}, RdmaFlowGenerator::INCAST, 0.5), "no senders");
    EXPECT_DEATH(run({0}, {}, RdmaFlowGenerator::INCAST, 0.5), "no receivers");
    EXPECT_DEATH(run({1}, {1}, RdmaFlowGenerator::INCAST, 0.5), "no sender other than");
    EXPECT_DEATH(run({1}, {1}, RdmaFlowGenerator::ALL_TO_ALL, 0.5), "no pair");
    EXPECT_DEATH(run({1}, {1}, RdmaFlowGenerator::PERMUTATION, 0.5), "other than itself");
    EXPECT_DEATH(run({0, 1, 2}, {3, 4}, RdmaFlowGenerator::PERMUTATION, 0.5),
                 "at least as many receivers");
    EXPECT_DEATH(run({0, 0}, {3}, RdmaFlowGenerator::INCAST, 0.5), "listed twice");
    EXPECT_DEATH(RdmaFlowGenerator g{FlowSizeCdf{}}, "no points");
}

// ---------------------------------------------------------------------------
// Flow files

TEST(FlowFileTest, GoodFile)
{
    std::istringstream in("# src dst bytes start [dscp]\n"
                          "0 1 1000 0\n"
                          "\n"
                          "  2 3 5000 0.5 26   # with a DSCP\n"
                          "4 0 1 1.25e-3\n");
    std::vector<GeneratedFlow> flows;
    std::string error;
    ASSERT_TRUE(ParseFlowFile(in, "good", &flows, &error)) << error;
    ASSERT_EQ(flows.size(), 3U);
    EXPECT_EQ(flows[0].src, 0U);
    EXPECT_EQ(flows[0].dst, 1U);
    EXPECT_EQ(flows[0].bytes, 1000U);
    EXPECT_EQ(flows[0].start, Seconds(0));
    EXPECT_EQ(flows[0].dscp, 24); // default
    EXPECT_EQ(flows[1].src, 2U);
    EXPECT_EQ(flows[1].dst, 3U);
    EXPECT_EQ(flows[1].bytes, 5000U);
    EXPECT_EQ(flows[1].start, MilliSeconds(500));
    EXPECT_EQ(flows[1].dscp, 26);
    EXPECT_EQ(flows[2].src, 4U);
    EXPECT_EQ(flows[2].dst, 0U);
    EXPECT_EQ(flows[2].bytes, 1U);
    EXPECT_EQ(flows[2].start, MicroSeconds(1250));

    // An empty file (or comments only) is no flow, not an error.
    EXPECT_EQ(FlowError(""), "");
    EXPECT_EQ(FlowError("# nothing\n"), "");
    EXPECT_EQ(FlowError("0 1 10 0 63\n"), "");
}

TEST(FlowFileTest, ErrorsNameFileAndLine)
{
    struct Case
    {
        const char* text;
        const char* where;
        const char* what;
    };

    const Case cases[] = {
        {"0 1 1000 0\n0 1 1000\n", "f.txt:2:", "4 or 5 fields"},
        {"# c\n0 1 1000 0 24 7\n", "f.txt:2:", "4 or 5 fields"},
        {"a 1 1000 0\n", "f.txt:1:", "source 'a'"},
        {"-1 2 1000 0\n", "f.txt:1:", "source '-1'"},
        {"0 1.5 1000 0\n", "f.txt:1:", "destination '1.5'"},
        {"0 1 1k 0\n", "f.txt:1:", "size '1k'"},
        {"0 1 0 0\n", "f.txt:1:", "size is 0"},
        {"0 1 1000 soon\n", "f.txt:1:", "start time 'soon'"},
        {"\n\n0 1 1000 -0.5\n", "f.txt:3:", "negative"},
        {"3 3 1000 0\n", "f.txt:1:", "both host 3"},
        {"0 1 1000 0 64\n", "f.txt:1:", "DSCP 64 is above 63"},
        {"0 1 1000 0 x\n", "f.txt:1:", "DSCP 'x'"},
        {"0 4294967296 1000 0\n", "f.txt:1:", "not a host index"},
    };
    for (const auto& c : cases)
    {
        std::string error = FlowError(c.text);
        EXPECT_EQ(error.rfind(c.where, 0), 0U) << "text:\n" << c.text << "error: " << error;
        EXPECT_NE(error.find(c.what), std::string::npos) << "text:\n"
                                                         << c.text << "error: " << error;
    }
}

TEST(FlowFileTest, LoadFile)
{
    std::string path = WriteTemp("rdma-workload-good.flows", "0 1 100 0.001\n1 0 200 0.002 10\n");
    auto flows = LoadFlowFile(path);
    ASSERT_EQ(flows.size(), 2U);
    EXPECT_EQ(flows[1].bytes, 200U);
    EXPECT_EQ(flows[1].start, MilliSeconds(2));
    EXPECT_EQ(flows[1].dscp, 10);
}

TEST(FlowFileDeathTest, LoadErrors)
{
    std::string missing = ::testing::TempDir() + "no-such-flows.txt";
    std::remove(missing.c_str());
    EXPECT_DEATH(LoadFlowFile(missing), "cannot open .*no-such-flows\\.txt");
    std::string bad = WriteTemp("rdma-workload-bad.flows", "0 1 100 0\n# c\n2 2 100 0\n");
    EXPECT_DEATH(LoadFlowFile(bad), "rdma-workload-bad\\.flows:3: source and destination");
}
