// The shm algorithm's v-forms of gather, scatter and alltoall (each member takes the rounds its
// own blocks need, coll/shm_vforms.hpp): blocks of 0 elements beside blocks that take several
// rounds of the 64 KiB cells, displacements in reverse rank order with gaps, in place, every
// root, on the world, a split and a duplicate, asked for (REMORA_COLL_SHM) and under
// REMORA_COLL_AUTO. Run with "wait" or "test", the nonblocking forms. Run with "mixed", blocking
// calls whose blocks sit on both sides of each size rule (inline slot, one cell or piece, more)
// in one call, with one member in turn taking the schedule path (a nonblocking shm barrier of
// its is pending) while the others take the fast path. Run with "regular" (then optionally
// "wait"), calls whose blocks are all alike (what their regular twins would carry), at sizes on
// both sides of each rule (the scatterv inline slot at 120 / p bytes, the gatherv slot at 120
// bytes, a piece, a cell), where the members that wait in a round find the others' arrivals in
// their inline slots or only in their arrive flags; with "wait" also the three v-forms
// outstanding at once, regular and irregular, completed in reverse order. Run with "edges"
// (then optionally "wait" or "test"), alltoallvs whose blocks sit on both sides of the
// single-copy size (REMORA_SHM_SINGLE_COPY_BYTES, else COLL_TEST_EDGE_BYTES, else the 64 KiB of
// two ranks) beside zero and
// one-element blocks, every call mixing single-copy blocks and the cells', the counts sent and
// received differing per pair, one member in turn on the schedule path as with "mixed". Every
// element names its source, destination and index; every alltoallv's send buffer is overwritten as
// soon as the call returns, so a member that still read it (a receiver's single-copy read after the
// sender left) would find the wrong values.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <vector>

#include "coll_reference.hpp"
#include "multirank.hpp"

