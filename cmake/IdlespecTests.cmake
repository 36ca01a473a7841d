# Test binaries by label. Each gtest TEST becomes its own ctest entry with the
# label's time budget (seconds); see docs/building.md "Labels and time budgets".
#   unit         tests/unit/*_test.cc
#   property     properties/*_test.cc, tests/witnesses/property_*_test.cc
#   proof        proofs/*_test.cc,     tests/witnesses/proof_*_test.cc
#   model-check  modelcheck/*_test.cc, tests/witnesses/model_check_*_test.cc
#   fuzz-replay  one replay per corpus  (cmake/IdlespecFuzz.cmake)
set(IDLESPEC_BUDGET_unit 60)
set(IDLESPEC_BUDGET_property 300)
set(IDLESPEC_BUDGET_proof 600)
set(IDLESPEC_BUDGET_exhaustive 900)
set(IDLESPEC_BUDGET_model-check 900)
# ctest starts the costliest tests first (COST): on a fresh clone, as in CI,
# it has no timings of its own and would otherwise run the long scripts
# last, alone. Per label, a rough order: the long searches, then the rest;
# the scripts get their measured seconds (below).
set(IDLESPEC_COST_unit 1)
set(IDLESPEC_COST_property 5)
set(IDLESPEC_COST_proof 10)
set(IDLESPEC_COST_exhaustive 20)
set(IDLESPEC_COST_model-check 30)
# validate keeps Z3's answers for the next run (validate/boundaries.cc); the
# tests keep theirs in the build tree, never in the caller's home.
set(IDLESPEC_TEST_ENV "IDLESPEC_CACHE_DIR=${CMAKE_BINARY_DIR}/cache")

function(idlespec_test_binary name label)
  set(sources ${ARGN})
  # The sanitizer build leaves the witnesses (tests/witnesses/: the release
  # checks run on deliberately broken subjects) to release, which runs every
  # one of them: under ASan a witness runs the same check code as its
  # clause's own test, which the asan preset keeps, with another subject
  # (docs/building.md, "What the asan preset leaves to release").
  if(IDLESPEC_SANITIZE)
    list(FILTER sources EXCLUDE REGEX "/tests/witnesses/")
  endif()
  if(NOT sources)
    return()
  endif()
  add_executable(${name} ${sources})
  target_link_libraries(${name} PRIVATE idlespec_verify idlespec_validate GTest::gtest GTest::gtest_main rapidcheck
                                        Threads::Threads)
  gtest_discover_tests(${name} TEST_PREFIX "${label}/" DISCOVERY_TIMEOUT 120
                       PROPERTIES LABELS ${label} TIMEOUT ${IDLESPEC_BUDGET_${label}}
                                  COST ${IDLESPEC_COST_${label}} ENVIRONMENT ${IDLESPEC_TEST_ENV})
endfunction()

