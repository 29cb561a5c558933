// A window: one data segment (the memory ranks expose) and one sync segment (lock word,
// creation parameters, waiter registry and accumulate lock table; see locks/sync_geometry.hpp),
// plus this rank's epoch state. Operations and synchronisation assume validated arguments (the C
// API checks ranks, ranges, types and ops) but check the epoch state themselves.
#pragma once

#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

#include "core/asymmetric_fence.hpp"
#include "core/process_edge.hpp"
#include "remora/win.h"
#include "rma/accumulate/acc_args.hpp"
#include "rma/accumulate/acc_route.hpp"
#include "rma/accumulate/element_fetch.hpp"
#include "rma/accumulate/locked_update.hpp"
#include "rma/deferred_lock.hpp"
#include "rma/epoch.hpp"
#include "rma/locks/lock_table.hpp"
#include "rma/locks/rw_lock.hpp"
#include "rma/locks/sync_geometry.hpp"
#include "rma/window_group.hpp"
#include "rma/window_options.hpp"
#include "transport/ghost_directory.hpp"
#include "transport/transport.hpp"

// The C handle: every window is one, so a live handle converts to its Window.
struct remora_win_s {};

namespace remora::rma {

class OwnerComputes;
class RemoteLocks;
class DeferredFence;
class DeferredLock;
class OpQueue;
struct QueuedOp;
class Pscw;
class AgentRdma;
class UserMemory;
struct UserRegion;

// What a window needs from the layers around it: the transport, a barrier over all ranks and a
// reduce-scatter (provided by the caller, since the collectives sit above this layer) and the
// owner-computes channel.
struct WindowServices {
  transport::Transport* transport;
  // Where the nodes' ghosts are (REMORA_PROGRESS=ghost): requests go to them, they wait for locks.
  const transport::GhostDirectory* ghosts;
  std::function<int()> barrier;
  OwnerComputes* owner;
  // Sums counts[r] (one uint64 per rank) over all ranks into *mine for r = this rank.
  std::function<int(const uint64_t* counts, uint64_t* mine)> reduce_scatter;
  AgentRdma* agent_rdma = nullptr;  // puts and gets of user-memory windows without single copy
  // A progress thread or ghost serves owner-computes requests while the application computes or
  // blocks in MPI (not manual progress): `auto` may then send accumulates across nodes.
  bool target_progress = false;
  // Lock and unlock requests to the agents of other nodes' targets (node-local lock words).
  RemoteLocks* locks = nullptr;
};

class Window : public remora_win_s {
 public:
  // Collective: every rank passes the same id and options (checked: all fail if they differ).
  // group: the members and their collectives for a window on a sub-communicator (collective over
  // them only), or nullptr for a window of every rank. user: a window over the caller's memory
  // (remora_win_create, every rank; user_memory.hpp), else null.
  static int create(const char* function, const WindowServices& services,
                    std::shared_ptr<const WindowGroup> group, uint64_t id, size_t bytes,
                    size_t disp_unit, const WindowOptions& options, std::unique_ptr<Window>* out,
                    const UserRegion* user = nullptr);
  // Not collective: releases this rank's mappings (teardown, failed creation).
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  // Collective. Fails without freeing while this rank has an epoch with pending operations.
  int free(const char* function);
  // The check free makes first (local): no lock held, no fence epoch with operations, no PSCW
  // epoch open.
  int check_free(const char* function) const { return epoch_.check_free(function); }

