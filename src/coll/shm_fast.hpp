// The blocking fast path of the shm algorithms: the same rounds as coll/algorithms/shm.cpp (the
// same cells, flags, round ids and data layout, so members that take the fast path and members
// that run the rounds as a schedule meet in the same collective), run straight in the calling
// thread without a schedule, rounds of std::function, the area's list of pending collectives or
// their mutexes.
//
// What it keeps from the schedule path:
//   - the sequence number: taken from the communicator's instance table like a schedule's, so
//     calls of both paths (and of message-based algorithms) stay numbered alike on every member;
//   - failures: a failure announced before the call (a member failed it first), an error notice
//     that arrives while it waits (the instance table counts announcements; the waiter looks
//     when the count moves), a member that abandoned the collective (its flags moved on; the
//     waiter then waits up to a second for its notice, then fails and tells the others), and
//     REMORA_COLL_TIMEOUT (no flag moved for that long: fails and tells the others). A failing
//     member abandons the sequence in the area, as a failed schedule does;
//   - waiting: a short spin on the awaited flags, then the progress engine's wait (poll, back
//     off, sleep on the wake word; stores of flags wake the members), which also ends the call
//     when the job aborts (a dead rank).
// It runs only when no schedule-driven shm collective of the communicator is pending here
// (those come first in sequence order); otherwise the caller builds the schedule.
#pragma once

#include <bit>
#include <chrono>
#include <cstdint>

#include "coll/algorithm.hpp"
#include "coll/communicator.hpp"
#include "coll/messaging.hpp"
#include "coll/shm_area.hpp"
#include "progress/progress_engine.hpp"

namespace remora::coll {

struct CollectiveArgs;

class ShmFast {
 public:
  // The operations it runs: all of the shm algorithm's (barrier, bcast, reduce, allreduce,
  // reduce_scatter, allgather, gather, scatter, alltoall; the v-forms of the last three in
  // their own rounds, coll/shm_vforms.hpp).
  static constexpr bool serves(Operation operation) {
    switch (operation) {
      case Operation::Barrier:
      case Operation::Bcast:
      case Operation::Reduce:
      case Operation::Allreduce:
      case Operation::ReduceScatter:
      case Operation::Allgather:
      case Operation::Gather:
      case Operation::Scatter:
      case Operation::Alltoall:
        return true;
      default:
        return false;
    }
  }
  // Second phase: checks with sched_yield (and a poll of the transport) between them, for up to
  // this long, before the progress engine's wait (which sleeps soon). A member that is
  // descheduled or waking from a sleep of its own usually arrives within it, and one that sleeps
  // here instead makes its partner's next wait a sleep and a wake-up too (the two then take
  // turns sleeping, call after call). yield hands the CPU to a runnable member on this one.
  static constexpr uint64_t kYieldNs = 200000;
  struct Env {
    Messenger& messenger;
    progress::ProgressEngine& progress;
    std::chrono::nanoseconds timeout;  // REMORA_COLL_TIMEOUT; 0: none
    bool oversubscribed;               // the wait policy's: the node's ranks outnumber its CPUs
    uint64_t yield_ns;                 // the yield phase of a wait (0: none)
  };
  // Runs the collective when no shm collective of comm is pending here: returns true and its
  // status in *status. Returns false, having done nothing, otherwise.
  static bool run(const Env& env, const Communicator& comm, ShmArea& area, Operation operation,
                  const CollectiveArgs& args, uint32_t signature, int* status);

  // A blocking call of a small payload in its regular form: the arguments as the application
  // gave them (no per-rank count and displacement lists).
  struct Small {
    const void* send = nullptr;  // nullptr when in place
    void* recv = nullptr;
    bool in_place = false;
    size_t count = 0;  // elements (per rank for gather, scatter and reduce_scatter_block)
    int type = 0;
    size_t extent = 0;
    int op = 0;
    int root = 0;
    // gatherv and scatterv: the root's per-rank counts and displacements (elements; nullptr
    // at the other ranks, which know only their own block, count); allgatherv's; alltoallv's
    // of the receive side (and send_counts, send_displs: of the send side, unless in place).
    bool vector_form = false;
    const size_t* counts = nullptr;
    const size_t* displs = nullptr;
    const size_t* send_counts = nullptr;
    const size_t* send_displs = nullptr;
  };
  // Payloads up to this many bytes (barrier; bcast, reduce, allreduce and gather of up to
  // ShmArea::kInlineBytes per rank; scatter of up to that much in all; reduce_scatter_block of
  // up to this much in all; allgather(v) and alltoall of up to this much per block; gatherv
  // and scatterv whose blocks all go inline, and alltoallv whose blocks take one round, as
  // coll/shm_vforms.hpp lays them out) take the small path: one round, laid out as run() lays
  // out its round, written as straight code for the operation (see docs/collectives.md).
  static constexpr size_t kSmallScatterBytes = 1024;
  // bytes / extent: a shift for every remora_datatype_t (their sizes are powers of two), where
  // a 64-bit division takes tens of cycles and a small v-form call made several.
  static size_t elements_in(size_t bytes, size_t extent) {
    return (extent & (extent - 1)) == 0 ? bytes >> std::countr_zero(extent) : bytes / extent;
  }
  // Whether the small path runs operation with these arguments for member `rank` of an area of
  // `size` ranks.
  // Inline for the regular forms (every small call asks).
  static bool small_serves(Operation operation, const Small& args, int rank, int size,
                           size_t single_copy_bytes) {
    if (args.vector_form)
      return small_serves_vector(operation, args, rank, size, single_copy_bytes);
    const size_t bytes = args.count * args.extent;
    // Single-copy calls (ShmFastRun::plan_single_copy) take the general path.
    if (single_copy_bytes != 0 && bytes != 0 && bytes >= single_copy_bytes &&
        operation != Operation::ReduceScatter)
      return false;
    switch (operation) {
      case Operation::Barrier:
        return true;
      case Operation::Bcast:
      case Operation::Reduce:
      case Operation::Allreduce:
      case Operation::Gather:
        return bytes <= ShmArea::kInlineBytes;
      case Operation::Scatter:
      case Operation::ReduceScatter:
        return bytes * static_cast<size_t>(size) <= kSmallScatterBytes;
      case Operation::Allgather:
        return bytes <= kSmallScatterBytes;
      case Operation::Alltoall:  // and one round: every block within its share of the cell
        return bytes <= kSmallScatterBytes &&
               args.count <= ShmArea::alltoall_piece(size, args.extent);
      default:
        return false;
    }
  }
  // As run(), for a call that small_serves().
  static bool run_small(const Env& env, const Communicator& comm, ShmArea& area,
                        Operation operation, const Small& args, uint32_t signature, int* status);

 private:
  // small_serves for the v-forms.
  static bool small_serves_vector(Operation operation, const Small& args, int rank, int size,
                                  size_t single_copy_bytes);
};

}  // namespace remora::coll
