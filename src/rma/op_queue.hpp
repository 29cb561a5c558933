// Operations of a deferred epoch (paper 001 §3.1 and §5.1), queued at the origin until the call
// that closes the epoch performs them. Compare and alpha values are always copied. The origin
// data of puts and accumulates is copied (OriginData::Copied: fence and PSCW epochs, whose
// origin buffers may be reused as soon as the call returns) or referenced (Referenced: lock
// epochs, where MPI's rule applies: the origin buffer is not modified until unlock or
// flush_local, so the queue needs no copy). Gets and the results of the accumulate family are
// written when the operation is performed: valid only after the epoch is closed (fence,
// unlock, flush), as MPI says.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "rma/accumulate/acc_args.hpp"

namespace remora::rma {

enum class OpKind : uint8_t { Put, Get, Accumulate };
enum class OriginData : uint8_t { Copied, Referenced };

// A queued operation. Pointers to origin data point into the queue's copy while it is performed.
struct QueuedOp {
  OpKind kind = OpKind::Put;
  int target = 0;
  uint64_t offset = 0;           // put and get: bytes into the target's window
  size_t bytes = 0;              // put and get
  const void* origin = nullptr;  // put
  void* result = nullptr;        // get
  AccArgs acc;                   // accumulate family (it has its own target and offset)
};

// The operations in issue order. Clearing keeps the storage, so a steady stream of epochs
// allocates nothing.
class OpQueue {
 public:
  explicit OpQueue(OriginData origins = OriginData::Copied) : origins_(origins) {}
  void push_put(int target, uint64_t offset, const void* origin, size_t bytes);
  void push_get(int target, uint64_t offset, void* result, size_t bytes);
  void push_accumulate(const AccArgs& args);

  bool empty() const { return ops_.empty(); }
  size_t size() const { return ops_.size(); }
  void clear() {
    ops_.clear();
    data_used_ = 0;
  }

  // Calls perform(op) for every operation in issue order; returns the first failure, after
  // still performing the rest (the epoch must end for every rank).
  template <typename F>
  int for_each(const F& perform) const {
    int first = 0;
    for (const Entry& entry : ops_) keep_first(&first, perform_entry(entry, perform));
    return first;
  }

  // The same in the get-last order of paper 001 §5.1: puts and accumulates in issue order,
  // then the gets in issue order. Only plain gets move: accumulate-family operations with
  // results keep MPI's accumulate ordering. MPI leaves a get that conflicts with a put of the
  // same epoch undefined, so the reordering is invisible to correct programs.
  template <typename F>
  int for_each_get_last(const F& perform) const {
    int first = 0;
    for (const Entry& entry : ops_)
      if (entry.op.kind != OpKind::Get) keep_first(&first, perform_entry(entry, perform));
    for (const Entry& entry : ops_)
      if (entry.op.kind == OpKind::Get) keep_first(&first, perform_entry(entry, perform));
    return first;
  }

  // counts[t] += the number of operations to target t (counts has one entry per rank).
  void count_targets(std::vector<uint64_t>* counts) const {
    for (const Entry& entry : ops_) ++(*counts)[static_cast<size_t>(entry.op.target)];
  }

 private:
  static constexpr size_t kNone = ~size_t{0};
  // Copied data is addressed by offset into data_, which may move while the queue grows.
  struct Entry {
    QueuedOp op;
    size_t origin = kNone, compare = kNone, alpha = kNone;
  };
  size_t copy(const void* source, size_t bytes);
  QueuedOp resolve(const Entry& entry) const;
  // A put or get that refers to the caller's buffers is performed as queued (no copy of the
  // operation); the rest with pointers into the copied data.
  template <typename F>
  int perform_entry(const Entry& entry, const F& perform) const {
    if (origins_ == OriginData::Referenced && entry.op.kind != OpKind::Accumulate)
      return perform(entry.op);
    return perform(resolve(entry));
  }
  // Appends an entry in place (an Entry is large: no temporary and copy).
  Entry& append() { return ops_.emplace_back(); }
  static void keep_first(int* first, int status) {
    if (*first == 0) *first = status;
  }

  OriginData origins_;
  std::vector<Entry> ops_;
  // Copied origin data, grown by doubling and never zero-filled (a std::vector would be).
  std::unique_ptr<unsigned char[]> data_;
  size_t data_used_ = 0, data_capacity_ = 0;
};

}  // namespace remora::rma
