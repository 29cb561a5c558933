#include "coll/shm_fast.hpp"

#include <sched.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "coll/algorithms/algorithms.hpp"
#include "coll/algorithms/common.hpp"
#include "coll/shm_single_copy.hpp"
#include "coll/shm_vforms.hpp"
#include "core/backoff.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/threads.hpp"
#include "rma/reduce_op.hpp"

namespace remora::coll {
namespace {

// The same thresholds as coll/algorithms/shm.cpp: both paths must lay out the same rounds.
constexpr size_t kFlatBytes = ShmArea::kFlatBytes;
constexpr size_t kCell = ShmArea::kCellBytes;
// Checks of the awaited flag with a pause instruction between them, first phase of a wait: at
// p = 2 a member usually arrives within a few hundred nanoseconds. Oversubscribed, a few only:
// the member it waits for may need this CPU.
constexpr int kSpins = 256, kSpinsOversubscribed = 8;
// The first checks of the spin phase take no pause between them (unless oversubscribed): a
// pause lasts 25 ns or more (measured on this machine's AMD EPYC; about 140 cycles on Intel
// since Skylake), a third of a whole barrier at p = 2, and the flag of a member that arrives
// just after a check would be seen up to one pause late. A check is a few loads of lines
// this member already holds until the writer takes them.
constexpr int kChecksWithoutPause = 32;
// A wait for an inline round looks at the awaited members' arrive flags on one check in this
// many only (ShmArea::arrived's slot_only): their slots carry the round id.
constexpr unsigned kSlotOnlyChecks = 8;
// The single-copy spin (ShmCall::copy_spin_ns_) reads the clock on one check in this many: on
// a virtual machine a clock read costs several checks.
constexpr unsigned kClockChecks = 64;

size_t chunks_of(size_t bytes, size_t chunk) {
  return (bytes + chunk - 1) / chunk;
}

// The single-copy reductions' scratch pieces (shm_single_copy::transfer: two or three cells,
// 128-192 KiB), kept by the thread across its calls: a vector of the call was zero-filled and
// faulted in again on every call, which at p = 2 and 64 KiB cost about what the copies did.
std::vector<uint8_t>& single_copy_scratch() {
  thread_local std::vector<uint8_t> scratch;
  return scratch;
}

}  // namespace

// What every fast-path call does beside its data: the sequence number, the rounds' flags,
// waiting, and failing (ShmFastRun for any payload, ShmSmallRun for small ones).
class ShmCall {
 public:
  ShmCall(const ShmFast::Env& env, const Communicator& comm, ShmArea& area)
      : env_(env), comm_(comm), area_(area), me_(area.rank()), size_(area.size()) {}

 protected:
  // Takes the call's sequence number; a failure announced for it before fails the call.
  int begin(uint32_t signature);
  // begin's rare part: failures are announced for future instances of the communicator (a
  // Failure and its string are built only here).
  [[gnu::noinline, gnu::cold]] int begin_announced();
  void end() {
    pay_wake();
    env_.messenger.end_unscheduled_instance(slot_, comm_.context(), sequence_);
  }
  // The flags this call stores wake the members' sleepers late: at the end of the call, or
  // before a wait of its own outlasts its spin phase (wait()), whichever comes first. The wake's
  // fence, right after a store to a line that a member polls, waits for that line to change
  // hands; later it overlaps with this member's wait for the others. A member that sleeps has
  // waited at least the spin and yield phases already, so the delay (one spin phase) is small
  // beside that.
  void pay_wake() {
    if (!wake_owed_) return;
    wake_owed_ = false;
    area_.wake_others();
  }
  // Round k up to its reads: waits until this rank's cell (small: inline slot) of the round is
  // free (when it publishes), calls publish(cell), stores arrive, and waits for the arrival of
  // `who`. Then the caller reads and calls finish_round.
  // past: this member's last round, in which it reads nothing (coll/shm_vforms.hpp): its
  // arrival says it is past every round.
  template <typename Publish>
  int start_round(size_t k, bool small, bool publishes, int who, const Publish& publish,
                  bool past = false);
  // The same, writing `writes` (ShmArea::kCellData, kSlotData: the v-forms' round 0 may write
  // both); small: the arrival is looked for in the slot first.
  template <typename Publish>
  int start_round_writing(size_t k, bool small, unsigned writes, int who, const Publish& publish,
                          bool past);
  // done tells the members that published in this round that this one is past it. Where
  // nobody else published (barrier; bcast at the root) the arrive just stored is past every
  // round they published in, so done can wait. Elsewhere it cannot: the next arrive comes only
  // after this member's own wait to reuse its cell, which may wait for theirs.
  void finish_round(size_t k, bool others_publish) {
    if (others_publish) set_flag(area_.header(me_).done, round_id(k));
  }
  // After the last round of a member that read in it (the v-forms): past every round.
  void finish_past() { set_flag(area_.header(me_).arrive, past_id()); }
  // Stores one of this member's flags; the wake-up is owed (pay_wake).
  void set_flag(ShmArea::Flag& flag, uint64_t value) {
    flag.value.store(value, std::memory_order_release);
    wake_owed_ = true;
  }
  uint64_t past_id() const { return (sequence_ + 1) << 24 | ShmArea::kPastRound; }
  // Round k's cell, or with small the call's inline slot (as ShmRounds picks them).
  int buffer_of(size_t k, bool small) const {
    return small ? ShmArea::slot_of(sequence_) : static_cast<int>((sequence_ + k) & 1);
  }
  uint64_t round_id(size_t k) const { return (sequence_ + 1) << 24 | (k + 1); }
  // Out of line: the spin loop stays out of the inlined rounds of the small path (and out of
  // their instruction counts, which profiles compare with the waits excluded).
  template <typename Check>
  [[gnu::noinline]] int wait(const Check& check);
  int fail_call(int code, const std::string& message, bool tell_others);
  // A single-copy read or write failed with status (ShmArea::read_from's): fails the call.
  int transfer_failed(int status);

