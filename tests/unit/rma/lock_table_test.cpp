// The striped lock table and the reader-writer window lock, on a one-rank shared-memory
// transport, contended by threads of this process.
#include "rma/locks/lock_table.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <memory>
#include <random>
#include <thread>
#include <utility>
#include <vector>

#include "core/config.hpp"
#include "rma/accumulate/acc_args.hpp"
#include "rma/accumulate/element_fetch.hpp"
#include "rma/accumulate/locked_update.hpp"
#include "rma/locks/rw_lock.hpp"
#include "rma/reduce_op.hpp"
#include "transport/shm/shm_transport.hpp"

namespace remora::rma {
namespace {

TEST(StripesForRange, CoversTouchedStripesOnceInOrder) {
  using V = std::vector<uint64_t>;
  EXPECT_EQ(stripes_for_range(0, 0, 16, 4).indices(), V{});
  EXPECT_EQ(stripes_for_range(0, 1, 16, 4).indices(), V{0});
  EXPECT_EQ(stripes_for_range(15, 2, 16, 4).indices(), (V{0, 1}));
  EXPECT_EQ(stripes_for_range(16 * 3, 32, 16, 4).indices(), (V{0, 3}));  // wraps around: sorted
  EXPECT_EQ(stripes_for_range(16 * 2, 48, 16, 4).indices(), (V{0, 2, 3}));
  EXPECT_EQ(stripes_for_range(16 * 3 + 8, 16 * 3, 16, 8).indices(), (V{3, 4, 5, 6}));
  EXPECT_EQ(stripes_for_range(16 * 7, 16 * 3, 16, 8).indices(), (V{0, 1, 7}));
  EXPECT_EQ(stripes_for_range(5, 16 * 4, 16, 4).indices(), (V{0, 1, 2, 3}));
  EXPECT_EQ(stripes_for_range(1000, 4000, 256, 1).indices(), V{0});  // one stripe: the window
  EXPECT_EQ(stripes_for_range(16 * 9, 16, 16, 4).indices(), V{1});
}

// Every (offset, bytes) agrees with a direct enumeration of the blocks touched.
TEST(StripesForRange, MatchesBlockEnumeration) {
  for (uint64_t stripes : {1, 3, 4, 7}) {
    for (uint64_t offset = 0; offset < 200; offset += 3) {
      for (uint64_t bytes = 1; bytes < 200; bytes += 5) {
        std::vector<bool> touched(stripes, false);
        for (uint64_t block = offset / 16; block <= (offset + bytes - 1) / 16; ++block)
          touched[block % stripes] = true;
        std::vector<uint64_t> expected;
        for (uint64_t s = 0; s < stripes; ++s)
          if (touched[s]) expected.push_back(s);
        EXPECT_EQ(stripes_for_range(offset, bytes, 16, stripes).indices(), expected)
            << "offset " << offset << " bytes " << bytes << " stripes " << stripes;
      }
    }
  }
}

class OneRankTransport : public ::testing::Test {
 protected:
  void SetUp() override {
    shm::ControlBlock block;
    ASSERT_EQ(shm::ControlBlock::create(1, "rma-unit", 64, 1024, false, &block), REMORA_SUCCESS);
    ASSERT_EQ(shm::ShmTransport::create(std::move(block), 0, config(), &transport_),
              REMORA_SUCCESS);
    geometry_ = SyncGeometry{1, 3};
    ASSERT_EQ(transport_->allocate_segment(geometry_.bytes(), &sync_), REMORA_SUCCESS);
  }
  void TearDown() override {
    if (sync_ != nullptr) transport_->free_segment(sync_);
  }
  virtual Config config() const { return default_config(); }

