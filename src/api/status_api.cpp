// C API: status codes and messages.
#include "core/error.hpp"
#include "remora/status.h"

extern "C" {

const char* remora_strerror(int code) {
  return remora::status_name(code);
}

const char* remora_last_error(void) {
  return remora::last_error();
}

}  // extern "C"
