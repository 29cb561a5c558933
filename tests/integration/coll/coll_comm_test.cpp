// Communicators and groups: world, dup, split (colour, key, REMORA_UNDEFINED), create from a
// group, free; group incl, excl, union, rank, translate_ranks; and context separation: the
// same collective started on two communicators in opposite orders never mixes their messages.
#include <cstdint>
#include <vector>

#include "multirank.hpp"

namespace {

// The world ranks of comm's members in comm's rank order, through an allgather on comm.
std::vector<int32_t> members(remora_comm_t comm) {
  int size = 0;
  REQUIRE_OK(remora_comm_size(comm, &size));
  std::vector<int32_t> world_ranks(static_cast<size_t>(size), -1);
  const int32_t me = remora_rank();
  REQUIRE_OK(remora_allgather(&me, world_ranks.data(), 1, REMORA_INT32, comm, REMORA_COLL_AUTO));
  return world_ranks;
}

void check_split(remora_comm_t world, int rank, int size) {
  // Colour rank % 3, key -rank: members of my colour in decreasing world rank.
  remora_comm_t split;
  REQUIRE_OK(remora_comm_split(world, rank % 3, -rank, &split));
  std::vector<int32_t> expected;
  for (int r = size - 1; r >= 0; --r)
    if (r % 3 == rank % 3) expected.push_back(r);
  REQUIRE(members(split) == expected, "split by rank %% 3");
  int split_rank = -1;
  REQUIRE_OK(remora_comm_rank(split, &split_rank));
  REQUIRE(expected[static_cast<size_t>(split_rank)] == rank);
  REQUIRE_OK(remora_comm_free(&split));
  REQUIRE(split == REMORA_COMM_NULL);

  // Rank 0 opts out; the others keep their order (equal keys keep the parent's order).
  remora_comm_t rest;
  REQUIRE_OK(remora_comm_split(world, rank == 0 ? REMORA_UNDEFINED : 1, 7, &rest));
  if (rank == 0) {
    REQUIRE(rest == REMORA_COMM_NULL);
    return;
  }
  std::vector<int32_t> others;
  for (int r = 1; r < size; ++r) others.push_back(r);
  REQUIRE(members(rest) == others);
  REQUIRE_OK(remora_comm_free(&rest));
}

void check_groups(remora_comm_t world, int rank, int size) {
  remora_group_t all, reversed, without_first, first_only, rotated;
  REQUIRE_OK(remora_comm_group(world, &all));
  int value = -1;
  REQUIRE_OK(remora_group_size(all, &value));
  REQUIRE(value == size);
  REQUIRE_OK(remora_group_rank(all, &value));
  REQUIRE(value == rank);

  std::vector<int> order;
  for (int r = size - 1; r >= 0; --r) order.push_back(r);
  REQUIRE_OK(remora_group_incl(all, size, order.data(), &reversed));
  REQUIRE_OK(remora_group_rank(reversed, &value));
  REQUIRE(value == size - 1 - rank);

  const int zero = 0;
  REQUIRE_OK(remora_group_excl(all, 1, &zero, &without_first));
  REQUIRE_OK(remora_group_incl(all, 1, &zero, &first_only));
  REQUIRE_OK(remora_group_rank(without_first, &value));
  REQUIRE(value == (rank == 0 ? REMORA_UNDEFINED : rank - 1));
  REQUIRE_OK(remora_group_union(without_first, first_only, &rotated));  // 1, 2, ..., 0
  REQUIRE_OK(remora_group_size(rotated, &value));
  REQUIRE(value == size);

  std::vector<int> translated(order.size(), -2);
  REQUIRE_OK(
      remora_group_translate_ranks(reversed, size, order.data(), rotated, translated.data()));
  for (size_t i = 0; i < order.size(); ++i) {
    // Rank order[i] of reversed is world rank size - 1 - order[i]; in rotated, world w >= 1 is
    // at w - 1 and world 0 at size - 1.
    const int world_rank = size - 1 - order[i];
    REQUIRE(translated[i] == (world_rank == 0 ? size - 1 : world_rank - 1), "translate %zu", i);
  }
  REQUIRE_OK(remora_group_translate_ranks(all, 1, &zero, without_first, translated.data()));
  REQUIRE(translated[0] == REMORA_UNDEFINED);

  // A communicator from a group: members in the group's order, rank 0 left out.
  remora_comm_t created;
  REQUIRE_OK(remora_comm_create(world, without_first, &created));
  if (rank == 0) {
    REQUIRE(created == REMORA_COMM_NULL);
  } else {
    std::vector<int32_t> expected;
    for (int r = 1; r < size; ++r) expected.push_back(r);
    REQUIRE(members(created) == expected);
    REQUIRE_OK(remora_comm_free(&created));
  }
  for (remora_group_t* group : {&all, &reversed, &without_first, &first_only, &rotated}) {
    REQUIRE_OK(remora_group_free(group));
    REQUIRE(*group == REMORA_GROUP_NULL);
  }
}

// Broadcasts on world and on its duplicate, started in opposite orders on even and odd ranks
// and completed in yet another order: each must get its own communicator's data.
void check_contexts(remora_comm_t world, int rank, int size) {
  remora_comm_t dup;
  REQUIRE_OK(remora_comm_dup(world, &dup));
  for (int round = 0; round < 50; ++round) {
    int32_t on_world = rank == 0 ? 1000 + round : -1, on_dup = rank == 0 ? 2000 + round : -1;
    remora_request_t requests[2];
    if (rank % 2 == 0) {
      REQUIRE_OK(
          remora_ibcast(&on_world, 1, REMORA_INT32, 0, world, REMORA_COLL_AUTO, &requests[0]));
      REQUIRE_OK(remora_ibcast(&on_dup, 1, REMORA_INT32, 0, dup, REMORA_COLL_AUTO, &requests[1]));
    } else {
      REQUIRE_OK(remora_ibcast(&on_dup, 1, REMORA_INT32, 0, dup, REMORA_COLL_AUTO, &requests[1]));
      REQUIRE_OK(
          remora_ibcast(&on_world, 1, REMORA_INT32, 0, world, REMORA_COLL_AUTO, &requests[0]));
    }
    REQUIRE_OK(remora_request_wait(&requests[1]));
    REQUIRE_OK(remora_request_wait(&requests[0]));
    REQUIRE(on_world == 1000 + round && on_dup == 2000 + round, "round %d: %d %d", round, on_world,
            on_dup);
  }
  // Context ids are recycled: many communicators made and freed one after another.
  for (int i = 0; i < 200; ++i) {
    remora_comm_t scratch;
    REQUIRE_OK(remora_comm_dup(dup, &scratch));
    int scratch_size = 0;
    REQUIRE_OK(remora_comm_size(scratch, &scratch_size));
    REQUIRE(scratch_size == size);
    REQUIRE_OK(remora_comm_free(&scratch));
  }
  REQUIRE_OK(remora_comm_free(&dup));
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  const int rank = remora_rank(), size = remora_size();
  remora_comm_t world;
  REQUIRE_OK(remora_comm_world(&world));
  int value = -1;
  REQUIRE_OK(remora_comm_rank(world, &value));
  REQUIRE(value == rank);
  REQUIRE_OK(remora_comm_size(world, &value));
  REQUIRE(value == size);
  check_split(world, rank, size);
  check_groups(world, rank, size);
  check_contexts(world, rank, size);
  REQUIRE_OK(remora_finalize());
  return 0;
}
