// The shared-memory area of a communicator whose ranks share one node, and the round engine
// that the shm collective algorithms (coll/algorithms/shm.cpp) are written in.
//
// The area is one group segment of the transport (the mechanism windows on a sub-communicator
// use), made collectively when the communicator is created (Collectives::make_shm_area). Each
// member owns one part: a header with two flag words, a ring of kSlots inline slots and two data
// cells. A member writes only its own part; the others read it.
//   arrive: the id of the last round this member has published (its cell holds that round's
//           data);
//   done:   the id of the last round this member has finished reading the others' cells for.
// A collective is a list of rounds. In round k every member (1) waits until every member's
// done has passed the last round that used cell k % 2 of its own part, (2) writes its data (if
// the round has any) into that cell, (3) stores the round id into arrive, (4) waits for the
// arrive flag of the members it reads (all, one, or none), (5) reads their cells and (6) stores
// the round id into done. Round ids are (collective sequence + 1) * 2^24 + k + 1: they grow
// with every round of every collective on the communicator, so a flag is never mistaken for
// one of an earlier collective, and the sequence numbers (the schedule's) are the same on every
// member even when a call failed before it started. Two cells let a member publish round k + 1
// while slower members still read round k.
//
// Rounds of small data (Round::small: at most kInlineBytes) use an inline slot instead of a
// cell: slot sequence % kSlots of the member's ring, two cache lines holding the round id beside
// the data, written before arrive, so that a reader that finds the id there has the data with it
// (data of up to 56 bytes in the same line). A member thus publishes up to kSlots small calls ahead
// of a slow reader (a root that reduces or gathers) before it waits for one to be released, as Open
// MPI's coll/sm fastboxes and MPICH's release/gather buffers let non-roots run ahead; with two
// slots it waited every second call. The release check reads the others' flags lazily: a member
// keeps the highest round it has seen each other member pass and looks at their lines only when a
// slot's last round is beyond it.
//
// A member that abandons a collective (its call failed) records the sequence in its header and
// moves its done flag past the collective's rounds; a member that waits for it there and sees
// its flags already in a later collective does not read the later collective's data: it waits
// for the error notice that fails the collective (up to a second, then fails it itself).
//
// Collectives of one communicator run their rounds in sequence order: a later one waits (and
// advances the earlier ones meanwhile, so that a blocking collective behind a nonblocking one
// does not wait for a thread that is not polling). Waiting never spins unbounded: the rounds
// are polled steps of a schedule (Schedule::poll), and the waiting thread backs off and sleeps
// per the transport's wait policy; a member that stores a flag wakes the members' sleeping
// application threads.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "coll/algorithm.hpp"
#include "coll/communicator.hpp"
#include "coll/instance_table.hpp"
#include "coll/schedule.hpp"
#include "transport/transport.hpp"

namespace remora::coll {

class ShmRounds;
class ShmFast;
class ShmFastRun;
class ShmCall;
class ShmArea;

// The areas of this rank and how many shm collectives are pending on all of them: every wait
// and poll of the application advances them all (Transport::set_local_work), so that no rank
// waits for another rank's rounds while that rank waits for something else (calls of two
// communicators waited in opposite orders). While none is pending that costs one load.
class ShmAreas : public std::enable_shared_from_this<ShmAreas> {
 public:
  // Registers area (made by ShmArea::create, before any collective runs on it).
  void add(const std::shared_ptr<ShmArea>& area);
  // Advances every area's pending collectives as far as they go without blocking, each area's
  // in sequence order; a collective that another thread advances now is left to it.
  void advance();
  // Unmaps every area still alive (the collectives layer ends).
  void release_all();
  // Other work that every wait must advance until its poll() returns something else than 1:
  // the nonblocking application-bypass roots (coll/bypass_slots.hpp), whose members may wait
  // for them to free their slots while this rank waits in a later collective.
  void enlist(std::shared_ptr<Schedule::Polled> work);
  const std::atomic<size_t>& pending() const { return pending_; }
  // Transport::set_local_work's function; context: the ShmAreas.
  static void advance_areas(void* context) { static_cast<ShmAreas*>(context)->advance(); }

