# Sources of the rma layer (windows, epochs, accumulate strategies).
target_sources(remora_layer_rma PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/reduce_op.cpp
  ${CMAKE_CURRENT_LIST_DIR}/window_options.cpp
  ${CMAKE_CURRENT_LIST_DIR}/locks/waiter_set.cpp
  ${CMAKE_CURRENT_LIST_DIR}/locks/rw_lock.cpp
  ${CMAKE_CURRENT_LIST_DIR}/locks/lock_table.cpp
  ${CMAKE_CURRENT_LIST_DIR}/locks/lock_granularity.cpp
  ${CMAKE_CURRENT_LIST_DIR}/accumulate/native_atomics.cpp
  ${CMAKE_CURRENT_LIST_DIR}/accumulate/element_fetch.cpp
  ${CMAKE_CURRENT_LIST_DIR}/accumulate/acc_strategy.cpp
  ${CMAKE_CURRENT_LIST_DIR}/epoch.cpp
  ${CMAKE_CURRENT_LIST_DIR}/epoch_pscw.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pscw.cpp
  ${CMAKE_CURRENT_LIST_DIR}/layout.cpp
  ${CMAKE_CURRENT_LIST_DIR}/accumulate/owner_computes.cpp
  ${CMAKE_CURRENT_LIST_DIR}/accumulate/owner_protocol.cpp
  ${CMAKE_CURRENT_LIST_DIR}/accumulate/acc_pieces.cpp
  ${CMAKE_CURRENT_LIST_DIR}/accumulate/locked_update.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ghost_service.cpp
  ${CMAKE_CURRENT_LIST_DIR}/locks/lock_server.cpp
  ${CMAKE_CURRENT_LIST_DIR}/locks/remote_locks.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bulk_copy.cpp
  ${CMAKE_CURRENT_LIST_DIR}/window.cpp
  ${CMAKE_CURRENT_LIST_DIR}/window_rows.cpp
  ${CMAKE_CURRENT_LIST_DIR}/op_queue.cpp
  ${CMAKE_CURRENT_LIST_DIR}/deferred_fence.cpp
  ${CMAKE_CURRENT_LIST_DIR}/deferred_lock.cpp
  ${CMAKE_CURRENT_LIST_DIR}/window_registry.cpp
  ${CMAKE_CURRENT_LIST_DIR}/user_memory.cpp
  ${CMAKE_CURRENT_LIST_DIR}/agent_rdma.cpp)

# The reduction kernels are vectorised whatever the build type: GCC's -O2 vectorises only loops
# that need no alias check and no remainder, so a RelWithDebInfo build ran apply_op's loops (its
# AVX2 and AVX-512 ones too) one element at a time. -O3 already vectorises with this cost model.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/reduce_op.cpp PROPERTIES
    COMPILE_OPTIONS "-ftree-vectorize;-fvect-cost-model=dynamic")
endif()
