// Mismatched counts in the application-bypass reduce (root 0; binomial tree: rank 1 is a leaf
// under the root, rank 3 a leaf under the internal rank 2).
// - A child of the root sends more than the root expects: the root's own reduce fails with
//   "mismatched counts" (the root runs the standard schedule, which checks every size).
// - A child of an internal rank does: that internal rank notices when the data arrives, which
//   may be inside its reduce or later in the background, so the error comes back exactly once,
//   from its reduce, its next bypass reduce or remora_finalize. The child's data is left out
//   and the reduction still completes, so nobody hangs.
// What cannot be detected: the sender is never told (a leaf returns before anyone has looked
// at its data), and counts on different sides of REMORA_BYPASS_EAGER_BYTES make the two ranks
// run different algorithms (bypass messages against binomial ones) that never match: a hang,
// as for any collective whose ranks disagree on the algorithm.
#include <cstdint>
#include <cstring>
#include <vector>

#include "multirank.hpp"

namespace {

constexpr size_t kCount = 4;

int reduce(int rank, int sender_with_extra, remora_comm_t world, int64_t* result) {
  const size_t count = rank == sender_with_extra ? kCount + 1 : kCount;
  std::vector<int64_t> in(count, rank + 1);
  return remora_reduce(in.data(), result, count, REMORA_INT64, REMORA_OP_SUM, 0, world,
                       REMORA_COLL_APPLICATION_BYPASS);
}

bool is_mismatch(int status) {
  return status == REMORA_ERR_ARG && std::strstr(remora_last_error(), "mismatched counts");
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  const int rank = remora_rank(), size = remora_size();
  REQUIRE(size >= 4, "needs the internal rank 2 with child 3");
  remora_comm_t world;
  REQUIRE_OK(remora_comm_world(&world));
  std::vector<int64_t> result(kCount + 1, 0);

  // Rank 1 (a child of the root) sends one element too many.
  const int status = reduce(rank, 1, world, result.data());
  if (rank == 0)
    REQUIRE(is_mismatch(status), "root: status %d (%s)", status, remora_last_error());
  else
    REQUIRE_OK(status);
  REQUIRE_OK(remora_barrier());

  // Rank 3 (the child of the internal rank 2) sends one element too many; then a correct
  // reduction; then finalize. Rank 2 reports the mismatch exactly once among the three.
  int errors = 0;
  const int first = reduce(rank, 3, world, result.data());
  if (rank == 2 && is_mismatch(first))
    ++errors;
  else
    REQUIRE_OK(first);
  const int second = reduce(rank, -1, world, result.data());
  if (rank == 2 && is_mismatch(second))
    ++errors;
  else
    REQUIRE_OK(second);
  if (rank == 0)  // the correct one is exact
    for (size_t i = 0; i < kCount; ++i)
      REQUIRE(result[i] == int64_t{size} * (size + 1) / 2, "second reduce [%zu]", i);
  const int finalized = remora_finalize();
  if (rank == 2 && is_mismatch(finalized))
    ++errors;
  else
    REQUIRE(finalized == REMORA_SUCCESS, "finalize: %d", finalized);
  REQUIRE(errors == (rank == 2 ? 1 : 0), "rank %d saw %d mismatch errors", rank, errors);
  return 0;
}
