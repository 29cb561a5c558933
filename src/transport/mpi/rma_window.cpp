#include "transport/mpi/rma_window.hpp"

#include <algorithm>
#include <vector>

#include "core/error.hpp"
#include "core/recycling_allocator.hpp"

namespace remora::mpi {
namespace {
constexpr size_t kMaxTransfer = size_t{1} << 30;  // MPI counts are int
}

// The rgets issued to one window rank since its last MPI_Win_flush (each an MPI_Get, without an
// MPI request), and the C API's request of every one of them: an MPI_Get completes only at a
// flush, and the flush completes them all, so they complete together (MPI_Rget + MPI_Waitall per
// get and an object per rget were 1,644 instructions per 8-byte rget, against 654 for MPI_Get).
// finished is set (under the MPI mutex) by complete_gets after a flush of the rank, or with
// failed_call by a failed probe or flush; read without the mutex once set. The window is alive
// while the batch is not finished (its free and destructor complete every batch, under the MPI
// mutex).
class RmaWindow::GetBatch final : public transport::PendingGet {
 public:
  GetBatch(WindowShared& shared, RmaWindow& window, int rank, size_t offset)
      : shared_(shared), window_(window), rank_(rank), probe_offset_(offset) {}
  // A test must not wait in MPI_Win_flush for the target: it sends a 1-byte MPI_Rget (the probe)
  // behind the gets and tests it; once it is back the target has served the gets before it (MPI
  // libraries that complete gets in software on the target serve one origin's operations in
  // order, as WindowShared::settle relies on), and the MPI_Win_flush that completes the batch
  // finds them done. While the batch is in flight its target may need this rank's MPI calls, and
  // the waits that test it must keep polling MPI to see it complete: the rank stays active, as
  // in a wait for a request.
  bool done() const override {
    if (finished.load(std::memory_order_acquire)) return true;
    std::lock_guard lock(shared_.mpi_mutex);
    if (finished.load(std::memory_order_relaxed)) return true;
    int back = 0;
    if (probe == MPI_REQUEST_NULL &&
        MPI_Rget(&window_.probe_sink_, 1, MPI_BYTE, rank_, static_cast<MPI_Aint>(probe_offset_), 1,
                 MPI_BYTE, window_.window_, &probe) != MPI_SUCCESS) {
      probe = MPI_REQUEST_NULL;
      back = 1;  // no probe: the flush alone
    } else if (MPI_Test(&probe, &back, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
      back = 1;
    }
    if (back) return flush();
    shared_.outstanding();
    return false;
  }
  // A thread that waits for the gets: one MPI_Win_flush of the target completes the batch, as
  // MPI_Get + MPI_Win_flush would. On an oversubscribed machine the flush would spin while the
  // target waits for a CPU: done() there.
  bool done_waiting() const override {
    if (shared_.outside_mpi() || finished.load(std::memory_order_acquire)) return done();
    std::lock_guard lock(shared_.mpi_mutex);
    return finished.load(std::memory_order_relaxed) || flush();
  }
  int status() const override {
    if (failed_call == nullptr) return REMORA_SUCCESS;
    return fail(REMORA_ERR_SYSTEM, "%s for an rget from rank %d failed", failed_call, rank_);
  }

  mutable MPI_Request probe = MPI_REQUEST_NULL;  // under the MPI mutex
  mutable std::atomic<bool> finished{false};
  mutable const char* failed_call = nullptr;  // set before finished, read after it

 private:
  // Under the MPI mutex, the batch in flight (so still its rank's): flushes the rank, which
  // completes the batch (complete_gets), or fails it. Always true: the batch is over.
  bool flush() const {
    if (window_.flush_rank(rank_) != REMORA_SUCCESS) window_.fail_gets(rank_, "MPI_Win_flush");
    return true;
  }

  WindowShared& shared_;
  RmaWindow& window_;
  const int rank_;             // the target's window rank
  const size_t probe_offset_;  // a byte the first get read: in the target's window
};

int RmaWindow::create(MPI_Comm comm, WindowShared& shared, void* base, size_t bytes,
                      std::unique_ptr<RmaWindow>* out) {
  const size_t rounded = (bytes + kWindowSizeQuantum - 1) / kWindowSizeQuantum * kWindowSizeQuantum;
  MPI_Info info;
  MPI_Info_create(&info);
  // Every atomic is flushed before the next is issued, so no ordering between them is needed.
  // accumulate_ops stays at its default: Remora mixes fetch-add, swap and compare-and-swap.
  MPI_Info_set(info, "accumulate_ordering", "none");
  MPI_Win window = MPI_WIN_NULL;
  std::lock_guard lock(shared.mpi_mutex);
  const int result = MPI_Win_create(rounded > 0 ? base : nullptr, static_cast<MPI_Aint>(rounded), 1,
                                    info, comm, &window);
  MPI_Info_free(&info);
  if (result != MPI_SUCCESS)
    return fail(REMORA_ERR_SYSTEM, "remora_segment_allocate: MPI_Win_create of %zu bytes failed",
                rounded);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, window);
  int window_size = 0;
  MPI_Comm_size(comm, &window_size);
  out->reset(new RmaWindow(window, window_size, shared));
  return REMORA_SUCCESS;
}

int RmaWindow::free() {
  std::lock_guard lock(mpi_mutex_);
  finish_gets();
  MPI_Win_unlock_all(window_);
  const int result = MPI_Win_free(&window_);
  window_ = MPI_WIN_NULL;
  return result == MPI_SUCCESS
             ? REMORA_SUCCESS
             : fail(REMORA_ERR_SYSTEM, "remora_segment_free: MPI_Win_free failed");
}

// A segment the application never freed (finalize deletes it alone): end the epoch, which is
// local, and leave the window itself to MPI_Finalize.
RmaWindow::~RmaWindow() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (window_ == MPI_WIN_NULL || finalized) return;
  std::lock_guard lock(mpi_mutex_);
  finish_gets();
  MPI_Win_unlock_all(window_);
}

