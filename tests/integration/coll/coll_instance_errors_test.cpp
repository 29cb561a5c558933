// Errors found on some ranks only end the collective on every rank that still takes part,
// instead of leaving it waiting: the rank that finds the error sends an error notice to every
// member, and the next collective on the same communicator works. Each case checks, on every
// rank, the outcome that is certain: ranks that need the failing rank's data (or the detecting
// rank's) get the error with a message naming the rank and the argument; a rank whose part was
// already complete may return success. After each case an allreduce (itself the check that the
// communicator is still usable) counts the ranks that failed.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "multirank.hpp"

namespace {

remora_comm_t world;
int rank, size;

// Every rank's status of the case; returns how many ranks failed.
int failures(int status) {
  int32_t failed = status < 0 ? 1 : 0, total = 0;
  REQUIRE_OK(
      remora_allreduce(&failed, &total, 1, REMORA_INT32, REMORA_OP_SUM, world, REMORA_COLL_AUTO));
  return total;
}

void require_failed(int status, const char* fragment) {
  REQUIRE(status < 0, "rank %d: the collective succeeded but should have failed (%s)", rank,
          fragment);
  REQUIRE(std::strstr(remora_last_error(), fragment) != nullptr ||
              std::strstr(remora_last_error(), "failed this collective") != nullptr,
          "rank %d: message \"%s\" lacks \"%s\"", rank, remora_last_error(), fragment);
}

// A status that may be success (this rank's part was done) or the notice's error.
void require_failed_or_done(int status) {
  if (status < 0)
    REQUIRE(std::strstr(remora_last_error(), "failed this collective") != nullptr ||
                std::strstr(remora_last_error(), "mismatched") != nullptr ||
                std::strstr(remora_last_error(), "REMORA_COLL_TIMEOUT") != nullptr,
            "rank %d: %s", rank, remora_last_error());
}

// Rank 1 passes 3 elements where the others pass 2 (or the same count of a wider type):
// recursive doubling chains every rank's result through rank 1's partners, so all fail.
void allreduce_mismatch(bool wider_type) {
  const size_t count = !wider_type && rank == 1 ? 3 : 2;
  const remora_datatype_t type = wider_type && rank == 1 ? REMORA_INT64 : REMORA_INT32;
  int64_t in[3] = {1, 1, 1}, out[3] = {};
  const int status =
      remora_allreduce(in, out, count, type, REMORA_OP_SUM, world, REMORA_COLL_RECURSIVE_DOUBLING);
  require_failed(status, "mismatched counts");
  REQUIRE(std::strstr(remora_last_error(), "remora_allreduce") != nullptr, "%s",
          remora_last_error());
  REQUIRE(failures(status) == size);
}

// The last rank fails its local checks (an unknown type) and never starts the allgather: it
// tells the others, who all need its block.
void local_failure_allgather() {
  remora_datatype_t type = REMORA_INT32;
  if (rank == size - 1) {
    const int ninety_nine = 99;
    std::memcpy(&type, &ninety_nine, sizeof type);
  }
  std::vector<int32_t> in(2, rank), out(2 * static_cast<size_t>(size));
  const int status = remora_allgather(in.data(), out.data(), 2, type, world, REMORA_COLL_AUTO);
  if (rank == size - 1) {
    REQUIRE(status == REMORA_ERR_ARG && std::strstr(remora_last_error(), "type=99"), "%s",
            remora_last_error());
  } else {
    require_failed(status, "type=99");
    char expected[64];
    std::snprintf(expected, sizeof expected, "rank %d of the communicator", size - 1);
    REQUIRE(std::strstr(remora_last_error(), expected) != nullptr, "%s", remora_last_error());
  }
  REQUIRE(failures(status) == size);
}

// The shm algorithm's gather (root 0), scatter (root the last rank) and alltoall, where the last
// rank fails its local checks (an unknown type) and never enters the shared area: every rank
// that waits for its flags (the gather's root, the scatter's other ranks, every alltoall rank)
// fails with the notice that names it; a rank that only published may be done.
void local_failure_shm_movement() {
  remora_datatype_t type = REMORA_INT32;
  if (rank == size - 1) {
    const int ninety_nine = 99;
    std::memcpy(&type, &ninety_nine, sizeof type);
  }
  const auto n = static_cast<size_t>(size);
  std::vector<int32_t> in(2 * n, rank), out(2 * n);
  char expected[64];
  std::snprintf(expected, sizeof expected, "rank %d of the communicator", size - 1);
  for (int operation = 0; operation < 3; ++operation) {
    int status = REMORA_SUCCESS;
    bool waits = true;  // this rank waits for the last rank's flags
    if (operation == 0) {
      status = remora_gather(in.data(), out.data(), 2, type, 0, world, REMORA_COLL_SHM);
      waits = rank == 0;
    } else if (operation == 1) {
      status = remora_scatter(in.data(), out.data(), 2, type, size - 1, world, REMORA_COLL_SHM);
    } else {
      status = remora_alltoall(in.data(), out.data(), 2, type, world, REMORA_COLL_SHM);
    }
    if (rank == size - 1) {
      REQUIRE(status == REMORA_ERR_ARG && std::strstr(remora_last_error(), "type=99"),
              "operation %d: %s", operation, remora_last_error());
    } else if (waits) {
      require_failed(status, "type=99");
      REQUIRE(std::strstr(remora_last_error(), expected) != nullptr, "operation %d: %s", operation,
              remora_last_error());
    } else {
      require_failed_or_done(status);
    }
    REQUIRE(failures(status) >= (operation == 0 ? 2 : size));
  }
}

// Rank 1 passes NULL sendcounts to alltoallv: every rank expects a block from it.
void local_failure_alltoallv() {
  const auto n = static_cast<size_t>(size);
  std::vector<size_t> counts(n, 1), displs(n);
  for (size_t j = 0; j < n; ++j) displs[j] = j;
  std::vector<int32_t> in(n, rank), out(n);
  const int status =
      remora_alltoallv(in.data(), rank == 1 ? nullptr : counts.data(), displs.data(), out.data(),
                       counts.data(), displs.data(), REMORA_INT32, world, REMORA_COLL_AUTO);
  require_failed(status, "sendcounts is NULL");
  REQUIRE(failures(status) == size);
}

// Rank 1 sends 3 elements to everyone where everyone expects 2: every other rank sees it.
void alltoallv_mismatch(remora_coll_algorithm_t algorithm) {
  const auto n = static_cast<size_t>(size);
  std::vector<size_t> send_counts(n, rank == 1 ? 3 : 2), recv_counts(n, 2), displs(n);
  recv_counts[1 % n] = rank == 1 ? 3 : 2;  // rank 1 is consistent with itself
  for (size_t j = 0; j < n; ++j) displs[j] = 3 * j;
  std::vector<int32_t> in(3 * n, rank), out(3 * n);
  const int status =
      remora_alltoallv(in.data(), send_counts.data(), displs.data(), out.data(), recv_counts.data(),
                       displs.data(), REMORA_INT32, world, algorithm);
  if (rank != 1) require_failed(status, "mismatched counts");
  require_failed_or_done(status);
  REQUIRE(failures(status) >= size - 1);
}

// Rank 1 contributes 3 elements where the root expects 2: the root fails, and so does every
// rank that still waits (binomial: the subtrees that pass through a failed rank).
void gatherv_mismatch(remora_coll_algorithm_t algorithm) {
  const auto n = static_cast<size_t>(size);
  std::vector<size_t> counts(n, 2), displs(n);
  for (size_t j = 0; j < n; ++j) displs[j] = 3 * j;
  const size_t mine = rank == 1 ? 3 : 2;
  std::vector<int32_t> in(mine, rank), out(3 * n);
  const int status = remora_gatherv(in.data(), mine, out.data(), counts.data(), displs.data(),
                                    REMORA_INT32, 0, world, algorithm);
  if (rank == 0) require_failed(status, "rank 1");
  require_failed_or_done(status);
  REQUIRE(failures(status) >= 1);
}

// Rank 1 expects 3 elements where the root scatters 2 to it: rank 1 fails.
void scatter_mismatch(remora_coll_algorithm_t algorithm) {
  const auto n = static_cast<size_t>(size);
  std::vector<int32_t> in(2 * n, 7), out(3);
  const size_t count = rank == 1 ? 3 : 2;
  const int status =
      remora_scatter(in.data(), out.data(), count, REMORA_INT32, 0, world, algorithm);
  if (rank == 1) require_failed(status, "mismatched counts");
  require_failed_or_done(status);
  REQUIRE(failures(status) >= 1);
}

// Rank 1 reduces 3 elements where the others reduce 2: its parent in the tree, the root,
// fails.
void reduce_mismatch() {
  const size_t count = rank == 1 ? 3 : 2;
  int32_t in[3] = {1, 1, 1}, out[3] = {};
  const int status =
      remora_reduce(in, out, count, REMORA_INT32, REMORA_OP_SUM, 0, world, REMORA_COLL_BINOMIAL);
  if (rank == 0) require_failed(status, "mismatched counts");
  require_failed_or_done(status);
  REQUIRE(failures(status) >= 1);
}

// The root broadcasts 4 elements; the last rank's buffer holds 2: a message larger than the
// receiver's buffer, reported by that rank.
void bcast_larger_than_buffer() {
  int32_t buffer[4] = {5, 6, 7, 8};
  const size_t count = rank == size - 1 ? 2 : 4;
  const int status = remora_bcast(buffer, count, REMORA_INT32, 0, world, REMORA_COLL_BINOMIAL);
  if (rank == size - 1) require_failed(status, "but was sent 16");
  require_failed_or_done(status);
  REQUIRE(failures(status) >= 1);
}

// Rank 2 calls a binomial gather with itself as the root, the others with root 0. With 4 or
// more ranks rank 2 has a child in root 0's tree, whose message carries root 0: rank 2 sees the
// disagreement and tells everyone; root 0, waiting for rank 2's subtree, fails too.
void root_mismatch() {
  if (size < 4) return;  // see docs/collectives.md: receive-only disagreements go unseen
  const int root = rank == 2 ? 2 : 0;
  std::vector<int32_t> in(1, rank), out(static_cast<size_t>(size));
  const int status =
      remora_gather(in.data(), out.data(), 1, REMORA_INT32, root, world, REMORA_COLL_BINOMIAL);
  if (rank == 0 || rank == 2) require_failed(status, "mismatched arguments");
  if (rank == 2)
    REQUIRE(std::strstr(remora_last_error(), "gather (algorithm binomial, root 0)") != nullptr,
            "%s", remora_last_error());
  require_failed_or_done(status);
  REQUIRE(failures(status) >= 2);
}

// With REMORA_COLL_TIMEOUT set (run with 2 ranks): the last rank calls a binomial gather with
// itself as the root, the others with root 0. Both roots only wait (nobody sends to the last rank,
// which sends nothing), so no message can show the disagreement; the timeout ends it on both.
void stalled_root_mismatch() {
  const int root = rank == size - 1 ? size - 1 : 0;
  std::vector<int32_t> in(1, rank), out(static_cast<size_t>(size));
  const int status =
      remora_gather(in.data(), out.data(), 1, REMORA_INT32, root, world, REMORA_COLL_BINOMIAL);
  if (rank == 0 || rank == size - 1) require_failed(status, "REMORA_COLL_TIMEOUT");
  require_failed_or_done(status);
  if (status < 0)
    REQUIRE(std::strstr(remora_last_error(), "REMORA_COLL_TIMEOUT") != nullptr, "%s",
            remora_last_error());
  REQUIRE(failures(status) >= 2);
}

// With REMORA_AM_MAX_BYTES=4K and rendezvous refused (REMORA_SINGLE_COPY=off, or ranks on
// different nodes): a 16 KiB broadcast can go neither way. The root's send fails and its notice
// ends the broadcast on every rank, instead of the receivers waiting for data that never comes.
void oversized_message() {
  std::vector<int32_t> data(4096, rank);
  const int status =
      remora_bcast(data.data(), data.size(), REMORA_INT32, 0, world, REMORA_COLL_BINOMIAL);
  require_failed(status, "REMORA_AM_MAX_BYTES");
  REQUIRE(std::strstr(remora_last_error(), "REMORA_AM_MAX_BYTES") != nullptr, "%s",
          remora_last_error());
  REQUIRE(failures(status) == size);
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  REQUIRE_OK(remora_comm_world(&world));
  rank = remora_rank();
  size = remora_size();
  // With REMORA_COLL_TIMEOUT set only the case that needs it runs: the timeout applies to every
  // collective of the program, and a slow machine must not turn the others into failures.
  const bool timeout_run = std::getenv("REMORA_COLL_TIMEOUT") != nullptr;
  if (size >= 2 && !timeout_run) {
    for (int round = 0; round < 3; ++round) {  // the communicator stays usable, again and again
      allreduce_mismatch(false);
      allreduce_mismatch(true);
      local_failure_allgather();
      local_failure_alltoallv();
      local_failure_shm_movement();
      for (auto algorithm : {REMORA_COLL_PAIRWISE, REMORA_COLL_FLAT, REMORA_COLL_BRUCK})
        alltoallv_mismatch(algorithm);
      for (auto algorithm : {REMORA_COLL_FLAT, REMORA_COLL_BINOMIAL, REMORA_COLL_SEQUENTIAL})
        gatherv_mismatch(algorithm);
      for (auto algorithm : {REMORA_COLL_FLAT, REMORA_COLL_BINOMIAL}) scatter_mismatch(algorithm);
      reduce_mismatch();
      bcast_larger_than_buffer();
      root_mismatch();
    }
    if (std::getenv("REMORA_AM_MAX_BYTES") != nullptr) oversized_message();
  }
  if (size >= 2 && timeout_run) stalled_root_mismatch();
  // A correct collective with data still gives the right answer.
  std::vector<int32_t> mine(3, rank), all(3 * static_cast<size_t>(size));
  REQUIRE_OK(remora_allgather(mine.data(), all.data(), 3, REMORA_INT32, world, REMORA_COLL_AUTO));
  for (size_t j = 0; j < all.size(); ++j)
    REQUIRE(all[j] == static_cast<int32_t>(j / 3), "all[%zu]=%d", j, all[j]);
  REQUIRE_OK(remora_finalize());
  return 0;
}
