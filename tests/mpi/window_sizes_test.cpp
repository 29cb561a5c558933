// Segments whose per-rank size is not a multiple of 16 bytes (MPICH 4.0.2 ch4:ucx sends puts
// and gets to the wrong rank's memory on such windows): every rank fills every other rank's
// whole part with a pattern naming writer and target, then reads every part back. Run with
// REMORA_NODE_SIZE=1 so that every transfer goes through an MPI window.
#include <cstdint>
#include <vector>

#include "multirank.hpp"

namespace {

uint8_t pattern(int writer, int target, size_t index) {
  return static_cast<uint8_t>(writer * 67 + target * 13 + index * 7 + 1);
}

void check_size(size_t bytes, int rank, int size) {
  remora_segment_t segment;
  REQUIRE_OK(remora_segment_allocate(bytes, &segment));
  const int writer_of = (rank + 1) % size;  // who writes my part
  const int target = (rank + size - 1) % size;
  std::vector<uint8_t> data(bytes);
  for (size_t i = 0; i < bytes; ++i) data[i] = pattern(rank, target, i);
  REQUIRE_OK(remora_put(segment, target, 0, data.data(), bytes));
  REQUIRE_OK(remora_flush_all(segment));
  REQUIRE_OK(remora_barrier());
  uint8_t* mine = nullptr;
  REQUIRE_OK(remora_segment_pointer(segment, rank, reinterpret_cast<void**>(&mine)));
  for (size_t i = 0; i < bytes; ++i)
    REQUIRE(mine[i] == pattern(writer_of, rank, i), "size %zu: my byte %zu is %u, expected %u",
            bytes, i, mine[i], pattern(writer_of, rank, i));
  // Every part, read back by every rank.
  for (int r = 0; r < size; ++r) {
    std::vector<uint8_t> back(bytes);
    REQUIRE_OK(remora_get(segment, r, 0, back.data(), bytes));
    const int wrote = (r + 1) % size;
    for (size_t i = 0; i < bytes; ++i)
      REQUIRE(back[i] == pattern(wrote, r, i), "size %zu: byte %zu of rank %d is %u, expected %u",
              bytes, i, r, back[i], pattern(wrote, r, i));
  }
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_segment_free(&segment));
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  const int rank = remora_rank(), size = remora_size();
  for (size_t bytes : {4, 8, 12, 24, 1000, 4095, 16, 1008, 4096}) check_size(bytes, rank, size);
  REQUIRE_OK(remora_finalize());
  return 0;
}