int RmaWindow::transfer(bool is_put, int target, size_t offset, void* local, size_t bytes) {
  target = window_rank(target);
  auto* cursor = static_cast<uint8_t*>(local);
  for (size_t done = 0; done < bytes;) {
    const auto chunk = static_cast<int>(std::min(kMaxTransfer, bytes - done));
    const auto displacement = static_cast<MPI_Aint>(offset + done);
    MPI_Request request = MPI_REQUEST_NULL;
    int result = MPI_SUCCESS, tested = MPI_SUCCESS;
    int complete = 0;
    {
      std::lock_guard lock(mpi_mutex_);
      result = is_put ? MPI_Rput(cursor + done, chunk, MPI_BYTE, target, displacement, chunk,
                                 MPI_BYTE, window_, &request)
                      : MPI_Rget(cursor + done, chunk, MPI_BYTE, target, displacement, chunk,
                                 MPI_BYTE, window_, &request);
      if (is_put) unflushed(target);
      // Its first test under the same hold of the mutex: a put of a few KiB has mostly been
      // copied out by then, and a second hold and the wait's call were a tenth of a 4 KiB put's
      // time in a bandwidth loop (docs/benchmarks.md).
      if (result == MPI_SUCCESS) tested = MPI_Test(&request, &complete, MPI_STATUS_IGNORE);
    }
    if (result != MPI_SUCCESS || tested != MPI_SUCCESS)
      return fail(REMORA_ERR_SYSTEM, "%s of %zu bytes at offset %zu of rank %d failed",
                  result != MPI_SUCCESS
                      ? (is_put ? "MPI_Rput" : "MPI_Rget")
                      : (is_put ? "MPI_Test of MPI_Rput" : "MPI_Test of MPI_Rget"),
                  bytes, offset, target);
    if (!complete)
      if (int status = wait_(&request)) return status;
    done += static_cast<size_t>(chunk);
  }
  return REMORA_SUCCESS;
}

