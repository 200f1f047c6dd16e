/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * A test-runner main for the standalone build (against an installed ns-3):
 * runs the module's ns-3 TestSuites, which register themselves from static
 * initialisers in the objects linked into this program.  There is one suite
 * per component (tagger-mmu, tagger-pfc-device, tagger-pfc-switch,
 * tagger-classifier, tagger-ttl, tagger-roce, tagger-topology,
 * tagger-scenarios, tagger-rules; `tagger-test-runner --list` prints them);
 * the single suite "tagger" of earlier versions is gone.  Same options as
 * ns-3's test-runner, e.g. `tagger-test-runner --suite=tagger-mmu --verbose`;
 * without --suite it runs every suite.  Exits non-zero when a test fails.
 * ctest runs each suite as its own test (ns3-suite-<name>).  Inside an ns-3
 * tree, ns-3's own test-runner (./test.py -s tagger-mmu) is used instead and
 * this file is not built.
 */

#include "ns3/test.h"

int
main(int argc, char** argv)
{
    return ns3::TestRunner::Run(argc, argv);
}
