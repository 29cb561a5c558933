# Sources of the coll layer (barrier, messaging, communicators, schedules, collectives).
target_sources(remora_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/barrier.cpp)