 private:
  friend class ShmRounds;
  std::atomic<size_t> pending_{0};  // enlisted ShmRounds of every area
  std::mutex mutex_;
  std::vector<std::weak_ptr<ShmArea>> areas_;
  std::vector<std::shared_ptr<ShmArea>> scratch_;        // advance()'s list, under mutex_
  std::vector<std::shared_ptr<Schedule::Polled>> work_;  // enlisted, under mutex_
};

// Shared from this: a schedule takes its reference from the communicator's plain pointer
// (Communicator::shm_area_ptr) instead of an atomic load of the communicator's shared_ptr.
class ShmArea : public std::enable_shared_from_this<ShmArea> {
 public:
  // Every communicator of two or more ranks on one node has an area of 2 cells per member
  // (arrays duplicate their communicator, so a program may hold many): 64 KiB cells keep it at
  // 1 MiB for 8 ranks. Larger payloads go through the cells in chunks.
  static constexpr size_t kCellBytes = 64 * 1024;
  // The inline slots of a member's ring (two cache lines each): how many small calls a member
  // may publish ahead of the slowest reader. With more ranks than CPUs a member that finds its
  // ring full waits until the reader has been scheduled, a context switch or more per wait:
  // with 16 slots (a wait every 8 calls) a root's scatter of 8 B at p = 4 took 0.38 context
  // switches per call against Open MPI's 0.10 (eager sends, run ahead without bound); 64 slots
  // (8 KiB per member) wait every 32 calls.
  static constexpr int kSlots = 64;
  // Reductions of up to this many bytes take one round (everyone reduces every vector); larger
  // ones a reduce-scatter and an allgather round per cell-sized chunk.
  static constexpr size_t kFlatBytes = 4096;
  static constexpr int kAllRanks = -1, kNoRank = -2;
  // The round index of a collective's ids that follows all of its rounds: an arrive flag at it
  // says the member is past every round (the v-forms, whose members take different numbers of
  // rounds: coll/shm_vforms.hpp).
  static constexpr uint64_t kPastRound = (uint64_t{1} << 24) - 1;
  // The round of a reduce or allreduce of at most this many bytes, of a gather of blocks of at
  // most this many, of a bcast of at most this many, and of a scatter whose blocks together take
  // at most this many (alike on every member: both paths decide by the same sizes) keeps its
  // data in an inline slot of the member's ring instead of a cell: a reader that sees the
  // slot's round id has the data with it (one or two lines per member and round instead of a
  // flag's and a cell's). All of the slot's two lines but the round id: 120 bytes hold 8 B per
  // member up to p = 15 (a scatter of 8 B blocks at p = 8 went through the cells, where the root
  // runs one call ahead of its readers, and took 3-16x Open MPI's time); data of up to 56 bytes
  // stay on the slot's first line.
  static constexpr size_t kInlineBytes = 120;
  // Whether a reduce_scatter whose largest block has `largest` elements keeps its one round in
  // the inline slot (every block at b * largest elements), alike on every path and member.
  static constexpr bool reduce_scatter_small(int size, size_t largest, size_t extent) {
    return largest <= kInlineBytes / (static_cast<size_t>(size) * extent);
  }
  // alltoall's rounds (every path lays them out alike), and those of scatter(v) and alltoallv
  // in the cells: a member's cell holds a piece of its block for every other member, that of
  // member d at alltoall_index(d, writer) pieces, and its own block goes straight from its
  // input to its result. Without a piece for itself a member sends blocks of up to a cell /
  // (P - 1) in one round (at P = 2 a whole cell).
  // Elements per block and round (an area has two members or more; size 1 counts as 2).
  static constexpr size_t alltoall_piece(int size, size_t extent) {
    return kCellBytes / (static_cast<size_t>(size > 2 ? size - 1 : 1) * extent);
  }
  static constexpr size_t alltoall_index(int reader, int writer) {
    return static_cast<size_t>(reader < writer ? reader : reader - 1);
  }

  // Collective over comm's members, which must all be on this node. allgather exchanges one
  // value over comm (the message-based collectives). On failure every member fails.
  // single_copy_bytes: this member's REMORA_SHM_SINGLE_COPY_BYTES, default_single_copy_bytes its
  // threshold for the operations single-copy by default, rooted_single_copy_bytes its threshold
  // for the rooted single copy of gather and scatter (0: not oversubscribed; see
  // single_copy_bytes(operation) and rooted_single_copy()).
  static int create(transport::Transport& transport, const Communicator& comm,
                    const transport::Transport::GroupAllgather& allgather, size_t single_copy_bytes,
                    size_t default_single_copy_bytes, size_t rooted_single_copy_bytes,
                    std::shared_ptr<ShmArea>* out);
  ~ShmArea();
  // Unmaps the area now (the collectives layer ends while something still holds it).
  void release();
  ShmArea(const ShmArea&) = delete;
  ShmArea& operator=(const ShmArea&) = delete;

