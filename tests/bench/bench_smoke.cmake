# cmake -P: runs COMMAND (a ;-list: a benchmark under remorarun with --csv) and requires exit
# code 0 and, on stdout, the benchmarks' CSV header as the first line followed by at least one
# row of the schema bench,variant,ranks,bytes,metric,value. A command that does not exit by
# itself fails.
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err
                TIMEOUT 75)
if(NOT code STREQUAL "0")
  message(FATAL_ERROR "exit code ${code}, expected 0\nstdout: ${out}\nstderr: ${err}")
endif()
if(NOT out MATCHES "^bench,variant,ranks,bytes,metric,value\n[A-Za-z0-9_]+,[^,\n]+,[0-9]+,[0-9]+,[^,\n]+,[-+0-9.eE]+\n")
  message(FATAL_ERROR "stdout does not start with the CSV header and a row\nstdout: ${out}\nstderr: ${err}")
endif()
string(REGEX MATCHALL "\n" lines "${out}")
list(LENGTH lines count)
math(EXPR rows "${count} - 1")
message(STATUS "${rows} rows")
