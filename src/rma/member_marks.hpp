// Arrival marks of a window's members on one node (every sync part mapped: CPU atomics): each
// member stores a monotonic count into a word of its own sync part and learns from the others'
// words that they have arrived as far. A barrier made of such marks has no shared counter that
// every rank writes: each rank writes one word of its own and reads the members' words.
// Wake-ups: a member that stores its mark then runs a sequentially consistent fence and looks at
// every mark (Dekker between the members): of the marks stored concurrently, the last one's
// owner sees all of them, so only a member that sees every mark wakes the sleepers; one that
// does not has a later arrival to do it. A sleeper registers before its last look
// (ShmTransport::sleep), so it is not slept through. Used by the immediate fence (its opening
// and closing fences) and by the deferred fence's exchange of counts.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "transport/node_wait.hpp"
#include "transport/transport.hpp"

namespace remora::rma {

// word(rank): the mark word in rank's sync part on this process's mapping.
template <typename Word>
class MemberMarks {
 public:
  MemberMarks(transport::Transport& transport, const std::vector<int>& members, const Word& word)
      : transport_(transport), members_(members), word_(word) {}

  // Whether every member's mark has reached count (acquire: what each stored before its mark is
  // visible after this returns true).
  bool all_reached(uint64_t count) const {
    for (int rank : members_)
      if (std::atomic_ref<uint64_t>(*word_(rank)).load(std::memory_order_acquire) < count)
        return false;
    return true;
  }

  // Stores this rank's mark (release: its earlier loads and stores, of the window and of its
  // own memory, precede whatever a member does after acquiring it) and wakes the members if it
  // is the last to arrive. True if every member's mark had reached count.
  bool arrive(int me, uint64_t count) const {
    std::atomic_ref<uint64_t>(*word_(me)).store(count, std::memory_order_release);
    std::atomic_thread_fence(std::memory_order_seq_cst);  // the Dekker fence (header comment)
    if (!all_reached(count)) return false;
    transport_.wake_ranks(members_.data(), members_.size());
    return true;
  }

  // Waits until every member's mark reaches count: a wait for the whole node, which yields at
  // once when oversubscribed (transport::wait_for_node).
  int await(uint64_t count) const {
    return transport::wait_for_node(transport_, [this, count] { return all_reached(count); });
  }

  // arrive, then await: a barrier over the members.
  int arrive_and_await(int me, uint64_t count) const {
    if (arrive(me, count)) return REMORA_SUCCESS;
    return await(count);
  }

 private:
  transport::Transport& transport_;
  const std::vector<int>& members_;
  Word word_;
};

}  // namespace remora::rma
