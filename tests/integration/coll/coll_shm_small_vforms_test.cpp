// The small path of the shm gatherv and scatterv (coll/shm_fast.hpp: every block in the call's
// inline slot) at its edges: blocks of 0 elements on some ranks (and on all but the root), uneven
// counts up to the inline limit (gatherv: ShmArea::kInlineBytes = 120 bytes per block; scatterv:
// 120 / p bytes) and one block just above it now and then (that rank and the root then take the
// general path in the same call as the others' small one), int16, int32 and int64 blocks (the
// limit in elements differs), blocks placed in reverse rank order with gaps (the gaps must stay
// untouched), in place at the root every third call, the root rotating, more calls than a
// member's ring has slots, shm asked for and auto, on the world and on two overlapping split
// communicators in turns, and the last rank starting late now and then (the others publish
// ahead or wait for it). Every value is exact.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "multirank.hpp"
#include "shm_comms.hpp"

namespace {

constexpr int kRounds = 240;
constexpr size_t kInlineBytes = 120;  // ShmArea::kInlineBytes
constexpr int kUntouched = -7;

using Comm = remora_test::RangeComm;

template <typename T>
T value(int world_rank, int round, size_t i) {
  return static_cast<T>((world_rank * 131 + round * 17 + static_cast<int>(i)) % 30000);
}

// Every rank's count in a call, known to all: uneven, 0 to the limit; every fifth call one rank
// (rotating) just above it; every fourth call the odd ranks empty; every ninth all but the root.
std::vector<size_t> counts_of(int round, int size, int root, size_t limit) {
  std::vector<size_t> counts(static_cast<size_t>(size));
  for (int r = 0; r < size; ++r) {
    size_t count = static_cast<size_t>(round * 7 + r * 3) % (limit + 1);
    if (round % 5 == 0 && r == (round / 5) % size) count = limit + 1;
    if (round % 4 == 0 && r % 2 == 1) count = 0;
    if (round % 9 == 0 && r != root) count = 0;
    counts[static_cast<size_t>(r)] = count;
  }
  return counts;
}

// Blocks in reverse rank order, a gap of 1 + r % 2 elements after block r; returns the length.
size_t reverse_displs(const std::vector<size_t>& counts, std::vector<size_t>* displs) {
  displs->assign(counts.size(), 0);
  size_t at = 0;
  for (size_t r = counts.size(); r-- > 0;) {
    (*displs)[r] = at;
    at += counts[r] + 1 + r % 2;
  }
  return at;
}

template <typename T>
void gatherv(const Comm& c, int round, int root, bool in_place, remora_datatype_t type,
             remora_coll_algorithm_t algorithm) {
  const int me = remora_rank();
  const std::vector<size_t> counts = counts_of(round, c.size, root, kInlineBytes / sizeof(T));
  std::vector<size_t> displs;
  const size_t length = reverse_displs(counts, &displs);
  const auto mine = static_cast<size_t>(c.rank);
  std::vector<T> block(counts[mine]);
  for (size_t i = 0; i < block.size(); ++i) block[i] = value<T>(me, round, i);
  std::vector<T> all(length, static_cast<T>(kUntouched));
  const bool at_root = c.rank == root;
  if (at_root && in_place)
    for (size_t i = 0; i < block.size(); ++i) all[displs[mine] + i] = block[i];
  REQUIRE_OK(remora_gatherv(at_root && in_place ? REMORA_IN_PLACE : block.data(), counts[mine],
                            all.data(), counts.data(), displs.data(), type, root, c.handle,
                            algorithm));
  if (!at_root) return;
  std::vector<bool> filled(length, false);
  for (size_t r = 0; r < counts.size(); ++r)
    for (size_t i = 0; i < counts[r]; ++i) {
      const T got = all[displs[r] + i];
      filled[displs[r] + i] = true;
      REQUIRE(got == value<T>(c.world[r], round, i),
              "round %d gatherv extent %zu root %d in_place %d: rank %zu [%zu] = %lld", round,
              sizeof(T), root, in_place, r, i, static_cast<long long>(got));
    }
  for (size_t at = 0; at < length; ++at)
    REQUIRE(filled[at] || all[at] == static_cast<T>(kUntouched),
            "round %d gatherv wrote into a gap at %zu", round, at);
}

template <typename T>
void scatterv(const Comm& c, int round, int root, bool in_place, remora_datatype_t type,
              remora_coll_algorithm_t algorithm) {
  const int me = remora_rank();
  const std::vector<size_t> counts =
      counts_of(round, c.size, root, kInlineBytes / static_cast<size_t>(c.size) / sizeof(T));
  std::vector<size_t> displs;
  const size_t length = reverse_displs(counts, &displs);
  const auto mine = static_cast<size_t>(c.rank);
  const bool at_root = c.rank == root;
  // The root's blocks: block r holds values for rank r (tagged with the root's world rank and
  // r), the gaps kUntouched.
  std::vector<T> all(at_root ? length : 0, static_cast<T>(kUntouched));
  for (size_t r = 0; at_root && r < counts.size(); ++r)
    for (size_t i = 0; i < counts[r]; ++i)
      all[displs[r] + i] = value<T>(me + 1000 * static_cast<int>(r), round, i);
  std::vector<T> out(counts[mine] + 1, static_cast<T>(kUntouched));
  REQUIRE_OK(remora_scatterv(all.data(), counts.data(), displs.data(),
                             at_root && in_place ? REMORA_IN_PLACE : out.data(), counts[mine], type,
                             root, c.handle, algorithm));
  const int root_world = c.world[static_cast<size_t>(root)];
  const T* got = at_root && in_place ? all.data() + displs[mine] : out.data();
  for (size_t i = 0; i < counts[mine]; ++i)
    REQUIRE(got[i] == value<T>(root_world + 1000 * c.rank, round, i),
            "round %d scatterv extent %zu root %d in_place %d: [%zu] = %lld", round, sizeof(T),
            root, in_place, i, static_cast<long long>(got[i]));
  REQUIRE(out[counts[mine]] == static_cast<T>(kUntouched), "round %d scatterv wrote past its block",
          round);
}

void round_on(const Comm& c, int round) {
  const int root = (round / 2) % c.size;
  const bool in_place = round % 3 == 1;
  const remora_coll_algorithm_t algorithm = round % 2 == 0 ? REMORA_COLL_SHM : REMORA_COLL_AUTO;
  // Now and then the last rank starts late: the others publish ahead or wait for it.
  if (round % 40 == 3 && c.rank == c.size - 1) usleep(2000);
  switch (round / 3 % 3) {  // the communicator changes with round % 3
    case 0:
      gatherv<int16_t>(c, round, root, in_place, REMORA_INT16, algorithm);
      scatterv<int16_t>(c, round, root, in_place, REMORA_INT16, algorithm);
      break;
    case 1:
      gatherv<int32_t>(c, round, root, in_place, REMORA_INT32, algorithm);
      scatterv<int32_t>(c, round, root, in_place, REMORA_INT32, algorithm);
      break;
    default:
      gatherv<int64_t>(c, round, root, in_place, REMORA_INT64, algorithm);
      scatterv<int64_t>(c, round, root, in_place, REMORA_INT64, algorithm);
      break;
  }
}

}  // namespace

int main(int argc, char** argv) {
  int rank = 0, size = 0;
  remora_test::init(&argc, &argv, &rank, &size);
  Comm world;
  REQUIRE_OK(remora_comm_world(&world.handle));
  world.rank = rank;
  world.size = size;
  for (int r = 0; r < size; ++r) world.world.push_back(r);
  const Comm comms[] = {world, remora_test::split_range(1, false),
                        remora_test::split_range(0, true)};
  for (int round = 0; round < kRounds; ++round) {
    const Comm& c = comms[round % 3];
    if (c.handle != REMORA_COMM_NULL) round_on(c, round);
  }
  REQUIRE_OK(remora_comm_barrier(world.handle, REMORA_COLL_AUTO));
  for (size_t i = 1; i < 3; ++i)
    if (comms[i].handle != REMORA_COMM_NULL) {
      remora_comm_t handle = comms[i].handle;
      REQUIRE_OK(remora_comm_free(&handle));
    }
  REQUIRE_OK(remora_finalize());
  return 0;
}
