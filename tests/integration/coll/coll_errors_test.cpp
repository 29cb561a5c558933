// Bad input to the collectives layer returns an error whose message names the argument and
// its value; nothing crashes or hangs. Counts that disagree between ranks are reported by the
// rank that receives the mismatched message, and by every rank its error notice reaches while
// it still takes part (coll_instance_errors tests that protocol).
#include <cstdint>
#include <cstring>
#include <vector>

#include "multirank.hpp"

namespace {

void local_errors(remora_comm_t world, int rank, int size) {
  int32_t value = 0, buffer[8] = {};
  int fake = 0;
  // Values outside the enums, as a C caller could pass them.
  remora_coll_algorithm_t unknown_algorithm;
  remora_datatype_t unknown_type;
  const int ninety_nine = 99;
  std::memcpy(&unknown_algorithm, &ninety_nine, sizeof ninety_nine);
  std::memcpy(&unknown_type, &ninety_nine, sizeof ninety_nine);
  auto* invented = reinterpret_cast<remora_comm_t>(&fake);
  REQUIRE_ERROR(remora_bcast(buffer, 1, REMORA_INT32, 0, REMORA_COMM_NULL, REMORA_COLL_AUTO),
                REMORA_ERR_ARG, "remora_bcast: comm is REMORA_COMM_NULL");
  REQUIRE_ERROR(remora_bcast(buffer, 1, REMORA_INT32, 0, invented, REMORA_COLL_AUTO),
                REMORA_ERR_ARG, "is not a live communicator");
  REQUIRE_ERROR(remora_comm_size(invented, &value), REMORA_ERR_ARG, "remora_comm_size: comm=");
  remora_comm_t dup, stale;
  REQUIRE_OK(remora_comm_dup(world, &dup));
  stale = dup;
  REQUIRE_OK(remora_comm_free(&dup));
  REQUIRE_ERROR(remora_comm_barrier(stale, REMORA_COLL_AUTO), REMORA_ERR_ARG,
                "is not a live communicator");
  REQUIRE_ERROR(remora_comm_free(&world), REMORA_ERR_ARG, "world communicator");

  REQUIRE_ERROR(remora_bcast(buffer, 1, REMORA_INT32, size, world, REMORA_COLL_AUTO),
                REMORA_ERR_RANK, "root=");
  REQUIRE_ERROR(
      remora_reduce(buffer, buffer, 1, REMORA_INT32, REMORA_OP_SUM, -1, world, REMORA_COLL_AUTO),
      REMORA_ERR_RANK, "root=-1");
  REQUIRE_ERROR(remora_bcast(nullptr, 4, REMORA_INT32, 0, world, REMORA_COLL_AUTO), REMORA_ERR_ARG,
                "buffer is NULL");
  REQUIRE_ERROR(
      remora_allreduce(nullptr, buffer, 2, REMORA_INT32, REMORA_OP_SUM, world, REMORA_COLL_AUTO),
      REMORA_ERR_ARG, "sendbuf is NULL");
  REQUIRE_ERROR(
      remora_allreduce(buffer, nullptr, 2, REMORA_INT32, REMORA_OP_SUM, world, REMORA_COLL_AUTO),
      REMORA_ERR_ARG, "recvbuf is NULL");
  REQUIRE_ERROR(remora_bcast(REMORA_IN_PLACE, 1, REMORA_INT32, 0, world, REMORA_COLL_AUTO),
                REMORA_ERR_ARG, "REMORA_IN_PLACE");
  REQUIRE_ERROR(remora_bcast(buffer, 1, REMORA_INT32, 0, world, REMORA_COLL_BRUCK), REMORA_ERR_ARG,
                "algorithm=10 (bruck) is not an algorithm of bcast");
  REQUIRE_ERROR(remora_allreduce(buffer, buffer + 4, 1, REMORA_INT32, REMORA_OP_SUM, world,
                                 unknown_algorithm),
                REMORA_ERR_ARG, "algorithm=99");
  REQUIRE_ERROR(remora_allreduce(buffer, buffer + 4, 1, REMORA_INT32, REMORA_OP_REPLACE, world,
                                 REMORA_COLL_AUTO),
                REMORA_ERR_ARG, "op=REMORA_OP_REPLACE");
  double real[2] = {};
  REQUIRE_ERROR(
      remora_allreduce(real, real + 1, 1, REMORA_DOUBLE, REMORA_OP_BAND, world, REMORA_COLL_AUTO),
      REMORA_ERR_ARG, "op=REMORA_OP_BAND is not valid for type=REMORA_DOUBLE");
  REQUIRE_ERROR(remora_bcast(buffer, 1, unknown_type, 0, world, REMORA_COLL_AUTO), REMORA_ERR_ARG,
                "type=99");
  REQUIRE_ERROR(
      remora_bcast(buffer, static_cast<size_t>(-1), REMORA_INT32, 0, world, REMORA_COLL_AUTO),
      REMORA_ERR_ARG, "count=");
  REQUIRE_ERROR(remora_ibarrier(world, REMORA_COLL_AUTO, nullptr), REMORA_ERR_ARG,
                "remora_ibarrier: request is NULL");
  std::vector<size_t> counts(static_cast<size_t>(size), 1), displs(static_cast<size_t>(size), 0);
  REQUIRE_ERROR(remora_allgatherv(buffer, 1, buffer, nullptr, displs.data(), REMORA_INT32, world,
                                  REMORA_COLL_AUTO),
                REMORA_ERR_ARG, "recvcounts is NULL");
  REQUIRE_ERROR(remora_allgatherv(buffer, 2, buffer, counts.data(), displs.data(), REMORA_INT32,
                                  world, REMORA_COLL_AUTO),
                REMORA_ERR_ARG, "mismatched counts: sendcount=2 but recvcounts");
  // Every rank calls the gather (a collective); only the root's arguments are bad. The others
  // hear of it (an error notice) unless their part was already done.
  const int gathered = remora_gather(rank == 0 ? nullptr : buffer, buffer, 1, REMORA_INT32, 0,
                                     world, REMORA_COLL_AUTO);
  if (rank == 0)
    REQUIRE(gathered == REMORA_ERR_ARG && std::strstr(remora_last_error(), "sendbuf is NULL"), "%s",
            remora_last_error());
  else if (gathered < 0)
    REQUIRE(std::strstr(remora_last_error(), "rank 0 of the communicator"), "%s",
            remora_last_error());

  // Requests, groups and splits.
  remora_request_t invented_request = reinterpret_cast<remora_request_t>(&fake);
  REQUIRE_ERROR(remora_request_wait(&invented_request), REMORA_ERR_ARG, "is not a live request");
  REQUIRE_ERROR(remora_request_wait(nullptr), REMORA_ERR_ARG, "request is NULL");
  // remora_request_wait's path of one request: a null handle, a handle completed and freed, and
  // a collective that fails after it started (rank 0's bcast fails its checks; the others'
  // requests fail by the notice): the failure with the function's name before its message.
  remora_request_t none = REMORA_REQUEST_NULL;
  REQUIRE_OK(remora_request_wait(&none));
  REQUIRE(none == REMORA_REQUEST_NULL, "a null handle stays null");
  remora_request_t barrier_request = REMORA_REQUEST_NULL;
  REQUIRE_OK(remora_ibarrier(world, REMORA_COLL_AUTO, &barrier_request));
  remora_request_t freed = barrier_request;
  REQUIRE_OK(remora_request_wait(&barrier_request));
  REQUIRE(barrier_request == REMORA_REQUEST_NULL, "the wait frees the request");
  REQUIRE_ERROR(remora_request_wait(&freed), REMORA_ERR_ARG, "completed and freed already");
  if (size > 1) {
    int32_t item[1] = {rank};
    remora_request_t failing = REMORA_REQUEST_NULL;
    if (rank == 0) {
      REQUIRE_ERROR(remora_ibcast(nullptr, 1, REMORA_INT32, 0, world, REMORA_COLL_AUTO, &failing),
                    REMORA_ERR_ARG, "buffer is NULL");
    } else {
      REQUIRE_OK(remora_ibcast(item, 1, REMORA_INT32, 0, world, REMORA_COLL_AUTO, &failing));
      const int failed = remora_request_wait(&failing);
      REQUIRE(failed < 0 && std::strncmp(remora_last_error(), "remora_request_wait: ", 21) == 0,
              "status %d: %s", failed, remora_last_error());
      REQUIRE(failing == REMORA_REQUEST_NULL, "the failed request is freed");
    }
  }
  REQUIRE_ERROR(remora_request_waitall(-1, nullptr), REMORA_ERR_ARG, "count=-1");
  remora_group_t group, subset;
  REQUIRE_OK(remora_comm_group(world, &group));
  const int twice[2] = {0, 0}, outside[1] = {size};
  if (size > 1)
    REQUIRE_ERROR(remora_group_incl(group, 2, twice, &subset), REMORA_ERR_ARG, "appears twice");
  REQUIRE_ERROR(remora_group_excl(group, 1, outside, &subset), REMORA_ERR_RANK, "ranks[0]=");
  REQUIRE_ERROR(remora_group_translate_ranks(group, 1, outside, group, buffer), REMORA_ERR_RANK,
                "ranks1[0]=");
  REQUIRE_OK(remora_group_free(&group));
  REQUIRE_ERROR(remora_group_size(group, &value), REMORA_ERR_ARG, "REMORA_GROUP_NULL");
  remora_comm_t split;
  REQUIRE_ERROR(remora_comm_split(world, -5, 0, &split), REMORA_ERR_ARG, "color=-5");
}

// remora_coll_algorithms: the list of an operation, and its argument checks.
void algorithm_lists(remora_comm_t world) {
  int count = -1;
  remora_coll_algorithm_t values[16];
  const char* names[16] = {};
  REQUIRE_OK(remora_coll_algorithms("gather", 16, values, names, &count));
  REQUIRE(count >= 4, "gather lists %d algorithms", count);
  bool sequential = false, bruck = false;
  for (int i = 0; i < count && i < 16; ++i) {
    REQUIRE(values[i] != REMORA_COLL_AUTO && names[i] != nullptr, "entry %d", i);
    // Every listed algorithm is accepted by the operation it is listed for: the bad root,
    // checked after the algorithm, is what fails (on every rank alike, so no one waits).
    int32_t buffer[1] = {};
    REQUIRE_ERROR(remora_gather(buffer, buffer, 1, REMORA_INT32, -1, world, values[i]),
                  REMORA_ERR_RANK, "root=-1");
    sequential = sequential ||
                 (values[i] == REMORA_COLL_SEQUENTIAL && std::strcmp(names[i], "sequential") == 0);
    bruck = bruck || values[i] == REMORA_COLL_BRUCK;
  }
  REQUIRE(sequential && !bruck, "gather's list: sequential %d, bruck %d", sequential, bruck);
  int only_count = -1;
  REQUIRE_OK(remora_coll_algorithms("gather", 0, nullptr, nullptr, &only_count));
  REQUIRE(only_count == count, "count alone %d, with the list %d", only_count, count);
  REQUIRE_ERROR(remora_coll_algorithms("gatherv", 16, values, names, &count), REMORA_ERR_ARG,
                "operation=\"gatherv\"");
  REQUIRE_ERROR(remora_coll_algorithms(nullptr, 16, values, names, &count), REMORA_ERR_ARG,
                "operation is NULL");
  REQUIRE_ERROR(remora_coll_algorithms("bcast", -1, values, names, &count), REMORA_ERR_ARG,
                "capacity=-1");
  REQUIRE_ERROR(remora_coll_algorithms("bcast", 2, nullptr, names, &count), REMORA_ERR_ARG,
                "algorithms is NULL");
  REQUIRE_ERROR(remora_coll_algorithms("bcast", 2, values, names, nullptr), REMORA_ERR_ARG,
                "count is NULL");
}

// Rank 1 contributes 3 elements where the others expect 2.
void mismatched_counts(remora_comm_t world, int rank, int size) {
  if (size < 2) return;
  std::vector<size_t> counts(static_cast<size_t>(size), 2), displs;
  if (rank == 1) counts[1] = 3;
  for (size_t j = 0, at = 0; j < counts.size(); ++j, at += 3) displs.push_back(at);
  std::vector<int32_t> send(counts[static_cast<size_t>(rank)], rank), recv(3 * counts.size());
  const int status = remora_allgatherv(send.data(), send.size(), recv.data(), counts.data(),
                                       displs.data(), REMORA_INT32, world, REMORA_COLL_RING);
  if (rank == 2 % size) {  // the right neighbour of rank 1 receives its block first
    REQUIRE(status == REMORA_ERR_ARG, "allgatherv mismatch gave %d", status);
    REQUIRE(std::strstr(remora_last_error(), "mismatched counts") != nullptr, "%s",
            remora_last_error());
    REQUIRE(std::strstr(remora_last_error(), "remora_allgatherv") != nullptr, "%s",
            remora_last_error());
  }
  for (remora_coll_algorithm_t algorithm : {REMORA_COLL_FLAT, REMORA_COLL_BINOMIAL}) {
    const int gathered = remora_gatherv(send.data(), send.size(), recv.data(), counts.data(),
                                        displs.data(), REMORA_INT32, 0, world, algorithm);
    if (rank == 0) {
      REQUIRE(gathered == REMORA_ERR_ARG, "gatherv mismatch gave %d", gathered);
      REQUIRE(std::strstr(remora_last_error(), "expected 2 elements from rank 1, which sent 3"),
              "%s", remora_last_error());
    } else if (gathered < 0) {  // the root's error notice reached a rank still in the gather
      REQUIRE(std::strstr(remora_last_error(), "rank 0 of the communicator"), "%s",
              remora_last_error());
    }
  }
  // Everyone is still in step: a correct collective afterwards works.
  int32_t total = 0, one = 1;
  REQUIRE_OK(
      remora_allreduce(&one, &total, 1, REMORA_INT32, REMORA_OP_SUM, world, REMORA_COLL_AUTO));
  REQUIRE(total == size);
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  remora_comm_t world;
  REQUIRE_OK(remora_comm_world(&world));
  local_errors(world, remora_rank(), remora_size());
  algorithm_lists(world);
  mismatched_counts(world, remora_rank(), remora_size());
  REQUIRE_OK(remora_finalize());
  return 0;
}
