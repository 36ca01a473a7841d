# Fuzz targets: fuzz/<component>_fuzz.cc defines LLVMFuzzerTestOneInput.
#  - always: <target>_replay, the target linked with fuzz/replay_main.cc, and a
#    ctest (label fuzz-replay) that runs the whole corpus fuzz/corpus/<target>;
#  - with IDLESPEC_LIBFUZZER (clang, the 'fuzz' preset): the libFuzzer binary.
file(GLOB fuzz_targets CONFIGURE_DEPENDS fuzz/*_fuzz.cc)
foreach(src ${fuzz_targets})
  get_filename_component(target ${src} NAME_WE)
  add_executable(${target}_replay ${src} fuzz/replay_main.cc)
  target_link_libraries(${target}_replay PRIVATE idlespec_fuzzcheck)
  add_test(NAME fuzz-replay/${target}
           COMMAND ${target}_replay ${CMAKE_SOURCE_DIR}/fuzz/corpus/${target})
  set_tests_properties(fuzz-replay/${target} PROPERTIES LABELS fuzz-replay TIMEOUT 300)
  if(IDLESPEC_LIBFUZZER)
    add_executable(${target} ${src})
    target_link_libraries(${target} PRIVATE idlespec_fuzzcheck)
    target_link_options(${target} PRIVATE -fsanitize=fuzzer)
  endif()
endforeach()

if(EXISTS ${CMAKE_SOURCE_DIR}/fuzz/Witnesses.cmake)
  include(${CMAKE_SOURCE_DIR}/fuzz/Witnesses.cmake)
endif()