namespace {

using coll_test::call;
using coll_test::kUntouched;

coll_test::Calls calls = coll_test::Calls::blocking;

// coll_test::tagged leaves 10000 indices per destination; these blocks are longer.
int32_t tagged(int from, int to, size_t i) {
  return static_cast<int32_t>(static_cast<uint32_t>(from) << 27 | static_cast<uint32_t>(to) << 20 |
                              static_cast<uint32_t>(i));
}

// int32 elements: 0, 1, 5 (inline slots), 20000 (80 KB: two cells) and 70000 (5 rounds of an
// alltoall's pieces at 4 ranks), rotated by salt so that every rank sees each. Where a
// communicator has no shared area (under MPI across nodes, REMORA_NODE_SIZE) shm runs the
// message-based default, which each member chooses by its own block: there the blocks stay below
// its 32 KiB threshold (7000: still several rounds of a scatter's or an alltoall's pieces from 3
// ranks on), and so do auto's with the second salt and its nonblocking calls (under thread
// progress auto keeps the message-based default for them).
bool small_blocks = false;
const bool across_nodes = std::getenv("REMORA_NODE_SIZE") != nullptr;
// "mixed": int32 blocks at the rules' edges: a scatterv block inline up to 120 / p bytes (15
// elements at p = 2, 10 at p = 3, 7 at p = 4, 4 at p = 7), a gatherv block up to 120 bytes (30);
// a scatterv piece of 8192 elements at p = 3 (16384 at p = 2), a gatherv cell of 16384 (where
// small_blocks holds, the small sizes).
bool mixed = false;
// "regular": every block of a call alike, kRegular[salt % size] int32 elements: the scatterv
// slot's edge at p = 2, 4, 8 (15 | 16, 7 | 8, 3 | 4), the gatherv slot's (30 | 31), a scatterv
// and alltoallv piece (cell / (p - 1)) at p = 8, 4, 3 (2340 | 2341, 5461 | 5462, 8192 | 8193),
// a cell (16384 | 16385: the piece at p = 2) and several cells.
bool regular = false;
constexpr size_t kRegular[] = {1,    3,    4,    7,    8,    15,   16,    30,    31,
                               2340, 2341, 5461, 5462, 8192, 8193, 16384, 16385, 40000};
// "edges": int32 elements of the single-copy size (0: not in that mode).
size_t edge = 0;
size_t count_of(size_t j, size_t salt) {
  if (edge != 0) {
    const size_t edges[] = {0, edge - 1, edge, 1, edge + 1, 3 * edge};
    return edges[(j + salt) % std::size(edges)];
  }
  static constexpr size_t kSizes[] = {0, 20000, 1, 70000, 5};
  static constexpr size_t kSmall[] = {0, 3000, 1, 7000, 5};
  static constexpr size_t kEdges[] = {15, 0,     31, 16385, 1, 30, 8193, 7,
                                      16, 16384, 10, 8192,  4, 11, 5,    8};
  if (regular) return kRegular[salt % std::size(kRegular)];
  if (mixed && !small_blocks) return kEdges[(j * 3 + salt) % std::size(kEdges)];
  const size_t at = (j + salt) % 5;
  return small_blocks ? kSmall[at] : kSizes[at];
}

// Blocks laid out in reverse rank order with a gap of one element after each.
std::vector<size_t> reversed(const std::vector<size_t>& counts, size_t* total) {
  std::vector<size_t> displs(counts.size());
  size_t at = 0;
  for (size_t j = counts.size(); j-- > 0;) {
    displs[j] = at;
    at += counts[j] + 1;
  }
  *total = at;
  return displs;
}

// A rooted v-form's blocks: rank j's count, in reverse rank order with gaps.
struct Blocks {
  std::vector<size_t> counts, displs;
  size_t total = 0;
};
Blocks rooted_blocks(size_t size, size_t salt) {
  Blocks b;
  for (size_t j = 0; j < size; ++j) b.counts.push_back(count_of(j, salt));
  b.displs = reversed(b.counts, &b.total);
  return b;
}

// An alltoallv's blocks (reverse rank order with gaps) and its send buffer, every element tagged.
struct Exchange {
  std::vector<size_t> send_counts, recv_counts, send_displs, recv_displs;
  std::vector<int32_t> send, recv;
};
Exchange exchange(int rank, std::vector<size_t> send_counts, std::vector<size_t> recv_counts) {
  Exchange e{std::move(send_counts), std::move(recv_counts), {}, {}, {}, {}};
  size_t send_total = 0, recv_total = 0;
  e.send_displs = reversed(e.send_counts, &send_total);
  e.recv_displs = reversed(e.recv_counts, &recv_total);
  e.send.assign(send_total, kUntouched);
  e.recv.assign(recv_total, kUntouched);
  for (size_t j = 0; j < e.send_counts.size(); ++j)
    for (size_t i = 0; i < e.send_counts[j]; ++i)
      e.send[e.send_displs[j] + i] = tagged(rank, static_cast<int>(j), i);
  return e;
}

struct Comm {
  remora_comm_t handle;
  int rank, size;
};

// mixed and edges: before each call every member starts a nonblocking shm barrier; member
// `late` calls the v-form while its barrier is pending (the schedule path), the others after
// theirs (the fast or small path).
size_t calls_made = 0;  // turns `late` from call to call
struct PathMix {
  int rank, late;
  remora_request_t request = REMORA_REQUEST_NULL;
  explicit PathMix(const Comm& c)
      : rank(c.rank), late(static_cast<int>(calls_made++ % static_cast<size_t>(c.size))) {
    if (!mixed && edge == 0) return;
    REQUIRE_OK(remora_ibarrier(c.handle, REMORA_COLL_SHM, &request));
    if (rank != late) REQUIRE_OK(remora_request_wait(&request));
  }
  PathMix(const PathMix&) = delete;
  PathMix& operator=(const PathMix&) = delete;
  ~PathMix() {
    if ((mixed || edge != 0) && rank == late) REQUIRE_OK(remora_request_wait(&request));
  }
};

// Every root, in place and not: check(root, in_place, blocks) runs and checks one call.
template <typename Check>
void rooted_calls(const Comm& c, size_t salt, const Check& check) {
  for (int root = 0; root < c.size; ++root)
    for (bool in_place : {false, true})
      check(root, in_place,
            rooted_blocks(static_cast<size_t>(c.size), salt + static_cast<size_t>(root)));
}

void gathervs(const Comm& c, remora_coll_algorithm_t algorithm, size_t salt) {
  const auto size = static_cast<size_t>(c.size);
  rooted_calls(c, salt, [&](int root, bool in_place, const Blocks& b) {
    const std::vector<size_t>&counts = b.counts, &displs = b.displs;
    const auto me = static_cast<size_t>(c.rank);
    const bool place = in_place && c.rank == root;
    std::vector<int32_t> send(counts[me]), recv(b.total, kUntouched);
    for (size_t i = 0; i < counts[me]; ++i) send[i] = tagged(c.rank, root, i);
    if (place) std::copy(send.begin(), send.end(), recv.begin() + displs[me]);
    const PathMix mix(c);
    REQUIRE_OK(call(calls, remora_gatherv, remora_igatherv, place ? REMORA_IN_PLACE : send.data(),
                    counts[me], recv.data(), counts.data(), displs.data(), REMORA_INT32, root,
                    c.handle, algorithm));
    if (c.rank != root) return;
    for (size_t j = 0; j < size; ++j) {
      for (size_t i = 0; i < counts[j]; ++i)
        REQUIRE(recv[displs[j] + i] == tagged(static_cast<int>(j), root, i),
                "gatherv algorithm %d root %d in_place %d: rank %zu [%zu] = %d", algorithm, root,
                in_place, j, i, recv[displs[j] + i]);
      REQUIRE(recv[displs[j] + counts[j]] == kUntouched, "gatherv wrote into the gap after %zu", j);
    }
  });
}

void scattervs(const Comm& c, remora_coll_algorithm_t algorithm, size_t salt) {
  const auto size = static_cast<size_t>(c.size);
  rooted_calls(c, salt, [&](int root, bool in_place, const Blocks& b) {
    const std::vector<size_t>&counts = b.counts, &displs = b.displs;
    std::vector<int32_t> send(b.total, kUntouched);
    if (c.rank == root)
      for (size_t j = 0; j < size; ++j)
        for (size_t i = 0; i < counts[j]; ++i)
          send[displs[j] + i] = tagged(root, static_cast<int>(j), i);
    const auto me = static_cast<size_t>(c.rank);
    const bool place = in_place && c.rank == root;
    std::vector<int32_t> recv(counts[me] + 1, kUntouched);
    const PathMix mix(c);
    REQUIRE_OK(call(calls, remora_scatterv, remora_iscatterv, send.data(), counts.data(),
                    displs.data(), place ? REMORA_IN_PLACE : recv.data(), counts[me], REMORA_INT32,
                    root, c.handle, algorithm));
    if (place) {
      for (size_t i = 0; i < counts[me]; ++i)  // the root's block stays where it is
        REQUIRE(send[displs[me] + i] == tagged(root, c.rank, i), "scatterv in place moved it");
      return;
    }
    for (size_t i = 0; i < counts[me]; ++i)
      REQUIRE(recv[i] == tagged(root, c.rank, i), "scatterv algorithm %d root %d: [%zu] = %d",
              algorithm, root, i, recv[i]);
    REQUIRE(recv[counts[me]] == kUntouched, "scatterv wrote past its block");
  });
}

void alltoallvs(const Comm& c, remora_coll_algorithm_t algorithm, size_t salt) {
  const auto size = static_cast<size_t>(c.size);
  const auto me = static_cast<size_t>(c.rank);
  // Rank r sends count_of(r + 2 j) elements to rank j.
  const auto count = [salt](size_t from, size_t to) { return count_of(from + 2 * to, salt); };
  for (bool in_place : {false, true}) {
    std::vector<size_t> send_counts(size), recv_counts(size);
    for (size_t j = 0; j < size; ++j) {
      send_counts[j] = count(me, j);
      recv_counts[j] = count(j, me);
    }
    // In place, the blocks sent are the blocks received: counts alike both ways.
    if (in_place)
      for (size_t j = 0; j < size; ++j) send_counts[j] = recv_counts[j] = count(me + j, 0);
    Exchange e = exchange(c.rank, send_counts, recv_counts);
    const std::vector<size_t>&send_displs = e.send_displs, &recv_displs = e.recv_displs;
    std::vector<int32_t>&send = e.send, &recv = e.recv;
    if (in_place) recv = send;
    {
      const PathMix mix(c);
      REQUIRE_OK(call(calls, remora_alltoallv, remora_ialltoallv,
                      in_place ? REMORA_IN_PLACE : send.data(), send_counts.data(),
                      send_displs.data(), recv.data(), recv_counts.data(), recv_displs.data(),
                      REMORA_INT32, c.handle, algorithm));
    }
    // Nobody reads this member's input once its call returned.
    std::fill(send.begin(), send.end(), kUntouched);
    for (size_t j = 0; j < size; ++j) {
      for (size_t i = 0; i < recv_counts[j]; ++i)
        REQUIRE(recv[recv_displs[j] + i] == tagged(static_cast<int>(j), c.rank, i),
                "alltoallv algorithm %d in_place %d: from %zu [%zu] = %d", algorithm, in_place, j,
                i, recv[recv_displs[j] + i]);
      REQUIRE(recv[recv_displs[j] + recv_counts[j]] == kUntouched, "alltoallv wrote into a gap");
    }
  }
}

// The three v-forms started at once (shm), two rounds of them (regular blocks of a cell and
// one more element, then the irregular ones of salt 0; across nodes smaller ones), completed in
// reverse order of starting.
void outstanding(const Comm& c) {
  const auto size = static_cast<size_t>(c.size), me = static_cast<size_t>(c.rank);
  const int root = c.size - 1;
  for (bool is_regular : {true, false}) {
    regular = is_regular;
    // Without a shared area (across nodes) shm runs the message-based defaults, which each
    // member chooses by its own block: blocks below their 32 KiB threshold there.
    small_blocks = across_nodes;
    const size_t salt = !is_regular ? 0 : across_nodes ? 10 : 16;  // kRegular: 2341, 16385
    const Blocks g = rooted_blocks(size, salt), s = rooted_blocks(size, salt + 1);
    std::vector<int32_t> gather_send(g.counts[me]), gather_recv(g.total, kUntouched);
    for (size_t i = 0; i < g.counts[me]; ++i) gather_send[i] = tagged(c.rank, root, i);
    std::vector<int32_t> scatter_send(s.total, kUntouched),
        scatter_recv(s.counts[me] + 1, kUntouched);
    if (c.rank == root)
      for (size_t j = 0; j < size; ++j)
        for (size_t i = 0; i < s.counts[j]; ++i)
          scatter_send[s.displs[j] + i] = tagged(root, static_cast<int>(j), i);
    // alltoallv: rank r sends count_of(r + j) elements to rank j.
    std::vector<size_t> send_counts(size), recv_counts(size);
    for (size_t j = 0; j < size; ++j) {
      send_counts[j] = count_of(me + j, salt);
      recv_counts[j] = count_of(j + me, salt);
    }
    Exchange e = exchange(c.rank, send_counts, recv_counts);
    const std::vector<size_t>&send_displs = e.send_displs, &recv_displs = e.recv_displs;
    std::vector<int32_t>&all_send = e.send, &all_recv = e.recv;
    remora_request_t requests[3] = {REMORA_REQUEST_NULL, REMORA_REQUEST_NULL, REMORA_REQUEST_NULL};
    REQUIRE_OK(remora_igatherv(gather_send.data(), g.counts[me], gather_recv.data(),
                               g.counts.data(), g.displs.data(), REMORA_INT32, root, c.handle,
                               REMORA_COLL_SHM, &requests[0]));
    REQUIRE_OK(remora_iscatterv(scatter_send.data(), s.counts.data(), s.displs.data(),
                                scatter_recv.data(), s.counts[me], REMORA_INT32, root, c.handle,
                                REMORA_COLL_SHM, &requests[1]));
    REQUIRE_OK(remora_ialltoallv(all_send.data(), send_counts.data(), send_displs.data(),
                                 all_recv.data(), recv_counts.data(), recv_displs.data(),
                                 REMORA_INT32, c.handle, REMORA_COLL_SHM, &requests[2]));
    for (int i = 2; i >= 0; --i) REQUIRE_OK(remora_request_wait(&requests[i]));
    if (c.rank == root)
      for (size_t j = 0; j < size; ++j) {
        for (size_t i = 0; i < g.counts[j]; ++i)
          REQUIRE(gather_recv[g.displs[j] + i] == tagged(static_cast<int>(j), root, i),
                  "outstanding igatherv: rank %zu [%zu]", j, i);
        REQUIRE(gather_recv[g.displs[j] + g.counts[j]] == kUntouched, "igatherv into a gap");
      }
    for (size_t i = 0; i < s.counts[me]; ++i)
      REQUIRE(scatter_recv[i] == tagged(root, c.rank, i), "outstanding iscatterv: [%zu]", i);
    REQUIRE(scatter_recv[s.counts[me]] == kUntouched, "iscatterv wrote past its block");
    for (size_t j = 0; j < size; ++j) {
      for (size_t i = 0; i < recv_counts[j]; ++i)
        REQUIRE(all_recv[recv_displs[j] + i] == tagged(static_cast<int>(j), c.rank, i),
                "outstanding ialltoallv: from %zu [%zu]", j, i);
      REQUIRE(all_recv[recv_displs[j] + recv_counts[j]] == kUntouched, "ialltoallv into a gap");
    }
  }
  regular = true;
}

void run(remora_comm_t handle) {
  Comm c{handle, 0, 0};
  REQUIRE_OK(remora_comm_rank(handle, &c.rank));
  REQUIRE_OK(remora_comm_size(handle, &c.size));
  if (edge != 0) {
    for (size_t salt = 0; salt < 6; ++salt) alltoallvs(c, REMORA_COLL_SHM, salt);
    return;
  }
  if (regular) {
    for (size_t salt = 0; salt < std::size(kRegular); ++salt) {
      small_blocks = false;
      gathervs(c, REMORA_COLL_SHM, salt);
      scattervs(c, REMORA_COLL_SHM, salt);
      alltoallvs(c, REMORA_COLL_SHM, salt);
    }
    if (calls == coll_test::Calls::wait) outstanding(c);
    return;
  }
  for (remora_coll_algorithm_t algorithm : {REMORA_COLL_SHM, REMORA_COLL_AUTO})
    for (size_t salt = 0; salt < 2; ++salt) {
      small_blocks = across_nodes || (algorithm == REMORA_COLL_AUTO &&
                                      (salt == 1 || calls != coll_test::Calls::blocking));
      gathervs(c, algorithm, salt);
      scattervs(c, algorithm, salt);
      alltoallvs(c, algorithm, salt);
    }
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  mixed = argc > 1 && std::strcmp(argv[1], "mixed") == 0;
  regular = argc > 1 && std::strcmp(argv[1], "regular") == 0;
  if (argc > 1 && std::strcmp(argv[1], "edges") == 0) {
    // The size set, else the one the test names (COLL_TEST_EDGE_BYTES: the oversubscribed
    // default), else the 64 KiB of two ranks.
    const char* bytes = std::getenv("REMORA_SHM_SINGLE_COPY_BYTES");
    if (bytes == nullptr) bytes = std::getenv("COLL_TEST_EDGE_BYTES");
    edge = (bytes != nullptr ? std::strtoul(bytes, nullptr, 10) : 65536) / sizeof(int32_t);
    REQUIRE(edge > 1, "edges: single-copy size %zu elements", edge);
  }
  if (regular || edge != 0)
    calls = coll_test::calls_from(argc - 1, argv + 1);
  else if (!mixed)
    calls = coll_test::calls_from(argc, argv);
  remora_comm_t world = REMORA_COMM_NULL, half = REMORA_COMM_NULL, dup = REMORA_COMM_NULL;
  REQUIRE_OK(remora_comm_world(&world));
  run(world);
  const int rank = remora_rank();
  REQUIRE_OK(remora_comm_split(world, rank % 2, -rank, &half));
  run(half);
  REQUIRE_OK(remora_comm_dup(half, &dup));
  run(dup);
  REQUIRE_OK(remora_comm_free(&dup));
  REQUIRE_OK(remora_comm_free(&half));
  REQUIRE_OK(remora_finalize());
  return 0;
}
