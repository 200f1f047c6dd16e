/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * Tests of reading the workload inputs (model/roce/rdma-workload.h), added to
 * the ns-3 TestSuite "tagger-roce" through MakeRdmaWorkloadParseTestCases():
 * flow-size CDF text (steps, comments, units, every error naming the file and
 * the line, FlowSizeCdf::Load) and flow files (ParseFlowFile, LoadFlowFile),
 * and the line-length limit of both.
 * The shipped distributions and the generator: rdma-workload-test-suite.cc.
 *
 * Every expected value is derived by hand from the text in the test, never
 * taken from the code's output.
 */

#include "../tagger-test-helpers.h"

#include "ns3/nstime.h"
#include "ns3/rdma-workload.h"
#include "ns3/test.h"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;
using tagger::test::CheckFatalError;
using tagger::test::FourUlp;

namespace
{

/**
 * \ingroup tagger-tests
 * A test case of reading CDFs and flow files, with parsing helpers that
 * check that a parse fails exactly when it reports an error.
 */
class WorkloadParseTestCase : public TestCase
{
  protected:
    /// \param name the test case's name
    explicit WorkloadParseTestCase(const std::string& name)
        : TestCase(name)
    {
    }

    /// Parse \p text, returning the error ("" on success). \param name its name in errors
    std::string CdfError(const std::string& text, const std::string& name = "t.cdf")
    {
        FlowSizeCdf cdf;
        std::istringstream in(text);
        std::string error;
        bool ok = cdf.Parse(in, name, &error);
        NS_TEST_EXPECT_MSG_EQ(ok, error.empty(), error);
        return ok ? std::string() : error;
    }

    /// Parse a flow file, returning the error ("" on success). \param name its name in errors
    std::string FlowError(const std::string& text, const std::string& name = "f.txt")
    {
        std::vector<GeneratedFlow> flows;
        std::istringstream in(text);
        std::string error;
        bool ok = ParseFlowFile(in, name, &flows, &error);
        NS_TEST_EXPECT_MSG_EQ(ok, error.empty(), error);
        return ok ? std::string() : error;
    }
};

// ---------------------------------------------------------------------------
// FlowSizeCdf: text

/**
 * \ingroup tagger-tests
 * A first probability above 0 is a step: that share of flows has exactly
 * the first size.
 */
class CdfFirstStepTestCase : public WorkloadParseTestCase
{
  public:
    CdfFirstStepTestCase()
        : WorkloadParseTestCase("FlowSizeCdf: a first probability above 0 is a step")
    {
    }

  private:
    void DoRun() override
    {
        // 20 % of the flows are exactly 100 bytes, the rest uniform on 100..200:
        // mean = 0.2 * 100 + 0.8 * 150 = 140.
        FlowSizeCdf cdf;
        std::istringstream in("100 0.2\n200 1\n");
        std::string error;
        bool ok = cdf.Parse(in, "step", &error);
        NS_TEST_ASSERT_MSG_EQ(ok, true, error);
        if (IsStatusFailure())
        {
            return;
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(cdf.GetMean(), 140.0, 1e-9, "mean");
        NS_TEST_EXPECT_MSG_EQ(cdf.Quantile(0.1), 100U, "Quantile(0.1)");
        NS_TEST_EXPECT_MSG_EQ(cdf.Quantile(0.2), 100U, "Quantile(0.2)");
        NS_TEST_EXPECT_MSG_EQ(cdf.Quantile(0.6), 150U, "Quantile(0.6)");
        NS_TEST_EXPECT_MSG_EQ(cdf.Cdf(99.9), 0.0, "Cdf(99.9)");
        NS_TEST_EXPECT_MSG_EQ_TOL(cdf.Cdf(100), 0.2, 1e-12, "Cdf(100)");
    }
};

/**
 * \ingroup tagger-tests
 * Comments, blank lines and the "# unit: percent" line.
 */
class CdfCommentsAndUnitsTestCase : public WorkloadParseTestCase
{
  public:
    CdfCommentsAndUnitsTestCase()
        : WorkloadParseTestCase("FlowSizeCdf: comments, blank lines and units")
    {
    }

