#include "transport/mpi/mpi_transport.hpp"

#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <random>
#include <utility>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/log.hpp"

namespace remora::mpi {
namespace {

struct MpiSegment final : transport::Segment {
  explicit MpiSegment(MpiTransport& transport) : owner(transport) {}
  MpiTransport& owner;
  transport::Segment* node = nullptr;   // this node's shared-memory segment
  std::unique_ptr<RmaWindow> window;    // for ranks on other nodes; null on a one-node job
  MPI_Comm group_comm = MPI_COMM_NULL;  // a group segment's members (for its window)
  // A segment the application never freed (remora_finalize deletes it): its window leaves the
  // lists that flushes visit before it goes (the MPI window itself is left to MPI_Finalize).
  ~MpiSegment() override {
    if (window) owner.forget(window.get());
    delete node;
  }
};

const MpiSegment& as_mpi(const transport::Segment& segment) {
  return static_cast<const MpiSegment&>(segment);
}

// Tests of a request before wait_for falls back to the waiting policy's loop.
constexpr int kQuickTests = 64;
// announce reads the clock for one operation of this many to a target within a burst (small
// ones); an operation counts once more per kAnnounceUnitBytes it moves, so that the bytes moved
// between two clock reads stay under kAnnounceStride * kAnnounceUnitBytes (a long operation
// announces at once).
constexpr uint32_t kAnnounceStride = 16;
constexpr size_t kAnnounceUnitBytes = 4096;
// While active across nodes: the longest a wait polls without yielding the CPU (shorter when
// oversubscribed), and the pauses between its polls.
constexpr uint64_t kActiveYieldNs = 50000;
constexpr uint64_t kActiveYieldOversubscribedNs = 5000;
constexpr int kActivePauses = 1;
// While active: MPI probes (progress, nothing received) per round of the sleep phase, between
// the rounds' polls of the node's queues and the channel, so that an active target turns MPI's
// progress engine about as often as a raw MPI target inside MPI_Barrier does (MPICH over UCX
// completes small puts and gets in the target's MPI calls: with one poll and 16 pauses per
// round, 8-byte put + flush and get took 1.7x the raw MPI time on this 2-core VM).
constexpr int kActiveProbes = 16;
// While active on an oversubscribed machine: after this long without progress a wait naps
// (sleeps kActiveNapNs) between its polls, so that the ranks it waits for, often queued behind
// it on its CPU, run at once; a call this long after the wait's previous one starts a new wait.
constexpr uint64_t kActiveNapAfterNs = 100000;
constexpr uint64_t kActiveNapNs = 20000;
constexpr uint64_t kActiveStreakGapNs = 50000;
// An active wait reads its thread's count of involuntary context switches at most once per
// kPreemptCheckNs (getrusage: about a microsecond); one more since the last read makes the
// rank's waits crowded (MpiTransport::crowded) for kCrowdedForNs.
constexpr uint64_t kPreemptCheckNs = 1000000;
constexpr uint64_t kCrowdedForNs = 16000000;

// Whether this thread was preempted since its previous read (at most one read per
// kPreemptCheckNs; false between reads).
bool preempted_since_last_read(uint64_t now) {
  thread_local uint64_t read_ns = 0;
  thread_local long switches = -1;
  if (now - read_ns < kPreemptCheckNs) return false;
  read_ns = now;
  rusage usage{};
  if (getrusage(RUSAGE_THREAD, &usage) != 0) return false;
  const bool preempted = switches >= 0 && usage.ru_nivcsw != switches;
  switches = usage.ru_nivcsw;
  return preempted;
}

// One job name for every rank (it names the nodes' shared-memory objects).
std::string agree_on_job_id(MPI_Comm comm) {
  char name[32] = {};
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    std::random_device random;
    std::snprintf(name, sizeof name, "%d-%08x", static_cast<int>(getpid()), random());
  }
  MPI_Bcast(name, sizeof name, MPI_CHAR, 0, comm);
  return name;
}

}  // namespace

