// The data-movement collectives, generated as a matrix: barrier, bcast, gather(v),
// scatter(v), allgather(v) and alltoall(v) x every algorithm x roots x counts (including
// zero-sized blocks in the v-forms) x in-place or not, on the world communicator and on a
// split of it. Every element names its source, destination and index, so a misplaced block
// is caught.
#include <cstdint>
#include <vector>

#include "coll_reference.hpp"
#include "multirank.hpp"

namespace {

using coll_test::tagged;

using coll_test::algorithms_of;
const auto kBcast = algorithms_of("bcast");
const auto kAllgather = algorithms_of("allgather");
const auto kGather = algorithms_of("gather");
const auto kScatter = algorithms_of("scatter");
const auto kAlltoall = algorithms_of("alltoall");
constexpr size_t kCounts[] = {0, 1, 5, 3000};

struct Comm {
  remora_comm_t handle;
  int rank, size;
};

// Rank j's block in the v-forms: (j + salt) % 4 elements, so some blocks are empty.
std::vector<size_t> varying(const Comm& c, size_t salt) {
  std::vector<size_t> counts(static_cast<size_t>(c.size));
  for (size_t j = 0; j < counts.size(); ++j) counts[j] = (j + salt) % 4;
  return counts;
}

// Displacements with a gap of one element between blocks (which must stay untouched).
std::vector<size_t> spaced(const std::vector<size_t>& counts, size_t* total) {
  std::vector<size_t> displs;
  size_t at = 0;
  for (size_t count : counts) {
    displs.push_back(at);
    at += count + 1;
  }
  *total = at;
  return displs;
}

constexpr int32_t kUntouched = -7;

void bcasts(const Comm& c) {
  for (remora_coll_algorithm_t algorithm : kBcast)
    for (int root : {0, c.size - 1})
      for (size_t count : kCounts) {
        std::vector<int32_t> buffer(count, kUntouched);
        if (c.rank == root)
          for (size_t i = 0; i < count; ++i) buffer[i] = tagged(root, 0, i);
        REQUIRE_OK(remora_bcast(buffer.data(), count, REMORA_INT32, root, c.handle, algorithm));
        for (size_t i = 0; i < count; ++i)
          REQUIRE(buffer[i] == tagged(root, 0, i), "bcast algorithm %d root %d count %zu: [%zu]",
                  algorithm, root, count, i);
      }
}

void gathers(const Comm& c) {
  for (remora_coll_algorithm_t algorithm : kGather)
    for (int root : {0, c.size / 2}) {
      for (size_t count : {size_t{0}, size_t{3}, size_t{500}})
        for (bool in_place : {false, true}) {
          const bool place = in_place && c.rank == root;
          std::vector<int32_t> send(count), recv(count * static_cast<size_t>(c.size), kUntouched);
          for (size_t i = 0; i < count; ++i) send[i] = tagged(c.rank, root, i);
          if (place)
            for (size_t i = 0; i < count; ++i)
              recv[static_cast<size_t>(c.rank) * count + i] = send[i];
          REQUIRE_OK(remora_gather(place ? REMORA_IN_PLACE : send.data(), recv.data(), count,
                                   REMORA_INT32, root, c.handle, algorithm));
          if (c.rank != root) continue;
          for (int j = 0; j < c.size; ++j)
            for (size_t i = 0; i < count; ++i)
              REQUIRE(recv[static_cast<size_t>(j) * count + i] == tagged(j, root, i),
                      "gather algorithm %d root %d count %zu: rank %d [%zu]", algorithm, root,
                      count, j, i);
        }
      // gatherv: varying counts at gapped displacements.
      const std::vector<size_t> counts = varying(c, static_cast<size_t>(root));
      size_t total = 0;
      const std::vector<size_t> displs = spaced(counts, &total);
      const size_t mine = counts[static_cast<size_t>(c.rank)];
      std::vector<int32_t> send(mine), recv(total, kUntouched);
      for (size_t i = 0; i < mine; ++i) send[i] = tagged(c.rank, root, i);
      REQUIRE_OK(remora_gatherv(send.data(), mine, recv.data(), counts.data(), displs.data(),
                                REMORA_INT32, root, c.handle, algorithm));
      if (c.rank != root) continue;
      for (size_t j = 0; j < counts.size(); ++j) {
        for (size_t i = 0; i < counts[j]; ++i)
          REQUIRE(recv[displs[j] + i] == tagged(static_cast<int>(j), root, i),
                  "gatherv algorithm %d: rank %zu [%zu]", algorithm, j, i);
        REQUIRE(recv[displs[j] + counts[j]] == kUntouched, "gatherv wrote into a gap");
      }
    }
}

void scatters(const Comm& c) {
  for (remora_coll_algorithm_t algorithm : kScatter)
    for (int root : {0, c.size - 1}) {
      for (size_t count : {size_t{0}, size_t{2}, size_t{700}})
        for (bool in_place : {false, true}) {
          const bool place = in_place && c.rank == root;
          std::vector<int32_t> send(count * static_cast<size_t>(c.size)), recv(count, kUntouched);
          if (c.rank == root)
            for (int j = 0; j < c.size; ++j)
              for (size_t i = 0; i < count; ++i)
                send[static_cast<size_t>(j) * count + i] = tagged(root, j, i);
          REQUIRE_OK(remora_scatter(send.data(), place ? REMORA_IN_PLACE : recv.data(), count,
                                    REMORA_INT32, root, c.handle, algorithm));
          if (place) continue;
          for (size_t i = 0; i < count; ++i)
            REQUIRE(recv[i] == tagged(root, c.rank, i),
                    "scatter algorithm %d root %d count %zu: [%zu]", algorithm, root, count, i);
        }
      const std::vector<size_t> counts = varying(c, 1);
      size_t total = 0;
      const std::vector<size_t> displs = spaced(counts, &total);
      std::vector<int32_t> send(total);
      if (c.rank == root)
        for (size_t j = 0; j < counts.size(); ++j)
          for (size_t i = 0; i < counts[j]; ++i)
            send[displs[j] + i] = tagged(root, static_cast<int>(j), i);
      const size_t mine = counts[static_cast<size_t>(c.rank)];
      std::vector<int32_t> recv(mine + 1, kUntouched);
      REQUIRE_OK(remora_scatterv(send.data(), counts.data(), displs.data(), recv.data(), mine,
                                 REMORA_INT32, root, c.handle, algorithm));
      for (size_t i = 0; i < mine; ++i)
        REQUIRE(recv[i] == tagged(root, c.rank, i), "scatterv algorithm %d: [%zu]", algorithm, i);
      REQUIRE(recv[mine] == kUntouched, "scatterv wrote past its block");
    }
}

void allgathers(const Comm& c) {
  for (remora_coll_algorithm_t algorithm : kAllgather)
    for (size_t count : kCounts)
      for (bool in_place : {false, true}) {
        std::vector<int32_t> send(count), recv(count * static_cast<size_t>(c.size), kUntouched);
        for (size_t i = 0; i < count; ++i) send[i] = tagged(c.rank, 0, i);
        if (in_place)
          for (size_t i = 0; i < count; ++i)
            recv[static_cast<size_t>(c.rank) * count + i] = send[i];
        REQUIRE_OK(remora_allgather(in_place ? REMORA_IN_PLACE : send.data(), recv.data(), count,
                                    REMORA_INT32, c.handle, algorithm));
        for (int j = 0; j < c.size; ++j)
          for (size_t i = 0; i < count; ++i)
            REQUIRE(recv[static_cast<size_t>(j) * count + i] == tagged(j, 0, i),
                    "allgather count %zu: rank %d [%zu]", count, j, i);
      }
  const std::vector<size_t> counts = varying(c, 2);
  size_t total = 0;
  const std::vector<size_t> displs = spaced(counts, &total);
  const size_t mine = counts[static_cast<size_t>(c.rank)];
  for (remora_coll_algorithm_t algorithm : kAllgather) {
    std::vector<int32_t> send(mine), recv(total, kUntouched);
    for (size_t i = 0; i < mine; ++i) send[i] = tagged(c.rank, 0, i);
    REQUIRE_OK(remora_allgatherv(send.data(), mine, recv.data(), counts.data(), displs.data(),
                                 REMORA_INT32, c.handle, algorithm));
    for (size_t j = 0; j < counts.size(); ++j) {
      for (size_t i = 0; i < counts[j]; ++i)
        REQUIRE(recv[displs[j] + i] == tagged(static_cast<int>(j), 0, i),
                "allgatherv algorithm %d: rank %zu [%zu]", algorithm, j, i);
      if (j + 1 < counts.size())  // the gap between blocks stays untouched
        REQUIRE(recv[displs[j] + counts[j]] == kUntouched, "allgatherv algorithm %d: gap %zu",
                algorithm, j);
    }
  }
}

void alltoalls(const Comm& c) {
  const auto size = static_cast<size_t>(c.size);
  for (remora_coll_algorithm_t algorithm : kAlltoall) {
    for (size_t count : kCounts)
      for (bool in_place : {false, true}) {
        std::vector<int32_t> send(count * size), recv(count * size, kUntouched);
        for (size_t j = 0; j < size; ++j)
          for (size_t i = 0; i < count; ++i)
            send[j * count + i] = tagged(c.rank, static_cast<int>(j), i);
        if (in_place) recv = send;
        REQUIRE_OK(remora_alltoall(in_place ? REMORA_IN_PLACE : send.data(), recv.data(), count,
                                   REMORA_INT32, c.handle, algorithm));
        for (size_t j = 0; j < size; ++j)
          for (size_t i = 0; i < count; ++i)
            REQUIRE(recv[j * count + i] == tagged(static_cast<int>(j), c.rank, i),
                    "alltoall algorithm %d count %zu: from %zu [%zu]", algorithm, count, j, i);
      }
    // alltoallv: rank r sends (r + j) % 3 elements to rank j.
    std::vector<size_t> send_counts(size), recv_counts(size);
    for (size_t j = 0; j < size; ++j) {
      send_counts[j] = (static_cast<size_t>(c.rank) + j) % 3;
      recv_counts[j] = (j + static_cast<size_t>(c.rank)) % 3;
    }
    size_t send_total = 0, recv_total = 0;
    const std::vector<size_t> send_displs = spaced(send_counts, &send_total);
    const std::vector<size_t> recv_displs = spaced(recv_counts, &recv_total);
    std::vector<int32_t> send(send_total), recv(recv_total, kUntouched);
    for (size_t j = 0; j < size; ++j)
      for (size_t i = 0; i < send_counts[j]; ++i)
        send[send_displs[j] + i] = tagged(c.rank, static_cast<int>(j), i);
    REQUIRE_OK(remora_alltoallv(send.data(), send_counts.data(), send_displs.data(), recv.data(),
                                recv_counts.data(), recv_displs.data(), REMORA_INT32, c.handle,
                                algorithm));
    for (size_t j = 0; j < size; ++j) {
      for (size_t i = 0; i < recv_counts[j]; ++i)
        REQUIRE(recv[recv_displs[j] + i] == tagged(static_cast<int>(j), c.rank, i),
                "alltoallv algorithm %d: from %zu [%zu]", algorithm, j, i);
      REQUIRE(recv[recv_displs[j] + recv_counts[j]] == kUntouched, "alltoallv wrote into a gap");
    }
  }
}

// No rank leaves barrier k before every rank has entered it: each rank counts arrivals
// through an allreduce-free channel, a shared segment. Each round counts two arrivals per rank,
// one before a dissemination barrier and one before a shm barrier.
void barriers(const Comm& c, remora_segment_t counter) {
  const auto size = static_cast<int64_t>(c.size);
  for (int round = 1; round <= 50; ++round) {
    const remora_coll_algorithm_t algorithms[] = {REMORA_COLL_DISSEMINATION, REMORA_COLL_SHM};
    for (int half = 0; half < 2; ++half) {
      REQUIRE_OK(remora_fetch_add(counter, 0, 0, 1, nullptr));
      REQUIRE_OK(remora_comm_barrier(c.handle, algorithms[half]));
      int64_t arrived = 0;
      REQUIRE_OK(remora_get(counter, 0, 0, &arrived, sizeof arrived));
      const int64_t expected = size * (2 * round - 1 + half);
      REQUIRE(arrived >= expected, "barrier %d round %d: %lld arrivals, expected %lld",
              algorithms[half], round, static_cast<long long>(arrived),
              static_cast<long long>(expected));
    }
    REQUIRE_OK(remora_comm_barrier(c.handle, REMORA_COLL_AUTO));
  }
}

void run_matrix(remora_comm_t handle) {
  Comm c{handle, 0, 0};
  REQUIRE_OK(remora_comm_rank(handle, &c.rank));
  REQUIRE_OK(remora_comm_size(handle, &c.size));
  bcasts(c);
  gathers(c);
  scatters(c);
  allgathers(c);
  alltoalls(c);
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  remora_comm_t world = REMORA_COMM_NULL, half = REMORA_COMM_NULL;
  REQUIRE_OK(remora_comm_world(&world));
  remora_segment_t counter;
  REQUIRE_OK(remora_segment_allocate(sizeof(int64_t), &counter));
  barriers(Comm{world, remora_rank(), remora_size()}, counter);
  run_matrix(world);
  const int rank = remora_rank();
  REQUIRE_OK(remora_comm_split(world, rank % 2, -rank, &half));
  run_matrix(half);
  REQUIRE_OK(remora_comm_free(&half));
  REQUIRE_OK(remora_segment_free(&counter));
  REQUIRE_OK(remora_finalize());
  return 0;
}
