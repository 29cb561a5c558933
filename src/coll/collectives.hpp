// The collectives layer of one rank: the messenger, the communicators (with the world one),
// groups and outstanding collectives behind the C handles, and the algorithm choice.
#pragma once

#include <sched.h>

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "coll/algorithm.hpp"
#include "coll/bypass_reduce.hpp"
#include "coll/communicator.hpp"
#include "coll/context_ids.hpp"
#include "coll/handle_table.hpp"
#include "coll/messaging.hpp"
#include "coll/rank_order.hpp"
#include "coll/schedule.hpp"
#include "coll/shm_area.hpp"
#include "coll/shm_fast.hpp"
#include "core/clock.hpp"
#include "core/config.hpp"
#include "core/request.hpp"
#include "core/request_table.hpp"
#include "core/threads.hpp"
#include "progress/progress_engine.hpp"

namespace remora::coll {

struct CollectiveArgs;

class Collectives {
 public:
  // The single-copy threshold of the operations ShmArea::single_copy_by_default names on a node
  // that is not oversubscribed when REMORA_SHM_SINGLE_COPY_BYTES is 0 (the default): at p = 2
  // bcast measured 0.3-0.6x Open MPI's time on days the cells took 0.2x and 1.7x, the others
  // see docs/benchmarks.md (2026-11-28).
  static constexpr size_t kDefaultSingleCopyBytes = 256 * 1024;
  // The same for an area of two members: at one cell (64 KiB) the cells' one round is a copy in,
  // then a copy out, and the reader's wait (one copy long) outlasted the short spin and slept in
  // some runs; single copy is one kernel copy (bcast: half each, at once), its waits spin through
  // it. p = 2, 64 KiB: 0.65-0.95x Open MPI's time (reduce 1.6x) against 1.0-2.3x in the cells
  // (docs/benchmarks-log.md, 2026-11-28, coll64); at 8 and 16 KiB the cells were faster.
  static constexpr size_t kPairSingleCopyBytes = 64 * 1024;
  // The single-copy threshold of gather and scatter (and their v-forms' blocks) on an
  // oversubscribed node when REMORA_SHM_SINGLE_COPY_BYTES is 0, rooted there
  // (ShmArea::rooted_single_copy): docs/benchmarks-log.md (2026-11-28, collp4).
  static constexpr size_t kOversubscribedSingleCopyBytes = 256 * 1024;

  // Registers the messenger's handler: every rank must create this at the same point of
  // start-up, before the first collective synchronisation.
  static int create(transport::Transport& transport, progress::ProgressEngine& progress,
                    const Config& config, std::unique_ptr<Collectives>* out);

  // Unmaps the shared areas that outlive it (held by schedules or communicators kept past
  // finalize), before the transport goes.
  ~Collectives();

  const std::shared_ptr<Communicator>& world() const { return world_; }
  const void* world_handle() const { return world_.get(); }

