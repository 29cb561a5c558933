// Messages to stderr, filtered by REMORA_LOG, prefixed with the rank.
#pragma once

namespace remora {

enum class LogLevel { Error = 0, Warn = 1, Info = 2, Debug = 3 };

void set_log_level(const char* name);
void set_log_rank(int rank);
void log(LogLevel level, const char* format, ...) __attribute__((format(printf, 2, 3)));

}  // namespace remora
