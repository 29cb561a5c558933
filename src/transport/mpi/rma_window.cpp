#include "transport/mpi/rma_window.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace remora::mpi {
namespace {
constexpr size_t kMaxTransfer = size_t{1} << 30;  // MPI counts are int
}

int RmaWindow::create(MPI_Comm comm, std::mutex& mpi_mutex, Wait wait, void* base, size_t bytes,
                      std::unique_ptr<RmaWindow>* out) {
  const size_t rounded = (bytes + kWindowSizeQuantum - 1) / kWindowSizeQuantum * kWindowSizeQuantum;
  MPI_Info info;
  MPI_Info_create(&info);
  // Every atomic is flushed before the next is issued, so no ordering between them is needed.
  // accumulate_ops stays at its default: Remora mixes fetch-add, swap and compare-and-swap.
  MPI_Info_set(info, "accumulate_ordering", "none");
  MPI_Win window = MPI_WIN_NULL;
  std::lock_guard lock(mpi_mutex);
  const int result = MPI_Win_create(rounded > 0 ? base : nullptr, static_cast<MPI_Aint>(rounded), 1,
                                    info, comm, &window);
  MPI_Info_free(&info);
  if (result != MPI_SUCCESS)
    return fail(REMORA_ERR_SYSTEM, "remora_segment_allocate: MPI_Win_create of %zu bytes failed",
                rounded);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, window);
  out->reset(new RmaWindow(window, mpi_mutex, std::move(wait)));
  return REMORA_SUCCESS;
}

int RmaWindow::free() {
  std::lock_guard lock(mpi_mutex_);
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
  MPI_Win_unlock_all(window_);
}

int RmaWindow::transfer(bool is_put, int target, size_t offset, void* local, size_t bytes) {
  target = window_rank(target);
  auto* cursor = static_cast<uint8_t*>(local);
  for (size_t done = 0; done < bytes;) {
    const auto chunk = static_cast<int>(std::min(kMaxTransfer, bytes - done));
    const auto displacement = static_cast<MPI_Aint>(offset + done);
    MPI_Request request = MPI_REQUEST_NULL;
    int result = MPI_SUCCESS;
    {
      std::lock_guard lock(mpi_mutex_);
      result = is_put ? MPI_Rput(cursor + done, chunk, MPI_BYTE, target, displacement, chunk,
                                 MPI_BYTE, window_, &request)
                      : MPI_Rget(cursor + done, chunk, MPI_BYTE, target, displacement, chunk,
                                 MPI_BYTE, window_, &request);
      if (is_put) unflushed_ = true;
    }
    if (result != MPI_SUCCESS)
      return fail(REMORA_ERR_SYSTEM, "%s of %zu bytes at offset %zu of rank %d failed",
                  is_put ? "MPI_Rput" : "MPI_Rget", bytes, offset, target);
    if (int status = wait_(&request)) return status;
    done += static_cast<size_t>(chunk);
  }
  return REMORA_SUCCESS;
}

int RmaWindow::put(int target, size_t offset, const void* source, size_t bytes) {
  return transfer(true, target, offset, const_cast<void*>(source), bytes);
}

int RmaWindow::get(int target, size_t offset, void* destination, size_t bytes) {
  return transfer(false, target, offset, destination, bytes);
}

int RmaWindow::put_strided(int target, size_t offset, const void* source,
                           const transport::StridedShape& shape) {
  int status = REMORA_SUCCESS;
  const auto* local = static_cast<const uint8_t*>(source);
  shape.for_each_block([&](size_t local_offset, size_t remote_offset) {
    if (status == REMORA_SUCCESS)
      status = put(target, offset + remote_offset, local + local_offset, shape.count[0]);
  });
  return status;
}

int RmaWindow::get_strided(int target, size_t offset, void* destination,
                           const transport::StridedShape& shape) {
  int status = REMORA_SUCCESS;
  auto* local = static_cast<uint8_t*>(destination);
  shape.for_each_block([&](size_t local_offset, size_t remote_offset) {
    if (status == REMORA_SUCCESS)
      status = get(target, offset + remote_offset, local + local_offset, shape.count[0]);
  });
  return status;
}

int RmaWindow::atomic(int target, size_t offset, transport::AtomicOp op, uint64_t operand,
                      uint64_t compare, uint64_t* result) {
  target = window_rank(target);
  const auto displacement = static_cast<MPI_Aint>(offset);
  int outcome = MPI_SUCCESS;
  if (op == transport::AtomicOp::CompareSwap) {
    std::lock_guard lock(mpi_mutex_);
    outcome = MPI_Compare_and_swap(&operand, &compare, result, MPI_UINT64_T, target, displacement,
                                   window_);
    // The old value has arrived only once the operation was performed at the target (a full
    // flush: MPICH's MPI_Win_flush_local is slower for it).
    if (outcome == MPI_SUCCESS) outcome = MPI_Win_flush(target, window_);
  } else {
    MPI_Request request = MPI_REQUEST_NULL;
    {
      std::lock_guard lock(mpi_mutex_);
      outcome = MPI_Rget_accumulate(
          &operand, 1, MPI_UINT64_T, result, 1, MPI_UINT64_T, target, displacement, 1, MPI_UINT64_T,
          op == transport::AtomicOp::FetchAdd ? MPI_SUM : MPI_REPLACE, window_, &request);
    }
    if (outcome == MPI_SUCCESS) return wait_(&request);
  }
  if (outcome != MPI_SUCCESS)
    return fail(REMORA_ERR_SYSTEM, "remote atomic at offset %zu of rank %d failed", offset, target);
  return REMORA_SUCCESS;
}

int RmaWindow::flush(int target) {
  target = window_rank(target);
  if (target < 0) return REMORA_SUCCESS;  // not in this window's group
  std::lock_guard lock(mpi_mutex_);
  if (unflushed_) MPI_Win_flush(target, window_);
  release_staged();
  return REMORA_SUCCESS;
}

int RmaWindow::flush_all() {
  std::lock_guard lock(mpi_mutex_);
  if (unflushed_) MPI_Win_flush_all(window_);
  unflushed_ = false;
  release_staged();
  return REMORA_SUCCESS;
}

}  // namespace remora::mpi
