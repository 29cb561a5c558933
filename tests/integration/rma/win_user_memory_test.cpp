// Windows over the user's own memory (remora_win_create). The default path comes from
// REMORA_RMA_USER_MEMORY (auto, single_copy or agent: the test is registered once per value);
// every check runs for each synchronisation implementation: puts and gets visible at the end
// of fence, post-start-complete-wait, lock and lock_all epochs (immediate and deferred),
// accumulates under contention with exact totals, a fetch_and_op counter, a compare_and_swap
// spin lock protecting a plain get + put counter, ranks with empty windows (NULL base), the
// info key overriding the default path, and misuse (bad bases, ranges, info).
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "multirank.hpp"
#include "writer_slots.hpp"

namespace {

remora_group_t world_group_;
std::string mode_;  // REMORA_RMA_USER_MEMORY

// A window over memory (which the caller keeps alive), cleared first.
remora_win_t create(std::vector<int64_t>* memory, const std::string& info) {
  memory->assign(slots(), 0);
  remora_win_t win = nullptr;
  REQUIRE_OK(remora_win_create(memory->data(), 8 * memory->size(), 8, info.c_str(), &win));
  return win;
}

// The path each target is reached by matches the mode asked for.
void check_paths(remora_win_t win, const std::string& mode) {
  for (int t = 0; t < size_; ++t) {
    remora_win_path_t path = REMORA_WIN_PATH_SHARED;
    REQUIRE_OK(remora_win_path(win, t, &path));
    if (t == rank_)
      REQUIRE(path == REMORA_WIN_PATH_LOCAL, "own memory: path %d", path);
    else if (mode == "agent")
      REQUIRE(path == REMORA_WIN_PATH_AGENT, "target %d: path %d", t, path);
    else if (mode == "single_copy")
      REQUIRE(path == REMORA_WIN_PATH_SINGLE_COPY, "target %d: path %d", t, path);
    else
      REQUIRE(path == REMORA_WIN_PATH_SINGLE_COPY || path == REMORA_WIN_PATH_AGENT,
              "target %d: path %d", t, path);
    // Only this rank's own memory is loaded and stored directly.
    size_t bytes = 0, unit = 0;
    void* memory = nullptr;
    if (t == rank_) {
      void* base = nullptr;
      REQUIRE_OK(remora_win_base(win, &base));
      REQUIRE_OK(remora_win_shared_query(win, t, &bytes, &unit, &memory));
      REQUIRE(memory == base, "shared_query of the own rank: %p, base %p", memory, base);
    } else {
      REQUIRE_ERROR(remora_win_shared_query(win, t, &bytes, &unit, &memory), REMORA_ERR_UNSUPPORTED,
                    "each rank's own memory");
    }
  }
}

// The owner's view of its memory after the others' updates: synchronised first.
void check_own_slots(remora_win_t win, const std::vector<int64_t>& memory, int round) {
  REQUIRE_OK(remora_win_sync(win));
  check_all_slots(memory.data(), round);
}

// Puts then gets in each kind of epoch; the owner checks its memory directly.
void visibility(const std::string& info) {
  std::vector<int64_t> memory;
  remora_win_t win = create(&memory, info);
  std::vector<int64_t> got;
  int round = 1;
  // Fence.
  REQUIRE_OK(remora_win_fence(win, REMORA_MODE_NOPRECEDE));
  put_everywhere(win, round);
  REQUIRE_OK(remora_win_fence(win, 0));
  check_own_slots(win, memory, round);
  get_everywhere(win, &got);
  REQUIRE_OK(remora_win_fence(win, REMORA_MODE_NOSUCCEED));
  check_got(got, round);
  REQUIRE_OK(remora_barrier());
  // Post-start-complete-wait with every rank in both groups.
  ++round;
  REQUIRE_OK(remora_win_post(world_group_, 0, win));
  REQUIRE_OK(remora_win_start(world_group_, 0, win));
  put_everywhere(win, round);
  REQUIRE_OK(remora_win_complete(win));
  REQUIRE_OK(remora_win_wait(win));
  check_own_slots(win, memory, round);
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_post(world_group_, 0, win));
  REQUIRE_OK(remora_win_start(world_group_, 0, win));
  get_everywhere(win, &got);
  REQUIRE_OK(remora_win_complete(win));
  REQUIRE_OK(remora_win_wait(win));
  check_got(got, round);
  REQUIRE_OK(remora_barrier());
  // Lock: exclusive for the puts, shared for the gets.
  ++round;
  int64_t v = 0;
  for (int i = 0; i < size_; ++i) {
    const int t = (rank_ + i) % size_;
    REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, t, 0));
    v = value(rank_, t, round);
    REQUIRE_OK(remora_win_put(win, t, static_cast<size_t>(rank_), &v, 1, REMORA_INT64));
    REQUIRE_OK(remora_win_unlock(win, t));
    v = -1;  // reused after unlock (a deferred lock's queue refers to it until then)
  }
  REQUIRE_OK(remora_barrier());
  check_own_slots(win, memory, round);
  REQUIRE_OK(remora_barrier());
  got.assign(static_cast<size_t>(size_ * size_), -7);
  for (int t = 0; t < size_; ++t) {
    REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_SHARED, t, 0));
    REQUIRE_OK(remora_win_get(win, t, 0, got.data() + t * size_, static_cast<size_t>(size_),
                              REMORA_INT64));
    REQUIRE_OK(remora_win_unlock(win, t));
  }
  check_got(got, round);
  REQUIRE_OK(remora_barrier());
  // lock_all with flush: the get after the flush sees the put.
  ++round;
  REQUIRE_OK(remora_win_lock_all(win, 0));
  put_everywhere(win, round);
  REQUIRE_OK(remora_win_flush_all(win));
  REQUIRE_OK(remora_barrier());  // every rank's puts are complete
  get_everywhere(win, &got);
  REQUIRE_OK(remora_win_flush_all(win));
  check_got(got, round);
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE_OK(remora_barrier());
  check_own_slots(win, memory, round);
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_free(&win));
}

