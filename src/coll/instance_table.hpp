// The collective instances of each communicator on this rank: the next instance number, the
// instances running now (with their schedules), the signatures of the last ones that ended,
// and failures other ranks announced for instances this rank has not started yet. The
// messenger asks it about every arriving message and error notice, so that those of an
// instance that already ended here are dropped (never kept forever in the unexpected queue)
// and those of an instance still to come wait for it.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace remora::coll {

class Schedule;

// A failure of a collective instance, as announced in an error notice.
struct Failure {
  int code = 0;  // 0: none
  std::string message;
};

class InstanceTable {
 public:
  enum class State { Future, Running, Ended };
  struct Found {
    State state = State::Future;
    std::shared_ptr<Schedule> schedule;  // Running and started
    uint32_t signature = 0;              // Running, or Ended recently; else unchecked
  };

  // A communicator with this context now exists here; members are world ranks.
  void open(uint32_t context, std::vector<int> members, int my_rank);
  // It is gone: forget its instances.
  void close(uint32_t context);
  // Takes the context's next instance number; *announced receives a failure already announced
  // for it (code 0 when none).
  uint64_t begin(uint32_t context, uint32_t signature, Failure* announced);
  // How many instances begin() has numbered (for tests: the calls that took a schedule, as
  // the unscheduled ones, begin_unscheduled, do not count).
  uint64_t begun();
  // The instance's schedule is about to issue its first steps; returns a failure announced
  // since begin (code 0 when none).
  Failure started(uint32_t context, uint64_t sequence, const std::shared_ptr<Schedule>& schedule);
  void end(uint32_t context, uint64_t sequence);
  Found find(uint32_t context, uint64_t sequence);
  // Records a failure announced for an instance that has not started here. Returns the
  // schedule to fail when it is running, nullptr otherwise (kept, or dropped when it ended).
  std::shared_ptr<Schedule> announce(uint32_t context, uint64_t sequence, const Failure& failure);
  // The members' world ranks and this rank's rank in the communicator (empty when unknown).
  std::vector<int> members(uint32_t context, int* my_rank);
  // For a collective that runs without a schedule (the shm fast path, coll/shm_fast.hpp), one
  // at a time per context: begin_unscheduled takes the next instance number like begin (and
  // into *announced, which the caller passes empty, a failure already announced for it) and keeps
  // the instance in a slot of its own (no schedule will start it); announced() returns a failure
  // announced for it since (code 0 when none); end_unscheduled ends it like end. announcements()
  // counts every announcement, so that a waiter calls announced() only when the count moved.
  //
  // The slot is the context's entry (stable until close): slot() finds it once under the lock
  // and the caller keeps it (the shm area of the communicator does). Through it, begin and end
  // take no lock unless a failure is announced for a future instance of the context: the
  // instance number is taken with a compare-and-swap (so schedules begun by other threads
  // meanwhile still get numbers of their own) after the slot names it, and find() and
  // announce(), which look at the slot under the lock, see it as running from the moment its
  // number is taken until it is recorded as ended.
  //
  // Nonblocking calls without a schedule (coll/shm_request.hpp), several of which may be
  // outstanding on a context, take entries 1 to kRequestEntries instead of the one of the
  // blocking calls (entry 0): claim() takes a free one with a compare-and-swap (-1: all taken;
  // the call then uses begin and end, under the lock), begin_unscheduled and end_unscheduled
  // with that entry number it and end it as above, and end frees the entry.
  struct Context;
  static constexpr int kRequestEntries = 4;
  Context* slot(uint32_t context);
  static int claim(Context* slot);
  uint64_t begin_unscheduled(Context* slot, uint32_t signature, Failure* announced, int entry = 0);
  // begin_unscheduled in two parts, for callers that keep no Failure on their common path (the
  // small path: a Failure's string built and destroyed per call): take_unscheduled takes the
  // number; only when future_announced(slot) is a failure announced for it possible, and
  // take_announced returns it (code 0 when none).
  static uint64_t take_unscheduled(Context* slot, uint32_t signature, int entry = 0);
  static bool future_announced(const Context* slot);
  Failure take_announced(Context* slot, uint64_t sequence);
  Failure announced(uint32_t context, uint64_t sequence);
  void end_unscheduled(Context* slot, uint64_t sequence, int entry = 0);  // inline, below
  uint64_t announcements() const { return announcements_.load(std::memory_order_acquire); }

 private:
  static constexpr size_t kRecent = 64;
  static constexpr uint64_t kNone = ~uint64_t{0};
  static constexpr uint64_t kClaimed = kNone - 1;  // an entry claimed, its number not yet taken
  struct Running {
    uint32_t signature = 0;
    std::weak_ptr<Schedule> schedule;
    bool started = false;
    Failure announced;
  };

