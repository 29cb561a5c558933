// One segment's MPI-3 RMA window for the ranks on other nodes: created over each rank's part
// of the node's shared memory (MPI_Win_create), so that MPI and the node's shared-memory path
// reach the same bytes, and kept in a lock_all epoch for its whole life. A get of at most
// kStageMaxBytes is MPI_Get + MPI_Win_flush, as a program using MPI directly writes it (a strided
// get of such blocks: one MPI_Get per block, one MPI_Win_flush; a strided put of them: every
// block's MPI_Rput, then the waits); on an oversubscribed machine gets are MPI_Rget and a wait
// in Remora instead (WindowShared::wait_outside_mpi). A put of at most kStagedPutMaxBytes is copied
// into staging blocks and sent with MPI_Put (no wait: the copy is the origin until a flush). Larger
// puts, larger gets, fetch-add and swap are request-based (MPI_Rput, MPI_Rget, MPI_Rget_accumulate)
// and return at local completion (a put or get tests its request once under the hold of the MPI
// mutex that issued it, and waits only when that finds it incomplete), waited for with Remora's
// waiting policy rather than inside MPI, which busy-polls (staging puts of 512 B-4 KiB too made
// their bandwidth under MPICH with a progress thread 20-40x lower on this 2-core VM: the staging
// blocks' MPI_Win_flush_local_all, presumably); compare-and-swap has no request form and waits in
// MPI_Win_flush (under MPICH 4.0.2 across nodes on one machine, MPI_Win_flush_local made it 2.7 µs,
// MPI_Win_flush 1.0 µs). On an oversubscribed machine flushes and compare-and-swap settle their
// target first (WindowShared::settle), so that MPI_Win_flush does not spin while the target waits
// for a CPU. A request-based get (rget) is MPI_Get left in flight (no MPI request), joining its
// target's batch (GetBatch: the rgets to that target since its last flush, and the request of
// each of them) until the next MPI_Win_flush of the target completes them all; a test that finds
// the batch in flight sends a 1-byte probe get behind it and flushes once the probe is back (so a
// test does not wait in MPI_Win_flush for the target), and keeps the rank active
// (WindowShared::outstanding), as a wait for a request does. A wait for it flushes its target at
// once (GetBatch::done_waiting), except on an oversubscribed machine, where it tests. flush gives
// remote completion (MPI_Win_flush), and only for a target with puts or accumulates issued since
// its last flush, or rgets in flight; a window with such operations lists itself for that target
// (WindowShared::to_flush), so that a flush of one target visits only those windows.
//
// Window sizes are rounded up to a multiple of 16 bytes: MPICH 4.0.2 (ch4:ucx) sends puts and
// gets to the wrong rank's memory when a rank's window size is not (docs/running-on-clusters.md).
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "core/clock.hpp"
#include "transport/mpi/mpi_mutex.hpp"
#include "transport/transport.hpp"