  int rank() const { return rank_; }
  int size() const { return static_cast<int>(parts_.size()); }
  uint8_t* cell(int rank, int buffer) const {
    return parts_[static_cast<size_t>(rank)] + kHeaderBytes + kRingBytes +
           static_cast<size_t>(buffer) * kCellBytes;
  }
  // The member's ring of application-bypass slots (coll/bypass_slots.hpp lays it out): after
  // the cells, kBypassBytes.
  static constexpr size_t kBypassBytes = 17 * 1024 + 512;
  uint8_t* bypass_ring(int rank) const { return cell(rank, 0) + 2 * kCellBytes; }
  // Whether member rank abandoned collective sequence (among its last few: abandon()).
  bool abandoned(int rank, uint64_t sequence) const;
  // This member's nonblocking application-bypass contributions that have not found their slot
  // free yet, oldest call first (BypassSlots::Contribution, which deposits a member's
  // contributions in call order: see there). Local to this rank; size is read without the lock.
  struct BypassBacklog {
    std::mutex mutex;
    std::deque<std::shared_ptr<Schedule::Polled>> waiting;
    std::atomic<size_t> size{0};
  };
  BypassBacklog& bypass_backlog() { return bypass_backlog_; }
  // The cell, or with small the data of inline slot `buffer` of the ring (slot_of).
  uint8_t* cell(int rank, int buffer, bool small) const {
    if (!small) return cell(rank, buffer);
    return slot(rank, buffer).data;
  }
  // The inline slot of the small rounds of collective `sequence` (alike on every member).
  static int slot_of(uint64_t sequence) { return static_cast<int>(sequence % kSlots); }
  // What a round of a member writes: its cell of the round, the call's slot of its ring.
  static constexpr unsigned kCellData = 1, kSlotData = 2;

  // Advances the pending collectives of this area in sequence order until one is in flight
  // (or another thread holds it).
  void advance_pending();
  // Calls of the operations not single_copy_by_default of at least this many bytes are
  // single-copy (0: none): members copy between each other's buffers with
  // process_vm_readv/writev (Linux cross-memory attach, coll/shm_single_copy.hpp) instead of
  // through the cells. Agreed when the area is made (every member probes every other's memory;
  // all must succeed), so the same on every member.
  size_t single_copy_bytes() const { return single_copy_bytes_; }
  // The operations single-copy by default (Collectives::kDefaultSingleCopyBytes where the node
  // is not oversubscribed); gather and scatter include their v-forms' single-copy blocks.
  static constexpr bool single_copy_by_default(Operation operation) {
    switch (operation) {
      case Operation::Bcast:
      case Operation::Gather:
      case Operation::Scatter:
      case Operation::Allgather:
      case Operation::Alltoall:
      case Operation::Reduce:
      case Operation::Allreduce:
        return true;
      default:
        return false;
    }
  }
  // The threshold of operation: the oversubscribed one (gather, scatter, alltoall, where every
  // member is oversubscribed), the default one (on by default) or the one above.
  size_t single_copy_bytes(Operation operation) const {
    if (rooted_single_copy() && oversubscribed_single_copy(operation))
      return rooted_single_copy_bytes_;
    return single_copy_by_default(operation) ? default_single_copy_bytes_ : single_copy_bytes_;
  }
  // The operations single-copy from rooted_single_copy_bytes_ where every member is
  // oversubscribed: gather and scatter (rooted) and alltoall (all wait for all, twice), with
  // their v-forms' blocks. Through the cells each round of theirs is a hand-off between members,
  // a context switch or more each oversubscribed: an alltoall of 1 MiB blocks took 49 rounds at
  // p = 4 (113 at p = 8), single copy two.
  static constexpr bool oversubscribed_single_copy(Operation operation) {
    return operation == Operation::Gather || operation == Operation::Scatter ||
           operation == Operation::Alltoall;
  }
  // Every member is oversubscribed (agreed when the area was made): a single-copy gather or
  // scatter of regular blocks is rooted (coll/shm_single_copy.hpp: only the root publishes its
  // address, the others copy and arrive, the root waits for them), and the operations of
  // oversubscribed_single_copy and their v-forms' blocks are single-copy from
  // rooted_single_copy_bytes_ (Collectives::kOversubscribedSingleCopyBytes).
  bool rooted_single_copy() const { return rooted_single_copy_bytes_ != 0; }
  // What read_from and write_to return when the member's process is gone (ESRCH: it died; the
  // job ends): not a failure of its own, the caller waits for the end of the job (or a notice)
  // as it would for the flags of a dead member.
  static constexpr int kMemberGone = 1;
  // Copies bytes at address (in the address space of member rank) to target; fails with a
  // message naming the member and the system error (kMemberGone: see there).
  int read_from(int rank, uint64_t address, void* target, size_t bytes) const;
  // Copies bytes from source to address in member rank's address space (process_vm_writev).
  int write_to(int rank, uint64_t address, const void* source, size_t bytes) const;
  // The rank whose process read_from or write_to last found gone (-1: none yet), for the
  // message of the call that waits for the end of the job.
  int gone_member() const { return gone_member_.load(std::memory_order_relaxed); }

