// Small puts and gets across nodes (run with REMORA_NODE_SIZE=1 at 3 ranks: every transfer goes
// through an MPI window). A get of at most 16 KiB is MPI_Get + MPI_Win_flush, and a flush calls
// MPI_Win_flush only for a target with puts since its last flush. Checked: a put's source
// buffer may be overwritten as soon as the put returns; after the origin's flush a third rank
// reads the data; thousands of puts outstanding before one flush; puts to two targets, flushed
// one target at a time; a get after a flush; strided puts, and strided gets of small and large
// rows from two targets at once; window puts and gets; more small (staged) puts outstanding than
// the staging blocks hold, and puts on both sides of the staging size; a flush of one target
// with puts outstanding on several segments, one of them freed before the flush.
#include <cstdint>
#include <cstring>
#include <vector>

#include "multirank.hpp"

namespace {

constexpr size_t kSegmentBytes = size_t{4} << 20;

uint8_t pattern(int round, int target, size_t index) {
  return static_cast<uint8_t>(round * 31 + target * 13 + index * 7 + 1);
}

// Rank 2 reads bytes of rank target's part at offset with remora_get and compares.
void check_remote(remora_segment_t segment, int round, int target, size_t offset, size_t bytes) {
  std::vector<uint8_t> back(bytes, 0);
  REQUIRE_OK(remora_get(segment, target, offset, back.data(), bytes));
  for (size_t i = 0; i < bytes; ++i)
    REQUIRE(back[i] == pattern(round, target, offset + i),
            "round %d: byte %zu of rank %d read %u, expected %u", round, offset + i, target,
            back[i], pattern(round, target, offset + i));
}

void check_local(remora_segment_t segment, int round, int rank, size_t offset, size_t bytes) {
  uint8_t* mine = nullptr;
  REQUIRE_OK(remora_segment_pointer(segment, rank, reinterpret_cast<void**>(&mine)));
  for (size_t i = 0; i < bytes; ++i)
    REQUIRE(mine[offset + i] == pattern(round, rank, offset + i),
            "round %d: my byte %zu is %u, expected %u", round, offset + i, mine[offset + i],
            pattern(round, rank, offset + i));
}

// Rank 0 puts [offset, offset + bytes) of rank target's part in pieces of piece bytes, from one
// buffer that it scribbles over as soon as each put returns.
void put_pieces(remora_segment_t segment, int round, int target, size_t offset, size_t bytes,
                size_t piece) {
  std::vector<uint8_t> source(piece);
  for (size_t done = 0; done < bytes; done += piece) {
    for (size_t i = 0; i < piece; ++i) source[i] = pattern(round, target, offset + done + i);
    REQUIRE_OK(remora_put(segment, target, offset + done, source.data(), piece));
    std::memset(source.data(), 0xEE, piece);
  }
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  const int rank = remora_rank(), size = remora_size();
  REQUIRE(size == 3, "run at 3 ranks, not %d", size);
  remora_segment_t segment;
  REQUIRE_OK(remora_segment_allocate(kSegmentBytes, &segment));
  REQUIRE_OK(remora_barrier());

  // Round 1: one put each of 8 B, 4 KiB and 16 KiB, one flush; rank 2 then reads them.
  if (rank == 0) {
    put_pieces(segment, 1, 1, 0, 8, 8);
    put_pieces(segment, 1, 1, 64, 4096, 4096);
    put_pieces(segment, 1, 1, 8192, 16384, 16384);
    REQUIRE_OK(remora_flush(segment, 1));
  }
  REQUIRE_OK(remora_barrier());
  if (rank == 2) {
    check_remote(segment, 1, 1, 0, 8);
    check_remote(segment, 1, 1, 64, 4096);
    check_remote(segment, 1, 1, 8192, 16384);
  }
  if (rank == 1) check_local(segment, 1, 1, 0, 8);
  REQUIRE_OK(remora_barrier());

  // Round 2: 4,096 puts of 8 B and 600 of 4 KiB (2.4 MiB) outstanding, then one flush.
  if (rank == 0) {
    put_pieces(segment, 2, 1, 0, 4096 * 8, 8);
    put_pieces(segment, 2, 1, 65536, 600 * 4096, 4096);
    REQUIRE_OK(remora_flush(segment, 1));
  }
  REQUIRE_OK(remora_barrier());
  if (rank == 2) {
    check_remote(segment, 2, 1, 0, 4096 * 8);
    check_remote(segment, 2, 1, 65536, 600 * 4096);
  }
  if (rank == 1) check_local(segment, 2, 1, 65536, 600 * 4096);
  REQUIRE_OK(remora_barrier());

  // Round 3: puts to two targets interleaved, flushed one target at a time; each target checks
  // its own part after the flush that concerns it.
  if (rank == 0) {
    for (size_t i = 0; i < 256; ++i) {
      put_pieces(segment, 3, 1, i * 64, 64, 64);
      put_pieces(segment, 3, 2, i * 64, 64, 64);
    }
    REQUIRE_OK(remora_flush(segment, 1));
  }
  REQUIRE_OK(remora_barrier());
  if (rank == 1) check_local(segment, 3, 1, 0, 256 * 64);
  if (rank == 0) REQUIRE_OK(remora_flush(segment, 2));
  REQUIRE_OK(remora_barrier());
  if (rank == 2) check_local(segment, 3, 2, 0, 256 * 64);
  REQUIRE_OK(remora_barrier());

  // Round 4: puts to both, remora_flush_all, then the origin reads both back.
  if (rank == 0) {
    put_pieces(segment, 4, 1, 0, 8192, 8);
    put_pieces(segment, 4, 2, 0, 8192, 512);
    REQUIRE_OK(remora_flush_all(segment));
    check_remote(segment, 4, 1, 0, 8192);
    check_remote(segment, 4, 2, 0, 8192);
  }
  REQUIRE_OK(remora_barrier());
  if (rank == 1) check_local(segment, 4, 1, 0, 8192);
  if (rank == 2) check_local(segment, 4, 2, 0, 8192);
  REQUIRE_OK(remora_barrier());

  // Round 5: strided gets. Rank 0 puts rows into ranks 1 and 2 and flushes both; then every
  // rank reads both other ranks' rows at once (gets to several targets, each target itself
  // reading): small rows are one MPI_Get per row and one MPI_Win_flush for the call, rows above
  // 16 KiB a get each. Padding between the rows read must stay untouched.
  // The small rows are written with one strided put per target (4 planes of 16 rows of 24
  // bytes, 100 bytes apart at the target), whose packed source is scribbled over at once.
  const size_t count[3] = {24, 16, 4}, target_stride[2] = {100, 1600};
  if (rank == 0)
    for (int target = 1; target < 3; ++target) {
      const size_t packed_stride[2] = {24, 24 * 16};
      std::vector<uint8_t> rows(64 * 24);
      for (size_t row = 0; row < 64; ++row)
        for (size_t b = 0; b < 24; ++b) rows[row * 24 + b] = pattern(5, target, 3 + row * 100 + b);
      REQUIRE_OK(remora_put_strided(segment, target, 3, target_stride, rows.data(), packed_stride,
                                    count, 2));
      std::memset(rows.data(), 0xEE, rows.size());
      put_pieces(segment, 5, target, 1 << 20, 3 * 20480, 4096);
    }
  if (rank == 0) REQUIRE_OK(remora_flush_all(segment));
  REQUIRE_OK(remora_barrier());
  for (int target = 0; target < 3; ++target) {
    if (target == rank || target == 0) continue;
    // The same rows, 32 bytes apart here.
    const size_t local_stride[2] = {32, 512};
    std::vector<uint8_t> back(4 * 512, 0xEE);
    REQUIRE_OK(
        remora_get_strided(segment, target, 3, target_stride, back.data(), local_stride, count, 2));
    for (size_t row = 0; row < 64; ++row) {
      for (size_t b = 0; b < 24; ++b)
        REQUIRE(back[row * 32 + b] == pattern(5, target, 3 + row * 100 + b),
                "strided get from rank %d: row %zu byte %zu is %u", target, row, b,
                back[row * 32 + b]);
      for (size_t b = 24; b < 32; ++b)
        REQUIRE(back[row * 32 + b] == 0xEE, "strided get from rank %d wrote past row %zu", target,
                row);
    }
    // Three rows of 20 KiB (above the flushed-get size), 20,480 bytes apart at the target.
    const size_t big_count[2] = {20480 - 8, 3}, big_stride[1] = {20480}, big_local[1] = {20480};
    std::vector<uint8_t> big(3 * 20480, 0xEE);
    REQUIRE_OK(remora_get_strided(segment, target, (1 << 20) + 8, big_stride, big.data(), big_local,
                                  big_count, 1));
    for (size_t row = 0; row < 3; ++row)
      for (size_t b = 0; b < 20480; ++b) {
        const uint8_t expected =
            b < 20480 - 8 ? pattern(5, target, (1 << 20) + 8 + row * 20480 + b) : 0xEE;
        REQUIRE(big[row * 20480 + b] == expected,
                "large strided get from rank %d: row %zu byte %zu", target, row, b);
      }
  }
  REQUIRE_OK(remora_barrier());

  // Round 6: a window in a lock_all epoch: rank 0 puts 8 B to rank 1 and flushes, rank 2 reads.
  remora_win_t window = nullptr;
  void* base = nullptr;
  REQUIRE_OK(remora_win_allocate(4096, 1, nullptr, &base, &window));
  REQUIRE_OK(remora_win_lock_all(window, 0));
  if (rank == 0) {
    uint64_t value = 0x0123456789abcdefULL;
    REQUIRE_OK(remora_win_put(window, 1, 8, &value, 1, REMORA_UINT64));
    value = 0;
    REQUIRE_OK(remora_win_flush(window, 1));
  }
  REQUIRE_OK(remora_barrier());
  if (rank == 2) {
    uint64_t read = 0;
    REQUIRE_OK(remora_win_get(window, 1, 8, &read, 1, REMORA_UINT64));
    REQUIRE(read == 0x0123456789abcdefULL, "window get read %llx",
            static_cast<unsigned long long>(read));
  }
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_unlock_all(window));
  REQUIRE_OK(remora_win_free(&window));

