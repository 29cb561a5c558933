// A flush across nodes on an oversubscribed machine waits for its target outside the MPI mutex
// (MpiTransport::settle), so another thread of the rank keeps using MPI meanwhile. Run with
// REMORA_NODE_SIZE=1, REMORA_OVERSUBSCRIBED=yes and manual progress at 3 ranks. Rank 1 stays
// outside Remora and MPI until a file appears, so rank 0's put to it (which MPICH over UCX
// completes in the target's MPI calls) cannot complete meanwhile; rank 0's main thread flushes
// it, and a second thread then puts to rank 2 (inside Remora, so progressing) and flushes, and
// only then creates the file. A flush that waited holding the MPI mutex would keep the second
// thread out of MPI, and the job would hang. Where MPI completes the put without its target,
// the first flush returns at once and only the values are checked.
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <string>
#include <thread>

#include "multirank.hpp"

namespace {

constexpr int64_t kToRank1 = 111;
constexpr int64_t kToRank2 = 222;

void pause_briefly() {
  usleep(1000);
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  REQUIRE_OK(remora_init_thread(&argc, &argv, REMORA_THREAD_MULTIPLE, &provided));
  const int rank = remora_rank();
  const int size = remora_size();
  REQUIRE(size == 3, "run at 3 ranks, not %d", size);
  REQUIRE(provided == REMORA_THREAD_MULTIPLE, "thread level %d, expected MULTIPLE", provided);
  // The file rank 1 waits for, named after rank 0's pid (one per job).
  int64_t token = getpid();
  remora_comm_t world;
  REQUIRE_OK(remora_comm_world(&world));
  REQUIRE_OK(remora_bcast(&token, 1, REMORA_INT64, 0, world, REMORA_COLL_AUTO));
  const std::string file = "/tmp/remora_flush_unlocked_" + std::to_string(token);
  remora_win_t first = nullptr, second = nullptr;
  int64_t* mine_first = remora_test::allocate_int64_window(1, nullptr, &first);
  int64_t* mine_second = remora_test::allocate_int64_window(1, nullptr, &second);
  *mine_first = 0;
  *mine_second = 0;
  REQUIRE_OK(remora_win_lock_all(first, 0));
  REQUIRE_OK(remora_win_lock_all(second, 0));
  REQUIRE_OK(remora_barrier());
  if (rank == 0) {
    std::atomic<bool> flushing{false};
    std::thread other([&] {
      while (!flushing.load()) pause_briefly();
      pause_briefly();  // most often the main thread is inside its flush by now
      REQUIRE_OK(remora_win_put(second, 2, 0, &kToRank2, 1, REMORA_INT64));
      REQUIRE_OK(remora_win_flush(second, 2));
      FILE* created = std::fopen(file.c_str(), "w");
      REQUIRE(created != nullptr, "cannot create %s", file.c_str());
      std::fclose(created);
    });
    REQUIRE_OK(remora_win_put(first, 1, 0, &kToRank1, 1, REMORA_INT64));
    flushing.store(true);
    REQUIRE_OK(remora_win_flush(first, 1));
    other.join();
  } else if (rank == 1) {
    while (access(file.c_str(), F_OK) != 0) pause_briefly();  // outside Remora and MPI
    unlink(file.c_str());
  }
  REQUIRE_OK(remora_barrier());
  if (rank == 1)
    REQUIRE(*mine_first == kToRank1, "rank 1 holds %lld, expected %lld",
            static_cast<long long>(*mine_first), static_cast<long long>(kToRank1));
  if (rank == 2)
    REQUIRE(*mine_second == kToRank2, "rank 2 holds %lld, expected %lld",
            static_cast<long long>(*mine_second), static_cast<long long>(kToRank2));
  REQUIRE_OK(remora_win_unlock_all(first));
  REQUIRE_OK(remora_win_unlock_all(second));
  REQUIRE_OK(remora_win_free(&first));
  REQUIRE_OK(remora_win_free(&second));
  REQUIRE_OK(remora_finalize());
  return 0;
}
