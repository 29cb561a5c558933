# The MPI transport: built when MPI is found (REMORA_WITH_MPI=AUTO) or required (ON).
set(REMORA_WITH_MPI AUTO CACHE STRING "Build the MPI transport: AUTO (when MPI is found), ON, OFF")
set_property(CACHE REMORA_WITH_MPI PROPERTY STRINGS AUTO ON OFF)
set(REMORA_HAVE_MPI OFF)
if(NOT REMORA_WITH_MPI STREQUAL "OFF")
  if(REMORA_WITH_MPI STREQUAL "ON")
    find_package(MPI REQUIRED COMPONENTS C)
  else()
    find_package(MPI COMPONENTS C)
  endif()
  if(MPI_C_FOUND)
    set(REMORA_HAVE_MPI ON)
  endif()
endif()
set(REMORA_HAVE_MPI ${REMORA_HAVE_MPI} PARENT_SCOPE)
if(REMORA_HAVE_MPI)
  message(STATUS "Remora: MPI transport ON (${MPI_C_COMPILER}, MPI ${MPI_C_VERSION}, "
                 "launcher ${MPIEXEC_EXECUTABLE})")
  remora_add_layer_objects(remora_layer_transport_mpi transport)
  list(APPEND remora_object_libraries remora_layer_transport_mpi)
  target_sources(remora_layer_transport_mpi PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/mpi_session.cpp
    ${CMAKE_CURRENT_LIST_DIR}/death_notice.cpp
    ${CMAKE_CURRENT_LIST_DIR}/node_layout.cpp
    ${CMAKE_CURRENT_LIST_DIR}/am_channel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/endpoint_map.cpp
    ${CMAKE_CURRENT_LIST_DIR}/rma_window.cpp
    ${CMAKE_CURRENT_LIST_DIR}/rma_accumulate.cpp
    ${CMAKE_CURRENT_LIST_DIR}/mpi_transport.cpp
    ${CMAKE_CURRENT_LIST_DIR}/ghost_split.cpp
    ${CMAKE_CURRENT_LIST_DIR}/ghost_endpoint.cpp
    ${CMAKE_CURRENT_LIST_DIR}/mpi_ghost.cpp)
  # The api layer also asks the MPI session (mpi.h) whether MPI is there.
  foreach(layer transport_mpi api)
    target_compile_definitions(remora_layer_${layer} PRIVATE REMORA_HAVE_MPI OMPI_SKIP_MPICXX=1
                                                             MPICH_SKIP_MPICXX=1)
    target_link_libraries(remora_layer_${layer} PUBLIC MPI::MPI_C)
  endforeach()
else()
  message(STATUS "Remora: MPI transport OFF (REMORA_WITH_MPI=${REMORA_WITH_MPI})")
endif()
