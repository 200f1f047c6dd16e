# SPDX-License-Identifier: GPL-2.0-only
#
# The libFuzzer targets of test/fuzz, included by CMakeLists.txt (standalone
# build) when TAGGER_FUZZ is ON, instead of everything else; run them with
# utils/run-fuzzers.sh.  One <parser>-fuzz program per file reader, built with
# clang++ -fsanitize=fuzzer,address,undefined.  The rule-library readers link
# the rule library (instrumented too); the RoCE workload readers
# (FlowSizeCdf::Parse, ParseFlowFile) compile model/roce/rdma-workload.cc
# against the installed ns-3.

if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "tagger: TAGGER_FUZZ needs clang++ (libFuzzer): configure with "
                      "-DCMAKE_CXX_COMPILER=clang++ (utils/run-fuzzers.sh does)"
  )
endif()

set(tagger_fuzz_sanitizers -fsanitize=address,undefined -fno-sanitize-recover=undefined)
add_compile_options(-g -fno-omit-frame-pointer ${tagger_fuzz_sanitizers}
                    -fsanitize=fuzzer-no-link
)
add_link_options(${tagger_fuzz_sanitizers})

find_path(tagger_ns3_include_dir ns3/core-module.h)
tagger_add_rule_library("${tagger_ns3_include_dir}")

add_library(tagger-fuzz-workload OBJECT model/roce/rdma-workload.cc)
# rdma-workload.cc includes the rule library's line reader as ns3/tagger-io.h,
# the name the module's builds install it under.
foreach(header ${tagger_rules_headers})
  get_filename_component(header_name ${header} NAME)
  configure_file(${header} ${CMAKE_BINARY_DIR}/include/ns3/${header_name} COPYONLY)
endforeach()
target_include_directories(
  tagger-fuzz-workload PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/model/roce ${CMAKE_BINARY_DIR}/include
)
target_link_libraries(tagger-fuzz-workload PUBLIC ns3::libcore ns3::libnetwork tagger-rulelib)

set(tagger_fuzz_topology "${CMAKE_CURRENT_SOURCE_DIR}/data/triangle.json")
foreach(parser topology-json topology-file rules-json elp flow-size-cdf flow-file hpcc)
  add_executable(${parser}-fuzz test/fuzz/${parser}-fuzz.cc)
  target_link_options(${parser}-fuzz PRIVATE -fsanitize=fuzzer)
  target_compile_options(${parser}-fuzz PRIVATE -Wall)
  target_compile_definitions(${parser}-fuzz PRIVATE TAGGER_FUZZ_TOPOLOGY="${tagger_fuzz_topology}")
  if(parser MATCHES "^flow")
    target_link_libraries(${parser}-fuzz PRIVATE tagger-fuzz-workload)
  else()
    target_link_libraries(${parser}-fuzz PRIVATE tagger-rulelib)
  endif()
endforeach()
