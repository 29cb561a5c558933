# remora_add_multirank_test(<name>
#     SOURCES <file>...              test program sources (or TARGET <existing executable>)
#     RANKS <n>...                   rank counts to run it at
#     [PROGRESS <mode>...]           progress modes: manual, thread, ghost (default: manual
#                                    thread); ghost runs the node's ghost process as well
#     [LABELS <label>...]            CTest labels (shm and np<N> are added)
#     [ARGS <arg>...]                program arguments
#     [TIMEOUT <seconds>]            per run (default 120); remorarun --timeout enforces it too
#     [ENV <VAR=value>...]           extra environment for every run
#     [LIBRARIES <target>...]        extra link libraries
#     [INTERNAL])                    link the static library with its internal headers instead
#                                    of libremora (for tests that reach below the C API)
#
# Registers <name>.np<N>.<mode> for each rank count and progress mode, run under remorarun
# with a timeout, so a hang fails the test and not the CI run. Each registration is also
# recorded in the global property REMORA_MULTIRANK_TESTS (name;exe;ranks;...) so the same
# tests can be registered again for another launcher (the MPI transport).
function(remora_add_multirank_test name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "INTERNAL" "TIMEOUT;TARGET"
                        "SOURCES;RANKS;PROGRESS;LABELS;ARGS;LIBRARIES;ENV")
  if(NOT arg_RANKS)
    message(FATAL_ERROR "remora_add_multirank_test(${name}): RANKS is required")
  endif()
  if(NOT arg_PROGRESS)
    set(arg_PROGRESS manual thread)
  endif()
  foreach(mode IN LISTS arg_PROGRESS)
    if(NOT mode MATCHES "^(manual|thread|ghost)$")
      message(FATAL_ERROR "remora_add_multirank_test(${name}): PROGRESS ${mode} is not one of "
                          "manual, thread, ghost")
    endif()
  endforeach()
  if(NOT arg_TIMEOUT)
    set(arg_TIMEOUT 120)
  endif()
  if(arg_TARGET)
    set(exe ${arg_TARGET})
  else()
    set(exe test_${name})
    add_executable(${exe} ${arg_SOURCES})
    if(arg_INTERNAL)
      set(library remora_internal)
    else()
      set(library remora)
    endif()
    target_link_libraries(${exe} PRIVATE ${library} remora_test_support remora_warnings
                                         ${arg_LIBRARIES})
  endif()
  foreach(ranks IN LISTS arg_RANKS)
    foreach(mode IN LISTS arg_PROGRESS)
      set(test ${name}.np${ranks}.${mode})
      add_test(NAME ${test}
               COMMAND $<TARGET_FILE:remorarun> -n ${ranks} --timeout ${arg_TIMEOUT}
                       $<TARGET_FILE:${exe}> ${arg_ARGS})
      math(EXPR ctest_timeout "${arg_TIMEOUT} + 15")
      set_tests_properties(${test} PROPERTIES
        TIMEOUT ${ctest_timeout}
        LABELS "shm;np${ranks};${mode};${arg_LABELS}"
        ENVIRONMENT "REMORA_PROGRESS=${mode};${arg_ENV}")
      set_property(GLOBAL APPEND PROPERTY REMORA_MULTIRANK_TESTS "${test}|${exe}|${ranks}|${mode}")
    endforeach()
  endforeach()
endfunction()