int RmaWindow::put(int target, size_t offset, const void* source, size_t bytes) {
  if (bytes <= kStagedPutMaxBytes) return staged_put(window_rank(target), offset, source, bytes);
  return transfer(true, target, offset, const_cast<void*>(source), bytes);
}

// A copy in the staging blocks and MPI_Put, which needs no wait for local completion (an 8-byte
// remora_put across nodes: 3,232 instructions with MPI_Rput and its wait, 1,257 so, under MPICH
// 4.0.2: docs/benchmarks.md); the copy lives until a flush completes the put.
int RmaWindow::staged_put(int rank, size_t offset, const void* source, size_t bytes) {
  const auto count = static_cast<int>(bytes);
  std::lock_guard lock(mpi_mutex_);
  void* copy = stage(rank, source, bytes);
  const int result =
      MPI_Put(copy, count, MPI_BYTE, rank, static_cast<MPI_Aint>(offset), count, MPI_BYTE, window_);
  unflushed(rank);
  if (result != MPI_SUCCESS)
    return fail(REMORA_ERR_SYSTEM, "MPI_Put of %zu bytes at offset %zu of rank %d failed", bytes,
                offset, rank);
  return REMORA_SUCCESS;
}

int RmaWindow::get(int target, size_t offset, void* destination, size_t bytes) {
  if (bytes <= kStageMaxBytes && !shared_.outside_mpi())
    return flushed_get(window_rank(target), offset, destination, bytes);
  return transfer(false, target, offset, destination, bytes);
}

int RmaWindow::rget(int target, size_t offset, void* destination, size_t bytes,
                    std::shared_ptr<transport::PendingGet>* pending) {
  pending->reset();
  if (bytes > kMaxTransfer) return get(target, offset, destination, bytes);
  const int rank = window_rank(target);
  const auto count = static_cast<int>(bytes);
  std::lock_guard lock(mpi_mutex_);
  if (MPI_Get(destination, count, MPI_BYTE, rank, static_cast<MPI_Aint>(offset), count, MPI_BYTE,
              window_) != MPI_SUCCESS)
    return fail(REMORA_ERR_SYSTEM, "MPI_Get of %zu bytes at offset %zu of rank %d failed", bytes,
                offset, rank);
  std::shared_ptr<GetBatch>& batch = in_flight_[static_cast<size_t>(rank)];
  // Its block is recycled by the thread that frees it, for its next batch.
  if (batch == nullptr) {
    batch = std::allocate_shared<GetBatch>(RecyclingAllocator<GetBatch>(), shared_, *this, rank,
                                           offset);
    gets_in_flight_ = true;
  }
  list_for_flush(rank);
  *pending = batch;
  return REMORA_SUCCESS;
}

// The flush completed the gets (and the probe, if any, whose request MPI_Wait frees at once).
void RmaWindow::complete_gets(int rank) {
  std::shared_ptr<GetBatch>& batch = in_flight_[static_cast<size_t>(rank)];
  if (batch == nullptr) return;
  if (batch->probe != MPI_REQUEST_NULL) (void)MPI_Wait(&batch->probe, MPI_STATUS_IGNORE);
  batch->finished.store(true, std::memory_order_release);
  batch.reset();
}

// A failed flush: the batch ends with the failure (its gets' data is not to be trusted), and the
// rank's next rget starts a new one. A probe in flight lands in the window's sink, which
// MPI_Win_free waits for.
void RmaWindow::fail_gets(int rank, const char* call) {
  std::shared_ptr<GetBatch>& batch = in_flight_[static_cast<size_t>(rank)];
  if (batch == nullptr) return;
  if (batch->probe != MPI_REQUEST_NULL) (void)MPI_Request_free(&batch->probe);
  batch->failed_call = call;
  batch->finished.store(true, std::memory_order_release);
  batch.reset();
}

