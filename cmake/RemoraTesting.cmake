# remora_add_multirank_test(<name>
#     SOURCES <file>...              test program sources (or TARGET <existing executable>)
#     RANKS <n>...                   rank counts to run it at
#     [PROGRESS <mode>...]           progress modes: manual, thread, ghost (default: manual
#                                    thread); ghost runs the node's ghost process as well
#     [LABELS <label>...]            CTest labels (added: shm, np<N>, the mode; also_below5,
#                                    one_thread and async_beside_np2 as explained below)
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
  # also_below5: a run at 5 or more ranks of a test that also runs at 2-4 ranks; the sanitizer
  # jobs leave these out (scripts/run-tests.sh), the plain job runs them.
  set(runs_below5 FALSE)
  foreach(ranks IN LISTS arg_RANKS)
    if(ranks GREATER 1 AND ranks LESS 5)
      set(runs_below5 TRUE)
    endif()
  endforeach()
  # async_beside_np2: a run with asynchronous progress (thread or ghost) at other than 2 ranks of
  # a test that also runs at 2 ranks; ASan leaves these out (that progress's own code runs at 2).
  set(runs_at_np2 FALSE)
  if("2" IN_LIST arg_RANKS)
    set(runs_at_np2 TRUE)
  endif()
  foreach(ranks IN LISTS arg_RANKS)
    set(width_label)
    if(runs_below5 AND ranks GREATER 4)
      set(width_label also_below5)
    endif()
    foreach(mode IN LISTS arg_PROGRESS)
      set(test ${name}.np${ranks}.${mode})
      # one_thread: every process of the run has a single thread (no progress thread, and the
      # test starts none: it is not labelled threads); TSan, which does not see across
      # processes, has nothing to check there.
      set(run_labels ${width_label})
      if(NOT mode STREQUAL "thread" AND NOT "threads" IN_LIST arg_LABELS)
        list(APPEND run_labels one_thread)
      endif()
      if(NOT mode STREQUAL "manual" AND NOT ranks EQUAL 2 AND runs_at_np2)
        list(APPEND run_labels async_beside_np2)
      endif()
      add_test(NAME ${test}
               COMMAND $<TARGET_FILE:remorarun> -n ${ranks} --timeout ${arg_TIMEOUT}
                       $<TARGET_FILE:${exe}> ${arg_ARGS})
      math(EXPR ctest_timeout "${arg_TIMEOUT} + 15")
      set_tests_properties(${test} PROPERTIES
        TIMEOUT ${ctest_timeout}
        LABELS "shm;np${ranks};${mode};${run_labels};${arg_LABELS}"
        ENVIRONMENT "REMORA_PROGRESS=${mode};REMORATEST_RANKS=${ranks};${arg_ENV}")
      set_property(GLOBAL APPEND PROPERTY REMORA_MULTIRANK_TESTS "${test}|${exe}|${ranks}|${mode}")
      foreach(field TIMEOUT LABELS ARGS ENV)
        set_property(GLOBAL PROPERTY REMORA_MULTIRANK_${field}_${test} "${arg_${field}}")
      endforeach()
      set_property(GLOBAL PROPERTY REMORA_MULTIRANK_AT_NP2_${test} ${runs_at_np2})
    endforeach()
  endforeach()
endfunction()

# remora_read_multirank_entry(<entry of REMORA_MULTIRANK_TESTS>): sets test, exe, ranks, mode,
# timeout, labels, args and env in the caller's scope, and launcher_env: Open MPI refuses to
# run as root without its first two variables and more ranks than cores without the third;
# MPICH ignores them.
macro(remora_read_multirank_entry entry)
  string(REPLACE "|" ";" parts "${entry}")
  list(GET parts 0 test)
  list(GET parts 1 exe)
  list(GET parts 2 ranks)
  list(GET parts 3 mode)
  foreach(field TIMEOUT LABELS ARGS ENV)
    string(TOLOWER ${field} variable)
    get_property(${variable} GLOBAL PROPERTY REMORA_MULTIRANK_${field}_${test})
  endforeach()
  set(launcher_env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
                   OMPI_MCA_rmaps_base_oversubscribe=1)