  std::unique_ptr<shm::ShmTransport> transport_;
  transport::Segment* sync_ = nullptr;
  SyncGeometry geometry_{};
};

// Adds 1 to counters [first, first + count) with plain loads and stores, yielding in between
// (a lost exclusion shows as a lost increment).
void add_one(std::vector<uint64_t>& counters, uint64_t first, uint64_t count) {
  for (uint64_t c = first; c < first + count; ++c) {
    const uint64_t value = counters[c];
    if (c == first) std::this_thread::yield();
    counters[c] = value + 1;
  }
}

// Runs body(t) on threads t = 0 .. n - 1 and joins them.
template <class Body>
void on_threads(int n, const Body& body) {
  std::vector<std::thread> threads;
  for (int t = 0; t < n; ++t) threads.emplace_back(body, t);
  for (auto& thread : threads) thread.join();
}

// add_one under table.lock() (waiting while a stripe is busy); counters are 8 bytes.
void add_one_after_lock(LockTable& table, std::vector<uint64_t>& counters, uint64_t first,
                        uint64_t count) {
  StripeSet held;
  ASSERT_EQ(table.lock(first * 8, count * 8, &held), REMORA_SUCCESS);
  add_one(counters, first, count);
  table.unlock(held);
}

// add_one in place (lock_in_place / unlock_in_place), or after lock() when that gives up (as
// apply_locked does).
void add_one_in_place(LockTable& table, std::vector<uint64_t>& counters, uint64_t first,
                      uint64_t count) {
  StripeSet held;
  if (!table.lock_in_place(first * 8, count * 8, &held))
    return add_one_after_lock(table, counters, first, count);
  add_one(counters, first, count);
  table.unlock_in_place(held);
}

// Every stripe of the part is free and no waiter is registered (the total and every slot).
void expect_table_idle(transport::Transport& transport, const transport::Segment& sync,
                       const SyncGeometry& geometry) {
  for (uint64_t s = 0; s < geometry.stripes; ++s)
    EXPECT_EQ(SyncWord(transport, sync, 0, geometry.stripe(s)).load(), 0u) << "stripe " << s;
  EXPECT_EQ(SyncWord(transport, sync, 0, SyncGeometry::kWaiterTotal).load(), 0u);
  for (int slot = 0; slot <= geometry.nranks; ++slot)
    EXPECT_EQ(SyncWord(transport, sync, 0, geometry.waiter_count(slot)).load(), 0u)
        << "slot " << slot;
}

// Threads add 1 to every counter of random overlapping ranges with plain loads and stores
// under the table's locks: no increment is lost.
TEST_F(OneRankTransport, LockTableExcludesOverlappingRanges) {
  constexpr int kThreads = 4, kRounds = 3000;
  constexpr uint64_t kGranularity = 16, kCounters = 12;
  std::vector<uint64_t> counters(kCounters, 0);
  std::vector<uint64_t> expected(kCounters, 0);
  std::vector<std::vector<uint64_t>> firsts(kThreads);
  std::mt19937 random(7);
  for (auto& list : firsts)
    for (int i = 0; i < kRounds; ++i) {
      list.push_back(random() % (kCounters - 3));
      for (uint64_t c = list.back(); c < list.back() + 3; ++c) ++expected[c];
    }
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      LockTable table(*transport_, *sync_, geometry_, kGranularity, 0);
      StripeSet held;
      for (uint64_t first : firsts[t]) {
        ASSERT_EQ(table.lock(first * 8, 24, &held), REMORA_SUCCESS);
        for (uint64_t c = first; c < first + 3; ++c) {
          const uint64_t value = counters[c];
          std::this_thread::yield();
          counters[c] = value + 1;
        }
        table.unlock(held);
      }
    });
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(counters, expected);
}

