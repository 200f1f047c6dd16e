/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * Helpers shared by the module's ns-3 test suites (include it as
 * "../tagger-test-helpers.h" from a folder of test/): checking that code ends
 * the program with an error message (NS_FATAL_ERROR, NS_ABORT_MSG), in a
 * child process as GoogleTest's death tests do; GoogleTest's tolerance for
 * doubles; the bytes of a packet; and running an external program (tshark)
 * when it is installed.
 */

#ifndef TAGGER_TEST_HELPERS_H
#define TAGGER_TEST_HELPERS_H

#include "ns3/packet.h"

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fcntl.h>
#include <functional>
#include <iomanip>
#include <iostream>
#include <limits>
#include <regex>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace ns3
{
namespace tagger
{
namespace test
{

/// Exit status of a CheckFatalError child whose code threw instead of ending the program.
constexpr int kFatalCheckThrew = 121;

/**
 * The child process of CheckFatalError: standard error into \p errFd,
 * standard output discarded, no core file; run \p body and leave without
 * running destructors or atexit handlers (the parent owns those).
 * \param body the code expected to end the program \param errFd the pipe to the parent
 */
[[noreturn]] inline void
RunFatalCheckChild(const std::function<void()>& body, int errFd)
{
    dup2(errFd, STDERR_FILENO);
    close(errFd);
    int devNull = open("/dev/null", O_WRONLY);
    if (devNull >= 0)
    {
        dup2(devNull, STDOUT_FILENO);
        close(devNull);
    }
    struct rlimit noCore = {0, 0};
    setrlimit(RLIMIT_CORE, &noCore);
    try
    {
        body();
    }
    catch (const std::exception& e)
    {
        std::cerr << "exception: " << e.what() << std::endl;
        _exit(kFatalCheckThrew);
    }
    catch (...)
    {
        _exit(kFatalCheckThrew);
    }
    _exit(0);
}

/// \param fd a file descriptor \return everything read from it up to end of file
inline std::string
ReadAll(int fd)
{
    std::string text;
    char buffer[4096];
    while (true)
    {
        ssize_t n = read(fd, buffer, sizeof(buffer));
        if (n > 0)
        {
            text.append(buffer, n);
        }
        else if (n == 0 || errno != EINTR)
        {
            return text;
        }
    }
}

/**
 * Run \p body in a child process (fork) and check that it ends that process
 * the way NS_FATAL_ERROR and NS_ABORT_MSG do (killed by SIGABRT; any signal
 * or a non-zero exit status counts, as for GoogleTest's EXPECT_DEATH) with a
 * standard error output in which \p pattern (an ECMAScript regular
 * expression) matches somewhere.
 *
 * Whatever \p body changes, it changes in the child only.  The child's
 * standard output is discarded and it writes no core file.  An exception
 * that escapes \p body is reported as such, not taken for the end of the
 * program.  POSIX only (fork, pipe, waitpid).  Use it as
 *   NS_TEST_EXPECT_MSG_EQ(CheckFatalError([&pfc]() { pfc.SetClass(8, 1); }, "class 8"), "", "...");
 *
 * \param body the code expected to end the program
 * \param pattern what its error message must contain
 * \return "" when it did; otherwise what happened instead, with the child's
 *         standard error
 */
inline std::string
CheckFatalError(const std::function<void()>& body, const std::string& pattern)
{
    int fds[2];
    if (pipe(fds) != 0)
    {
        return "CheckFatalError: pipe() failed";
    }
    // Nothing buffered in the parent may be written twice by the child.
    std::cout.flush();
    std::cerr.flush();
    std::clog.flush();
    std::fflush(nullptr);
    pid_t pid = fork();
    if (pid < 0)
    {
        close(fds[0]);
        close(fds[1]);
        return "CheckFatalError: fork() failed";
    }
    if (pid == 0)
    {
        close(fds[0]);
        RunFatalCheckChild(body, fds[1]);
    }
    close(fds[1]);
    std::string err = ReadAll(fds[0]);
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    {
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
    {
        return "returned normally instead of ending the program; standard error: " + err;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == kFatalCheckThrew)
    {
        return "threw an exception instead of ending the program; standard error: " + err;
    }
    if (!std::regex_search(err, std::regex(pattern)))
    {
        return "ended the program, but /" + pattern + "/ is not in its standard error: " + err;
    }
    return "";
}

/**
 * The tolerance of GoogleTest's EXPECT_DOUBLE_EQ (4 units in the last place)
 * as an absolute tolerance for NS_TEST_EXPECT_MSG_EQ_TOL.
 * \param expected the expected value \return 4 ulp of it
 */
inline double
FourUlp(double expected)
{
    return 4 * std::numeric_limits<double>::epsilon() * std::abs(expected);
}

/// \param p a packet \return its bytes
inline std::vector<uint8_t>
BytesOf(Ptr<const Packet> p)
{
    std::vector<uint8_t> bytes(p->GetSize());
    p->CopyData(bytes.data(), bytes.size());
    return bytes;
}

/// \param bytes some bytes \return them in hex, "04 00 ff ...", for comparisons and messages
inline std::string
Hex(const std::vector<uint8_t>& bytes)
{
    std::ostringstream os;
    os << std::hex << std::setfill('0');
    for (size_t i = 0; i < bytes.size(); ++i)
    {
        os << (i == 0 ? "" : " ") << std::setw(2) << unsigned(bytes[i]);
    }
    return os.str();
}

/// \param program a program name \return whether the shell finds it on PATH
inline bool
IsInstalled(const std::string& program)
{
    return std::system(("command -v " + program + " > /dev/null 2>&1").c_str()) == 0;
}

/**
 * Run a shell command and collect what it writes on standard output.
 * \param command the command
 * \param[out] status the exit status as pclose gives it (-1: could not run),
 *              or nullptr
 * \return the output
 */
inline std::string
RunCommand(const std::string& command, int* status = nullptr)
{
    std::string out;
    FILE* pipe = popen(command.c_str(), "r");
    if (pipe == nullptr)
    {
        if (status != nullptr)
        {
            *status = -1;
        }
        return out;
    }
    char buffer[4096];
    size_t n;
    while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0)
    {
        out.append(buffer, n);
    }
    int result = pclose(pipe);
    if (status != nullptr)
    {
        *status = result;
    }
    return out;
}

} // namespace test
} // namespace tagger
} // namespace ns3

#endif /* TAGGER_TEST_HELPERS_H */
