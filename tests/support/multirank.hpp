// Checks for multi-rank test programs run under remorarun: a failed check prints the rank,
// place and reason, then aborts the whole job (so the launcher exits non-zero at once).
#pragma once

#include <sched.h>

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "remora.h"

namespace remora_test {

[[noreturn]] inline void fail_check(const char* file, int line, const char* what,
                                    const char* format = nullptr, ...) {
  char detail[512] = "";
  if (format != nullptr) {
    va_list args;
    va_start(args, format);
    std::vsnprintf(detail, sizeof detail, format, args);
    va_end(args);
  }
  char message[1024];
  std::snprintf(message, sizeof message, "%s:%d: check failed: %s %s", file, line, what, detail);
  remora_abort(1, message);
  std::abort();  // remora_abort does not return
}

// Yields the CPU between polls in test-side spin loops (2 cores, up to 8 ranks).
inline void progress_and_yield() {
  remora_progress();
  sched_yield();
}

}  // namespace remora_test

namespace remora_test {

// remora_init, then this rank and the job size.
inline void init(int* argc, char*** argv, int* rank, int* size);
// A window of `elements` int64 per rank (disp_unit 8) with the given info; returns its memory.
inline int64_t* allocate_int64_window(size_t elements, const char* info, remora_win_t* win);
// Calls run(info) with the window info selecting each accumulate strategy but auto.
template <typename Run>
void for_each_acc_strategy(const Run& run) {
  for (const char* info : {"acc_strategy=native", "acc_strategy=caller", "acc_strategy=owner"})
    run(info);
}
// A whole test program: init, run(info) per accumulate strategy, finalize; main returns it.
inline int run_per_acc_strategy(int argc, char** argv, int* rank, int* size,
                                void (*run)(const char* info));

}  // namespace remora_test

#define REQUIRE(condition, ...)                                                               \
  do {                                                                                        \
    if (!(condition)) remora_test::fail_check(__FILE__, __LINE__, #condition, ##__VA_ARGS__); \
  } while (0)

// Requires a Remora call to succeed; on failure reports its status and message.
#define REQUIRE_OK(call)                                                              \
  do {                                                                                \
    const int require_status_ = (call);                                               \
    if (require_status_ < 0)                                                          \
      remora_test::fail_check(__FILE__, __LINE__, #call, "-> %s: %s",                 \
                              remora_strerror(require_status_), remora_last_error()); \
  } while (0)

// Requires a Remora call to fail with `code` and a message containing `fragment`.
#define REQUIRE_ERROR(call, code, fragment)                                                    \
  do {                                                                                         \
    const int require_error_status_ = (call);                                                  \
    REQUIRE(require_error_status_ == (code), "-> %d (%s), expected %s", require_error_status_, \
            remora_last_error(), #code);                                                       \
    REQUIRE(std::strstr(remora_last_error(), (fragment)) != nullptr,                           \
            "message \"%s\" lacks \"%s\"", remora_last_error(), (fragment));                   \
  } while (0)

inline void remora_test::init(int* argc, char*** argv, int* rank, int* size) {
  REQUIRE_OK(remora_init(argc, argv));
  *rank = remora_rank();
  *size = remora_size();
}

inline int64_t* remora_test::allocate_int64_window(size_t elements, const char* info,
                                                   remora_win_t* win) {
  void* base = nullptr;
  REQUIRE_OK(remora_win_allocate(elements * sizeof(int64_t), sizeof(int64_t), info, &base, win));
  return static_cast<int64_t*>(base);
}

inline int remora_test::run_per_acc_strategy(int argc, char** argv, int* rank, int* size,
                                             void (*run)(const char* info)) {
  init(&argc, &argv, rank, size);
  for_each_acc_strategy(run);
  REQUIRE_OK(remora_finalize());
  return 0;
}