void RmaWindow::complete_all_gets() {
  if (!gets_in_flight_) return;
  for (size_t rank = 0; rank < in_flight_.size(); ++rank) complete_gets(static_cast<int>(rank));
  gets_in_flight_ = false;
}

// Before the epoch ends: rgets nobody completed arrive, and their requests are freed.
void RmaWindow::finish_gets() {
  if (!gets_in_flight_) return;
  MPI_Win_flush_all(window_);
  complete_all_gets();
}

// MPI_Get + MPI_Win_flush under one hold of the MPI mutex, as a program using MPI directly
// writes it (no request object, no test loop): the data has arrived when the flush returns.
// The flush also completes this rank's earlier puts and accumulates to rank at the target.
int RmaWindow::flushed_get(int rank, size_t offset, void* destination, size_t bytes) {
  const auto count = static_cast<int>(bytes);
  std::lock_guard lock(mpi_mutex_);
  int result = MPI_Get(destination, count, MPI_BYTE, rank, static_cast<MPI_Aint>(offset), count,
                       MPI_BYTE, window_);
  if (result == MPI_SUCCESS) result = MPI_Win_flush(rank, window_);
  if (result != MPI_SUCCESS)
    return fail(REMORA_ERR_SYSTEM, "MPI_Get of %zu bytes at offset %zu of rank %d failed", bytes,
                offset, rank);
  flushed(rank);
  return REMORA_SUCCESS;
}

// Larger blocks one transfer each (put or get).
int RmaWindow::strided_blocks(bool is_put, int target, size_t offset, void* local,
                              const transport::StridedShape& shape) {
  int status = REMORA_SUCCESS;
  auto* cursor = static_cast<uint8_t*>(local);
  shape.for_each_block([&](size_t local_offset, size_t remote_offset) {
    if (status != REMORA_SUCCESS) return;
    status = is_put ? put(target, offset + remote_offset, cursor + local_offset, shape.count[0])
                    : get(target, offset + remote_offset, cursor + local_offset, shape.count[0]);
  });
  return status;
}

// Small blocks: every block's MPI_Rput (MPI_Rget), then the waits for their completion (one wait
// per block in turn made a GA patch put wait once per row).
int RmaWindow::strided_requests(bool is_put, int target, size_t offset, void* local,
                                const transport::StridedShape& shape) {
  auto* cursor = static_cast<uint8_t*>(local);
  const int rank = window_rank(target);
  const auto count = static_cast<int>(shape.count[0]);
  std::vector<MPI_Request> requests;
  requests.reserve(shape.total_bytes() / std::max<size_t>(shape.count[0], 1));
  int result = MPI_SUCCESS;
  {
    std::lock_guard lock(mpi_mutex_);
    shape.for_each_block([&](size_t local_offset, size_t remote_offset) {
      if (result != MPI_SUCCESS) return;
      MPI_Request& request = requests.emplace_back(MPI_REQUEST_NULL);
      const auto displacement = static_cast<MPI_Aint>(offset + remote_offset);
      result = is_put ? MPI_Rput(cursor + local_offset, count, MPI_BYTE, rank, displacement, count,
                                 MPI_BYTE, window_, &request)
                      : MPI_Rget(cursor + local_offset, count, MPI_BYTE, rank, displacement, count,
                                 MPI_BYTE, window_, &request);
    });
    if (is_put) unflushed(rank);
  }
  // Every issued operation is waited for, even after a failure: the caller may reuse (or read)
  // its buffer at once.
  int status = REMORA_SUCCESS;
  for (MPI_Request& request : requests)
    if (request != MPI_REQUEST_NULL)
      if (int waited = wait_(&request); status == REMORA_SUCCESS) status = waited;
  if (result != MPI_SUCCESS)
    return fail(REMORA_ERR_SYSTEM, "strided %s of %zu bytes at offset %zu of rank %d failed",
                is_put ? "MPI_Rput" : "MPI_Rget", shape.total_bytes(), offset, rank);
  return status;
}

