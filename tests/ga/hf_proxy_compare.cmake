# cmake -P: the HF proxy gives the same results through the GA-compatible API as through
# Remora's own. Runs NATIVE (hf_proxy under remorarun) and GA (hf_proxy_ga under mpiexec), both
# ;-lists with the same proxy arguments. Both must exit 0 and print "hf_proxy: verified"; every
# run of GA (layout, variant, checksum of the final matrix) must appear, identical, in NATIVE's
# table, and GA must have run rma_nb and rma_blocking on both layouts.
cmake_minimum_required(VERSION 3.20)  # IN_LIST
function(run_proxy what command out_rows)
  execute_process(COMMAND ${command} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err
                  TIMEOUT 60)
  if(NOT code STREQUAL "0" OR NOT out MATCHES "hf_proxy: verified")
    message(FATAL_ERROR "${what}: exit code ${code}, not verified\nstdout: ${out}\nstderr: ${err}")
  endif()
  message(STATUS "${what}:\n${out}")
  # A table row: layout variant progress tasks/s seconds checksum check.
  string(REGEX MATCHALL "(block|element_cyclic) +[a-z_]+ +[a-z]+ +[0-9.]+ +[0-9.]+  [0-9a-f]+  ok"
               rows "${out}")
  set(result "")
  foreach(row IN LISTS rows)
    string(REGEX REPLACE "^([a-z_]+) +([a-z_]+) +[a-z]+ +[0-9.]+ +[0-9.]+  ([0-9a-f]+)  ok$"
                         "\\1 \\2 \\3" row "${row}")
    list(APPEND result "${row}")
  endforeach()
  set(${out_rows} "${result}" PARENT_SCOPE)
endfunction()

run_proxy(native "${NATIVE}" native_rows)
run_proxy(ga "${GA}" ga_rows)
foreach(expected IN ITEMS "block rma_nb" "block rma_blocking" "element_cyclic rma_nb"
                          "element_cyclic rma_blocking")
  if(NOT ga_rows MATCHES "${expected} ")
    message(FATAL_ERROR "GA did not run ${expected}: ${ga_rows}")
  endif()
endforeach()
foreach(row IN LISTS ga_rows)
  if(NOT row IN_LIST native_rows)
    message(FATAL_ERROR "GA's run '${row}' differs from the native runs:\n${native_rows}")
  endif()
  message(STATUS "same result: ${row}")
endforeach()
