# Sources of the rma layer (windows, epochs, accumulate strategies).
target_sources(remora_layer_rma PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/reduce_op.cpp
  ${CMAKE_CURRENT_LIST_DIR}/window_options.cpp
  ${CMAKE_CURRENT_LIST_DIR}/waiter_set.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rw_lock.cpp
  ${CMAKE_CURRENT_LIST_DIR}/lock_table.cpp
  ${CMAKE_CURRENT_LIST_DIR}/lock_granularity.cpp
  ${CMAKE_CURRENT_LIST_DIR}/native_atomics.cpp
  ${CMAKE_CURRENT_LIST_DIR}/acc_strategy.cpp
  ${CMAKE_CURRENT_LIST_DIR}/epoch.cpp
  ${CMAKE_CURRENT_LIST_DIR}/epoch_pscw.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pscw.cpp
  ${CMAKE_CURRENT_LIST_DIR}/layout.cpp
  ${CMAKE_CURRENT_LIST_DIR}/owner_computes.cpp
  ${CMAKE_CURRENT_LIST_DIR}/owner_protocol.cpp
  ${CMAKE_CURRENT_LIST_DIR}/locked_update.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ghost_service.cpp
  ${CMAKE_CURRENT_LIST_DIR}/lock_server.cpp
  ${CMAKE_CURRENT_LIST_DIR}/remote_locks.cpp
  ${CMAKE_CURRENT_LIST_DIR}/window.cpp
  ${CMAKE_CURRENT_LIST_DIR}/op_queue.cpp
  ${CMAKE_CURRENT_LIST_DIR}/deferred_fence.cpp
  ${CMAKE_CURRENT_LIST_DIR}/deferred_lock.cpp
  ${CMAKE_CURRENT_LIST_DIR}/window_registry.cpp
  ${CMAKE_CURRENT_LIST_DIR}/user_memory.cpp
  ${CMAKE_CURRENT_LIST_DIR}/agent_rdma.cpp)