endmacro()

# remora_add_mpi_tests(MAX_RANKS <n> [EXCLUDE_INTER <regex>])
#
# Registers every multi-rank test recorded so far (up to MAX_RANKS ranks) a second and third
# time, under the MPI launcher found by CMake (MPIEXEC_EXECUTABLE):
#   mpi.<test>        ranks that share this machine use shared memory (node-local path);
#                     for a test that runs at 2 ranks: there, and at 1 rank in manual mode;
#   mpi_inter.<test>  REMORA_NODE_SIZE=1: every rank is its own node, so every operation
#                     between two ranks goes through MPI (the inter-node path); from 2 ranks.
# Labels: mpi, mpi_local or mpi_inter, np<N>, the progress mode and the test's own labels.
# EXCLUDE_INTER: tests (regex on <test>) too slow through MPI on this machine's two cores.
function(remora_add_mpi_tests)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "MAX_RANKS;EXCLUDE_INTER" "")
  get_property(entries GLOBAL PROPERTY REMORA_MULTIRANK_TESTS)
  foreach(entry IN LISTS entries)
    remora_read_multirank_entry("${entry}")
    # Ghost progress needs one extra process per node: remora_add_mpi_ghost_tests.
    if(ranks GREATER arg_MAX_RANKS OR mode STREQUAL "ghost")
      continue()
    endif()
    get_property(runs_at_np2 GLOBAL PROPERTY REMORA_MULTIRANK_AT_NP2_${test})
    foreach(path local inter)
      set(name mpi.${test})
      set(path_env)
      # On one node the data path is remorarun's (run there in every mode up to 8 ranks); what
      # MPI adds is the bootstrap and a progress thread that also polls MPI: a test that runs at
      # 2 ranks runs there in both modes, and alone at 1 rank in manual mode.
      if(path STREQUAL "local" AND runs_at_np2 AND
         (ranks GREATER 2 OR (ranks EQUAL 1 AND mode STREQUAL "thread")))
        continue()
      endif()
      if(path STREQUAL "inter")
        # One rank is one node either way: the run would repeat mpi.<test>.
        if(ranks EQUAL 1)
          continue()
        endif()
        if(arg_EXCLUDE_INTER AND test MATCHES "${arg_EXCLUDE_INTER}")
          continue()
        endif()
        set(name mpi_inter.${test})
        set(path_env REMORA_NODE_SIZE=1)
      endif()
      add_test(NAME ${name}
               COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ranks}
                       $<TARGET_FILE:${exe}> ${args})
      math(EXPR ctest_timeout "${timeout} + 15")
      set_tests_properties(${name} PROPERTIES
        TIMEOUT ${ctest_timeout}
        LABELS "mpi;mpi_${path};np${ranks};${mode};${labels}"
        ENVIRONMENT "REMORA_PROGRESS=${mode};MPIEXEC_TIMEOUT=${timeout};REMORATEST_RANKS=${ranks};${launcher_env};${path_env};${env}")
    endforeach()
  endforeach()
endfunction()

# remora_split_expectation(<entry> <key-var> <pattern-var>): an expected-failure table entry
# "key:pattern" split at its first colon; the pattern (a message, which has colons of its own)
# is everything after it.
function(remora_split_expectation entry key_var pattern_var)
  string(FIND "${entry}" ":" colon)
  string(SUBSTRING "${entry}" 0 ${colon} key)
  math(EXPR colon "${colon} + 1")
  string(SUBSTRING "${entry}" ${colon} -1 pattern)
  set(${key_var} "${key}" PARENT_SCOPE)
  set(${pattern_var} "${pattern}" PARENT_SCOPE)
endfunction()