  private:
    void DoRun() override
    {
        // Inline comments and blank lines are skipped; percent divides by 100.
        FlowSizeCdf cdf;
        std::istringstream in("# header\n\n# unit: percent\n  10   0  # start\n\n30 50\n50 100\n");
        std::string error;
        bool ok = cdf.Parse(in, "u", &error);
        NS_TEST_ASSERT_MSG_EQ(ok, true, error);
        NS_TEST_ASSERT_MSG_EQ(cdf.GetPoints().size(), 3U, "points");
        if (IsStatusFailure())
        {
            return;
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(cdf.GetPoints()[1].second, 0.5, FourUlp(0.5), "point 1");
        NS_TEST_EXPECT_MSG_EQ_TOL(cdf.GetPoints()[2].second, 1.0, FourUlp(1.0), "point 2");
        // Mean: 0.5 * 20 + 0.5 * 40 = 30.
        NS_TEST_EXPECT_MSG_EQ_TOL(cdf.GetMean(), 30.0, 1e-12, "mean");
        // A comment that merely starts with "units" is not a unit line.
        NS_TEST_EXPECT_MSG_EQ(CdfError("# units are bytes\n1 0\n2 1\n"), "", "'# units' comment");
        NS_TEST_EXPECT_MSG_EQ(CdfError("# unit: fraction\n1 0\n2 1\n"), "", "unit: fraction");
    }
};

// ---------------------------------------------------------------------------
// FlowSizeCdf: errors, each naming the file and the line

/**
 * \ingroup tagger-tests
 * Every parse error is one line starting "name:line:" and naming the fault.
 */
class CdfParseErrorsTestCase : public WorkloadParseTestCase
{
  public:
    CdfParseErrorsTestCase()
        : WorkloadParseTestCase("FlowSizeCdf: parse errors name the file and the line")
    {
    }

  private:
    void DoRun() override
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
            NS_TEST_EXPECT_MSG_EQ(error.rfind(c.where, 0),
                                  0U,
                                  "text:\n"
                                      << c.text << "error: " << error);
            NS_TEST_EXPECT_MSG_NE(error.find(c.what),
                                  std::string::npos,
                                  "text:\n"
                                      << c.text << "error: " << error);
            NS_TEST_EXPECT_MSG_EQ(error.find('\n'), std::string::npos, "one line: " << error);
        }
    }
};

/**
 * \ingroup tagger-tests
 * A failed Parse leaves the distribution parsed before.
 */
class CdfFailedParseTestCase : public WorkloadParseTestCase
{
  public:
    CdfFailedParseTestCase()
        : WorkloadParseTestCase("FlowSizeCdf: a failed parse keeps the previous distribution")
    {
    }

  private:
    void DoRun() override
    {
        FlowSizeCdf cdf;
        std::istringstream good("0 0\n10 1\n");
        std::string error;
        bool ok = cdf.Parse(good, "g", &error);
        NS_TEST_ASSERT_MSG_EQ(ok, true, error);
        if (IsStatusFailure())
        {
            return;
        }
        std::istringstream bad("0 0\n10 0.5\n");
        NS_TEST_EXPECT_MSG_EQ(cdf.Parse(bad, "b", &error), false, "a bad distribution");
        NS_TEST_EXPECT_MSG_EQ(cdf.GetPoints().size(), 2U, "points");
        NS_TEST_EXPECT_MSG_EQ_TOL(cdf.GetPoints()[1].second, 1.0, FourUlp(1.0), "point 1");
    }
};

/**
 * \ingroup tagger-tests
 * FlowSizeCdf::Load ends the program naming the file it cannot open, or the
 * file and line at fault (checked in a child process).
 */
class CdfLoadErrorsTestCase : public WorkloadParseTestCase
{
  public:
    CdfLoadErrorsTestCase()
        : WorkloadParseTestCase("FlowSizeCdf: Load of a missing or bad file ends the program")
    {
    }

  private:
    void DoRun() override
    {
        std::string missing = CreateTempDirFilename("no-such-flow-sizes.cdf");
        std::remove(missing.c_str());
        NS_TEST_EXPECT_MSG_EQ(CheckFatalError([&missing]() { FlowSizeCdf::Load(missing); },
                                              "cannot open .*no-such-flow-sizes\\.cdf"),
                              "",
                              "a missing file");

        std::string bad = CreateTempDirFilename("rdma-workload-bad.cdf");
        std::ofstream(bad) << "# c\n0 0\n10 0.7\n20 0.6\n30 1\n";
        NS_TEST_EXPECT_MSG_EQ(CheckFatalError([&bad]() { FlowSizeCdf::Load(bad); },
                                              "rdma-workload-bad\\.cdf:4: probability 0\\.6"),
                              "",
                              "a bad file");
    }
};

// ---------------------------------------------------------------------------
// Flow files

/**
 * \ingroup tagger-tests
 * A good flow file: fields, the default and an explicit DSCP, comments and
 * blank lines; empty files are no flow.
 */
class FlowFileGoodTestCase : public WorkloadParseTestCase
{
  public:
    FlowFileGoodTestCase()
        : WorkloadParseTestCase("Flow files: a good file")
    {
    }

