// The shared slots of the flat application-bypass reduce (coll/bypass_reduce.hpp): on a
// communicator whose ranks share a node (it has a ShmArea), a reduce of up to kSlotBytes over
// the flat tree takes no message and no schedule. A contributing rank copies its input into a
// slot of its own ring (in its part of the area, ShmArea::bypass_ring) and adds one to the
// root's arrival count; only the contribution that brings the count to what a sleeping root
// waits for wakes it. The root checks the members' slots of the call, folds them into its
// result in the flat tree's fixed order and releases them. So a contribution costs a copy, a
// store and an atomic add; the root's whole reduce is one fold per member.
//
// Layout of a member's ring: one line of counters (read and written by every member), then
// kSlots slots. Slot sequence % kSlots holds the member's contribution to call `sequence`:
//   full:    sequence + 1 once the data is in (stored last, release); 0 once the root has
//            folded it (free again);
//   waiting: the member waits for the slot to be freed (it ran kSlots calls ahead of a root):
//            the root that frees it wakes the member;
//   root, bytes: the call's root and the contribution's size (the root checks it: a mismatch
//            fails the root's reduce, the data is left out).
// The counter line of a member: arrivals (contributions deposited for it as root, ever);
// expected (written by the member alone: its calls as root have awaited this many); wake_at:
// a root that may sleep stores the arrival count its call needs (lowered, never raised, while
// it waits; 0 when none waits): a contributor whose add reaches it wakes the root.
// Counts only grow, so a contribution to a later call of the same root (a member running
// ahead) can only wake the root early, never too late; a root woken early looks and sleeps
// again, and its sleeps are timed (the wait policy's longest) besides. A member deposits its
// contributions in call order, the nonblocking ones from any wait of the rank (Contribution),
// so the last contribution to a call is also the one that brings the count to its target.
// Orderings: two store-load pairs, seq_cst on both sides (on x86 a locked instruction or fence
// on the storing side, plain loads). The root stores wake_at, then loads a member's full; the
// member stores full, adds its arrival, then loads wake_at: one of them sees the other's
// store. The root's sleep counts itself a sleeper, fences, then polls again; the last member's
// wake (Transport::wake) fences, then reads the sleeper count. So the root's sleep needs no
// membarrier (Transport::sleep_for_arrivals), and a member that deposits wakes nobody unless
// its arrival completes a count that a root waits for.
//
// Failures: a member that fails the call before its contribution (a failure announced, an
// argument error at the call) abandons the sequence in the area (ShmArea::abandon) and sends
// an error notice: the root stops waiting for it. A root that fails or abandons a call frees
// nothing: a member whose slot still holds a contribution to a call its root abandoned
// (ShmArea::abandoned, the root's last few) takes the slot back itself.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "coll/communicator.hpp"
#include "coll/schedule.hpp"
#include "coll/shm_area.hpp"
#include "transport/transport.hpp"

namespace remora::coll {

struct CollectiveArgs;

class BypassSlots {
 public:
  // Contributions of up to this many bytes go through the slots (larger ones take messages).
  static constexpr size_t kSlotBytes = 1024;
  // Calls a member may contribute to ahead of the slowest root before it waits for a slot.
  static constexpr int kSlots = 16;
  // Whether a reduce of `bytes` on a communicator with this area (nullptr: none) uses the slots.
  static bool serves(const ShmArea* area, size_t bytes) {
    return area != nullptr && bytes <= kSlotBytes;
  }

  // A non-root rank's part of call `sequence`: deposits its input in its slot once. poll()
  // returns 1 while it waits, then 0 on every later poll: a member deposits its contributions in
  // call order, so a contribution waits while its slot is still held by a call kSlots back (its
  // root has not folded it yet) and while an earlier contribution of the member waits. A blocking
  // call polls it in its own wait. A nonblocking call's (nonblocking: it copies its input at the
  // call, as the message path does, since its deposit may come later) that cannot deposit at once
  // joins the member's backlog (ShmArea::bypass_backlog) and is enlisted on the rank's areas
  // (ShmAreas::enlist): every wait of the rank deposits it as soon as it can, not only a wait for
  // its request. Both rules prevent a deadlock: a nonblocking contribution deposited only when its
  // request was waited for let the member's later calls take its slot first; its root could not
  // fold that call without it and so never freed the other members' slots of it, which they needed
  // kSlots calls later for calls of the same root, and the member itself waited for the root
  // to fold one of those later calls before it reached the wait for its request.
  class Contribution final : public Schedule::Polled,
                             public std::enable_shared_from_this<Contribution> {
   public:
    Contribution(transport::Transport& transport, const Communicator& comm, ShmArea& area,
                 uint64_t sequence, const CollectiveArgs& args, bool nonblocking);
    int poll() override;
    void cancel() override;

   private:
    // Copies the input into the slot and counts the arrival; false (a wake-up asked for) while
    // the slot is held.
    bool deposit();
    // Under the backlog's lock: deposits the backlog's contributions from the oldest until one
    // must wait; true once the backlog is empty.
    static bool drain(ShmArea::BypassBacklog& backlog);

    transport::Transport& transport_;
    ShmArea& area_;
    std::shared_ptr<ShmArea> keep_area_;  // a nonblocking call's: it may outlive its schedule
    uint64_t sequence_;
    int root_, root_world_;
    const void* input_;
    size_t bytes_;
    std::vector<uint8_t> kept_;
    bool nonblocking_;
    // Under the backlog's lock once queued_: in the backlog (set once); deposited from there;
    // taken out by cancel().
    bool queued_ = false, deposited_ = false, cancelled_ = false;
    // Deposited by poll() itself, before it was ever queued (only its poller touches it then).
    bool went_in_ = false;
  };

  // The root's part of call `sequence`: its result is its input folded with every member's
  // slot. Made in sequence order (it counts the arrivals its call needs). poll() returns 1
  // until every member's contribution is in, then folds them, frees the slots and returns 0
  // (or a failure: mismatched counts; a member abandoned the call), and the same again after.
  // A nonblocking call's is also enlisted on the rank's areas (ShmAreas::enlist): a member
  // that ran a ring of slots ahead waits for this root to free one, and this rank may wait for
  // that member in a later collective before it waits for this one. Polls from two threads
  // take turns (one that finds the other polling returns 1).
  class Collection final : public Schedule::Polled {
   public:
    Collection(transport::Transport& transport, const Communicator& comm, ShmArea& area,
               uint64_t sequence, const CollectiveArgs& args);
    int poll() override;
    void cancel() override;
    // A member that abandoned the call (-1: none), as the last poll() found.
    int abandoned_by() const { return abandoned_by_; }

   private:
    // Whether relative rank r's contribution is in; -1 if its member abandoned the call.
    int arrived(int relative) const;
    void stop_waking();
    void give_up();  // cancel() under mutex_

    transport::Transport& transport_;
    const Communicator& comm_;
    ShmArea& area_;
    uint64_t sequence_;
    int root_, size_;
    int op_, type_;
    size_t count_, bytes_;
    void* result_;
    const void* input_;
    uint64_t target_ = 0;     // the arrival count this call needs
    bool started_ = false;    // the result holds the root's input
    bool may_sleep_ = false;  // wake_at was lowered to target_
    bool finished_ = false;
    int status_ = 0;  // once finished_
    int abandoned_by_ = -1;
    std::mutex mutex_;
  };
};

}  // namespace remora::coll
