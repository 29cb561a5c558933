#include "transport/shm/control_block.hpp"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <new>

#include "core/asymmetric_fence.hpp"
#include "core/error.hpp"
#include "transport/shm/futex.hpp"

namespace remora::shm {
namespace {

size_t round_up(size_t value, size_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

size_t ranks_offset() {
  return round_up(sizeof(ControlHeader), 64);
}

size_t queues_offset(int nranks) {
  return round_up(ranks_offset() + sizeof(RankSlot) * static_cast<size_t>(nranks), 4096);
}

size_t queue_stride(int nranks, uint32_t slots, uint32_t slot_bytes) {
  return round_up(AmQueue::bytes_needed(nranks, slots, slot_bytes), 4096);
}

}  // namespace

size_t ControlBlock::bytes_needed(int endpoints, uint32_t queue_slots, uint32_t slot_bytes) {
  return queues_offset(endpoints) +
         static_cast<size_t>(endpoints) * queue_stride(endpoints, queue_slots, slot_bytes);
}

int ControlBlock::create(int nranks, const std::string& job_id, uint32_t queue_slots,
                         uint32_t slot_bytes, bool in_memfd, ControlBlock* out, int ghosts) {
  if (nranks <= 0) return fail(REMORA_ERR_ARG, "control block: nranks=%d must be positive", nranks);
  const int endpoints = nranks + ghosts;
  const size_t bytes = bytes_needed(endpoints, queue_slots, slot_bytes);
  int fd = -1;
  void* memory = nullptr;
  if (in_memfd) {
    // No MFD_CLOEXEC: the ranks inherit the descriptor across exec.
    fd = memfd_create(("remora-" + job_id + "-control").c_str(), 0);
    if (fd < 0) return fail(REMORA_ERR_SYSTEM, "memfd_create failed: %s", std::strerror(errno));
    if (ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
      const int error = errno;
      close(fd);
      return fail(REMORA_ERR_SYSTEM, "ftruncate of the control block (%zu bytes) failed: %s", bytes,
                  std::strerror(error));
    }
    memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  } else {
    memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  }
  if (memory == MAP_FAILED) {
    const int error = errno;
    if (fd >= 0) close(fd);
    return fail(REMORA_ERR_SYSTEM, "mmap of the control block (%zu bytes) failed: %s", bytes,
                std::strerror(error));
  }
  auto* header = new (memory) ControlHeader();
  header->magic = kControlMagic;
  header->version = kControlVersion;
  header->nranks = nranks;
  header->queue_slots = queue_slots;
  header->slot_bytes = slot_bytes;
  header->total_bytes = bytes;
  header->ranks_offset = ranks_offset();
  header->queues_offset = queues_offset(endpoints);
  header->queue_stride = queue_stride(endpoints, queue_slots, slot_bytes);
  header->ghosts = ghosts;
  std::snprintf(header->job_id, sizeof(header->job_id), "%s", job_id.c_str());
  header->aborting.store(0, std::memory_order_relaxed);
  header->abort_rank = -1;
  header->barrier_arrived.store(0, std::memory_order_relaxed);
  header->barrier_generation.store(0, std::memory_order_relaxed);

  *out = ControlBlock();
  out->header_ = header;
  out->mapped_bytes_ = bytes;
  out->fd_ = fd;
  for (int r = 0; r < endpoints; ++r) {
    auto* slot = new (&out->rank(r)) RankSlot();
    slot->pid.store(0, std::memory_order_relaxed);
    slot->state.store(static_cast<uint32_t>(RankState::Launched), std::memory_order_relaxed);
    for (WakeWord* wake : {&slot->application, &slot->progress}) {
      wake->word.store(0, std::memory_order_relaxed);
      wake->sleepers.store(0, std::memory_order_relaxed);
    }
    slot->exchange.store(0, std::memory_order_relaxed);
    slot->quiet_handlers.store(0, std::memory_order_relaxed);
    slot->progress_wakeups.store(0, std::memory_order_relaxed);
    slot->application_wakeups.store(0, std::memory_order_relaxed);
    out->queue(r).initialize();
  }
  std::atomic_thread_fence(std::memory_order_release);
  return REMORA_SUCCESS;
}

int ControlBlock::attach(int fd, ControlBlock* out) {
  struct stat status;
  if (fstat(fd, &status) != 0)
    return fail(REMORA_ERR_CONFIG,
                "REMORA_CONTROL_FD=%d is not an open descriptor (%s): was this "
                "process started by remorarun?",
                fd, std::strerror(errno));
  const auto bytes = static_cast<size_t>(status.st_size);
  if (bytes < sizeof(ControlHeader))
    return fail(REMORA_ERR_CONFIG, "REMORA_CONTROL_FD=%d is not a Remora control block (%zu bytes)",
                fd, bytes);
  void* memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (memory == MAP_FAILED)
    return fail(REMORA_ERR_SYSTEM, "mmap of REMORA_CONTROL_FD=%d failed: %s", fd,
                std::strerror(errno));
  auto* header = static_cast<ControlHeader*>(memory);
  if (header->magic != kControlMagic || header->version != kControlVersion ||
      header->total_bytes != bytes) {
    munmap(memory, bytes);
    return fail(REMORA_ERR_CONFIG,
                "REMORA_CONTROL_FD=%d is not a Remora control block of this "
                "version (remorarun and the library must come from the same build)",
                fd);
  }
  *out = ControlBlock();
  out->header_ = header;
  out->mapped_bytes_ = bytes;
  out->fd_ = fd;
  return REMORA_SUCCESS;
}

ControlBlock& ControlBlock::operator=(ControlBlock&& other) noexcept {
  if (this != &other) {
    this->~ControlBlock();
    header_ = other.header_;
    mapped_bytes_ = other.mapped_bytes_;
    fd_ = other.fd_;
    other.header_ = nullptr;
    other.mapped_bytes_ = 0;
    other.fd_ = -1;
  }
  return *this;
}

ControlBlock::~ControlBlock() {
  if (header_ != nullptr) munmap(header_, mapped_bytes_);
  if (fd_ >= 0) close(fd_);
  header_ = nullptr;
  fd_ = -1;
}

RankSlot& ControlBlock::rank(int r) const {
  auto* base = reinterpret_cast<uint8_t*>(header_) + header_->ranks_offset;
  return reinterpret_cast<RankSlot*>(base)[r];
}

AmQueue ControlBlock::queue(int r) const {
  auto* base = reinterpret_cast<uint8_t*>(header_) + header_->queues_offset +
               static_cast<size_t>(r) * header_->queue_stride;
  return AmQueue(base, endpoints(), header_->queue_slots, header_->slot_bytes);
}

bool ControlBlock::record_abort(int rank, int code, const char* message) {
  uint32_t expected = 0;
  if (!header_->aborting.compare_exchange_strong(expected, 1, std::memory_order_acq_rel))
    return false;
  header_->abort_rank = rank;
  header_->abort_code = code;
  std::snprintf(header_->abort_message, sizeof(header_->abort_message), "%s",
                message != nullptr ? message : "");
  header_->aborting.store(2, std::memory_order_release);  // 2: the record is complete
  wake_all(WakeTarget::Both);
  return true;
}

std::string ControlBlock::abort_description() const {
  const uint32_t state = header_->aborting.load(std::memory_order_acquire);
  if (state == 0) return "";
  if (state == 1) return "the job is aborting";
  if (header_->abort_rank < 0)
    return format("the launcher stopped the job: %s", header_->abort_message);
  return format("rank %d aborted the job (code %d): %s", header_->abort_rank, header_->abort_code,
                header_->abort_message);
}

namespace {
// True if somebody slept on it (and was woken).
bool wake_word(WakeWord& wake) {
  if (wake.sleepers.load(std::memory_order_relaxed) == 0) return false;
  wake.word.fetch_add(1, std::memory_order_release);
  futex_wake_all(&wake.word);
  return true;
}
}  // namespace

void ControlBlock::wake(int r, WakeTarget target) const {
  RankSlot& slot = rank(r);
  std::atomic_thread_fence(std::memory_order_seq_cst);  // publish before reading sleepers
  const auto bits = static_cast<int>(target);
  if (bits & static_cast<int>(WakeTarget::Application)) wake_word(slot.application);
  if (bits & static_cast<int>(WakeTarget::ProgressThread)) wake_word(slot.progress);
}

// Dekker with set_quiet: the sender enqueues, fences, then reads the quiet bits; the receiver
// clears its bit, fences, then looks at its queue. One of the two sees the other's write, so a
// message for a handler that wants wake-ups is never slept through. A quiet handler's message
// wakes neither kind of sleeper: an application thread asleep in an unrelated wait (a barrier)
// would only poll, queue the message as unexpected and sleep again, for a futex wake and two
// context switches.
void ControlBlock::wake_for_message(int r, int handler) const {
  RankSlot& slot = rank(r);
  std::atomic_thread_fence(std::memory_order_seq_cst);  // the enqueue before these reads
  const bool quiet = handler >= 0 && handler < kQuietHandlers &&
                     ((slot.quiet_handlers.load(std::memory_order_seq_cst) >> handler) & 1) != 0;
  if (quiet) return;
  // The same Dekker with set_arrivals_to_wake: a sleeper that counts on this message to wake it
  // either sees it in its queue before it sleeps or has published the count we read here.
  const bool last_awaited = slot.arrivals_to_wake.load(std::memory_order_seq_cst) <= 0 ||
                            slot.arrivals_to_wake.fetch_sub(1, std::memory_order_seq_cst) <= 1;
  if (last_awaited && wake_word(slot.application))
    slot.application_wakeups.fetch_add(1, std::memory_order_relaxed);
  if (wake_word(slot.progress)) slot.progress_wakeups.fetch_add(1, std::memory_order_relaxed);
}

void ControlBlock::set_quiet(int r, int handler, bool quiet) const {
  if (handler < 0 || handler >= kQuietHandlers) return;
  std::atomic<uint64_t>& bits = rank(r).quiet_handlers;
  const uint64_t bit = uint64_t{1} << handler;
  if (quiet)
    bits.fetch_or(bit, std::memory_order_seq_cst);
  else
    bits.fetch_and(~bit, std::memory_order_seq_cst);
  std::atomic_thread_fence(std::memory_order_seq_cst);  // before the caller reads its queue
}

void ControlBlock::set_arrivals_to_wake(int r, int32_t arrivals) const {
  rank(r).arrivals_to_wake.store(arrivals, std::memory_order_seq_cst);
  std::atomic_thread_fence(std::memory_order_seq_cst);  // before the caller reads its queue
}

// The caller's flag store and its look for sleepers form a store-load pair with a sleeper's
// announcement and its look at the flag: without a full barrier on both sides both could miss
// the other's store. A sleeper that issues the heavy fence (a membarrier, which runs a barrier
// on this CPU too) lets this side keep only a compiler barrier (light_fence, once this process
// is registered): the flag stores of the shm collectives and fence marks then wake without a
// fence, which would wait for the store just made to a line that a member polls to leave this
// core, when nobody sleeps.
void ControlBlock::wake_application(const int* ranks, size_t count, bool light) const {
  if (light)
    light_fence();
  else
    std::atomic_thread_fence(std::memory_order_seq_cst);  // publish before reading sleepers
  for (size_t i = 0; i < count; ++i) wake_word(rank(ranks[i]).application);
}

void ControlBlock::wake_all(WakeTarget target) const {
  for (int r = 0; r < endpoints(); ++r) wake(r, target);
}

}  // namespace remora::shm