  // A collective on comm, to be built and then started.
  std::shared_ptr<Schedule> new_schedule(std::shared_ptr<Communicator> comm);
  // The same for a call of the C API: when comm has a rank order that the (operation,
  // algorithm) follows, the schedule runs over positions and args are permuted to match.
  std::shared_ptr<Schedule> new_schedule(std::shared_ptr<Communicator> comm, Operation operation,
                                         Algorithm algorithm, CollectiveArgs* args);
  // A collective call on comm that failed its local checks before it could start: it still
  // takes its instance number (so every rank stays in step) and tells the other members, whose
  // calls of it then fail instead of waiting for this rank. code and message: the local error.
  void fail_before_start(const std::shared_ptr<Communicator>& comm, int code,
                         const std::string& message);
  // The order of kind over group's ranks; nullptr when it is the identity. custom: the ranks
  // by position for OrderKind::Custom (a permutation, checked by the caller).
  std::shared_ptr<const RankOrder> make_order(OrderKind kind, const Group& group,
                                              const int* custom = nullptr) const;
  // Waits (the progress engine's wait: polls, then sleeps) until schedule is done.
  // arrival_only: only messages for this rank advance it (Transport::wait_for_arrival).
  int wait(Schedule& schedule, bool arrival_only = false);
  // shm: what it waits for includes shm rounds (Request::polls_shared_memory): the yield phase
  // first (see yield_phase).
  template <typename F>
  int wait_until(const F& ready, bool shm = false) {
    if (shm && yield_phase(ready)) return REMORA_SUCCESS;
    return progress_.wait(ready);
  }
  // The yield phase of a wait for shm rounds, as the blocking fast path has it (ShmFast): where
  // a member waited for may share this CPU's run queue (the node is oversubscribed, or this
  // rank is not bound to one CPU), up to ShmFast::kYieldNs of sched_yield, each followed by a
  // poll of the transport and a look at ready(). Without it the engine's wait yields a few
  // times and sleeps, and a member that sleeps makes its partner's next wait outlast the spin:
  // both sleep, call after call. True when ready() held.
  template <typename F>
  bool yield_phase(const F& ready) {
    const uint64_t length = shm_yield_ns();
    if (length == 0) return false;
    if (ready()) return true;
    const uint64_t begin = now_ns();
    for (unsigned i = 1;; ++i) {
      {
        threads::Unlocked unlocked;
        sched_yield();
      }
      progress_.poll();
      if (ready()) return true;
      if (i % 4 == 0 && now_ns() - begin >= length) return false;
    }
  }
  BypassReduce& bypass_reduce() { return *bypass_; }
  // For tests: which calls took a schedule (InstanceTable::begun).
  InstanceTable& instances() { return messenger_->instances(); }
  // Waits until every application-bypass reduction this rank delegated is forwarded (finalize
  // calls it); returns the wait's status, and in *kept a failure met while completing one
  // (which must not keep the rank from finalize's barrier, or the others would wait for it).
  int complete_bypass(int* kept);
  // The algorithm for a call: the requested one, else REMORA_<OPERATION>, else the default.
  Algorithm choose(Operation operation, Algorithm requested, size_t bytes, int size) const;
  // The same for a call on comm. Auto picks shm for a call of an operation it serves on a
  // communicator whose ranks all share this node (a nonblocking one, igather too, unless the
  // progress mode is thread); a shm choice (picked or asked for) falls
  // back to the operation's message-based default where the communicator has no shared area
  // (it spans nodes, or the job does under MPI, or making the area failed). blocks_differ: a
  // v-form of gather, scatter or alltoall, whose bytes differ between members (not looked at).
  Algorithm choose(Operation operation, Algorithm requested, size_t bytes, Communicator& comm,
                   bool nonblocking, bool blocks_differ = false);
  // Gives comm its shared area when all its ranks share this node and the job runs on one node
  // (else group segments would need an MPI window, which cannot be freed without the members).
  // Collective over comm, when it is created (dup, split, create; the world's at start-up), so
  // that the message-based allgathers it takes never shift the sequence numbers of calls.
  // across_nodes: also when the job spans nodes (comm's members all on this node): the node
  // sub-communicators of the hierarchical algorithm, whose group segments need no MPI window.
  void make_shm_area(const std::shared_ptr<Communicator>& comm, bool across_nodes = false);
  // Whether comm's members span several nodes with two or more on some node (computed once).
  bool spans_shared_nodes(Communicator& comm) const;
  // Gives comm its node and leaders' sub-communicators (coll/algorithms/hierarchical.cpp) unless
  // it has them: collective over comm, blocking, at the first hierarchical call on comm.
  int make_hierarchy(const std::shared_ptr<Communicator>& comm);
  // Builds algorithm (not Auto, one operation supports; the descriptor's builder) on schedule.
  void build(Schedule& schedule, Operation operation, Algorithm algorithm,
             const CollectiveArgs& args);
  // Runs a blocking call for which choose() returned Algorithm::Shm on the fast path
  // (coll/shm_fast.hpp) when it can: returns true and the call's status in *status; false
  // when the call needs a schedule (an earlier shm collective of comm is still pending here).
  // The environment of the shm fast and small paths' waits (made once, by create: the wait
  // policy it reads is the transport's, fixed before the collectives layer starts).
  const ShmFast::Env& shm_env() const { return *shm_env_; }
  bool run_shm_fast(const std::shared_ptr<Communicator>& comm, Operation operation,
                    const CollectiveArgs& args, int* status);
  // A blocking call of a small payload in its regular form (ShmFast::small_serves) when the
  // algorithm is shm (asked for, or auto's choice) and nothing of comm's shm area is pending
  // here: runs it on the small path (coll/shm_fast.hpp) and returns true with its status in
  // *status; false, having done nothing, otherwise (then the caller launches the call). For
  // the duration of a call on comm (the caller's reference keeps comm alive).
  bool run_small(Communicator& comm, Operation operation, Algorithm requested,
                 const ShmFast::Small& args, int* status);
  // Whether auto takes shm for a small call (blocking or not; blocks_differ: a v-form) of
  // `bytes` on comm, which has a shared area: choose()'s answer, kept in the communicator
  // (Communicator::auto_small_shm) where it does not depend on the size.
  // Inline: the kept answer is one load and a bit test; learn_small_auto_shm asks choose().
  bool small_auto_shm(Communicator& comm, Operation operation, size_t bytes, bool nonblocking,
                      bool blocks_differ) {
    if (!nonblocking || bytes <= ShmFast::kSmallScatterBytes) {
      const unsigned bit = small_auto_bit(operation, nonblocking, blocks_differ);
      const uint64_t known = comm.auto_small_shm.load(std::memory_order_relaxed);
      if ((known >> bit & 1) != 0) return (known >> (bit + 1) & 1) != 0;
    }
    return learn_small_auto_shm(comm, operation, bytes, nonblocking, blocks_differ);
  }

