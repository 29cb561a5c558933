#include "core/error.hpp"

#include <cstdarg>
#include <cstdio>

namespace remora {
namespace {

thread_local std::string thread_message;
thread_local int thread_code = 0;

std::string vformat(const char* format, va_list args) {
  va_list copy;
  va_copy(copy, args);
  const int length = std::vsnprintf(nullptr, 0, format, copy);
  va_end(copy);
  if (length <= 0) return {};
  std::string text(static_cast<size_t>(length), '\0');
  std::vsnprintf(text.data(), text.size() + 1, format, args);
  return text;
}

}  // namespace

int fail(int code, const char* format, ...) {
  va_list args;
  va_start(args, format);
  thread_message = vformat(format, args);
  va_end(args);
  thread_code = code;
  return code;
}

std::string format(const char* format, ...) {
  va_list args;
  va_start(args, format);
  std::string text = vformat(format, args);
  va_end(args);
  return text;
}

void clear_error() {
  thread_message.clear();
  thread_code = 0;
}

int last_error_code() {
  return thread_code;
}

const char* last_error() {
  return thread_message.c_str();
}

const char* status_name(int code) {
  switch (code) {
    case REMORA_SUCCESS:
      return "success";
    case REMORA_ERR_ARG:
      return "invalid argument";
    case REMORA_ERR_RANK:
      return "invalid rank";
    case REMORA_ERR_RANGE:
      return "outside the segment, window or array";
    case REMORA_ERR_ALIGN:
      return "misaligned address";
    case REMORA_ERR_NOT_INITIALIZED:
      return "Remora is not initialized";
    case REMORA_ERR_STATE:
      return "not allowed in the current state";
    case REMORA_ERR_CONFIG:
      return "invalid configuration";
    case REMORA_ERR_NOMEM:
      return "out of memory";
    case REMORA_ERR_SYSTEM:
      return "operating-system call failed";
    case REMORA_ERR_ABORTED:
      return "the job is aborting";
    case REMORA_ERR_UNSUPPORTED:
      return "not supported";
    case REMORA_ERR_INTERNAL:
      return "internal error";
    default:
      return "unknown status code";
  }
}

}  // namespace remora