  // The communicator's entry in the instance table (InstanceTable::slot), looked up by the
  // first call that asks and kept (the entry lives as long as the communicator).
  InstanceTable::Context* instance_slot(InstanceTable& instances, uint32_t context) {
    InstanceTable::Context* slot = instance_slot_.load(std::memory_order_acquire);
    if (slot == nullptr) {
      slot = instances.slot(context);
      instance_slot_.store(slot, std::memory_order_release);
    }
    return slot;
  }

  // ShmAreas::enlist on this rank's areas (nothing for an area not added).
  void enlist(std::shared_ptr<Schedule::Polled> work) {
    if (set_ != nullptr) set_->enlist(std::move(work));
  }
  // This rank will not (or no longer) run the rounds of collective `sequence` (it failed
  // before it started, or its schedule failed): members that wait for it there learn it from
  // here instead of mistaking its flags of a later collective for this one's.
  void abandon(uint64_t sequence);

 private:
  friend class ShmRounds;
  friend class ShmFast;
  friend class ShmFastRun;
  friend class ShmCall;
  friend class ShmAreas;
  struct alignas(64) Flag {
    std::atomic<uint64_t> value;
  };
  static_assert(sizeof(Flag) == 64);
  // An inline slot: the id of the round whose data it holds (stored after the data, release).
  // Two lines, aligned as a pair (an adjacent-line prefetch brings the other).
  struct alignas(128) Slot {
    std::atomic<uint64_t> round;
    uint8_t data[128 - sizeof(uint64_t)];
  };
  static_assert(sizeof(Slot) == 128 && kInlineBytes == sizeof(Slot::data));
  static constexpr size_t kAbandoned = 8;  // the last sequences this rank abandoned
  struct Header {
    Flag arrive, done;
    std::atomic<uint64_t> abandoned[kAbandoned];  // sequence + 1; 0: none
    // Written once before the area is used: the member's process id and a probe word (and
    // its address in the member's own address space) for the cross-memory-attach check.
    uint64_t pid, probe, probe_address;
  };
  static constexpr size_t kHeaderBytes = 256;
  static_assert(sizeof(Header) <= kHeaderBytes);
  static constexpr size_t kRingBytes = kSlots * sizeof(Slot);
  // A member's part: header, ring, two cells, the bypass ring.
  static constexpr size_t kPartBytes = kHeaderBytes + kRingBytes + 2 * kCellBytes + kBypassBytes;

