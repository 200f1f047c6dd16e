/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Shared by the libFuzzer targets of test/fuzz (see utils/run-fuzzers.sh).
 */

#ifndef TAGGER_FUZZ_UTIL_H
#define TAGGER_FUZZ_UTIL_H

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <unistd.h>

namespace tagger_fuzz
{

/// \param data the fuzzer's bytes \param size their count \return them as a string
inline std::string
AsText(const uint8_t* data, size_t size)
{
    return std::string(reinterpret_cast<const char*>(data), size);
}

/**
 * For readers that take a file name: one scratch file per process (in
 * $TMPDIR, else /tmp), rewritten for every input and removed at exit.
 */
class ScratchFile
{
  public:
    ScratchFile()
    {
        const char* dir = std::getenv("TMPDIR");
        m_path = std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/tagger-fuzz-" +
                 std::to_string(getpid()) + ".txt";
    }

    ~ScratchFile()
    {
        std::remove(m_path.c_str());
    }

    ScratchFile(const ScratchFile&) = delete;
    ScratchFile& operator=(const ScratchFile&) = delete;

    /// \param text the new content \return the file's path
    const std::string& Write(const std::string& text)
    {
        std::ofstream out(m_path, std::ios::binary | std::ios::trunc);
        out << text;
        out.close();
        if (!out)
        {
            std::fprintf(stderr, "fuzz: cannot write %s\n", m_path.c_str());
            std::abort();
        }
        return m_path;
    }

  private:
    std::string m_path; //!< the file
};

/// Abort (a finding for libFuzzer) with a message when a property fails.
inline void
Require(bool ok, const char* what)
{
    if (!ok)
    {
        std::fprintf(stderr, "fuzz: property failed: %s\n", what);
        std::abort();
    }
}

} // namespace tagger_fuzz

#endif /* TAGGER_FUZZ_UTIL_H */
