# Sources of the arrays layer (distributed arrays), and the optional BLAS for gemm.
target_sources(remora_layer_arrays PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/process_grid.cpp
  ${CMAKE_CURRENT_LIST_DIR}/block_store.cpp
  ${CMAKE_CURRENT_LIST_DIR}/block_deal.cpp
  ${CMAKE_CURRENT_LIST_DIR}/grid_tiles.cpp
  ${CMAKE_CURRENT_LIST_DIR}/distribution.cpp
  ${CMAKE_CURRENT_LIST_DIR}/patch_plan.cpp
  ${CMAKE_CURRENT_LIST_DIR}/array.cpp
  ${CMAKE_CURRENT_LIST_DIR}/array_memory.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sync_tracker.cpp
  ${CMAKE_CURRENT_LIST_DIR}/request.cpp
  ${CMAKE_CURRENT_LIST_DIR}/nonblocking.cpp
  ${CMAKE_CURRENT_LIST_DIR}/owner_batches.cpp
  ${CMAKE_CURRENT_LIST_DIR}/summa_gemm.cpp
  ${CMAKE_CURRENT_LIST_DIR}/mutex_set.cpp
  ${CMAKE_CURRENT_LIST_DIR}/local_gemm.cpp
  ${CMAKE_CURRENT_LIST_DIR}/collective_ops.cpp
  ${CMAKE_CURRENT_LIST_DIR}/linear_patch.cpp
  ${CMAKE_CURRENT_LIST_DIR}/patch_ops.cpp
  ${CMAKE_CURRENT_LIST_DIR}/axpy_batch.cpp)

# BLAS is optional: gemm falls back to its own loops without it.
option(REMORA_WITH_BLAS "Multiply local blocks in remora_array_gemm with a CBLAS library when found" ON)
if(REMORA_WITH_BLAS)
  find_path(REMORA_CBLAS_INCLUDE_DIR cblas.h PATH_SUFFIXES openblas openblas-pthread)
  find_library(REMORA_CBLAS_LIBRARY NAMES openblas cblas)
  if(REMORA_CBLAS_INCLUDE_DIR AND REMORA_CBLAS_LIBRARY)
    message(STATUS "remora arrays: gemm uses BLAS from ${REMORA_CBLAS_LIBRARY}")
    set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/local_gemm.cpp PROPERTIES
      COMPILE_DEFINITIONS REMORA_HAVE_CBLAS
      INCLUDE_DIRECTORIES ${REMORA_CBLAS_INCLUDE_DIR})
    set(REMORA_BLAS_LINK ${REMORA_CBLAS_LIBRARY})
  else()
    message(STATUS "remora arrays: no CBLAS found; gemm uses its own loops")
  endif()
endif()
