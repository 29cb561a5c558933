# Sources of the coll layer (barrier, messaging, communicators, schedules, collectives).
# Every file of algorithms/ is one (or holds the kernels of one operation): they are taken as
# they are, so that adding an algorithm is its file and its line in algorithms/list.def.
file(GLOB remora_coll_algorithm_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/algorithms/*.cpp)
target_sources(remora_layer_coll PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/barrier.cpp
  ${CMAKE_CURRENT_LIST_DIR}/group.cpp
  ${CMAKE_CURRENT_LIST_DIR}/context_ids.cpp
  ${CMAKE_CURRENT_LIST_DIR}/messaging.cpp
  ${CMAKE_CURRENT_LIST_DIR}/instance_table.cpp
  ${CMAKE_CURRENT_LIST_DIR}/signature.cpp
  ${CMAKE_CURRENT_LIST_DIR}/schedule.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tree.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rank_order.cpp
  ${CMAKE_CURRENT_LIST_DIR}/records.cpp
  ${CMAKE_CURRENT_LIST_DIR}/algorithm.cpp
  ${CMAKE_CURRENT_LIST_DIR}/collectives.cpp
  ${CMAKE_CURRENT_LIST_DIR}/internal_calls.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bypass_reduce.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bypass_slots.cpp
  ${CMAKE_CURRENT_LIST_DIR}/shm_area.cpp
  ${CMAKE_CURRENT_LIST_DIR}/shm_fast.cpp
  ${CMAKE_CURRENT_LIST_DIR}/shm_request.cpp
  ${CMAKE_CURRENT_LIST_DIR}/shm_single_copy.cpp
  ${CMAKE_CURRENT_LIST_DIR}/shm_vforms.cpp
  ${remora_coll_algorithm_sources})