// lock_in_place gives up, holding nothing, once the wait policy's spin and yields are over
// while a stripe of its range stays busy (here held by the same thread, so it never frees):
// the stripes it took before the busy one are released.
// Once the stripe is free it takes the range at its first attempt.
TEST_F(OneRankTransport, LockInPlaceGivesUpWhileAStripeStaysBusy) {
  constexpr uint64_t kGranularity = 16;
  const SyncGeometry geometry{1, 4, false, false, false, nullptr};
  transport::Segment* sync = nullptr;
  ASSERT_EQ(transport_->allocate_segment(geometry.bytes(), &sync), REMORA_SUCCESS);
  LockTable table(*transport_, *sync, geometry, kGranularity, 0, true);
  ASSERT_TRUE(table.direct());
  StripeSet busy;
  ASSERT_TRUE(table.try_lock_in_place(2 * kGranularity, 8, &busy));  // stripe 2
  for (const auto& [offset, bytes] : {std::pair<uint64_t, uint64_t>{2 * kGranularity + 8, 8},
                                      {0, 4 * kGranularity},                    // every stripe
                                      {3 * kGranularity, 4 * kGranularity}}) {  // wraps around
    StripeSet held;
    EXPECT_FALSE(table.lock_in_place(offset, bytes, &held)) << offset << " " << bytes;
    for (uint64_t s = 0; s < geometry.stripes; ++s)
      EXPECT_EQ(SyncWord(*transport_, *sync, 0, geometry.stripe(s)).load() != 0, s == 2)
          << "stripe " << s;
  }
  table.unlock_in_place(busy);
  StripeSet held;
  ASSERT_TRUE(table.lock_in_place(0, 4 * kGranularity, &held));
  EXPECT_EQ(held.indices(), (std::vector<uint64_t>{0, 1, 2, 3}));
  table.unlock_in_place(held);
  expect_table_idle(*transport_, *sync, geometry);
  transport_->free_segment(sync);
}

// The in-place path (lock_in_place / try_lock_rows_in_place, released by one fence after
// the stripes' stores when there are several) against the waiting path (lock / unlock, whose
// waiters register and sleep): ranges of one to all stripes, wrapping around the table, rows
// over several stripes, from threads that fall back to lock() when a stripe is busy. No
// increment is lost, and at the end every stripe is free and no waiter is registered.
TEST_F(OneRankTransport, InPlaceReleasesOfManyStripesExcludeAndWakeWaiters) {
  constexpr int kThreads = 4, kRounds = 2000;
  constexpr uint64_t kGranularity = 16, kCounters = 24;  // 8-byte counters, 2 per block
  const SyncGeometry geometry{1, 4, false, false, false, nullptr};
  transport::Segment* sync = nullptr;
  ASSERT_EQ(transport_->allocate_segment(geometry.bytes(), &sync), REMORA_SUCCESS);
  std::vector<uint64_t> counters(kCounters, 0), expected(kCounters, 0);
  struct Range {
    uint64_t first, count;
    bool rows;  // two rows of `count` counters, 8 counters apart
  };
  std::vector<std::vector<Range>> ranges(kThreads);
  std::mt19937 random(11);
  for (auto& list : ranges)
    for (int i = 0; i < kRounds; ++i) {
      const bool rows = random() % 4 == 0;
      const uint64_t count = 1 + random() % (rows ? 4 : 12);
      const uint64_t first = random() % (kCounters - count - (rows ? 8 : 0) + 1);
      list.push_back({first, count, rows});
      for (uint64_t row = 0; row < (rows ? 2u : 1u); ++row)
        for (uint64_t c = first + 8 * row; c < first + 8 * row + count; ++c) ++expected[c];
    }
  on_threads(kThreads, [&](int t) {
    LockTable table(*transport_, *sync, geometry, kGranularity, 0, true);
    ASSERT_TRUE(table.direct());
    for (const Range& range : ranges[t]) {
      const uint64_t offset = range.first * 8, bytes = range.count * 8;
      if (range.rows) {
        StripeList held;
        if (table.try_lock_rows_in_place(offset, bytes, 64, 2, &held)) {
          add_one(counters, range.first, range.count);
          add_one(counters, range.first + 8, range.count);
          table.unlock_rows_in_place(held);
          continue;
        }
        for (uint64_t row = 0; row < 2; ++row)  // as Window::accumulate_rows: row by row
          add_one_after_lock(table, counters, range.first + 8 * row, range.count);
        continue;
      }
      add_one_in_place(table, counters, range.first, range.count);
    }
  });
  EXPECT_EQ(counters, expected);
  expect_table_idle(*transport_, *sync, geometry);
  transport_->free_segment(sync);
}

// Waiters that sleep at once (no spin, no yield): every wait for a stripe registers, issues
// the heavy fence and sleeps, so the releases' wake-ups carry the waits.
class SleepingWaiters : public OneRankTransport {
 protected:
  Config config() const override {
    Config config = default_config();
    config.wait_spin_us = 0;
    config.wait_spin_oversubscribed_us = 0;
    config.wait_yields = 0;
    return config;
  }
};