  ShmArea(transport::Transport& transport, transport::Segment* segment, const Communicator& comm);
  // Whether this member can read and write every other member's memory with process_vm_readv
  // and process_vm_writev.
  bool probe_single_copy() const;
  // The members' single-copy threshold from each member's offer: the largest, 0 if any is 0.
  static int agree(const transport::Transport::GroupAllgather& allgather, uint64_t offer,
                   size_t* agreed);
  Header& header(int rank) const { return header_in(parts_[static_cast<size_t>(rank)]); }
  Slot& slot(int rank, int index) const {
    return slot_in(parts_[static_cast<size_t>(rank)], index);
  }
  // The same, of a member's part of the area (for loops that read parts_ once).
  static Header& header_in(uint8_t* part) { return *reinterpret_cast<Header*>(part); }
  static Slot& slot_in(uint8_t* part, int index) {
    return reinterpret_cast<Slot*>(part + kHeaderBytes)[index];
  }
  // Whether `who` (kAllRanks, kNoRank or a rank) has published round: 1 yes, 0 not yet, -1 a
  // member abandoned this collective (it moved on to a later one without taking part; *gone
  // names it). small: the round's data are inline, in slot `slot` (looked at first).
  // slot_only (with small): looks at the slots only, not at arrive (0 unless there). A spinning
  // reader that also reads the writer's arrive line makes the writer's store to it wait for
  // that line to come back, a transfer between cores more per call in the writer's fences;
  // arrive is still needed where a member publishes no slot (it abandoned the call; a v-form
  // member with nothing to send), so the spin looks at it on some of its checks only.
  int arrived(int who, uint64_t round, int* gone, bool small = false, int slot = 0,
              bool slot_only = false) const;
  // Whether every other member is done reading round (or has moved beyond it).
  bool released(uint64_t round) const;
  // Before a round writes `writes`: the round that last wrote one of them and that a member
  // may still read (0: none, they are free).
  uint64_t unreleased(unsigned writes, int buffer, int slot) const;
  // Round `round` has written `writes`: records it (for unreleased), stores the round id into
  // the slot (kSlotData) and `arrive` (the round id, or the collective's past mark) into the
  // arrive flag, and wakes the others (wake false: the caller owes them wake_others()).
  void publish(uint64_t round, uint64_t arrive, unsigned writes, int buffer, int slot,
               bool wake = true);
  void store(Flag& flag, uint64_t round);  // and wake the others
  // Wakes the others' sleeping application threads: fences, then looks for sleepers, so that a
  // member that went to sleep after checking a flag stored before this call is woken.
  void wake_others() { transport_.wake_ranks(others_.data(), others_.size()); }

  transport::Transport& transport_;
  transport::Segment* segment_;
  std::vector<uint8_t*> parts_;  // by rank of the communicator
  std::vector<int> others_;      // the world ranks of the other members
  int rank_;
  size_t single_copy_bytes_ = 0;
  size_t default_single_copy_bytes_ = 0;
  size_t rooted_single_copy_bytes_ = 0;
  mutable std::atomic<int> gone_member_{-1};
  size_t abandoned_next_ = 0;  // under mutex_
  // The round that last wrote each of this rank's cells and inline slots (0: none yet).
  // Touched only by the collective whose turn it is.
  uint64_t last_published_[2] = {0, 0};
  uint64_t last_slot_[kSlots] = {};
  // By rank: the highest round this rank has seen the member finish reading (its done, or its
  // arrive less one); released() reads the member's flags only when a round is beyond it.
  // Only grows (a racing store of a lower value is harmless: it is still a round passed).
  std::unique_ptr<std::atomic<uint64_t>[]> passed_;
  std::atomic<InstanceTable::Context*> instance_slot_{nullptr};  // instance_slot()
  // The shm collectives enlisted and not finished, by sequence, and how many (read without the
  // lock by the fast path, which runs only when none is).
  std::mutex mutex_;
  std::map<uint64_t, std::weak_ptr<ShmRounds>> pending_;
  // The entry of the last collective that left, reused by the next one (an allocation less per
  // call).
  std::map<uint64_t, std::weak_ptr<ShmRounds>>::node_type spare_pending_;
  std::atomic<size_t> pending_count_{0};
  // The rank's areas (ShmAreas::add), whose count of pending collectives this area's enlisted
  // ones are part of; none for an area not added.
  std::shared_ptr<ShmAreas> set_;
  BypassBacklog bypass_backlog_;
};

// One collective: its rounds, advanced by poll() without blocking.
class ShmRounds final : public Schedule::Polled, public std::enable_shared_from_this<ShmRounds> {
  friend class ShmArea;  // advance_pending

