// remora_comm_set_order: custom orders (a rotation, an interleaving) on a dup of the world
// change which ranks talk to which, never the results; bad orders are errors. Every algorithm
// under a non-identity order is covered by the collective matrices run with
// REMORA_COLL_ORDER=reverse (tests/integration/coll/CMakeLists.txt).
#include <cstdint>
#include <numeric>
#include <vector>

#include "multirank.hpp"

namespace {

constexpr remora_coll_algorithm_t kGathers[] = {REMORA_COLL_BINOMIAL, REMORA_COLL_BINARY,
                                                REMORA_COLL_FLAT, REMORA_COLL_SEQUENTIAL};
constexpr remora_coll_algorithm_t kAlltoalls[] = {REMORA_COLL_BRUCK, REMORA_COLL_PAIRWISE,
                                                  REMORA_COLL_RING, REMORA_COLL_FLAT};
constexpr remora_coll_algorithm_t kAllreduces[] = {REMORA_COLL_RECURSIVE_DOUBLING, REMORA_COLL_RING,
                                                   REMORA_COLL_RABENSEIFNER};

// Rank r contributes r + 1 elements of value 100 r + i to a gatherv at root; alltoall block
// for rank j from rank r holds 1000 r + j; allreduce of r + 1; scan of 1 (keeps rank order).
void check_collectives(remora_comm_t comm, int rank, int size) {
  for (int root : {0, size - 1}) {
    std::vector<size_t> counts, displs;
    size_t total = 0;
    for (int r = 0; r < size; ++r) {
      counts.push_back(static_cast<size_t>(r) + 1);
      displs.push_back(total);
      total += counts.back();
    }
    std::vector<int32_t> mine(static_cast<size_t>(rank) + 1);
    for (size_t i = 0; i < mine.size(); ++i) mine[i] = 100 * rank + static_cast<int32_t>(i);
    for (remora_coll_algorithm_t algorithm : kGathers) {
      std::vector<int32_t> all(total, -1);
      REQUIRE_OK(remora_gatherv(mine.data(), mine.size(), all.data(), counts.data(), displs.data(),
                                REMORA_INT32, root, comm, algorithm));
      if (rank != root) continue;
      for (int r = 0; r < size; ++r)
        for (size_t i = 0; i < counts[static_cast<size_t>(r)]; ++i)
          REQUIRE(all[displs[static_cast<size_t>(r)] + i] == 100 * r + static_cast<int32_t>(i),
                  "gatherv algorithm %d root %d from rank %d", static_cast<int>(algorithm), root,
                  r);
    }
  }
  std::vector<int32_t> out(static_cast<size_t>(size)), in(static_cast<size_t>(size));
  for (int j = 0; j < size; ++j) out[static_cast<size_t>(j)] = 1000 * rank + j;
  for (remora_coll_algorithm_t algorithm : kAlltoalls) {
    std::fill(in.begin(), in.end(), -1);
    REQUIRE_OK(remora_alltoall(out.data(), in.data(), 1, REMORA_INT32, comm, algorithm));
    for (int r = 0; r < size; ++r)
      REQUIRE(in[static_cast<size_t>(r)] == 1000 * r + rank, "alltoall algorithm %d",
              static_cast<int>(algorithm));
  }
  for (remora_coll_algorithm_t algorithm : kAllreduces) {
    std::vector<int64_t> value(5, rank + 1), sum(5, 0);
    REQUIRE_OK(remora_allreduce(value.data(), sum.data(), value.size(), REMORA_INT64, REMORA_OP_SUM,
                                comm, algorithm));
    for (int64_t s : sum) REQUIRE(s == int64_t{size} * (size + 1) / 2);
  }
  int32_t one = 1, prefix = 0;
  REQUIRE_OK(remora_scan(&one, &prefix, 1, REMORA_INT32, REMORA_OP_SUM, comm, REMORA_COLL_AUTO));
  REQUIRE(prefix == rank + 1, "scan keeps rank order");
}

void check_errors(remora_comm_t comm, int size) {
  std::vector<int> twice(static_cast<size_t>(size), 0);
  if (size > 1)
    REQUIRE_ERROR(remora_comm_set_order(comm, REMORA_ORDER_CUSTOM, twice.data()), REMORA_ERR_ARG,
                  "not a permutation");
  REQUIRE_ERROR(remora_comm_set_order(comm, REMORA_ORDER_CUSTOM, nullptr), REMORA_ERR_ARG,
                "ranks is NULL");
  REQUIRE_ERROR(remora_comm_set_order(comm, REMORA_ORDER_REVERSE, twice.data()), REMORA_ERR_ARG,
                "must be NULL");
  REQUIRE_ERROR(remora_comm_set_order(comm, static_cast<remora_rank_order_t>(17), nullptr),
                REMORA_ERR_ARG, "order=17");
  REQUIRE_ERROR(remora_comm_set_order(REMORA_COMM_NULL, REMORA_ORDER_IDENTITY, nullptr),
                REMORA_ERR_ARG, "comm");
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  const int rank = remora_rank(), size = remora_size();
  remora_comm_t world, comm;
  REQUIRE_OK(remora_comm_world(&world));
  REQUIRE_OK(remora_comm_dup(world, &comm));
  check_errors(comm, size);
  std::vector<int> rotation(static_cast<size_t>(size)), interleaved;
  for (int p = 0; p < size; ++p) rotation[static_cast<size_t>(p)] = (p + 1) % size;
  for (int r = 0; r < size; r += 2) interleaved.push_back(r);  // evens, then odds
  for (int r = 1; r < size; r += 2) interleaved.push_back(r);
  REQUIRE_OK(remora_comm_set_order(comm, REMORA_ORDER_CUSTOM, rotation.data()));
  check_collectives(comm, rank, size);
  REQUIRE_OK(remora_comm_set_order(comm, REMORA_ORDER_CUSTOM, interleaved.data()));
  check_collectives(comm, rank, size);
  // One node here, so node-aware is the identity; it must still work.
  REQUIRE_OK(remora_comm_set_order(comm, REMORA_ORDER_NODE_AWARE, nullptr));
  check_collectives(comm, rank, size);
  REQUIRE_OK(remora_comm_set_order(comm, REMORA_ORDER_IDENTITY, nullptr));
  check_collectives(comm, rank, size);
  REQUIRE_OK(remora_comm_free(&comm));
  REQUIRE_OK(remora_finalize());
  return 0;
}
