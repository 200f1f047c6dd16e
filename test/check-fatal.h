/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * CheckFatal: the ns-3 TestCase form of GoogleTest's EXPECT_DEATH, for every
 * ns-3 test file of the module (include it as "../check-fatal.h" from a
 * folder of test/).  POSIX only (fork, pipe, waitpid).  Use it as
 *   NS_TEST_EXPECT_MSG_EQ(CheckFatal([&]() { header.SetClass(8, 1); }, "class 8"), "", "...");
 */

#ifndef TAGGER_CHECK_FATAL_H
#define TAGGER_CHECK_FATAL_H

#include <cerrno>
#include <cstdio>
#include <functional>
#include <iostream>
#include <regex>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/**
 * Run \p fn in a child process (fork) and check that it ends the program
 * (NS_FATAL_ERROR and NS_ABORT_MSG print their message and call
 * std::terminate) with output that matches \p pattern: the ns-3 form of
 * GoogleTest's EXPECT_DEATH.  The child's stdout and stderr are captured
 * and it dumps no core.
 * \param fn the call that must fail
 * \param pattern an ECMAScript regular expression searched in the output
 * \return an empty string when \p fn failed as expected, else what happened
 */
inline std::string
CheckFatal(const std::function<void()>& fn, const std::string& pattern)
{
    std::cout.flush();
    std::cerr.flush();
    std::clog.flush();
    std::fflush(nullptr);
    int fds[2];
    if (pipe(fds) != 0)
    {
        return "pipe() failed";
    }
    pid_t pid = fork();
    if (pid < 0)
    {
        close(fds[0]);
        close(fds[1]);
        return "fork() failed";
    }
    if (pid == 0)
    {
        struct rlimit noCore = {0, 0};
        setrlimit(RLIMIT_CORE, &noCore);
        dup2(fds[1], STDOUT_FILENO);
        dup2(fds[1], STDERR_FILENO);
        close(fds[0]);
        close(fds[1]);
        fn();
        std::cout.flush();
        std::cerr.flush();
        std::clog.flush();
        _exit(0);
    }
    close(fds[1]);
    std::string output;
    char buffer[4096];
    ssize_t n;
    while ((n = read(fds[0], buffer, sizeof(buffer))) != 0)
    {
        if (n > 0)
        {
            output.append(buffer, n);
        }
        else if (errno != EINTR)
        {
            break;
        }
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    {
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
    {
        return "returned normally; output: \"" + output + "\"";
    }
    if (!std::regex_search(output, std::regex(pattern)))
    {
        return "failed, but its output does not match /" + pattern + "/: \"" + output + "\"";
    }
    return "";
}

#endif /* TAGGER_CHECK_FATAL_H */