  uint64_t id() const { return id_; }
  // The window's ranks (of its communicator) and their world ranks, which every other call uses.
  int comm_size() const { return comm_size_; }
  // The sub-communicator's members and collectives; nullptr for a window over every rank.
  const WindowGroup* group() const { return group_.get(); }
  // On a window over every rank the identity without a load: the call's other loads (its
  // per-target record, lock word, mapping) then wait for no table lookup first.
  int world_rank(int comm_rank) const {
    if (group_ == nullptr) [[likely]]
      return comm_rank;
    return members_[static_cast<size_t>(comm_rank)];
  }
  // The window's rank of world rank w, or -1 when w is not a member.
  int comm_rank(int world) const;
  int rank() const { return transport_.rank(); }
  void* base() const;
  size_t size(int rank) const { return targets_[static_cast<size_t>(rank)].bytes; }
  // The user-memory part of a remora_win_create window, or nullptr.
  UserMemory* user_memory() const { return user_.get(); }
  // Whether the node's ghost can serve this window's owner-computes requests: it maps the
  // segments of windows over every rank only (not user memory, not sub-communicators').
  bool ghost_serves() const { return !user_ && !group_ && ghost_progress(); }
  // Whether the node's ghost serves lock requests (remote_locks.hpp): it maps the sync
  // segments of windows over every rank, user memory or not.
  bool ghost_serves_locks() const { return !group_ && ghost_progress(); }
  size_t disp_unit(int rank) const { return targets_[static_cast<size_t>(rank)].disp_unit; }
  // Where this process loads and stores world rank `rank`'s window memory: its mapping of a
  // rank of its node, this rank's own user memory; nullptr otherwise.
  void* shared_address(int rank) const;
  const WindowOptions& options() const { return options_; }
  // For the node's ghost process (which finds them by Segment::id) and for layers above that
  // move strided data with the transport directly.
  const transport::Segment& data_segment() const { return *data_; }
  const transport::Segment& sync_segment() const { return *sync_; }

  // In an immediate passive epoch to a target this process maps (not this rank), a put or get
  // is the memcpy itself (Target::passive_direct); so is the first put of a deferred epoch that
  // takes the free lock word (take_fresh); else the epoch check, deferral and transport paths
  // (put_slow, get_checked, out of line, so that this path needs no stack frame of its own).
  int put(const char* function, int target, uint64_t offset, const void* origin, size_t bytes) {
    Target& to = targets_[static_cast<size_t>(target)];
    unsigned char* part = to.passive_direct;
    if (part == nullptr) [[unlikely]] {
      if (!take_fresh(to)) return put_slow(function, target, offset, origin, bytes);
      part = to.direct;  // not null: take_fresh opened the epoch's direct pointer with it
    }
    return copy_bytes(part + offset, origin, bytes);
  }
  int get(const char* function, int target, uint64_t offset, void* result, size_t bytes) {
    if (const unsigned char* part = targets_[static_cast<size_t>(target)].passive_direct) [[likely]]
      return copy_bytes(result, part + offset, bytes);
    return get_checked(function, target, offset, result, bytes);
  }
  // The get of a request (remora_win_rget): to a target of another node, in an immediate
  // passive epoch on a window of Remora's memory, the transport's get left in flight (*pending
  // set; it completes when it tests done, or at a flush, flush_all, unlock or unlock_all that
  // reaches the target); otherwise get(), complete on return (*pending null).
  int get_pending(const char* function, int target, uint64_t offset, void* result, size_t bytes,
                  std::shared_ptr<transport::PendingGet>* pending);
  int accumulate(const char* function, const AccArgs& args);
  // An accumulate-family operation whose bytes lie within one block of the target's lock table
  // (one stripe): accumulate, get_accumulate, fetch_and_op, compare_and_swap. Where the path to
  // the target is the lock table in place (acc_path: `auto` and `caller` on a target this
  // process maps) and the epoch runs operations at once, that one stripe is taken with one
  // compare-and-swap, the range updated in place and the stripe released: no AccArgs routing,
  // no StripeSet, no loop. Otherwise (a range over several blocks, a busy stripe, another path
  // or epoch) as accumulate().
  // Where the path to the target is CPU atomics (`native` on a target this process maps) and the
  // epoch runs operations at once, the element's atomic update itself (no epoch test, route or
  // queue).
  int accumulate_in_place(const char* function, const AccArgs& args);
  // fetch_and_op of one element of `bytes` bytes at byte offset `offset` of target (a checked
  // call: type and target range valid, result set, origin set unless REMORA_OP_NO_OP), where
  // the epoch runs operations at once (Target::passive_direct) and accumulates to the target
  // go in place (Target::acc_in_place): on the lock table, one compare-and-swap on the
  // element's stripe, then a tail call to the (type, op) function of kHeldFetch, which updates
  // and releases; on CPU atomics (an aligned element of at most 8 bytes), a tail call to
  // kNativeFetch's. No AccArgs, no switch, no stack frame. Everything else (another epoch or
  // path, an op the type does not take, a range over two blocks, a busy stripe) returns
  // slow(): the caller's full checks and accumulate_in_place, with the same effect.
  template <typename Slow>
  int fetch_and_op(int target, uint64_t offset, size_t bytes, const void* origin, void* result,
                   int type, int op, Slow slow) {
    const auto t = static_cast<size_t>(target);
    const Target& to = targets_[t];
    unsigned char* part = to.passive_direct;
    if (part == nullptr) [[unlikely]]
      return slow();
    if (to.acc_in_place == kAccLockTable) [[likely]] {
      const HeldFetch fetch = fetch_entry(kHeldFetch, type, op);
      LockTable& table = lock_tables_[t];
      const int64_t stripe = table.element_stripe(offset, bytes);
      if (fetch == nullptr || stripe < 0 || !table.try_lock_element(stripe)) [[unlikely]]
        return slow();
      return fetch(table, stripe, part + offset, origin, result);
    }
    const NativeFetch fetch = fetch_entry(kNativeFetch, type, op);
    // Sizes are powers of two: the mask tests native_capable's alignment.
    if (to.acc_in_place != kAccNative || fetch == nullptr || (offset & (bytes - 1)) != 0)
      return slow();
    return fetch(part + offset, origin, result);
  }
  // An accumulate of `rows` rows (window_rows.cpp): args describes row 0 (offset, origin, count
  // elements, type, op, alpha; no result or compare); row r is at args.offset + r *
  // target_stride at the target and args.origin + r * origin_stride at the origin (bytes).
  // Where accumulate_in_place takes its in-place path, every stripe the rows touch is taken once
  // and the rows are updated in place with one kernel call; otherwise (or when a stripe is busy, or
  // the rows touch too many stripes) one accumulate() per row.
  int accumulate_rows(const char* function, const AccArgs& args, size_t rows,
                      uint64_t target_stride, size_t origin_stride);

