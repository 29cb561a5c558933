# Installation: libraries, headers, remorarun, a CMake package (find_package(Remora)) and a
# pkg-config file.
include(CMakePackageConfigHelpers)

install(TARGETS remora remora_static EXPORT RemoraTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT RemoraTargets NAMESPACE Remora:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Remora)

configure_package_config_file(cmake/RemoraConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/RemoraConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Remora
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/RemoraConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/RemoraConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/RemoraConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Remora)

file(RELATIVE_PATH REMORA_PC_TO_PREFIX "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
configure_file(cmake/remora.pc.in ${CMAKE_CURRENT_BINARY_DIR}/remora.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/remora.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