namespace remora::mpi {

constexpr size_t kWindowSizeQuantum = 16;
// Gets and accumulates (without a result) of at most this many bytes take the flushed or staged
// forms (rma_accumulate.cpp); at most kStageBlocks blocks of kStageBlockBytes hold the copies until
// a flush completes them.
constexpr size_t kStageMaxBytes = size_t{16} << 10;
constexpr size_t kStageBlockBytes = size_t{64} << 10;
constexpr size_t kStageBlocks = 16;
// Puts of at most this many bytes are staged too and sent with MPI_Put (RmaWindow::staged_put);
// larger ones are MPI_Rput and a wait (staging 512 B-4 KiB puts made their bandwidth with a
// progress thread under MPICH 20-40x lower: docs/benchmarks.md).
constexpr size_t kStagedPutMaxBytes = 256;

class RmaWindow;

// What the windows of one transport share; it outlives them and their rgets' requests.
struct WindowShared {
  MpiMutex& mpi_mutex;  // serialises every MPI call (mpi_mutex.hpp)
  // Waits for a request of this rank (taking the MPI mutex only to test it).
  std::function<int(MPI_Request*)> wait;
  // Called (under the MPI mutex) while a request of this rank is outstanding across nodes: its
  // waits stay active (mpi_transport.hpp).
  std::function<void()> outstanding;
  // Under the MPI mutex: per job rank, the windows that may have operations to it outstanding
  // (each at most once; a window that has flushed since may stay listed).
  std::vector<std::vector<RmaWindow*>> to_flush;
  // Set when the machine is oversubscribed: a blocking get waits for its request in Remora's
  // waiting policy rather than in MPI_Win_flush, which busy-polls and keeps the target, often
  // queued behind this rank on its CPU, from running to serve it; and a flush (or
  // compare-and-swap) first waits there for settle(job rank) before its MPI_Win_flush.
  bool wait_outside_mpi = false;
  // Waits (without the MPI mutex) until the job rank has served what this rank sent it before
  // the call, as far as MPI shows it (MpiTransport::settle): the MPI_Win_flush that follows
  // finds the operations done rather than spinning until the target runs.
  std::function<int(int)> settle;
  // Until when (now_ns(), 0: not lately) this rank's waits take those forms although the machine
  // is not judged oversubscribed: a wait of this rank saw it preempted (MpiTransport::sleep),
  // so the rank it waits for may be queued behind it on its CPU.
  std::atomic<uint64_t> crowded_until_ns{0};
  // Whether waits go outside MPI now: wait_outside_mpi, or crowded lately (a clock read only
  // then; an expired mark is cleared).
  bool outside_mpi() {
    if (wait_outside_mpi) return true;
    uint64_t until = crowded_until_ns.load(std::memory_order_relaxed);
    if (until == 0) return false;
    if (now_ns() < until) return true;
    crowded_until_ns.compare_exchange_strong(until, 0, std::memory_order_relaxed);
    return false;
  }
  // On an oversubscribed machine, settle(job_rank) if needed() (called under the MPI mutex)
  // finds something to flush; else nothing.
  template <class Needed>
  int settle_if(int job_rank, const Needed& needed) {
    if (!outside_mpi()) return REMORA_SUCCESS;
    bool flush_needed = false;
    {
      std::lock_guard lock(mpi_mutex);
      flush_needed = needed();
    }
    return flush_needed ? settle(job_rank) : REMORA_SUCCESS;
  }
};

class RmaWindow {
 public:
  // Collective over comm. base..base+bytes must stay mapped (and be rounded-up-safe: the
  // shared-memory parts are page-sized) until free(). shared must outlive the window and its
  // rgets; the window must be taken out of shared.to_flush (unlist) before it is destroyed.
  static int create(MPI_Comm comm, WindowShared& shared, void* base, size_t bytes,
                    std::unique_ptr<RmaWindow>* out);
  // Collective: ends the epoch and frees the window. Without it the window is left to
  // MPI_Finalize (a rank cannot free a window alone); the destructor only ends the epoch.
  int free();
  ~RmaWindow();
  RmaWindow(const RmaWindow&) = delete;
  RmaWindow& operator=(const RmaWindow&) = delete;

  int put(int target, size_t offset, const void* source, size_t bytes);
  int get(int target, size_t offset, void* destination, size_t bytes);
  // A request-based get (Transport::get_pending): MPI_Get, left in flight without a flush, and
  // *pending its target's batch (shared by every rget to it until the batch completes: no
  // allocation and no MPI request per rget). The batch completes at the next MPI_Win_flush of
  // its target (flush, flush_all, a blocking get or compare-and-swap to it, a wait for it, a
  // test that found its probe back), or when the window is freed.
  int rget(int target, size_t offset, void* destination, size_t bytes,
           std::shared_ptr<transport::PendingGet>* pending);
  int put_strided(int target, size_t offset, const void* source,
                  const transport::StridedShape& shape);
  int get_strided(int target, size_t offset, void* destination,
                  const transport::StridedShape& shape);
  int atomic(int target, size_t offset, transport::AtomicOp op, uint64_t operand, uint64_t compare,
             uint64_t* result);
  // MPI_Raccumulate / MPI_Rget_accumulate / MPI_Compare_and_swap (rma_accumulate.cpp):
  // accumulates(type) says for which remora_datatype_t (all but the unsigned integer types,
  // whose MPI_MIN and MPI_MAX MPICH 4.0.2 computes as signed: rma_accumulate.cpp).
  static bool accumulates(int type);
  // The bytes an accumulate moves (0 for a type accumulates() refuses).
  static size_t bytes_of(const transport::Accumulate& operation);
  int accumulate(int target, size_t offset, const transport::Accumulate& operation);
  int flush(int target);
  // flush(target) for a caller that holds the MPI mutex and has taken this window out of
  // to_flush[target].
  int flush_listed(int target);
  // Whether flush(target) has anything to complete (under the MPI mutex).
  bool needs_flush(int target) { return needs_flush_rank(window_rank(target)); }
  int flush_all();
  // Takes this window out of every to_flush list (under the MPI mutex).
  void unlist();
  // A window over a sub-communicator (a group segment): ranks[w] is job rank w's rank in it
  // (-1 outside). Every call's target is a job rank, translated here; empty: the identity.
  void set_ranks(std::vector<int> ranks);