  // A nonblocking call of a small payload in its regular form, the arguments as the
  // application gave them (the C API's small entry: no CollectiveArgs, comm borrowed by handle):
  // when the algorithm is shm (asked for, or auto's choice for a nonblocking call) and the call
  // has a one-round layout (small_shm_fits), starts its request without a schedule
  // (coll/shm_request.hpp) into *started and returns true; otherwise returns false, having done
  // nothing (then the caller launches the call, which decides alike).
  bool start_small(Communicator& comm, Operation operation, Algorithm requested,
                   const ShmFast::Small& args, std::shared_ptr<Request>* started);

  // One collective call on comm, with the algorithm choose() gives: blocking (started ==
  // nullptr) on the shm fast path when it can, else on a schedule that is waited for; or
  // nonblocking, its started request in *started: a small shm call's without a schedule
  // (coll/shm_request.hpp), else its schedule. The algorithm's descriptor builds the
  // schedule from args, which are permuted first when comm has a rank order that the
  // algorithm follows. Returns the blocking call's status, or the start's.
  int launch(const std::shared_ptr<Communicator>& comm, Operation operation, Algorithm requested,
             size_t bytes, CollectiveArgs* args, std::shared_ptr<Request>* started = nullptr);

  // Communicator creation: blocking and collective over parent. *out is nullptr for the
  // ranks that are not members of the new communicator.
  int dup(const std::shared_ptr<Communicator>& parent, std::shared_ptr<Communicator>* out);
  int split(const std::shared_ptr<Communicator>& parent, int colour, int key,
            std::shared_ptr<Communicator>* out);
  int create(const std::shared_ptr<Communicator>& parent, const Group& group,
             std::shared_ptr<Communicator>* out);

  HandleTable<Communicator> communicators;
  HandleTable<Group> groups;
  RequestTable requests;  // schedules and request-based RMA operations

 private:
  Collectives(transport::Transport& transport, progress::ProgressEngine& progress);
  int run(const std::shared_ptr<Schedule>& schedule);
  // ShmRequest::start for a nonblocking shm call on comm (which has its area).
  bool start_shm_request(const std::shared_ptr<Communicator>& comm, Operation operation,
                         const ShmFast::Small& args, std::shared_ptr<Request>* started);
  // Agrees on a context id over parent; member: whether this rank joins the new communicator.
  int new_context(const std::shared_ptr<Communicator>& parent, bool member, uint32_t* context);
  bool on_one_node(Communicator& comm) const;

  std::shared_ptr<Communicator> make_communicator(Group group, uint32_t context);

  transport::Transport& transport_;
  progress::ProgressEngine& progress_;
  std::unique_ptr<Messenger> messenger_;
  std::unique_ptr<BypassReduce> bypass_;
  std::shared_ptr<ContextIds> contexts_;
  std::shared_ptr<Communicator> world_;
  Algorithm configured_[kOperationCount] = {};
  OrderKind default_order_ = OrderKind::Identity;  // REMORA_COLL_ORDER
  std::chrono::nanoseconds timeout_{0};            // REMORA_COLL_TIMEOUT
  size_t single_copy_bytes_ = 0;                   // REMORA_SHM_SINGLE_COPY_BYTES
  // kDefaultSingleCopyBytes (not oversubscribed), or the above when that is set
  size_t default_single_copy_bytes_ = 0;
  // The same for areas of two members: kPairSingleCopyBytes
  size_t pair_single_copy_bytes_ = 0;
  // oversubscribed: kOversubscribedSingleCopyBytes, or the above when that is set; else 0
  size_t rooted_single_copy_bytes_ = 0;
  std::shared_ptr<ShmAreas> areas_ = std::make_shared<ShmAreas>();  // advanced by every wait
  bool job_on_one_node_ = true;   // group segments need no MPI window (see shm_area)
  uint64_t shm_yield_ns() const;  // the yield phase's length (0: none), see yield_phase
  ShmFast::Env make_shm_env() const;
  // small_auto_shm's bit in Communicator::auto_small_shm: set once the answer is known, the
  // next one holds it.
  static unsigned small_auto_bit(Operation operation, bool nonblocking, bool blocks_differ) {
    const unsigned kind = nonblocking ? 2 : blocks_differ ? 1 : 0;
    static_assert(2 * 3 * kOperationCount <= 64);
    return 2 * (3 * static_cast<unsigned>(operation) + kind);
  }
  bool learn_small_auto_shm(Communicator& comm, Operation operation, size_t bytes, bool nonblocking,
                            bool blocks_differ);
  std::optional<ShmFast::Env> shm_env_;  // set by create
};

}  // namespace remora::coll
