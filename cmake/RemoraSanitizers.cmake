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

# remora_sanitizer_test_environment(): gives every test registered so far in the calling
# directory the sanitizers' suppression files (tests/sanitizers/*.supp: named frames of the MPI
# libraries only, never a whole library) and the settings that keep MPI's own noise out.
# Called at the end of the directories that register MPI tests. No-op in other builds.
function(remora_sanitizer_test_environment)
  set(supp ${PROJECT_SOURCE_DIR}/tests/sanitizers)
  if(REMORA_SANITIZE STREQUAL "address")
    # hwloc (loaded by MPICH) unloads its plugins at exit, so LSan sees what they leak as
    # "<unknown module>", which no suppression can name: tests load none (a path with none).
    set(variable "LSAN_OPTIONS=suppressions=${supp}/lsan.supp"
                 "HWLOC_PLUGINS_PATH=${PROJECT_BINARY_DIR}/no-hwloc-plugins")
  elseif(REMORA_SANITIZE STREQUAL "thread")
    # UCX's memory hooks (libucm, loaded with MPICH) crash under TSan's interceptors in every
    # thread start; without them UCX only caches fewer registrations. The build's GoogleTest
    # discovery runs the unit programs too: export UCX_MEM_EVENTS=no for the build as well.
    set(variable "TSAN_OPTIONS=suppressions=${supp}/tsan.supp" "UCX_MEM_EVENTS=no"
                 "UCX_MEM_MALLOC_HOOKS=no")
  else()
    return()
  endif()
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(test IN LISTS tests)
    set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT "${variable}")
  endforeach()
endfunction()
