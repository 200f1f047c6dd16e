/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Files as the readers and programs meet them: SameFile (no output may be an
 * input), read errors of GetLineBounded and the topology reader, and the
 * printable messages of TaggerError (PrintableText).
 */

#include "tagger-io.h"
#include "tagger-topology.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

using namespace ns3::tagger;

namespace
{
/// A fresh directory under /tmp, removed (with what the test put there) at the end.
class TempDir
{
  public:
    TempDir()
    {
        char pattern[] = "/tmp/tagger-files-test-XXXXXX";
        const char* made = mkdtemp(pattern);
        EXPECT_NE(made, nullptr);
        m_path = made != nullptr ? made : "/tmp";
    }

    ~TempDir()
    {
        std::string cmd = "rm -rf '" + m_path + "'";
        EXPECT_EQ(std::system(cmd.c_str()), 0);
    }

    /// \param name a file name \return its path in the directory
    std::string operator/(const std::string& name) const
    {
        return m_path + "/" + name;
    }

  private:
    std::string m_path;
};

/// Write \p text to \p path.
void
WriteFile(const std::string& path, const std::string& text)
{
    std::ofstream(path) << text;
}
} // namespace

TEST(SameFileTest, LinksAndSpellingsOfOneFile)
{
    TempDir dir;
    WriteFile(dir / "a", "a");
    WriteFile(dir / "b", "a"); // the same bytes, another file
    ASSERT_EQ(mkdir((dir / "sub").c_str(), 0700), 0);
    ASSERT_EQ(symlink((dir / "a").c_str(), (dir / "a-link").c_str()), 0);
    ASSERT_EQ(link((dir / "a").c_str(), (dir / "a-hard").c_str()), 0);
    EXPECT_TRUE(SameFile(dir / "a", dir / "a"));
    EXPECT_TRUE(SameFile(dir / "a", dir / "sub/../a"));
    EXPECT_TRUE(SameFile(dir / "a-link", dir / "a"));
    EXPECT_TRUE(SameFile(dir / "a", dir / "a-hard"));
    EXPECT_FALSE(SameFile(dir / "a", dir / "b"));
    EXPECT_FALSE(SameFile(dir / "a", dir / "new"));
}

TEST(SameFileTest, FilesNotYetCreated)
{
    TempDir dir;
    ASSERT_EQ(mkdir((dir / "sub").c_str(), 0700), 0);
    EXPECT_TRUE(SameFile(dir / "new", dir / "sub/../new"));
    EXPECT_TRUE(SameFile(dir / "sub/x", dir / "sub//x"));
    EXPECT_FALSE(SameFile(dir / "new", dir / "new2"));
    // A relative path and its absolute spelling.
    char cwd[4096];
    ASSERT_NE(getcwd(cwd, sizeof(cwd)), nullptr);
    EXPECT_TRUE(SameFile("tagger-no-such-file", std::string(cwd) + "/tagger-no-such-file"));
}

TEST(SameFileTest, DevicesMayBeNamedTwice)
{
    EXPECT_FALSE(SameFile("/dev/null", "/dev/null"));
}

TEST(ReadErrorTest, LineReaderReportsAReadErrorAsBad)
{
    // Reading /proc/self/mem at offset 0 fails with EIO (the page is not mapped).
    std::ifstream in("/proc/self/mem");
    ASSERT_TRUE(in.is_open());
    std::string line;
    bool tooLong = true;
    EXPECT_FALSE(GetLineBounded(in, line, 100, tooLong));
    EXPECT_TRUE(in.bad());
    EXPECT_FALSE(tooLong);
    EXPECT_TRUE(line.empty());
}

TEST(ReadErrorTest, TopologyReaderNamesTheFile)
{
    try
    {
        ReadTopologyFile("/proc/self/mem", 1);
        FAIL() << "read /proc/self/mem";
    }
    catch (const TaggerError& e)
    {
        EXPECT_EQ(std::string(e.what()),
                  "cannot read topology file '/proc/self/mem': Input/output error");
    }
}

TEST(PrintableTextTest, EscapesWhatDoesNotShow)
{
    EXPECT_EQ(PrintableText("plain text, 1-2 (ok)"), "plain text, 1-2 (ok)");
    EXPECT_EQ(PrintableText(std::string("a\0b", 3)), "a\\x00b");
    EXPECT_EQ(PrintableText("tab\there\r\n\x7F"), "tab\\x09here\\x0D\\x0A\\x7F");
    // A UTF-8 byte order mark and a zero-width space do not show: escaped.
    EXPECT_EQ(PrintableText("\xEF\xBB\xBFname"), "\\xEF\\xBB\\xBFname");
    EXPECT_EQ(PrintableText("a\xE2\x80\x8B"
                            "b"),
              "a\\xE2\\x80\\x8Bb");
    // Latin-1 and UTF-16 bytes are not UTF-8.
    EXPECT_EQ(PrintableText("caf\xE9"), "caf\\xE9");
    EXPECT_EQ(PrintableText(std::string("H\0"
                                        "1\0",
                                        4)),
              "H\\x001\\x00");
    // An overlong encoding of '/' and a lone continuation byte.
    EXPECT_EQ(PrintableText("\xC0\xAF\x80"), "\\xC0\\xAF\\x80");
    // Well-formed, visible UTF-8 stays: e acute, the euro sign, an emoji.
    EXPECT_EQ(PrintableText("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"),
              "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80");
    // Escaping is idempotent: an escaped message escapes to itself.
    const std::string once = PrintableText(std::string("x\0\xEF\xBB\xBF", 5));
    EXPECT_EQ(PrintableText(once), once);
}

TEST(PrintableTextTest, TaggerErrorMessagesArePrintable)
{
    EXPECT_STREQ(TaggerError(std::string("node 'A\0B' unknown", 18)).what(),
                 "node 'A\\x00B' unknown");
}