  const ShmFast::Env& env_;
  const Communicator& comm_;
  ShmArea& area_;
  int me_, size_;
  uint64_t sequence_ = 0;
  uint64_t announcements_ = 0;
  InstanceTable::Context* slot_ = nullptr;
  bool wake_owed_ = false;  // a flag was stored since the last wake (pay_wake)
  // A single-copy call's waits spin this long after the short spin (0: they do not), sized by
  // the copy the members waited for make (shm_single_copy::spin_ns); 0 when oversubscribed.
  uint64_t copy_spin_ns_ = 0;
};

// Sum (or op) of the members' vectors of count elements at offset in their cells (or inline
// slots) of buffer into target.
void reduce_cells(const ShmArea& area, bool small, int op, int type, size_t extent, uint8_t* target,
                  int buffer, size_t offset, size_t count) {
  const size_t bytes = count * extent;
  if (bytes == 0) return;
  std::memcpy(target, area.cell(0, buffer, small) + offset, bytes);
  for (int rank = 1; rank < area.size(); ++rank)
    rma::apply_op(op, type, target, area.cell(rank, buffer, small) + offset, count);
}

// One call: its rounds, described by the operation and arguments (see shm.cpp for each).
class ShmFastRun : ShmCall {
 public:
  ShmFastRun(const ShmFast::Env& env, const Communicator& comm, ShmArea& area, Operation operation,
             const CollectiveArgs& args)
      : ShmCall(env, comm, area), operation_(operation), args_(args) {}

  int run(uint32_t signature);

 private:
  // The plan of the operation.
  void plan();
  // Whether the operation is single-copy (then plans it: coll/shm_single_copy.hpp).
  bool plan_single_copy();
  bool publishes(size_t k) const;
  int wait_for(size_t k) const;
  bool consumes(size_t k) const;
  bool others_publish(size_t k) const;
  void publish(size_t k, uint8_t* cell);
  void consume(size_t k, int buffer);

  const uint8_t* input() const {
    return static_cast<const uint8_t*>(args_.in_place ? args_.recv : args_.send);
  }
  uint8_t* recv() const { return static_cast<uint8_t*>(args_.recv); }
  void reduce_cells(uint8_t* target, int buffer, size_t offset, size_t count) const {
    coll::reduce_cells(area_, small_, args_.op, args_.type, args_.extent, target, buffer, offset,
                       count);
  }
  // Slice s of a chunk of count elements, as even_blocks splits it.
  void slice(size_t count, size_t s, size_t* offset, size_t* bytes) const {
    const auto parts = static_cast<size_t>(size_);
    const size_t base = count / parts, extra = count % parts;
    const size_t first = s * base + std::min(s, extra);
    *offset = first * args_.extent;
    *bytes = (base + (s < extra ? 1 : 0)) * args_.extent;
  }

  Operation operation_;
  const CollectiveArgs& args_;
  size_t rounds_ = 0;
  // reduction: root (-1 for allreduce), flat or chunked; reduce_scatter, allgather, scatter,
  // alltoall: piece (elements per block and round); bcast, gather, scatter: root.
  int root_ = -1;
  // single-copy (coll/shm_single_copy.hpp): rounds_ rounds, the last without transfers
  bool single_copy_ = false;
  const void* source_ = nullptr;  // single-copy: the published input
  int transfer_status_ = 0;       // a single-copy read failed (its message is the last error)
  bool flat_ = true;
  bool small_ = false;  // the rounds' data are inline (ShmArea::kInlineBytes), as in shm.cpp
                        // (reductions, gather, scatter)
  size_t per_chunk_ = 0, piece_ = 0, largest_ = 0, total_ = 0;
  // scatter: where block `rank` starts in the root's cell or slot (elements): inline side by side
  // (rank * count), in the cell at its piece without one for the root (ShmArea::alltoall_index).
  size_t scatter_at(int rank) const {
    return small_ ? static_cast<size_t>(rank) * args_.count
                  : ShmArea::alltoall_index(rank, root_) * piece_;
  }
  std::vector<uint8_t> held_;          // chunked reduction: this rank's reduced slice
  std::vector<size_t> displs_;         // reduce_scatter: block displacements
  std::vector<uint8_t> input_copy_;    // reduce_scatter in place with uneven blocks; alltoall
                                       // in place
  const uint8_t* rs_input_ = nullptr;  // reduce_scatter / allgather / alltoall input
  const std::vector<size_t>* in_displs_ = nullptr;  // alltoall: the input's block displacements
};

// gatherv, scatterv, alltoallv: the rounds of coll/shm_vforms.hpp, as vector_rounds in
// algorithms/shm.cpp lays them out for the schedule.
class ShmVectorRun : ShmCall {
 public:
  ShmVectorRun(const ShmFast::Env& env, const Communicator& comm, ShmArea& area,
               Operation operation, const CollectiveArgs& args)
      : ShmCall(env, comm, area), operation_(operation), args_(args) {}

  int run(uint32_t signature) {
    int status = begin(signature);
    if (status == REMORA_SUCCESS) status = rounds();
    end();
    return status;
  }

 private:
  int rounds() {
    const ShmVectorPlan plan(area_, operation_, args_, sequence_);
    if (!env_.oversubscribed) copy_spin_ns_ = shm_single_copy::spin_ns_for(plan.direct_total());
    plan.copy_own();
    const size_t rounds = plan.rounds();
    if (rounds == 0) finish_past();
    for (size_t k = 0; k < rounds; ++k) {
      const int buffer = buffer_of(k, false), who = plan.wait_for(k);
      const bool last = k + 1 == rounds, reads = who != ShmArea::kNoRank;
      const auto publish = [&](uint8_t*) { plan.publish(k, buffer); };
      if (int status =
              start_round_writing(k, plan.small(k), plan.writes(k), who, publish, last && !reads))
        return status;
      if (!reads) continue;
      plan.consume(k, buffer);
      if (int failed = plan.transfer(k)) return transfer_failed(failed);
      if (last)
        finish_past();
      else
        finish_round(k, true);
    }
    return REMORA_SUCCESS;
  }