  // Round 7: puts of at most 256 bytes are staged copies sent with MPI_Put. 80,000 puts of 8 B
  // to two targets in turn (each copy takes 16 bytes of the 1 MiB of staging blocks, so the
  // blocks fill and are reused while puts are outstanding), then 256-byte (staged) and 257-byte
  // (MPI_Rput) puts, sources scribbled over as each put returns; one flush_all.
  if (rank == 0) {
    for (size_t i = 0; i < 40000; ++i) {
      put_pieces(segment, 7, 1, i * 8, 8, 8);
      put_pieces(segment, 7, 2, i * 8, 8, 8);
    }
    put_pieces(segment, 7, 1, 1 << 20, 100 * 256, 256);
    put_pieces(segment, 7, 2, 1 << 20, 100 * 257, 257);
    REQUIRE_OK(remora_flush_all(segment));
  }
  REQUIRE_OK(remora_barrier());
  if (rank == 1) {
    check_local(segment, 7, 1, 0, 40000 * 8);
    check_local(segment, 7, 1, 1 << 20, 100 * 256);
  }
  if (rank == 2) {
    check_local(segment, 7, 2, 0, 40000 * 8);
    check_local(segment, 7, 2, 1 << 20, 100 * 257);
  }
  REQUIRE_OK(remora_barrier());

