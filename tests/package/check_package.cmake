# cmake -P script: install this build into a scratch prefix, then use every installed artefact
# as a project outside the tree would: find_package(Remora) (shared, static, GA, ARMCI and the
# examples), pkg-config (shared, static, GA, ARMCI, the examples shared and static), and run each
# program. With MPI, a project whose
# MPI differs from Remora's must fail to configure with a message naming both.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "command failed (${result}): ${ARGN}\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()
# expect_output(<regex>): the last command's output matches.
macro(expect_output regex what)
  if(NOT last_output MATCHES "${regex}")
    message(FATAL_ERROR "${what}: output does not match '${regex}':\n${last_output}")
  endif()
endmacro()
# expect_libraries(<program> <needed regex> <absent regex>): the program's dynamic dependencies.
function(expect_libraries program needed absent)
  run(ldd ${program})
  if(needed AND NOT last_output MATCHES "${needed}")
    message(FATAL_ERROR "${program} does not load ${needed}:\n${last_output}")
  endif()
  if(absent AND last_output MATCHES "${absent}")
    message(FATAL_ERROR "${program} loads ${absent}:\n${last_output}")
  endif()
endfunction()

# The scratch directory, from the build directory (no other path under it appears in the test
# command but the installed files).
set(SCRATCH ${BUILD_DIR}/tests/package/scratch)
foreach(file IN LISTS INSTALLED)
  if(NOT EXISTS "${file}")
    message(FATAL_ERROR "${file} is not built: build the library targets before this test")
  endif()
endforeach()
file(REMOVE_RECURSE ${SCRATCH})
set(prefix ${SCRATCH}/prefix)
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
set(remorarun ${prefix}/bin/remorarun)
foreach(page share/man/man1/remorarun.1 share/man/man3/remora.3)
  if(NOT EXISTS ${prefix}/${page})
    message(FATAL_ERROR "${page} is not installed")
  endif()
endforeach()
if(HAVE_MPI AND OTHER_MPI_C_COMPILER AND OTHER_MPIEXEC)
  # The "other" MPI becomes this machine's default mpicc (first on PATH), as on a system whose
  # default MPI is not the one Remora was built with.
  file(MAKE_DIRECTORY ${SCRATCH}/other-mpi-bin)
  # FindMPI looks for mpicc next to the mpiexec it finds first: both are the other MPI's.
  file(CREATE_LINK ${OTHER_MPI_C_COMPILER} ${SCRATCH}/other-mpi-bin/mpicc SYMBOLIC)
  file(CREATE_LINK ${OTHER_MPIEXEC} ${SCRATCH}/other-mpi-bin/mpiexec SYMBOLIC)
  set(ENV{PATH} "${SCRATCH}/other-mpi-bin:$ENV{PATH}")
endif()

# find_package(Remora): Remora's config finds the MPI Remora was built with.
set(consumer ${SCRATCH}/consumer)
run(${CMAKE_COMMAND} -S ${CONSUMER_SOURCE} -B ${consumer} -G ${GENERATOR}
    -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_PREFIX_PATH=${prefix}
    -DREMORA_EXAMPLES_DIR=${EXAMPLES_DIR})
run(${CMAKE_COMMAND} --build ${consumer})
run(${consumer}/remora_consumer)
expect_output("consumer: rank 0 of 1, fetch-add gave 41, value 42" "find_package consumer")
run(${remorarun} -n 2 ${consumer}/remora_consumer)
expect_output("rank 0 of 2, fetch-add gave 41, value 42" "find_package consumer, 2 ranks")
run(${remorarun} -n 2 ${consumer}/remora_consumer_static)
expect_output("rank 0 of 2, fetch-add gave 41, value 42" "static find_package consumer")
expect_libraries(${consumer}/remora_consumer_static "" "libremora\\.so")
foreach(example IN LISTS EXAMPLES)
  run(${remorarun} -n 4 ${consumer}/examples/${example})
  expect_output("${example}: .*: correct" "example ${example} from the installed prefix")
  if(HAVE_MPI)
    run(${MPIEXEC} -n 4 ${consumer}/examples/${example})
    expect_output("${example}: .*: correct" "example ${example} under ${MPIEXEC}")
  endif()