  Operation operation_;
  const CollectiveArgs& args_;
};

bool ShmFast::run(const Env& env, const Communicator& comm, ShmArea& area, Operation operation,
                  const CollectiveArgs& args, uint32_t signature, int* status) {
  if (area.pending_count_.load(std::memory_order_acquire) != 0) return false;
  if (ShmVectorPlan::serves(operation, args)) {
    ShmVectorRun call(env, comm, area, operation, args);
    *status = call.run(signature);
    return true;
  }
  ShmFastRun call(env, comm, area, operation, args);
  *status = call.run(signature);
  return true;
}

void ShmFastRun::plan() {
  if (plan_single_copy()) return;
  switch (operation_) {
    case Operation::Barrier:
      rounds_ = 1;
      break;
    case Operation::Bcast:
      root_ = args_.root;
      small_ = args_.count * args_.extent <= ShmArea::kInlineBytes;
      rounds_ = chunks_of(args_.count * args_.extent, kCell);
      break;
    case Operation::Reduce:
    case Operation::Allreduce: {
      root_ = operation_ == Operation::Reduce ? args_.root : -1;
      const size_t bytes = args_.count * args_.extent;
      flat_ = bytes <= kFlatBytes;
      small_ = bytes <= ShmArea::kInlineBytes;
      if (flat_) {
        rounds_ = bytes == 0 ? 0 : 1;
      } else {
        per_chunk_ = kCell / args_.extent;
        rounds_ = 2 * chunks_of(args_.count, per_chunk_);
        size_t offset = 0, slice_bytes = 0;
        slice(std::min(per_chunk_, args_.count), static_cast<size_t>(me_), &offset, &slice_bytes);
        held_.resize(slice_bytes);
      }
      break;
    }
    case Operation::ReduceScatter: {
      for (size_t count : args_.recv_counts) {
        displs_.push_back(total_);
        total_ += count;
        largest_ = std::max(largest_, count);
      }
      small_ = ShmArea::reduce_scatter_small(size_, largest_, args_.extent);
      piece_ = small_ ? largest_ : kCell / (static_cast<size_t>(size_) * args_.extent);
      if (largest_ == 0 || piece_ == 0) break;
      rs_input_ = input();
      bool uniform = true;
      for (size_t count : args_.recv_counts) uniform = uniform && count == largest_;
      if (args_.in_place && !uniform) {
        input_copy_.assign(rs_input_, rs_input_ + total_ * args_.extent);
        rs_input_ = input_copy_.data();
      }
      rounds_ = chunks_of(largest_, piece_);
      break;
    }
    case Operation::Allgather: {
      for (size_t count : args_.recv_counts) largest_ = std::max(largest_, count);
      piece_ = kCell / args_.extent;
      if (largest_ == 0) break;
      const auto mine = static_cast<size_t>(me_);
      rs_input_ = args_.in_place ? recv() + args_.recv_displs[mine] * args_.extent
                                 : static_cast<const uint8_t*>(args_.send);
      rounds_ = chunks_of(largest_, piece_);
      break;
    }
    case Operation::Gather:
      root_ = args_.root;
      small_ = args_.count * args_.extent <= ShmArea::kInlineBytes;
      rounds_ = chunks_of(args_.count * args_.extent, kCell);
      break;
    case Operation::Scatter:
      root_ = args_.root;
      piece_ = ShmArea::alltoall_piece(size_, args_.extent);
      if (args_.count == 0 || piece_ == 0) break;
      small_ = static_cast<size_t>(size_) * args_.count * args_.extent <= ShmArea::kInlineBytes;
      rounds_ = chunks_of(args_.count, piece_);
      break;
    case Operation::Alltoall: {
      const size_t count = args_.recv_counts.empty() ? 0 : args_.recv_counts[0];
      piece_ = ShmArea::alltoall_piece(size_, args_.extent);
      if (count == 0 || piece_ == 0) break;
      rs_input_ = static_cast<const uint8_t*>(args_.send);
      in_displs_ = args_.in_place ? &args_.recv_displs : &args_.send_displs;
      if (args_.in_place) {
        // The input is recvbuf, which the rounds overwrite: work from a copy of it.
        size_t total = 0;
        for (size_t rank = 0; rank < args_.recv_counts.size(); ++rank)
          total =
              std::max(total, (args_.recv_displs[rank] + args_.recv_counts[rank]) * args_.extent);
        input_copy_.assign(recv(), recv() + total);
        rs_input_ = input_copy_.data();
      }
      rounds_ = chunks_of(count, piece_);
      break;
    }
    default:
      break;
  }
}

bool ShmFastRun::plan_single_copy() {
  rounds_ = shm_single_copy::rounds(area_, operation_, args_);
  if (rounds_ == 0) return false;
  single_copy_ = true;
  small_ = true;
  if (!env_.oversubscribed) copy_spin_ns_ = shm_single_copy::spin_ns(area_, operation_, args_);
  const bool rooted = operation_ == Operation::Bcast || operation_ == Operation::Reduce ||
                      operation_ == Operation::Gather || operation_ == Operation::Scatter;
  root_ = rooted ? args_.root : -1;
  source_ = shm_single_copy::source(operation_, args_, me_, &input_copy_);
  return true;
}

bool ShmFastRun::publishes(size_t k) const {
  if (single_copy_) return shm_single_copy::publishes(area_, operation_, root_, k);
  switch (operation_) {
    case Operation::Barrier:
      return false;
    case Operation::Bcast:
      return me_ == root_;
    case Operation::Scatter:
      return me_ == root_;
    case Operation::Gather:
      return me_ != root_;
    default:
      (void)k;
      return true;
  }
}

int ShmFastRun::wait_for(size_t k) const {
  if (single_copy_) return shm_single_copy::wait_for(area_, operation_, root_, k);
  switch (operation_) {
    case Operation::Bcast:
      return me_ == root_ ? ShmArea::kNoRank : root_;
    case Operation::Scatter:
      return me_ == root_ ? ShmArea::kNoRank : root_;
    case Operation::Gather:
      return me_ == root_ ? ShmArea::kAllRanks : ShmArea::kNoRank;
    case Operation::Reduce: {
      const bool result_here = me_ == root_;
      // Chunked: the scatter rounds (even k) need everyone; the gather rounds only the root.
      if (!flat_ && k % 2 == 0) return ShmArea::kAllRanks;
      return result_here ? ShmArea::kAllRanks : ShmArea::kNoRank;
    }
    default:
      return ShmArea::kAllRanks;
  }
}

bool ShmFastRun::others_publish(size_t k) const {
  // Single copy: round 0's addresses (rooted: only the root's, which the root does not read).
  if (single_copy_)
    return k == 0 && shm_single_copy::wait_for(area_, operation_, root_, k) != ShmArea::kNoRank;
  switch (operation_) {
    case Operation::Barrier:
      return false;
    case Operation::Bcast:
      return me_ != root_;
    case Operation::Scatter:
      return me_ != root_;
    case Operation::Gather:
      // Every rank but the root publishes: a rank that does not read them still stores done
      // when others published (their next wait to reuse a cell may look for it).
      return me_ == root_ || size_ > 2;
    default:
      (void)k;
      return true;
  }
}

bool ShmFastRun::consumes(size_t k) const {
  if (single_copy_) return k + 1 < rounds_;  // the last round only waits
  switch (operation_) {
    case Operation::Barrier:
      return false;
    case Operation::Bcast:
      return me_ != root_;
    case Operation::Scatter:
      return me_ != root_;
    case Operation::Gather:
      return me_ == root_;
    case Operation::Reduce:
      if (!flat_ && k % 2 == 0) return true;
      return me_ == root_;
    default:
      return true;
  }
}

void ShmFastRun::publish(size_t k, uint8_t* cell) {
  const size_t extent = args_.extent;
  if (single_copy_) return shm_single_copy::publish(cell, source_, recv());
  switch (operation_) {
    case Operation::Bcast: {
      const size_t offset = k * kCell;
      std::memcpy(cell, recv() + offset, std::min(kCell, args_.count * extent - offset));
      break;
    }
    case Operation::Reduce:
    case Operation::Allreduce: {
      if (flat_) {
        std::memcpy(cell, input(), args_.count * extent);
        break;
      }
      const size_t first = k / 2 * per_chunk_;
      const size_t count = std::min(per_chunk_, args_.count - first);
      if (k % 2 == 0) {
        std::memcpy(cell, input() + first * extent, count * extent);
      } else {
        size_t offset = 0, bytes = 0;
        slice(count, static_cast<size_t>(me_), &offset, &bytes);
        if (bytes > 0) std::memcpy(cell + offset, held_.data(), bytes);
      }
      break;
    }
    case Operation::ReduceScatter: {
      const size_t first = k * piece_;
      for (size_t block = 0; block < displs_.size(); ++block) {
        const size_t count = args_.recv_counts[block];
        if (first >= count) continue;
        std::memcpy(cell + block * piece_ * extent, rs_input_ + (displs_[block] + first) * extent,
                    std::min(piece_, count - first) * extent);
      }
      break;
    }
    case Operation::Allgather: {
      const size_t first = k * piece_;
      const size_t count = args_.recv_counts[static_cast<size_t>(me_)];
      if (first < count)
        std::memcpy(cell, rs_input_ + first * extent, std::min(piece_, count - first) * extent);
      break;
    }
    case Operation::Gather: {
      const size_t bytes = args_.count * extent, offset = k * kCell;
      std::memcpy(cell, static_cast<const uint8_t*>(args_.send) + offset,
                  std::min(kCell, bytes - offset));
      break;
    }
    case Operation::Scatter: {
      const size_t first = k * piece_, length = std::min(piece_, args_.count - first) * extent;
      const auto* send = static_cast<const uint8_t*>(args_.send);
      for (int rank = 0; rank < size_; ++rank) {
        const auto r = static_cast<size_t>(rank);
        const uint8_t* from = send + (args_.send_displs[r] + first) * extent;
        if (rank != root_)
          std::memcpy(cell + scatter_at(rank) * extent, from, length);
        else if (!args_.in_place)
          std::memcpy(recv() + first * extent, from, length);
      }
      break;
    }
    case Operation::Alltoall: {
      const size_t first = k * piece_, length = std::min(piece_, args_.recv_counts[0] - first);
      const std::vector<size_t>& displs = *in_displs_;
      for (int rank = 0; rank < size_; ++rank)
        if (rank != me_)
          std::memcpy(cell + ShmArea::alltoall_index(rank, me_) * piece_ * extent,
                      rs_input_ + (displs[static_cast<size_t>(rank)] + first) * extent,
                      length * extent);
      break;
    }
    default:
      break;
  }
}

void ShmFastRun::consume(size_t k, int buffer) {
  const size_t extent = args_.extent;
  if (single_copy_) {
    // The addresses are in round 0's inline slot, the call's.
    transfer_status_ = shm_single_copy::transfer(area_, operation_, args_, buffer_of(0, true),
                                                 &single_copy_scratch());
    return;
  }
  switch (operation_) {
    case Operation::Bcast: {
      const size_t offset = k * kCell;
      std::memcpy(recv() + offset, area_.cell(root_, buffer, small_),
                  std::min(kCell, args_.count * extent - offset));
      break;
    }
    case Operation::Reduce:
    case Operation::Allreduce: {
      if (flat_) {
        reduce_cells(recv(), buffer, 0, args_.count);
        break;
      }
      const size_t first = k / 2 * per_chunk_;
      const size_t count = std::min(per_chunk_, args_.count - first);
      if (k % 2 == 0) {
        size_t offset = 0, bytes = 0;
        slice(count, static_cast<size_t>(me_), &offset, &bytes);
        reduce_cells(held_.data(), buffer, offset, bytes / extent);
      } else {
        uint8_t* target = recv() + first * extent;
        for (int rank = 0; rank < size_; ++rank) {
          size_t offset = 0, bytes = 0;
          slice(count, static_cast<size_t>(rank), &offset, &bytes);
          if (bytes > 0) std::memcpy(target + offset, area_.cell(rank, buffer) + offset, bytes);
        }
      }
      break;
    }
    case Operation::ReduceScatter: {
      const size_t first = k * piece_;
      const auto mine = static_cast<size_t>(me_);
      const size_t count = args_.recv_counts[mine];
      if (first >= count) break;
      reduce_cells(recv() + first * extent, buffer, mine * piece_ * extent,
                   std::min(piece_, count - first));
      break;
    }
    case Operation::Allgather: {
      const size_t first = k * piece_;
      for (int rank = 0; rank < size_; ++rank) {
        const auto r = static_cast<size_t>(rank);
        const size_t count = args_.recv_counts[r];
        if (first >= count) continue;
        std::memcpy(recv() + (args_.recv_displs[r] + first) * extent, area_.cell(rank, buffer),
                    std::min(piece_, count - first) * extent);
      }
      break;
    }
    case Operation::Gather: {
      const size_t offset = k * kCell, length = std::min(kCell, args_.count * extent - offset);
      for (int rank = 0; rank < size_; ++rank) {
        uint8_t* target = recv() + args_.recv_displs[static_cast<size_t>(rank)] * extent + offset;
        if (rank != root_)
          std::memcpy(target, area_.cell(rank, buffer, small_), length);
        else if (!args_.in_place)
          std::memcpy(target, static_cast<const uint8_t*>(args_.send) + offset, length);
      }
      break;
    }
    case Operation::Scatter: {
      const size_t first = k * piece_, length = std::min(piece_, args_.count - first);
      std::memcpy(recv() + first * extent,
                  area_.cell(root_, buffer, small_) + scatter_at(me_) * extent, length * extent);
      break;
    }
    case Operation::Alltoall: {
      const size_t first = k * piece_, length = std::min(piece_, args_.recv_counts[0] - first);
      for (int rank = 0; rank < size_; ++rank) {
        const auto r = static_cast<size_t>(rank);
        uint8_t* target = recv() + (args_.recv_displs[r] + first) * extent;
        if (rank != me_)
          std::memcpy(
              target,
              area_.cell(rank, buffer) + ShmArea::alltoall_index(me_, rank) * piece_ * extent,
              length * extent);
        else if (!args_.in_place)
          std::memcpy(target, rs_input_ + ((*in_displs_)[r] + first) * extent, length * extent);
      }
      break;
    }
    default:
      break;
  }
}

int ShmCall::transfer_failed(int status) {
  if (status != ShmArea::kMemberGone) return fail_call(status, last_error(), true);
  // A member's process is gone (it died): wait, as for a dead member's flags, for the end of
  // the job or a notice; after a second this call fails and tells the others. The member a
  // transfer found gone (allgather and alltoall read from every member).
  const int gone_rank = area_.gone_member();
  status = wait([&](int* gone) {
    *gone = gone_rank;
    return -1;
  });
  if (status == REMORA_SUCCESS)
    status = fail_call(REMORA_ERR_ARG, "a member's process is gone", true);
  return status;
}

int ShmCall::fail_call(int code, const std::string& message, bool tell_others) {
  pay_wake();
  if (tell_others) env_.messenger.notify(comm_.context(), sequence_, code, message);
  area_.abandon(sequence_);
  return fail(code, "%s", message.c_str());
}

// check(&gone): 1 ready, 0 not yet, -1 member `gone` abandoned the collective. Returns 0 when
// ready, else the failure (the call has failed: notice, abandonment, timeout or abort).
template <typename Check>
int ShmCall::wait(const Check& check) {
  int gone = -1;
  int first = 0;
  const int spins = env_.oversubscribed ? kSpinsOversubscribed : kSpins;
  const int unpaused = env_.oversubscribed ? 0 : kChecksWithoutPause;
  for (int spin = 0; spin < spins; ++spin) {
    first = check(&gone);
    if (first > 0) return REMORA_SUCCESS;
    if (first < 0) break;
    if (spin >= unpaused) cpu_relax();
  }
  pay_wake();  // before this wait may take long: members may sleep for this call's flags
  if (first == 0 && copy_spin_ns_ > 0) {
    // A member waited for copies a known amount between the rounds (single copy): spin about
    // as long as that copy takes, since a sleeper's wake-up (on a virtual machine, tens of
    // microseconds) would come after it, and its partner's next wait would outlast the short
    // spin and sleep too, call after call. Bounded, and only when not oversubscribed.
    const uint64_t begin = now_ns();
    for (unsigned i = 1;; ++i) {
      cpu_relax();
      first = check(&gone);
      if (first != 0) break;
      if (i % kClockChecks == 0 && now_ns() - begin >= copy_spin_ns_) break;
    }
    if (first > 0) return REMORA_SUCCESS;
  }
  if (first == 0 && env_.yield_ns > 0) {
    const uint64_t begin = now_ns();
    for (unsigned i = 1;; ++i) {
      {
        threads::Unlocked unlocked;
        sched_yield();
      }
      env_.progress.poll();
      first = check(&gone);
      if (first > 0) return REMORA_SUCCESS;
      if (first < 0 || env_.messenger.instances().announcements() != announcements_) break;
      if (i % 4 == 0 && now_ns() - begin >= env_.yield_ns) break;
    }
  }
  InstanceTable& instances = env_.messenger.instances();
  const auto start = std::chrono::steady_clock::now();
  auto abandon_deadline = std::chrono::steady_clock::time_point::max();
  unsigned checks = 0;
  int outcome = 0;  // 1 ready; < 0 failed
  const int status = env_.progress.wait([&] {
    if (outcome != 0) return true;
    const int ready = check(&gone);
    if (ready > 0) {
      outcome = 1;
      return true;
    }
    // An error notice for this collective: the failure it names ends the call here.
    const uint64_t announced = instances.announcements();
    if (announced != announcements_) {
      announcements_ = announced;
      Failure failure = instances.announced(comm_.context(), sequence_);
      if (failure.code != 0) {
        outcome = fail_call(failure.code, failure.message, false);
        return true;
      }
    }
    if (ready < 0) {
      // The member that abandoned it (or the one whose error made it do so) sends a notice
      // that names the cause; failing here is the fallback.
      const auto now = std::chrono::steady_clock::now();
      if (abandon_deadline == std::chrono::steady_clock::time_point::max())
        abandon_deadline = now + std::chrono::seconds(1);
      if (now >= abandon_deadline) {
        outcome =
            fail_call(REMORA_ERR_ARG,
                      format("rank %d of the communicator failed this collective", gone), true);
        return true;
      }
    }
    if (env_.timeout.count() != 0 && (++checks & 63) == 0 &&
        std::chrono::steady_clock::now() - start >= env_.timeout) {
      const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(env_.timeout).count();
      outcome = fail_call(
          REMORA_ERR_ARG,
          format("no step of this collective finished for %lld s (REMORA_COLL_TIMEOUT); rank %d "
                 "of the communicator still waits in the shared area (shm) for other ranks: the "
                 "ranks may disagree on the root, the operation or the algorithm, or a rank did "
                 "not make this call",
                 static_cast<long long>(seconds), comm_.rank()),
          true);
      return true;
    }
    return false;
  });
  if (status != REMORA_SUCCESS) return status;  // the job aborts
  return outcome > 0 ? REMORA_SUCCESS : outcome;
}

int ShmCall::begin(uint32_t signature) {
  InstanceTable& instances = env_.messenger.instances();
  announcements_ = instances.announcements();
  slot_ = area_.instance_slot(instances, comm_.context());
  sequence_ = InstanceTable::take_unscheduled(slot_, signature);
  if (InstanceTable::future_announced(slot_)) return begin_announced();
  return REMORA_SUCCESS;
}

int ShmCall::begin_announced() {
  const Failure announced = env_.messenger.instances().take_announced(slot_, sequence_);
  if (announced.code != 0) return fail_call(announced.code, announced.message, false);
  return REMORA_SUCCESS;
}

template <typename Publish>
int ShmCall::start_round(size_t k, bool small, bool publishes, int who, const Publish& publish,
                         bool past) {
  const unsigned writes = !publishes ? 0 : small ? ShmArea::kSlotData : ShmArea::kCellData;
  return start_round_writing(k, small, writes, who, publish, past);
}

template <typename Publish>
int ShmCall::start_round_writing(size_t k, bool small, unsigned writes, int who,
                                 const Publish& publish, bool past) {
  const int cell_buffer = buffer_of(k, false), slot = buffer_of(k, true);
  const uint64_t id = round_id(k);
  if (writes != 0) {
    for (uint64_t last; (last = area_.unreleased(writes, cell_buffer, slot)) != 0;) {
      // A slot still read (this member ran a ring ahead of a reader): wait until half the ring
      // is free, so that the next kSlots / 2 calls find their slots released by what this
      // check saw (ShmArea::passed_) instead of each reading the reader's flags, a line the
      // reader has just written. The reader passes that round without this member's help: it
      // is in an earlier call, all of whose rounds this member has published.
      uint64_t until = last;
      if ((writes & ShmArea::kSlotData) != 0 && last == area_.last_slot_[slot])
        until = std::max(last, (sequence_ + 1 - ShmArea::kSlots / 2) << 24 | 1);
      if (int status = wait([&](int*) { return area_.released(until) ? 1 : 0; })) return status;
    }
    publish(area_.cell(me_, small ? slot : cell_buffer, small));
  }
  area_.publish(id, past ? past_id() : id, writes, cell_buffer, slot, false);
  wake_owed_ = true;
  if (who == ShmArea::kNoRank) return REMORA_SUCCESS;
  // Of the spin's checks of an inline round, one in kSlotOnlyChecks also looks at arrive.
  unsigned checks = 0;
  return wait([&](int* gone) {
    const bool slot_only = small && (++checks % kSlotOnlyChecks) != 0;
    return area_.arrived(who, id, gone, small, slot, slot_only);
  });
}

int ShmFastRun::run(uint32_t signature) {
  int status = begin(signature);
  if (status == REMORA_SUCCESS) {
    plan();
    for (size_t k = 0; k < rounds_ && status == REMORA_SUCCESS; ++k) {
      const int buffer = buffer_of(k, small_);
      status = start_round(k, small_, publishes(k), wait_for(k),
                           [&](uint8_t* cell) { publish(k, cell); });
      if (status != REMORA_SUCCESS) break;
      if (consumes(k)) consume(k, buffer);
      if (transfer_status_ != 0) {
        status = transfer_failed(transfer_status_);
        break;
      }
      finish_round(k, others_publish(k));
    }
  }
  end();
  return status;
}

// A small call (ShmFast::small_serves): the one round ShmFastRun::plan would plan for it (the
// same cells, inline slots and flags), without the plan: each operation's round as straight code.
class ShmSmallRun : ShmCall {
 public:
  ShmSmallRun(const ShmFast::Env& env, const Communicator& comm, ShmArea& area,
              const ShmFast::Small& args)
      : ShmCall(env, comm, area), args_(args) {}