// Accumulates from every rank into overlapping elements of every target (the owner included)
// add up exactly; a fetch_and_op counter on rank 0 hands out each ticket once (each rank's
// tickets increase); compare_and_swap builds a spin lock around a plain get + put counter.
void atomics(const std::string& info) {
  std::vector<int64_t> memory;
  remora_win_t win = create(&memory, info);
  constexpr int kRounds = 40;
  const int64_t ones[4] = {1, 1, 1, 1};
  REQUIRE_OK(remora_win_lock_all(win, 0));
  int64_t last_ticket = -1;
  for (int round = 0; round < kRounds; ++round) {
    for (int t = 0; t < size_; ++t)
      REQUIRE_OK(remora_win_accumulate(win, t, scratch(0) + static_cast<size_t>(round % 2), ones, 4,
                                       REMORA_INT64, REMORA_OP_SUM, nullptr));
    int64_t ticket = -1;
    REQUIRE_OK(remora_win_fetch_and_op(win, 0, scratch(5), &ones[0], &ticket, REMORA_INT64,
                                       REMORA_OP_SUM));
    REQUIRE_OK(remora_win_flush(win, 0));
    REQUIRE(ticket > last_ticket && ticket < int64_t{size_} * kRounds, "ticket %lld after %lld",
            (long long)ticket, (long long)last_ticket);
    last_ticket = ticket;
    // The spin lock: scratch(6) holds 0 or the holder's rank + 1.
    const int64_t free_word = 0, mine = rank_ + 1;
    int64_t seen = -1;
    do {
      REQUIRE_OK(
          remora_win_compare_and_swap(win, 0, scratch(6), &mine, &free_word, &seen, REMORA_INT64));
      REQUIRE_OK(remora_win_flush(win, 0));
      REQUIRE(seen >= 0 && seen <= size_, "lock word %lld", (long long)seen);
      if (seen != 0) remora_test::progress_and_yield();
    } while (seen != 0);
    increment_with_get_put(win, 0, scratch(7));
    REQUIRE_OK(remora_win_flush(win, 0));
    REQUIRE_OK(
        remora_win_compare_and_swap(win, 0, scratch(6), &free_word, &mine, &seen, REMORA_INT64));
    REQUIRE_OK(remora_win_flush(win, 0));
    REQUIRE(seen == mine, "released a lock word holding %lld", (long long)seen);
  }
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_sync(win));
  const int64_t half = int64_t{size_} * (kRounds / 2);
  const int64_t expected[5] = {half, 2 * half, 2 * half, 2 * half, half};  // overlaps
  for (size_t i = 0; i < 5; ++i)
    REQUIRE(memory[scratch(i)] == expected[i], "element %zu: %lld, expected %lld", i,
            (long long)memory[scratch(i)], (long long)expected[i]);
  if (rank_ == 0) {
    REQUIRE(memory[scratch(5)] == int64_t{size_} * kRounds, "tickets %lld",
            (long long)memory[scratch(5)]);
    REQUIRE(memory[scratch(6)] == 0, "lock word %lld", (long long)memory[scratch(6)]);
    REQUIRE(memory[scratch(7)] == int64_t{size_} * kRounds, "counter %lld",
            (long long)memory[scratch(7)]);
  }
  // A double SUM into slot 0 (unused so far) through the same paths, in a fence epoch.
  REQUIRE_OK(remora_win_fence(win, 0));
  const double half_one = 0.5;
  for (int t = 0; t < size_; ++t)
    REQUIRE_OK(
        remora_win_accumulate(win, t, 0, &half_one, 1, REMORA_DOUBLE, REMORA_OP_SUM, nullptr));
  REQUIRE_OK(remora_win_fence(win, 0));
  REQUIRE_OK(remora_win_sync(win));
  double as_double = 0;
  std::memcpy(&as_double, &memory[0], 8);
  REQUIRE(as_double == 0.5 * size_, "double sum %g", as_double);
  REQUIRE_OK(remora_win_fence(win, REMORA_MODE_NOSUCCEED));
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_free(&win));
}

