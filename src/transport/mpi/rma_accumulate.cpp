// Accumulates on a segment's MPI window (RmaWindow::accumulate): Remora's element types and
// operators as MPI's predefined ones. Compare-and-swap takes integer types only (as Remora's
// API). The unsigned integer types are not sent through MPI at all (accumulates() is false for
// them): MPICH 4.0.2 computes MPI_MIN and MPI_MAX of MPI_UINT8_T..MPI_UINT64_T as if they were
// signed (MIN of 255 and 1 as uint8 stays 255), so those windows keep the strategy's own path
// for them on every rank.
#include <algorithm>
#include <cstring>
#include <vector>

#include "core/error.hpp"
#include "remora/types.h"
#include "transport/mpi/rma_window.hpp"

namespace remora::mpi {
namespace {

constexpr size_t kMaxBytesPerCall = size_t{1} << 30;  // MPI counts are int
// Accumulates of at most kStageMaxBytes (rma_window.hpp) without a result are copied and sent
// with MPI_Accumulate, which needs no wait per call (as a program using MPI directly does).

struct MpiElement {
  MPI_Datatype type;
  size_t bytes;
};

bool mpi_element(int type, MpiElement* out) {
  switch (type) {
    case REMORA_INT8:
      *out = {MPI_INT8_T, 1};
      return true;
    case REMORA_INT16:
      *out = {MPI_INT16_T, 2};
      return true;
    case REMORA_INT32:
      *out = {MPI_INT32_T, 4};
      return true;
    case REMORA_INT64:
      *out = {MPI_INT64_T, 8};
      return true;
    case REMORA_FLOAT:
      *out = {MPI_FLOAT, 4};
      return true;
    case REMORA_DOUBLE:
      *out = {MPI_DOUBLE, 8};
      return true;
    case REMORA_FLOAT_COMPLEX:
      *out = {MPI_C_FLOAT_COMPLEX, 8};
      return true;
    case REMORA_DOUBLE_COMPLEX:
      *out = {MPI_C_DOUBLE_COMPLEX, 16};
      return true;
    default:  // the unsigned types (see above)
      return false;
  }
}

// Every remora_op_t but REMORA_OP_SCALED_SUM (the caller scales); MPI_OP_NULL otherwise.
MPI_Op mpi_op(int op) {
  switch (op) {
    case REMORA_OP_SUM:
      return MPI_SUM;
    case REMORA_OP_PROD:
      return MPI_PROD;
    case REMORA_OP_MIN:
      return MPI_MIN;
    case REMORA_OP_MAX:
      return MPI_MAX;
    case REMORA_OP_BAND:
      return MPI_BAND;
    case REMORA_OP_BOR:
      return MPI_BOR;
    case REMORA_OP_BXOR:
      return MPI_BXOR;
    case REMORA_OP_LAND:
      return MPI_LAND;
    case REMORA_OP_LOR:
      return MPI_LOR;
    case REMORA_OP_LXOR:
      return MPI_LXOR;
    case REMORA_OP_REPLACE:
      return MPI_REPLACE;
    case REMORA_OP_NO_OP:
      return MPI_NO_OP;
    default:
      return MPI_OP_NULL;
  }
}

}  // namespace

bool RmaWindow::accumulates(int type) {
  MpiElement element{};
  return mpi_element(type, &element);
}

size_t RmaWindow::bytes_of(const transport::Accumulate& operation) {
  MpiElement element{};
  return mpi_element(operation.type, &element) ? operation.count * element.bytes : 0;
}

int RmaWindow::accumulate(int target, size_t offset, const transport::Accumulate& operation) {
  MpiElement element{};
  const MPI_Op op = mpi_op(operation.op);
  if (!mpi_element(operation.type, &element) || (operation.compare == nullptr && op == MPI_OP_NULL))
    return fail(REMORA_ERR_UNSUPPORTED, "no MPI accumulate for type %d, op %d", operation.type,
                operation.op);
  const int rank = window_rank(target);
  int outcome = MPI_SUCCESS;
  if (operation.compare != nullptr)
    return compare_swap(operation.origin, operation.compare, operation.result, element.type, rank,
                        offset);
  if (operation.result == nullptr && op == MPI_NO_OP) return REMORA_SUCCESS;
  const size_t bytes = operation.count * element.bytes;
  if (operation.result == nullptr && bytes <= kStageMaxBytes) {
    std::lock_guard lock(mpi_mutex_);
    void* copy = stage(rank, operation.origin, bytes);
    const auto count = static_cast<int>(operation.count);
    outcome = MPI_Accumulate(copy, count, element.type, rank, static_cast<MPI_Aint>(offset), count,
                             element.type, op, window_);
    unflushed(rank);
    if (outcome != MPI_SUCCESS)
      return fail(REMORA_ERR_SYSTEM,
                  "MPI_Accumulate of %zu elements at offset %zu of rank %d failed", operation.count,
                  offset, target);
    return REMORA_SUCCESS;
  }
  const auto* origin = static_cast<const unsigned char*>(operation.origin);
  auto* result = static_cast<unsigned char*>(operation.result);
  const size_t per_call = kMaxBytesPerCall / element.bytes;
  std::vector<unsigned char> unused;
  for (size_t done = 0; done < operation.count;) {
    const size_t elements = std::min(per_call, operation.count - done);
    const auto count = static_cast<int>(elements);
    const auto displacement = static_cast<MPI_Aint>(offset + done * element.bytes);
    // MPI ignores the origin of MPI_NO_OP, which may be null here; MPI still wants one apart
    // from the result buffer.
    if (origin == nullptr) unused.resize(elements * element.bytes);
    const void* from = origin != nullptr ? origin + done * element.bytes : unused.data();
    MPI_Request request = MPI_REQUEST_NULL;
    {
      std::lock_guard lock(mpi_mutex_);
      if (result != nullptr) {
        outcome = MPI_Rget_accumulate(from, count, element.type, result + done * element.bytes,
                                      count, element.type, rank, displacement, count, element.type,
                                      op, window_, &request);
      } else {
        outcome = MPI_Raccumulate(from, count, element.type, rank, displacement, count,
                                  element.type, op, window_, &request);
        unflushed(rank);  // complete at the target only after a flush
      }
    }
    if (outcome != MPI_SUCCESS)
      return fail(REMORA_ERR_SYSTEM, "%s of %zu elements at offset %zu of rank %d failed",
                  result != nullptr ? "MPI_Rget_accumulate" : "MPI_Raccumulate", elements, offset,
                  target);
    if (int status = wait_(&request)) return status;
    done += elements;
  }
  return REMORA_SUCCESS;
}

void* RmaWindow::stage(int rank, const void* source, size_t bytes) {
  if (staged_blocks_ == 0 || staged_used_ + bytes > kStageBlockBytes) {
    // Every block in use: complete the copies locally, then reuse the blocks.
    if (staged_blocks_ == kStageBlocks) release_staged();
    if (staged_.size() == staged_blocks_) staged_.emplace_back(kStageBlockBytes);
    ++staged_blocks_;
    staged_used_ = 0;
  }
  staged_rank_ = staged_rank_ == -1 || staged_rank_ == rank ? rank : -2;
  unsigned char* copy = staged_[staged_blocks_ - 1].data() + staged_used_;
  if (bytes > 0) std::memcpy(copy, source, bytes);
  staged_used_ += (bytes + 15) / 16 * 16;  // each copy aligned for its element type
  return copy;
}

void RmaWindow::release_staged() {
  if (staged_blocks_ == 0) return;
  MPI_Win_flush_local_all(window_);
  staged_blocks_ = 0;
  staged_used_ = 0;
  staged_rank_ = -1;
}

}  // namespace remora::mpi