 public:
  struct Context {
    bool open = false;
    std::vector<int> members;
    int my_rank = -1;
    std::atomic<uint64_t> next{0};  // changed under the lock or by compare-and-swap
    std::unordered_map<uint64_t, Running> running;
    // The node of the last instance that ended, emptied, for the next one to begin in: one
    // allocation less per collective.
    std::unordered_map<uint64_t, Running>::node_type spare;
    // An unscheduled instance running now (kNone: none; kClaimed: entry taken, no number yet)
    // and its signature, written without the lock by its thread; the failure announced for it
    // (under the lock) and for which instance. Entry 0: the blocking calls'.
    struct Unscheduled {
      std::atomic<uint64_t> sequence{kNone};
      std::atomic<uint32_t> signature{0};
      Failure announced;
      uint64_t announced_for = kNone;
    };
    std::array<Unscheduled, 1 + kRequestEntries> unscheduled{};
    // The entry whose instance is sequence (nullptr: none).
    Unscheduled* unscheduled_entry(uint64_t sequence);
    // Under the lock: drops the failures announced for instances before sequence that no entry
    // runs (left by calls that ended before they could ask).
    void drop_stale_future(uint64_t sequence);
    std::map<uint64_t, Failure> future;   // announced, not begun
    std::atomic<bool> has_future{false};  // future is not empty (set under the lock)
    // The signatures of the last instances that ended: sequence + 1 (stored last) and signature.
    struct Ended {
      std::atomic<uint64_t> sequence{0};
      std::atomic<uint32_t> signature{0};
    };
    std::array<Ended, kRecent> ended{};
    void record_ended(uint64_t sequence, uint32_t signature) {
      Ended& slot = ended[sequence % kRecent];
      slot.sequence.store(0, std::memory_order_relaxed);
      std::atomic_thread_fence(std::memory_order_release);
      slot.signature.store(signature, std::memory_order_relaxed);
      slot.sequence.store(sequence + 1, std::memory_order_release);
    }
    // The signature of ended instance sequence; kUncheckedSignature when no longer known.
    uint32_t ended_signature(uint64_t sequence) const;
  };

 private:
  // end_unscheduled's rare part: failures announced for future instances exist.
  void drop_future(Context* slot, uint64_t sequence);
  // announce() under the lock, before the announcement is counted.
  std::shared_ptr<Schedule> record_announcement(uint32_t context, uint64_t sequence,
                                                const Failure& failure);

  std::mutex mutex_;
  std::unordered_map<uint32_t, Context> contexts_;
  std::atomic<uint64_t> announcements_{0};
  uint64_t begun_ = 0;  // under mutex_
};

inline uint64_t InstanceTable::take_unscheduled(Context* slot, uint32_t signature, int entry) {
  Context::Unscheduled& mine = slot->unscheduled[static_cast<size_t>(entry)];
  mine.signature.store(signature, std::memory_order_relaxed);
  uint64_t sequence = slot->next.load(std::memory_order_relaxed);
  // The entry names the number before the number is taken (release), so that whoever sees the
  // number taken sees the entry; a number that a schedule took first is retried.
  do {
    mine.sequence.store(sequence, std::memory_order_relaxed);
  } while (!slot->next.compare_exchange_weak(sequence, sequence + 1, std::memory_order_acq_rel,
                                             std::memory_order_relaxed));
  return sequence;
}

// A failure announced for the number just taken waits in future (an announcement that comes
// while the number is being taken may land there too; announced() looks there as well, when
// the count of announcements moves). No fence before this look: an announcement that happened
// before the call is visible through that happens-before (the acquire of take_unscheduled's
// exchange orders this load after it); one concurrent with it may be missed by any fence
// (record_announcement reads next, then stores has_future: no store-load pair to order), and
// the waiter finds it through the count. On x86 the locked exchange is a full barrier anyway.
inline bool InstanceTable::future_announced(const Context* slot) {
  return slot->has_future.load(std::memory_order_acquire);
}

// Inline: once per call of the small path (coll/shm_fast.cpp).
inline void InstanceTable::end_unscheduled(Context* slot, uint64_t sequence, int entry) {
  Context::Unscheduled& mine = slot->unscheduled[static_cast<size_t>(entry)];
  if (mine.sequence.load(std::memory_order_relaxed) != sequence) return;
  slot->record_ended(sequence, mine.signature.load(std::memory_order_relaxed));
  mine.sequence.store(kNone, std::memory_order_release);
  // No fence before the look (a full fence per call on the small path): an entry this misses
  // (stored concurrently) is erased by a later begin_unscheduled, which drops every entry of
  // an earlier sequence that no instance runs.
  if (future_announced(slot)) drop_future(slot, sequence);
}

}  // namespace remora::coll
