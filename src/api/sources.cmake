# Sources of the public C API (include/remora/*.h): argument checks, handle tables and the
# runtime, over the layers below.
target_sources(remora_layer_api PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/runtime.cpp
  ${CMAKE_CURRENT_LIST_DIR}/launch.cpp
  ${CMAKE_CURRENT_LIST_DIR}/status_api.cpp
  ${CMAKE_CURRENT_LIST_DIR}/runtime_api.cpp
  ${CMAKE_CURRENT_LIST_DIR}/mpi_comm_api.cpp
  ${CMAKE_CURRENT_LIST_DIR}/segment_api.cpp
  ${CMAKE_CURRENT_LIST_DIR}/am_api.cpp
  ${CMAKE_CURRENT_LIST_DIR}/types_api.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ghost_process.cpp
  # communicators, groups and collectives (remora/coll.h)
  ${CMAKE_CURRENT_LIST_DIR}/coll_api.cpp
  ${CMAKE_CURRENT_LIST_DIR}/coll_handles.cpp
  ${CMAKE_CURRENT_LIST_DIR}/comm_api.cpp
  ${CMAKE_CURRENT_LIST_DIR}/request_api.cpp
  # windows (remora/win.h)
  ${CMAKE_CURRENT_LIST_DIR}/win_api.cpp
  ${CMAKE_CURRENT_LIST_DIR}/window_comm.cpp
  ${CMAKE_CURRENT_LIST_DIR}/win_create_api.cpp
  ${CMAKE_CURRENT_LIST_DIR}/win_pscw_api.cpp
  ${CMAKE_CURRENT_LIST_DIR}/win_request_api.cpp
  ${CMAKE_CURRENT_LIST_DIR}/layout_api.cpp
  # distributed arrays (remora/array.h)
  ${CMAKE_CURRENT_LIST_DIR}/array_checks.cpp
  ${CMAKE_CURRENT_LIST_DIR}/array_create_api.cpp
  ${CMAKE_CURRENT_LIST_DIR}/array_transfer_api.cpp
  ${CMAKE_CURRENT_LIST_DIR}/array_patch_api.cpp
  ${CMAKE_CURRENT_LIST_DIR}/array_ops_api.cpp
  ${CMAKE_CURRENT_LIST_DIR}/array_mutex_api.cpp
  ${CMAKE_CURRENT_LIST_DIR}/axpy_api.cpp)
