// The rendezvous hold-back rule (docs/collectives.md, "Messages"), deterministically, on a
// hand-built schedule of 2 ranks with manual progress and REMORA_RNDV_BYTES=64:
//   rank 0: S = send 4 KiB of buf to rank 1 (rendezvous: rank 1 will read buf in place);
//           G = receive "go" from rank 1; R = receive 8 bytes into buf[0, 8), after G.
//   rank 1: sends "go" and the 8 bytes at once (eager), and posts the 4 KiB receive, but makes no
//           Remora call (so reads nothing) until rank 0 says so through shared memory.
// Rank 0 starts only after rank 1's start has returned: a start matches messages that arrived
// before it, so S's announcement reaching rank 1 before its start (say while it left the barrier)
// would let rank 1 read buf at once, and R would find no send in flight.
// Rank 0 polls until "go" has arrived, at which point R is ready while S is still in flight:
// R must be held back (buf intact, one step parked), not posted (the 8 bytes would overwrite
// buf before rank 1 has read it). Then rank 1 reads, S completes, R is released and lands.
#include <sched.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "api/runtime.hpp"
#include "multirank.hpp"

namespace {

constexpr size_t kBig = 4096;

remora::coll::Collectives& collectives() {
  remora::api::Runtime* found = nullptr;
  REQUIRE_OK(remora::api::enter("coll_holdback_test", &found));
  return *found->collectives;
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  const int rank = remora_rank();
  REQUIRE(remora_size() == 2);
  remora_segment_t segment;
  REQUIRE_OK(remora_segment_allocate(2 * sizeof(uint64_t), &segment));
  void* pointer = nullptr;
  REQUIRE_OK(remora_segment_pointer(segment, 1, &pointer));
  auto* go_read = static_cast<uint64_t*>(pointer);  // rank 1's words: "you may read now",
  uint64_t* started = go_read + 1;                  // and "my schedule has started"
  if (rank == 1) {
    __atomic_store_n(go_read, 0, __ATOMIC_RELEASE);
    __atomic_store_n(started, 0, __ATOMIC_RELEASE);
  }
  REQUIRE_OK(remora_barrier());

  std::vector<uint8_t> original(kBig);
  for (size_t i = 0; i < kBig; ++i) original[i] = static_cast<uint8_t>(i * 7 + 1);
  const uint8_t eight[8] = {0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee};
  auto& coll = collectives();
  auto schedule = coll.new_schedule(coll.world());
  if (rank == 0) {
    std::vector<uint8_t> buf = original;
    schedule->send(1, 0, buf.data(), kBig);
    const auto go = schedule->recv(1, 2, nullptr, 0);
    schedule->recv(1, 1, buf.data(), sizeof eight, {go});
    while (__atomic_load_n(started, __ATOMIC_ACQUIRE) == 0) sched_yield();  // no Remora call
    schedule->start();
    while (schedule->held_back() == 0 && !schedule->done() &&
           std::memcmp(buf.data(), original.data(), sizeof eight) == 0)
      remora_test::progress_and_yield();
    REQUIRE(schedule->held_back() == 1, "the receive into the buffer in flight was not held back");
    REQUIRE(std::memcmp(buf.data(), original.data(), kBig) == 0, "buf changed before the read");
    __atomic_store_n(go_read, 1, __ATOMIC_RELEASE);
    REQUIRE_OK(coll.wait(*schedule));
    REQUIRE(std::memcmp(buf.data(), eight, sizeof eight) == 0, "the held receive did not land");
    REQUIRE(std::memcmp(buf.data() + 8, original.data() + 8, kBig - 8) == 0);
  } else {
    std::vector<uint8_t> received(kBig, 0);
    schedule->send(0, 2, nullptr, 0);
    schedule->send(0, 1, eight, sizeof eight);
    schedule->recv(0, 0, received.data(), kBig);
    schedule->start();
    __atomic_store_n(started, 1, __ATOMIC_RELEASE);
    while (__atomic_load_n(go_read, __ATOMIC_ACQUIRE) == 0) sched_yield();  // no Remora call
    REQUIRE_OK(coll.wait(*schedule));
    REQUIRE(received == original, "rank 1 read an overwritten buffer");
  }
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_segment_free(&segment));
  REQUIRE_OK(remora_finalize());
  return 0;
}
