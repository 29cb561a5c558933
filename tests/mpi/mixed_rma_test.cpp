// Many puts and rgets of mixed sizes across nodes (run with REMORA_NODE_SIZE=1: every other rank
// is on another node). Sizes straddle the transport's thresholds (staged puts up to 256 B,
// request-based puts above, tested once under the MPI mutex; flushed gets up to 16 KiB,
// request-based above; rgets of every size left in flight). Checked: every put's source is
// scribbled over as soon as the put returns, and after one flush the target holds every byte;
// a second pass over the same places with other values, flushed, replaces them all; rgets of
// mixed sizes from every other rank, completed by one waitall (and a second batch by a flush of
// each target, after which each request tests complete), read what their owners wrote. The
// seed is printed (REMORATEST_SEED repeats a run).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <vector>

#include "multirank.hpp"

namespace {

constexpr size_t kSegmentBytes = size_t{3} << 20;
constexpr size_t kSizes[] = {1,    8,     255,   256,   257,   1000,  4096,
                             4097, 16384, 16385, 65536, 65537, 300000};
constexpr int kGets = 200;  // rgets per rank and batch

uint8_t pattern(int pass, int target, size_t offset) {
  return static_cast<uint8_t>(pass * 37 + target * 11 + offset * 7 + (offset >> 9) + 1);
}

// The pieces one pass puts: sizes from kSizes in a seeded order, laid end to end.
struct Piece {
  size_t offset, bytes;
};
std::vector<Piece> pieces(std::mt19937& random) {
  std::vector<Piece> all;
  std::uniform_int_distribution<size_t> pick(0, std::size(kSizes) - 1);
  for (size_t offset = 0;;) {
    const size_t bytes = kSizes[pick(random)];
    if (offset + bytes > kSegmentBytes) break;
    all.push_back({offset, bytes});
    offset += bytes;
  }
  return all;
}

// This rank puts every piece to target from one buffer it scribbles over after each put, then
// flushes once.
void put_pass(remora_segment_t segment, int pass, int target, const std::vector<Piece>& all) {
  std::vector<uint8_t> source;
  for (const Piece& piece : all) {
    source.resize(piece.bytes);
    for (size_t i = 0; i < piece.bytes; ++i) source[i] = pattern(pass, target, piece.offset + i);
    REQUIRE_OK(remora_put(segment, target, piece.offset, source.data(), piece.bytes));
    std::fill(source.begin(), source.end(), uint8_t{0xEE});
  }
  REQUIRE_OK(remora_flush(segment, target));
}

void check_own(remora_segment_t segment, int pass, int rank, size_t bytes) {
  uint8_t* mine = nullptr;
  REQUIRE_OK(remora_segment_pointer(segment, rank, reinterpret_cast<void**>(&mine)));
  for (size_t i = 0; i < bytes; ++i)
    REQUIRE(mine[i] == pattern(pass, rank, i), "pass %d: byte %zu of rank %d is %u, expected %u",
            pass, i, rank, mine[i], pattern(pass, rank, i));
}

struct Get {
  int target;
  size_t offset, bytes, slot;
  remora_request_t request;
};

// kGets rgets of mixed sizes at random places of the other ranks' window memory, into disjoint
// slots of results.
std::vector<Get> issue_gets(remora_win_t window, std::mt19937& random, int rank, int size,
                            std::vector<uint8_t>* results) {
  std::vector<Get> gets;
  std::uniform_int_distribution<size_t> pick(0, std::size(kSizes) - 1);
  std::uniform_int_distribution<int> other(1, size - 1);
  size_t slot = 0;
  for (int i = 0; i < kGets; ++i) {
    const size_t bytes = kSizes[pick(random)];
    std::uniform_int_distribution<size_t> place(0, kSegmentBytes - bytes);
    gets.push_back({(rank + other(random)) % size, place(random), bytes, slot, nullptr});
    slot += bytes;
  }
  results->assign(slot, 0xEE);
  for (Get& get : gets)
    REQUIRE_OK(remora_win_rget(window, get.target, get.offset, results->data() + get.slot,
                               get.bytes, REMORA_UINT8, &get.request));
  return gets;
}

void check_gets(const std::vector<Get>& gets, const std::vector<uint8_t>& results, int pass) {
  for (const Get& get : gets)
    for (size_t i = 0; i < get.bytes; ++i)
      REQUIRE(results[get.slot + i] == pattern(pass, get.target, get.offset + i),
              "rget of %zu bytes at %zu of rank %d: byte %zu is %u, expected %u", get.bytes,
              get.offset, get.target, i, results[get.slot + i],
              pattern(pass, get.target, get.offset + i));
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  const int rank = remora_rank(), size = remora_size();
  REQUIRE(size >= 2, "run at 2 ranks or more, not %d", size);
  const char* seed_text = std::getenv("REMORATEST_SEED");
  unsigned seed = seed_text != nullptr ? static_cast<unsigned>(std::strtoul(seed_text, nullptr, 10))
                                       : static_cast<unsigned>(std::time(nullptr));
  remora_comm_t world = REMORA_COMM_NULL;
  REQUIRE_OK(remora_comm_world(&world));
  REQUIRE_OK(remora_bcast(&seed, 1, REMORA_UINT32, 0, world, REMORA_COLL_AUTO));
  if (rank == 0) std::printf("mixed_rma: seed %u (REMORATEST_SEED)\n", seed);
  std::mt19937 random(seed + static_cast<unsigned>(rank));

  // Puts: each rank to the next one, two passes over the same places.
  remora_segment_t segment = nullptr;
  REQUIRE_OK(remora_segment_allocate(kSegmentBytes, &segment));
  const int next = (rank + 1) % size;
  for (int pass = 1; pass <= 2; ++pass) {
    std::mt19937 layout(seed + static_cast<unsigned>(pass));
    const std::vector<Piece> all = pieces(layout);
    put_pass(segment, pass, next, all);
    REQUIRE_OK(remora_barrier());
    check_own(segment, pass, rank, all.back().offset + all.back().bytes);
    REQUIRE_OK(remora_barrier());
  }
  REQUIRE_OK(remora_segment_free(&segment));

  // Rgets: every rank fills its window memory, then reads the others' in flight.
  remora_win_t window = nullptr;
  uint8_t* base = nullptr;
  REQUIRE_OK(
      remora_win_allocate(kSegmentBytes, 1, nullptr, reinterpret_cast<void**>(&base), &window));
  for (size_t i = 0; i < kSegmentBytes; ++i) base[i] = pattern(3, rank, i);
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_lock_all(window, 0));
  std::vector<uint8_t> results;
  std::vector<Get> gets = issue_gets(window, random, rank, size, &results);
  std::vector<remora_request_t> requests;
  for (const Get& get : gets) requests.push_back(get.request);
  REQUIRE_OK(remora_request_waitall(static_cast<int>(requests.size()), requests.data()));
  check_gets(gets, results, 3);
  // A second batch, completed by a flush of each target: each request then tests complete.
  gets = issue_gets(window, random, rank, size, &results);
  for (int target = 0; target < size; ++target)
    if (target != rank) REQUIRE_OK(remora_win_flush(window, target));
  check_gets(gets, results, 3);
  for (Get& get : gets) {
    int done = 0;
    REQUIRE_OK(remora_request_test(&get.request, &done));
    REQUIRE(done == 1, "an rget of %zu bytes from rank %d is not complete after its flush",
            get.bytes, get.target);
  }
  REQUIRE_OK(remora_win_unlock_all(window));
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_free(&window));
  REQUIRE_OK(remora_finalize());
  return 0;
}
