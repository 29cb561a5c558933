// The copy of a put or get on a mapped target above 64 bytes (Window::copy_large).
#pragma once

#include <cstddef>

namespace remora::rma {

// Copies of at least this many bytes take bulk_copy's own loop where the CPU has AVX2.
inline constexpr size_t kBulkCopyLoopBytes = 4096;

// memcpy(to, from, bytes) for regions that do not overlap. From kBulkCopyLoopBytes on, where the
// CPU has AVX2, a loop of 32-byte moves whose stores are aligned on the destination: glibc's
// memcpy copies such sizes (its `rep movsb` range, up to the L2 size) with `rep movsb`, which on
// this project's machine (AMD EPYC, family 25) runs 8-30 % slower when the source is not
// aligned like the destination (a 512 KiB copy 48 bytes behind the destination in the page:
// 15.8 against 14.5 us; 128 KiB: 4.47 against 3.45 us; docs/benchmarks.md), and as fast
// otherwise.
void bulk_copy(void* to, const void* from, size_t bytes);

}  // namespace remora::rma
