// CPU-atomic accumulates agree with the reference kernels of reduce_op and stay exact under
// contention between threads.
#include "rma/accumulate/native_atomics.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "core/error.hpp"
#include "rma/accumulate/element_fetch.hpp"
#include "rma/reduce_op.hpp"

namespace remora::rma {
namespace {

const int kNativeTypes[] = {REMORA_INT8,  REMORA_INT16,  REMORA_INT32,        REMORA_INT64,
                            REMORA_UINT8, REMORA_UINT16, REMORA_UINT32,       REMORA_UINT64,
                            REMORA_FLOAT, REMORA_DOUBLE, REMORA_FLOAT_COMPLEX};

TEST(NativeAtomics, CapabilityBySizeAndAlignment) {
  EXPECT_TRUE(native_capable(REMORA_INT8, 3));
  EXPECT_TRUE(native_capable(REMORA_INT32, 8));
  EXPECT_FALSE(native_capable(REMORA_INT32, 6));
  EXPECT_TRUE(native_capable(REMORA_FLOAT_COMPLEX, 16));
  EXPECT_FALSE(native_capable(REMORA_DOUBLE_COMPLEX, 0));  // not lock-free across processes
  EXPECT_FALSE(native_capable(0, 0));
}

TEST(NativeAtomics, MatchesReferenceKernelsForEveryValidOp) {
  std::mt19937_64 random(11);
  constexpr size_t kCount = 6;
  for (int type : kNativeTypes) {
    const size_t size = datatype_size(type);
    for (int op = REMORA_OP_SUM; op <= REMORA_OP_SCALED_SUM; ++op) {
      if (check_op("test", op, type) != REMORA_SUCCESS) continue;
      alignas(8) unsigned char target[kCount * 8], reference[kCount * 8], origin[kCount * 8],
          previous[kCount * 8], alpha[8];
      // Integers take any bits (negative values, wrap-around); floats small bytes (finite).
      const bool integer = type <= REMORA_UINT64;
      for (size_t i = 0; i < kCount * size; ++i) {
        target[i] = static_cast<unsigned char>(integer ? random() : random() % 7);
        origin[i] = static_cast<unsigned char>(integer ? random() : random() % 7);
      }
      for (size_t i = 0; i < size; ++i) alpha[i] = static_cast<unsigned char>(i == 0 ? 2 : 0);
      std::memcpy(reference, target, kCount * size);
      const void* alpha_arg = op == REMORA_OP_SCALED_SUM ? alpha : nullptr;
      apply_op(op, type, reference, origin, kCount, alpha_arg);
      std::vector<unsigned char> before(target, target + kCount * size);
      native_accumulate(op, type, target, origin, previous, kCount, alpha_arg);
      EXPECT_EQ(std::memcmp(target, reference, kCount * size), 0)
          << datatype_name(type) << " " << op_name(op);
      EXPECT_EQ(std::memcmp(previous, before.data(), kCount * size), 0)
          << datatype_name(type) << " " << op_name(op);
    }
  }
}

// kNativeFetch, the CPU-atomic fetch_and_op of the inline path (Window::fetch_and_op): an entry
// exactly for each op (but SCALED_SUM) that applies to a type of at most 8 bytes, computing
// what native_accumulate does for one element.
TEST(NativeAtomics, NativeFetchTableMatchesNativeAccumulate) {
  std::mt19937_64 random(7);
  for (int type = -1; type <= REMORA_DOUBLE_COMPLEX + 1; ++type)
    for (int op = -1; op <= REMORA_OP_SCALED_SUM + 1; ++op) {
      const NativeFetch fetch = fetch_entry(kNativeFetch, type, op);
      const bool valid =
          op_valid_for(op, type) && op != REMORA_OP_SCALED_SUM && datatype_size(type) <= 8;
      ASSERT_EQ(fetch != nullptr, valid) << type << " " << op;
      if (!valid) continue;
      const size_t size = datatype_size(type);
      const bool integer = type <= REMORA_UINT64;
      alignas(8) unsigned char element[8], reference[8], origin[8], old[8], want_old[8];
      for (size_t i = 0; i < size; ++i) {
        element[i] = static_cast<unsigned char>(integer ? random() : random() % 7);
        origin[i] = static_cast<unsigned char>(integer ? random() : random() % 7);
      }
      std::memcpy(reference, element, size);
      native_accumulate(op, type, reference, origin, want_old, 1, nullptr);
      EXPECT_EQ(fetch(element, op == REMORA_OP_NO_OP ? nullptr : origin, old), REMORA_SUCCESS);
      EXPECT_EQ(std::memcmp(element, reference, size), 0)
          << datatype_name(type) << " " << op_name(op);
      EXPECT_EQ(std::memcmp(old, want_old, size), 0) << datatype_name(type) << " " << op_name(op);
    }
}

TEST(NativeAtomics, CompareSwapStoresOnlyOnMatch) {
  alignas(8) int16_t target = 5, result = 0;
  const int16_t origin = 9, wrong = 4, right = 5;
  native_compare_swap(REMORA_INT16, &target, &origin, &wrong, &result);
  EXPECT_EQ(target, 5);
  EXPECT_EQ(result, 5);
  native_compare_swap(REMORA_INT16, &target, &origin, &right, &result);
  EXPECT_EQ(target, 9);
  EXPECT_EQ(result, 5);
}

TEST(NativeAtomics, ConcurrentSumsOfSmallElementsAreExact) {
  constexpr int kThreads = 4, kRounds = 20000;
  alignas(8) uint16_t counters[4] = {0, 0, 0, 0};  // neighbours share a word: no tearing
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&counters] {
      const uint16_t ones[4] = {1, 1, 1, 1};
      for (int i = 0; i < kRounds; ++i)
        native_accumulate(REMORA_OP_SUM, REMORA_UINT16, counters, ones, nullptr, 4, nullptr);
    });
  for (auto& thread : threads) thread.join();
  for (uint16_t counter : counters) EXPECT_EQ(counter, static_cast<uint16_t>(kThreads * kRounds));
}

// The compare-and-swap loop (doubles) and the fetch instructions (bitwise or) under contention.
TEST(NativeAtomics, ConcurrentDoubleSumsAndBitwiseOrsAreExact) {
  constexpr int kThreads = 4, kRounds = 20000;
  alignas(8) double sums[2] = {0.0, 0.0};
  alignas(8) uint32_t bits = 0;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&sums, &bits, t] {
      const double ones[2] = {1.0, 0.5};
      for (int i = 0; i < kRounds; ++i) {
        native_accumulate(REMORA_OP_SUM, REMORA_DOUBLE, sums, ones, nullptr, 2, nullptr);
        const uint32_t bit = 1u << ((t * kRounds + i) % 32);
        native_accumulate(REMORA_OP_BOR, REMORA_UINT32, &bits, &bit, nullptr, 1, nullptr);
      }
    });
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(sums[0], kThreads * kRounds * 1.0);
  EXPECT_EQ(sums[1], kThreads * kRounds * 0.5);
  EXPECT_EQ(bits, 0xffffffffu);
}

}  // namespace
}  // namespace remora::rma