int MpiTransport::create(int* argc, char*** argv, const Config& config, bool* thread_progress,
                         std::unique_ptr<MpiTransport>* out,
                         std::unique_ptr<GhostEndpoint>* ghost) {
  std::unique_ptr<MpiTransport> self(new MpiTransport());
  int status = Session::open(argc, argv, *thread_progress, &self->session_);
  if (status != REMORA_SUCCESS) return status;
  self->mpi_mutex_.set_always(*thread_progress);  // else only at REMORA_THREAD_MULTIPLE
  const void* chosen = job_comm();                // remora_init_mpi_comm, else the world
  MPI_Comm_dup(chosen != nullptr ? *static_cast<const MPI_Comm*>(chosen) : MPI_COMM_WORLD,
               &self->comm_);
  std::string job_id;
  GhostSplit split;
  if (ghost != nullptr) {
    if (int refused = refuse_ghosts_in_application_mpi(*self->session_)) return refused;
    job_id = agree_on_job_id(self->comm_);
    status = split_off_ghosts(self->comm_, static_cast<int>(config.node_size), &split);
    split.everyone = std::exchange(self->comm_, MPI_COMM_NULL);  // the channel across nodes
    if (status != REMORA_SUCCESS) {
      MPI_Comm_free(&split.everyone);
      return status;
    }
    if (split.is_ghost)
      return GhostEndpoint::create(std::move(self->session_), split, job_id, config, ghost);
    self->everyone_ = split.everyone;
    self->comm_ = split.app_comm;
  }
  MPI_Comm_rank(self->comm_, &self->rank_);
  MPI_Comm_size(self->comm_, &self->size_);
  set_log_rank(self->rank_);
  if (*thread_progress && !self->session_->serves_progress_thread()) {
    if (self->rank_ == 0)
      log(LogLevel::Warn,
          "REMORA_PROGRESS=thread needs MPI_THREAD_MULTIPLE, but the MPI library provides %s%s: "
          "falling back to manual progress (messages are delivered inside Remora calls only)",
          thread_level_name(self->session_->thread_level()),
          self->session_->owns_mpi() ? "" : " (the application initialised MPI)");
    *thread_progress = false;
  }
  // With a progress thread, the rank's own progress thread preempts its application thread
  // routinely (it wakes on the same CPUs): such preemptions say nothing of other load, and naps
  // taken on them cost an 8-byte put + flush across nodes 1.2 -> 120 µs (quiet machine).
  self->notes_preemption_ = !*thread_progress;
  shm::ControlBlock block;
  if (ghost == nullptr) {
    status = build_node_layout(self->comm_, static_cast<int>(config.node_size), &self->layout_);
    if (status != REMORA_SUCCESS) return status;
    status = share_control_block(self->layout_, agree_on_job_id(self->comm_), config, &block);
  } else {
    status = self->join_ghost(split, job_id, config, &block);
  }
  if (status != REMORA_SUCCESS) return status;
  std::vector<int> job_ranks = self->layout_.node_ranks;
  if (self->ghost_ >= 0) job_ranks.push_back(self->ghost_);  // the ghost's messages (replies)
  status = shm::ShmTransport::create(
      std::move(block), self->layout_.node_rank, config, std::move(job_ranks),
      self->size_ + (self->ghost_ >= 0 ? self->layout_.node_count : 0), &self->shm_);
  if (status != REMORA_SUCCESS) return status;
  // This node's endpoints: its ranks, and its ghost (replies to it come through shared memory).
  std::vector<int> local_of(
      static_cast<size_t>(self->size_ + (self->ghost_ >= 0 ? self->layout_.node_count : 0)), -1);
  for (int r : self->layout_.node_ranks)
    local_of[static_cast<size_t>(r)] = self->layout_.index_on_node[static_cast<size_t>(r)];
  if (self->ghost_ >= 0)
    local_of[static_cast<size_t>(self->ghost_)] = self->shm_->control_block().ghost();
  self->route(std::move(local_of));
  // Waits spin less when the machine, not only this rank's node, has more runnable threads
  // than CPUs (REMORA_NODE_SIZE=1 makes nodes of one rank on a machine of many). Across nodes a
  // progress thread sleeps between its polls of MPI (sleep()), so it takes no CPU of its own:
  // counting it would make bound ranks nap as if oversubscribed.
  if (ghost == nullptr)
    self->shm_->count_ranks_sharing_cpus(
        config, self->layout_.machine_ranks, self->layout_.machine_cpus,
        self->layout_.node_count > 1 ? ProgressThreadWaits::Sleeping
                                     : ProgressThreadWaits::Spinning);
  self->window_shared_.wait_outside_mpi = self->wait_policy().oversubscribed;
  self->set_agent_policy(self->layout_.node_count > 1);
  if (self->ghost_ >= 0) {
    self->channel_ = std::make_unique<AmChannel>(self->everyone_, self->mpi_mutex_,
                                                 EndpointMap::gather(self->everyone_, self->rank_));
  } else {
    self->channel_ = std::make_unique<AmChannel>(self->comm_, self->mpi_mutex_);
  }
  if (self->layout_.node_count > 1) {
    self->poll_interval_ns_ = static_cast<uint64_t>(config.mpi_poll_us) * 1000;
    self->active_ns_ = static_cast<uint64_t>(config.mpi_active_us) * 1000;
    self->announced_ = std::make_unique<Announced[]>(static_cast<size_t>(self->size_));
  }
  self->window_shared_.to_flush.resize(static_cast<size_t>(self->size_));
  if (self->layout_.node_count > 1) {
    if (MPI_Win_create(self->ping_area_, sizeof self->ping_area_, 1, MPI_INFO_NULL, self->comm_,
                       &self->ping_window_) != MPI_SUCCESS)
      return fail(REMORA_ERR_SYSTEM, "remora_init: MPI_Win_create of the ping window failed");
    MPI_Win_lock_all(MPI_MODE_NOCHECK, self->ping_window_);
  }
  *out = std::move(self);
  return REMORA_SUCCESS;
}

