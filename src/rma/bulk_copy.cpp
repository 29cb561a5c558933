#include "rma/bulk_copy.hpp"

#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace remora::rma {

namespace {

#if defined(__x86_64__)
// bytes >= 160 (the head, one block and the tail). The first 32 and the last 128 bytes are
// loaded first and stored last, unaligned; in between, 128-byte blocks stored on 32-byte
// boundaries of the destination (the last block may end inside the tail, which rewrites the
// same bytes: the regions do not overlap each other).
[[gnu::target("avx2")]] void copy_aligned_avx2(unsigned char* d, const unsigned char* s,
                                               size_t bytes) {
  const __m256i head = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s));
  __m256i tail[4];
  for (size_t k = 0; k < 4; ++k)
    tail[k] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + bytes - 128 + 32 * k));
  const size_t skip = 32 - (reinterpret_cast<uintptr_t>(d) & 31);  // 1 to 32
  unsigned char* to = d + skip;
  const unsigned char* from = s + skip;
  for (size_t left = bytes - skip; left > 128; left -= 128, to += 128, from += 128) {
    __m256i v[4];
    for (size_t k = 0; k < 4; ++k)
      v[k] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(from + 32 * k));
    for (size_t k = 0; k < 4; ++k)
      _mm256_store_si256(reinterpret_cast<__m256i*>(to + 32 * k), v[k]);
  }
  for (size_t k = 0; k < 4; ++k)
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + bytes - 128 + 32 * k), tail[k]);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(d), head);
}

// __builtin_cpu_init first: this initialiser may run before libgcc's own constructor.
const bool kHasAvx2 = (__builtin_cpu_init(), __builtin_cpu_supports("avx2"));
#endif

}  // namespace

void bulk_copy(void* to, const void* from, size_t bytes) {
  static_assert(kBulkCopyLoopBytes >= 160);
#if defined(__x86_64__)
  if (bytes >= kBulkCopyLoopBytes && kHasAvx2) {
    copy_aligned_avx2(static_cast<unsigned char*>(to), static_cast<const unsigned char*>(from),
                      bytes);
    return;
  }
#endif
  std::memcpy(to, from, bytes);
}

}  // namespace remora::rma