// The one-stripe release (a release store and a light fence, then the waiter total:
// unlock_element, unlock_in_place of one stripe) against waiters that register and sleep:
// threads, more than the CPUs, update counters of one stripe by the element path, by ranges
// of one and of two stripes in place, and by lock(), falling back to lock() when a stripe is
// busy. No increment is lost, and at the end every stripe is free and every registration is
// undone. (A lost wake-up would cost a waiter its bounded sleep, not hang it: sums cannot
// show one; the argument that none is lost is at LockTable::release_then_wake.)
TEST_F(SleepingWaiters, OneStripeReleasesWakeEveryWaiter) {
  constexpr int kThreads = 6, kRounds = 3000;
  constexpr uint64_t kGranularity = 64, kCounters = 24;  // 8 counters per block, 2 stripes
  const SyncGeometry geometry{1, 2, true, false, false, nullptr};
  transport::Segment* sync = nullptr;
  ASSERT_EQ(transport_->allocate_segment(geometry.bytes(), &sync), REMORA_SUCCESS);
  std::vector<uint64_t> counters(kCounters, 0), expected(kCounters, 0);
  struct Update {
    uint64_t first, count;  // counters
    int path;               // 0: element, 1: in place, 2: lock()
  };
  // Blocks 0 and 2 (counters 0-7, 16-23) are stripe 0; block 1 is stripe 1.
  const Update kinds[] = {{0, 4, 0}, {16, 4, 0}, {18, 1, 0}, {4, 8, 1}, {2, 3, 1}, {0, 4, 2}};
  std::vector<std::vector<Update>> updates(kThreads);
  std::mt19937 random(5);
  for (auto& list : updates)
    for (int i = 0; i < kRounds; ++i) {
      list.push_back(kinds[random() % std::size(kinds)]);
      for (uint64_t c = list.back().first; c < list.back().first + list.back().count; ++c)
        ++expected[c];
    }
  on_threads(kThreads, [&](int t) {
    LockTable table(*transport_, *sync, geometry, kGranularity, 0, true);
    ASSERT_TRUE(table.direct());
    for (const Update& update : updates[t]) {
      if (update.path == 1) {
        add_one_in_place(table, counters, update.first, update.count);
        continue;
      }
      if (update.path == 0) {
        const int64_t stripe = table.element_stripe(update.first * 8, update.count * 8);
        ASSERT_EQ(stripe, update.first < 8 || update.first >= 16 ? 0 : 1);
        if (table.try_lock_element(stripe)) {
          add_one(counters, update.first, update.count);
          table.unlock_element(stripe);
          continue;
        }
      }
      add_one_after_lock(table, counters, update.first, update.count);
    }
  });
  EXPECT_EQ(counters, expected);
  expect_table_idle(*transport_, *sync, geometry);
  transport_->free_segment(sync);
}

// Waiters that take themselves for not oversubscribed: a wait for a busy stripe that reads it
// free within the spin and yields retries after the handoff pauses (wait_in_place, under
// LockTable::lock_element and lock_in_place), else falls back to lock(). Threads update
// counters of one stripe by the element path and by ranges of one and two stripes in place;
// no increment is lost, and at the end the table is idle.
class HandingOverWaiters : public OneRankTransport {
 protected:
  Config config() const override {
    Config config = default_config();
    config.oversubscribed = "no";
    return config;
  }
};