MpiTransport::~MpiTransport() {
  // Collective, as remora_finalize is (UCX aborts in MPI_Finalize over a window left to it).
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (ping_window_ != MPI_WIN_NULL && !finalized) {
    MPI_Win_unlock_all(ping_window_);
    MPI_Win_free(&ping_window_);
  }
  leave_ghost();
  channel_.reset();
  if (everyone_ != MPI_COMM_NULL) MPI_Comm_free(&everyone_);
  shm_.reset();
  if (layout_.node_comm != MPI_COMM_NULL) MPI_Comm_free(&layout_.node_comm);
  if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

// A failed MPI_Test ends the wait with its error (the request's state is then unknown: it is
// left to MPI).
int MpiTransport::wait_for(MPI_Request* request) {
  int tested = MPI_SUCCESS;
  {
    // First a bounded run of tests under one hold of the mutex: across nodes most one-sided
    // operations complete within a few microseconds, and each round of the general loop below
    // also polls the active-message channel and the node's queues.
    std::lock_guard lock(mpi_mutex_);
    for (int i = 0; i < kQuickTests && tested == MPI_SUCCESS; ++i) {
      int done = 0;
      tested = MPI_Test(request, &done, MPI_STATUS_IGNORE);
      if (done && tested == MPI_SUCCESS) return REMORA_SUCCESS;
    }
  }
  if (tested == MPI_SUCCESS) {
    const int status = wait_until([&] {
      outstanding();
      std::lock_guard lock(mpi_mutex_);
      int done = 0;
      tested = MPI_Test(request, &done, MPI_STATUS_IGNORE);
      return done != 0 || tested != MPI_SUCCESS;
    });
    if (status != REMORA_SUCCESS || tested == MPI_SUCCESS) return status;
  }
  return fail(REMORA_ERR_SYSTEM, "MPI_Test of a request to another node failed (MPI error %d)",
              tested);
}

// A request of this rank is outstanding across nodes: its target (or the collective's peers)
// may need this rank's MPI calls, and it completes only in one of them, so the waits stay active
// (poll, do not sleep) until it completes.
void MpiTransport::outstanding() {
  if (active_ns_ == 0) return;
  const uint64_t now = now_ns();
  if (!active(now + active_ns_ / 2)) stay_active(now);
}

int MpiTransport::settle(int target) {
  return settle_all({target});
}

bool MpiTransport::needs_flush(int target) {
  for (RmaWindow* window : window_shared_.to_flush[static_cast<size_t>(target)])
    if (window->needs_flush(target)) return true;
  return false;
}

int MpiTransport::settle_all(const std::vector<int>& targets) {
  // A get this thread waits for lands in its own bytes (several threads may settle at once).
  thread_local unsigned char sinks[64];
  std::vector<MPI_Request> requests;
  requests.reserve(targets.size());
  int result = MPI_SUCCESS;
  {
    std::lock_guard lock(mpi_mutex_);
    for (int target : targets) {
      if (target == rank_) continue;  // this rank's own MPI calls serve it
      const int offset = static_cast<int>(requests.size() % sizeof ping_area_);
      result = MPI_Rget(sinks + requests.size() % sizeof sinks, 1, MPI_BYTE, target, offset, 1,
                        MPI_BYTE, ping_window_, &requests.emplace_back(MPI_REQUEST_NULL));
      if (result != MPI_SUCCESS) break;
    }
  }
  int status = REMORA_SUCCESS;
  for (MPI_Request& request : requests)
    if (request != MPI_REQUEST_NULL)
      if (int waited = wait_for(&request); status == REMORA_SUCCESS) status = waited;
  if (result != MPI_SUCCESS) return fail(REMORA_ERR_SYSTEM, "MPI_Rget of the ping window failed");
  return status;
}

int MpiTransport::allocate_segment(size_t bytes, transport::Segment** segment) {
  auto mpi = std::make_unique<MpiSegment>(*this);
  int status = shm_->allocate_segment(bytes, &mpi->node);
  if (status == REMORA_SUCCESS) mpi->id = mpi->node->id;  // names it for the node's ghost
  // Every rank learns every size and whether every node succeeded (nonblocking collectives:
  // this rank keeps serving its node's messages, and does not busy-poll inside MPI, meanwhile).
  struct Entry {
    uint64_t bytes;
    int64_t status;
  } mine{bytes, status}, *all = nullptr;
  std::vector<Entry> entries(static_cast<size_t>(size_));
  all = entries.data();
  MPI_Request request;
  {
    std::lock_guard lock(mpi_mutex_);
    MPI_Iallgather(&mine, 2, MPI_INT64_T, all, 2, MPI_INT64_T, comm_, &request);
  }
  if (int waited = wait_for(&request)) return waited;
  int failed = -1;
  for (int r = 0; r < size_; ++r) {
    mpi->bytes.push_back(static_cast<size_t>(entries[static_cast<size_t>(r)].bytes));
    if (failed < 0 && entries[static_cast<size_t>(r)].status != REMORA_SUCCESS) failed = r;
  }
  if (failed >= 0) {
    if (status == REMORA_SUCCESS) {
      shm_->free_segment(mpi->node);
      mpi->node = nullptr;
      return fail(static_cast<int>(entries[static_cast<size_t>(failed)].status),
                  "remora_segment_allocate: rank %d could not allocate its part", failed);
    }
    return status;
  }
  if (layout_.node_count > 1) {
    status = RmaWindow::create(comm_, window_shared_, shm_->address(*mpi->node, layout_.node_rank),
                               bytes, &mpi->window);
    if (status != REMORA_SUCCESS) return status;
    std::lock_guard lock(windows_mutex_);
    windows_.push_back(mpi->window.get());
  }
  *segment = mpi.release();
  return REMORA_SUCCESS;
}

void MpiTransport::forget(RmaWindow* window) {
  {
    std::lock_guard lock(windows_mutex_);
    std::erase(windows_, window);
  }
  std::lock_guard lock(mpi_mutex_);
  window->unlist();
}

int MpiTransport::free_segment(transport::Segment* segment) {
  auto* mpi = static_cast<MpiSegment*>(segment);
  int status = REMORA_SUCCESS;
  if (mpi->window) {
    forget(mpi->window.get());
    // Nobody on another node accesses this memory any more once everyone arrived here.
    MPI_Request request;
    {
      std::lock_guard lock(mpi_mutex_);
      MPI_Ibarrier(comm_, &request);
    }
    status = wait_for(&request);
    if (status == REMORA_SUCCESS) status = mpi->window->free();
    mpi->window.reset();
  }
  const int node_status = shm_->free_segment(mpi->node);
  mpi->node = nullptr;
  delete mpi;
  return status != REMORA_SUCCESS ? status : node_status;
}

int MpiTransport::allocate_group_segment(const std::vector<int>& members, size_t bytes,
                                         const GroupAllgather& allgather,
                                         transport::Segment** segment) {
  // This node's members share memory: their exchanges are the members' allgathers, keeping the
  // entries of this node (every member makes the same calls, whatever its node).
  std::vector<int> node_members, node_index;
  for (size_t i = 0; i < members.size(); ++i)
    if (const int local = local_endpoint(members[i]); local >= 0) {
      node_members.push_back(local);
      node_index.push_back(static_cast<int>(i));
    }
  const GroupAllgather node_allgather = [&](uint64_t mine, std::vector<uint64_t>* values) -> int {
    std::vector<uint64_t> all;
    if (int status = allgather(mine, &all)) return status;
    values->clear();
    for (int i : node_index) values->push_back(all[static_cast<size_t>(i)]);
    return REMORA_SUCCESS;
  };
  auto mpi = std::make_unique<MpiSegment>(*this);
  if (int status = shm_->allocate_group_segment(node_members, bytes, node_allgather, &mpi->node))
    return status;
  mpi->id = mpi->node->id;
  // Every member's size (other nodes' parts are not in this node's segment).
  std::vector<uint64_t> sizes;
  if (int status = allgather(bytes, &sizes)) return status;
  mpi->bytes.assign(static_cast<size_t>(size_), 0);
  for (size_t i = 0; i < members.size(); ++i)
    mpi->bytes[static_cast<size_t>(members[i])] = static_cast<size_t>(sizes[i]);
  // A group within this node (the hierarchical collectives' node communicators) reaches every
  // part through the node's shared memory: no MPI window, and nothing collective to free.
  if (layout_.node_count > 1 && node_members.size() < members.size()) {
    // An MPI window over the members only (MPI_Comm_create_group: collective over them).
    MPI_Group job_group = MPI_GROUP_NULL, group = MPI_GROUP_NULL;
    {
      std::lock_guard lock(mpi_mutex_);
      MPI_Comm_group(comm_, &job_group);
      MPI_Group_incl(job_group, static_cast<int>(members.size()), members.data(), &group);
      MPI_Comm_create_group(comm_, group, 0, &mpi->group_comm);
      MPI_Group_free(&group);
      MPI_Group_free(&job_group);
    }
    if (int status =
            RmaWindow::create(mpi->group_comm, window_shared_,
                              shm_->address(*mpi->node, layout_.node_rank), bytes, &mpi->window))
      return status;
    std::vector<int> ranks(static_cast<size_t>(size_), -1);
    for (size_t i = 0; i < members.size(); ++i)
      ranks[static_cast<size_t>(members[i])] = static_cast<int>(i);
    mpi->window->set_ranks(std::move(ranks));
    std::lock_guard lock(windows_mutex_);
    windows_.push_back(mpi->window.get());
  }
  *segment = mpi.release();
  return REMORA_SUCCESS;
}

// The members have synchronised (the window's free): only the MPI window needs collective
// freeing, over the members' communicator.
int MpiTransport::free_group_segment(transport::Segment* segment) {
  auto* mpi = static_cast<MpiSegment*>(segment);
  int status = REMORA_SUCCESS;
  if (mpi->window) {
    forget(mpi->window.get());
    status = mpi->window->free();
    mpi->window.reset();
    std::lock_guard lock(mpi_mutex_);
    MPI_Comm_free(&mpi->group_comm);
  }
  delete mpi;
  return status;
}

const transport::Segment& MpiTransport::node_segment(const transport::Segment& segment) const {
  return *as_mpi(segment).node;
}

// Without an MPI window (a job of one node) atomic() goes to the node's shared memory.
bool MpiTransport::cpu_atomics(const transport::Segment& segment) const {
  return !as_mpi(segment).window;
}

int MpiTransport::remote_put(const transport::Segment& segment, int target, size_t offset,
                             const void* source, size_t bytes) {
  announce(target, bytes);
  return as_mpi(segment).window->put(target, offset, source, bytes);
}

int MpiTransport::remote_get(const transport::Segment& segment, int target, size_t offset,
                             void* destination, size_t bytes) {
  announce_now(target);  // it waits for the target
  return as_mpi(segment).window->get(target, offset, destination, bytes);
}

int MpiTransport::get_pending(const transport::Segment& segment, int target, size_t offset,
                              void* destination, size_t bytes,
                              std::shared_ptr<transport::PendingGet>* pending) {
  if (local_endpoint(target) >= 0)
    return Transport::get_pending(segment, target, offset, destination, bytes, pending);
  announce(target, bytes);
  return as_mpi(segment).window->rget(target, offset, destination, bytes, pending);
}

int MpiTransport::remote_put_strided(const transport::Segment& segment, int target, size_t offset,
                                     const void* source, const transport::StridedShape& shape) {
  announce(target, shape.total_bytes());
  return as_mpi(segment).window->put_strided(target, offset, source, shape);
}

int MpiTransport::remote_get_strided(const transport::Segment& segment, int target, size_t offset,
                                     void* destination, const transport::StridedShape& shape) {
  announce_now(target);
  return as_mpi(segment).window->get_strided(target, offset, destination, shape);
}

// Only the windows that listed themselves for target since its last flush (rma_window.hpp).
int MpiTransport::remote_flush(int target) {
  if (target < 0 || target >= size_)
    return fail(REMORA_ERR_RANK, "flush: target rank %d is not a rank of this job (0..%d)", target,
                size_ - 1);
  announce_now(target);  // it waits for the target: never a late notice
  std::vector<RmaWindow*>& listed = window_shared_.to_flush[static_cast<size_t>(target)];
  if (int status = window_shared_.settle_if(target, [&] { return needs_flush(target); }))
    return status;
  std::lock_guard lock(mpi_mutex_);
  while (!listed.empty()) {
    if (int status = listed.back()->flush_listed(target)) return status;
    listed.pop_back();
  }
  return REMORA_SUCCESS;
}

int MpiTransport::remote_flush_all() {
  if (window_shared_.outside_mpi()) {
    // Every target some window has operations to (each window lists itself for them).
    std::vector<int> targets;
    {
      std::lock_guard lock(mpi_mutex_);
      for (int target = 0; target < size_; ++target)
        if (needs_flush(target)) targets.push_back(target);
    }
    if (int status = settle_all(targets)) return status;
  }
  std::lock_guard lock(windows_mutex_);
  for (RmaWindow* window : windows_)
    if (int status = window->flush_all()) return status;
  return REMORA_SUCCESS;
}

int MpiTransport::unreachable(const char* what, int rank) const {
  return fail(REMORA_ERR_UNSUPPORTED, "%s rank %d: it is on another node", what, rank);
}

// Through MPI even on this node (the job spans nodes): the target may have to progress it.
int MpiTransport::remote_atomic(const transport::Segment& segment, int target, size_t offset,
                                transport::AtomicOp op, uint64_t operand, uint64_t compare,
                                uint64_t* result) {
  if (target != rank_) announce_now(target);
  return as_mpi(segment).window->atomic(target, offset, op, operand, compare, result);
}

int MpiTransport::remote_am_send(int target, int handler_id, const void* payload, size_t bytes) {
  if (target >= size_) return send_to_ghost(target, handler_id, payload, bytes);
  if (active_ns_ > 0) {
    const uint64_t now = now_ns();
    stay_active(now);  // its reply, if any, comes through MPI
    announced_[static_cast<size_t>(target)].noticed.store(now, std::memory_order_relaxed);
  }
  return channel_->send(target, handler_id, payload, bytes);
}

void MpiTransport::stay_active(uint64_t now) {
  const uint64_t until = now + active_ns_;
  uint64_t before = active_until_.load(std::memory_order_relaxed);
  while (before < until &&
         !active_until_.compare_exchange_weak(before, until, std::memory_order_relaxed)) {
  }
}

// A clock read per operation was too dear (clock_gettime: 22-90 ns on this VM, against 0.33 µs
// for an 8-byte MPI_Put in a bandwidth loop): within a burst of operations to a target the clock
// is read at every kAnnounceStride-th small one only. A burst ends at any poll of this rank (every
// round of a wait, remora_progress, the progress thread's polls), so the first operation after
// one announces at once; only operations spaced by computation outside Remora may send their
// notice up to kAnnounceStride - 1 operations late (the flush that follows them announces at
// once). Larger operations use up the stride faster (one more per kAnnounceUnitBytes), and one
// of kAnnounceStride - 1 units or more announces every time: 1 MiB puts whose requests complete
// within wait_for's quick tests poll nothing, and 16 of them (8 ms at 2 GB/s) would otherwise go
// without a notice for longer than the target stays active.
void MpiTransport::announce(int target, size_t bytes) {
  if (active_ns_ == 0) return;
  Announced& to = announced_[static_cast<size_t>(target)];
  const uint32_t round = polls_.load(std::memory_order_relaxed);
  const uint32_t left = to.skips.load(std::memory_order_relaxed);
  const auto cost =
      static_cast<uint32_t>(1 + std::min<size_t>(bytes / kAnnounceUnitBytes, kAnnounceStride));
  if (left >= cost && to.round.load(std::memory_order_relaxed) == round) {
    to.skips.store(left - cost, std::memory_order_relaxed);  // two threads may both skip: harmless
    return;
  }
  to.round.store(round, std::memory_order_relaxed);
  to.skips.store(kAnnounceStride - 1, std::memory_order_relaxed);
  announce_now(target);
}

void MpiTransport::announce_now(int target) {
  if (active_ns_ == 0) return;
  const uint64_t now = now_ns();
  // Renewed when an eighth of the activity has passed, not by every operation (an atomic
  // read-modify-write per put).
  if (!active(now + active_ns_ - active_ns_ / 8)) stay_active(now);
  std::atomic<uint64_t>& last = announced_[static_cast<size_t>(target)].noticed;
  uint64_t before = last.load(std::memory_order_relaxed);
  if (now - before < active_ns_ / 2) return;
  // One thread sends the notice; a failed send only leaves the target to its next poll.
  if (last.compare_exchange_strong(before, now, std::memory_order_relaxed))
    (void)channel_->send_notice(target);
}

bool MpiTransport::poll() {
  // Ends announce's bursts (lost increments of two threads still change it).
  polls_.store(polls_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  const bool received = layout_.node_count > 1 && channel_->poll(shm_->dispatcher());
  if (received && active_ns_ > 0) stay_active(now_ns());
  return shm_->poll() || received;
}

bool MpiTransport::crowded(uint64_t now) {
  if (wait_policy().oversubscribed) return true;
  if (!notes_preemption_) return false;
  std::atomic<uint64_t>& until = window_shared_.crowded_until_ns;
  if (preempted_since_last_read(now)) until.store(now + kCrowdedForNs, std::memory_order_relaxed);
  return now < until.load(std::memory_order_relaxed);
}

// Nobody on another node can wake this rank's futex. While this rank is active across nodes
// (see mpi_transport.hpp) the sleep phase of an application thread's wait does not sleep, so that
// the wait keeps polling MPI (and MPI keeps progressing the one-sided operations that other nodes
// direct at this rank): it yields the CPU every 5 µs on an oversubscribed machine, else every 50
// µs, probes MPI up to kActiveProbes times and pauses once between polls (on a virtual machine
// a sched_yield costs about a microsecond: one per poll would halve the rate of polls). On an
// oversubscribed machine a wait that has seen no progress for kActiveNapAfterNs naps instead
// (kActiveNapNs, on its futex) between its polls: a yield does not reliably hand the CPU to the
// rank it waits for (3 ranks on 2 cores spent most of their time polling for each other). Otherwise
// it sleeps at most REMORA_MPI_POLL_US before it polls MPI again. The progress thread always does
// the latter: it shares its core with the application, which polls itself while it waits in Remora,
// and which, while it computes, would keep a yielding progress thread off the core for whole time
// slices (a sleep ends in a wake-up that preempts it).
void MpiTransport::sleep(uint64_t timeout_ns, transport::Ready ready, transport::Sleeper sleeper) {
  if (poll_interval_ns_ > 0) {
    const uint64_t now = now_ns();
    if (sleeper == transport::Sleeper::Application && active(now)) {
      // MPI's progress engine turned back to back, as inside MPI_Barrier: one-sided operations
      // that MPI completes in software here are served within one probe's time.
      thread_local uint64_t fruitless_since_ns = 0, last_call_ns = 0;
      // A wait's sleep phase starts at the policy's first timeout (Backoff doubles it after
      // every call), or after a gap: another wait.
      if (timeout_ns <= wait_policy().first_sleep_ns || now - last_call_ns > kActiveStreakGapNs)
        fruitless_since_ns = now;
      last_call_ns = now;
      for (int i = 0; i < kActiveProbes; ++i) {
        if (ready() || channel_->probe()) {
          fruitless_since_ns = now;
          return;
        }
      }
      // Preempted lately, not judged oversubscribed: a nap after every fruitless round (the
      // preemptions themselves part its calls by more than kActiveStreakGapNs, which would
      // restart its fruitless time for ever).
      const bool crowded = this->crowded(now);
      if (crowded &&
          (!wait_policy().oversubscribed || now - fruitless_since_ns >= kActiveNapAfterNs)) {
        shm_->sleep(kActiveNapNs, ready, sleeper);
        last_call_ns = now_ns();
        return;
      }
      thread_local uint64_t last_yield_ns = 0;
      const uint64_t yield_every = crowded ? kActiveYieldOversubscribedNs : kActiveYieldNs;
      if (now - last_yield_ns >= yield_every) {
        sched_yield();
        last_yield_ns = now;
      } else {
        for (int i = 0; i < kActivePauses; ++i) cpu_relax();
      }
      return;
    }
    timeout_ns = std::min(timeout_ns, poll_interval_ns_);
  }
  shm_->sleep(timeout_ns, ready, sleeper);
}

bool MpiTransport::accumulates(const transport::Segment& segment, int type) const {
  return as_mpi(segment).window && RmaWindow::accumulates(type);
}

int MpiTransport::accumulate(const transport::Segment& segment, int target, size_t offset,
                             const transport::Accumulate& operation) {
  const MpiSegment& mpi = as_mpi(segment);
  if (!mpi.window || !RmaWindow::accumulates(operation.type))
    return fail(REMORA_ERR_UNSUPPORTED, "no MPI accumulate of type %d to rank %d", operation.type,
                target);
  // An accumulate without a result returns without waiting for the target.
  if (target != rank_) {
    if (operation.result == nullptr && operation.compare == nullptr)
      announce(target, RmaWindow::bytes_of(operation));
    else
      announce_now(target);
  }
  return mpi.window->accumulate(target, offset, operation);
}

// flush(target) flushes every window for a target on another node; this node's are left to
// the shared-memory transport there.
int MpiTransport::flush_accumulates(const transport::Segment& segment, int target) {
  const MpiSegment& mpi = as_mpi(segment);
  if (!mpi.window || local_endpoint(target) < 0) return REMORA_SUCCESS;
  return mpi.window->flush(target);
}

}  // namespace remora::mpi

template class remora::mpi::Router<remora::mpi::MpiTransport>;
