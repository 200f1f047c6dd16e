/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 *
 * Files as the readers and the programs meet them: lines of bounded length
 * (GetLineBounded), read errors (ReadErrorText), and whether two paths name
 * one file (SameFile).
 */

#include "tagger-io.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <ios>
#include <istream>
#include <sys/stat.h>
#include <unistd.h>

namespace ns3
{
namespace tagger
{

bool
GetLineBounded(std::istream& in, std::string& line, uint64_t maxBytes, bool& tooLong)
{
    line.clear();
    tooLong = false;
    std::istream::sentry ok(in, true);
    if (!ok)
    {
        return false;
    }
    std::streambuf* buf = in.rdbuf();
    try
    {
        for (auto c = buf->sbumpc();; c = buf->sbumpc())
        {
            if (std::char_traits<char>::eq_int_type(c, std::char_traits<char>::eof()))
            {
                in.setstate(line.empty() ? std::ios::eofbit | std::ios::failbit : std::ios::eofbit);
                return !line.empty();
            }
            if (std::char_traits<char>::to_char_type(c) == '\n')
            {
                return true;
            }
            if (line.size() >= maxBytes)
            {
                buf->sungetc();
                tooLong = true;
                return true;
            }
            line.push_back(std::char_traits<char>::to_char_type(c));
        }
    }
    catch (const std::ios_base::failure&)
    {
        // A read error of the file (libstdc++'s filebuf throws it, e.g. EIO
        // from /proc/self/mem): the stream goes bad, the caller reports it.
        in.setstate(std::ios::badbit);
        line.clear();
        return false;
    }
}

std::string
ReadErrorText(const std::string& what, const std::string& filename)
{
    const int error = errno;
    return "cannot read " + what + " '" + filename + "'" +
           (error != 0 ? std::string(": ") + std::strerror(error) : std::string());
}

namespace
{
/// \param path a path \return it absolute and, where its folder exists, with that folder resolved
std::string
ResolvedPath(const std::string& path)
{
    std::string absolute = path;
    if (path.empty() || path[0] != '/')
    {
        char cwd[PATH_MAX];
        if (getcwd(cwd, sizeof(cwd)) != nullptr)
        {
            absolute = std::string(cwd) + "/" + path;
        }
    }
    std::size_t slash = absolute.rfind('/');
    std::string dir = absolute.substr(0, slash == 0 ? 1 : slash);
    std::string name = absolute.substr(slash + 1);
    char resolved[PATH_MAX];
    if (realpath(dir.c_str(), resolved) != nullptr)
    {
        return std::string(resolved) + "/" + name;
    }
    return absolute;
}
} // namespace

bool
SameFile(const std::string& a, const std::string& b)
{
    struct stat sa;
    struct stat sb;
    const bool hasA = stat(a.c_str(), &sa) == 0;
    const bool hasB = stat(b.c_str(), &sb) == 0;
    if (hasA && hasB)
    {
        // Character devices (/dev/null, /dev/stdout) and FIFOs may be named twice.
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino &&
               (S_ISREG(sa.st_mode) || S_ISDIR(sa.st_mode));
    }
    if (hasA || hasB)
    {
        return false;
    }
    return ResolvedPath(a) == ResolvedPath(b);
}

} // namespace tagger
} // namespace ns3