int RmaWindow::put_strided(int target, size_t offset, const void* source,
                           const transport::StridedShape& shape) {
  void* local = const_cast<void*>(source);
  if (shape.count[0] > kStageMaxBytes) return strided_blocks(true, target, offset, local, shape);
  return strided_requests(true, target, offset, local, shape);
}

// Small blocks: every block's MPI_Get, then one MPI_Win_flush for them all (the call completes
// as a whole; a flush per block made a GA patch get wait for the target once per row); on an
// oversubscribed machine every block's MPI_Rget, then the waits (WindowShared::wait_outside_mpi).
int RmaWindow::get_strided(int target, size_t offset, void* destination,
                           const transport::StridedShape& shape) {
  if (shape.count[0] > kStageMaxBytes)
    return strided_blocks(false, target, offset, destination, shape);
  if (shared_.outside_mpi()) return strided_requests(false, target, offset, destination, shape);
  auto* local = static_cast<uint8_t*>(destination);
  const int rank = window_rank(target);
  const auto count = static_cast<int>(shape.count[0]);
  std::lock_guard lock(mpi_mutex_);
  int result = MPI_SUCCESS;
  shape.for_each_block([&](size_t local_offset, size_t remote_offset) {
    if (result == MPI_SUCCESS)
      result = MPI_Get(local + local_offset, count, MPI_BYTE, rank,
                       static_cast<MPI_Aint>(offset + remote_offset), count, MPI_BYTE, window_);
  });
  // Even after a failed MPI_Get: the ones issued before it must land before the call returns.
  const int flushed_result = MPI_Win_flush(rank, window_);
  if (result != MPI_SUCCESS || flushed_result != MPI_SUCCESS)
    return fail(REMORA_ERR_SYSTEM, "strided MPI_Get of %zu bytes at offset %zu of rank %d failed",
                shape.total_bytes(), offset, rank);
  flushed(rank);
  return REMORA_SUCCESS;
}

int RmaWindow::atomic(int target, size_t offset, transport::AtomicOp op, uint64_t operand,
                      uint64_t compare, uint64_t* result) {
  target = window_rank(target);
  const auto displacement = static_cast<MPI_Aint>(offset);
  if (op == transport::AtomicOp::CompareSwap)
    return compare_swap(&operand, &compare, result, MPI_UINT64_T, target, offset);
  MPI_Request request = MPI_REQUEST_NULL;
  int outcome = MPI_SUCCESS;
  {
    std::lock_guard lock(mpi_mutex_);
    outcome = MPI_Rget_accumulate(
        &operand, 1, MPI_UINT64_T, result, 1, MPI_UINT64_T, target, displacement, 1, MPI_UINT64_T,
        op == transport::AtomicOp::FetchAdd ? MPI_SUM : MPI_REPLACE, window_, &request);
  }
  if (outcome == MPI_SUCCESS) return wait_(&request);
  return fail(REMORA_ERR_SYSTEM, "remote atomic at offset %zu of rank %d failed", offset, target);
}

