# cmake -P script: install, consume with find_package and with pkg-config, run both.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "command failed (${result}): ${ARGN}\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${SCRATCH})
set(prefix ${SCRATCH}/prefix)
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})

# find_package(Remora) from the install prefix.
run(${CMAKE_COMMAND} -S ${CONSUMER_SOURCE} -B ${SCRATCH}/consumer -G ${GENERATOR}
    -DCMAKE_PREFIX_PATH=${prefix})
run(${CMAKE_COMMAND} --build ${SCRATCH}/consumer)
run(${SCRATCH}/consumer/remora_consumer)
if(NOT last_output MATCHES "consumer: rank 0 of 1, fetch-add gave 41, value 42")
  message(FATAL_ERROR "unexpected consumer output: ${last_output}")
endif()
run(${prefix}/bin/remorarun -n 2 ${SCRATCH}/consumer/remora_consumer)

# pkg-config.
find_program(PKG_CONFIG pkg-config REQUIRED)
set(ENV{PKG_CONFIG_PATH} ${prefix}/lib/pkgconfig)
run(${PKG_CONFIG} --cflags --libs remora)
string(STRIP "${last_output}" flags)
separate_arguments(flags UNIX_COMMAND "${flags}")
run(${C_COMPILER} ${CONSUMER_SOURCE}/consumer.c -o ${SCRATCH}/pkgconfig_consumer ${flags}
    -Wl,-rpath,${prefix}/lib)
run(${SCRATCH}/pkgconfig_consumer)
if(NOT last_output MATCHES "value 42")
  message(FATAL_ERROR "unexpected pkg-config consumer output: ${last_output}")
endif()
message(STATUS "find_package(Remora) and pkg-config consumers built and ran")