endforeach()
if(HAVE_MPI)
  expect_libraries(${consumer}/remora_consumer_static "${MPI_LIBRARY_REGEX}" "${OTHER_MPI_LIBRARY_REGEX}")
  run(${MPIEXEC} -n 2 ${consumer}/remora_ga_consumer)
  expect_output("ga consumer: 2 ranks, counter 2" "find_package GA consumer")
  expect_libraries(${consumer}/remora_ga_consumer "${MPI_LIBRARY_REGEX}" "${OTHER_MPI_LIBRARY_REGEX}")
  run(${MPIEXEC} -n 2 ${consumer}/remora_armci_consumer)
  expect_output("armci consumer: 2 ranks, counter 2" "find_package ARMCI consumer")

  # A project that chose the other MPI (the default mpicc here) before find_package(Remora),
  # and one that names it with -DMPI_C_COMPILER: both fail at configure time, naming both MPIs
  # and the fix.
  set(mismatches "")
  if(OTHER_MPI_C_COMPILER AND OTHER_MPIEXEC)
    set(mismatches "-DCONSUMER_FIND_MPI_FIRST=ON" "-DMPI_C_COMPILER=${OTHER_MPI_C_COMPILER}")
  endif()
  foreach(how IN LISTS mismatches)
    string(MAKE_C_IDENTIFIER "${how}" dir)
    execute_process(COMMAND ${CMAKE_COMMAND} -S ${CONSUMER_SOURCE} -B ${SCRATCH}/mismatch_${dir}
        -G ${GENERATOR} -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_PREFIX_PATH=${prefix} ${how}
      RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(result EQUAL 0)
      message(FATAL_ERROR "a consumer with the other MPI (${how}) configured:\n${out}\n${err}")
    endif()
    string(REGEX REPLACE "[ \t\r\n]+" " " err "${err}")
    if(NOT err MATCHES "was built with ${MPI_NAME_REGEX} .*but this project uses ${OTHER_MPI_NAME_REGEX} .*-DMPI_C_COMPILER=")
      message(FATAL_ERROR "the MPI mismatch (${how}) gave no clear message:\n${err}")
    endif()
  endforeach()
  # Choosing Remora's MPI first is fine.
  run(${CMAKE_COMMAND} -S ${CONSUMER_SOURCE} -B ${SCRATCH}/same_mpi -G ${GENERATOR}
      -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_PREFIX_PATH=${prefix}
      -DCONSUMER_FIND_MPI_FIRST=ON -DMPI_C_COMPILER=${MPI_C_COMPILER})
endif()

# pkg-config, the same programs.
find_program(PKG_CONFIG pkg-config REQUIRED)
set(ENV{PKG_CONFIG_PATH} ${prefix}/lib/pkgconfig)
function(pkg_config var)
  run(${PKG_CONFIG} ${ARGN})
  string(STRIP "${last_output}" flags)
  separate_arguments(flags UNIX_COMMAND "${flags}")
  set(${var} ${flags} PARENT_SCOPE)
endfunction()
pkg_config(libdir --variable=libdir remora)
set(rpath -Wl,-rpath,${libdir})
# Shared.
pkg_config(flags --cflags --libs remora)
run(${C_COMPILER} ${CONSUMER_SOURCE}/consumer.c -o ${SCRATCH}/pc_shared ${flags} ${rpath})
run(${remorarun} -n 2 ${SCRATCH}/pc_shared)
expect_output("rank 0 of 2, fetch-add gave 41, value 42" "pkg-config consumer")
expect_libraries(${SCRATCH}/pc_shared "libremora\\.so" "")
# Static: Libs.private must hold everything libremora.a needs.
pkg_config(flags --static --cflags --libs remora)
list(TRANSFORM flags REPLACE "^-lremora$" "-Wl,-Bstatic;-lremora;-Wl,-Bdynamic")
run(${C_COMPILER} ${CONSUMER_SOURCE}/consumer.c -o ${SCRATCH}/pc_static ${flags})
run(${remorarun} -n 2 ${SCRATCH}/pc_static)
expect_output("rank 0 of 2, fetch-add gave 41, value 42" "static pkg-config consumer")
expect_libraries(${SCRATCH}/pc_static "" "libremora\\.so")
# The examples through pkg-config as well, shared and static, each run on 4 ranks.
pkg_config(shared_flags --cflags --libs remora)
pkg_config(static_flags --static --cflags --libs remora)
list(TRANSFORM static_flags REPLACE "^-lremora$" "-Wl,-Bstatic;-lremora;-Wl,-Bdynamic")
foreach(example IN LISTS EXAMPLES)
  run(${C_COMPILER} ${EXAMPLES_DIR}/${example}.c -I${EXAMPLES_DIR} -o ${SCRATCH}/pc_${example}
      ${shared_flags} ${rpath})
  run(${remorarun} -n 4 ${SCRATCH}/pc_${example})
  expect_output("${example}: .*: correct" "example ${example} built with pkg-config")
  run(${C_COMPILER} ${EXAMPLES_DIR}/${example}.c -I${EXAMPLES_DIR}
      -o ${SCRATCH}/pc_static_${example} ${static_flags})
  run(${remorarun} -n 4 ${SCRATCH}/pc_static_${example})
  expect_output("${example}: .*: correct" "example ${example} built with pkg-config --static")
  expect_libraries(${SCRATCH}/pc_static_${example} "" "libremora\\.so")
endforeach()
if(HAVE_MPI)
  run(${PKG_CONFIG} --variable=mpi remora)
  expect_output("^${MPI_NAME_REGEX}" "remora.pc's mpi variable")
  expect_libraries(${SCRATCH}/pc_static "${MPI_LIBRARY_REGEX}" "${OTHER_MPI_LIBRARY_REGEX}")
  # GA: ga.h includes mpi.h; remora_ga.pc brings the MPI's flags.
  pkg_config(flags --cflags --libs remora_ga)
  run(${C_COMPILER} ${CONSUMER_SOURCE}/ga_consumer.c -o ${SCRATCH}/pc_ga ${flags} ${rpath})
  run(${MPIEXEC} -n 2 ${SCRATCH}/pc_ga)
  expect_output("ga consumer: 2 ranks, counter 2" "pkg-config GA consumer")
  expect_libraries(${SCRATCH}/pc_ga "${MPI_LIBRARY_REGEX}" "${OTHER_MPI_LIBRARY_REGEX}")
  # ARMCI: armci.h includes mpi.h too; remora_armci.pc brings the MPI's flags.
  pkg_config(flags --cflags --libs remora_armci)
  run(${C_COMPILER} ${CONSUMER_SOURCE}/armci_consumer.c -o ${SCRATCH}/pc_armci ${flags} ${rpath})
  run(${MPIEXEC} -n 2 ${SCRATCH}/pc_armci)
  expect_output("armci consumer: 2 ranks, counter 2" "pkg-config ARMCI consumer")
endif()
message(STATUS "installed package: find_package and pkg-config consumers (shared, static, GA, ARMCI, "
               "examples) built and ran")
