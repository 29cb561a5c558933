// Windows laid out by writer, shared by the multi-rank window tests: slot w (int64,
// disp_unit 8) of every rank belongs to writer w, then kScratch scratch slots. Writers put
// round-dependent values everywhere and read everything back; the checks say where a value is
// wrong. Include once per test program (it defines the program's rank_ and size_).
#pragma once

#include <cstdint>
#include <vector>

#include "multirank.hpp"

namespace {

int rank_, size_;  // this rank and the job size, set by main

int64_t value(int writer, int target, int round) {
  return 1000000 * round + 1000 * writer + target + 1;
}

// The window: slot w (int64, disp_unit 8) of every rank belongs to writer w; then scratch slots.
constexpr size_t kScratch = 16;
size_t slots() {
  return static_cast<size_t>(size_) + kScratch;
}
size_t scratch(size_t i) {
  return static_cast<size_t>(size_) + i;
}

// Puts value(me, t, round) into slot me of every target. The origin buffers stay untouched
// until the epoch ends (a deferred lock epoch refers to them), and are overwritten when the
// next round starts: an implementation that read them later would put -1.
std::vector<int64_t> put_origins;
void put_everywhere(remora_win_t win, int round) {
  put_origins.assign(static_cast<size_t>(size_), -1);
  for (int t = 0; t < size_; ++t) {
    int64_t& v = put_origins[static_cast<size_t>(t)];
    v = value(rank_, t, round);
    REQUIRE_OK(remora_win_put(win, t, static_cast<size_t>(rank_), &v, 1, REMORA_INT64));
  }
}

void check_all_slots(const int64_t* base, int round) {
  for (int w = 0; w < size_; ++w)
    REQUIRE(base[w] == value(w, rank_, round), "round %d: slot %d holds %lld", round, w,
            (long long)base[w]);
}

// Gets every target's writer slots into *got (valid only after the epoch closes).
void get_everywhere(remora_win_t win, std::vector<int64_t>* got) {
  got->assign(static_cast<size_t>(size_ * size_), -7);
  for (int t = 0; t < size_; ++t)
    REQUIRE_OK(remora_win_get(win, t, 0, got->data() + t * size_, static_cast<size_t>(size_),
                              REMORA_INT64));
}

void check_got(const std::vector<int64_t>& got, int round) {
  for (int t = 0; t < size_; ++t)
    for (int w = 0; w < size_; ++w) {
      const int64_t v = got[static_cast<size_t>(t * size_ + w)];
      REQUIRE(v == value(w, t, round), "round %d: get of target %d slot %d: %lld", round, t, w,
              (long long)v);
    }
}

// A plain (not atomic) increment of target's slot disp: get, flush (the value is in place),
// add one, put. Exact only under mutual exclusion, which is what the callers test.
void increment_with_get_put(remora_win_t win, int target, size_t disp) {
  int64_t counter = -1;
  REQUIRE_OK(remora_win_get(win, target, disp, &counter, 1, REMORA_INT64));
  REQUIRE_OK(remora_win_flush(win, target));
  ++counter;
  REQUIRE_OK(remora_win_put(win, target, disp, &counter, 1, REMORA_INT64));
}

}  // namespace
