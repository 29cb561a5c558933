// put/get correctness from 1 byte to 4 MiB, contiguous and strided, between every pair of
// neighbours; each rank checks the bytes others wrote into its memory and the bytes it read.
#include <cstdint>
#include <cstring>
#include <vector>

#include "multirank.hpp"

namespace {

constexpr size_t kMaxBytes = 4u << 20;
constexpr size_t kOffset = 3;  // deliberately unaligned
const size_t kSizes[] = {1, 2, 7, 8, 63, 64, 1000, 4096, 65539, 1u << 20, kMaxBytes - kOffset};

uint8_t pattern(int source, size_t size, size_t index) {
  return static_cast<uint8_t>((static_cast<size_t>(source) * 131 + size * 7 + index * 13) % 251);
}

void check_contiguous(remora_segment_t segment, int rank, int size) {
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  std::vector<uint8_t> buffer(kMaxBytes);
  uint8_t* mine = nullptr;
  REQUIRE_OK(remora_segment_pointer(segment, rank, reinterpret_cast<void**>(&mine)));
  for (size_t bytes : kSizes) {
    for (size_t i = 0; i < bytes; ++i) buffer[i] = pattern(rank, bytes, i);
    REQUIRE_OK(remora_put(segment, right, kOffset, buffer.data(), bytes));
    REQUIRE_OK(remora_flush(segment, right));
    REQUIRE_OK(remora_barrier());
    for (size_t i = 0; i < bytes; ++i)
      REQUIRE(mine[kOffset + i] == pattern(left, bytes, i), "put of %zu bytes: byte %zu", bytes, i);
    // Read back from the right neighbour what I wrote there.
    std::vector<uint8_t> back(bytes);
    REQUIRE_OK(remora_get(segment, right, kOffset, back.data(), bytes));
    REQUIRE(std::memcmp(back.data(), buffer.data(), bytes) == 0, "get of %zu bytes differs", bytes);
    REQUIRE_OK(remora_barrier());
  }
}

// A 3-D patch (4 planes x 5 rows x 24 bytes) into a 6 x 8 x 40-byte target box, and back.
void check_strided(remora_segment_t segment, int rank, int size) {
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  constexpr size_t kRow = 24, kRows = 5, kPlanes = 4;
  constexpr size_t kBoxRow = 40, kBoxRows = 8;
  size_t count[3] = {kRow, kRows, kPlanes};
  size_t target_stride[2] = {kBoxRow, kBoxRow * kBoxRows};
  size_t local_stride[2] = {kRow, kRow * kRows};
  const size_t base = 1000 + 5;  // offset of the patch inside the target part
  std::vector<uint8_t> patch(kRow * kRows * kPlanes);
  for (size_t i = 0; i < patch.size(); ++i) patch[i] = pattern(rank, 77, i);
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_put_strided(segment, right, base, target_stride, patch.data(), local_stride,
                                count, 2));
  REQUIRE_OK(remora_flush_all(segment));
  REQUIRE_OK(remora_barrier());
  uint8_t* mine = nullptr;
  REQUIRE_OK(remora_segment_pointer(segment, rank, reinterpret_cast<void**>(&mine)));
  for (size_t p = 0; p < kPlanes; ++p)
    for (size_t r = 0; r < kRows; ++r)
      for (size_t b = 0; b < kRow; ++b) {
        const size_t local = (p * kRows + r) * kRow + b;
        const size_t remote = base + p * target_stride[1] + r * target_stride[0] + b;
        REQUIRE(mine[remote] == pattern(left, 77, local), "strided put: plane %zu row %zu byte %zu",
                p, r, b);
      }
  // Get it back from the right neighbour into a padded local layout (rows 32 bytes apart).
  size_t padded_stride[2] = {32, 32 * kRows};
  std::vector<uint8_t> back(32 * kRows * kPlanes, 0xEE);
  REQUIRE_OK(remora_get_strided(segment, right, base, target_stride, back.data(), padded_stride,
                                count, 2));
  for (size_t p = 0; p < kPlanes; ++p)
    for (size_t r = 0; r < kRows; ++r) {
      REQUIRE(std::memcmp(&back[(p * kRows + r) * 32], &patch[(p * kRows + r) * kRow], kRow) == 0,
              "strided get: plane %zu row %zu", p, r);
      REQUIRE(back[(p * kRows + r) * 32 + kRow] == 0xEE, "strided get wrote past a row");
    }
  REQUIRE_OK(remora_barrier());
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  const int rank = remora_rank(), size = remora_size();
  remora_segment_t segment;
  REQUIRE_OK(remora_segment_allocate(kMaxBytes, &segment));
  size_t bytes = 0;
  REQUIRE_OK(remora_segment_size(segment, (rank + 1) % size, &bytes));
  REQUIRE(bytes == kMaxBytes);
  check_contiguous(segment, rank, size);
  check_strided(segment, rank, size);
  REQUIRE_OK(remora_segment_free(&segment));

  // Segments of different sizes per rank, including empty ones.
  REQUIRE_OK(remora_segment_allocate(static_cast<size_t>(rank) * 100, &segment));
  for (int r = 0; r < size; ++r) {
    REQUIRE_OK(remora_segment_size(segment, r, &bytes));
    REQUIRE(bytes == static_cast<size_t>(r) * 100, "rank %d part: %zu bytes", r, bytes);
  }
  if (size > 1) {
    const uint8_t value = 42;
    REQUIRE(remora_put(segment, 0, 0, &value, 1) == REMORA_ERR_RANGE);  // rank 0 has 0 bytes
    REQUIRE_OK(remora_put(segment, size - 1, static_cast<size_t>(size - 1) * 100 - 1, &value, 1));
  }
  REQUIRE_OK(remora_segment_free(&segment));
  REQUIRE_OK(remora_finalize());
  return 0;
}
