// GA_Randomize / NGA_Randomize: every element of the array becomes value * r / RAND_MAX for a
// fresh r = rand() on the rank that owns it, as GA does (so the elements lie in [0, value]).
// Collective over the array's group; each rank writes the parts it owns.
// NGA_Rand: the process's own stream of random numbers in [0, 1), not collective.
#include <cstdlib>
#include <mutex>
#include <random>
#include <vector>

#include "ga/ga_blocks.hpp"
#include "ga/ga_registry.hpp"

namespace remora::ga {
namespace {

template <typename T>
void fill_random(void* buffer, int64_t n, const void* value) {
  const double scale = static_cast<double>(*static_cast<const T*>(value));
  T* out = static_cast<T*>(buffer);
  for (int64_t i = 0; i < n; ++i)
    out[i] = static_cast<T>(scale * static_cast<double>(std::rand()) / RAND_MAX);
}

// Writes random values into lo..hi (a patch this rank owns).
void randomize_patch(const char* fn, const GaArray& a, const int64_t* lo, const int64_t* hi,
                     const void* value) {
  int64_t n = 1, ld[GA_MAX_DIM] = {};
  for (int d = 0; d < a.ndim; ++d) {
    if (hi[d] < lo[d]) return;
    n *= hi[d] - lo[d] + 1;
    if (d > 0) ld[d - 1] = hi[d] - lo[d] + 1;
  }
  std::vector<unsigned char> buffer(static_cast<size_t>(n) * element_size(fn, a.type));
  switch (a.datatype) {
    case REMORA_INT32:
      fill_random<int32_t>(buffer.data(), n, value);
      break;
    case REMORA_INT64:
      fill_random<int64_t>(buffer.data(), n, value);
      break;
    case REMORA_FLOAT:
      fill_random<float>(buffer.data(), n, value);
      break;
    case REMORA_DOUBLE:
      fill_random<double>(buffer.data(), n, value);
      break;
    default:
      ga_fail(fn, "array '%s': type %d is not supported (integer and real types only, as GA)",
              a.name.c_str(), a.type);
  }
  check(fn, remora_array_put(a.array, lo, hi, buffer.data(), ld));
}

void randomize(const char* fn, int g_a, void* value) {
  const GaArray& a = writable(fn, g_a);
  if (value == nullptr) ga_fail(fn, "value is NULL");
  if (a.datatype != REMORA_INT32 && a.datatype != REMORA_INT64 && a.datatype != REMORA_FLOAT &&
      a.datatype != REMORA_DOUBLE)
    ga_fail(fn, "array '%s': type %d is not supported (integer and real types only, as GA)",
            a.name.c_str(), a.type);
  const remora_comm_t group = pgroup_comm(fn, a.pgroup);
  check(fn, remora_array_sync_comm(group));
  int64_t lo[GA_MAX_DIM], hi[GA_MAX_DIM];
  if (is_cyclic(a)) {
    int rank = 0;
    check(fn, remora_array_ranks(a.array, nullptr, &rank));
    int64_t counts[GA_MAX_DIM], coords[GA_MAX_DIM];
    const int64_t total = block_counts(a, counts);
    for (int64_t k = 0; k < total; ++k) {
      block_bounds(fn, a, k, lo, hi);
      for (int d = 0; d < a.ndim; ++d) coords[d] = block_of(a, d, lo[d]);
      if (block_owner(fn, a, coords) == rank) randomize_patch(fn, a, lo, hi, value);
    }
  } else {
    owned_patch(fn, a, array_rank(a), lo, hi);
    randomize_patch(fn, a, lo, hi, value);
  }
  check(fn, remora_array_sync_comm(group));
}

}  // namespace
}  // namespace remora::ga

extern "C" {

void GA_Randomize(int g_a, void* value) {
  remora::ga::randomize("GA_Randomize", g_a, value);
}
void NGA_Randomize(int g_a, void* value) {
  remora::ga::randomize("NGA_Randomize", g_a, value);
}

// A 32-bit Mersenne Twister per process (GA's generator is one too; the sequences differ),
// seeded with `seed` when it is not 0; unseeded it starts from the standard's default seed.
// Threads of a thread-safe GA program share it under a lock.
double NGA_Rand(int seed) {
  static std::mutex lock;
  static std::mt19937 generator;
  const std::lock_guard<std::mutex> guard(lock);
  if (seed != 0) generator.seed(static_cast<std::mt19937::result_type>(seed));
  return static_cast<double>(generator()) / 4294967296.0;  // [0, 1): 2^32 values
}

}  // extern "C"
