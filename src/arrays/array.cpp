#include "arrays/array.hpp"

#include <cstring>

#include "arrays/patch_plan.hpp"
#include "arrays/sync_tracker.hpp"
#include "core/error.hpp"
#include "rma/reduce_op.hpp"

namespace remora::arrays {

namespace {

std::vector<int64_t> patch_extents(int ndim, const int64_t* lo, const int64_t* hi) {
  std::vector<int64_t> extents(static_cast<size_t>(ndim));
  for (int d = 0; d < ndim; ++d) extents[static_cast<size_t>(d)] = hi[d] - lo[d] + 1;
  return extents;
}

// Leading dimensions of a dense buffer of the patch (ndim-1 entries; one unused entry so the
// vector is never empty).
std::vector<int64_t> dense_ld(int ndim, const int64_t* lo, const int64_t* hi) {
  std::vector<int64_t> extents = patch_extents(ndim, lo, hi);
  extents.erase(extents.begin());
  extents.push_back(1);
  return extents;
}

int64_t product(const std::vector<int64_t>& v) {
  int64_t n = 1;
  for (int64_t e : v) n *= e;
  return n;
}

}  // namespace

Array::Array(const Context& context, SyncTracker& tracker, Distribution dist, int type,
             const char* name)
    : context_(context),
      transport_(context.transport),
      tracker_(tracker),
      dist_(std::move(dist)),
      type_(type),
      element_(rma::datatype_size(type)),
      name_(name != nullptr ? name : ""),
      touched_flag_(static_cast<size_t>(context.transport.size()), 0) {}

int Array::create(const Context& context, SyncTracker& tracker, Distribution dist, int type,
                  const char* name, coll::CommPtr comm, Array** out, const Array* memory_of) {
  auto* array = new Array(context, tracker, std::move(dist), type, name);
  if (int status = array->create_window(std::move(comm), memory_of)) {
    if (array->window_ != nullptr && array->memory_ == nullptr)
      context.windows.free("remora_array_create", array->window_);
    delete array;
    return status;
  }
  *out = array;
  return REMORA_SUCCESS;
}

// A world array uses the world communicator; an array on a sub-communicator duplicates it for
// its collectives, so they never interleave with the application's on the same communicator.
int Array::create_window(coll::CommPtr comm, const Array* memory_of) {
  constexpr const char* function = "remora_array_create";
  coll::Collectives& collectives = context_.collectives;
  if (comm == collectives.world()) {
    comm_ = std::move(comm);
  } else if (int status = collectives.dup(comm, &comm_)) {
    return status;
  }
  comm_rank_ = comm_->rank();
  if (memory_of != nullptr) {
    memory_ = memory_of->memory_;
    window_ = memory_->window();
    return REMORA_SUCCESS;
  }
  const size_t bytes = static_cast<size_t>(dist_.local_elements(comm_rank_)) * element_;
  // Immediate lock whatever REMORA_RMA_LOCK says: arrays accumulate from packed temporaries
  // and complete their own operations (a deferred lock would refer to freed buffers).
  rma::WindowOptions options;
  if (int status = rma::parse_window_options(function, context_.config, "lock=immediate", &options))
    return status;
  std::shared_ptr<const rma::WindowGroup> group;
  if (int status = coll::window_group(function, collectives, comm_, &group)) return status;
  if (int status =
          context_.windows.allocate(function, std::move(group), bytes, element_, options, &window_))
    return status;
  if (int status = window_->lock_all(function, REMORA_MODE_NOCHECK)) return status;
  memory_ = std::make_shared<ArrayMemory>(context_.windows, window_);
  return REMORA_SUCCESS;
}

bool Array::same_ranks(const Array& other) const {
  if (comm_size() != other.comm_size()) return false;
  for (int rank = 0; rank < comm_size(); ++rank)
    if (world_rank(rank) != other.world_rank(rank)) return false;
  return true;
}

int Array::barrier() {
  return coll::run_barrier("remora_array_sync", context_.collectives, comm_);
}

int Array::sync() {
  if (int status = tracker_.flush_dirty()) return status;
  return barrier();
}

Array::~Array() {
  tracker_.unmark(this);
}

int Array::destroy() {
  if (int status = flush()) return status;
  if (int status = ArrayMemory::release(&memory_)) return status;
  window_ = nullptr;
  comm_.reset();  // this array's duplicate, if it had one, goes with it
  return REMORA_SUCCESS;
}

char* Array::local() const {
  return static_cast<char*>(window_->base());
}

char* Array::mapped(int rank) const {
  return static_cast<char*>(transport_.address(window_->data_segment(), world_rank(rank)));
}

void Array::track() {
  if (tracked_) return;
  tracked_ = true;
  tracker_.mark(this);
}

void Array::touch(int target) {
  track();
  if (touched_flag_[static_cast<size_t>(target)]) return;
  touched_flag_[static_cast<size_t>(target)] = 1;
  touched_.push_back(target);
}

int Array::flush() {
  int result = complete_issued();
  for (int target : touched_) {
    if (int status = window_->flush("remora_array_flush", target);
        status != REMORA_SUCCESS && result == REMORA_SUCCESS)
      result = status;
    touched_flag_[static_cast<size_t>(target)] = 0;
  }
  if (tracked_) tracker_.unmark(this);
  tracked_ = false;
  touched_.clear();
  return result;
}

bool Array::single_row(const int64_t* lo, const int64_t* hi) const {
  for (int d = 0; d + 1 < ndim(); ++d)
    if (lo[d] != hi[d]) return false;
  return true;
}

template <bool Put, typename Buffer>
int Array::transfer(const int64_t* lo, const int64_t* hi, Buffer* buffer, const int64_t* ld,
                    bool record) {
  int result = REMORA_SUCCESS;
  // One owner whose memory is mapped here, or one row: row by row, nothing allocated (a patch
  // of many rows on another node stays one strided transfer below).
  OwnedPatch patch;
  if (dist_.single_owner(lo, hi, &patch) &&
      (window_->shared_address(world_rank(patch.owner)) != nullptr || single_row(lo, hi))) {
    const int owner = world_rank(patch.owner);
    auto* base = static_cast<std::conditional_t<Put, const char, char>*>(buffer);
    auto* mapped = static_cast<char*>(window_->shared_address(owner));
    for_each_owned_row(patch, ndim(), lo, hi, ld, element_,
                       [&](size_t user_offset, size_t remote_offset, size_t bytes) {
                         if (result != REMORA_SUCCESS) return;
                         if (mapped != nullptr) {  // the owner's memory is mapped: a memcpy
                           if constexpr (Put)
                             std::memcpy(mapped + remote_offset, base + user_offset, bytes);
                           else
                             std::memcpy(base + user_offset, mapped + remote_offset, bytes);
                         } else if constexpr (Put)
                           result = transport_.put(window_->data_segment(), owner, remote_offset,
                                                   base + user_offset, bytes);
                         else
                           result = transport_.get(window_->data_segment(), owner, remote_offset,
                                                   base + user_offset, bytes);
                       });
    if (Put && record) touch(owner);
    return result;
  }
  const std::vector<int64_t> user = buffer_strides(ndim(), ld);
  for_each_tile(dist_, lo, hi, [&](const Tile& tile) {
    if (result != REMORA_SUCCESS) return;
    const TileTransfer t = tile_transfer(tile, lo, user, element_);
    auto* at = static_cast<std::conditional_t<Put, const char, char>*>(buffer) + t.user_offset;
    const int owner = world_rank(tile.owner);
    if constexpr (Put) {
      result = transport_.put_strided(window_->data_segment(), owner, t.remote_offset, at, t.shape);
      if (record) touch(owner);
    } else {
      result = transport_.get_strided(window_->data_segment(), owner, t.remote_offset, at, t.shape);
    }
  });
  return result;
}

int Array::put(const int64_t* lo, const int64_t* hi, const void* buffer, const int64_t* ld) {
  return transfer<true>(lo, hi, buffer, ld, true);
}

int Array::get(const int64_t* lo, const int64_t* hi, void* buffer, const int64_t* ld) {
  return transfer<false>(lo, hi, buffer, ld, true);
}

int Array::put_dense(const int64_t* lo, const int64_t* hi, const void* buffer) {
  return put(lo, hi, buffer, dense_ld(ndim(), lo, hi).data());
}

int Array::get_dense(const int64_t* lo, const int64_t* hi, void* buffer) {
  return get(lo, hi, buffer, dense_ld(ndim(), lo, hi).data());
}

// The tile arrives packed (row-major over its runs); every block of shape is contiguous both
// in the packed buffer and at the owner, and becomes one atomic accumulate.
int Array::accumulate_tile(int owner, size_t remote_offset, const transport::StridedShape& shape,
                           const char* packed, const void* alpha) {
  int result = REMORA_SUCCESS;
  shape.for_each_block([&](size_t packed_offset, size_t owner_offset) {
    if (result != REMORA_SUCCESS) return;
    rma::AccArgs args;
    args.target = world_rank(owner);
    args.offset = remote_offset + owner_offset;
    args.origin = packed + packed_offset;
    args.count = shape.count[0] / element_;
    args.type = type_;
    args.op = REMORA_OP_SCALED_SUM;
    args.alpha = alpha;
    result = window_->accumulate("remora_array_acc", args);
  });
  return result;
}

int Array::acc(const int64_t* lo, const int64_t* hi, const void* buffer, const int64_t* ld,
               const void* alpha) {
  return accumulate(lo, hi, buffer, ld, alpha, true);
}

int Array::accumulate(const int64_t* lo, const int64_t* hi, const void* buffer, const int64_t* ld,
                      const void* alpha, bool record) {
  OwnedPatch patch;
  // One owner: one strided accumulate per slab (all of a 1-d or 2-d patch), no packing; where
  // the owner's memory is mapped, updated in place under its stripes, each taken once.
  if (dist_.single_owner(lo, hi, &patch)) {
    int result = REMORA_SUCCESS;
    rma::AccArgs args;
    args.target = world_rank(patch.owner);
    args.type = type_;
    args.op = REMORA_OP_SCALED_SUM;
    args.alpha = alpha;
    for_each_owned_slab(patch, ndim(), lo, hi, ld, element_,
                        [&](size_t user_offset, size_t remote_offset, size_t bytes, size_t rows,
                            size_t user_row, size_t remote_row) {
                          if (result != REMORA_SUCCESS) return;
                          args.offset = remote_offset;
                          args.origin = static_cast<const char*>(buffer) + user_offset;
                          args.count = bytes / element_;
                          result = window_->accumulate_rows("remora_array_acc", args, rows,
                                                            remote_row, user_row);
                        });
    if (record) touch(args.target);
    return result;
  }
  const std::vector<int64_t> user = buffer_strides(ndim(), ld);
  const int64_t e = static_cast<int64_t>(element_);
  std::vector<char> packed;
  int result = REMORA_SUCCESS;
  for_each_tile(dist_, lo, hi, [&](const Tile& tile) {
    if (result != REMORA_SUCCESS) return;
    const std::vector<int64_t>& local = tile.local;
    const TileTransfer t = tile_transfer(tile, lo, user, element_);
    // Pack: the user's strided tile into a dense buffer of the tile's shape.
    std::vector<Axis> to_packed, to_owner;
    int64_t packed_stride = 1, owner_stride = 1;
    std::vector<int64_t> packed_strides(tile.runs.size()), owner_strides(tile.runs.size());
    for (size_t d = tile.runs.size(); d-- > 0;) {
      packed_strides[d] = packed_stride;
      owner_strides[d] = owner_stride;
      packed_stride *= tile.runs[d].length;
      owner_stride *= local[d];
    }
    for (size_t d = 0; d < tile.runs.size(); ++d) {
      const Run& run = tile.runs[d];
      to_packed.push_back(Axis{run.length, user[d] * run.step * e, packed_strides[d] * e});
      to_owner.push_back(Axis{run.length, packed_strides[d] * e, owner_strides[d] * e});
    }
    packed.resize(static_cast<size_t>(packed_stride * e));
    copy_strided(merged_shape(to_packed, element_),
                 static_cast<const char*>(buffer) + t.user_offset, packed.data());
    result = accumulate_tile(tile.owner, t.remote_offset, merged_shape(to_owner, element_),
                             packed.data(), alpha);
    if (record) touch(world_rank(tile.owner));
  });
  return result;
}

int Array::issue(NbOperation::Kind kind, const int64_t* lo, const int64_t* hi, void* buffer,
                 const int64_t* ld, const void* alpha, std::shared_ptr<NbOperation>* op) {
  // Targets are recorded now, on the issuing thread, so that flush and sync find them.
  track();
  if (kind != NbOperation::Kind::Get)
    for_each_tile(dist_, lo, hi, [&](const Tile& tile) { touch(world_rank(tile.owner)); });
  if (int status = nb_queue().prepare(transport_)) return status;
  *op = std::make_shared<NbOperation>(kind, *this, lo, hi, buffer, ld, alpha);
  issued_.fetch_add(1, std::memory_order_relaxed);
  // A failed doorbell (the job is aborting) leaves the operation queued: flush still runs it.
  return nb_queue().issue(transport_, *op);
}

int Array::perform(NbOperation::Kind kind, const int64_t* lo, const int64_t* hi, void* buffer,
                   const int64_t* ld, const void* alpha) {
  int status = REMORA_SUCCESS;
  switch (kind) {
    case NbOperation::Kind::Put:
      status = transfer<true>(lo, hi, static_cast<const void*>(buffer), ld, false);
      break;
    case NbOperation::Kind::Get:
      status = transfer<false>(lo, hi, buffer, ld, false);
      break;
    case NbOperation::Kind::Acc:
      status = accumulate(lo, hi, buffer, ld, alpha, false);
      break;
  }
  // Last touch of the array: once the count reaches 0 a waiting flush may destroy it.
  issued_.fetch_sub(1, std::memory_order_release);
  return status;
}

int Array::complete_issued() {
  if (issued() == 0) return REMORA_SUCCESS;
  return nb_queue().wait(transport_, [this] { return issued() == 0; });
}

// scatter, gather and scatter_acc: owner_batches.cpp.

int Array::read_inc(const int64_t* subscript, int64_t inc, int64_t* old) {
  rma::AccArgs args;
  int64_t index = 0;
  dist_.locate(subscript, &args.target, &index);
  args.target = world_rank(args.target);
  args.offset = static_cast<uint64_t>(index) * element_;
  const int32_t inc32 = static_cast<int32_t>(inc);
  int64_t result64 = 0;
  int32_t result32 = 0;
  const bool wide = type_ == REMORA_INT64;
  args.origin = wide ? static_cast<const void*>(&inc) : &inc32;
  args.result = wide ? static_cast<void*>(&result64) : &result32;
  args.count = 1;
  args.type = type_;
  args.op = REMORA_OP_SUM;
  if (int status = window_->accumulate_in_place("remora_array_read_inc", args)) return status;
  if (old != nullptr) *old = wide ? result64 : result32;
  return REMORA_SUCCESS;
}

int Array::access(const int64_t* lo, const int64_t* hi, void** pointer, int64_t* ld) {
  AccessRecord record{
      std::vector<int64_t>(lo, lo + ndim()), std::vector<int64_t>(hi, hi + ndim()), {}};
  // Direct: the patch lies inside one block (one tile, its rows contiguous) whose memory is
  // mapped here. For cyclic kinds too: GA hands out pointers to blocks of block-cyclic arrays.
  Tile only;
  int tiles = 0;
  for_each_tile(dist_, lo, hi, [&](const Tile& tile) {
    if (++tiles == 1) only = tile;
  });
  bool contiguous = tiles == 1;
  for (const Run& run : only.runs) contiguous = contiguous && (run.step == 1 || run.length == 1);
  char* base = contiguous ? mapped(only.owner) : nullptr;
  if (base != nullptr) {
    int64_t offset = 0;
    for (int d = 0; d < ndim(); ++d)
      offset = offset * only.local[static_cast<size_t>(d)] +
               only.runs[static_cast<size_t>(d)].local_start;
    for (int d = 0; d + 1 < ndim(); ++d) ld[d] = only.local[static_cast<size_t>(d) + 1];
    *pointer = base + (only.local_base + offset) * static_cast<int64_t>(element_);
    accesses_[*pointer] = std::move(record);
    return REMORA_SUCCESS;
  }
  // A copy: gathered with get, put back by release_update.
  const std::vector<int64_t> extents = patch_extents(ndim(), lo, hi);
  record.copy.resize(static_cast<size_t>(product(extents)) * element_);
  if (int status = get_dense(lo, hi, record.copy.data())) return status;
  for (int d = 0; d + 1 < ndim(); ++d) ld[d] = extents[static_cast<size_t>(d) + 1];
  *pointer = record.copy.data();
  accesses_[*pointer] = std::move(record);
  return REMORA_SUCCESS;
}

int Array::release(const char* function, void* pointer, bool update) {
  const auto it = accesses_.find(pointer);
  if (it == accesses_.end())
    return fail(REMORA_ERR_ARG,
                "%s: pointer=%p was not returned by remora_array_access on array '%s' (or was "
                "released already)",
                function, pointer, name_.c_str());
  int status = REMORA_SUCCESS;
  if (update) {
    const AccessRecord& record = it->second;
    if (!record.copy.empty())
      status = put_dense(record.lo.data(), record.hi.data(), record.copy.data());
    else
      std::atomic_thread_fence(std::memory_order_seq_cst);
  }
  accesses_.erase(it);
  return status;
}

}  // namespace remora::arrays