// Odd ranks expose nothing (NULL base, 0 bytes); even ranks are written by everyone.
void empty_windows(const std::string& info) {
  std::vector<int64_t> memory(rank_ % 2 == 0 ? slots() : 0, 0);
  remora_win_t win = nullptr;
  REQUIRE_OK(remora_win_create(rank_ % 2 == 0 ? memory.data() : nullptr, 8 * memory.size(), 8,
                               info.c_str(), &win));
  for (int t = 0; t < size_; ++t) {
    size_t bytes = 1;
    REQUIRE_OK(remora_win_size(win, t, &bytes));
    REQUIRE(bytes == (t % 2 == 0 ? 8 * slots() : 0), "rank %d's size %zu", t, bytes);
  }
  REQUIRE_OK(remora_win_fence(win, 0));
  const int64_t v = value(rank_, 0, 9);
  for (int t = 0; t < size_; t += 2)
    REQUIRE_OK(remora_win_put(win, t, static_cast<size_t>(rank_), &v, 1, REMORA_INT64));
  if (size_ > 1)
    REQUIRE_ERROR(remora_win_put(win, 1, 0, &v, 1, REMORA_INT64), REMORA_ERR_RANGE,
                  "outside target 1's window of 0 bytes");
  REQUIRE_OK(remora_win_put(win, size_ > 1 ? 1 : 0, 0, &v, 0, REMORA_INT64));  // 0 elements
  REQUIRE_OK(remora_win_fence(win, REMORA_MODE_NOSUCCEED));
  if (rank_ % 2 == 0)
    for (int w = 0; w < size_; ++w)
      REQUIRE(memory[static_cast<size_t>(w)] == value(w, 0, 9), "slot %d: %lld", w,
              (long long)memory[static_cast<size_t>(w)]);
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_win_free(&win));
  // Every rank empty.
  REQUIRE_OK(remora_win_create(nullptr, 0, 1, info.c_str(), &win));
  void* base = &win;
  REQUIRE_OK(remora_win_base(win, &base));
  REQUIRE(base == nullptr, "base %p", base);
  REQUIRE_OK(remora_win_free(&win));
}

