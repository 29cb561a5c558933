#include "core/error.hpp"

#include <array>
#include <cstdarg>
#include <cstdio>

namespace remora {
namespace {

// The thread's last messages, newest at `newest`: a pointer from remora_last_error stays
// valid while the thread's next kKeptMessages - 1 failures write the other slots.
constexpr size_t kKeptMessages = 8;
thread_local std::array<std::string, kKeptMessages> messages;
thread_local size_t newest = 0;
thread_local bool have_message = false;
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
  std::string text = vformat(format, args);
  va_end(args);
  newest = (newest + 1) % kKeptMessages;
  messages[newest] = std::move(text);
  have_message = true;
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
  have_message = false;
  thread_code = 0;
}

int last_error_code() {
  return thread_code;
}

const char* last_error() {
  return have_message ? messages[newest].c_str() : "";
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
