/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * A test case of the suite "tagger-classifier" (MakeRulesFileInstallTestCase,
 * pfc-test-util.h): TaggerHelper::InstallFromJson treats a rules file as user
 * input.  The rules the library writes for a ring of five switches (all
 * shortest paths, the greedy merge: a tag-1 cycle around the ring is broken
 * by a rule raising the tag to 2) install; the same file with that rule
 * edited back to new tag 1 closes the cycle and is refused naming it;
 * SetVerifyRules(false) installs it anyway; rules naming a node the network
 * does not have are refused.
 */

#include "../tagger-test-helpers.h"
#include "pfc-test-util.h"

#include "ns3/pfc-topology-helper.h"
#include "ns3/simulator.h"
#include "ns3/tagger-helper.h"
#include "ns3/tagger-io.h"
#include "ns3/tagger-rule-generator.h"
#include "ns3/tagger-verifier.h"
#include "ns3/test.h"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

using namespace ns3;

namespace
{

using tagger::test::CheckFatalError;

/// A ring of five switches S1..S5, one host each.
const char* const kRing5 =
    "<graphml><key id='l' for='node' attr.name='label'/><graph>"
    "<node id='1'><data key='l'>S1</data></node><node id='2'><data key='l'>S2</data></node>"
    "<node id='3'><data key='l'>S3</data></node><node id='4'><data key='l'>S4</data></node>"
    "<node id='5'><data key='l'>S5</data></node>"
    "<edge source='1' target='2'/><edge source='2' target='3'/><edge source='3' target='4'/>"
    "<edge source='4' target='5'/><edge source='5' target='1'/></graph></graphml>";

/**
 * \ingroup tagger-tests
 * InstallFromJson verifies the rules file: a tag-1 cycle is refused naming
 * the cycle, unless SetVerifyRules(false).
 */
class RulesFileInstallTestCase : public TestCase
{
  public:
    RulesFileInstallTestCase()
        : TestCase("InstallFromJson refuses a rules file with a tag-1 cycle unless unverified")
    {
    }

  private:
    /**
     * The library's rules file for topo with one rule "new_tag": 2 edited to
     * 1 such that tag 1 has a cycle; "" when no such edit exists.
     * \param topo the topology \param valid set to the unedited file
     * \return the edited file
     */
    static std::string CyclicRulesJson(const tagger::Topology& topo, std::string& valid)
    {
        const tagger::TagRules rules = tagger::ComputeDefaultRules(topo, 0);
        tagger::RulesOutput out;
        out.losslessTags = rules.GetLosslessTags();
        out.rules = &rules;
        std::ostringstream os;
        tagger::WriteRulesJson(topo, out, os);
        valid = os.str();
        const std::string raise = "\"tag\": 1, ";
        for (size_t at = valid.find(raise); at != std::string::npos; at = valid.find(raise, at + 1))
        {
            const size_t newTag = valid.find("\"new_tag\": ", at) + 11;
            if (valid.compare(newTag, 2, "2}") != 0)
            {
                continue;
            }
            std::string edited = valid;
            edited[newTag] = '1';
            std::istringstream in(edited);
            uint32_t lossless = 0;
            const tagger::TagRules back = tagger::ReadRulesJson(topo, in, "edited", lossless);
            if (!tagger::VerifyDeadlockFree(back, lossless).ok)
            {
                return edited;
            }
        }
        return "";
    }

    /// Write text to path. \param path the file \param text its content
    static void Write(const std::string& path, const std::string& text)
    {
        std::ofstream(path) << text;
    }

    void DoRun() override
    {
        std::istringstream gml(kRing5);
        const tagger::Topology topo = tagger::ReadGraphml(gml, "ring5", 1);
        std::string valid;
        const std::string cyclic = CyclicRulesJson(topo, valid);
        NS_TEST_ASSERT_MSG_NE(cyclic, "", "no rule of the ring's file closes a tag-1 cycle");
        const std::string dir = CreateTempDirFilename("");
        const std::string validPath = dir + "tagger-rules-valid.json";
        const std::string cyclicPath = dir + "tagger-rules-cyclic.json";
        Write(validPath, valid);
        Write(cyclicPath, cyclic);

        PfcTopologyHelper net(topo);
        net.Build();
        {
            TaggerHelper tagger;
            tagger.InstallFromJson(net, validPath);
            NS_TEST_EXPECT_MSG_EQ(tagger.GetLosslessTags(), 2u, "the ring needs two tags");
        }
        NS_TEST_EXPECT_MSG_EQ(CheckFatalError(
                                  [&net, &cyclicPath]() {
                                      TaggerHelper tagger;
                                      tagger.InstallFromJson(net, cyclicPath);
                                  },
                                  "tagger-rules-cyclic.json are not deadlock-free: cycle inside "
                                  "tag 1 \\(requirement 1\\): S[1-5]:[0-9]+ .* -> back to S"),
                              "",
                              "a tag-1 cycle must be refused, naming it");
        {
            TaggerHelper tagger;
            tagger.SetVerifyRules(false);
            tagger.InstallFromJson(net, cyclicPath);
            NS_TEST_EXPECT_MSG_EQ(bool(tagger.GetClassifier(topo.GetNodeId("S1"))),
                                  true,
                                  "unverified rules are installed");
        }
        // rules for a node the network does not have
        std::string renamed = valid;
        renamed.replace(renamed.find("\"S3\": ["), 4, "\"S9\"");
        Write(cyclicPath, renamed);
        NS_TEST_EXPECT_MSG_EQ(CheckFatalError(
                                  [&net, &cyclicPath]() {
                                      TaggerHelper tagger;
                                      tagger.InstallFromJson(net, cyclicPath);
                                  },
                                  "unknown node 'S9'"),
                              "",
                              "rules of an unknown node must be refused");
        std::remove(validPath.c_str());
        std::remove(cyclicPath.c_str());
        Simulator::Destroy();
    }
};

} // namespace

TestCase*
MakeRulesFileInstallTestCase()
{
    return new RulesFileInstallTestCase;
}