  // The lock-table path: lock the target range, read, compute, write back, unlock. Used by
  // the caller-computes strategy and by the owner-computes handler (at the target itself).
  int apply_locked(const AccArgs& args);
  // Whether the owner applies an update of (type, offset) of its own memory with CPU atomics:
  // exactly the path a caller on this node takes for that location and type (acc_path), so
  // owner-computes updates are atomic with every other update of the location.
  bool owner_applies_native(int type, uint64_t offset) const;
  // What the lock-table path needs of this window (also for apply_owner_request).
  WindowMemory memory();
  // Owner-computes bookkeeping: requests to target in flight (completed by flush/unlock/fence).
  // owner_done runs on the thread that receives the acknowledgement (the progress thread).
  void owner_sent(int target) { owner_pending(target).fetch_add(1); }
  void owner_done(int target) { owner_pending(target).fetch_sub(1, std::memory_order_release); }
  // Accumulate-family calls this rank handed to a target's agent (OwnerComputes::send) since
  // creation: which path a strategy chose, observable without timing (test win_acc_choice).
  void owner_request_made() { owner_requests_.fetch_add(1, std::memory_order_relaxed); }
  uint64_t owner_requests() const { return owner_requests_.load(std::memory_order_relaxed); }

  int fence(const char* function, int assert_flags);
  // Passive-target lock and unlock. Fast path (Target::word set: a target on this node,
  // not this rank, whose lock word and waiter total are CPU atomics on this mapping and not
  // node-local): lock is the epoch test plus, in an immediate epoch, one compare-and-swap
  // (exclusive) or fetch-add (shared) on the word, and in a deferred epoch only the record;
  // unlock (word held, nothing in flight) drops the word (exclusive: one release store; shared:
  // one fetch-add) and loads the waiter total behind a light fence, waking waiters only when
  // there are some. Everything else (assertions,
  // errors, a busy word, a deferred epoch still waiting, owner requests in flight) goes
  // through lock_slow / unlock_slow, which check and report as before.
  int lock(const char* function, int lock_type, int target, int assert_flags) {
    Target& to = targets_[static_cast<size_t>(target)];
    uint64_t* word = to.word;
    const bool exclusive = lock_type == REMORA_LOCK_EXCLUSIVE;
    if (word == nullptr || assert_flags != 0 || (!exclusive && lock_type != REMORA_LOCK_SHARED) ||
        !epoch_.try_begin_lock(to.lock_mode)) [[unlikely]]
      return lock_slow(function, lock_type, target, assert_flags);
    if (deferred_lock_ != nullptr) {  // deferred: only the record (DeferredLock::lock)
      to.deferred_waiting = exclusive ? DeferredLock::kFreshExclusive : DeferredLock::kFreshShared;
    } else {
      if (!try_lock_word(word, exclusive)) [[unlikely]]
        return lock_slow(function, lock_type, target, assert_flags);  // busy: wait there
      to.passive_direct = to.direct;  // open_passive_direct (target is not this rank)
    }
    // Beside the mode's byte: the compiler merges the two stores into one.
    to.lock_checked = 1;
    epoch_.locked_at(to.lock_mode, exclusive ? LockMode::Exclusive : LockMode::Shared);
    return REMORA_SUCCESS;
  }
  int unlock(const char* function, int target) {
    const auto t = static_cast<size_t>(target);
    Target& to = targets_[t];
    // The word is held (a lock epoch, checked, not a deferred one still waiting: the three
    // bytes at once, Target::held), and nothing is in flight: complete_for_release has nothing
    // to wait for (no owner request; no transport accumulate, which needs a window across
    // nodes, where no target has a fast path).
    const uint32_t held = to.held();
    if (to.word == nullptr || (held != Target::kHeldExclusive && held != Target::kHeldShared) ||
        owner_requests_in_flight(to)) [[unlikely]]
      return unlock_slow(function, target);
    const LockMode mode = held == Target::kHeldExclusive ? LockMode::Exclusive : LockMode::Shared;
    to.passive_direct = nullptr;
    // The release orders this rank's memcpys of the epoch before the next holder's accesses
    // (complete_for_release). A writer's word is exactly kWriter while it holds it (readers
    // compare-and-swap, RwLock::try_shared_at), so its release is a plain release store;
    // a reader's is a read-modify-write (other readers count in the same word).
    std::atomic_ref<uint64_t> word(*to.word);
    if (mode == LockMode::Exclusive)
      word.store(0, std::memory_order_release);
    else
      word.fetch_add(~uint64_t{0});
    // The waiter total after the release (as RwLock::released, whose wake-up it is). Store,
    // then load: the light fence here pairs with the heavy fence a waiter issues between its
    // registration and its re-check of the word (WaiterSet::wait), so either the waiter sees
    // the release or this load sees the waiter.
    epoch_.unlocked_at(to.lock_mode);
    light_fence();
    if (std::atomic_ref<uint64_t>(*to.waiters).load(std::memory_order_relaxed) != 0) [[unlikely]]
      return wake_lock_waiters(target);  // a tail call: the fast path needs no stack frame
    return REMORA_SUCCESS;
  }
  int lock_all(const char* function, int assert_flags);
  int unlock_all(const char* function);

