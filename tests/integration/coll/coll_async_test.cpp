// With REMORA_PROGRESS=thread a started collective completes while the application makes no
// Remora call until wait. Rank 0 starts an ialltoall and then only spins on plain memory
// (sched_yield, no Remora call); the other ranks start theirs only after rank 0's call has
// returned (a flag rank 0 stores straight into their segment memory), complete it, and store a
// "done" flag into rank 0's memory. The ring and pairwise algorithms chain their steps: every
// rank's step s + 1 sends only after its step s has received, so the others can only finish if
// rank 0's later sends were issued, which, with rank 0's application thread out of the library,
// only its progress thread can do. No timing is involved: without that progress the test hangs
// and the launcher's timeout fails it. Rank 0 then waits and checks the data.
#include <sched.h>

#include <cstdint>
#include <vector>

#include "multirank.hpp"

namespace {

constexpr remora_coll_algorithm_t kChained[] = {REMORA_COLL_RING, REMORA_COLL_PAIRWISE};
constexpr size_t kBlock = 16;  // int32 per block

int32_t value(int from, int to, int round, size_t i) {
  return from * 1000000 + to * 10000 + round * 100 + static_cast<int32_t>(i);
}

// Flags live in a segment: word r of rank 0's part is "rank r is done with round n" (n + 1);
// word 0 of rank r's part is "rank 0 started round n" (n + 1).
uint64_t load(const uint64_t* word) {
  return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}
void store(uint64_t* word, uint64_t value) {
  __atomic_store_n(word, value, __ATOMIC_RELEASE);
}

// Every rank's flag words, addressed directly (one node): flags[r] is rank r's part.
std::vector<uint64_t*> map_flags(remora_segment_t segment, int size) {
  std::vector<uint64_t*> flags(static_cast<size_t>(size));
  for (int r = 0; r < size; ++r) {
    void* pointer = nullptr;
    REQUIRE_OK(remora_segment_pointer(segment, r, &pointer));
    flags[static_cast<size_t>(r)] = static_cast<uint64_t*>(pointer);
  }
  return flags;
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  const int rank = remora_rank(), size = remora_size();
  remora_segment_t segment;
  REQUIRE_OK(remora_segment_allocate(sizeof(uint64_t) * static_cast<size_t>(size), &segment));
  const std::vector<uint64_t*> flags = map_flags(segment, size);
  for (int r = 0; r < size; ++r) store(&flags[static_cast<size_t>(rank)][r], 0);
  remora_comm_t world;
  REQUIRE_OK(remora_comm_world(&world));
  REQUIRE_OK(remora_barrier());

  const size_t total = kBlock * static_cast<size_t>(size);
  for (int round = 0; round < 2 * 3; ++round) {
    const remora_coll_algorithm_t algorithm = kChained[round % 2];
    const auto mark = static_cast<uint64_t>(round + 1);
    std::vector<int32_t> out(total), in(total, -1);
    for (int to = 0; to < size; ++to)
      for (size_t i = 0; i < kBlock; ++i)
        out[static_cast<size_t>(to) * kBlock + i] = value(rank, to, round, i);
    remora_request_t request = REMORA_REQUEST_NULL;
    if (rank == 0) {
      REQUIRE_OK(remora_ialltoall(out.data(), in.data(), kBlock, REMORA_INT32, world, algorithm,
                                  &request));
      // From here until the wait, no Remora call on this rank.
      for (int r = 1; r < size; ++r) store(&flags[static_cast<size_t>(r)][0], mark);
      for (int r = 1; r < size; ++r)
        while (load(&flags[0][r]) != mark) sched_yield();
    } else {
      while (load(&flags[static_cast<size_t>(rank)][0]) != mark) sched_yield();
      REQUIRE_OK(remora_ialltoall(out.data(), in.data(), kBlock, REMORA_INT32, world, algorithm,
                                  &request));
      REQUIRE_OK(remora_request_wait(&request));
      store(&flags[0][rank], mark);
    }
    if (rank == 0) REQUIRE_OK(remora_request_wait(&request));
    REQUIRE(request == REMORA_REQUEST_NULL);
    for (int from = 0; from < size; ++from)
      for (size_t i = 0; i < kBlock; ++i)
        REQUIRE(in[static_cast<size_t>(from) * kBlock + i] == value(from, rank, round, i),
                "round %d: block from rank %d element %zu", round, from, i);
    REQUIRE_OK(remora_barrier());
  }
  REQUIRE_OK(remora_segment_free(&segment));
  REQUIRE_OK(remora_finalize());
  return 0;
}
