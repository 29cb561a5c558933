# Installation: libraries, headers, remorarun, a CMake package (find_package(Remora)) and a
# pkg-config file.
include(CMakePackageConfigHelpers)

install(TARGETS remora remora_static EXPORT RemoraTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
if(TARGET remora_ga)
  # Exported as Remora::remora_ga (src/ga installs the library file itself too). The installed
  # library finds libremora next to itself: a program's own RUNPATH does not apply to the
  # libraries its libraries need.
  set_target_properties(remora_ga PROPERTIES INSTALL_RPATH "$ORIGIN")
  install(TARGETS remora_ga EXPORT RemoraTargets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
if(TARGET remora_armci)
  # Exported as Remora::remora_armci, as remora_ga above.
  set_target_properties(remora_armci PROPERTIES INSTALL_RPATH "$ORIGIN")
  install(TARGETS remora_armci EXPORT RemoraTargets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
install(DIRECTORY include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES docs/man/remorarun.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES docs/man/remora.3 DESTINATION ${CMAKE_INSTALL_MANDIR}/man3)
install(EXPORT RemoraTargets NAMESPACE Remora:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Remora)

install(FILES cmake/RemoraMpiIdentity.cmake DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Remora)

# pkg-config: remora.pc, remora_ga.pc with the GA-compatible library and remora_armci.pc with
# the ARMCI-compatible one. Libs.private lists
# what libremora.a needs (pkg-config --static): the C++ runtime, threads, BLAS and the MPI.
file(RELATIVE_PATH REMORA_PC_TO_PREFIX "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
set(REMORA_PC_LIBS_PRIVATE "-lstdc++ -lm -pthread")
# BLAS, when gemm uses it: the library given by path among libremora's link libraries.
get_target_property(remora_link_libraries remora LINK_LIBRARIES)
foreach(lib IN LISTS remora_link_libraries)
  if(IS_ABSOLUTE "${lib}")
    if(lib MATCHES "^(.*)/lib([^/]+)\\.(so|a)(\\.[0-9.]*)?$")
      string(APPEND REMORA_PC_LIBS_PRIVATE " -L${CMAKE_MATCH_1} -l${CMAKE_MATCH_2}")
    else()
      string(APPEND REMORA_PC_LIBS_PRIVATE " ${lib}")
    endif()
  endif()
endforeach()
set(REMORA_PC_MPI_NAME "")
set(REMORA_PC_MPI_C_COMPILER "")
set(REMORA_PC_MPI_REQUIRES "")
set(REMORA_PC_MPI_LIBS "")
set(REMORA_PC_MPI_CFLAGS "")
set(REMORA_GA_PC_REQUIRES "remora = ${PROJECT_VERSION}")
if(REMORA_HAVE_MPI)
  # The MPI the library was built with (the search in src/ reuses the cache), recorded for the
  # installed RemoraConfig.cmake and the .pc files.
  find_package(MPI REQUIRED COMPONENTS C)
  include(cmake/RemoraMpiIdentity.cmake)
  remora_mpi_identity(REMORA_MPI_NAME REMORA_MPI_LIBRARIES)
  set(REMORA_PC_MPI_NAME "${REMORA_MPI_NAME}")
  set(REMORA_PC_MPI_C_COMPILER "${MPI_C_COMPILER}")
  # Name the MPI's own pkg-config module when it describes the same installation.
  set(mpi_module "")
  if(REMORA_MPI_NAME MATCHES "^MPICH")
    set(mpi_module mpich)
  elseif(REMORA_MPI_NAME MATCHES "^Open MPI")
    set(mpi_module ompi-c)
  endif()
  find_program(REMORA_PKG_CONFIG pkg-config)
  mark_as_advanced(REMORA_PKG_CONFIG)
  set(mpi_module_libdir "")
  if(mpi_module AND REMORA_PKG_CONFIG)
    execute_process(COMMAND ${REMORA_PKG_CONFIG} --variable=libdir ${mpi_module}
      RESULT_VARIABLE result OUTPUT_VARIABLE mpi_module_libdir OUTPUT_STRIP_TRAILING_WHITESPACE
      ERROR_QUIET)
    if(NOT result EQUAL 0)
      set(mpi_module_libdir "")
    endif()
  endif()
  list(GET MPI_C_LIBRARIES 0 mpi_library)
  get_filename_component(mpi_library_dir "${mpi_library}" DIRECTORY)
  if(mpi_module_libdir AND mpi_module_libdir STREQUAL mpi_library_dir)
    set(REMORA_PC_MPI_REQUIRES "${mpi_module}")
    string(APPEND REMORA_GA_PC_REQUIRES ", ${mpi_module}")
  else()
    # No matching module: the MPI's libraries and headers themselves.
    string(REPLACE ";" " " REMORA_PC_MPI_LIBS "${MPI_C_LIBRARIES}")
    string(APPEND REMORA_PC_LIBS_PRIVATE " ${REMORA_PC_MPI_LIBS}")
    foreach(dir IN LISTS MPI_C_INCLUDE_DIRS)
      string(APPEND REMORA_PC_MPI_CFLAGS " -I${dir}")
    endforeach()
  endif()
  message(STATUS "Remora package: records ${REMORA_MPI_NAME} (${MPI_C_COMPILER}); "
                 "remora.pc Requires.private: '${REMORA_PC_MPI_REQUIRES}'")
endif()
configure_package_config_file(cmake/RemoraConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/RemoraConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Remora
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/RemoraConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/RemoraConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/RemoraConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Remora)

configure_file(cmake/remora.pc.in ${CMAKE_CURRENT_BINARY_DIR}/remora.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/remora.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(TARGET remora_ga)
  configure_file(cmake/remora_ga.pc.in ${CMAKE_CURRENT_BINARY_DIR}/remora_ga.pc @ONLY)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/remora_ga.pc
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endif()
if(TARGET remora_armci)
  # The same requirements as remora_ga.pc (remora and the MPI).
  configure_file(cmake/remora_armci.pc.in ${CMAKE_CURRENT_BINARY_DIR}/remora_armci.pc @ONLY)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/remora_armci.pc
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endif()