// No request form: the old value has arrived only once the operation was performed at the
// target (a full flush: MPICH's MPI_Win_flush_local is slower for it). On an oversubscribed
// machine the flush waits for settle first, outside the MPI mutex.
int RmaWindow::compare_swap(const void* origin, const void* compare, void* result,
                            MPI_Datatype type, int rank, size_t offset) {
  int outcome = MPI_SUCCESS;
  const bool outside = shared_.outside_mpi();
  {
    std::lock_guard lock(mpi_mutex_);
    outcome = MPI_Compare_and_swap(origin, compare, result, type, rank,
                                   static_cast<MPI_Aint>(offset), window_);
    if (outcome == MPI_SUCCESS && !outside) {
      outcome = MPI_Win_flush(rank, window_);
      if (outcome == MPI_SUCCESS) flushed(rank);
    }
  }
  if (outcome == MPI_SUCCESS && outside) {
    // The flush comes even after a failed settle: the operation must complete before the call
    // returns (its buffers are the caller's).
    const int settled = settle(rank);
    std::lock_guard lock(mpi_mutex_);
    outcome = MPI_Win_flush(rank, window_);
    if (outcome == MPI_SUCCESS) flushed(rank);
    if (settled != REMORA_SUCCESS && outcome == MPI_SUCCESS) return settled;
  }
  if (outcome != MPI_SUCCESS)
    return fail(REMORA_ERR_SYSTEM, "MPI_Compare_and_swap at offset %zu of rank %d failed", offset,
                rank);
  return REMORA_SUCCESS;
}

// Blocking gets, atomics and large puts have completed locally when they return, so only a
// target with puts or accumulates since its last flush, or rgets still in flight, needs
// MPI_Win_flush.
int RmaWindow::flush(int target) {
  target = window_rank(target);
  if (target < 0) return REMORA_SUCCESS;  // not in this window's group
  if (int status = shared_.settle_if(job_rank(target), [&] { return needs_flush_rank(target); }))
    return status;
  std::lock_guard lock(mpi_mutex_);
  return flush_rank(target);
}

int RmaWindow::flush_listed(int target) {
  const int rank = window_rank(target);
  listed_[static_cast<size_t>(rank)] = 0;
  return flush_rank(rank);
}

int RmaWindow::flush_rank(int rank) {
  if (!needs_flush_rank(rank)) return REMORA_SUCCESS;
  if (MPI_Win_flush(rank, window_) != MPI_SUCCESS)
    return fail(REMORA_ERR_SYSTEM, "MPI_Win_flush of rank %d failed", rank);
  flushed(rank);
  return REMORA_SUCCESS;
}

void RmaWindow::unlist() {
  for (size_t rank = 0; rank < listed_.size(); ++rank)
    if (listed_[rank])
      std::erase(shared_.to_flush[static_cast<size_t>(job_rank(static_cast<int>(rank)))], this);
  std::fill(listed_.begin(), listed_.end(), 0);
}

void RmaWindow::set_ranks(std::vector<int> ranks) {
  job_ranks_.assign(listed_.size(), -1);
  for (size_t job = 0; job < ranks.size(); ++job)
    if (ranks[job] >= 0) job_ranks_[static_cast<size_t>(ranks[job])] = static_cast<int>(job);
  ranks_ = std::move(ranks);
}

int RmaWindow::flush_all() {
  std::lock_guard lock(mpi_mutex_);
  if (!unflushed_ && !gets_in_flight_) return REMORA_SUCCESS;
  if (MPI_Win_flush_all(window_) != MPI_SUCCESS)
    return fail(REMORA_ERR_SYSTEM, "MPI_Win_flush_all failed");
  complete_all_gets();
  unflushed_ = false;
  std::fill(unflushed_to_.begin(), unflushed_to_.end(), 0);
  staged_blocks_ = 0;  // every staged operation completed at its target
  staged_used_ = 0;
  staged_rank_ = -1;
  return REMORA_SUCCESS;
}

// The staged copies are free once they all went to rank; copies to other ranks are completed
// locally here (at once when they were sent already, as small ones are).
void RmaWindow::flushed(int rank) {
  unflushed_to_[static_cast<size_t>(rank)] = 0;
  complete_gets(rank);
  if (staged_blocks_ == 0) return;
  if (staged_rank_ == rank) {
    staged_blocks_ = 0;
    staged_used_ = 0;
    staged_rank_ = -1;
    return;
  }
  release_staged();
}

}  // namespace remora::mpi
