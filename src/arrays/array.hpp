// A distributed array: its distribution, element type and one window holding every rank's
// local array (row-major, dense). The window stays in a lock_all (NOCHECK) epoch for the
// array's life, so one-sided operations need no per-call synchronisation; puts and gets go to
// the window's data segment as strided transport transfers, accumulates through the window's
// atomic accumulate (scaled sum). Arguments are validated by the C API layer.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "arrays/array_memory.hpp"
#include "arrays/context.hpp"
#include "arrays/distribution.hpp"
#include "arrays/nonblocking.hpp"
#include "coll/internal_calls.hpp"
#include "remora/array.h"
#include "rma/window.hpp"
#include "transport/transport.hpp"

struct remora_array_s {};

namespace remora::arrays {

class SyncTracker;

class Array : public remora_array_s {
 public:
  // Collective over comm (the world communicator or a sub-communicator: the distribution's
  // ranks are comm's ranks). memory_of: nullptr (a window of its own, zero-filled), or an array
  // on the same ranks, in order, whose memory holds this one's local parts (each starting at
  // the start of that rank's part of it, which must be large enough: checked by the caller).
  static int create(const Context& context, SyncTracker& tracker, Distribution dist, int type,
                    const char* name, coll::CommPtr comm, Array** out,
                    const Array* memory_of = nullptr);
  // Collective: completes this rank's operations; frees the window unless another array still
  // uses it.
  int destroy();
  ~Array();

  const Distribution& dist() const { return dist_; }
  int type() const { return type_; }
  size_t element() const { return element_; }
  const std::string& name() const { return name_; }
  int ndim() const { return dist_.ndim(); }
  // The array's ranks: its own duplicate of the communicator it was created on (the world
  // communicator for a world array); this rank's rank there, their number, and their world
  // ranks.
  const coll::CommPtr& comm() const { return comm_; }
  const Context& context() const { return context_; }
  int comm_rank() const { return comm_rank_; }
  int comm_size() const { return window_->comm_size(); }
  int world_rank(int rank) const { return window_->world_rank(rank); }
  bool same_ranks(const Array& other) const;
  // The bytes of the memory holding rank's (of the array) local part: at least its elements',
  // more for an array on a larger array's memory.
  size_t memory_bytes(int rank) const { return memory_->bytes(world_rank(rank)); }
  // Completes this rank's operations on every array, then a barrier over the array's ranks.
  int sync();
  int barrier();
  // This rank's local array, and rank's (of the array) when this rank maps it (else nullptr).
  char* local() const;
  char* mapped(int rank) const;

  // Patch transfers between lo..hi and a buffer with leading dimensions ld.
  int put(const int64_t* lo, const int64_t* hi, const void* buffer, const int64_t* ld);
  int get(const int64_t* lo, const int64_t* hi, void* buffer, const int64_t* ld);
  int acc(const int64_t* lo, const int64_t* hi, const void* buffer, const int64_t* ld,
          const void* alpha);
  // The same with a dense row-major buffer of the patch's own shape.
  int put_dense(const int64_t* lo, const int64_t* hi, const void* buffer);
  int get_dense(const int64_t* lo, const int64_t* hi, void* buffer);

  int scatter(const void* values, const int64_t* subscripts, size_t n);
  int gather(void* values, const int64_t* subscripts, size_t n);
  int scatter_acc(const void* values, const int64_t* subscripts, size_t n, const void* alpha);
  int read_inc(const int64_t* subscript, int64_t inc, int64_t* old);

  // Nonblocking forms: records the targets, queues the operation (nonblocking.hpp) and
  // returns; *op tells when it is done.
  int issue(NbOperation::Kind kind, const int64_t* lo, const int64_t* hi, void* buffer,
            const int64_t* ld, const void* alpha, std::shared_ptr<NbOperation>* op);
  // Runs an issued operation (its targets are recorded already): on the progress thread, in a
  // poll or in a wait. Only the transfer itself, so it may run beside the issuing thread.
  int perform(NbOperation::Kind kind, const int64_t* lo, const int64_t* hi, void* buffer,
              const int64_t* ld, const void* alpha);
  // Local completion: every nonblocking operation issued on this array has been performed.
  int complete_issued();
  int64_t issued() const { return issued_.load(std::memory_order_acquire); }

  // Remote completion of this rank's puts/accs to every target touched since the last flush.
  int flush();
  bool has_pending() const { return tracked_; }

  // Direct access (see remora_array_access).
  int access(const int64_t* lo, const int64_t* hi, void** pointer, int64_t* ld);
  // update: put a copy back. REMORA_ERR_ARG when pointer came from no access of this array.
  int release(const char* function, void* pointer, bool update);

 private:
  Array(const Context& context, SyncTracker& tracker, Distribution dist, int type,
        const char* name);
  int create_window(coll::CommPtr comm, const Array* memory_of);
  // target: a world rank.
  void touch(int target);
  // Enters the sync tracker's list (first operation since the last flush).
  void track();
  // One strided transfer per tile of lo..hi: put from buffer (Put) or get into it; record:
  // note the targets for flush (not when an issued operation is performed).
  // lo..hi has one index in every dimension but the last.
  bool single_row(const int64_t* lo, const int64_t* hi) const;
  template <bool Put, typename Buffer>
  int transfer(const int64_t* lo, const int64_t* hi, Buffer* buffer, const int64_t* ld,
               bool record);
  int accumulate(const int64_t* lo, const int64_t* hi, const void* buffer, const int64_t* ld,
                 const void* alpha, bool record);
  int accumulate_tile(int owner, size_t remote_offset, const transport::StridedShape& shape,
                      const char* packed, const void* alpha);

  struct AccessRecord {
    std::vector<int64_t> lo, hi;
    std::vector<char> copy;  // empty for a direct pointer
  };

  Context context_;
  transport::Transport& transport_;
  SyncTracker& tracker_;
  Distribution dist_;
  int type_;
  size_t element_;
  std::string name_;
  coll::CommPtr comm_;
  int comm_rank_ = 0;
  rma::Window* window_ = nullptr;  // memory_'s, kept here for the transfers
  std::shared_ptr<ArrayMemory> memory_;
  std::vector<char> touched_flag_;  // per world rank: touched since the last flush
  std::vector<int> touched_;        // world ranks
  bool tracked_ = false;            // in the sync tracker's list
  std::atomic<int64_t> issued_{0};  // nonblocking operations not yet performed
  std::map<void*, AccessRecord> accesses_;
};

}  // namespace remora::arrays