 private:
  RmaWindow(MPI_Win window, int window_size, WindowShared& shared)
      : window_(window),
        shared_(shared),
        mpi_mutex_(shared.mpi_mutex),
        wait_(shared.wait),
        unflushed_to_(static_cast<size_t>(window_size), 0),
        listed_(static_cast<size_t>(window_size), 0),
        in_flight_(static_cast<size_t>(window_size)) {}
  int transfer(bool is_put, int target, size_t offset, void* local, size_t bytes);
  // A small put (kStagedPutMaxBytes) and a small get (see the top of this file); rank is the
  // window's rank.
  int staged_put(int rank, size_t offset, const void* source, size_t bytes);
  int flushed_get(int rank, size_t offset, void* destination, size_t bytes);
  // Strided transfers (window rank of target): blocks larger than kStageMaxBytes one put or get
  // each; smaller ones every block's request, then the waits.
  int strided_blocks(bool is_put, int target, size_t offset, void* local,
                     const transport::StridedShape& shape);
  int strided_requests(bool is_put, int target, size_t offset, void* local,
                       const transport::StridedShape& shape);

  MPI_Win window_;
  WindowShared& shared_;
  MpiMutex& mpi_mutex_;
  const std::function<int(MPI_Request*)>& wait_;
  // Under mpi_mutex_: puts or accumulates since the last flush_all (unflushed_), and since the
  // last flush of each window rank (unflushed_to_); unflushed(rank) marks both.
  bool unflushed_ = false;
  std::vector<unsigned char> unflushed_to_;
  void unflushed(int rank) {
    unflushed_ = true;
    unflushed_to_[static_cast<size_t>(rank)] = 1;
    list_for_flush(rank);
  }
  // Under mpi_mutex_: per window rank, whether this window is in its job rank's to_flush list;
  // list_for_flush(rank) puts it there.
  std::vector<unsigned char> listed_;
  void list_for_flush(int rank) {
    if (listed_[static_cast<size_t>(rank)]) return;
    listed_[static_cast<size_t>(rank)] = 1;
    shared_.to_flush[static_cast<size_t>(job_rank(rank))].push_back(this);
  }
  int flush_rank(int rank);  // flush of a window rank, under mpi_mutex_
  bool needs_flush_rank(int rank) {
    return rank >= 0 && (unflushed_to_[static_cast<size_t>(rank)] || gets_pending(rank));
  }
  // On an oversubscribed machine: settle(rank's job rank) without the MPI mutex, so that the
  // MPI_Win_flush after it does not spin (WindowShared::settle); else nothing.
  int settle(int rank) {
    return shared_.outside_mpi() ? shared_.settle(job_rank(rank)) : REMORA_SUCCESS;
  }
  // MPI_Compare_and_swap and the MPI_Win_flush that delivers its old value (settled first).
  int compare_swap(const void* origin, const void* compare, void* result, MPI_Datatype type,
                   int rank, size_t offset);
  // After MPI_Win_flush(rank): what it completed is neither unflushed nor staged nor in flight
  // any more.
  void flushed(int rank);
  // Under mpi_mutex_: per window rank, the batch of the rgets issued to it since its last flush
  // (null: none in flight).
  class GetBatch;
  std::vector<std::shared_ptr<GetBatch>> in_flight_;
  bool gets_in_flight_ = false;  // some rank's batch may be set (flush_all's fast test)
  bool gets_pending(int rank) const { return in_flight_[static_cast<size_t>(rank)] != nullptr; }
  // After an MPI_Win_flush of rank (or of all ranks): its rgets have arrived; the batch is done.
  void complete_gets(int rank);
  // After a failed MPI_Win_flush of rank: the batch ends with that failure (call).
  void fail_gets(int rank, const char* call);
  void complete_all_gets();       // complete_gets of every rank, after MPI_Win_flush_all
  unsigned char probe_sink_ = 0;  // where the batches' probes land (their values are not read)
  void finish_gets();  // MPI_Win_flush_all and complete_all_gets, when some are in flight
  // Copies of the origins of small accumulates sent with MPI_Accumulate (no request to wait
  // for: the caller's buffer is free at once), kept until a flush has completed them
  // (rma_accumulate.cpp). Under mpi_mutex_.
  std::vector<std::vector<unsigned char>> staged_;  // blocks of kStageBlockBytes
  size_t staged_blocks_ = 0;                        // blocks in use; the last one partly
  size_t staged_used_ = 0;                          // bytes used in the last block in use
  int staged_rank_ = -1;  // the window rank every staged copy went to, or -2: several
  // A copy of bytes from source for an operation on rank, in the staging blocks; when they are
  // full, the copies staged so far are completed locally first and the blocks reused.
  void* stage(int rank, const void* source, size_t bytes);
  // Completes every staged operation locally (MPI_Win_flush_local_all) and frees the blocks.
  void release_staged();
  std::vector<int> ranks_;
  std::vector<int> job_ranks_;  // the inverse of ranks_ (empty: the identity)
  int window_rank(int target) const {
    return ranks_.empty() ? target : ranks_[static_cast<size_t>(target)];
  }
  int job_rank(int rank) const {
    return job_ranks_.empty() ? rank : job_ranks_[static_cast<size_t>(rank)];
  }
};

}  // namespace remora::mpi