 private:
  // One attempt at a target's lock word on this mapping (Target::word, set):
  // RwLock::try_exclusive or try_shared.
  static bool try_lock_word(uint64_t* word, bool exclusive) {
    // Sequentially consistent as RwLock's own read-modify-writes (the waiter protocol orders
    // releases and registrations in one total order); on x86 every locked instruction is.
    if (exclusive) {
      uint64_t expected = 0;
      return std::atomic_ref<uint64_t>(*word).compare_exchange_strong(expected, RwLock::kWriter);
    }
    return RwLock::try_shared_at(word);
  }
  // memcpy(to, from, bytes) for put's and get's fast paths; returns REMORA_SUCCESS. Up to 64
  // bytes inline, as two (possibly overlapping) moves of a power of two each, without a call (whose
  // frame and argument moves cost more than such a copy); larger copies through copy_large (a tail
  // call, so the fast paths stay frameless). The regions do not overlap (as for memcpy).
  static int copy_bytes(void* to, const void* from, size_t bytes) {
    auto* d = static_cast<unsigned char*>(to);
    const auto* s = static_cast<const unsigned char*>(from);
    if (bytes > 16) {
      if (bytes > 64) return copy_large(to, from, bytes);
      if (bytes > 32) {
        copy_pair<32>(d, s, bytes);
        return REMORA_SUCCESS;
      }
      copy_pair<16>(d, s, bytes);
      return REMORA_SUCCESS;
    }
    if (bytes >= 8) {
      copy_pair<8>(d, s, bytes);
    } else if (bytes >= 4) {
      copy_pair<4>(d, s, bytes);
    } else if (bytes > 0) {  // 1 to 3: bytes 0, bytes / 2 and bytes - 1 cover them
      d[0] = s[0];
      d[bytes / 2] = s[bytes / 2];
      d[bytes - 1] = s[bytes - 1];
    }
    return REMORA_SUCCESS;
  }
  // The first and the last N bytes of the bytes (N <= bytes <= 2N) from s to d: all loaded
  // before any is stored (they may overlap each other, never s with d). At most 16 bytes per
  // piece: without AVX, GCC moves 32-byte pieces through the stack.
  template <size_t N>
  static void copy_pair(unsigned char* d, const unsigned char* s, size_t bytes) {
    constexpr size_t P = N < 16 ? N : 16;  // bytes per piece
    constexpr size_t K = N / P;            // pieces per end
    unsigned char head[K][P], tail[K][P];
    for (size_t k = 0; k < K; ++k) {
      std::memcpy(head[k], s + k * P, P);
      std::memcpy(tail[k], s + bytes - N + k * P, P);
    }
    for (size_t k = 0; k < K; ++k) {
      std::memcpy(d + k * P, head[k], P);
      std::memcpy(d + bytes - N + k * P, tail[k], P);
    }
  }
  static int copy_large(void* to, const void* from, size_t bytes);

