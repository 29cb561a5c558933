// A nonblocking shm collective without a schedule: the request of a small ibarrier, ibcast,
// ireduce, iallreduce, igather or ialltoall on one node (the one-round layouts of
// coll/algorithms/shm.cpp's small_shm_rounds) holds its ShmRounds and polls them itself when a
// thread tests or waits for it.
//
// A schedule around one polled step cost about 2,000 instructions of each small call (its
// construction, start, step list and destruction; docs/benchmarks.md). What the request keeps of
// the schedule:
//   - the sequence number: in an entry of the communicator's instance slot of its own
//     (InstanceTable::claim, begin_unscheduled: several of these may be outstanding on one
//     communicator, up to InstanceTable::kRequestEntries without the lock), else from
//     InstanceTable::begin as a schedule's; ended (end_unscheduled_instance, end_instance)
//     once the rounds are done or failed;
//   - failures: one announced before the call, an error notice while it runs (looked up when
//     the instance table's count of announcements moves), a round that fails (the rounds
//     abandon the sequence; the others hear of it by a notice, as of a failed polled step),
//     REMORA_COLL_TIMEOUT (no completion for that long while a thread waits for it);
//   - order: the rounds are enlisted on the area like a schedule's, so that collectives of the
//     communicator still run in sequence order, and every wait of the application advances them;
//     rounds that complete in the start itself with nothing of the area pending (a non-root's
//     gather, the later member of an alltoall) never join the list (ShmRounds::start).
// A finished request goes to its communicator's pool (Communicator::shm_requests) and lets go
// of the communicator; a later call on it takes the request again once the application has
// freed it (only the pool holds it), with its ShmRounds (restarted) and its round list, so
// that a call in steady state allocates and constructs none of them.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "coll/algorithms/algorithms.hpp"
#include "coll/communicator.hpp"
#include "coll/messaging.hpp"
#include "coll/shm_area.hpp"
#include "core/request.hpp"

namespace remora::coll {

class ShmRequest final : public Request, public std::enable_shared_from_this<ShmRequest> {
 public:
  struct Private {};  // the constructor is for start() (through make_shared) only
  ShmRequest(Private, Messenger& messenger, std::shared_ptr<Communicator> comm,
             std::chrono::nanoseconds timeout)
      : messenger_(messenger), comm_(std::move(comm)), timeout_(timeout) {}
  ~ShmRequest() override;
  ShmRequest(const ShmRequest&) = delete;
  ShmRequest& operator=(const ShmRequest&) = delete;

  // Starts operation with args on comm's area when it has a small one-round layout
  // (small_shm_rounds): *out is the started request. Returns false, having done nothing, for
  // other calls (then the caller builds a schedule). signature: the call's
  // (coll/signature.hpp); timeout: REMORA_COLL_TIMEOUT (0: none).
  // args: the call's regular-form arguments (shm_small_args of a CollectiveArgs, or the C API's
  // small entry's).
  static bool start(Messenger& messenger, const std::shared_ptr<Communicator>& comm, ShmArea& area,
                    Operation operation, const ShmFast::Small& args, uint32_t signature,
                    std::chrono::nanoseconds timeout, std::shared_ptr<Request>* out);

  bool done() const override { return done_.load(std::memory_order_acquire); }
  int status() const override;
  // Advances the rounds, looks for error notices and the timeout.
  void check_stalled() override;
  bool polls_shared_memory() const override { return !done(); }

 private:
  // A finished request of comm's pool that only the pool holds, taken out of it (nullptr: none).
  static std::shared_ptr<ShmRequest> reuse(Communicator& comm);
  // Under mutex_ (or in start, before anyone else can reach it): ends the instance with status (a
  // failure: its message, told to the other members with tell_others), then joins the
  // communicator's pool and lets go of it.
  void finish(int status, const std::string& message, bool tell_others);

  Messenger& messenger_;
  std::shared_ptr<Communicator> comm_;  // kept alive while the collective runs; then nullptr
  std::chrono::nanoseconds timeout_;
  std::chrono::steady_clock::time_point started_;
  uint64_t sequence_ = 0;
  InstanceTable::Context* slot_ = nullptr;  // the communicator's entry in the instance table
  int entry_ = -1;                          // of slot_ (claim), or -1: begun with begin()
  uint64_t announcements_ = 0;              // the instance table's count last looked at
  ShmSmallCall call_;  // what the rounds read: they are cancelled before it goes
  std::shared_ptr<ShmRounds> rounds_;
  std::vector<ShmRounds::Round> spare_rounds_;  // the round list of the next call (restart)
  uint64_t shape_ = ~uint64_t{0};               // rounds_' (small_shm_shape)
  std::mutex mutex_;
  int status_ = 0;
  std::string message_;
  std::atomic<bool> done_{false};
};

}  // namespace remora::coll
