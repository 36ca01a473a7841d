# Test binaries by label. Each gtest TEST becomes its own ctest entry with the
# label's time budget (seconds); see README "Time budgets".
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

function(idlespec_test_binary name label)
  set(sources ${ARGN})
  if(NOT sources)
    return()
  endif()
  add_executable(${name} ${sources})
  target_link_libraries(${name} PRIVATE idlespec_verify idlespec_validate GTest::gtest GTest::gtest_main rapidcheck
                                        Threads::Threads)
  gtest_discover_tests(${name} TEST_PREFIX "${label}/" DISCOVERY_TIMEOUT 120
                       PROPERTIES LABELS ${label} TIMEOUT ${IDLESPEC_BUDGET_${label}})
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

# The command line, as people and scripts use it.
file(GLOB cli_scripts CONFIGURE_DEPENDS tests/cli/*.sh)
foreach(script ${cli_scripts})
  get_filename_component(stem ${script} NAME_WE)
  add_test(NAME unit/cli_${stem} COMMAND bash ${script} $<TARGET_FILE:idlespec> ${CMAKE_SOURCE_DIR})
  set_tests_properties(unit/cli_${stem} PROPERTIES LABELS unit TIMEOUT ${IDLESPEC_BUDGET_unit})
endforeach()

include(cmake/IdlespecStress.cmake)  # the stress test (label stress; the tsan preset)

# idlespec-validate against the kernel-style C files of tests/validate/.
add_test(NAME unit/validate_busy_delay
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/validate/run.sh $<TARGET_FILE:idlespec-validate> 120)
set_tests_properties(unit/validate_busy_delay PROPERTIES LABELS unit TIMEOUT 300)
add_test(NAME unit/validate_xcede
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/validate/run_xcede.sh $<TARGET_FILE:idlespec-validate> 60)
set_tests_properties(unit/validate_xcede PROPERTIES LABELS unit TIMEOUT 300)
add_test(NAME unit/validate_states
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/validate/run_states.sh $<TARGET_FILE:idlespec-validate> 60)
set_tests_properties(unit/validate_states PROPERTIES LABELS unit TIMEOUT 300)
add_test(NAME unit/validate_governor
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/validate/run_governor.sh $<TARGET_FILE:idlespec-validate> 60)
set_tests_properties(unit/validate_governor PROPERTIES LABELS unit TIMEOUT 300)
add_test(NAME unit/validate_idle_core
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/validate/run_idle_core.sh $<TARGET_FILE:idlespec-validate> 120)
set_tests_properties(unit/validate_idle_core PROPERTIES LABELS unit TIMEOUT 600)
add_test(NAME unit/validate_candidate
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/validate/run_candidate.sh $<TARGET_FILE:idlespec-validate> 60)
set_tests_properties(unit/validate_candidate PROPERTIES LABELS unit TIMEOUT 300)
