// The parts of bench/common that run on Remora (start-up, error checks, rank 0's report).
#include "common/bench_common.hpp"

#include <cstdio>
#include <cstdlib>

#include "remora.h"

namespace bench {

bool parse_options(int argc, char** argv, const char* description, Options* options,
                   int* exit_code) {
  return parse_options(argc, argv, description, options, exit_code, remora_rank() == 0);
}

void check_failed(int status, const char* what) {
  char message[512];
  std::snprintf(message, sizeof message, "benchmark: %s failed: %s (%s)", what,
                remora_strerror(status), remora_last_error());
  remora_abort(1, message);
  std::abort();  // remora_abort does not return
}

namespace {
bool start(int* argc, char*** argv, int min_ranks, int* exit_code) {
  const int status = remora_init(argc, argv);
  if (status != REMORA_SUCCESS) {
    std::fprintf(stderr, "remora_init failed: %s (%s)\n", remora_strerror(status),
                 remora_last_error());
    std::exit(1);
  }
  if (remora_size() < min_ranks) {
    if (remora_rank() == 0)
      std::fprintf(stderr, "this benchmark needs at least %d ranks (remorarun -n %d ...)\n",
                   min_ranks, min_ranks);
    *exit_code = 2;
    return false;
  }
  return true;
}
}  // namespace

bool begin(int* argc, char*** argv, int min_ranks, const char* description, Options* options,
           int* exit_code) {
  if (start(argc, argv, min_ranks, exit_code) &&
      parse_options(*argc, *argv, description, options, exit_code))
    return true;
  remora_finalize();
  return false;
}

double now_us() {
  return remora_wtime() * 1e6;
}

void Report::print() {
  print(remora_rank() == 0);
}

}  // namespace bench