 public:
  // In an epoch whose operations to target run at once (Target::passive_direct: passive,
  // immediate, no fence, PSCW or deferred queue) with no owner-computes request in flight and
  // no transport accumulate (a window that takes them), a flush is the transport's flush alone
  // (on one node a sequentially consistent fence: this rank's plain stores of its puts and
  // accumulates complete before its later loads); else flush_slow.
  int flush(const char* function, int target) {
    Target& to = targets_[static_cast<size_t>(target)];
    if (to.passive_direct == nullptr || owner_requests_in_flight(to) || transport_accumulates_)
        [[unlikely]]
      return flush_slow(function, target);
    return transport_.flush(target);
  }
  int flush_all(const char* function);
  int flush_local(const char* function, int target);
  int flush_local_all(const char* function);
  void sync();
  Pscw& pscw() { return *pscw_; }
  // Whether target is locked by this rank (lock or lock_all).
  bool in_passive_epoch(int target) const { return epoch_.passive(target); }
  // Request-based operations are complete when made: in a deferred lock epoch the queue to
  // target is performed now, as flush does.
  int perform_deferred(const char* function, int target) {
    return deferral(target) != nullptr ? flush(function, target) : 0;
  }

 private:
  bool ghost_progress() const { return ghosts_.ghost_of(transport_.rank()) >= 0; }
  friend class Pscw;
  Window(const WindowServices& services, std::shared_ptr<const WindowGroup> group, uint64_t id,
         const WindowOptions& options);
  int allocate_segments(size_t bytes);
  int free_segments();
  // Publishes this rank's parameters, then reads everyone's and checks they agree.
  int exchange_parameters(const char* function, size_t disp_unit);
  SyncGeometry sync_geometry() const {
    return SyncGeometry{transport_.size(), options_.lock_stripes, node_local_table(),
                        node_local_lock_,  cpu_atomics_,          &ghosts_};
  }
  // Only the target's node takes the lock-table stripes (every strategy but caller, on windows
  // Remora allocates).
  bool node_local_table() const { return !user_ && path_strategy_ != AccStrategy::Caller; }
  // The path this rank takes for an accumulate-family operation (acc_route.hpp).
  AccPath acc_path(int type, uint64_t offset, int target) const;
  int apply_native(const AccArgs& args);
  // accumulate_in_place where Target::passive_direct is not open (this rank's own target, other
  // epochs): every condition tested.
  int accumulate_in_place_checked(const char* function, const AccArgs& args);
  // The one-stripe path of accumulate_in_place on part (the target's mapped data).
  int update_on_stripe(unsigned char* part, const AccArgs& args);
  int apply_transport(const AccArgs& args);
  // Remote completion of the transport's accumulates to target where transport_.flush(target)
  // does not give it (a target on this node).
  int complete_transport_accumulates(int target);
  // Deferred implementations (deferred_fence.cpp, deferred_lock.cpp) share these.
  friend class DeferredFence;
  friend class DeferredLock;
  // The queue that defers an operation to target in the current epoch, or nullptr: now.
  OpQueue* deferral(int target);
  int execute(const QueuedOp& op);
  // The first put of a deferred epoch that lock's fast path opened (kFreshExclusive /
  // kFreshShared: the target's word is a CPU atomic here, checked) tries the word once, as
  // DeferredLock::take_now does: if it is free, the epoch becomes an immediate one (its direct
  // part is the put's destination) and take_fresh returns true, so a deferred lock-put-unlock
  // costs about what the immediate one does; else false (every other epoch's byte is neither
  // kFresh value: no attempt), and the put goes on to put_slow. The exclusive epoch (the common
  // one) is tested first: one comparison before its compare-and-swap.
  struct Target;  // below
  static bool take_fresh(Target& to) {
    const uint8_t waiting = to.deferred_waiting;
    if (waiting == DeferredLock::kFreshExclusive) {
      if (!try_lock_word(to.word, true)) return false;
    } else if (waiting != DeferredLock::kFreshShared || !try_lock_word(to.word, false)) {
      return false;
    }
    to.deferred_waiting = DeferredLock::kNotWaiting;
    to.passive_direct = to.direct;  // open_passive_direct
    return true;
  }
  int put_slow(const char* function, int target, uint64_t offset, const void* origin, size_t bytes);
  int flush_slow(const char* function, int target);
  int get_checked(const char* function, int target, uint64_t offset, void* result, size_t bytes);
  // Opens (the epoch to target is passive, immediate, its lock word held or NOCHECK) or closes
  // the fast path of put and get to target (Target::passive_direct).
  void open_passive_direct(int target) {
    const auto t = static_cast<size_t>(target);
    if (target != rank_) targets_[t].passive_direct = targets_[t].direct;
  }
  void close_passive_direct(int target) {
    targets_[static_cast<size_t>(target)].passive_direct = nullptr;
  }
  int do_put(int target, uint64_t offset, const void* origin, size_t bytes);
  int do_get(int target, uint64_t offset, void* result, size_t bytes);
  int do_accumulate(const AccArgs& args);
  int lock_slow(const char* function, int lock_type, int target, int assert_flags);
  int unlock_slow(const char* function, int target);
  // Wakes target's lock-word waiters after a fast-path release (RwLock::released); returns
  // REMORA_SUCCESS.
  int wake_lock_waiters(int target);
  // Fills Target::word and waiters once the lock words, the data mapping and the deferred lock
  // exist.
  void make_fast_locks();
  // Take and release target's lock word unless the epoch is NOCHECK.
  int take_lock_word(int target, LockMode mode);
  int release_lock_word(int target, LockMode mode);
  // Take and release it in any case: node-locally, or through the agent of a target on
  // another node when the lock words are node-local (remote_locks.hpp).
  int acquire(int target, LockMode mode);
  int release(int target, LockMode mode);
  RwLock& rw_lock(int target) { return rw_locks_[static_cast<size_t>(target)]; }
  // Build rw_locks_ and lock_tables_ once the sync segment exists: nothing is constructed per
  // lock call or accumulate.
  void make_rw_locks();
  void make_lock_tables();
  // Fills Target::direct once the data segment exists.
  void map_direct_data();
  // Waits until this rank's owner-computes requests to target are applied.
  int await_owner(int target);
  // complete(target) before target's lock word is released (unlock): without the flush where
  // the release itself orders this rank's operations.
  int complete_for_release(int target);
  // Remote completion of this rank's operations to target (all targets).
  int complete(int target);
  int complete_all();
  // The immediate fence on one node (fence), with the members' fence marks (member_marks.hpp):
  // enter publishes this rank's entry (and wakes sleepers if it is the last), await waits until
  // every member has entered the same fence: at once in a fence that ends an epoch (the
  // barrier), at the first access after an opening without a barrier (EpochState::entries_pending).
  uint64_t* fence_entries_word(int rank) const;  // SyncGeometry::fence_entries of rank's part
  void enter_fence();
  int await_fence_entries();
  int await_fence_entries_if_pending() {
    return epoch_.entries_pending() ? await_fence_entries() : REMORA_SUCCESS;
  }

