// Single-copy access to another rank's private (malloc'd) memory through the transport:
// reads and writes of 1 byte to 4 MiB between neighbours, and a bad address that must fail
// with an error instead of crashing either process.
#include <cstdint>
#include <cstring>
#include <vector>

#include "api/runtime.hpp"
#include "multirank.hpp"

namespace {

constexpr size_t kBytes = 4u << 20;

uint8_t pattern(int owner, size_t index) {
  return static_cast<uint8_t>((static_cast<size_t>(owner) * 77 + index * 31) % 253);
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  const int rank = remora_rank(), size = remora_size();
  remora::api::Runtime* runtime = nullptr;
  REQUIRE_OK(remora::api::enter("single_copy_test", &runtime));
  remora::transport::Transport& transport = *runtime->transport;

  std::vector<uint8_t> mine(kBytes);
  for (size_t i = 0; i < kBytes; ++i) mine[i] = pattern(rank, i);
  // Publish the address of my private buffer to every rank.
  remora_segment_t addresses;
  REQUIRE_OK(remora_segment_allocate(sizeof(uint64_t) * static_cast<size_t>(size), &addresses));
  const auto my_address = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(mine.data()));
  for (int r = 0; r < size; ++r)
    REQUIRE_OK(remora_put(addresses, r, sizeof(uint64_t) * static_cast<size_t>(rank), &my_address,
                          sizeof my_address));
  REQUIRE_OK(remora_flush_all(addresses));
  REQUIRE_OK(remora_barrier());
  uint64_t* table = nullptr;
  REQUIRE_OK(remora_segment_pointer(addresses, rank, reinterpret_cast<void**>(&table)));
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  auto* right_buffer = reinterpret_cast<uint8_t*>(static_cast<uintptr_t>(table[right]));
  auto* left_buffer = reinterpret_cast<uint8_t*>(static_cast<uintptr_t>(table[left]));

  int status = transport.read_private(right, right_buffer, nullptr, 0);
  if (status == REMORA_ERR_UNSUPPORTED) {
    // Not allowed on this system, or the neighbour is on another node (MPI transport): the
    // error says so; nothing else to test.
    const bool other_node = remora_rank_node(right) != remora_node();
    REQUIRE(std::strstr(remora_last_error(), other_node ? "another node" : "forbids") != nullptr,
            "%s", remora_last_error());
  } else {
    REQUIRE_OK(status);
    std::vector<uint8_t> copy(kBytes);
    for (size_t bytes : {size_t{1}, size_t{4095}, size_t{4097}, size_t{65536} + 3, kBytes - 5}) {
      REQUIRE_OK(transport.read_private(right, right_buffer + 5, copy.data(), bytes));
      for (size_t i = 0; i < bytes; ++i)
        REQUIRE(copy[i] == pattern(right, i + 5), "read of %zu bytes: byte %zu", bytes, i);
    }
    // Write my rank's pattern into the second half of the left neighbour's buffer.
    std::vector<uint8_t> data(kBytes / 2);
    for (size_t i = 0; i < data.size(); ++i) data[i] = pattern(rank + 100, i);
    REQUIRE_OK(remora_barrier());  // everyone has finished reading the original contents
    REQUIRE_OK(transport.write_private(left, left_buffer + kBytes / 2, data.data(), data.size()));
    REQUIRE_OK(remora_barrier());
    for (size_t i = 0; i < kBytes / 2; ++i) {
      REQUIRE(mine[i] == pattern(rank, i), "first half changed at %zu", i);
      REQUIRE(mine[kBytes / 2 + i] == pattern(right + 100, i), "written byte %zu", i);
    }
    // An address that is not mapped in the peer: an error, no crash.
    uint8_t byte = 0;
    status = transport.read_private(right, reinterpret_cast<void*>(uintptr_t{16}), &byte, 1);
    REQUIRE(status == REMORA_ERR_SYSTEM, "bad address gave %d", status);
    REQUIRE(std::strstr(remora_last_error(), "rank") != nullptr, "%s", remora_last_error());
  }
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_segment_free(&addresses));
  REQUIRE_OK(remora_finalize());
  return 0;
}
