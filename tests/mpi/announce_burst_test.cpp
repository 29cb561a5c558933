// Operations that return without waiting for another node (puts and rgets here) read the clock to
// announce themselves (renew this rank's activity, notice the target) only once per 16 small
// operations to a target within a burst, the operations between two polls of the rank
// (MpiTransport::announce); larger ones use the stride up faster, one more per 4 KiB, and one of
// 60 KiB or more announces every time. Run at 2 ranks with REMORA_NODE_SIZE=1, manual progress (a
// progress thread's polls would end the bursts) and a REMORA_MPI_ACTIVE_US far shorter than the
// pauses below. Rank 0, inactive after each pause outside Remora, must be active after: the first
// put after a poll (a barrier's, remora_progress's), the 16th put of a burst, and a flush; and
// still inactive after the 15 puts of a burst that follow its first (no clock read, as
// documented). With rgets (which never poll): active after the first 4 KiB rget, inactive after
// the 7 that follow it, active after the 9th, and after a 64 KiB rget that follows at once.
// Every put's value is checked at rank 1 and every rget's bytes at rank 0, so a skipped
// announcement never loses an operation.
#include <cstdint>
#include <vector>

#include "mpi_internals.hpp"

namespace {

constexpr long kPauseMs = 700;           // > REMORA_MPI_ACTIVE_US (500 ms in CMakeLists.txt)
constexpr int kStride = 16;              // kAnnounceStride
constexpr size_t kSmallGet = 4096;       // kAnnounceUnitBytes: two units of the stride
constexpr size_t kLargeGet = 64 * 1024;  // more units than the stride has
constexpr int kSmallGets = 9;            // 1 announced, 7 skipped (2 units each of 15), 1 more
constexpr size_t kWindowBytes = kSmallGets * kSmallGet + kLargeGet;

unsigned char pattern(size_t i) {
  return static_cast<unsigned char>(i * 7 + 3);
}

// Rank 0 reads rank 1's window with rgets of kSmallGet and one of kLargeGet, checking its activity
// after each step that the stride decides, then the bytes.
void rget_burst(const remora::mpi::MpiTransport* mpi, int rank) {
  remora_win_t win = nullptr;
  unsigned char* mine = nullptr;
  REQUIRE_OK(remora_win_allocate(kWindowBytes, 1, nullptr, reinterpret_cast<void**>(&mine), &win));
  for (size_t i = 0; i < kWindowBytes; ++i) mine[i] = pattern(i);
  REQUIRE_OK(remora_win_lock_all(win, 0));
  REQUIRE_OK(remora_barrier());
  if (rank == 0) {
    std::vector<unsigned char> read(kWindowBytes, 0);
    std::vector<remora_request_t> requests;
    auto rget = [&](size_t at, size_t bytes) {
      REQUIRE_OK(remora_win_rget(win, 1, at, read.data() + at, bytes, REMORA_UINT8,
                                 &requests.emplace_back(REMORA_REQUEST_NULL)));
    };
    auto expect_active = [&](bool active, const char* after) {
      REQUIRE(mpi->polls_for_remote_work() == active, "after %s the rank is %sactive", after,
              active ? "in" : "");
    };
    remora_test::sleep_ms(kPauseMs);
    expect_active(false, "a pause");
    rget(0, kSmallGet);
    expect_active(true, "the first 4 KiB rget after a poll");
    remora_test::sleep_ms(kPauseMs);
    for (int i = 1; i < kSmallGets - 1; ++i) rget(i * kSmallGet, kSmallGet);
    expect_active(false, "7 more 4 KiB rgets of the burst");
    rget((kSmallGets - 1) * kSmallGet, kSmallGet);
    expect_active(true, "the 9th 4 KiB rget of a burst");
    remora_test::sleep_ms(kPauseMs);
    rget(kSmallGets * kSmallGet, kLargeGet);
    expect_active(true, "a 64 KiB rget right after an announced one");
    REQUIRE_OK(remora_request_waitall(static_cast<int>(requests.size()), requests.data()));
    for (size_t i = 0; i < kWindowBytes; ++i)
      REQUIRE(read[i] == pattern(i), "byte %zu read %d, expected %d", i, read[i], pattern(i));
  }
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE_OK(remora_win_free(&win));
}

}  // namespace

int main(int argc, char** argv) {
  int rank = 0, size = 0;
  remora_test::init(&argc, &argv, &rank, &size);
  REQUIRE(size == 2, "run at 2 ranks, not %d", size);
  const remora::mpi::MpiTransport* mpi = &remora_test::mpi_transport("announce_burst_test");
  constexpr int kPuts = 3 * kStride;
  remora_segment_t segment = nullptr;
  REQUIRE_OK(remora_segment_allocate(kPuts * sizeof(int64_t), &segment));
  REQUIRE_OK(remora_barrier());
  if (rank == 0) {
    int put = 0;
    auto put_next = [&] {
      const int64_t value = 1000 + put;
      REQUIRE_OK(
          remora_put(segment, 1, static_cast<size_t>(put) * sizeof value, &value, sizeof value));
      ++put;
    };
    auto expect_active = [&](bool active, const char* after) {
      REQUIRE(mpi->polls_for_remote_work() == active, "after %s (put %d) the rank is %sactive",
              after, put, active ? "in" : "");
    };
    remora_test::sleep_ms(kPauseMs);
    expect_active(false, "a pause");
    put_next();  // the first operation after the barrier's polls: announced
    expect_active(true, "the first put after a poll");
    remora_test::sleep_ms(kPauseMs);
    for (int i = 1; i < kStride; ++i) put_next();  // the rest of the burst: not announced
    expect_active(false, "15 more puts of the burst");
    put_next();  // the 17th: the clock is read again
    expect_active(true, "the 17th put of a burst");
    remora_test::sleep_ms(kPauseMs);
    REQUIRE_OK(remora_flush(segment, 1));  // a flush announces at once
    expect_active(true, "a flush");
    remora_test::sleep_ms(kPauseMs);
    REQUIRE_OK(remora_progress());  // a poll ends the burst
    remora_test::sleep_ms(kPauseMs);
    put_next();
    expect_active(true, "the first put after remora_progress");
    while (put < kPuts) put_next();
    REQUIRE_OK(remora_flush(segment, 1));
  }
  REQUIRE_OK(remora_barrier());
  if (rank == 1) {
    int64_t* mine = nullptr;
    REQUIRE_OK(remora_segment_pointer(segment, 1, reinterpret_cast<void**>(&mine)));
    for (int i = 0; i < kPuts; ++i)
      REQUIRE(mine[i] == 1000 + i, "put %d holds %lld, expected %d", i,
              static_cast<long long>(mine[i]), 1000 + i);
  }
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_segment_free(&segment));
  rget_burst(mpi, rank);
  REQUIRE_OK(remora_finalize());
  return 0;
}
