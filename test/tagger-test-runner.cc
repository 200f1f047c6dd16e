/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * A test-runner main for the standalone build (against an installed ns-3):
 * runs the module's ns-3 TestSuites, which register themselves from static
 * initialisers in the objects linked into this program.  Same options as
 * ns-3's test-runner, e.g. `tagger-test-runner --suite=tagger --verbose`;
 * exits non-zero when a test fails.  Inside an ns-3 tree, ns-3's own
 * test-runner (./test.py -s tagger) is used instead and this file is not built.
 */

#include "ns3/test.h"

int
main(int argc, char** argv)
{
    return ns3::TestRunner::Run(argc, argv);
}