  int run(Operation operation, uint32_t signature) {
    int status = begin(signature);
    if (status == REMORA_SUCCESS) status = round(operation);
    end();
    return status;
  }

 private:
  int round(Operation operation);
  int gatherv();
  int scatterv();
  int allgather();
  int alltoallv();
  bool others_empty() const;  // the root's counts of the other ranks are all 0
  const uint8_t* input() const {
    return static_cast<const uint8_t*>(args_.in_place ? args_.recv : args_.send);
  }
  uint8_t* recv() const { return static_cast<uint8_t*>(args_.recv); }

  const ShmFast::Small& args_;
};

// gatherv with every block inline (ShmVectorPlan's round 0, the only one): a rank publishes
// its block in the call's inline slot and stores its past mark with it; the root waits for all
// and copies the blocks out, then stores its past mark. A member without data (a rank with an
// empty block; the root when every other block is empty) only stores its past mark.
int ShmSmallRun::gatherv() {
  const size_t extent = args_.extent;
  const auto* send = static_cast<const uint8_t*>(args_.send);
  const int slot = buffer_of(0, true);
  if (me_ != args_.root) {
    const size_t bytes = args_.count * extent;
    if (bytes == 0) {
      finish_past();
      return REMORA_SUCCESS;
    }
    const auto publish = [&](uint8_t* cell) { std::memcpy(cell, send, bytes); };
    return start_round_writing(0, true, ShmArea::kSlotData, ShmArea::kNoRank, publish, true);
  }
  const auto mine = static_cast<size_t>(me_);
  if (!args_.in_place && args_.count != 0)
    std::memcpy(recv() + args_.displs[mine] * extent, send, args_.count * extent);
  if (others_empty()) {
    finish_past();
    return REMORA_SUCCESS;
  }
  // A member with an empty block publishes no slot, only its past mark: then look at arrive on
  // every check (the slot-first spin looks at it on few, ShmVectorPlan::small).
  bool every_slot = true;
  for (size_t r = 0; r < static_cast<size_t>(size_); ++r)
    every_slot = every_slot && (r == mine || args_.counts[r] != 0);
  if (int status = start_round_writing(
          0, every_slot, 0, ShmArea::kAllRanks, [](uint8_t*) {}, false))
    return status;
  for (size_t r = 0; r < static_cast<size_t>(size_); ++r)
    if (r != mine && args_.counts[r] != 0)
      std::memcpy(recv() + args_.displs[r] * extent, area_.cell(static_cast<int>(r), slot, true),
                  args_.counts[r] * extent);
  finish_past();
  return REMORA_SUCCESS;
}

// scatterv with every block inline: the root publishes block r at r * (kInlineBytes / p /
// extent) elements of its inline slot with its past mark; rank r waits for it and copies its
// block out, then stores its past mark.
int ShmSmallRun::scatterv() {
  const size_t extent = args_.extent;
  const auto ranks = static_cast<size_t>(size_);
  const size_t stride = ShmFast::elements_in(ShmArea::kInlineBytes / ranks, extent) * extent;
  const auto* send = static_cast<const uint8_t*>(args_.send);
  const int root = args_.root, slot = buffer_of(0, true);
  const auto mine = static_cast<size_t>(me_);
  if (me_ != root) {
    if (args_.count == 0) {
      finish_past();
      return REMORA_SUCCESS;
    }
    if (int status = start_round_writing(
            0, true, 0, root, [](uint8_t*) {}, false))
      return status;
    std::memcpy(recv(), area_.cell(root, slot, true) + mine * stride, args_.count * extent);
    finish_past();
    return REMORA_SUCCESS;
  }
  if (!args_.in_place && args_.count != 0)
    std::memcpy(recv(), send + args_.displs[mine] * extent, args_.count * extent);
  if (others_empty()) {
    finish_past();
    return REMORA_SUCCESS;
  }
  const auto publish = [&](uint8_t* cell) {
    for (size_t r = 0; r < ranks; ++r)
      if (r != mine && args_.counts[r] != 0)
        std::memcpy(cell + r * stride, send + args_.displs[r] * extent, args_.counts[r] * extent);
  };
  return start_round_writing(0, true, ShmArea::kSlotData, ShmArea::kNoRank, publish, true);
}

// allgather(v): every block in its rank's cell (ShmFastRun's one round of blocks up to a cell);
// no round when every block is empty.
int ShmSmallRun::allgather() {
  const size_t extent = args_.extent;
  const auto ranks = static_cast<size_t>(size_);
  const auto mine = static_cast<size_t>(me_);
  const auto count_of = [&](size_t r) { return args_.vector_form ? args_.counts[r] : args_.count; };
  const auto displ_of = [&](size_t r) {
    return args_.vector_form ? args_.displs[r] : r * args_.count;
  };
  size_t largest = 0;
  for (size_t r = 0; r < ranks; ++r) largest = std::max(largest, count_of(r));
  if (largest == 0) return REMORA_SUCCESS;
  const size_t bytes = count_of(mine) * extent;
  const uint8_t* in =
      args_.in_place ? recv() + displ_of(mine) * extent : static_cast<const uint8_t*>(args_.send);
  const auto publish = [&](uint8_t* cell) {
    if (bytes != 0) std::memcpy(cell, in, bytes);
  };
  if (int status = start_round(0, false, true, ShmArea::kAllRanks, publish)) return status;
  const int buffer = buffer_of(0, false);
  for (size_t r = 0; r < ranks; ++r)
    if ((r != mine || !args_.in_place) && count_of(r) != 0)
      std::memcpy(recv() + displ_of(r) * extent, area_.cell(static_cast<int>(r), buffer),
                  count_of(r) * extent);
  finish_round(0, true);
  return REMORA_SUCCESS;
}

// alltoallv with every block within its piece of a cell (ShmVectorPlan's one round): rank s
// publishes its block for d at piece ShmArea::alltoall_index(d, s) of its cell (none for
// itself), d reads it there from every s that sends
// it something; then each stores its past mark. A member with nothing to send or receive
// stores only that. In place the blocks are read into the cell before any is overwritten.
int ShmSmallRun::alltoallv() {
  const size_t extent = args_.extent;
  const auto ranks = static_cast<size_t>(size_);
  const auto mine = static_cast<size_t>(me_);
  const size_t piece = ShmVectorPlan::piece_of(size_, extent) * extent;
  const size_t* sent = args_.in_place ? args_.counts : args_.send_counts;
  const size_t* sent_displs = args_.in_place ? args_.displs : args_.send_displs;
  const uint8_t* in = args_.in_place ? recv() : static_cast<const uint8_t*>(args_.send);
  bool sends = false, reads = false;
  for (size_t r = 0; r < ranks; ++r) {
    sends = sends || (r != mine && sent[r] != 0);
    reads = reads || (r != mine && args_.counts[r] != 0);
  }
  if (!args_.in_place && args_.counts[mine] != 0)
    std::memcpy(recv() + args_.displs[mine] * extent, in + sent_displs[mine] * extent,
                args_.counts[mine] * extent);
  if (!sends && !reads) {
    finish_past();
    return REMORA_SUCCESS;
  }
  const auto publish = [&](uint8_t* cell) {
    for (size_t r = 0; r < ranks; ++r)
      if (r != mine && sent[r] != 0)
        std::memcpy(cell + ShmArea::alltoall_index(static_cast<int>(r), me_) * piece,
                    in + sent_displs[r] * extent, sent[r] * extent);
  };
  const unsigned writes = sends ? ShmArea::kCellData : 0;
  const int who = reads ? ShmArea::kAllRanks : ShmArea::kNoRank;
  if (int status = start_round_writing(0, false, writes, who, publish, !reads)) return status;
  if (!reads) return REMORA_SUCCESS;
  const int buffer = buffer_of(0, false);
  for (size_t r = 0; r < ranks; ++r)
    if (r != mine && args_.counts[r] != 0)
      std::memcpy(recv() + args_.displs[r] * extent,
                  area_.cell(static_cast<int>(r), buffer) +
                      ShmArea::alltoall_index(me_, static_cast<int>(r)) * piece,
                  args_.counts[r] * extent);
  finish_past();
  return REMORA_SUCCESS;
}

bool ShmSmallRun::others_empty() const {
  for (int r = 0; r < size_; ++r)
    if (r != me_ && args_.counts[static_cast<size_t>(r)] != 0) return false;
  return true;
}

int ShmSmallRun::round(Operation operation) {
  // The flags need release (arrive) and acquire (arrived) only: whatever a member did before
  // its barrier happens before what the others do after seeing its flag. The call's full
  // barriers are elsewhere: the sequence number's locked exchange (InstanceTable) and the
  // wake's fence (pay_wake: a store-load pair with a member that announces its sleep and then
  // looks at the flag; without it both could miss the other's store). Tested first: the
  // cheapest call, and the one most often made.
  if (operation == Operation::Barrier)
    return start_round(0, false, false, ShmArea::kAllRanks, [](uint8_t*) {});
  const size_t extent = args_.extent, bytes = args_.count * extent;
  const int root = args_.root;
  const bool at_root = me_ == root;
  const int slot = buffer_of(0, true);
  if (args_.vector_form && operation == Operation::Alltoall) return alltoallv();
  if (args_.vector_form && operation != Operation::Allgather)
    return operation == Operation::Gather ? gatherv() : scatterv();
  switch (operation) {
    case Operation::Bcast: {
      if (bytes == 0) return REMORA_SUCCESS;
      const int who = at_root ? ShmArea::kNoRank : root;
      const auto publish = [&](uint8_t* cell) { std::memcpy(cell, recv(), bytes); };
      if (int status = start_round(0, true, at_root, who, publish)) return status;
      if (!at_root) std::memcpy(recv(), area_.cell(root, slot, true), bytes);
      finish_round(0, !at_root);
      return REMORA_SUCCESS;
    }
    case Operation::Reduce:
    case Operation::Allreduce: {
      if (bytes == 0) return REMORA_SUCCESS;
      const bool result_here = operation == Operation::Allreduce || at_root;
      const auto publish = [&](uint8_t* cell) { std::memcpy(cell, input(), bytes); };
      const int who = result_here ? ShmArea::kAllRanks : ShmArea::kNoRank;
      if (int status = start_round(0, true, true, who, publish)) return status;
      if (result_here)
        reduce_cells(area_, true, args_.op, args_.type, extent, recv(), slot, 0, args_.count);
      finish_round(0, true);
      return REMORA_SUCCESS;
    }
    case Operation::Gather: {
      if (bytes == 0) return REMORA_SUCCESS;
      const auto* send = static_cast<const uint8_t*>(args_.send);
      const auto publish = [&](uint8_t* cell) { std::memcpy(cell, send, bytes); };
      const int who = at_root ? ShmArea::kAllRanks : ShmArea::kNoRank;
      if (int status = start_round(0, true, !at_root, who, publish)) return status;
      if (at_root)
        for (int rank = 0; rank < size_; ++rank) {
          uint8_t* target = recv() + static_cast<size_t>(rank) * bytes;
          if (rank != root)
            std::memcpy(target, area_.cell(rank, slot, true), bytes);
          else if (!args_.in_place)
            std::memcpy(target, send, bytes);
        }
      finish_round(0, at_root || size_ > 2);
      return REMORA_SUCCESS;
    }
    case Operation::Scatter: {
      if (bytes == 0) return REMORA_SUCCESS;
      // Inline when all blocks fit there (then packed), else in the cell at pieces of
      // ShmArea::alltoall_piece elements, none for the root, as ShmFastRun::plan lays them out.
      const auto ranks = static_cast<size_t>(size_);
      const bool small = ranks * bytes <= ShmArea::kInlineBytes;
      const size_t piece = ShmArea::alltoall_piece(size_, extent) * extent;
      const auto at = [&](int rank) {
        return small ? static_cast<size_t>(rank) * bytes
                     : ShmArea::alltoall_index(rank, root) * piece;
      };
      const auto* send = static_cast<const uint8_t*>(args_.send);
      const auto publish = [&](uint8_t* cell) {
        for (int rank = 0; rank < size_; ++rank) {
          const uint8_t* from = send + static_cast<size_t>(rank) * bytes;
          if (rank != root)
            std::memcpy(cell + at(rank), from, bytes);
          else if (!args_.in_place)
            std::memcpy(recv(), from, bytes);
        }
      };
      const int who = at_root ? ShmArea::kNoRank : root;
      if (int status = start_round(0, small, at_root, who, publish)) return status;
      if (!at_root)
        std::memcpy(recv(), area_.cell(root, buffer_of(0, small), small) + at(me_), bytes);
      finish_round(0, !at_root);
      return REMORA_SUCCESS;
    }
    case Operation::ReduceScatter: {
      // Block form: block r at r * (cell / (size * extent)) elements of every cell, or with
      // every block inline packed in the slot, as ShmFastRun::plan lays them out.
      if (bytes == 0) return REMORA_SUCCESS;
      const auto ranks = static_cast<size_t>(size_);
      const bool small = ShmArea::reduce_scatter_small(size_, args_.count, extent);
      const size_t stride = small ? bytes : ShmArea::kCellBytes / (ranks * extent) * extent;
      const uint8_t* in = input();
      const auto publish = [&](uint8_t* cell) {
        if (small)
          std::memcpy(cell, in, ranks * bytes);
        else
          for (size_t block = 0; block < ranks; ++block)
            std::memcpy(cell + block * stride, in + block * bytes, bytes);
      };
      if (int status = start_round(0, small, true, ShmArea::kAllRanks, publish)) return status;
      reduce_cells(area_, small, args_.op, args_.type, extent, recv(), buffer_of(0, small),
                   static_cast<size_t>(me_) * stride, args_.count);
      finish_round(0, true);
      return REMORA_SUCCESS;
    }
    case Operation::Allgather:
      return allgather();
    case Operation::Alltoall: {
      // Rank s's block for d at ShmArea::alltoall_index(d, s) pieces of s's cell, its own
      // block straight to its result, as ShmFastRun lays out its one round. In place the input
      // is recvbuf, all read into the cell before any of it is overwritten.
      if (bytes == 0) return REMORA_SUCCESS;
      const size_t stride = ShmArea::alltoall_piece(size_, extent) * extent;
      const uint8_t* in = input();
      const auto publish = [&](uint8_t* cell) {
        for (int r = 0; r < size_; ++r)
          if (r != me_)
            std::memcpy(cell + ShmArea::alltoall_index(r, me_) * stride,
                        in + static_cast<size_t>(r) * bytes, bytes);
      };
      if (int status = start_round(0, false, true, ShmArea::kAllRanks, publish)) return status;
      const int buffer = buffer_of(0, false);
      for (int r = 0; r < size_; ++r) {
        uint8_t* target = recv() + static_cast<size_t>(r) * bytes;
        if (r != me_)
          std::memcpy(target, area_.cell(r, buffer) + ShmArea::alltoall_index(me_, r) * stride,
                      bytes);
        else if (!args_.in_place)
          std::memcpy(target, in + static_cast<size_t>(r) * bytes, bytes);
      }
      finish_round(0, true);
      return REMORA_SUCCESS;
    }
    default:
      return REMORA_SUCCESS;
  }
}

bool ShmFast::small_serves_vector(Operation operation, const Small& args, int rank, int size,
                                  size_t single_copy_bytes) {
  if (operation == Operation::Allgather) {
    // allgatherv: every member knows every block; one round when the largest fits, and not
    // single-copy (decided by the largest, coll/shm_single_copy.hpp).
    size_t largest = 0;
    for (size_t r = 0; r < static_cast<size_t>(size); ++r)
      largest = std::max(largest, args.counts[r]);
    return largest <= elements_in(kSmallScatterBytes, args.extent) &&
           (single_copy_bytes == 0 || largest * args.extent < single_copy_bytes);
  }
  if (operation == Operation::Alltoall) {
    // alltoallv: one round (ShmVectorPlan's round 0) when every block this member sends and
    // receives fits its piece of a cell and none it exchanges with another member is
    // single-copy (decided as the plan decides it).
    const auto ranks = static_cast<size_t>(size);
    const size_t piece = ShmVectorPlan::piece_of(size, args.extent);
    const size_t direct_bytes =
        ShmVectorPlan::alltoallv_direct_bytes(size, args.extent, single_copy_bytes);
    const size_t* sent = args.in_place ? args.counts : args.send_counts;
    for (size_t r = 0; r < ranks; ++r) {
      const size_t most = std::max(args.counts[r], sent[r]);
      if (most > piece) return false;
      if (static_cast<int>(r) != rank &&
          ShmVectorPlan::direct_block(most, args.extent, direct_bytes))
        return false;
    }
    return true;
  }
  // Every block inline (ShmVectorPlan::inline_block) and none single-copy (direct): the
  // member's own block, and at the root every other rank's. Counts compared, not multiplied:
  // a huge count must not wrap.
  if (operation != Operation::Gather && operation != Operation::Scatter) return false;
  const auto ranks = static_cast<size_t>(size);
  const size_t limit = operation == Operation::Gather
                           ? elements_in(ShmArea::kInlineBytes, args.extent)
                           : elements_in(ShmArea::kInlineBytes / ranks, args.extent);
  const auto fits = [&](size_t count) {
    return count <= limit && (single_copy_bytes == 0 || count * args.extent < single_copy_bytes);
  };
  if (rank != args.root) return fits(args.count);
  for (size_t r = 0; r < ranks; ++r)
    if (static_cast<int>(r) != rank && !fits(args.counts[r])) return false;
  return true;
}

bool ShmFast::run_small(const Env& env, const Communicator& comm, ShmArea& area,
                        Operation operation, const Small& args, uint32_t signature, int* status) {
  if (area.pending_count_.load(std::memory_order_acquire) != 0) return false;
  ShmSmallRun call(env, comm, area, args);
  *status = call.run(operation, signature);
  return true;
}

}  // namespace remora::coll
