# remora_add_mpi_ghost_tests(MAX_RANKS <n> INCLUDE <regex> [INCLUDE_INTER <regex>]
#                            [MAX_INTER_RANKS <n>])
#
# Registers again, under the MPI launcher with ghost progress (docs/running-on-clusters.md,
# "Ghost progress"), the multi-rank tests recorded with PROGRESS ghost whose name (<test>.np<N>)
# matches INCLUDE, up to MAX_RANKS ranks. The launcher starts one extra process per node, the
# node's ghost:
#   mpi_ghost.<test>.np<N>.ghost        N + 1 processes on one node (REMORA_NODE_SIZE=0);
#   mpi_ghost_inter.<test>.np<N>.ghost  2N processes, REMORA_NODE_SIZE=2: N nodes of one rank and
#                                       its ghost (for names matching INCLUDE_INTER);
#   mpi_ghost_inter3.<test>.np<N>.ghost 3N/2 processes, REMORA_NODE_SIZE=3: N/2 nodes of two ranks
#                                       and their ghost (the same names, N even).
# INCLUDE_INTER tests go up to MAX_INTER_RANKS ranks (default MAX_RANKS).
# Labels: mpi, mpi_ghost, np<N> (application ranks), ghost and the test's own labels.
function(remora_add_mpi_ghost_tests)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "MAX_RANKS;INCLUDE;INCLUDE_INTER;MAX_INTER_RANKS" "")
  if(NOT arg_MAX_INTER_RANKS)
    set(arg_MAX_INTER_RANKS ${arg_MAX_RANKS})
  endif()
  get_property(entries GLOBAL PROPERTY REMORA_MULTIRANK_TESTS)
  foreach(entry IN LISTS entries)
    remora_read_multirank_entry("${entry}")
    if(NOT mode STREQUAL "ghost")
      continue()
    endif()
    foreach(path local inter inter3)
      if(path STREQUAL "local")
        if(ranks GREATER arg_MAX_RANKS OR NOT test MATCHES "${arg_INCLUDE}")
          continue()
        endif()
        set(name mpi_ghost.${test})
        math(EXPR processes "${ranks} + 1")
        set(node_size 0)
      else()
        math(EXPR odd "${ranks} % 2")
        if(NOT arg_INCLUDE_INTER OR NOT test MATCHES "${arg_INCLUDE_INTER}"
           OR ranks GREATER arg_MAX_INTER_RANKS OR (path STREQUAL "inter3" AND odd))
          continue()
        endif()
        if(path STREQUAL "inter")
          set(name mpi_ghost_inter.${test})
          math(EXPR processes "${ranks} * 2")
          set(node_size 2)
        else()
          set(name mpi_ghost_inter3.${test})
          math(EXPR processes "${ranks} * 3 / 2")
          set(node_size 3)
        endif()
      endif()
      add_test(NAME ${name}
               COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${processes}
                       $<TARGET_FILE:${exe}> ${args})
      math(EXPR ctest_timeout "${timeout} + 15")
      set_tests_properties(${name} PROPERTIES
        TIMEOUT ${ctest_timeout}
        LABELS "mpi;mpi_ghost;np${ranks};ghost;${labels}"
        ENVIRONMENT "REMORA_PROGRESS=ghost;REMORA_NODE_SIZE=${node_size};MPIEXEC_TIMEOUT=${timeout};REMORATEST_RANKS=${ranks};${launcher_env};${env}")
      if(test MATCHES "^app_hf_proxy")
        # The exit code decides (0 only when verified); no PASS_REGULAR_EXPRESSION, which
        # would make CTest ignore it.
        set_tests_properties(${name} PROPERTIES FAIL_REGULAR_EXPRESSION "NOT verified")
      endif()
    endforeach()
  endforeach()
endfunction()
