#include "rma/window.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>

#include "core/error.hpp"
#include "rma/accumulate/locked_update.hpp"
#include "rma/accumulate/native_atomics.hpp"
#include "rma/accumulate/owner_computes.hpp"
#include "rma/bulk_copy.hpp"
#include "rma/deferred_fence.hpp"
#include "rma/deferred_lock.hpp"
#include "rma/locks/lock_granularity.hpp"
#include "rma/locks/lock_table.hpp"
#include "rma/locks/remote_locks.hpp"
#include "rma/locks/rw_lock.hpp"
#include "rma/member_marks.hpp"
#include "rma/pscw.hpp"
#include "rma/reduce_op.hpp"
#include "rma/user_memory.hpp"

namespace remora::rma {

Window::Window(const WindowServices& services, std::shared_ptr<const WindowGroup> group,
               uint64_t id, const WindowOptions& options)
    : transport_(*services.transport),
      ghosts_(*services.ghosts),
      group_(std::move(group)),
      barrier_(group_ ? group_->barrier : services.barrier),
      reduce_scatter_(group_ ? group_->reduce_scatter : services.reduce_scatter),
      owner_(*services.owner),
      id_(id),
      options_(options),
      path_strategy_(options.strategy),
      targets_(static_cast<size_t>(transport_.size())),
      rank_(transport_.rank()),
      locks_(services.locks),
      epoch_(TargetBytes<LockMode>(&targets_.front().lock_mode, sizeof(Target))),
      pscw_(std::make_unique<Pscw>(*this)) {
  if (options_.fence == SyncImpl::Deferred)
    deferred_fence_ = std::make_unique<DeferredFence>(*this);
  if (options_.lock == SyncImpl::Deferred) deferred_lock_ = std::make_unique<DeferredLock>(*this);
  if (group_) {
    members_ = group_->world_ranks;
  } else {
    for (int rank = 0; rank < transport_.size(); ++rank) members_.push_back(rank);
  }
  comm_size_ = static_cast<int>(members_.size());
  spans_nodes_ = std::any_of(members_.begin(), members_.end(), [this](int rank) {
    return transport_.node_of(rank) != transport_.node_of(members_.front());
  });
  // The ghosts map the world's segments only: they are no agent for a sub-communicator's.
  const bool served = services.target_progress && (!group_ || !ghost_progress());
  if (options_.strategy == AccStrategy::Auto && spans_nodes_ && !served)
    path_strategy_ = AccStrategy::Caller;
  // Lock requests have an agent also under MPI ghost progress, where the runtime reports no
  // target progress (its ranks progress manually): the ghost maps every world window's sync
  // segment.
  node_local_lock_ = spans_nodes_ && (served || ghost_serves_locks()) && locks_ != nullptr;
}

int Window::comm_rank(int world) const {
  if (!group_) return world;
  for (size_t r = 0; r < members_.size(); ++r)
    if (members_[r] == world) return static_cast<int>(r);
  return -1;
}

Window::~Window() {
  owner_.detach(this);
  delete data_;
  delete sync_;
}

int Window::create(const char* function, const WindowServices& services,
                   std::shared_ptr<const WindowGroup> group, uint64_t id, size_t bytes,
                   size_t disp_unit, const WindowOptions& options, std::unique_ptr<Window>* out,
                   const UserRegion* user) {
  if (group && options.strategy == AccStrategy::Owner &&
      services.ghosts->ghost_of(services.transport->rank()) >= 0)
    return fail(REMORA_ERR_UNSUPPORTED,
                "%s: acc_strategy=owner on a sub-communicator is not served by ghost progress "
                "(the ghost maps only the world's segments); use thread or manual progress, or "
                "another strategy",
                function);
  std::unique_ptr<Window> window(new Window(services, std::move(group), id, options));
  // Over user memory the data segment stays empty (it still names the window for the ghost).
  if (int status = window->allocate_segments(user != nullptr ? 0 : bytes)) return status;
  window->cpu_atomics_ = window->transport_.cpu_atomics(*window->sync_);
  window->make_rw_locks();
  if (user != nullptr) {
    if (int status = UserMemory::create(function, window->transport_, window->barrier_,
                                        *services.agent_rdma, user->base, bytes, user->mode,
                                        &window->local_edge_, &window->user_)) {
      window->free_segments();  // every rank saw the same failure
      return status;
    }
  }
  // Fixed from here on: the data segment's parts, or the user memory each rank gave.
  const size_t* sizes = user != nullptr ? window->user_->sizes() : window->data_->bytes.data();
  for (size_t r = 0; r < window->targets_.size(); ++r) window->targets_[r].bytes = sizes[r];
  window->map_direct_data();  // after user_ is known
  // Not under ghost progress, whose ghosts serve owner-computes requests while the target
  // computes: MPI's accumulates may need the target itself in MPI (MPICH applies them there).
  window->transport_accumulates_ = user == nullptr && window->spans_nodes_ &&
                                   window->options_.strategy == AccStrategy::Auto &&
                                   !window->ghost_progress();
  if (window->transport_accumulates_)
    window->transport_pending_.assign(static_cast<size_t>(window->transport_.size()), 0);
  window->gets_in_flight_.assign(static_cast<size_t>(window->transport_.size()), 0);
  window->make_fast_locks();  // after the mappings and transport_accumulates_ are known
  // Coarse stripes where the lock table goes through the network (lock_granularity.hpp).
  window->options_.lock_granularity = lock_table_granularity(
      window->options_, lock_table_through_network(window->transport_, window->node_local_table()));
  window->make_lock_tables();  // after user_ and the granularity are known
  // Requests may arrive as soon as a faster rank leaves the exchange's barrier.
  window->owner_.attach(window.get());
  if (int status = window->exchange_parameters(function, disp_unit)) {
    // Every rank saw the same disagreement, so freeing stays collective.
    if (window->user_) window->user_->free();
    window->free_segments();
    return status;
  }
  *out = std::move(window);
  return REMORA_SUCCESS;
}

// A group window's segments are collective over its members only.
int Window::allocate_segments(size_t bytes) {
  auto allocate = [this](size_t part, transport::Segment** segment) {
    return group_ ? transport_.allocate_group_segment(members_, part, group_->allgather, segment)
                  : transport_.allocate_segment(part, segment);
  };
  if (int status = allocate(bytes, &data_)) return status;
  return allocate(sync_geometry().bytes(), &sync_);
}

int Window::free_segments() {
  auto release = [this](transport::Segment* segment) {
    return group_ ? transport_.free_group_segment(segment) : transport_.free_segment(segment);
  };
  const int status = release(sync_);
  const int data_status = release(data_);
  sync_ = data_ = nullptr;
  return status != REMORA_SUCCESS ? status : data_status;
}

int Window::exchange_parameters(const char* function, size_t disp_unit) {
  const int me = transport_.rank();
  auto word = [this](int rank, size_t offset) {
    return SyncWord(transport_, *sync_, rank, offset);
  };
  word(me, SyncGeometry::kDispUnit).store(disp_unit);
  word(me, SyncGeometry::kStrategy).store(static_cast<uint64_t>(path_strategy_));
  word(me, SyncGeometry::kLockStripes).store(options_.lock_stripes);
  word(me, SyncGeometry::kLockGranularity).store(options_.lock_granularity);
  word(me, SyncGeometry::kSyncImpls)
      .store(static_cast<uint64_t>(options_.fence) | static_cast<uint64_t>(options_.lock) << 1 |
             static_cast<uint64_t>(node_local_lock_) << 2);
  if (int status = barrier_()) return status;
  for (int rank : members_)
    if ((word(rank, SyncGeometry::kSyncImpls).load() >> 2 & 1) != node_local_lock_)
      return fail(REMORA_ERR_ARG,
                  "%s: REMORA_PROGRESS differs between ranks: rank %d %s a progress agent for "
                  "its lock words, rank %d does not agree (world ranks)",
                  function, rank, node_local_lock_ ? "lacks" : "has", me);
  auto options_of = [&word](int rank) {
    const uint64_t impls = word(rank, SyncGeometry::kSyncImpls).load();
    return WindowOptions{static_cast<AccStrategy>(word(rank, SyncGeometry::kStrategy).load()),
                         word(rank, SyncGeometry::kLockStripes).load(),
                         word(rank, SyncGeometry::kLockGranularity).load(),
                         static_cast<SyncImpl>(impls & 1), static_cast<SyncImpl>(impls >> 1 & 1)};
  };
  const WindowOptions first = options_of(members_.front());
  for (int rank : members_) {
    targets_[static_cast<size_t>(rank)].disp_unit = word(rank, SyncGeometry::kDispUnit).load();
    const WindowOptions theirs = options_of(rank);
    if (theirs == first) continue;
    auto describe = [](const WindowOptions& o) {
      return format(
          "acc_strategy=%s acc_lock_stripes=%llu acc_lock_granularity=%llu fence=%s lock=%s",
          acc_strategy(o.strategy).name, static_cast<unsigned long long>(o.lock_stripes),
          static_cast<unsigned long long>(o.lock_granularity), sync_impl_name(o.fence),
          sync_impl_name(o.lock));
    };
    return fail(REMORA_ERR_ARG,
                "%s: info differs between ranks: rank %d has %s, rank %d has %s (world ranks; "
                "acc_strategy=auto on a window across nodes counts as caller without a progress "
                "thread, so REMORA_PROGRESS must agree too)",
                function, rank, describe(theirs).c_str(), members_.front(),
                describe(first).c_str());
  }
  // Across nodes the reads above are MPI atomics, which MPICH completes only while their target
  // is inside MPI: nobody may leave for a wait that does not drive MPI (the node-local barrier
  // of the next segment allocation) before every rank has read its parameters.
  return barrier_();
}

int Window::free(const char* function) {
  if (int status = epoch_.check_free(function)) return status;
  if (int status = complete_all()) return status;
  // Nobody still accesses this rank's memory, nor will after this.
  if (int status = barrier_()) return status;
  // Nor does this rank's progress thread: it has sent the replies, but may still be returning
  // from the handler that sent the last one.
  transport_.wait_for_handlers();
  const int status = user_ ? user_->free() : REMORA_SUCCESS;
  const int segments_status = free_segments();
  return status != REMORA_SUCCESS ? status : segments_status;
}

OpQueue* Window::deferral(int target) {
  if (OpQueue* queue = pscw_->deferral()) return queue;
  if (epoch_.fence_open()) return deferred_fence_ ? &deferred_fence_->queue() : nullptr;
  return deferred_lock_ ? deferred_lock_->pending(target) : nullptr;
}

int Window::execute(const QueuedOp& op) {
  switch (op.kind) {
    case OpKind::Put:
      return do_put(op.target, op.offset, op.origin, op.bytes);
    case OpKind::Get:
      return do_get(op.target, op.offset, op.result, op.bytes);
    case OpKind::Accumulate:
      return do_accumulate(op.acc);
  }
  return REMORA_ERR_INTERNAL;
}

void* Window::base() const {
  return user_ ? user_->base() : transport_.address(*data_, transport_.rank());
}

[[gnu::noinline]] int Window::copy_large(void* to, const void* from, size_t bytes) {
  bulk_copy(to, from, bytes);
  return REMORA_SUCCESS;
}

[[gnu::noinline]] int Window::put_slow(const char* function, int target, uint64_t offset,
                                       const void* origin, size_t bytes) {
  // (A deferred epoch whose word take_fresh found busy: defer_put tries it once more in
  // take_now, never waiting, then records the put.)
  // A lock epoch excludes fence and PSCW epochs: in a passive epoch to target the access is
  // allowed, there is no fence epoch to note and no queue but the deferred lock's, so a put the
  // deferred lock does not record (its word is held) is done now.
  if (deferred_lock_ && epoch_.passive(target)) {
    if (deferred_lock_->defer_put(target, offset, origin, bytes)) return REMORA_SUCCESS;
    return do_put(target, offset, origin, bytes);
  }
  if (!epoch_.passive(target)) [[unlikely]] {
    if (int status = epoch_.check_access(function, target)) return status;
    epoch_.note_operation();
    if (int status = await_fence_entries_if_pending()) return status;
  }
  if (OpQueue* queue = deferral(target)) {
    queue->push_put(target, offset, origin, bytes);
    return REMORA_SUCCESS;
  }
  return do_put(target, offset, origin, bytes);
}

int Window::do_put(int target, uint64_t offset, const void* origin, size_t bytes) {
  if (unsigned char* part = targets_[static_cast<size_t>(target)].direct) {
    if (target == rank_) touch_local_edge();
    copy_bytes(part + offset, origin, bytes);
    return REMORA_SUCCESS;
  }
  if (user_) return user_->put(*this, target, offset, origin, bytes);
  if (target == transport_.rank()) touch_local_edge();
  return transport_.put(*data_, target, offset, origin, bytes);
}

int Window::get_checked(const char* function, int target, uint64_t offset, void* result,
                        size_t bytes) {
  if (deferred_lock_ && epoch_.passive(target)) {  // as put_slow
    if (deferred_lock_->defer_get(target, offset, result, bytes)) return REMORA_SUCCESS;
    return do_get(target, offset, result, bytes);
  }
  if (!epoch_.passive(target)) [[unlikely]] {
    if (int status = epoch_.check_access(function, target)) return status;
    epoch_.note_operation();
    if (int status = await_fence_entries_if_pending()) return status;
  }
  if (OpQueue* queue = deferral(target)) {
    queue->push_get(target, offset, result, bytes);
    return REMORA_SUCCESS;
  }
  return do_get(target, offset, result, bytes);
}

int Window::do_get(int target, uint64_t offset, void* result, size_t bytes) {
  if (const unsigned char* part = targets_[static_cast<size_t>(target)].direct) {
    if (target == rank_) touch_local_edge();
    copy_bytes(result, part + offset, bytes);
    return REMORA_SUCCESS;
  }
  if (user_) return user_->get(*this, target, offset, result, bytes);
  if (target == transport_.rank()) touch_local_edge();
  return transport_.get(*data_, target, offset, result, bytes);
}

int Window::get_pending(const char* function, int target, uint64_t offset, void* result,
                        size_t bytes, std::shared_ptr<transport::PendingGet>* pending) {
  pending->reset();
  const bool in_flight = targets_[static_cast<size_t>(target)].direct == nullptr && !user_ &&
                         !deferred_lock_ && bytes > 0 && epoch_.passive(target) &&
                         deferral(target) == nullptr;
  if (!in_flight) return get(function, target, offset, result, bytes);
  gets_in_flight_[static_cast<size_t>(target)] = 1;
  return transport_.get_pending(*data_, target, offset, result, bytes, pending);
}

// All ranks choose the same path for a given location and type, so the paths never race: the
// ranks that map the target's memory (its node) apply CPU atomics or the lock table there,
// the others ship the update to the owner, which applies it by the same rule (acc_route.hpp).
// Windows over user memory, which only their owner maps, never use CPU atomics: the lock table,
// applied by this rank when it can reach the memory, else by the owner's agent. Before all that,
// a window whose accumulates cross nodes through the transport's (MPI's) accumulates sends every
// type they take so, for every target: they are atomic only with each other.
AccPath Window::acc_path(int type, uint64_t offset, int target) const {
  if (transport_accumulates_ && transport_.accumulates(*data_, type)) return AccPath::Transport;
  const bool self = target == rank_;
  if (user_) {
    const bool by_owner =
        options_.strategy == AccStrategy::Owner || user_->path(target) == AccessPath::Agent;
    return by_owner && !self ? AccPath::Owner : AccPath::LockTable;
  }
  const AccTarget where{targets_[static_cast<size_t>(target)].direct != nullptr, self};
  return choose_acc_path(path_strategy_, where, type, offset);
}

bool Window::owner_applies_native(int type, uint64_t offset) const {
  return acc_path(type, offset, transport_.rank()) == AccPath::Native;
}

int Window::accumulate(const char* function, const AccArgs& args) {
  if (int status = epoch_.check_access(function, args.target)) return status;
  epoch_.note_operation();
  if (int status = await_fence_entries_if_pending()) return status;
  if (args.count == 0) return REMORA_SUCCESS;
  if (OpQueue* queue = deferral(args.target)) {
    queue->push_accumulate(args);
    return REMORA_SUCCESS;
  }
  return do_accumulate(args);
}

namespace {

// accumulate_in_place's update of more than one element (compare_and_swap is one element: only
// an accumulate or get_accumulate here). Out of line, as the busy-stripe fallback: the
// one-element path keeps a small stack frame.
[[gnu::noinline]] void update_range_in_place(const AccArgs& args, unsigned char* at, size_t bytes) {
  if (args.result != nullptr) std::memcpy(args.result, at, bytes);
  if (args.op != REMORA_OP_NO_OP)
    apply_op(args.op, args.type, at, args.origin, args.count, args.alpha);
}

}  // namespace

int Window::accumulate_in_place(const char* function, const AccArgs& args) {
  // passive_direct: an epoch whose operations to the target run at once (passive, immediate; no
  // fence epoch, no PSCW or deferred queue; never this rank), so accumulate() would pass its epoch
  // check, note nothing and not defer: only the path remains to choose, which acc_in_place
  // says for the target (acc_path's answer, decided at creation).
  const Target& to = targets_[static_cast<size_t>(args.target)];
  unsigned char* part = to.passive_direct;
  if (part == nullptr || args.count == 0 || to.acc_in_place == kAccGeneral) [[unlikely]]
    return accumulate_in_place_checked(function, args);
  if (to.acc_in_place == kAccLockTable) return update_on_stripe(part, args);
  if (!native_capable(args.type, args.offset)) return do_accumulate(args);  // the lock table
  apply_native_at(part, args);
  return REMORA_SUCCESS;
}

int Window::accumulate_in_place_checked(const char* function, const AccArgs& args) {
  // The conditions under which accumulate() would pass its epoch check, note nothing and not
  // defer: a passive epoch to the target, no fence epoch, no deferred lock, no PSCW queue.
  unsigned char* part = element_in_place_[static_cast<size_t>(args.target)];
  if (part == nullptr || args.count == 0 || !epoch_.passive(args.target) || epoch_.fence_open() ||
      deferred_lock_ || pscw_->deferral() != nullptr)
    return accumulate(function, args);
  return update_on_stripe(part, args);
}

int Window::update_on_stripe(unsigned char* part, const AccArgs& args) {
  LockTable& table = lock_tables_[static_cast<size_t>(args.target)];
  const size_t bytes = args.count * datatype_size(args.type);
  const int64_t stripe = table.element_stripe(args.offset, bytes);
  if (stripe < 0 || !table.lock_element(stripe)) return do_accumulate(args);  // still busy
  // The stripe's compare-and-swap (acquire) and sequentially consistent release store order
  // these plain accesses with every other holder's.
  const bool self = args.target == rank_;
  if (self) touch_local_edge();  // as apply_locked around updates of this rank's own memory
  unsigned char* at = part + args.offset;
  if (args.count == 1)
    update_one(args.op, args.type, at, args.origin, args.compare, args.result, args.alpha);
  else
    update_range_in_place(args, at, bytes);
  if (self) touch_local_edge();
  table.unlock_element(stripe);
  return REMORA_SUCCESS;
}

// Not inlined into accumulate_in_place, whose busy-stripe fallback it is (a tail call there).
[[gnu::noinline]] int Window::do_accumulate(const AccArgs& args) {
  const AccPath path = acc_path(args.type, args.offset, args.target);
  // A window whose accumulates go through the transport sends the types it cannot take (the
  // unsigned ones) another way (owner computes, or the lock table). This origin's earlier
  // accumulates to the target on the other way are completed first, so that the two stay in
  // issue order (docs/rma.md, "Ordering of accumulates from one origin"): owner requests in
  // flight before a transport accumulate, transport accumulates (complete() clears the mark)
  // before any other.
  if (path == AccPath::Transport) {
    if (int status = await_owner(args.target)) return status;
    return apply_transport(args);
  }
  if (transport_accumulates_ && transport_pending_[static_cast<size_t>(args.target)])
    if (int status = complete(args.target)) return status;
  switch (path) {
    case AccPath::Native:
      return apply_native(args);
    case AccPath::Owner:
      return owner_.send(*this, args);
    case AccPath::Transport:  // above
    case AccPath::LockTable:
      break;
  }
  return apply_locked(args);
}

int Window::apply_native(const AccArgs& args) {
  apply_native_at(targets_[static_cast<size_t>(args.target)].direct, args);
  return REMORA_SUCCESS;
}

// REMORA_OP_SCALED_SUM, which the transport does not take, is scaled here and summed there.
int Window::apply_transport(const AccArgs& args) {
  transport::Accumulate operation{args.origin, args.compare, args.result,
                                  args.count,  args.type,    args.op};
  std::vector<unsigned char> scaled;
  if (args.op == REMORA_OP_SCALED_SUM) {
    scaled.assign(args.count * datatype_size(args.type), 0);
    apply_op(REMORA_OP_SCALED_SUM, args.type, scaled.data(), args.origin, args.count, args.alpha);
    operation.origin = scaled.data();
    operation.op = REMORA_OP_SUM;
  }
  if (args.target == rank_) touch_local_edge();
  transport_pending_[static_cast<size_t>(args.target)] = 1;
  return transport_.accumulate(*data_, args.target, args.offset, operation);
}

int Window::complete_transport_accumulates(int target) {
  if (!transport_accumulates_) return REMORA_SUCCESS;
  transport_pending_[static_cast<size_t>(target)] = 0;
  return transport_.flush_accumulates(*data_, target);
}

int Window::apply_locked(const AccArgs& args) {
  return rma::apply_locked(memory(), args, &lock_tables_[static_cast<size_t>(args.target)]);
}

WindowMemory Window::memory() {
  return WindowMemory{&transport_,
                      data_,
                      sync_,
                      sync_geometry(),
                      options_.lock_granularity,
                      &local_edge_,
                      user_.get(),
                      node_local_table()};
}

int Window::await_owner(int target) {
  const std::atomic_ref<uint64_t> pending = owner_pending(target);
  // Nothing in flight (the common case) needs no wait loop, whose set-up reads the clock.
  if (pending.load(std::memory_order_acquire) == 0) return REMORA_SUCCESS;
  return transport_.wait_until([pending] { return pending.load(std::memory_order_acquire) == 0; });
}

int Window::complete(int target) {
  if (int status = await_owner(target)) return status;
  if (int status = complete_transport_accumulates(target)) return status;
  return transport_.flush(target);
}

// Where puts and gets to target are memcpys on the mapping and its lock word is released with a
// sequentially consistent read-modify-write on the same mapping, that release orders them for
// the next holder as the transport's flush (a fence) would: only owner requests are awaited.
int Window::complete_for_release(int target) {
  const auto t = static_cast<size_t>(target);
  const bool ordered =
      targets_[t].direct != nullptr && targets_[t].lock_checked && rw_locks_[t].direct();
  if (!ordered) return complete(target);
  if (int status = await_owner(target)) return status;
  return complete_transport_accumulates(target);
}

int Window::complete_all() {
  const int size = transport_.size();
  if (int status = transport_.wait_until([this, size] {
        for (int target = 0; target < size; ++target)
          if (owner_requests_in_flight(targets_[static_cast<size_t>(target)])) return false;
        return true;
      }))
    return status;
  std::fill(transport_pending_.begin(), transport_pending_.end(), 0);
  return transport_.flush_all();
}

// Immediate fence (paper 001): complete own operations, then one barrier that both ends the
// previous epoch everywhere and starts the next. Only NOPRECEDE together with NOSUCCEED has
// nothing to end and nothing to start, so it skips the barrier; NOSTORE and NOPUT need no
// work on shared memory (the barrier already orders local stores and remote updates).
// On one node (cpu_atomics_) the barrier is made of the members' fence marks (member_marks.hpp):
// each rank stores its count of fences into its own sync part and waits until every member's
// count reaches it. Its own operations are complete (memcpys on the mapping, owner requests
// acknowledged by complete_all) and ordered before its mark by the mark's release store; a rank
// that has acquired every mark sees every update of the ended epoch, and no member can still
// be storing to its memory before the fence. Unlike the transport's central barrier, no word is
// written by every rank and only the last to arrive wakes sleepers.
// NOPRECEDE alone ends nothing (MPI: such a fence need not act as a barrier): on one node it
// only publishes this rank's mark, and this rank's first access in the epoch waits for every
// member's (await_fence_entries), so an unused epoch, such as the two fences of paper 001's
// Fig. 2, costs one barrier instead of two, and the rank that enters first does not wait for
// the others.
int Window::fence(const char* function, int assert_flags) {
  if (int status = epoch_.check_fence(function, assert_flags)) return status;
  if (deferred_fence_) {
    const int status = deferred_fence_->fence(assert_flags);
    epoch_.fenced(assert_flags);  // the epoch ended on this rank even if an operation failed
    return status;
  }
  if (int status = complete_all()) return status;
  constexpr int kNothingToSynchronise = REMORA_MODE_NOPRECEDE | REMORA_MODE_NOSUCCEED;
  const int synchronise = assert_flags & kNothingToSynchronise;
  if (synchronise == REMORA_MODE_NOPRECEDE && cpu_atomics_) {
    enter_fence();
    epoch_.fenced(assert_flags);
    epoch_.set_entries_pending(true);
    return REMORA_SUCCESS;  // nothing ended, so there is nothing new to see
  }
  if (synchronise != kNothingToSynchronise) {
    if (!cpu_atomics_) {
      if (int status = barrier_()) return status;
    } else {
      enter_fence();  // wakes the sleepers if this rank arrived last
      if (int status = await_fence_entries()) return status;
    }
    epoch_.set_entries_pending(false);  // everyone has entered every earlier fence
  }
  epoch_.fenced(assert_flags);
  sync();  // the updates of the ended epoch are visible to this rank's loads
  return REMORA_SUCCESS;
}

uint64_t* Window::fence_entries_word(int rank) const {
  auto* part = static_cast<unsigned char*>(transport_.address(*sync_, rank));
  return reinterpret_cast<uint64_t*>(part + sync_geometry().fence_entries());
}

// The members' marks (SyncGeometry::fence_entries), each counting the immediate fences its
// rank entered on one node (member_marks.hpp).
void Window::enter_fence() {
  const MemberMarks marks(transport_, members_,
                          [this](int rank) { return fence_entries_word(rank); });
  marks.arrive(rank_, ++fence_entries_);
}

int Window::await_fence_entries() {
  const MemberMarks marks(transport_, members_,
                          [this](int rank) { return fence_entries_word(rank); });
  const int status = marks.await(fence_entries_);
  if (status == REMORA_SUCCESS) epoch_.set_entries_pending(false);
  return status;
}

int Window::lock_slow(const char* function, int lock_type, int target, int assert_flags) {
  if (lock_type != REMORA_LOCK_EXCLUSIVE && lock_type != REMORA_LOCK_SHARED)
    return fail(REMORA_ERR_ARG,
                "%s: lock_type=%d is neither REMORA_LOCK_EXCLUSIVE nor REMORA_LOCK_SHARED",
                function, lock_type);
  if ((assert_flags & ~REMORA_MODE_NOCHECK) != 0)
    return fail(REMORA_ERR_ARG, "%s: assert_flags=%d has bits other than REMORA_MODE_NOCHECK",
                function, assert_flags);
  if (int status = epoch_.begin_lock(function, target)) return status;
  if (int status = await_fence_entries_if_pending()) return status;
  const LockMode mode = lock_type == REMORA_LOCK_EXCLUSIVE ? LockMode::Exclusive : LockMode::Shared;
  targets_[static_cast<size_t>(target)].lock_checked = (assert_flags & REMORA_MODE_NOCHECK) == 0;
  if (deferred_lock_) {
    epoch_.locked(target, mode);
    const int status = deferred_lock_->lock(target);
    if (status != REMORA_SUCCESS) epoch_.unlocked(target);
    return status;
  }
  if (int status = take_lock_word(target, mode)) return status;
  epoch_.locked(target, mode);
  open_passive_direct(target);
  return REMORA_SUCCESS;
}

// Both take and release do nothing for a NOCHECK epoch.
int Window::take_lock_word(int target, LockMode mode) {
  if (!targets_[static_cast<size_t>(target)].lock_checked) return REMORA_SUCCESS;
  return acquire(target, mode);
}

int Window::release_lock_word(int target, LockMode mode) {
  if (!targets_[static_cast<size_t>(target)].lock_checked) return REMORA_SUCCESS;
  return release(target, mode);
}

// A node-local word is kicked: a release here tells the target's agent when it holds
// requests of other nodes.
// The transport's put and get of a mapped part are a memcpy (ShmTransport; the MPI transport
// on the node): the direct path does that memcpy itself. User memory has its own paths.
void Window::map_direct_data() {
  if (user_) return;
  for (int target : members_)
    targets_[static_cast<size_t>(target)].direct =
        static_cast<unsigned char*>(transport_.address(*data_, target));
}

void* Window::shared_address(int rank) const {
  if (user_) return rank == rank_ ? base() : nullptr;
  return targets_[static_cast<size_t>(rank)].direct;
}

void Window::make_lock_tables() {
  lock_tables_.reserve(static_cast<size_t>(transport_.size()));
  for (int target = 0; target < transport_.size(); ++target)
    lock_tables_.emplace_back(transport_, *sync_, sync_geometry(), options_.lock_granularity,
                              target, node_local_table());
  // The one-element path takes the target's lock table in place: only where acc_path chooses
  // the lock table for every element type and alignment (so that every rank's accumulates to
  // a location meet on its stripe) and the table's stripes are CPU atomics on this mapping.
  element_in_place_.assign(static_cast<size_t>(transport_.size()), nullptr);
  for (int target : members_) {
    const auto t = static_cast<size_t>(target);
    if (targets_[t].direct == nullptr || !lock_tables_[t].direct()) continue;
    bool lock_table_always = true;
    for (int type = REMORA_INT8; type <= REMORA_DOUBLE_COMPLEX; ++type)
      for (uint64_t offset = 0; offset < 16; ++offset)
        if (acc_path(type, offset, target) != AccPath::LockTable) lock_table_always = false;
    if (lock_table_always) {
      element_in_place_[t] = targets_[t].direct;
      targets_[t].acc_in_place = kAccLockTable;
    }
  }
  // The native path: every element CPU atomics can take goes so (acc_path Native), every other
  // the lock table, for each type and alignment (any target this process maps; a window whose
  // accumulates go through the transport takes its Transport path instead: none).
  for (int target : members_) {
    const auto t = static_cast<size_t>(target);
    if (targets_[t].direct == nullptr || targets_[t].acc_in_place != kAccGeneral) continue;
    bool native = true;
    for (int type = REMORA_INT8; type <= REMORA_DOUBLE_COMPLEX; ++type)
      for (uint64_t offset = 0; offset < 16; ++offset)
        if (acc_path(type, offset, target) !=
            (native_capable(type, offset) ? AccPath::Native : AccPath::LockTable))
          native = false;
    if (native) targets_[t].acc_in_place = kAccNative;
  }
}

void Window::make_rw_locks() {
  rw_locks_.reserve(static_cast<size_t>(transport_.size()));
  for (int target = 0; target < transport_.size(); ++target) {
    if (!node_local_lock_) {
      rw_locks_.emplace_back(transport_, *sync_, sync_geometry(), target);
      continue;
    }
    rw_locks_.emplace_back(transport_, *sync_, sync_geometry(), target,
                           [this, target] { locks_->kick(*this, target); });
  }
}

void Window::make_fast_locks() {
  if (transport_accumulates_) return;  // unlock must complete them (complete_for_release)
  // The fast unlock's light fence (Window::unlock) needs this process registered before any
  // waiter of these words exists: creation is collective.
  enable_asymmetric_fences();
  for (int target : members_) {
    const auto t = static_cast<size_t>(target);
    const RwLock& word = rw_locks_[t];
    // Exactly where lock_slow takes the word with RwLock on this mapping (acquire: not through
    // an agent) and unlock_slow's complete_for_release needs no flush (ordered).
    if (target == rank_ || targets_[t].direct == nullptr || word.node_local() ||
        word.word_here() == nullptr || word.waiter_total_here() == nullptr)
      continue;
    targets_[t].word = word.word_here();
    targets_[t].waiters = word.waiter_total_here();
  }
}

int Window::wake_lock_waiters(int target) {
  rw_lock(target).released();
  return REMORA_SUCCESS;
}

int Window::acquire(int target, LockMode mode) {
  if (node_local_lock_ && transport_.address(*sync_, target) == nullptr)
    return locks_->lock(*this, target, mode);
  RwLock& word = rw_lock(target);
  return mode == LockMode::Exclusive ? word.lock_exclusive() : word.lock_shared();
}

int Window::release(int target, LockMode mode) {
  if (node_local_lock_ && transport_.address(*sync_, target) == nullptr)
    return locks_->unlock(*this, target, mode);
  RwLock& word = rw_lock(target);
  if (mode == LockMode::Exclusive)
    word.unlock_exclusive();
  else
    word.unlock_shared();
  return REMORA_SUCCESS;
}

int Window::unlock_slow(const char* function, int target) {
  if (int status = epoch_.check_unlock(function, target)) return status;
  close_passive_direct(target);
  if (deferred_lock_) {
    const int status = deferred_lock_->unlock(target);
    epoch_.unlocked(target);  // the epoch ended even if an operation failed
    return status;
  }
  if (int status = complete_for_release(target)) return status;
  const int status = release_lock_word(target, epoch_.lock_mode(target));
  epoch_.unlocked(target);
  return status;
}

int Window::lock_all(const char* function, int assert_flags) {
  if ((assert_flags & ~REMORA_MODE_NOCHECK) != 0)
    return fail(REMORA_ERR_ARG, "%s: assert_flags=%d has bits other than REMORA_MODE_NOCHECK",
                function, assert_flags);
  if (int status = epoch_.begin_lock_all(function)) return status;
  if (int status = await_fence_entries_if_pending()) return status;
  lock_all_checked_ = (assert_flags & REMORA_MODE_NOCHECK) == 0;
  if (deferred_lock_) {
    for (Target& to : targets_) to.lock_checked = lock_all_checked_;
    epoch_.locked_all();
    const int status = deferred_lock_->lock_all();
    if (status != REMORA_SUCCESS) epoch_.unlocked_all();
    return status;
  }
  if (lock_all_checked_)
    for (int target : members_)
      if (int status = acquire(target, LockMode::Shared)) return status;
  epoch_.locked_all();
  for (int target : members_) open_passive_direct(target);
  return REMORA_SUCCESS;
}

int Window::unlock_all(const char* function) {
  if (int status = epoch_.check_unlock_all(function)) return status;
  for (int target : members_) close_passive_direct(target);
  if (deferred_lock_) {
    const int status = deferred_lock_->unlock_all();
    epoch_.unlocked_all();  // the epoch ended even if an operation failed
    return status;
  }
  if (int status = complete_all()) return status;
  int status = REMORA_SUCCESS;
  if (lock_all_checked_)
    for (int target : members_)  // every target, even after a failure
      if (const int released = release(target, LockMode::Shared); status == REMORA_SUCCESS)
        status = released;
  epoch_.unlocked_all();
  return status;
}

// flush() without its fast path's conditions: the epoch test, the deferred queue, owner requests
// and transport accumulates in flight, then the transport's flush.
int Window::flush_slow(const char* function, int target) {
  if (!epoch_.passive(target)) [[unlikely]]
    return epoch_.check_passive(function, target);
  if (deferred_lock_)
    if (int status = deferred_lock_->force(target)) return status;
  if (owner_requests_in_flight(targets_[static_cast<size_t>(target)]))
    if (int status = await_owner(target)) return status;
  if (transport_accumulates_)
    if (int status = complete_transport_accumulates(target)) return status;
  return transport_.flush(target);
}

int Window::flush_all(const char* function) {
  if (int status = epoch_.check_passive(function, -1)) return status;
  if (deferred_lock_)
    for (int target : members_)
      if (int status = deferred_lock_->force(target)) return status;
  return complete_all();
}

// Every operation but an rget across nodes has copied its origin buffer (or delivered its
// result) when it returns; a deferred lock epoch performs its queued operations first, and
// rgets still in flight are completed by the transport's flush of their target.
int Window::flush_local(const char* function, int target) {
  if (int status = epoch_.check_passive(function, target)) return status;
  if (deferred_lock_) return deferred_lock_->force(target);
  if (!gets_in_flight_[static_cast<size_t>(target)]) return REMORA_SUCCESS;
  gets_in_flight_[static_cast<size_t>(target)] = 0;
  return transport_.flush(target);
}

int Window::flush_local_all(const char* function) {
  if (int status = epoch_.check_passive(function, -1)) return status;
  if (deferred_lock_)
    for (int target : members_)
      if (int status = deferred_lock_->force(target)) return status;
  for (int target : members_)
    if (gets_in_flight_[static_cast<size_t>(target)]) {
      std::fill(gets_in_flight_.begin(), gets_in_flight_.end(), 0);
      return transport_.flush_all();
    }
  return REMORA_SUCCESS;
}

void Window::sync() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  touch_local_edge();
}

}  // namespace remora::rma
