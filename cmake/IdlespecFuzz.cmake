# Fuzz targets, the OSS-Fuzz way: fuzz/<component>_fuzz.cc defines
# LLVMFuzzerTestOneInput, with fuzz/corpus/<target>/ its seed corpus and
# optional fuzz/<target>.dict and fuzz/<target>.options beside it.
#  - always: <target>_replay, the target linked with fuzz/replay_main.cc, and a
#    ctest (label fuzz-replay) that runs the whole corpus fuzz/corpus/<target>;
#    xcede_fuzz_seeds, busy_delay_fuzz_seeds, idle_core_fuzz_seeds,
#    governor_fuzz_seeds and teo_fuzz_seeds, which write the hand-made seeds
#    of the xcede (and states: the same layout), busy_delay, idle_core,
#    governor and teo corpora;
#  - with IDLESPEC_LIBFUZZER (clang, the 'fuzz' preset): the libFuzzer binary
#    of every target, the noop_fuzz baseline (scripts/bench.sh) and the fuzz
#    witnesses with their fresh-campaign ctests (label fuzz-replay).
# Campaigns: `make fuzz` (ctest --preset fuzz, then scripts/fuzz.sh).
file(GLOB fuzz_targets CONFIGURE_DEPENDS fuzz/*_fuzz.cc)
foreach(src ${fuzz_targets})
  get_filename_component(target ${src} NAME_WE)
  add_executable(${target}_replay ${src} fuzz/replay_main.cc)
  target_link_libraries(${target}_replay PRIVATE idlespec_fuzz)
  add_test(NAME fuzz-replay/${target}
           COMMAND ${target}_replay ${CMAKE_SOURCE_DIR}/fuzz/corpus/${target})
  set_tests_properties(fuzz-replay/${target} PROPERTIES LABELS fuzz-replay TIMEOUT 300)
  if(IDLESPEC_LIBFUZZER)
    add_executable(${target} ${src})
    target_link_libraries(${target} PRIVATE idlespec_fuzz)
    target_link_options(${target} PRIVATE -fsanitize=fuzzer)
  endif()
endforeach()

add_executable(xcede_fuzz_seeds fuzz/xcede_seeds.cc)
target_link_libraries(xcede_fuzz_seeds PRIVATE idlespec_fuzz)
add_executable(busy_delay_fuzz_seeds fuzz/busy_delay_seeds.cc)
target_link_libraries(busy_delay_fuzz_seeds PRIVATE idlespec_fuzz)
add_executable(idle_core_fuzz_seeds fuzz/idle_core_seeds.cc)
target_link_libraries(idle_core_fuzz_seeds PRIVATE idlespec_fuzz)
add_executable(governor_fuzz_seeds fuzz/governor_seeds.cc)
target_link_libraries(governor_fuzz_seeds PRIVATE idlespec_fuzz)
add_executable(teo_fuzz_seeds fuzz/teo_seeds.cc)
target_link_libraries(teo_fuzz_seeds PRIVATE idlespec_fuzz)

if(IDLESPEC_LIBFUZZER)
  # The baseline libFuzzer binary: same flags, does nothing (scripts/bench.sh).
  add_executable(noop_fuzz fuzz/noop/noop_fuzz.cc)
  target_link_options(noop_fuzz PRIVATE -fsanitize=fuzzer)
  # The subjects alone, judged by nothing (scripts/bench.sh): built by
  # `make bench` only, so the fuzz preset's build (CI) does not wait for it.
  add_executable(subject_only_fuzz EXCLUDE_FROM_ALL fuzz/noop/subject_only_fuzz.cc)
  target_link_libraries(subject_only_fuzz PRIVATE idlespec_fuzz)
  target_link_options(subject_only_fuzz PRIVATE -fsanitize=fuzzer)

  # Fuzz witnesses: a target's checker over a deliberately broken subject
  # (tests/witnesses/xcede_witnesses.h). The ctest runs a fresh campaign from
  # an empty corpus in the build tree (-seed=1, the target's dictionary and
  # max_len) and passes only if libFuzzer finds the violation of `clause`
  # within max_runs runs and max_seconds (tests/witnesses/fuzz_expect_crash.sh).
  # Every witness is also listed in BUILD/fuzz-witnesses.tsv (name, target,
  # clause), which scripts/fuzz_exposure.sh reads.
  set(witness_list ${CMAKE_BINARY_DIR}/fuzz-witnesses.tsv)
  file(WRITE ${witness_list} "")
  function(idlespec_fuzz_witness name source options clause max_runs max_seconds)
    get_filename_component(target ${options} NAME_WE)
    file(APPEND ${witness_list} "${name}\t${target}\t${clause}\n")
    add_executable(${name} ${source})
    target_link_libraries(${name} PRIVATE idlespec_fuzz)
    target_link_options(${name} PRIVATE -fsanitize=fuzzer)
    add_test(NAME fuzz-replay/witness_${name}
             COMMAND bash ${CMAKE_SOURCE_DIR}/tests/witnesses/fuzz_expect_crash.sh
                     $<TARGET_FILE:${name}> ${clause}
                     ${CMAKE_BINARY_DIR}/fuzz-witness/${name} ${options} ${max_runs}
                     ${max_seconds})
    set_tests_properties(fuzz-replay/witness_${name} PROPERTIES LABELS fuzz-replay TIMEOUT 90)
  endfunction()

  set(xcede_options ${CMAKE_SOURCE_DIR}/fuzz/xcede_fuzz.options)
  idlespec_fuzz_witness(xcede_fuzz_witness_unbounded_decoder
                        tests/witnesses/fuzz_unbounded_decoder.cc ${xcede_options}
                        XCEDE-1 200000 50)
  idlespec_fuzz_witness(xcede_fuzz_witness_boolean_wake
                        tests/witnesses/fuzz_boolean_wake.cc ${xcede_options}
                        XCEDE-5 200000 50)
  # states_fuzz's driver (the table judged by oracle/states.h).
  set(states_options ${CMAKE_SOURCE_DIR}/fuzz/states_fuzz.options)
  idlespec_fuzz_witness(states_fuzz_witness_min_minus_one
                        tests/witnesses/fuzz_min_minus_one.cc ${states_options}
                        STATES-4 200000 50)
  idlespec_fuzz_witness(states_fuzz_witness_keeps_out_of_order
                        tests/witnesses/fuzz_keeps_out_of_order.cc ${states_options}
                        STATES-1 200000 50)

  # busy_delay_fuzz's checker over tests/witnesses/busy_delay_witnesses.h.
  set(busy_delay_options ${CMAKE_SOURCE_DIR}/fuzz/busy_delay_fuzz.options)
  idlespec_fuzz_witness(busy_delay_fuzz_witness_no_reset
                        tests/witnesses/fuzz_busy_delay_no_reset.cc ${busy_delay_options}
                        BUSY-7 20000 50)
  idlespec_fuzz_witness(busy_delay_fuzz_witness_accepts_9906
                        tests/witnesses/fuzz_busy_delay_accepts_9906.cc ${busy_delay_options}
                        BUSY-1 20000 50)

  # idle_core_fuzz's driver and oracle over tests/witnesses/idle_core_witnesses.h.
  set(idle_core_options ${CMAKE_SOURCE_DIR}/fuzz/idle_core_fuzz.options)
  idlespec_fuzz_witness(idle_core_fuzz_witness_first_skips_resync
                        tests/witnesses/fuzz_idle_core_first_skips_resync.cc ${idle_core_options}
                        IDLE-3 200000 50)
  idlespec_fuzz_witness(idle_core_fuzz_witness_every_thread_resyncs
                        tests/witnesses/fuzz_idle_core_every_thread_resyncs.cc ${idle_core_options}
                        IDLE-9 200000 50)

  # governor_fuzz's driver and checker over tests/witnesses/governor_witnesses.h.
  set(governor_options ${CMAKE_SOURCE_DIR}/fuzz/governor_fuzz.options)
  idlespec_fuzz_witness(governor_fuzz_witness_ignores_disabled
                        tests/witnesses/fuzz_governor_ignores_disabled.cc ${governor_options}
                        GOV-1 200000 50)
  idlespec_fuzz_witness(governor_fuzz_witness_prediction_32_bit
                        tests/witnesses/fuzz_governor_prediction_32_bit.cc ${governor_options}
                        GOV-5 200000 50)

  # teo_fuzz's driver and oracle over tests/witnesses/teo_witnesses.h.
  set(teo_options ${CMAKE_SOURCE_DIR}/fuzz/teo_fuzz.options)
  idlespec_fuzz_witness(teo_fuzz_witness_polling_stops_tick
                        tests/witnesses/fuzz_teo_polling_stops_tick.cc ${teo_options}
                        TEO-3 200000 50)
  idlespec_fuzz_witness(teo_fuzz_witness_no_tick_correction
                        tests/witnesses/fuzz_teo_no_tick_correction.cc ${teo_options}
                        TEO-4 200000 50)
endif()
