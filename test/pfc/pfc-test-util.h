/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * Shared by the ns-3 test files of test/pfc: the test cases one file adds to
 * a TestSuite another file defines, and CheckFatal, which checks that a
 * call ends the program with NS_FATAL_ERROR / NS_ABORT_MSG.
 *
 * The suites of test/pfc and their files:
 *  - tagger-mmu:        switch-mmu-test-suite.cc, switch-mmu-threshold-test.cc,
 *                       switch-mmu-reference-test.cc (switch-mmu-test-util.h);
 *  - tagger-pfc-device: pfc-device-test-suite.cc, pfc-header-test.cc,
 *                       pfc-scheduler-test.cc;
 *  - tagger-pfc-switch: pfc-switch-test-suite.cc, pfc-relay-test.cc, and the
 *                       data-plane fuzz in plain PFC mode;
 *  - tagger-classifier: tagger-classifier-test-suite.cc (which also holds
 *                       the data-plane fuzz);
 *  - tagger-ttl:        ttl-classifier-test-suite.cc (the fuzz in TTL mode).
 */

#ifndef TAGGER_PFC_TEST_UTIL_H
#define TAGGER_PFC_TEST_UTIL_H

#include "ns3/test.h"

#include <cerrno>
#include <cstdio>
#include <functional>
#include <iostream>
#include <regex>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

/// \return the PfcHeader / EthernetDot1qHeader cases (pfc-header-test.cc)
std::vector<ns3::TestCase*> MakePfcHeaderTestCases();
/// \return the egress scheduler cases (pfc-scheduler-test.cc)
std::vector<ns3::TestCase*> MakePfcSchedulerTestCases();
/// \return the relay server case (pfc-relay-test.cc)
std::vector<ns3::TestCase*> MakePfcRelayTestCases();

/// The data plane a run of the data-plane fuzz plays (tagger-classifier-test-suite.cc).
enum class DataplaneFuzzMode : uint8_t
{
    TAGGER = 0, //!< Tagger, Clos rules: shortest + 1-bounce (2 lossless tags)
    TTL,        //!< TTL priorities (the TTL scheme)
    PFC,        //!< plain PFC, one lossless class
};

/**
 * The data-plane fuzz (tagger-classifier-test-suite.cc): the same 30 seeded
 * scenarios on a k = 4 fat tree, played in one mode.  Tagger and TTL must
 * never deadlock; plain PFC must deadlock in some run (which shows the
 * scenarios are hard enough for the other two).
 * \param mode the data plane
 * \return a new test case (the suite takes ownership)
 */
ns3::TestCase* MakeDataplaneFuzzTestCase(DataplaneFuzzMode mode);

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

#endif /* TAGGER_PFC_TEST_UTIL_H */