 public:
  struct Round {
    std::function<void(uint8_t* cell)> publish;  // empty: the round has no data of this rank
    int wait_for = ShmArea::kAllRanks;           // whose arrival this rank reads
    std::function<void(int buffer)> consume;     // reads area.cell(rank, buffer); may be empty
    bool small = false;                          // the data are inline (kInlineBytes)
    // After consume: a read that may fail (a single-copy read of another member's memory);
    // a failure (its message the last error) fails the collective. slot: the collective's
    // inline slot (ShmArea::slot_of), where its round 0 left the addresses.
    std::function<int(int slot)> transfer;
    // This member's last round of the collective (the v-forms, whose members take different
    // numbers of rounds): after it, arrive says the member is past every round
    // (ShmArea::kPastRound) instead of done saying it read this one; a round that reads nothing
    // stores that as its arrival.
    bool past = false;
    // What publish writes (ShmArea::kCellData, ShmArea::kSlotData); 0: as small says (the slot
    // when small, else the cell). The v-forms' round 0 may write either or both.
    unsigned writes = 0;
  };
  // Enlists the collective on the area in sequence order (enlisted false: not yet; start()
  // does). keep: what the rounds' functions point to (held as long as the rounds).
  static std::shared_ptr<ShmRounds> make(std::shared_ptr<ShmArea> area, uint64_t sequence,
                                         std::vector<Round> rounds,
                                         std::shared_ptr<const void> keep = nullptr,
                                         bool enlisted = true);
  ~ShmRounds() override;
  // Runs again as collective `sequence` with *rounds (swapped in: *rounds gets the old ones;
  // nullptr: with the same rounds),
  // enlisted like make: a finished or cancelled one that left the area and that only its owner
  // holds (use_count 1: no waiter of the area is about to advance it), recycled by a
  // nonblocking call's request (coll/shm_request.hpp) without an allocation.
  void restart(uint64_t sequence, std::vector<Round>* rounds, bool enlisted = true);
  // The first poll of rounds made or restarted without enlisting (a nonblocking call's request):
  // when nothing of the area is pending here, they come first in sequence order and advance at
  // once, and join the area's list only if still in flight (a round that completes at once, as
  // a non-root's gather does, never takes the area's lock); otherwise they are enlisted and
  // polled. Returns as poll().
  int start();
  int poll() override;
  void cancel() override;
  bool may_advance() const override;

 private:
  struct Private {};  // the constructor is for make() (through make_shared) only

 public:
  ShmRounds(Private, std::shared_ptr<ShmArea> area, uint64_t sequence, std::vector<Round> rounds,
            std::shared_ptr<const void> keep)
      : area_(std::move(area)),
        sequence_(sequence),
        keep_(std::move(keep)),
        rounds_(std::move(rounds)) {}

 private:
  int advance();  // under mutex_
  void enlist();  // joins the area's pending list (make, restart)
  void leave();   // under mutex_
  uint64_t round_id(size_t round) const { return (sequence_ + 1) << 24 | (round + 1); }
  uint64_t past_id() const { return (sequence_ + 1) << 24 | ShmArea::kPastRound; }
  // The cell of a round: alternating per round and per collective, the same on every member
  // (the fast path, coll/shm_fast.hpp, picks cells alike).
  int buffer_of(size_t round) const { return static_cast<int>((sequence_ + round) & 1); }

  std::shared_ptr<ShmArea> area_;
  uint64_t sequence_;
  std::shared_ptr<const void> keep_;  // destroyed after rounds_
  std::vector<Round> rounds_;
  std::mutex mutex_;  // poll() runs from this schedule's waiters and from later collectives'
  size_t next_ = 0;
  bool published_ = false;  // round next_ is published, its reads are pending
  bool finished_ = false;
  int status_ = 0;  // once finished_
  std::string message_;
  bool cancelled_ = false;
  bool enlisted_ = false;
  // What advance() last waited for, for may_advance: 0 nothing known; else the round whose
  // arrival (wait_for_) or release (wait_for_ == kReleaseWait) it needs.
  static constexpr int kReleaseWait = -3;
  std::atomic<uint64_t> wait_round_{0};
  std::atomic<int> wait_for_{0};
  bool head_ = false;          // its turn has come (it stays first until it leaves)
  bool abandon_seen_ = false;  // a member abandoned it: its error notice is on its way
  bool member_gone_ = false;   // a single-copy transfer found a member's process gone
  std::chrono::steady_clock::time_point abandon_deadline_;
};

}  // namespace remora::coll