  private:
    void DoRun() override
    {
        std::istringstream in("# src dst bytes start [dscp]\n"
                              "0 1 1000 0\n"
                              "\n"
                              "  2 3 5000 0.5 26   # with a DSCP\n"
                              "4 0 1 1.25e-3\n");
        std::vector<GeneratedFlow> flows;
        std::string error;
        bool ok = ParseFlowFile(in, "good", &flows, &error);
        NS_TEST_ASSERT_MSG_EQ(ok, true, error);
        NS_TEST_ASSERT_MSG_EQ(flows.size(), 3U, "flows");
        if (IsStatusFailure())
        {
            return;
        }
        NS_TEST_EXPECT_MSG_EQ(flows[0].src, 0U, "flow 0 source");
        NS_TEST_EXPECT_MSG_EQ(flows[0].dst, 1U, "flow 0 destination");
        NS_TEST_EXPECT_MSG_EQ(flows[0].bytes, 1000U, "flow 0 size");
        NS_TEST_EXPECT_MSG_EQ(flows[0].start, Seconds(0), "flow 0 start");
        NS_TEST_EXPECT_MSG_EQ(int(flows[0].dscp), 24, "flow 0 DSCP: the default");
        NS_TEST_EXPECT_MSG_EQ(flows[1].src, 2U, "flow 1 source");
        NS_TEST_EXPECT_MSG_EQ(flows[1].dst, 3U, "flow 1 destination");
        NS_TEST_EXPECT_MSG_EQ(flows[1].bytes, 5000U, "flow 1 size");
        NS_TEST_EXPECT_MSG_EQ(flows[1].start, MilliSeconds(500), "flow 1 start");
        NS_TEST_EXPECT_MSG_EQ(int(flows[1].dscp), 26, "flow 1 DSCP");
        NS_TEST_EXPECT_MSG_EQ(flows[2].src, 4U, "flow 2 source");
        NS_TEST_EXPECT_MSG_EQ(flows[2].dst, 0U, "flow 2 destination");
        NS_TEST_EXPECT_MSG_EQ(flows[2].bytes, 1U, "flow 2 size");
        NS_TEST_EXPECT_MSG_EQ(flows[2].start, MicroSeconds(1250), "flow 2 start");

        // An empty file (or comments only) is no flow, not an error.
        NS_TEST_EXPECT_MSG_EQ(FlowError(""), "", "an empty file");
        NS_TEST_EXPECT_MSG_EQ(FlowError("# nothing\n"), "", "comments only");
        NS_TEST_EXPECT_MSG_EQ(FlowError("0 1 10 0 63\n"), "", "DSCP 63");
    }
};

/**
 * \ingroup tagger-tests
 * Every flow-file error starts "name:line:" and names the fault.
 */
class FlowFileErrorsTestCase : public WorkloadParseTestCase
{
  public:
    FlowFileErrorsTestCase()
        : WorkloadParseTestCase("Flow files: errors name the file and the line")
    {
    }

  private:
    void DoRun() override
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
            NS_TEST_EXPECT_MSG_EQ(error.rfind(c.where, 0),
                                  0U,
                                  "text:\n"
                                      << c.text << "error: " << error);
            NS_TEST_EXPECT_MSG_NE(error.find(c.what),
                                  std::string::npos,
                                  "text:\n"
                                      << c.text << "error: " << error);
        }
    }
};

/**
 * \ingroup tagger-tests
 * LoadFlowFile reads a file.
 */
class FlowFileLoadTestCase : public WorkloadParseTestCase
{
  public:
    FlowFileLoadTestCase()
        : WorkloadParseTestCase("Flow files: LoadFlowFile")
    {
    }

  private:
    void DoRun() override
    {
        std::string path = CreateTempDirFilename("rdma-workload-good.flows");
        std::ofstream(path) << "0 1 100 0.001\n1 0 200 0.002 10\n";
        auto flows = LoadFlowFile(path);
        NS_TEST_ASSERT_MSG_EQ(flows.size(), 2U, "flows");
        if (IsStatusFailure())
        {
            return;
        }
        NS_TEST_EXPECT_MSG_EQ(flows[1].bytes, 200U, "flow 1 size");
        NS_TEST_EXPECT_MSG_EQ(flows[1].start, MilliSeconds(2), "flow 1 start");
        NS_TEST_EXPECT_MSG_EQ(int(flows[1].dscp), 10, "flow 1 DSCP");
    }
};

