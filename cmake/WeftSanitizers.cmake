# The sanitizer builds the test suite runs besides the normal one (WEFT_SANITIZER_TESTS):
#
#   asan  AddressSanitizer + UndefinedBehaviorSanitizer (leaks included)
#   tsan  ThreadSanitizer
#
# Each has a variant of libweft (weft_<san>) and of the simulation backend
# (weft_sim_<san>); the unit, simulation and end-to-end tests build against them too,
# their ctest names prefixed "<san>.". The Verilated models (the static region and the
# thread images) are generated code and stay uninstrumented: under TSan their memory is
# not checked, but every hand-over between threads goes through the backend's
# instrumented mutexes, which is what TSan needs to see.
include_guard(GLOBAL)

set(WEFT_SANITIZERS asan tsan)
set(WEFT_SANITIZER_asan_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=undefined
    -fno-omit-frame-pointer)
set(WEFT_SANITIZER_asan_LINK -fsanitize=address,undefined)
set(WEFT_SANITIZER_asan_ENV "ASAN_OPTIONS=halt_on_error=1:detect_leaks=1"
    "UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1")
set(WEFT_SANITIZER_tsan_FLAGS -fsanitize=thread -fno-omit-frame-pointer)
set(WEFT_SANITIZER_tsan_LINK -fsanitize=thread)
set(WEFT_SANITIZER_tsan_ENV "TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1")

# weft_sanitize(<target> <san>): compile and link <target> under sanitizer <san>, and pass
# it on to what links the target.
function(weft_sanitize target san)
  target_compile_options(${target} PUBLIC ${WEFT_SANITIZER_${san}_FLAGS})
  target_link_options(${target} PUBLIC ${WEFT_SANITIZER_${san}_LINK})
endfunction()

# weft_with_sanitized_variants(<maker> <target>): call the function <maker> for <target>
# and, with WEFT_SANITIZER_TESTS, for <target>_<san> under each sanitizer, so a library
# and its variants are made by one piece of code.
function(weft_with_sanitized_variants maker target)
  cmake_language(CALL ${maker} ${target})
  if(WEFT_SANITIZER_TESTS)
    foreach(san IN LISTS WEFT_SANITIZERS)
      cmake_language(CALL ${maker} ${target}_${san})
      weft_sanitize(${target}_${san} ${san})
    endforeach()
  endif()
endfunction()

# weft_test_code(<exe>): a test program's own code compiled unoptimised with line tables
# only. GTest's macros are most of a test file's compile time: 28 s at -O2 -g, 9 s at
# -O0 -g1 (under ASan+UBSan over two minutes at -O2 -g, under 30 s at -O0 -g1). The
# libraries under test keep the build type's optimisation.
function(weft_test_code exe)
  target_compile_options(${exe} PRIVATE -O0 -g1)
endfunction()

# weft_sanitized_tests(<exe> <prefix> <timeout> SOURCES ... LIBS ... [DEPENDS ...]
#                      [DEFINITIONS ...] [INCLUDES ...])
# The test executable <exe>_<san> for each sanitizer, linked against the <lib>_<san>
# variant of each library in LIBS, its tests named "<san>.<prefix>...".
function(weft_sanitized_tests exe prefix timeout)
  cmake_parse_arguments(PARSE_ARGV 3 ARG "" "" "SOURCES;LIBS;DEPENDS;DEFINITIONS;INCLUDES")
  if(NOT WEFT_SANITIZER_TESTS)
    return()
  endif()
  foreach(san IN LISTS WEFT_SANITIZERS)
    set(libs)
    foreach(lib IN LISTS ARG_LIBS)
      if(NOT TARGET ${lib}_${san})
        return()
      endif()
      list(APPEND libs ${lib}_${san})
    endforeach()
    add_executable(${exe}_${san} ${ARG_SOURCES})
    target_link_libraries(${exe}_${san} PRIVATE ${libs} GTest::gtest_main)
    weft_test_code(${exe}_${san})
    if(ARG_DEFINITIONS)
      target_compile_definitions(${exe}_${san} PRIVATE ${ARG_DEFINITIONS})
    endif()
    if(ARG_INCLUDES)
      target_include_directories(${exe}_${san} PRIVATE ${ARG_INCLUDES})
    endif()
    if(ARG_DEPENDS)
      add_dependencies(${exe}_${san} ${ARG_DEPENDS})
    endif()
    gtest_discover_tests(${exe}_${san} TEST_PREFIX "${san}.${prefix}" DISCOVERY_TIMEOUT 60
                         NO_PRETTY_VALUES
                         PROPERTIES LABELS "${san}" TIMEOUT ${timeout}
                         ENVIRONMENT "${WEFT_SANITIZER_${san}_ENV}")
  endforeach()
endfunction()
