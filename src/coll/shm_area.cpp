#include "coll/shm_area.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

#include "core/error.hpp"
#include "transport/shm/process_memory.hpp"

namespace remora::coll {
namespace {

constexpr int kInFlight = 1;
// Parts start at this alignment inside the segment's parts (the flags get cache lines apart, an
// inline slot's two lines are a pair).
constexpr size_t kAlign = 128;

// The status of a copy to (write) or from a member's memory (error: 0 or the copy's errno).
int copy_outcome(int error, bool write, int rank, pid_t pid, uint64_t address, size_t bytes) {
  if (error == 0) return REMORA_SUCCESS;
  if (error == ESRCH) return ShmArea::kMemberGone;
  return fail(REMORA_ERR_ARG,
              "shm collectives: %s %zu bytes %s rank %d of the communicator (process %d) at "
              "0x%llx with process_vm_%s failed: %s",
              write ? "writing" : "reading", bytes, write ? "to" : "of", rank,
              static_cast<int>(pid), static_cast<unsigned long long>(address),
              write ? "writev" : "readv", std::strerror(error));
}

}  // namespace

void ShmAreas::add(const std::shared_ptr<ShmArea>& area) {
  area->set_ = shared_from_this();
  std::lock_guard lock(mutex_);
  std::erase_if(areas_, [](const std::weak_ptr<ShmArea>& weak) { return weak.expired(); });
  areas_.push_back(area);
}

void ShmAreas::advance() {
  std::unique_lock lock(mutex_, std::try_to_lock);
  if (!lock.owns_lock()) return;  // another thread advances them now
  for (const auto& weak : areas_)
    if (auto area = weak.lock())
      if (area->pending_count_.load(std::memory_order_acquire) != 0)
        scratch_.push_back(std::move(area));
  for (const auto& area : scratch_) area->advance_pending();
  scratch_.clear();
  const size_t before = work_.size();
  if (before == 0) return;
  std::erase_if(work_,
                [](const std::shared_ptr<Schedule::Polled>& work) { return work->poll() != 1; });
  pending_.fetch_sub(before - work_.size(), std::memory_order_release);
}

void ShmAreas::enlist(std::shared_ptr<Schedule::Polled> work) {
  std::lock_guard lock(mutex_);
  work_.push_back(std::move(work));
  pending_.fetch_add(1, std::memory_order_release);
}

void ShmAreas::release_all() {
  std::lock_guard lock(mutex_);
  for (const auto& weak : areas_)
    if (auto area = weak.lock()) area->release();
}

int ShmArea::create(transport::Transport& transport, const Communicator& comm,
                    const transport::Transport::GroupAllgather& allgather, size_t single_copy_bytes,
                    size_t default_single_copy_bytes, size_t rooted_single_copy_bytes,
                    std::shared_ptr<ShmArea>* out) {
  std::vector<int> members;
  for (int rank = 0; rank < comm.size(); ++rank) members.push_back(comm.world_rank(rank));
  transport::Segment* segment = nullptr;
  if (int status =
          transport.allocate_group_segment(members, kPartBytes + kAlign, allgather, &segment))
    return status;
  out->reset(new ShmArea(transport, segment, comm));
  for (uint8_t* part : (*out)->parts_)
    if (part == nullptr)
      return fail(REMORA_ERR_UNSUPPORTED,
                  "shm collectives: a member's part of the shared area is not mapped here");
  // Single-copy broadcasts: each member publishes its process id and a probe word, then reads
  // every other member's probe word with process_vm_readv. Every member offers its threshold
  // if all its reads returned the right words, else 0; all use the largest offer, or none if
  // any offered 0.
  ShmArea& area = **out;
  Header& mine = area.header(area.rank_);
  mine.pid = static_cast<uint64_t>(getpid());
  mine.probe = mine.pid * 0x9e3779b97f4a7c15ULL ^ reinterpret_cast<uintptr_t>(&mine);
  mine.probe_address = reinterpret_cast<uintptr_t>(&mine.probe);
  std::vector<uint64_t> all;
  if (int status = allgather(0, &all)) return status;  // every header is written
  const bool allowed =
      (single_copy_bytes != 0 || default_single_copy_bytes != 0 || rooted_single_copy_bytes != 0) &&
      area.probe_single_copy();
  if (int status = agree(allgather, allowed ? single_copy_bytes : 0, &area.single_copy_bytes_))
    return status;
  if (int status = agree(allgather, allowed ? default_single_copy_bytes : 0,
                         &area.default_single_copy_bytes_))
    return status;
  // Rooted only where every member offered it (is oversubscribed): the rounds differ.
  return agree(allgather, allowed ? rooted_single_copy_bytes : 0, &area.rooted_single_copy_bytes_);
}

int ShmArea::agree(const transport::Transport::GroupAllgather& allgather, uint64_t offer,
                   size_t* agreed) {
  std::vector<uint64_t> all;
  if (int status = allgather(offer, &all)) return status;
  uint64_t most = 0;
  for (uint64_t value : all) {
    if (value == 0) {
      most = 0;
      break;
    }
    most = std::max(most, value);
  }
  *agreed = static_cast<size_t>(most);
  return REMORA_SUCCESS;
}

bool ShmArea::probe_single_copy() const {
  for (int rank = 0; rank < size(); ++rank) {
    if (rank == rank_) continue;
    const Header& h = header(rank);
    uint64_t seen = 0;
    if (read_from(rank, h.probe_address, &seen, sizeof seen) != REMORA_SUCCESS) {
      clear_error();
      return false;
    }
    if (seen != h.probe) return false;
    // The same word back: the value does not change.
    if (write_to(rank, h.probe_address, &seen, sizeof seen) != REMORA_SUCCESS) {
      clear_error();
      return false;
    }
  }
  return true;
}

int ShmArea::read_from(int rank, uint64_t address, void* target, size_t bytes) const {
  const auto pid = static_cast<pid_t>(header(rank).pid);
  const int error =
      shm::read_process_memory(pid, reinterpret_cast<const void*>(address), target, bytes);
  if (error == ESRCH) gone_member_.store(rank, std::memory_order_relaxed);
  return copy_outcome(error, false, rank, pid, address, bytes);
}

int ShmArea::write_to(int rank, uint64_t address, const void* source, size_t bytes) const {
  const auto pid = static_cast<pid_t>(header(rank).pid);
  const int error = shm::write_process_memory(pid, reinterpret_cast<void*>(address), source, bytes);
  if (error == ESRCH) gone_member_.store(rank, std::memory_order_relaxed);
  return copy_outcome(error, true, rank, pid, address, bytes);
}

ShmArea::ShmArea(transport::Transport& transport, transport::Segment* segment,
                 const Communicator& comm)
    : transport_(transport),
      segment_(segment),
      rank_(comm.rank()),
      passed_(new std::atomic<uint64_t>[static_cast<size_t>(comm.size())]) {
  for (int rank = 0; rank < comm.size(); ++rank) {
    const int world = comm.world_rank(rank);
    if (rank != rank_) others_.push_back(world);
    auto address = reinterpret_cast<uintptr_t>(transport.address(*segment, world));
    if (address != 0) address = (address + kAlign - 1) / kAlign * kAlign;
    parts_.push_back(reinterpret_cast<uint8_t*>(address));
    passed_[static_cast<size_t>(rank)].store(0, std::memory_order_relaxed);
  }
}

ShmArea::~ShmArea() {
  release();
}

void ShmArea::release() {
  // Other members keep their own mappings of the object: nothing here is collective.
  std::lock_guard lock(mutex_);
  if (segment_ != nullptr) transport_.free_group_segment(segment_);
  segment_ = nullptr;
}

int ShmArea::arrived(int who, uint64_t round, int* gone, bool small, int slot_index,
                     bool slot_only) const {
  if (who == kNoRank) return 1;
  // Read once: after each acquire load below the compiler would load them again (this check
  // is the spin loop of every wait).
  uint8_t* const* parts = parts_.data();
  const int ranks = size(), me = rank_;
  const uint64_t collective = round >> 24;
  auto at = [&](int rank) {
    uint8_t* part = parts[static_cast<size_t>(rank)];
    // The slot is written before arrive: its id alone says the data are here.
    if (small) {
      if (slot_in(part, slot_index).round.load(std::memory_order_acquire) == round) return 1;
      if (slot_only) return 0;
    }
    const Header& h = header_in(part);
    const uint64_t flag = h.arrive.value.load(std::memory_order_acquire);
    if (flag < round) return 0;
    if (flag >> 24 == collective) return 1;
    // Beyond this collective: it took part and moved on, or it abandoned this one (recorded
    // before it stored any later flag).
    for (const auto& entry : h.abandoned)
      if (entry.load(std::memory_order_acquire) == collective) {
        *gone = rank;
        return -1;
      }
    return 1;
  };
  if (who != kAllRanks) return at(who);
  if (ranks == 2) return at(1 - me);  // the loop's bookkeeping was most of a check at p = 2
  int result = 1;
  for (int rank = 0; rank < ranks && result != -1; ++rank)
    if (rank != me) result = std::min(result, at(rank));
  return result;
}

bool ShmArea::released(uint64_t round) const {
  uint8_t* const* parts = parts_.data();  // read once, as in arrived()
  std::atomic<uint64_t>* passed_of = passed_.get();
  const int ranks = size(), me = rank_;
  for (int rank = 0; rank < ranks; ++rank) {
    if (rank == me) continue;
    std::atomic<uint64_t>& passed = passed_of[static_cast<size_t>(rank)];
    if (passed.load(std::memory_order_relaxed) >= round) continue;
    const Header& h = header_in(parts[static_cast<size_t>(rank)]);
    // arrive first: its line is usually here already (this rank waited on it), and a member
    // that published a later round has finished reading this one; done (a line the member
    // wrote since) only when not.
    const uint64_t arrive = h.arrive.value.load(std::memory_order_acquire);
    const uint64_t done =
        arrive > round ? arrive - 1 : h.done.value.load(std::memory_order_acquire);
    if (done > passed.load(std::memory_order_relaxed))
      passed.store(done, std::memory_order_relaxed);
    if (done < round) return false;
  }
  return true;
}

void ShmArea::advance_pending() {
  for (;;) {
    std::shared_ptr<ShmRounds> first;
    {
      std::lock_guard lock(mutex_);
      auto head = pending_.begin();
      if (head == pending_.end()) return;
      first = head->second.lock();
      if (first == nullptr) {  // being destroyed
        pending_.erase(head);
        pending_count_.store(pending_.size(), std::memory_order_release);
        continue;
      }
    }
    if (!first->may_advance()) return;
    std::unique_lock other(first->mutex_, std::try_to_lock);
    if (!other.owns_lock() || first->advance() == kInFlight) return;
  }
}

bool ShmArea::abandoned(int rank, uint64_t sequence) const {
  for (const auto& entry : header(rank).abandoned)
    if (entry.load(std::memory_order_acquire) == sequence + 1) return true;
  return false;
}

void ShmArea::abandon(uint64_t sequence) {
  std::lock_guard lock(mutex_);
  Header& mine = header(rank_);
  mine.abandoned[abandoned_next_++ % kAbandoned].store(sequence + 1, std::memory_order_release);
  // Nothing of this collective is read here any more: done moves past all of its rounds, so
  // that members waiting to reuse a cell this rank might have read do not wait for it. Not while
  // an earlier collective of this rank still reads (its rounds come first).
  if (!pending_.empty() && pending_.begin()->first < sequence) return;
  const uint64_t last = (sequence + 1) << 24 | kPastRound;
  uint64_t seen = mine.done.value.load(std::memory_order_relaxed);
  while (seen < last &&
         !mine.done.value.compare_exchange_weak(seen, last, std::memory_order_release))
    ;
  transport_.wake_ranks(others_.data(), others_.size());
}

uint64_t ShmArea::unreleased(unsigned writes, int buffer, int slot_index) const {
  const uint64_t cell_last = (writes & kCellData) != 0 ? last_published_[buffer] : 0;
  if (cell_last != 0 && !released(cell_last)) return cell_last;
  const uint64_t slot_last = (writes & kSlotData) != 0 ? last_slot_[slot_index] : 0;
  if (slot_last != 0 && !released(slot_last)) return slot_last;
  return 0;
}

void ShmArea::publish(uint64_t round, uint64_t arrive, unsigned writes, int buffer, int slot_index,
                      bool wake) {
  if ((writes & kCellData) != 0) last_published_[buffer] = round;
  if ((writes & kSlotData) != 0) {
    last_slot_[slot_index] = round;
    slot(rank_, slot_index).round.store(round, std::memory_order_release);
  }
  header(rank_).arrive.value.store(arrive, std::memory_order_release);
  if (wake) wake_others();
}

void ShmArea::store(Flag& flag, uint64_t round) {
  flag.value.store(round, std::memory_order_release);
  wake_others();
}

std::shared_ptr<ShmRounds> ShmRounds::make(std::shared_ptr<ShmArea> area, uint64_t sequence,
                                           std::vector<Round> rounds,
                                           std::shared_ptr<const void> keep, bool enlisted) {
  auto made = std::make_shared<ShmRounds>(Private{}, std::move(area), sequence, std::move(rounds),
                                          std::move(keep));
  if (enlisted) made->enlist();
  return made;
}

int ShmRounds::start() {
  // Nothing pending: no earlier collective of the communicator runs here, and no later one can
  // begin before this call returns (calls on a communicator are ordered), so these come first.
  if (!enlisted_ && area_->pending_count_.load(std::memory_order_acquire) == 0) {
    std::lock_guard lock(mutex_);
    const int status = advance();
    if (status != kInFlight) return status;
    head_ = true;
    enlist();
    return kInFlight;
  }
  if (!enlisted_) enlist();
  return poll();
}

void ShmRounds::enlist() {
  ShmArea& area = *area_;
  std::lock_guard lock(area.mutex_);
  if (area.spare_pending_.empty()) {
    area.pending_[sequence_] = weak_from_this();
  } else {
    area.spare_pending_.key() = sequence_;
    area.spare_pending_.mapped() = weak_from_this();
    area.pending_.insert(std::move(area.spare_pending_));
  }
  area.pending_count_.store(area.pending_.size(), std::memory_order_release);
  enlisted_ = true;
  if (area.set_ != nullptr) area.set_->pending_.fetch_add(1, std::memory_order_release);
}

void ShmRounds::restart(uint64_t sequence, std::vector<Round>* rounds, bool enlisted) {
  {
    std::lock_guard lock(mutex_);
    sequence_ = sequence;
    if (rounds != nullptr) rounds_.swap(*rounds);
    next_ = 0;
    published_ = finished_ = cancelled_ = false;
    status_ = 0;
    message_.clear();
    wait_round_.store(0, std::memory_order_relaxed);
    wait_for_.store(0, std::memory_order_relaxed);
    head_ = abandon_seen_ = member_gone_ = false;
  }
  if (enlisted) enlist();
}

ShmRounds::~ShmRounds() {
  std::lock_guard lock(mutex_);
  leave();
}

void ShmRounds::leave() {
  if (!enlisted_) return;
  enlisted_ = false;
  std::lock_guard lock(area_->mutex_);
  auto entry = area_->pending_.extract(sequence_);
  if (!entry.empty()) {
    entry.mapped().reset();
    area_->spare_pending_ = std::move(entry);
  }
  area_->pending_count_.store(area_->pending_.size(), std::memory_order_release);
  if (area_->set_ != nullptr) area_->set_->pending_.fetch_sub(1, std::memory_order_release);
}

void ShmRounds::cancel() {
  std::lock_guard lock(mutex_);
  const bool abandon = !finished_ && !cancelled_;
  cancelled_ = true;
  leave();
  if (abandon) area_->abandon(sequence_);
}

bool ShmRounds::may_advance() const {
  const uint64_t round = wait_round_.load(std::memory_order_acquire);
  if (round == 0) return true;
  const int who = wait_for_.load(std::memory_order_relaxed);
  if (who == kReleaseWait) return area_->released(round);
  int gone = -1;
  return area_->arrived(who, round, &gone) != 0;
}

int ShmRounds::poll() {
  // Earlier collectives of the communicator run first; this waiter advances them meanwhile.
  // Alone on the list (enlisted until it leaves), it is first.
  if (!head_ && area_->pending_count_.load(std::memory_order_acquire) == 1) head_ = true;
  for (; !head_;) {
    std::shared_ptr<ShmRounds> first;
    {
      std::lock_guard lock(area_->mutex_);
      auto head = area_->pending_.begin();
      if (head == area_->pending_.end() || head->first >= sequence_) {
        head_ = true;
        break;
      }
      first = head->second.lock();
      if (first == nullptr) {  // being destroyed
        area_->pending_.erase(head);
        area_->pending_count_.store(area_->pending_.size(), std::memory_order_release);
        continue;
      }
    }
    std::unique_lock other(first->mutex_, std::try_to_lock);
    if (!other.owns_lock() || first->advance() == kInFlight) return kInFlight;
  }
  std::lock_guard lock(mutex_);
  return advance();
}

int ShmRounds::advance() {
  if (finished_) return status_ == REMORA_SUCCESS ? status_ : fail(status_, "%s", message_.c_str());
  if (cancelled_) return kInFlight;  // its schedule has failed; it no longer matters
  ShmArea& area = *area_;
  const int me = area.rank();
  // A publish's wake waits until this call returns or stores its next flag (whose wake covers
  // both stores): a round whose reads are here already (a non-root's gather, the later member
  // of an alltoall) then pays one wake instead of two, as the fast path's rounds do.
  struct OwedWake {
    ShmArea& area;
    bool owed = false;
    ~OwedWake() {
      if (owed) area.wake_others();
    }
  } wake{area};
  while (next_ < rounds_.size()) {
    const Round& round = rounds_[next_];
    const int slot = ShmArea::slot_of(sequence_), cell_buffer = buffer_of(next_);
    const int buffer = round.small ? slot : cell_buffer;
    const uint64_t id = round_id(next_);
    if (!published_) {
      unsigned writes = 0;
      if (round.publish) {
        writes = round.writes != 0 ? round.writes
                 : round.small     ? ShmArea::kSlotData
                                   : ShmArea::kCellData;
        if (const uint64_t last = area.unreleased(writes, cell_buffer, slot)) {
          wait_for_.store(kReleaseWait, std::memory_order_relaxed);
          wait_round_.store(last, std::memory_order_release);
          return kInFlight;
        }
        round.publish(area.cell(me, buffer, round.small));
      }
      const bool reads = round.wait_for != ShmArea::kNoRank;
      area.publish(id, round.past && !reads ? past_id() : id, writes, cell_buffer, slot, false);
      wake.owed = true;
      published_ = true;
    }
    int gone = -1;
    const int arrived = area.arrived(round.wait_for, id, &gone, round.small, slot);
    if (arrived == 0) {
      wait_for_.store(round.wait_for, std::memory_order_relaxed);
      wait_round_.store(id, std::memory_order_release);
      return kInFlight;
    }
    if (arrived < 0) {
      // The rank that abandoned it, or the one whose error made it do so, sends an error
      // notice that names the cause and fails this schedule; failing here is the fallback.
      const auto now = std::chrono::steady_clock::now();
      if (!abandon_seen_) {
        abandon_seen_ = true;
        abandon_deadline_ = now + std::chrono::seconds(1);
      }
      if (now < abandon_deadline_) return kInFlight;
      finished_ = true;
      status_ = REMORA_ERR_ARG;
      message_ = format("rank %d of the communicator failed this collective", gone);
      leave();
      area.abandon(sequence_);
      return fail(status_, "%s", message_.c_str());
    }
    if (round.consume) round.consume(buffer);
    if (round.transfer && !member_gone_) {
      const int status = round.transfer(slot);
      if (status == ShmArea::kMemberGone) {
        // A member died: the end of the job (or a notice) ends this schedule; failing here
        // after a second is the fallback.
        member_gone_ = true;
        abandon_deadline_ = std::chrono::steady_clock::now() + std::chrono::seconds(1);
      } else if (status != REMORA_SUCCESS) {
        finished_ = true;
        status_ = status;
        message_ = last_error();
        leave();
        area.abandon(sequence_);
        return fail(status_, "%s", message_.c_str());
      }
    }
    if (member_gone_) {
      if (std::chrono::steady_clock::now() < abandon_deadline_) return kInFlight;
      finished_ = true;
      status_ = REMORA_ERR_ARG;
      message_ = format(
          "rank %d of the communicator ended (its process is gone) during this "
          "collective",
          area.gone_member());
      leave();
      area.abandon(sequence_);
      return fail(status_, "%s", message_.c_str());
    }
    if (!round.past) {
      wake.owed = false;  // store's wake
      area.store(area.header(me).done, id);
    } else if (round.wait_for != ShmArea::kNoRank) {
      wake.owed = false;
      area.store(area.header(me).arrive, past_id());
    }
    published_ = false;
    ++next_;
  }
  finished_ = true;
  wait_round_.store(0, std::memory_order_release);
  leave();
  return REMORA_SUCCESS;
}

}  // namespace remora::coll
