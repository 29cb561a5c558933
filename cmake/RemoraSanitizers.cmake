# REMORA_SANITIZE=address -> ASan + UBSan; thread -> TSan. Applied to everything built here.
if(REMORA_SANITIZE STREQUAL "address")
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
elseif(REMORA_SANITIZE STREQUAL "thread")
  # TSan does not model standalone fences (used in the wake-up protocol); say so only once.
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer -Wno-tsan)
  add_link_options(-fsanitize=thread)
elseif(NOT REMORA_SANITIZE STREQUAL "")
  message(FATAL_ERROR "REMORA_SANITIZE='${REMORA_SANITIZE}': expected '', 'address' or 'thread'")
endif()
