# Sources of the coll layer (barrier, messaging, communicators, schedules, collectives).
target_sources(remora_objects PRIVATE
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
  ${CMAKE_CURRENT_LIST_DIR}/bypass_reduce.cpp
  ${CMAKE_CURRENT_LIST_DIR}/algorithms/common.cpp
  ${CMAKE_CURRENT_LIST_DIR}/algorithms/barrier.cpp
  ${CMAKE_CURRENT_LIST_DIR}/algorithms/bcast.cpp
  ${CMAKE_CURRENT_LIST_DIR}/algorithms/reduce.cpp
  ${CMAKE_CURRENT_LIST_DIR}/algorithms/allreduce.cpp
  ${CMAKE_CURRENT_LIST_DIR}/algorithms/reduce_scatter.cpp
  ${CMAKE_CURRENT_LIST_DIR}/algorithms/gather.cpp
  ${CMAKE_CURRENT_LIST_DIR}/algorithms/scatter.cpp
  ${CMAKE_CURRENT_LIST_DIR}/algorithms/allgather.cpp
  ${CMAKE_CURRENT_LIST_DIR}/algorithms/alltoall.cpp
  ${CMAKE_CURRENT_LIST_DIR}/algorithms/scan.cpp
  ${CMAKE_CURRENT_LIST_DIR}/algorithms/shm.cpp
  ${CMAKE_CURRENT_LIST_DIR}/shm_area.cpp)
