# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-
# SPDX-License-Identifier: GPL-2.0-only
#
# The tagger module for waf-based ns-3 (3.35 and older), as contrib/tagger.
# It lists the same files as CMakeLists.txt; utils/check-build-lists.py fails
# when the two drift apart.
#
# Needs C++17, which waf does not use by default in these releases (3.31 uses
# C++11), and Boost.Graph:
#   ./waf configure --cxx-standard=-std=c++17 --enable-examples --enable-tests
#   ./waf build && ./test.py -s tagger-rules && ./waf --run "tagger-rules --topology=clos"


# Built only when ns-3 is configured with --enable-mpi (its mpi module): the
# remote PFC link.  The same lists as tagger_mpi_sources / tagger_mpi_headers.
MPI_SOURCES = [
    'model/mpi/pfc-remote-channel.cc',
    ]
MPI_HEADERS = [
    'model/mpi/pfc-remote-channel.h',
    ]
# The remote link against a local one: a program for `mpirun -np 2`.
MPI_TESTS = [
    'test/mpi/pfc-remote-link-test.cc',
    ]


def ns3_version_number(version):
    """100 * major + minor of an ns-3 VERSION string ("3.35" -> 335; "3-dev" -> 399)."""
    import re
    m = re.match(r'(\d+)\.(\d+)', version)
    if m:
        return int(m.group(1)) * 100 + int(m.group(2))
    if version.startswith('3-dev'):
        return 399
    raise ValueError("tagger: cannot read the ns-3 release from its version '%s'" % version)


def required_boost_libs(conf):
    # ns-3's top-level wscript collects these and runs the boost check
    # (libboost_graph: read_graphml).
    conf.env['REQUIRED_BOOST_LIBS'] += ['graph']


def _not_built(conf, reason):
    conf.report_optional_feature("tagger", "Tagger (lossless routing)", False, reason)
    conf.env['MODULES_NOT_BUILT'].append('tagger')


def configure(conf):
    # C++17 (the library uses std::optional, structured bindings, ...).
    if not conf.check_cxx(fragment='#if __cplusplus < 201703L\n'
                                   '#error tagger needs C++17\n'
                                   '#endif\n'
                                   'int main() { return 0; }\n',
                          msg='Checking for C++17 (tagger)',
                          okmsg='yes', errmsg='no: configure with --cxx-standard=-std=c++17',
                          mandatory=False):
        _not_built(conf, "needs C++17: ./waf configure --cxx-standard=-std=c++17")
        return

    # Boost.Graph: headers and the compiled libboost_graph.
    missing = conf.missing_boost_libs('tagger', "Tagger (lossless routing)", ['graph'])
    if missing:
        # missing_boost_libs() already reported it and disabled the module.
        return
    if not conf.check_cxx(header_name='boost/graph/graphml.hpp', use='BOOST',
                          msg='Checking for boost/graph/graphml.hpp (tagger)',
                          mandatory=False):
        _not_built(conf, "boost/graph/graphml.hpp not found (apt-get install libboost-graph-dev)")
        return

    # nlohmann/json (header only).
    if not conf.check_cxx(header_name='nlohmann/json.hpp',
                          msg='Checking for nlohmann/json.hpp (tagger)',
                          mandatory=False):
        _not_built(conf, "nlohmann/json.hpp not found (apt-get install nlohmann-json3-dev)")
        return

    conf.report_optional_feature("tagger", "Tagger (lossless routing)", True, "")


