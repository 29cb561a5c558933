// A communicator: a group of ranks plus a context id that keeps its messages apart from those
// of every other communicator the calling rank belongs to.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "coll/group.hpp"
#include "coll/rank_order.hpp"

namespace remora::coll {

class ShmArea;
class ShmRequest;
struct Hierarchy;

// The finished requests of the communicator's small nonblocking shm calls (coll/shm_request.hpp),
// kept for its next calls: a request (with its rounds) runs again once the application has
// freed it, without the allocations and constructions of a new one. A finished request holds no
// reference to the communicator (no cycle through this list).
struct ShmRequestPool {
  static constexpr size_t kMax = 4;
  std::mutex mutex;  // finish() runs on whichever thread tests or waits
  std::vector<std::shared_ptr<ShmRequest>> finished;
};

// Shared from this: a nonblocking call that borrowed it by handle takes its reference from it
// (an atomic increment) instead of a second, locked lookup of the handle.
class Communicator : public std::enable_shared_from_this<Communicator> {
 public:
  // my_world_rank must be a member of group.
  Communicator(Group group, int my_world_rank, uint32_t context)
      : group_(std::move(group)), rank_(group_.rank_of(my_world_rank)), context_(context) {}

  int rank() const { return rank_; }
  int size() const { return group_.size(); }
  int world_rank(int rank) const { return group_.world_rank(rank); }
  const Group& group() const { return group_; }
  uint32_t context() const { return context_; }

  // The virtual-rank order its tree and ring algorithms follow (nullptr: rank order). Set by
  // the application between collectives, the same on every member; a schedule keeps the order
  // it was built with.
  std::shared_ptr<const RankOrder> order() const { return std::atomic_load(&order_); }
  void set_order(std::shared_ptr<const RankOrder> order) {
    std::atomic_store(&order_, std::move(order));
  }

  // The shared area of the shm algorithms (coll/shm_area.hpp), made with the communicator;
  // nullptr where it has none (the same on every member).
  std::shared_ptr<ShmArea> shm_area() const { return std::atomic_load(&shm_area_); }
  void set_shm_area(std::shared_ptr<ShmArea> area) {
    shm_area_ptr_.store(area.get(), std::memory_order_release);
    std::atomic_store(&shm_area_, std::move(area));
  }
  // The same without taking a reference, for the duration of a call on the communicator (the
  // area is set once, when the communicator is made, and lives as long as it).
  ShmArea* shm_area_ptr() const { return shm_area_ptr_.load(std::memory_order_acquire); }
  // Whether every member is on this rank's node (computed once; -1: not yet known).
  std::atomic<int> on_one_node{-1};
  // Whether the members span several nodes with two or more of them on some node, so that the
  // hierarchical algorithm applies (computed once; -1: not yet known).
  std::atomic<int> spans_shared_nodes{-1};
  // Auto's choice for the small calls (Collectives::small_auto_shm), by operation and kind
  // (blocking with regular blocks, blocking v-form, nonblocking): bit 2i says choice i is known,
  // bit 2i + 1 that it is shm (asked once: it does not depend on a small call's size).
  std::atomic<uint64_t> auto_small_shm{0};
  ShmRequestPool shm_requests;

  // The node and leaders' sub-communicators of the hierarchical algorithm
  // (coll/algorithms/hierarchical.cpp), made by its first call; nullptr before.
  std::shared_ptr<Hierarchy> hierarchy() const { return std::atomic_load(&hierarchy_); }
  void set_hierarchy(std::shared_ptr<Hierarchy> hierarchy) {
    std::atomic_store(&hierarchy_, std::move(hierarchy));
  }

 private:
  Group group_;
  int rank_;
  uint32_t context_;
  std::shared_ptr<const RankOrder> order_;
  std::shared_ptr<ShmArea> shm_area_;
  std::atomic<ShmArea*> shm_area_ptr_{nullptr};
  std::shared_ptr<Hierarchy> hierarchy_;
};

}  // namespace remora::coll
