// A rank that waits for an rget in flight to another node keeps polling MPI (stays active, as in
// a wait for an MPI request of its own): the target may need this rank's MPI calls, and only a
// poll sees the get complete. Run with REMORA_NODE_SIZE=1 at 2 ranks and a REMORA_MPI_ACTIVE_US
// far shorter than the pauses below. Each round, rank 1 writes the round's value into its window
// memory and, after a barrier, sleeps outside Remora and MPI (PauseMs, so that the get can stay
// in flight); rank 0 issues an rget of it, sleeps outside Remora past the activity the rget's
// issue gave it, then tests the request: while the test finds it in flight the rank must poll
// for remote work (MpiTransport::polls_for_remote_work). Then it waits and checks the value.
// Where MPI completes the get without the target, nothing is in flight and only the value is
// checked (the count of rounds that saw the get in flight is printed).
#include <cstdint>
#include <cstdio>

#include "mpi_internals.hpp"

namespace {

constexpr int kRounds = 3;
constexpr long kOriginPauseMs = 300;  // > REMORA_MPI_ACTIVE_US (100 ms in CMakeLists.txt)
constexpr long kTargetPauseMs = 1000;

int64_t value(int round) {
  return 1000 + round;
}

}  // namespace

int main(int argc, char** argv) {
  int rank = 0, size = 0;
  remora_test::init(&argc, &argv, &rank, &size);
  REQUIRE(size == 2, "run at 2 ranks, not %d", size);
  const remora::mpi::MpiTransport* mpi = &remora_test::mpi_transport("rget_active_test");
  remora_win_t win = nullptr;
  int64_t* mine = remora_test::allocate_int64_window(1, nullptr, &win);
  REQUIRE_OK(remora_win_lock_all(win, 0));
  int in_flight = 0;
  for (int round = 0; round < kRounds; ++round) {
    if (rank == 1) *mine = value(round);
    REQUIRE_OK(remora_barrier());
    if (rank == 1) {
      remora_test::sleep_ms(kTargetPauseMs);
    } else {
      int64_t read = -1;
      remora_request_t request = REMORA_REQUEST_NULL;
      REQUIRE_OK(remora_win_rget(win, 1, 0, &read, 1, REMORA_INT64, &request));
      remora_test::sleep_ms(kOriginPauseMs);
      int flag = 0;
      REQUIRE_OK(remora_request_test(&request, &flag));
      if (!flag) {
        ++in_flight;
        REQUIRE(mpi->polls_for_remote_work(),
                "round %d: the rget is in flight, but the rank's waits would sleep", round);
        REQUIRE_OK(remora_request_wait(&request));
      }
      REQUIRE(read == value(round), "round %d: the rget read %lld, expected %lld", round,
              static_cast<long long>(read), static_cast<long long>(value(round)));
    }
    REQUIRE_OK(remora_barrier());
  }
  if (rank == 0)
    std::printf("rget_active: the rget was in flight at the test in %d of %d rounds\n", in_flight,
                kRounds);
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE_OK(remora_win_free(&win));
  REQUIRE_OK(remora_finalize());
  return 0;
}
