// bench::begin for a program with one numeric option of its own, the largest size it sweeps
// to (e.g. "--max-n 1024"): the HF proxy and matmul benchmarks.
#pragma once

#include <cstdint>

#include "common/bench_common.hpp"

namespace bench {

// As bench::begin, after taking "option N" out of argv (N >= 1; default_value when absent).
// A bad N: rank 0 says so, Remora is finalized, *exit_code = 2 and the result is false.
bool begin_with_limit(int* argc, char*** argv, int min_ranks, const char* description,
                      const char* option, int64_t default_value, int64_t* value, Options* options,
                      int* exit_code);

}  // namespace bench
