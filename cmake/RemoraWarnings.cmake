# Warning flags for every Remora target; errors when REMORA_WERROR is on (CI).
add_library(remora_warnings INTERFACE)
target_compile_options(remora_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion
  $<$<BOOL:${REMORA_WERROR}>:-Werror>)