TEST_F(HandingOverWaiters, RetriesAfterThePausesExclude) {
  ASSERT_FALSE(transport_->wait_policy().oversubscribed);
  constexpr int kThreads = 4, kRounds = 3000;
  constexpr uint64_t kGranularity = 64, kCounters = 16;  // 8 counters per block, 2 stripes
  const SyncGeometry geometry{1, 2, true, false, false, nullptr};
  transport::Segment* sync = nullptr;
  ASSERT_EQ(transport_->allocate_segment(geometry.bytes(), &sync), REMORA_SUCCESS);
  std::vector<uint64_t> counters(kCounters, 0);
  on_threads(kThreads, [&](int t) {
    LockTable table(*transport_, *sync, geometry, kGranularity, 0, true);
    for (int i = 0; i < kRounds; ++i) {
      if ((i + t) % 3 != 0) {
        add_one_in_place(table, counters, (i + t) % 2 == 0 ? 0 : 4, 8);  // 1 or 2 stripes
        continue;
      }
      const int64_t stripe = table.element_stripe(8, 16);  // counters 1-2: stripe 0
      ASSERT_EQ(stripe, 0);
      if (!table.lock_element(stripe)) {
        add_one_after_lock(table, counters, 1, 2);
        continue;
      }
      add_one(counters, 1, 2);
      table.unlock_element(stripe);
    }
  });
  std::vector<uint64_t> expected(kCounters, 0);
  for (int t = 0; t < kThreads; ++t)
    for (int i = 0; i < kRounds; ++i) {
      const uint64_t first = (i + t) % 3 != 0 ? ((i + t) % 2 == 0 ? 0 : 4) : 1;
      const uint64_t count = (i + t) % 3 != 0 ? 8 : 2;
      for (uint64_t c = first; c < first + count; ++c) ++expected[c];
    }
  EXPECT_EQ(counters, expected);
  expect_table_idle(*transport_, *sync, geometry);
  transport_->free_segment(sync);
}

// The contention signal of the in-place path (apply_locked): a range over several blocks that
// finds a stripe busy at its first try goes block by block, skipping the busy one, instead of
// waiting to take the whole range. While another holder keeps block 5's stripe, a sum over
// blocks 0-7 updates the seven free blocks (observed before the stripe is released: taking
// the range all together would update none of them), then block 5 once it is free; every
// element ends up summed exactly once and the table idle.
TEST_F(OneRankTransport, ContendedRangeUpdatesTheFreeBlocksFirst) {
  constexpr uint64_t kGranularity = 64, kBlocks = 8, kBusy = 5;
  constexpr size_t kElements = kBlocks * kGranularity / sizeof(double);
  const SyncGeometry geometry{1, kBlocks, false, false, false, nullptr};
  transport::Segment* sync = nullptr;
  transport::Segment* data = nullptr;
  ASSERT_EQ(transport_->allocate_segment(geometry.bytes(), &sync), REMORA_SUCCESS);
  ASSERT_EQ(transport_->allocate_segment(kElements * sizeof(double), &data), REMORA_SUCCESS);
  auto* target = static_cast<double*>(transport_->address(*data, 0));
  std::fill(target, target + kElements, 0.0);
  LockTable holder(*transport_, *sync, geometry, kGranularity, 0, true);
  ASSERT_TRUE(holder.direct());
  StripeSet busy;
  ASSERT_TRUE(holder.try_lock_in_place(kBusy * kGranularity, kGranularity, &busy));
  const WindowMemory memory{transport_.get(), data,    sync,    geometry,
                            kGranularity,     nullptr, nullptr, true};
  const std::vector<double> ones(kElements, 1.0);
  AccArgs args;
  args.origin = ones.data();
  args.count = kElements;
  args.type = REMORA_DOUBLE;
  args.op = REMORA_OP_SUM;
  int status = -1;
  std::thread origin([&] {
    LockTable table(*transport_, *sync, geometry, kGranularity, 0, true);
    status = apply_locked(memory, args, &table);
  });
  // Once the origin waits for block 5 it registers as a waiter (after the spin and yields of
  // lock_in_place); its updates before that registration (a sequentially consistent add) are
  // then visible here. Bounded, so a broken wait fails rather than hangs; not a timing test.
  const SyncWord waiting(*transport_, *sync, 0, SyncGeometry::kWaiterTotal);
  for (int poll = 0; poll < 600000 && waiting.load() == 0; ++poll)
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  ASSERT_NE(waiting.load(), 0u) << "the origin never waited for block " << kBusy;
  for (size_t i = 0; i < kElements; ++i)
    EXPECT_EQ(target[i], i * sizeof(double) / kGranularity == kBusy ? 0.0 : 1.0)
        << "element " << i << " while block " << kBusy << " is busy";
  holder.unlock_in_place(busy);
  origin.join();
  EXPECT_EQ(status, REMORA_SUCCESS);
  for (size_t i = 0; i < kElements; ++i) EXPECT_EQ(target[i], 1.0) << "element " << i;
  expect_table_idle(*transport_, *sync, geometry);
  transport_->free_segment(data);
  transport_->free_segment(sync);
}

