# cmake -P: runs COMMAND (a ;-list), requires exit code EXIT (NONZERO: any failure) and that
# stdout+stderr match MATCH. The command must exit by itself: a timeout (a hang after the
# expected message) or a death by signal fails, whatever was printed.
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err
                TIMEOUT 30)
if(NOT code MATCHES "^[0-9]+$")
  message(FATAL_ERROR "the command did not exit by itself (${code})\nstdout: ${out}\nstderr: ${err}")
endif()
if(EXIT STREQUAL "NONZERO" AND (code STREQUAL "0" OR NOT code))
  message(FATAL_ERROR "exit code ${code}, expected a failure\nstdout: ${out}\nstderr: ${err}")
elseif(NOT EXIT STREQUAL "NONZERO" AND NOT code STREQUAL "${EXIT}")
  message(FATAL_ERROR "exit code ${code}, expected ${EXIT}\nstdout: ${out}\nstderr: ${err}")
endif()
if(NOT "${out}${err}" MATCHES "${MATCH}")
  message(FATAL_ERROR "output does not match '${MATCH}'\nstdout: ${out}\nstderr: ${err}")
endif()