// Collective failures: every rank sees the bad rank's base; ranges; info; the own memory is
// reached directly whatever the mode.
void misuse() {
  std::vector<int64_t> memory(4, 0);
  remora_win_t win = nullptr;
  void* null_base = rank_ == 0 ? nullptr : memory.data();
  REQUIRE_ERROR(remora_win_create(null_base, 32, 8, "user_memory=auto", &win), REMORA_ERR_ARG,
                "rank 0's base=(nil) with bytes=32 is NULL");
  REQUIRE(win == nullptr, "win set on failure");
  // An address no process maps (the first page).
  void* bad_base = rank_ == size_ - 1 ? reinterpret_cast<void*>(64) : memory.data();
  const int status = remora_win_create(bad_base, 32, 8, "user_memory=auto", &win);
  if (status == REMORA_SUCCESS) {
    // The kernel forbade even a self-read (no check possible): nothing to test here.
    REQUIRE_OK(remora_win_free(&win));
  } else {
    REQUIRE(status == REMORA_ERR_ARG, "bad base -> %d (%s)", status, remora_last_error());
    REQUIRE(std::strstr(remora_last_error(), "not readable memory") != nullptr, "message %s",
            remora_last_error());
  }
  REQUIRE_ERROR(remora_win_create(memory.data(), 32, 8, "user_memory=sometimes", &win),
                REMORA_ERR_ARG, "user_memory='sometimes'");
  REQUIRE_ERROR(remora_win_create(memory.data(), 32, 0, nullptr, &win), REMORA_ERR_ARG,
                "disp_unit=0");
  REQUIRE_ERROR(remora_win_create(memory.data(), 32, 8, nullptr, nullptr), REMORA_ERR_ARG, "win");
  REQUIRE_OK(remora_win_create(memory.data(), 32, 8, "user_memory=auto", &win));
  const int64_t v[5] = {1, 2, 3, 4, 5};
  REQUIRE_OK(remora_win_lock_all(win, 0));
  const int t = (rank_ + 1) % size_;
  REQUIRE_ERROR(remora_win_put(win, t, 0, v, 5, REMORA_INT64), REMORA_ERR_RANGE, "outside");
  REQUIRE_ERROR(remora_win_get(win, t, 4, memory.data(), 1, REMORA_INT64), REMORA_ERR_RANGE,
                "outside");
  REQUIRE_ERROR(remora_win_accumulate(win, t, 3, v, 2, REMORA_INT64, REMORA_OP_SUM, nullptr),
                REMORA_ERR_RANGE, "outside");
  remora_win_path_t path;
  REQUIRE_ERROR(remora_win_path(win, size_, &path), REMORA_ERR_RANK, "target");
  REQUIRE_ERROR(remora_win_path(win, 0, nullptr), REMORA_ERR_ARG, "path");
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE_OK(remora_win_free(&win));
}

void run(const std::string& sync_info) {
  // The default path (REMORA_RMA_USER_MEMORY) and each path asked for by the info key.
  std::vector<std::pair<std::string, std::string>> variants = {{sync_info, mode_}};
  if (mode_ == "auto") {
    variants.push_back({sync_info + ",user_memory=agent", "agent"});
    variants.push_back({sync_info + ",user_memory=single_copy", "single_copy"});
  }
  for (const auto& [info, mode] : variants) {
    std::vector<int64_t> memory;
    remora_win_t win = nullptr;
    memory.assign(slots(), 0);
    const int status = remora_win_create(memory.data(), 8 * memory.size(), 8, info.c_str(), &win);
    if (status == REMORA_ERR_UNSUPPORTED && mode == "single_copy") {
      // The operating system forbids single copy here: every rank says so, nothing to test.
      REQUIRE(std::strstr(remora_last_error(), "cannot read") != nullptr, "%s",
              remora_last_error());
      if (rank_ == 0) std::printf("single copy forbidden here: %s\n", remora_last_error());
      continue;
    }
    REQUIRE_OK(status);
    check_paths(win, mode);
    REQUIRE_OK(remora_win_free(&win));
    visibility(info);
    atomics(info);
    empty_windows(info);
  }
}

}  // namespace

int main(int argc, char** argv) {
  remora_test::init(&argc, &argv, &rank_, &size_);
  const char* mode = std::getenv("REMORA_RMA_USER_MEMORY");
  mode_ = mode != nullptr ? mode : "auto";
  remora_comm_t world;
  REQUIRE_OK(remora_comm_world(&world));
  REQUIRE_OK(remora_comm_group(world, &world_group_));
  for (const char* sync : {"acc_strategy=auto", "fence=deferred,lock=deferred,pscw=deferred",
                           "acc_strategy=owner", "acc_strategy=caller,lock=deferred"})
    run(sync);
  misuse();
  REQUIRE_OK(remora_group_free(&world_group_));
  REQUIRE_OK(remora_finalize());
  return 0;
}
