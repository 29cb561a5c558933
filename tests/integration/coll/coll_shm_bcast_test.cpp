// Large shm broadcasts and allreduces: the single-copy forms (readers copy from the root's buffer
// with process_vm_readv, from REMORA_SHM_SINGLE_COPY_BYTES on, when the members may) and the cells,
// at sizes around the threshold and the cell size that are multiples of neither, from every
// root, blocking (the fast path), nonblocking (the schedule) and both in one collective (a
// member with a nonblocking shm collective pending runs its blocking call as a schedule).
// The allreduces (sum and max of int64, in place and not) check every element exactly.
// Usage: test_coll_shm_bcast [expect_single_copy|expect_cells]: what the world's area must use.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "multirank.hpp"
#include "shm_single_copy_mode.hpp"

namespace {

uint8_t value(int root, int round, size_t i) {
  return static_cast<uint8_t>(root * 31 + round * 7 + i * 13 + i / 4093);
}

void fill(std::vector<uint8_t>& buffer, bool root, int who, int round) {
  for (size_t i = 0; i < buffer.size(); ++i) buffer[i] = root ? value(who, round, i) : 0xee;
}

void check(const std::vector<uint8_t>& buffer, int root, int round, const char* what) {
  for (size_t i = 0; i < buffer.size(); ++i)
    REQUIRE(buffer[i] == value(root, round, i),
            "%s round %d root %d bytes %zu: [%zu] = %d, expected %d", what, round, root,
            buffer.size(), i, buffer[i], value(root, round, i));
}

int64_t element(int rank, int round, size_t i) {
  return static_cast<int64_t>(rank) * 1000003 + round * 7 + static_cast<int64_t>(i % 100003) -
         static_cast<int64_t>(i % 7) * 500000;
}

// Allreduces of count int64: blocking, in place, and nonblocking with a blocking one behind it
// (fast path and schedule in one collective, as for bcast).
void allreduces(size_t count, int round) {
  remora_comm_t world;
  REQUIRE_OK(remora_comm_world(&world));
  const int me = remora_rank(), size = remora_size();
  auto sum = [&](size_t i, int r) {
    int64_t total = 0;
    for (int rank = 0; rank < size; ++rank) total += element(rank, r, i);
    return total;
  };
  auto max = [&](size_t i, int r) {
    int64_t best = element(0, r, i);
    for (int rank = 1; rank < size; ++rank) best = std::max(best, element(rank, r, i));
    return best;
  };
  std::vector<int64_t> in(count), out(count, -1);
  for (size_t i = 0; i < count; ++i) in[i] = element(me, round, i);
  REQUIRE_OK(remora_allreduce(in.data(), out.data(), count, REMORA_INT64, REMORA_OP_SUM, world,
                              REMORA_COLL_SHM));
  for (size_t i = 0; i < count; ++i)
    REQUIRE(out[i] == sum(i, round), "allreduce count %zu round %d [%zu]", count, round, i);
  std::vector<int64_t> inplace(in);
  REQUIRE_OK(remora_allreduce(REMORA_IN_PLACE, inplace.data(), count, REMORA_INT64, REMORA_OP_MAX,
                              world, REMORA_COLL_SHM));
  for (size_t i = 0; i < count; ++i)
    REQUIRE(inplace[i] == max(i, round), "in-place allreduce count %zu round %d [%zu]", count,
            round, i);
  std::vector<int64_t> b(count), b_out(count, -1), c(count), c_out(count, -1);
  for (size_t i = 0; i < count; ++i) {
    b[i] = element(me, round + 1, i);
    c[i] = element(me, round + 2, i);
  }
  remora_request_t request;
  REQUIRE_OK(remora_iallreduce(b.data(), b_out.data(), count, REMORA_INT64, REMORA_OP_SUM, world,
                               REMORA_COLL_SHM, &request));
  if (me % 2 == 0) REQUIRE_OK(remora_request_wait(&request));
  REQUIRE_OK(remora_allreduce(REMORA_IN_PLACE, c.data(), count, REMORA_INT64, REMORA_OP_SUM, world,
                              REMORA_COLL_SHM));
  if (me % 2 == 1) REQUIRE_OK(remora_request_wait(&request));
  for (size_t i = 0; i < count; ++i) {
    REQUIRE(b_out[i] == sum(i, round + 1), "iallreduce count %zu [%zu]", count, i);
    REQUIRE(c[i] == sum(i, round + 2), "allreduce behind iallreduce count %zu [%zu]", count, i);
  }
}

}  // namespace

int main(int argc, char** argv) {
  remora_comm_t world;
  const size_t threshold = start_shm_test(argc, argv, &world, remora::coll::Operation::Bcast);
  const int me = remora_rank(), size = remora_size();
  const size_t cell = remora::coll::ShmArea::kCellBytes;
  std::vector<size_t> sizes{cell - 1, cell + 5, 3 * cell + 17, 1048576 + 3};
  if (threshold > 1) {
    sizes.push_back(threshold - 1);
    sizes.push_back(threshold);
    sizes.push_back(threshold + 1);
  }
  int round = 0;
  for (size_t bytes : sizes)
    for (int root = 0; root < size; ++root, ++round) {
      // blocking (the fast path)
      std::vector<uint8_t> a(bytes);
      fill(a, me == root, root, round);
      REQUIRE_OK(remora_bcast(a.data(), bytes, REMORA_UINT8, root, world, REMORA_COLL_SHM));
      check(a, root, round, "bcast");
      // in 4-byte elements, not a multiple of the cell either
      std::vector<int32_t> words(bytes / 4 + 1);
      for (size_t i = 0; i < words.size(); ++i)
        words[i] = me == root ? static_cast<int32_t>(i * 7 + static_cast<size_t>(round)) : -1;
      REQUIRE_OK(
          remora_bcast(words.data(), words.size(), REMORA_INT32, root, world, REMORA_COLL_SHM));
      for (size_t i = 0; i < words.size(); ++i)
        REQUIRE(words[i] == static_cast<int32_t>(i * 7 + static_cast<size_t>(round)),
                "int32 bcast round %d [%zu] = %d", round, i, words[i]);
      // nonblocking (a schedule everywhere), then a blocking one that even ranks start after
      // the wait (fast path) and odd ranks while theirs is pending (a schedule)
      std::vector<uint8_t> b(bytes), c(bytes);
      fill(b, me == root, root, round + 1000);
      fill(c, me == root, root, round + 2000);
      remora_request_t request;
      REQUIRE_OK(
          remora_ibcast(b.data(), bytes, REMORA_UINT8, root, world, REMORA_COLL_SHM, &request));
      if (me % 2 == 0) REQUIRE_OK(remora_request_wait(&request));
      REQUIRE_OK(remora_bcast(c.data(), bytes, REMORA_UINT8, root, world, REMORA_COLL_SHM));
      if (me % 2 == 1) REQUIRE_OK(remora_request_wait(&request));
      check(b, root, round + 1000, "ibcast");
      check(c, root, round + 2000, "bcast behind ibcast");
    }
  // int64 counts around the threshold and the cell, odd (slices of uneven sizes)
  std::vector<size_t> counts{cell / 8 - 1, 3 * cell / 8 + 5, 131072 + 3};
  if (threshold > 16) {
    counts.push_back(threshold / 8 - 1);
    counts.push_back(threshold / 8);
    counts.push_back(threshold / 8 + 1);
  }
  for (size_t count : counts) allreduces(count, round += 3);
  REQUIRE_OK(remora_finalize());
  return 0;
}