  // Round 8: a flush of a target completes the puts to it on every segment, although it visits
  // only the windows with puts outstanding to it. Rank 0 puts to rank 1 on the first segment and
  // on extra[0] and extra[2] (extra[1] gets none), and on extra[3], which every rank frees before
  // the flush (its window leaves the flush list); then one remora_flush on extra[1]; rank 2 reads.
  remora_segment_t extra[4];
  for (remora_segment_t& more : extra) REQUIRE_OK(remora_segment_allocate(4096, &more));
  REQUIRE_OK(remora_barrier());
  const remora_segment_t written[3] = {segment, extra[0], extra[2]};
  if (rank == 0) {
    for (remora_segment_t each : written) put_pieces(each, 8, 1, 0, 512, 8);
    put_pieces(extra[3], 8, 1, 0, 512, 8);
  }
  REQUIRE_OK(remora_segment_free(&extra[3]));
  if (rank == 0) REQUIRE_OK(remora_flush(extra[1], 1));
  REQUIRE_OK(remora_barrier());
  if (rank == 2)
    for (remora_segment_t each : written) check_remote(each, 8, 1, 0, 512);
  REQUIRE_OK(remora_barrier());
  for (int i = 0; i < 3; ++i) REQUIRE_OK(remora_segment_free(&extra[i]));

  REQUIRE_OK(remora_segment_free(&segment));
  REQUIRE_OK(remora_finalize());
  return 0;
}