def build(bld):
    if 'tagger' in bld.env['MODULES_NOT_BUILT']:
        return

    # The rule library (model/rules): plain C++17 + Boost.Graph, no ns-3.  Its
    # own shared library, built with its own folder as the only include path.
    # Built into build/lib beside the ns-3 libraries, where ns-3 points the
    # programs' library path.
    import wutils
    kind = 'cxxstlib' if bld.env['ENABLE_STATIC_NS3'] else 'cxxshlib'
    rules = bld(features='cxx ' + kind, name='tagger-rulelib',
                target='%s/lib/ns%s-tagger-rules%s' % (bld.srcnode.path_from(bld.path),
                                                       wutils.VERSION, bld.env['BUILD_SUFFIX']),
                includes=['model/rules'], export_includes=['model/rules'], use=['BOOST'])
    rules.source = [
        'model/rules/tagger-algorithms.cc',
        'model/rules/tagger-bounce-grid.cc',
        'model/rules/tagger-bounce-model.cc',
        'model/rules/tagger-dynamic-topo-order.cc',
        'model/rules/tagger-elp-core.cc',
        'model/rules/tagger-elp-file.cc',
        'model/rules/tagger-elp-kshortest.cc',
        'model/rules/tagger-elp-random.cc',
        'model/rules/tagger-elp-shortest.cc',
        'model/rules/tagger-elp-updown.cc',
        'model/rules/tagger-elp.cc',
        'model/rules/tagger-exact-tags.cc',
        'model/rules/tagger-greedy-paths.cc',
        'model/rules/tagger-greedy-search.cc',
        'model/rules/tagger-io-files.cc',
        'model/rules/tagger-io-graphml.cc',
        'model/rules/tagger-io-hpcc-config.cc',
        'model/rules/tagger-io-hpcc.cc',
        'model/rules/tagger-io-json-read.cc',
        'model/rules/tagger-io-json-write.cc',
        'model/rules/tagger-reroute.cc',
        'model/rules/tagger-rule-generator.cc',
        'model/rules/tagger-rule-options.cc',
        'model/rules/tagger-order-bench.cc',
        'model/rules/tagger-rule-table.cc',
        'model/rules/tagger-tcam-cover.cc',
        'model/rules/tagger-topology-generators.cc',
        'model/rules/tagger-topology-random.cc',
        'model/rules/tagger-topology.cc',
        'model/rules/tagger-verifier.cc',
        ]

    deps = ['core', 'network', 'internet', 'traffic-control']
    if bld.env['ENABLE_MPI']:
        deps.append('mpi')
    module = bld.create_ns3_module('tagger', deps)
    module.source = [
        'helper/pfc-bounce-tracker.cc',
        'helper/pfc-helper.cc',
        'helper/pfc-route-helper.cc',
        'helper/pfc-stats-helper.cc',
        'helper/hpcc-config-helper.cc',
        'helper/hpcc-scenario-helper.cc',
        'helper/itsy-helper.cc',
        'helper/itsy-experiment.cc',
        'helper/itsy-fuzz.cc',
        'helper/pfc-topology-helper.cc',
        'helper/rdma-helper.cc',
        'helper/rdma-packet-account.cc',
        'helper/tagger-command-line.cc',
        'helper/tagger-experiment-command-line.cc',
        'helper/tagger-experiment-helper.cc',
        'helper/tagger-helper.cc',
        'helper/tagger-loss-experiment.cc',
        'helper/tagger-mpi-helper.cc',
        'model/pfc/pfc-channel.cc',
        'model/pfc/pfc-block-pool.cc',
        'model/pfc/pfc-classifier.cc',
        'model/pfc/pfc-deadlock-oracle.cc',
        'model/pfc/itsy-detector.cc',
        'model/pfc/itsy-header.cc',
        'model/pfc/pfc-watchdog.cc',
        'model/pfc/pfc-switch-monitor.cc',
        'model/pfc/pfc-header.cc',
        'model/pfc/pfc-net-device.cc',
        'model/pfc/pfc-net-device-pause.cc',
        'model/pfc/pfc-scheduler.cc',
        'model/pfc/pfc-route-table.cc',
        'model/pfc/tagger-wheel-scheduler.cc',
        'model/pfc/pfc-switch-net-device.cc',
        'model/pfc/pfc-types.cc',
        'model/pfc/switch-mmu.cc',
        'model/pfc/tagger-classifier.cc',
        'model/pfc/ttl-classifier.cc',
        'model/roce/rdma-congestion-control.cc',
        'model/roce/rdma-dcqcn.cc',
        'model/roce/rdma-dctcp.cc',
        'model/roce/rdma-hpcc.cc',
        'model/roce/rdma-nic.cc',
        'model/roce/rdma-rx-buffer.cc',
        'model/roce/rdma-timely.cc',
        'model/roce/rdma-workload.cc',
        'model/roce/roce-header.cc',
        'model/roce/roce-int-header.cc',
        ]
    if bld.env['ENABLE_MPI']:
        module.source.extend(MPI_SOURCES)
        module.use.append('MPI')  # its NS3_MPI define and include path
    module.use.extend(['BOOST', 'tagger-rulelib'])
    # The module finds its data files wherever a program runs from (FindTaggerDataFile).
    module.env.append_value('DEFINES',
                            'TAGGER_DATA_DIR_BUILTIN="%s"' % bld.path.find_dir('data').abspath())
    # TAGGER_NS3_VERSION (tagger-ns3-release-compat.h): 100 * major + minor of
    # this tree's release (VERSION "3.35": 335), for the module and for every
    # program and test library that uses it.
    version = ns3_version_number(wutils.VERSION)
    module.env.append_value('DEFINES', 'TAGGER_NS3_VERSION=%d' % version)
    module.export_defines = ['TAGGER_NS3_VERSION=%d' % version]

    module_test = bld.create_ns3_module_test_library('tagger')
    # One TestSuite per component (./test.py -s tagger-mmu, ...; the same list
    # as tagger_test_sources in CMakeLists.txt); the single suite "tagger" of
    # earlier versions is gone.
    module_test.source = [
        'test/pfc/pfc-device-link-test.cc',
        'test/pfc/pfc-block-pool-test.cc',
        'test/pfc/pfc-fifo-test.cc',
        'test/pfc/pfc-flagged-trace-test.cc',
        'test/pfc/pfc-device-pause-test.cc',
        'test/pfc/pfc-device-test-suite.cc',
        'test/pfc/pfc-header-test.cc',
        'test/pfc/pfc-relay-test.cc',
        'test/pfc/pfc-route-table-test.cc',
        'test/pfc/pfc-scheduler-test.cc',
        'test/pfc/tagger-wheel-scheduler-test.cc',
        'test/pfc/pfc-switch-routing-test.cc',
        'test/pfc/pfc-switch-test-suite.cc',
        'test/pfc/pfc-switch-ttl-test.cc',
        'test/pfc/switch-mmu-reference-test.cc',
        'test/pfc/switch-mmu-test-suite.cc',
        'test/pfc/switch-mmu-threshold-test.cc',
        'test/pfc/tagger-classifier-test-suite.cc',
        'test/pfc/tagger-dataplane-fuzz-test.cc',
        'test/pfc/tagger-egress-tag-test.cc',
        'test/pfc/tagger-helper-rules-file-test.cc',
        'test/pfc/ttl-classifier-test-suite.cc',
        'test/pfc/itsy-test-suite.cc',
        'test/pfc/itsy-recovery-test.cc',
        'test/pfc/itsy-long-loop-test.cc',
        'test/pfc/pfc-switch-monitor-test.cc',
        'test/pfc/itsy-fuzz-test-suite.cc',
        'test/pfc/itsy-fuzz-any-topology-test.cc',
        'test/pfc/pfc-deadlock-oracle-test.cc',
        'test/lossy/tagger-lossy-test-suite.cc',
        'test/hpcc/hpcc-scenario-test-suite.cc',
        'test/roce/rdma-cc-test-suite.cc',
        'test/roce/rdma-packet-account-test.cc',
        'test/roce/rdma-test-suite.cc',
        'test/roce/rdma-workload-parse-test-suite.cc',
        'test/roce/rdma-workload-test-suite.cc',
        'test/roce/roce-frame-test-suite.cc',
        'test/roce/roce-header-test-suite.cc',
        'test/roce/roce-test-suite.cc',
        'test/rules/tagger-rules-test-suite.cc',
        'test/scenarios/tagger-scenarios-test-suite.cc',
        'test/topology/pfc-topology-relay-test-suite.cc',
        'test/topology/pfc-topology-routes-test-suite.cc',
        'test/topology/topology-test-suite.cc',
        ]

    headers = bld(features='ns3header')
    headers.module = 'tagger'
    headers.source = [
        'helper/pfc-bounce-tracker.h',
        'helper/pfc-helper.h',
        'helper/pfc-route-helper.h',
        'helper/pfc-stats-helper.h',
        'helper/hpcc-config-helper.h',
        'helper/hpcc-scenario-helper.h',
        'helper/itsy-helper.h',
        'helper/itsy-experiment.h',
        'helper/itsy-fuzz.h',
        'helper/pfc-topology-helper.h',
        'helper/rdma-helper.h',
        'helper/rdma-packet-account.h',
        'helper/tagger-command-line.h',
        'helper/tagger-experiment-command-line.h',
        'helper/tagger-experiment-helper.h',
        'helper/tagger-helper.h',
        'helper/tagger-loss-experiment.h',
        'helper/tagger-mpi-helper.h',
        'model/pfc/pfc-channel.h',
        'model/pfc/pfc-classifier.h',
        'model/pfc/pfc-deadlock-oracle.h',
        'model/pfc/itsy-detector.h',
        'model/pfc/itsy-header.h',
        'model/pfc/pfc-watchdog.h',
        'model/pfc/pfc-switch-monitor.h',
        'model/pfc/pfc-block-pool.h',
        'model/pfc/pfc-net-device-internal.h',
        'model/pfc/pfc-fifo.h',
        'model/pfc/pfc-flagged-trace.h',
        'model/pfc/pfc-header.h',
        'model/pfc/pfc-net-device.h',
        'model/pfc/pfc-scheduler.h',
        'model/pfc/pfc-route-table.h',
        'model/pfc/tagger-ns3-release-compat.h',
        'model/pfc/tagger-wheel-scheduler.h',
        'model/pfc/pfc-switch-net-device.h',
        'model/pfc/pfc-types.h',
        'model/pfc/switch-mmu.h',
        'model/pfc/tagger-classifier.h',
        'model/pfc/ttl-classifier.h',
        'model/roce/rdma-congestion-control.h',
        'model/roce/rdma-dcqcn.h',
        'model/roce/rdma-dctcp.h',
        'model/roce/rdma-hpcc.h',
        'model/roce/rdma-nic.h',
        'model/roce/rdma-rx-buffer.h',
        'model/roce/rdma-timely.h',
        'model/roce/rdma-workload.h',
        'model/roce/roce-header.h',
        'model/roce/roce-int-header.h',
        'model/rules/tagger-algorithms.h',
        'model/rules/tagger-bounce-grid.h',
        'model/rules/tagger-bounce-model.h',
        'model/rules/tagger-dynamic-topo-order.h',
        'model/rules/tagger-elp-core.h',
        'model/rules/tagger-elp.h',
        'model/rules/tagger-exact-tags.h',
        'model/rules/tagger-greedy-paths.h',
        'model/rules/tagger-greedy-search.h',
        'model/rules/tagger-io-hpcc-config.h',
        'model/rules/tagger-io-hpcc.h',
        'model/rules/tagger-io.h',
        'model/rules/tagger-order-bench.h',
        'model/rules/tagger-parallel.h',
        'model/rules/tagger-reroute.h',
        'model/rules/tagger-rule-generator.h',
        'model/rules/tagger-rule-options.h',
        'model/rules/tagger-rule-table.h',
        'model/rules/tagger-topology-generators.h',
        'model/rules/tagger-topology.h',
        'model/rules/tagger-verifier.h',
        ]
    if bld.env['ENABLE_MPI']:
        headers.source.extend(MPI_HEADERS)
        if bld.env['ENABLE_TESTS']:
            remote_test = bld.create_ns3_program('tagger-pfc-remote-link-test', ['tagger', 'mpi'])
            remote_test.source = MPI_TESTS

    if bld.env['ENABLE_EXAMPLES']:
        bld.recurse('examples')
