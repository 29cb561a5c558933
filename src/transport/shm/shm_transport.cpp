#include "transport/shm/shm_transport.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>

#include "core/asymmetric_fence.hpp"
#include "core/cpus.hpp"
#include "core/error.hpp"
#include "transport/node_wait.hpp"
#include "transport/shm/futex.hpp"
#include "transport/shm/process_memory.hpp"

namespace remora::shm {
namespace {

constexpr size_t kDrainBatch = 256;

// Set while a thread waits for space in a receive queue: it may then only drain, not run
// handlers (which could try to send to the same target again).
thread_local int waiting_for_space = 0;

uint8_t* part(const transport::Segment& segment, int rank, size_t offset) {
  const auto& shm = static_cast<const ShmSegment&>(segment);
  return shm.base + shm.offsets[static_cast<size_t>(rank)] + offset;
}

}  // namespace

int ShmTransport::create(ControlBlock block, int rank, const Config& config,
                         std::unique_ptr<ShmTransport>* out) {
  // Started by remorarun: ranks of the block are job ranks, and the node's ghost process (if
  // any) is the endpoint after them.
  std::vector<int> job_ranks(static_cast<size_t>(block.valid() ? block.endpoints() : 0));
  for (size_t r = 0; r < job_ranks.size(); ++r) job_ranks[r] = static_cast<int>(r);
  const int job_size = static_cast<int>(job_ranks.size());
  const int status = create(std::move(block), rank, config, std::move(job_ranks), job_size, out);
  if (status == REMORA_SUCCESS && config.wake_membarrier != "off") (*out)->use_membarrier_wakes();
  return status;
}

void ShmTransport::use_membarrier_wakes() {
  // Registered before this rank can sleep or wake (a process that registered later could miss
  // a heavy fence issued before); where it cannot register, light_fence() stays a full fence.
  enable_asymmetric_fences();
  membarrier_wakes_ = true;
}

int ShmTransport::create(ControlBlock block, int rank, const Config& config,
                         std::vector<int> job_ranks, int job_size,
                         std::unique_ptr<ShmTransport>* out) {
  if (rank < 0 || rank >= block.endpoints())
    return fail(REMORA_ERR_CONFIG, "REMORA_RANK=%d is outside the job's %d ranks", rank,
                block.nranks());
  out->reset(new ShmTransport(std::move(block), rank, config, std::move(job_ranks), job_size));
  return REMORA_SUCCESS;
}

ShmTransport::ShmTransport(ControlBlock block, int rank, const Config& config,
                           std::vector<int> job_ranks, int job_size)
    : block_(std::move(block)),
      rank_(rank),
      size_(block_.nranks()),
      job_ranks_(std::move(job_ranks)),
      am_max_bytes_(std::min<uint64_t>(config.am_max_bytes, UINT32_MAX)),
      send_mutexes_(new std::mutex[static_cast<size_t>(block_.endpoints())]),
      dispatcher_(job_size),
      ghost_(block_.ghost()) {
  for (int r = 0; r < size_; ++r) local_ranks_.push_back(r);
  for (int r = 0; r < block_.endpoints(); ++r) queues_.push_back(block_.queue(r));
  if (rank_ == ghost_) {  // the ghost process: its first handler maps the ranks' segments
    ghost_segments_ = std::make_unique<GhostSegmentTable>(block_);
    int id = -1;
    dispatcher_.register_handler(GhostSegmentTable::on_message, ghost_segments_.get(), &id);
  }
  policy_ = make_wait_policy(config, size_, available_cpus());
  block_.rank(rank_).pid.store(getpid(), std::memory_order_release);
  allow_process_memory_access();
}

ShmTransport::~ShmTransport() = default;

void ShmTransport::count_ranks_sharing_cpus(const Config& config, int ranks, int cpus,
                                            ProgressThreadWaits progress_waits) {
  policy_ = make_wait_policy(config, ranks, cpus, progress_waits);
}

int ShmTransport::allgather(uint64_t value, std::vector<uint64_t>* values) {
  block_.rank(rank_).exchange.store(value, std::memory_order_release);
  int status = node_barrier();
  if (status != REMORA_SUCCESS) return status;
  values->resize(static_cast<size_t>(size_));
  for (int r = 0; r < size_; ++r)
    (*values)[static_cast<size_t>(r)] = block_.rank(r).exchange.load(std::memory_order_acquire);
  return node_barrier();  // nobody overwrites its value before everyone has read it
}

int ShmTransport::allocate_segment(size_t bytes, transport::Segment** segment) {
  std::vector<uint64_t> sizes;
  int status = allgather(bytes, &sizes);
  if (status != REMORA_SUCCESS) return status;

  auto shm = std::make_unique<ShmSegment>();
  shm->lay_out(sizes);
  shm->id = segments_allocated_++;
  const std::string name = segment_object_name(block_.job_id(), shm->id);

  // Rank 0 creates the object; everyone (and the node's ghost) maps it; rank 0 unlinks it once
  // all have mapped it, so nothing is left behind even if a rank dies later. Errors travel in
  // the all-gathers.
  auto map_object = [&](int flags) -> int { return shm->map(name, flags); };
  std::vector<uint64_t> errors;
  status = allgather(rank_ == 0 ? static_cast<uint64_t>(map_object(O_CREAT | O_EXCL | O_RDWR)) : 0,
                     &errors);
  const bool created = status == REMORA_SUCCESS && errors[0] == 0;
  if (created)  // meanwhile rank 0 hands the object to the ghost, if any
    status = allgather(
        static_cast<uint64_t>(rank_ == 0 ? share_with_ghost(*shm) : map_object(O_RDWR)), &errors);
  if (rank_ == 0) shm_unlink(name.c_str());
  if (status != REMORA_SUCCESS) return status;
  for (int r = 0; r < size_; ++r) {
    const auto error = static_cast<int>(errors[static_cast<size_t>(r)]);
    if (error == 0) continue;
    const std::string who = r == 0 && created ? "the ghost process" : format("rank %d", r);
    return fail(error == ENOMEM || error == ENOSPC ? REMORA_ERR_NOMEM : REMORA_ERR_SYSTEM,
                "remora_segment_allocate: %s could not map %zu bytes of shared memory (%s): %s",
                who.c_str(), shm->mapped_bytes, name.c_str(),
                describe_map_error(error, shm->mapped_bytes).c_str());
  }
  *segment = shm.release();
  return REMORA_SUCCESS;
}

int ShmTransport::share_with_ghost(const transport::Segment& segment) {
  if (ghost_ < 0) return 0;
  const std::vector<uint8_t> message = ghost_share_message(static_cast<const ShmSegment&>(segment));
  if (am_send(ghost_, kGhostSegmentHandler, message.data(), message.size()) != REMORA_SUCCESS)
    return ECANCELED;
  const std::atomic<uint64_t>& answer = block_.rank(ghost_).exchange;
  const uint64_t id = segment.id;
  if (wait_until([&answer, id] {
        return ghost_acknowledged(answer.load(std::memory_order_acquire), id);
      }) != REMORA_SUCCESS)
    return ECANCELED;  // the job is aborting
  return ghost_error(answer.load(std::memory_order_acquire));
}

int ShmTransport::free_segment(transport::Segment* segment) {
  // Nobody may still be accessing the memory when it goes away.
  const int status = node_barrier();
  if (status == REMORA_SUCCESS && rank_ == 0 && ghost_ >= 0) {
    const std::vector<uint8_t> message = ghost_forget_message(segment->id);
    am_send(ghost_, kGhostSegmentHandler, message.data(), message.size());
  }
  delete segment;
  return status;
}

void* ShmTransport::address(const transport::Segment& segment, int rank) const {
  return part(segment, rank, 0);
}

bool ShmTransport::cpu_atomics(const transport::Segment&) const {
  return true;
}

int ShmTransport::put(const transport::Segment& segment, int target, size_t offset,
                      const void* source, size_t bytes) {
  if (bytes > 0) std::memcpy(part(segment, target, offset), source, bytes);
  return REMORA_SUCCESS;
}

int ShmTransport::get(const transport::Segment& segment, int target, size_t offset,
                      void* destination, size_t bytes) {
  if (bytes > 0) std::memcpy(destination, part(segment, target, offset), bytes);
  return REMORA_SUCCESS;
}

int ShmTransport::put_strided(const transport::Segment& segment, int target, size_t offset,
                              const void* source, const transport::StridedShape& shape) {
  uint8_t* remote = part(segment, target, offset);
  const auto* local = static_cast<const uint8_t*>(source);
  shape.for_each_block([&](size_t local_offset, size_t remote_offset) {
    std::memcpy(remote + remote_offset, local + local_offset, shape.count[0]);
  });
  return REMORA_SUCCESS;
}

int ShmTransport::get_strided(const transport::Segment& segment, int target, size_t offset,
                              void* destination, const transport::StridedShape& shape) {
  const uint8_t* remote = part(segment, target, offset);
  auto* local = static_cast<uint8_t*>(destination);
  shape.for_each_block([&](size_t local_offset, size_t remote_offset) {
    std::memcpy(local + local_offset, remote + remote_offset, shape.count[0]);
  });
  return REMORA_SUCCESS;
}

namespace {
int private_copy_status(const char* what, int rank, size_t bytes, int error) {
  if (error == 0) return REMORA_SUCCESS;
  const bool forbidden = error == EPERM || error == ENOSYS || error == EACCES;
  return fail(forbidden ? REMORA_ERR_UNSUPPORTED : REMORA_ERR_SYSTEM,
              "single-copy %s of %zu bytes with rank %d failed: %s%s", what, bytes, rank,
              std::strerror(error),
              forbidden ? " (the operating system forbids process_vm_readv/writev here)" : "");
}
}  // namespace

int ShmTransport::read_private(int rank, const void* remote, void* local, size_t bytes) {
  const pid_t pid = block_.rank(rank).pid.load(std::memory_order_acquire);
  return private_copy_status("read", rank, bytes, read_process_memory(pid, remote, local, bytes));
}

int ShmTransport::write_private(int rank, void* remote, const void* local, size_t bytes) {
  const pid_t pid = block_.rank(rank).pid.load(std::memory_order_acquire);
  return private_copy_status("write", rank, bytes, write_process_memory(pid, remote, local, bytes));
}

// Stores to shared memory are complete when memcpy returns; the fence orders them before any
// later store (a flag, an atomic) that tells the target to look.
int ShmTransport::flush(int) {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  return REMORA_SUCCESS;
}

int ShmTransport::flush_all() {
  return flush(rank_);
}

int ShmTransport::atomic(const transport::Segment& segment, int target, size_t offset,
                         transport::AtomicOp op, uint64_t operand, uint64_t compare,
                         uint64_t* result) {
  std::atomic_ref<uint64_t> word(*reinterpret_cast<uint64_t*>(part(segment, target, offset)));
  switch (op) {
    case transport::AtomicOp::FetchAdd:
      *result = word.fetch_add(operand);
      break;
    case transport::AtomicOp::Swap:
      *result = word.exchange(operand);
      break;
    case transport::AtomicOp::CompareSwap:
      word.compare_exchange_strong(compare, operand);
      *result = compare;
      break;
  }
  return REMORA_SUCCESS;
}

int ShmTransport::am_register(transport::AmHandler handler, void* context, int* handler_id) {
  return dispatcher_.register_handler(handler, context, handler_id);
}

int ShmTransport::am_send(int target, int handler_id, const void* payload, size_t bytes) {
  std::lock_guard sending(send_mutexes_[static_cast<size_t>(target)]);
  AmQueue& queue = queues_[static_cast<size_t>(target)];
  const size_t capacity = queue.payload_capacity();
  const auto* data = static_cast<const uint8_t*>(payload);
  size_t offset = 0;
  do {
    const size_t chunk = std::min(capacity, bytes - offset);
    const uint16_t flags = static_cast<uint16_t>((offset == 0 ? kChunkFirst : 0) |
                                                 (offset + chunk == bytes ? kChunkLast : 0));
    while (!queue.try_enqueue(rank_, static_cast<uint16_t>(handler_id), flags,
                              static_cast<uint32_t>(bytes), data + offset,
                              static_cast<uint32_t>(chunk))) {
      const int status = wait_for_space(target, queue);
      if (status != REMORA_SUCCESS) return status;
    }
    block_.wake_for_message(target, handler_id);  // whichever thread of the target waits for it
    offset += chunk;
  } while (offset < bytes);
  return REMORA_SUCCESS;
}

void ShmTransport::set_wake_on_arrival(int handler, bool wake) {
  block_.set_quiet(rank_, handler, !wake);
  // A message that came while the handler was quiet did not wake the progress thread; now
  // that it is wanted, the progress thread must not sleep through it (see wake_for_message).
  if (wake && queues_[static_cast<size_t>(rank_)].may_hold_messages()) wake_progress_thread();
}

int ShmTransport::wait_for_space(int target, AmQueue& queue) {
  block_.wake(target, WakeTarget::Both);  // the receiver must be draining for space to appear
  queue.add_space_waiter(rank_);
  ++waiting_for_space;
  // Only drain meanwhile: two ranks flooding each other both keep emptying their own queues.
  const int status = wait_until([&queue] { return queue.has_space(); }, [this] { return drain(); });
  --waiting_for_space;
  queue.remove_space_waiter(rank_);
  return status;
}

bool ShmTransport::drain() {
  AmQueue& queue = queues_[static_cast<size_t>(rank_)];
  // An empty queue costs one look instead of the lock (each test of a request polls). A stale
  // dequeue position (another thread drains now, and would hold the lock) says empty too.
  if (!queue.has_message()) return false;
  std::unique_lock draining(drain_mutex_, std::try_to_lock);
  if (!draining.owns_lock()) return false;
  const size_t drained = queue.drain(
      [this](const AmChunk& chunk) {
        dispatcher_.accept_chunk(job_ranks_[chunk.source], chunk.handler,
                                 (chunk.flags & kChunkFirst) != 0, (chunk.flags & kChunkLast) != 0,
                                 chunk.total_bytes, chunk.data, chunk.bytes);
      },
      kDrainBatch);
  if (drained == 0) return false;
  // A sender waiting for space may be an application thread or a handler on a progress thread.
  queue.wake_space_waiters([this](int sender) { block_.wake(sender, WakeTarget::Both); });
  // We cannot dispatch now: the progress thread, if asleep, should.
  if (waiting_for_space > 0 || !transport::AmDispatcher::may_dispatch()) wake_progress_thread();
  return true;
}

bool ShmTransport::poll() {
  bool progressed = drain();
  if (waiting_for_space == 0 && dispatcher_.dispatch()) {
    progressed = true;
    wake(rank_);  // an application thread may be waiting for what the handlers did
  }
  return progressed;
}

void ShmTransport::sleep(uint64_t timeout_ns, transport::Ready ready, transport::Sleeper sleeper) {
  sleep_on(timeout_ns, ready, sleeper,
           membarrier_wakes_ && sleeper == transport::Sleeper::Application);
}

void ShmTransport::sleep_on(uint64_t timeout_ns, transport::Ready ready, transport::Sleeper sleeper,
                            bool heavy) {
  RankSlot& slot = block_.rank(rank_);
  WakeWord& me = sleeper == transport::Sleeper::ProgressThread ? slot.progress : slot.application;
  const uint32_t seen = me.word.load(std::memory_order_acquire);
  me.sleepers.fetch_add(1, std::memory_order_seq_cst);
  // The heavy side of wake_ranks' light fence (see ControlBlock::wake_application).
  if (heavy)
    heavy_fence();
  else
    std::atomic_thread_fence(std::memory_order_seq_cst);
  const bool can_dispatch = waiting_for_space == 0 && transport::AmDispatcher::may_dispatch();
  const bool work = ready() || queues_[static_cast<size_t>(rank_)].has_message() || aborting() ||
                    (can_dispatch && dispatcher_.pending());
  if (!work && futex_wait(&me.word, seen, timeout_ns) && sleeper == transport::Sleeper::Application)
    application_timeouts_.fetch_add(1, std::memory_order_relaxed);
  me.sleepers.fetch_sub(1, std::memory_order_release);
}

void ShmTransport::sleep_for_arrivals(uint64_t timeout_ns, transport::Ready ready,
                                      size_t arrivals) {
  // At the multiple level another application thread may sleep on the same word for a message
  // that this count would let pass.
  const bool count = arrivals > 1 && !threads::multiple();
  if (count)
    block_.set_arrivals_to_wake(rank_, static_cast<int32_t>(std::min<size_t>(arrivals, INT32_MAX)));
  // sleep() looks at the queue after its fence: a message whose sender read the count before
  // we stored it is seen there (see wake_for_message). Its wakers (wake_for_message, wake,
  // the abort's wake_all) fence before they read the sleeper count, so a full fence pairs with
  // theirs and the membarrier(2) of sleep() is not needed. wake_ranks (light) serves local work
  // (shm rounds): a wait that began with some pending is not a wait for arrivals
  // (Transport::wait_for_arrival), and at the multiple thread level, where another thread may
  // enlist some meanwhile, the membarrier stays; otherwise local work enlisted meanwhile (a
  // nonblocking bypass contribution polled by the progress thread) is found when this sleep
  // ends, at the latest by its timeout.
  sleep_on(timeout_ns, ready, transport::Sleeper::Application,
           membarrier_wakes_ && threads::multiple());
  if (count) block_.set_arrivals_to_wake(rank_, 0);
}

bool ShmTransport::aborting() const {
  return block_.header().aborting.load(std::memory_order_acquire) != 0;
}

int ShmTransport::report_abort() const {
  return fail(REMORA_ERR_ABORTED, "%s", block_.abort_description().c_str());
}

int ShmTransport::node_barrier() {
  ControlHeader& header = block_.header();
  const uint32_t generation = header.barrier_generation.load(std::memory_order_acquire);
  if (header.barrier_arrived.fetch_add(1, std::memory_order_acq_rel) + 1 ==
      static_cast<uint32_t>(size_)) {
    header.barrier_arrived.store(0, std::memory_order_relaxed);
    header.barrier_generation.fetch_add(1, std::memory_order_release);
    block_.wake_all(WakeTarget::Application);
    return REMORA_SUCCESS;
  }
  return transport::wait_for_node(*this, [&header, generation] {
    return header.barrier_generation.load(std::memory_order_acquire) != generation;
  });
}

}  // namespace remora::shm