file(GLOB unit_sources CONFIGURE_DEPENDS tests/unit/*_test.cc)
idlespec_test_binary(unit_tests unit ${unit_sources})

file(GLOB property_sources CONFIGURE_DEPENDS properties/*_test.cc tests/witnesses/property_*_test.cc)
idlespec_test_binary(property_tests property ${property_sources})

file(GLOB proof_sources CONFIGURE_DEPENDS proofs/*_test.cc tests/witnesses/proof_*_test.cc)
idlespec_test_binary(proof_tests proof ${proof_sources})

file(GLOB exhaustive_sources CONFIGURE_DEPENDS tests/exhaustive/*_test.cc
     tests/witnesses/exhaustive_*_test.cc)
idlespec_test_binary(exhaustive_tests exhaustive ${exhaustive_sources})

file(GLOB model_check_sources CONFIGURE_DEPENDS modelcheck/*_test.cc
     tests/witnesses/model_check_*_test.cc)
idlespec_test_binary(model_check_tests model-check ${model_check_sources})

# A script that cannot run for want of a tool exits 77 (tests/skip.sh):
# ctest reports it skipped, never passed; with CI=true it fails instead.
# The command line, as people and scripts use it.
# (tests/cli/lib.sh is what they share, not a test.)
file(GLOB cli_scripts CONFIGURE_DEPENDS tests/cli/*.sh)
list(FILTER cli_scripts EXCLUDE REGEX "/lib\\.sh$")
foreach(script ${cli_scripts})
  get_filename_component(stem ${script} NAME_WE)
  add_test(NAME unit/cli_${stem} COMMAND bash ${script} $<TARGET_FILE:idlespec> ${CMAKE_SOURCE_DIR})
  set_tests_properties(unit/cli_${stem} PROPERTIES LABELS unit TIMEOUT ${IDLESPEC_BUDGET_unit}
                                                  ENVIRONMENT ${IDLESPEC_TEST_ENV}
                                                  SKIP_RETURN_CODE 77)
endforeach()
# It compiles every fuzz target as ClusterFuzzLite would (~2.5 min loaded).
if(TEST unit/cli_clusterfuzzlite)
  set_tests_properties(unit/cli_clusterfuzzlite PROPERTIES TIMEOUT 400)
endif()
# It waits out a hanging candidate constructor and killed runs: ~3 s of CPU
# but 57-76 s of wall time on a loaded 2-core machine, past the unit budget.
if(TEST unit/cli_hostile)
  set_tests_properties(unit/cli_hostile PROPERTIES TIMEOUT 240)
endif()
# It renders five reports in headless Chromium: 60 s ran out once on a
# machine loaded by two builds (the timeout only ends a hang).
if(TEST unit/cli_html_report)
  set_tests_properties(unit/cli_html_report PROPERTIES TIMEOUT 240)
endif()

include(cmake/IdlespecStress.cmake)  # the stress test (label stress; the tsan preset)

# idlespec-validate against the kernel-style C files of tests/validate/: every
# tests/validate/run_<name>.sh is the test unit/validate_<name>; its second
# line says "# ctest: budget=SECONDS timeout=SECONDS" (the script's --budget
# and ctest's timeout).
file(GLOB validate_scripts CONFIGURE_DEPENDS tests/validate/run_*.sh)
foreach(script ${validate_scripts})
  get_filename_component(stem ${script} NAME_WE)
  string(REGEX REPLACE "^run_" "" name ${stem})
  file(STRINGS ${script} header REGEX "^# ctest: budget=[0-9]+ timeout=[0-9]+$" LIMIT_COUNT 1)
  if(NOT header)
    message(FATAL_ERROR "${script}: no '# ctest: budget=N timeout=N' line")
  endif()
  string(REGEX REPLACE "^# ctest: budget=([0-9]+) timeout=([0-9]+)$" "\\1" budget "${header}")
  string(REGEX REPLACE "^# ctest: budget=([0-9]+) timeout=([0-9]+)$" "\\2" timeout "${header}")
  add_test(NAME unit/validate_${name}
           COMMAND sh ${script} $<TARGET_FILE:idlespec-validate> ${budget})
  set_tests_properties(unit/validate_${name} PROPERTIES LABELS unit TIMEOUT ${timeout}
                                                       ENVIRONMENT ${IDLESPEC_TEST_ENV}
                                                       SKIP_RETURN_CODE 77)
endforeach()

# The scripts' seconds in a release CI run (2026-12-03), for ctest's order.
foreach(entry validate_states=128 cli_clusterfuzzlite=118 validate_xcede=114
        validate_idle_core=110 validate_busy_delay=66 validate_teo=46 cli_html_report=39
        validate_sandbox=26 validate_governor=20 validate_verdicts=16 validate_candidate=15
        validate_budget=66 validate_hostile=40 validate_shims=17 validate_sigmask=100)
  string(REPLACE "=" ";" entry ${entry})
  list(GET entry 0 test)
  list(GET entry 1 seconds)
  if(TEST unit/${test})
    set_tests_properties(unit/${test} PROPERTIES COST ${seconds})
  endif()
endforeach()