/**
 * \ingroup tagger-tests
 * LoadFlowFile ends the program naming the file it cannot open, or the file
 * and line at fault (checked in a child process).
 */
class FlowFileLoadErrorsTestCase : public WorkloadParseTestCase
{
  public:
    FlowFileLoadErrorsTestCase()
        : WorkloadParseTestCase(
              "Flow files: LoadFlowFile of a missing or bad file ends the program")
    {
    }

  private:
    void DoRun() override
    {
        std::string missing = CreateTempDirFilename("no-such-flows.txt");
        std::remove(missing.c_str());
        NS_TEST_EXPECT_MSG_EQ(CheckFatalError([&missing]() { LoadFlowFile(missing); },
                                              "cannot open .*no-such-flows\\.txt"),
                              "",
                              "a missing file");
        std::string bad = CreateTempDirFilename("rdma-workload-bad.flows");
        std::ofstream(bad) << "0 1 100 0\n# c\n2 2 100 0\n";
        NS_TEST_EXPECT_MSG_EQ(
            CheckFatalError([&bad]() { LoadFlowFile(bad); },
                            "rdma-workload-bad\\.flows:3: source and destination"),
            "",
            "a bad file");
    }
};

/**
 * \ingroup tagger-tests
 * A line of kMaxWorkloadLineBytes is read, one byte more is refused naming
 * the limit, in CDFs and flow files (LoadFlowFile ends the program).  The
 * point and flow counts (kMaxCdfPoints, kMaxFlowFileFlows) are not tested:
 * files that large take too long.
 */
class WorkloadLineLimitTestCase : public WorkloadParseTestCase
{
  public:
    WorkloadLineLimitTestCase()
        : WorkloadParseTestCase("CDFs and flow files: lines longer than kMaxWorkloadLineBytes")
    {
    }

  private:
    /**
     * \param text the start of a line \param bytes its length in all
     * \return the line padded to \p bytes with a comment, and its '\n'
     */
    static std::string Padded(const std::string& text, uint64_t bytes)
    {
        return text + " #" + std::string(bytes - text.size() - 2, 'x') + "\n";
    }

    void DoRun() override
    {
        const std::string cdfHead = "100 0.5\n";
        NS_TEST_EXPECT_MSG_EQ(CdfError(cdfHead + Padded("200 1", kMaxWorkloadLineBytes)),
                              "",
                              "a CDF line at the limit");
        const std::string cdfError = CdfError(cdfHead + Padded("200 1", kMaxWorkloadLineBytes + 1));
        NS_TEST_EXPECT_MSG_EQ(cdfError,
                              "t.cdf:2: line longer than the limit of 65536 bytes "
                              "(kMaxWorkloadLineBytes)",
                              "a CDF line over the limit");
        NS_TEST_EXPECT_MSG_EQ(FlowError(Padded("0 1 100 0", kMaxWorkloadLineBytes)),
                              "",
                              "a flow line at the limit");
        NS_TEST_EXPECT_MSG_EQ(FlowError("0 1 100 0\n" + std::string(1 << 20, '0')),
                              "f.txt:2: line longer than the limit of 65536 bytes "
                              "(kMaxWorkloadLineBytes)",
                              "a flow file without line breaks");
        std::string bad = CreateTempDirFilename("rdma-workload-long.flows");
        std::ofstream(bad) << Padded("0 1 100 0", kMaxWorkloadLineBytes + 1);
        NS_TEST_EXPECT_MSG_EQ(
            CheckFatalError([&bad]() { LoadFlowFile(bad); },
                            "rdma-workload-long\\.flows:1: line longer than the limit"),
            "",
            "LoadFlowFile of a line over the limit");
    }
};

} // namespace

/**
 * The CDF-text and flow-file test cases, for the TestSuite "tagger-roce".
 * \return new test cases (the suite takes ownership)
 */
std::vector<TestCase*>
MakeRdmaWorkloadParseTestCases()
{
    return {new CdfFirstStepTestCase,
            new CdfCommentsAndUnitsTestCase,
            new CdfParseErrorsTestCase,
            new CdfFailedParseTestCase,
            new CdfLoadErrorsTestCase,
            new FlowFileGoodTestCase,
            new FlowFileErrorsTestCase,
            new FlowFileLoadTestCase,
            new FlowFileLoadErrorsTestCase,
            new WorkloadLineLimitTestCase};
}