  transport::Transport& transport_;
  const transport::GhostDirectory& ghosts_;
  std::shared_ptr<const WindowGroup> group_;  // nullptr: every rank
  std::vector<int> members_;                  // world rank of each rank of the window
  int comm_size_ = 0;                         // members_.size(), checked on every operation
  std::function<int()> barrier_;
  std::function<int(const uint64_t*, uint64_t*)> reduce_scatter_;
  OwnerComputes& owner_;
  uint64_t id_;
  WindowOptions options_;
  // The strategy the path rule uses (acc_route.hpp): options_.strategy, except `auto` on a
  // window that spans nodes without a progress agent, which takes the lock table everywhere
  // (caller), so that nothing waits for a target blocked outside Remora. Compared at creation.
  AccStrategy path_strategy_;
  // The lock words and their waiters are node-local (CPU atomics of the target's node; ranks of
  // other nodes ask the target's agent): on a window across nodes with a progress agent, the
  // same condition under which `auto` sends accumulates to the owner. Compared at creation.
  bool node_local_lock_ = false;
  // The window's members are on more than one node.
  bool spans_nodes_ = false;
  // The sync segment's words take CPU atomics directly (SyncGeometry::cpu_atomics).
  bool cpu_atomics_ = false;
  uint64_t fence_entries_ = 0;  // immediate fences this rank entered on one node
  // Every accumulate of an element type the transport takes goes through the transport's own
  // accumulates, for every target (acc_path): `auto` on a window of Remora's memory across
  // nodes over MPI. Decided from what every rank agrees on (strategy, members, memory).
  bool transport_accumulates_ = false;
  // Per world rank: an accumulate through the transport to it since its last completion, which
  // an accumulate of another path to it completes first (issue order from one origin).
  std::vector<char> transport_pending_;
  // Per world rank: an rget to it may be in flight (get_pending), which flush_local completes
  // with the transport's flush (flush and unlock flush it anyway).
  std::vector<char> gets_in_flight_;
  std::vector<RwLock> rw_locks_;        // per world rank: its lock word (rw_lock.hpp)
  std::vector<LockTable> lock_tables_;  // per world rank: its accumulate lock table
  // Per world rank, what the fast paths of put, get, lock and unlock read and write, in one
  // cache line (the range check's size and displacement unit too): a call touches one line of
  // per-target state and loads one array base, where six arrays took six of each.
  struct alignas(64) Target {
    // direct while this rank has an immediate passive epoch to it (lock with the word taken or
    // NOCHECK, or lock_all; never this rank, whose puts and gets touch the local edge, and never
    // a deferred epoch), else null. In such an epoch no fence, PSCW or deferred queue can be
    // open (EpochState excludes them), so the epoch check and the deferral tests of put and get
    // have a known answer: the operation is the memcpy.
    unsigned char* passive_direct = nullptr;
    // Its data part where put and get are a memcpy on this mapping, else null.
    unsigned char* direct = nullptr;
    // The lock fast path's lock word and waiter total on this mapping (see lock()), or nullptr
    // words where the slow path is the only one.
    uint64_t* word = nullptr;
    uint64_t* waiters = nullptr;
    size_t bytes = 0;      // its window's size: the data segment's or the user memory's
    size_t disp_unit = 0;  // its displacement unit (members only)
    // The lock word was taken (not NOCHECK). A byte: see DeferredLock::waiting_.
    uint8_t lock_checked = 0;
    LockMode lock_mode = LockMode::None;  // this rank's lock on it (EpochState's, kept here)
    uint8_t deferred_waiting = 0;         // DeferredLock's byte (waiting_), kNotWaiting: 0
    // How accumulates to it go where passive_direct is open (make_lock_tables): kAccGeneral,
    // kAccLockTable (every one takes its lock table in place: element_in_place_ is set) or
    // kAccNative (CPU atomics for each native_capable element, the lock table for the rest).
    uint8_t acc_in_place = 0;
    // Owner-computes requests to it in flight (owner_sent / owner_done; an atomic_ref's object:
    // the thread that receives the acknowledgements decrements it). Here, not in an array of its
    // own, so that unlock's and flush's test of it loads no other line.
    uint64_t owner_pending = 0;
    // lock_checked, lock_mode and deferred_waiting (adjacent bytes) in one load, for unlock's
    // fast path: kHeldExclusive or kHeldShared when the epoch holds the word it checked
    // (checked, that mode, not waiting), else anything else.
    static constexpr uint32_t kHeldExclusive = 1u |
                                               static_cast<uint32_t>(LockMode::Exclusive) << 8 |
                                               uint32_t{DeferredLock::kNotWaiting} << 16;
    static constexpr uint32_t kHeldShared = 1u | static_cast<uint32_t>(LockMode::Shared) << 8 |
                                            uint32_t{DeferredLock::kNotWaiting} << 16;
    uint32_t held() const {
      uint32_t four = 0;  // one load, the fourth byte masked off
      std::memcpy(&four,
                  reinterpret_cast<const unsigned char*>(this) + offsetof(Target, lock_checked),
                  sizeof four);
      return four & 0xffffffu;
    }
  };
  static_assert(sizeof(Target) == 64);
  static_assert(offsetof(Target, lock_mode) == offsetof(Target, lock_checked) + 1 &&
                offsetof(Target, deferred_waiting) == offsetof(Target, lock_checked) + 2 &&
                offsetof(Target, acc_in_place) == offsetof(Target, lock_checked) + 3 &&
                std::endian::native == std::endian::little);
  std::vector<Target> targets_;
  static constexpr uint8_t kAccGeneral = 0, kAccLockTable = 1, kAccNative = 2;
  std::atomic_ref<uint64_t> owner_pending(int target) {
    return std::atomic_ref<uint64_t>(targets_[static_cast<size_t>(target)].owner_pending);
  }
  static bool owner_requests_in_flight(Target& to) {
    return std::atomic_ref<uint64_t>(to.owner_pending).load(std::memory_order_acquire) != 0;
  }
  // Per world rank: its data part when every accumulate to it, of any type at any offset, takes
  // its lock table in place (acc_path is LockTable, the table is direct()), else null: the
  // in-place path of accumulate_in_place. Set by make_lock_tables.
  std::vector<unsigned char*> element_in_place_;
  int rank_;  // transport_.rank(), read on every put and get
  RemoteLocks* locks_;
  transport::Segment* data_ = nullptr;
  transport::Segment* sync_ = nullptr;
  EpochState epoch_;
  bool lock_all_checked_ = false;
  std::unique_ptr<DeferredFence> deferred_fence_;  // set when options_.fence is Deferred
  std::unique_ptr<DeferredLock> deferred_lock_;    // set when options_.lock is Deferred
  std::unique_ptr<Pscw> pscw_;
  std::unique_ptr<UserMemory> user_;  // set for windows over user memory
  // Touched (acquire and release) by sync(), fence(), puts and gets to this rank and around
  // each lock-table update of this rank's own memory: an in-process edge between the application
  // thread's loads and stores of its memory and the progress thread's owner-computes updates. The
  // causal chain through other ranks already orders them, but ThreadSanitizer cannot see across
  // processes: a no-op in other builds (core/process_edge.hpp).
  void touch_local_edge() { touch_process_edge(local_edge_); }
  std::atomic<uint64_t> local_edge_{0};
  std::atomic<uint64_t> owner_requests_{0};  // owner_request_made (last: no hot member moves)
};

}  // namespace remora::rma
