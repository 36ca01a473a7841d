# The multi-threaded stress test of the idle_core protocol (tests/stress/),
# included from cmake/IdlespecTests.cmake. Label `stress`.
#  - stress_tests: gtest binary; each TEST is a ctest entry. The reference on
#    POWER8 SMT4, SMT8, SMT8 split 2x4, SMT2 without the workaround and
#    POWER9 SMT4 (IDLESPEC_STRESS_SECONDS each: 3 s under TSan, 2 s
#    otherwise), and one witness per tests/witnesses/idle_core_witnesses.h
#    subject, run until its first violation.
#  - idle_core_stress: the same harness as a command (soak runs; the race
#    witness below).
#  - with IDLESPEC_TSAN (the `tsan` preset): stress/tsan_race_witness, the
#    harness over a shared non-atomic PlainWord, which ThreadSanitizer must
#    report as a data race (tests/stress/expect_tsan_race.sh).
# The stress binaries link idlespec_impl and the oracle (its judge): the tsan preset builds just
# these targets (its build preset lists them) and those libraries, and its test
# preset runs label stress only.
#
# TSan toolchain: gcc 12's libtsan (the preset's choice, like release and
# asan) and clang 14's both run here (Debian 12 user space, kernel 6.18,
# vm.mmap_rnd_bits = 28). Where TSan aborts with "unexpected memory mapping"
# (kernels with more mmap randomisation bits than it knows), run the tests
# under `setarch -R` (ASLR off) or lower vm.mmap_rnd_bits to 28.
set(IDLESPEC_BUDGET_stress 120)
if(IDLESPEC_TSAN)
  set(IDLESPEC_STRESS_SECONDS 3)
else()
  set(IDLESPEC_STRESS_SECONDS 2)
endif()

add_library(idlespec_stress STATIC tests/stress/idle_core_stress.cc)
target_link_libraries(idlespec_stress PUBLIC idlespec_impl idlespec_oracle Threads::Threads)

add_executable(stress_tests tests/stress/idle_core_stress_test.cc)
target_compile_definitions(stress_tests PRIVATE IDLESPEC_STRESS_SECONDS=${IDLESPEC_STRESS_SECONDS})
target_link_libraries(stress_tests PRIVATE idlespec_stress GTest::gtest GTest::gtest_main)
gtest_discover_tests(stress_tests TEST_PREFIX "stress/" DISCOVERY_TIMEOUT 120
                     PROPERTIES LABELS stress TIMEOUT ${IDLESPEC_BUDGET_stress})

add_executable(idle_core_stress tests/stress/idle_core_stress_main.cc)
target_link_libraries(idle_core_stress PRIVATE idlespec_stress)

if(IDLESPEC_TSAN)
  add_test(NAME stress/tsan_race_witness
           COMMAND bash ${CMAKE_SOURCE_DIR}/tests/stress/expect_tsan_race.sh
                   $<TARGET_FILE:idle_core_stress>)
  set_tests_properties(stress/tsan_race_witness PROPERTIES LABELS stress
                                                           TIMEOUT ${IDLESPEC_BUDGET_stress})
endif()
