#include "core/log.hpp"

#include <cstdarg>
#include <cstdio>
#include <cstring>

namespace remora {
namespace {

LogLevel threshold = LogLevel::Warn;
int log_rank = -1;

const char* level_name(LogLevel level) {
  switch (level) {
    case LogLevel::Error:
      return "error";
    case LogLevel::Warn:
      return "warning";
    case LogLevel::Info:
      return "info";
    case LogLevel::Debug:
      return "debug";
  }
  return "";
}

}  // namespace

void set_log_level(const char* name) {
  const char* names[] = {"error", "warn", "info", "debug"};
  for (int i = 0; i < 4; ++i)
    if (std::strcmp(name, names[i]) == 0) threshold = static_cast<LogLevel>(i);
}

void set_log_rank(int rank) {
  log_rank = rank;
}

void log(LogLevel level, const char* format, ...) {
  if (level > threshold) return;
  char message[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(message, sizeof(message), format, args);
  va_end(args);
  // One write per line so lines of different ranks do not interleave.
  if (log_rank >= 0)
    std::fprintf(stderr, "remora[%d] %s: %s\n", log_rank, level_name(level), message);
  else
    std::fprintf(stderr, "remora %s: %s\n", level_name(level), message);
}

}  // namespace remora
