# remora_add_mpi_ghost_tests(MAX_RANKS <n> INCLUDE <regex> [INCLUDE_INTER <regex>])
#
# Registers again, under the MPI launcher with ghost progress (docs/running-on-clusters.md,
# "Ghost progress"), the multi-rank tests recorded with PROGRESS ghost whose name (<test>.np<N>)
# matches INCLUDE, up to MAX_RANKS ranks. The launcher starts one extra process per node, the
# node's ghost:
#   mpi_ghost.<test>.np<N>.ghost        N + 1 processes on one node (REMORA_NODE_SIZE=0);
#   mpi_ghost_inter.<test>.np<N>.ghost  2N processes, REMORA_NODE_SIZE=2: N nodes of one rank and
#                                       its ghost (for names matching INCLUDE_INTER).
# Labels: mpi, mpi_ghost, np<N> (application ranks), ghost and the test's own labels.
function(remora_add_mpi_ghost_tests)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "MAX_RANKS;INCLUDE;INCLUDE_INTER" "")
  get_property(entries GLOBAL PROPERTY REMORA_MULTIRANK_TESTS)
  foreach(entry IN LISTS entries)
    remora_read_multirank_entry("${entry}")
    if(ranks GREATER arg_MAX_RANKS OR NOT mode STREQUAL "ghost" OR NOT test MATCHES "${arg_INCLUDE}")
      continue()
    endif()
    foreach(path local inter)
      if(path STREQUAL "local")
        set(name mpi_ghost.${test})
        math(EXPR processes "${ranks} + 1")
        set(node_size 0)
      else()
        if(NOT arg_INCLUDE_INTER OR NOT test MATCHES "${arg_INCLUDE_INTER}")
          continue()
        endif()
        set(name mpi_ghost_inter.${test})
        math(EXPR processes "${ranks} * 2")
        set(node_size 2)
      endif()
      add_test(NAME ${name}
               COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${processes}
                       $<TARGET_FILE:${exe}> ${args})
      math(EXPR ctest_timeout "${timeout} + 15")
      set_tests_properties(${name} PROPERTIES
        TIMEOUT ${ctest_timeout}
        LABELS "mpi;mpi_ghost;np${ranks};ghost;${labels}"
        ENVIRONMENT "REMORA_PROGRESS=ghost;REMORA_NODE_SIZE=${node_size};MPIEXEC_TIMEOUT=${timeout};${launcher_env};${env}")
      if(test MATCHES "^app_hf_proxy")
        set_tests_properties(${name} PROPERTIES PASS_REGULAR_EXPRESSION "hf_proxy: verified"
                                                FAIL_REGULAR_EXPRESSION "NOT verified")
      endif()
    endforeach()
  endforeach()
endfunction()
