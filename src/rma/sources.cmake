# Sources of the rma layer (windows, epochs, accumulate strategies).
target_sources(remora_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/reduce_op.cpp)
