#include "common/bench_limit.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "remora.h"

namespace bench {

bool begin_with_limit(int* argc, char*** argv, int min_ranks, const char* description,
                      const char* option, int64_t default_value, int64_t* value, Options* options,
                      int* exit_code) {
  std::string text = std::to_string(default_value);
  const bool taken = take_extra_options(argc, *argv, {{option, &text}});
  if (!begin(argc, argv, min_ranks, description, options, exit_code)) return false;
  char* end = nullptr;
  *value = std::strtoll(text.c_str(), &end, 10);
  if (taken && end != text.c_str() && *end == '\0' && *value >= 1) return true;
  if (remora_rank() == 0) std::fprintf(stderr, "bad %s '%s'\n", option, text.c_str());
  remora_finalize();
  *exit_code = 2;
  return false;
}

}  // namespace bench
