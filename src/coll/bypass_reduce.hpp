// Application-bypass reduce (paper 002, Wagner, Buntinas, Brightwell, Panda).
//
// On the binomial tree of the standard reduce (a flat one on communicators of at most
// BypassOptions::flat_ranks ranks, where every rank is a leaf), an internal node copies its input
// into a descriptor, folds in the children whose data already arrived, and returns without waiting
// for the late ones; the active-message handler folds late children in as they arrive (inside
// whichever Remora call polls, or on the progress thread) and forwards the result to the parent
// once all are in. Leaves forward at once. The root runs the standard schedule, so its blocking
// reduce waits for the whole result and its ireduce is split-phase.
//
// On a communicator whose ranks share a node, the flat tree within BypassSlots::kSlotBytes
// takes neither messages nor a schedule, at the root too: contributions go into shared slots
// (coll/bypass_slots.hpp).
//
// Children send to an internal parent on a dedicated handler (the paper's collective packet
// type), matched to the descriptor queue by (context, instance, child); a message that finds
// no descriptor waits in a dedicated unexpected queue until its parent enters the reduction.
// Messages to the root travel as ordinary schedule messages.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "coll/algorithms/algorithms.hpp"
#include "coll/communicator.hpp"
#include "coll/messaging.hpp"
#include "coll/tree.hpp"
#include "transport/transport.hpp"

namespace remora::coll {

struct BypassOptions {
  size_t eager_bytes = 0;  // larger reductions run the standard binomial reduce
  uint64_t delay_us = 0;   // how long an internal node polls for late children before returning
  int flat_ranks = 0;      // communicators of at most this many ranks use a flat tree
};

class BypassReduce {
 public:
  // Registers the bypass handler: every rank must create this at the same point of start-up.
  static int create(transport::Transport& transport, Messenger& messenger,
                    const BypassOptions& options, std::unique_ptr<BypassReduce>* out);
  ~BypassReduce();
  BypassReduce(const BypassReduce&) = delete;
  BypassReduce& operator=(const BypassReduce&) = delete;

  // The tree of a reduce on a communicator of `size` ranks (the same on every member).
  TreeShape shape(int size) const {
    return size <= options_.flat_ranks ? TreeShape::Flat : TreeShape::Binomial;
  }
  // Compiles the reduce into schedule: the standard one at the root and above the eager limit,
  // else one step that contributes this rank's input without waiting for late children.
  void build(Schedule& schedule, const CollectiveArgs& args);
  // Whether the reduce goes through the shared slots (the same on every member: the flat tree,
  // a shared area, within kSlotBytes and the eager limit).
  bool uses_slots(const Communicator& comm, const CollectiveArgs& args) const;
  // A blocking reduce through the slots, at any rank, as one unscheduled instance of comm:
  // a contributing rank deposits its input and returns, the root waits (sleeping until the
  // last contribution wakes it) and folds. timeout: REMORA_COLL_TIMEOUT (0: none).
  int run_slots(const std::shared_ptr<Communicator>& comm, uint32_t signature,
                const CollectiveArgs& args, std::chrono::nanoseconds timeout);
  // Whether rank's part of the reduce is only its contribution (not the root, within the
  // eager limit): what build's one step does.
  bool contributes_only(int rank, const CollectiveArgs& args) const;
  // A blocking reduce at such a rank without a schedule (whose set-up and teardown cost several
  // times the contribution): the same step, as one unscheduled instance of comm
  // (InstanceTable::begin_unscheduled; a failure announced for it fails the call unrun, as a
  // schedule's start would).
  int contribute_unscheduled(const std::shared_ptr<Communicator>& comm, uint32_t signature,
                             const CollectiveArgs& args);

  // Reductions this rank has delegated to the progress engine and not yet forwarded.
  size_t pending() const { return pending_.load(std::memory_order_acquire); }
  // Descriptors ever created (internal nodes only): tells a bypassed reduce from a fallback.
  uint64_t descriptors_created() const { return created_.load(std::memory_order_relaxed); }
  // Of those, how many were still waiting for a child when the reduce returned.
  uint64_t returned_early() const { return returned_early_.load(std::memory_order_relaxed); }
  // A failure met while completing a delegated reduction (mismatched counts, a failed send),
  // reported once, to the next caller. REMORA_SUCCESS when there was none.
  int take_failure();

 private:
  struct Key {
    uint32_t context = 0;
    uint64_t instance = 0;  // the reduction's sequence number on its communicator
    int source = -1;        // world rank of the child; -1 names the descriptor itself
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& key) const;
  };
  struct Descriptor;

  BypassReduce(transport::Transport& transport, Messenger& messenger, const BypassOptions& options);
  static void on_message(int source, const void* payload, size_t bytes, void* context);
  void deliver(int source, const void* payload, size_t bytes);
  // The schedule step: the synchronous part of the paper's Fig. 3.
  int contribute(const std::shared_ptr<Communicator>& comm, uint64_t instance,
                 const CollectiveArgs& args);
  // Under mutex_: folds child `slot`'s data into d, in the fixed order for floating point;
  // data that must wait for its turn is taken from *storage when given, else copied.
  void accept(Descriptor& d, size_t slot, const uint8_t* data, size_t bytes,
              std::vector<uint8_t>* storage);
  void fold_in_order(Descriptor& d);
  // Sends d's result to its parent; outside mutex_.
  int forward(Descriptor& d);
  bool is_pending(const Key& key);
  // run_slots' wait for step (a BypassSlots::Contribution or Collection) of instance: until
  // it is done, a failure is announced for the instance, the timeout passes or the job aborts.
  template <typename Step>
  int wait_slots(Step& step, const Communicator& comm, uint64_t instance, bool root,
                 std::chrono::nanoseconds timeout);
  void record_failure(int status);

  transport::Transport& transport_;
  Messenger& messenger_;
  const BypassOptions options_;
  int handler_ = -1;
  std::mutex mutex_;
  std::unordered_map<Key, std::unique_ptr<Descriptor>, KeyHash> descriptors_;  // source == -1
  std::unordered_map<Key, std::vector<uint8_t>, KeyHash> unexpected_;
  std::atomic<size_t> pending_{0};
  std::atomic<uint64_t> created_{0}, returned_early_{0};
  std::mutex failure_mutex_;
  // Written under failure_mutex_; read without it first, so that a call with no failure kept
  // (every call, nearly) takes no lock.
  std::atomic<int> failure_{0};
  std::string failure_message_;
};

}  // namespace remora::coll