// kHeldFetch, the one-element fetch_and_op of the inline path (Window::fetch_and_op): an entry
// exactly for each op (but SCALED_SUM) that applies to the type; each computes what update_one
// does (old value out, target op= origin) and releases the stripe the caller took.
TEST_F(OneRankTransport, HeldFetchMatchesUpdateOneAndReleasesTheStripe) {
  const SyncGeometry geometry{1, 4, false, false, false, nullptr};
  transport::Segment* sync = nullptr;
  ASSERT_EQ(transport_->allocate_segment(geometry.bytes(), &sync), REMORA_SUCCESS);
  LockTable table(*transport_, *sync, geometry, 16, 0, true);
  ASSERT_TRUE(table.direct());
  std::mt19937_64 random(3);
  for (int type = -1; type <= REMORA_DOUBLE_COMPLEX + 1; ++type)
    for (int op = -1; op <= REMORA_OP_SCALED_SUM + 1; ++op) {
      const HeldFetch fetch = fetch_entry(kHeldFetch, type, op);
      const bool valid = op_valid_for(op, type) && op != REMORA_OP_SCALED_SUM;
      ASSERT_EQ(fetch != nullptr, valid) << type << " " << op;
      if (!valid) continue;
      const size_t size = datatype_size(type);
      const bool integer = type <= REMORA_UINT64;
      alignas(16) unsigned char element[16], reference[16], origin[16], old[16], want_old[16];
      for (size_t i = 0; i < size; ++i) {
        element[i] = static_cast<unsigned char>(integer ? random() : random() % 7);
        origin[i] = static_cast<unsigned char>(integer ? random() : random() % 7);
      }
      std::memcpy(reference, element, size);
      update_one(op, type, reference, origin, nullptr, want_old, nullptr);
      const int64_t stripe = table.element_stripe(0, size);
      ASSERT_TRUE(table.try_lock_element(stripe));
      EXPECT_EQ(fetch(table, stripe, element, op == REMORA_OP_NO_OP ? nullptr : origin, old),
                REMORA_SUCCESS);
      EXPECT_EQ(std::memcmp(element, reference, size), 0)
          << datatype_name(type) << " " << op_name(op);
      EXPECT_EQ(std::memcmp(old, want_old, size), 0) << datatype_name(type) << " " << op_name(op);
      EXPECT_TRUE(table.try_lock_element(stripe)) << "stripe not released";
      table.unlock_element(stripe);
    }
  expect_table_idle(*transport_, *sync, geometry);
  transport_->free_segment(sync);
}

TEST_F(OneRankTransport, RwLockExclusiveExcludesSharedOverlaps) {
  constexpr int kThreads = 4, kRounds = 500;
  std::atomic<int> writers{0}, readers{0}, max_readers{0};
  std::atomic<bool> violated{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      RwLock lock(*transport_, *sync_, geometry_, 0);
      for (int i = 0; i < kRounds; ++i) {
        if ((i + t) % 3 == 0) {
          ASSERT_EQ(lock.lock_exclusive(), REMORA_SUCCESS);
          if (writers.fetch_add(1) != 0 || readers.load() != 0) violated = true;
          std::this_thread::yield();
          writers.fetch_sub(1);
          lock.unlock_exclusive();
        } else {
          ASSERT_EQ(lock.lock_shared(), REMORA_SUCCESS);
          const int now = readers.fetch_add(1) + 1;
          if (writers.load() != 0) violated = true;
          int seen = max_readers.load();
          while (now > seen && !max_readers.compare_exchange_weak(seen, now)) {
          }
          std::this_thread::yield();
          readers.fetch_sub(1);
          lock.unlock_shared();
        }
      }
    });
  for (auto& thread : threads) thread.join();
  EXPECT_FALSE(violated.load());
  EXPECT_EQ(SyncWord(*transport_, *sync_, 0, SyncGeometry::kLockWord).load(), 0u);
}

}  // namespace
}  // namespace remora::rma
