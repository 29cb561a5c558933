# Fails when docs/configuration.md differs from `remorarun --help-config=markdown`.
# cmake -DREMORARUN=<remorarun> -DDOC=<docs/configuration.md> -DOUTPUT=<scratch file> -P this
execute_process(COMMAND ${REMORARUN} --help-config=markdown
                OUTPUT_FILE ${OUTPUT} RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "remorarun --help-config=markdown failed (${status})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${DOC} ${OUTPUT} RESULT_VARIABLE differ)
if(NOT differ EQUAL 0)
  message(FATAL_ERROR
    "${DOC} is out of date with src/core/config_vars.def (generated version: ${OUTPUT}).\n"
    "Regenerate it from the build directory with:\n"
    "  ${REMORARUN} --help-config=markdown > ${DOC}\n"
    "and commit the result.")
endif()
