#include "rma/reduce_op.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/config.hpp"
#include "core/error.hpp"

namespace remora::rma {
namespace {

const int kAllTypes[] = {REMORA_INT8,  REMORA_INT16,  REMORA_INT32,         REMORA_INT64,
                         REMORA_UINT8, REMORA_UINT16, REMORA_UINT32,        REMORA_UINT64,
                         REMORA_FLOAT, REMORA_DOUBLE, REMORA_FLOAT_COMPLEX, REMORA_DOUBLE_COMPLEX};

TEST(ReduceOp, SizesAndNames) {
  EXPECT_EQ(datatype_size(REMORA_INT8), 1u);
  EXPECT_EQ(datatype_size(REMORA_UINT16), 2u);
  EXPECT_EQ(datatype_size(REMORA_FLOAT), 4u);
  EXPECT_EQ(datatype_size(REMORA_FLOAT_COMPLEX), 8u);
  EXPECT_EQ(datatype_size(REMORA_DOUBLE_COMPLEX), 16u);
  EXPECT_EQ(datatype_size(0), 0u);
  EXPECT_EQ(datatype_size(99), 0u);
  EXPECT_STREQ(datatype_name(REMORA_DOUBLE), "DOUBLE");
  EXPECT_STREQ(op_name(REMORA_OP_SCALED_SUM), "SCALED_SUM");
}

TEST(ReduceOp, ValidityFollowsMpiRules) {
  for (int type : kAllTypes) {
    const bool integer = type <= REMORA_UINT64;
    const bool complex = type >= REMORA_FLOAT_COMPLEX;
    for (int op = REMORA_OP_SUM; op <= REMORA_OP_SCALED_SUM; ++op) {
      bool valid = true;
      if (op >= REMORA_OP_BAND && op <= REMORA_OP_LXOR) valid = integer;
      if (op == REMORA_OP_MIN || op == REMORA_OP_MAX) valid = !complex;
      const int status = check_op("test", op, type);
      EXPECT_EQ(status, valid ? REMORA_SUCCESS : REMORA_ERR_ARG)
          << op_name(op) << " " << datatype_name(type);
      if (!valid) {
        EXPECT_NE(std::string(last_error()).find(op_name(op)), std::string::npos);
        EXPECT_NE(std::string(last_error()).find(datatype_name(type)), std::string::npos);
      }
    }
  }
  EXPECT_EQ(check_op("f", 0, REMORA_INT32), REMORA_ERR_ARG);
  EXPECT_NE(std::string(last_error()).find("op=0"), std::string::npos);
  EXPECT_EQ(check_op("f", REMORA_OP_SUM, 77), REMORA_ERR_ARG);
  EXPECT_NE(std::string(last_error()).find("type=77"), std::string::npos);
}

template <typename T>
void expect_ops(int type, std::vector<T> target, std::vector<T> source, T alpha) {
  struct Case {
    int op;
    T (*reference)(T, T, T);
  };
  std::vector<Case> cases = {
      {REMORA_OP_SUM, [](T a, T b, T) { return static_cast<T>(a + b); }},
      {REMORA_OP_PROD, [](T a, T b, T) { return static_cast<T>(a * b); }},
      {REMORA_OP_REPLACE, [](T, T b, T) { return b; }},
      {REMORA_OP_NO_OP, [](T a, T, T) { return a; }},
      {REMORA_OP_SCALED_SUM, [](T a, T b, T s) { return static_cast<T>(a + s * b); }},
      {REMORA_OP_MIN, [](T a, T b, T) { return a < b ? a : b; }},
      {REMORA_OP_MAX, [](T a, T b, T) { return a < b ? b : a; }},
  };
  if constexpr (std::is_integral_v<T>) {
    cases.push_back({REMORA_OP_BAND, [](T a, T b, T) { return static_cast<T>(a & b); }});
    cases.push_back({REMORA_OP_BOR, [](T a, T b, T) { return static_cast<T>(a | b); }});
    cases.push_back({REMORA_OP_BXOR, [](T a, T b, T) { return static_cast<T>(a ^ b); }});
    cases.push_back({REMORA_OP_LAND, [](T a, T b, T) { return static_cast<T>(a && b); }});
    cases.push_back({REMORA_OP_LOR, [](T a, T b, T) { return static_cast<T>(a || b); }});
    cases.push_back({REMORA_OP_LXOR, [](T a, T b, T) { return static_cast<T>(!a != !b); }});
  }
  for (const Case& c : cases) {
    std::vector<T> result = target;
    apply_op(c.op, type, result.data(), source.data(), result.size(), &alpha);
    for (size_t i = 0; i < result.size(); ++i)
      EXPECT_EQ(result[i], c.reference(target[i], source[i], alpha))
          << op_name(c.op) << " [" << i << "]";
  }
}

TEST(ReduceOp, EveryOpOfEveryRealTypeMatchesAScalarReference) {
  expect_ops<int8_t>(REMORA_INT8, {1, -5, 0, 7}, {3, 2, 0, -7}, 2);
  expect_ops<int16_t>(REMORA_INT16, {100, -5, 0, 7}, {3, 200, 9, -7}, -3);
  expect_ops<int32_t>(REMORA_INT32, {1, -5, 0, 1 << 20}, {3, 2, 5, -7}, 4);
  expect_ops<int64_t>(REMORA_INT64, {1, -5, 0, int64_t{1} << 40}, {3, 2, 0, -7}, 5);
  expect_ops<uint8_t>(REMORA_UINT8, {1, 200, 0, 7}, {3, 2, 0, 250}, 2);
  expect_ops<uint16_t>(REMORA_UINT16, {1, 60000, 0, 7}, {3, 2, 9, 7}, 3);
  expect_ops<uint32_t>(REMORA_UINT32, {1, 5, 0, 7}, {3, 2, 0, 7}, 6);
  expect_ops<uint64_t>(REMORA_UINT64, {1, 5, 0, 7}, {3, 2, 0, 7}, 7);
  expect_ops<float>(REMORA_FLOAT, {1.5f, -2, 0, 8}, {0.25f, 3, -1, 8}, 0.5f);
  expect_ops<double>(REMORA_DOUBLE, {1.5, -2, 0, 8}, {0.25, 3, -1, 8}, -2.0);
}

TEST(ReduceOp, ComplexSumProdScaledSum) {
  using C = std::complex<double>;
  std::vector<C> target = {{1, 2}, {0, 1}}, source = {{3, -1}, {0, 1}};
  const C alpha{0, 2};
  std::vector<C> result = target;
  apply_op(REMORA_OP_PROD, REMORA_DOUBLE_COMPLEX, result.data(), source.data(), 2);
  EXPECT_EQ(result[0], C(5, 5));
  EXPECT_EQ(result[1], C(-1, 0));
  result = target;
  apply_op(REMORA_OP_SCALED_SUM, REMORA_DOUBLE_COMPLEX, result.data(), source.data(), 2, &alpha);
  EXPECT_EQ(result[0], C(1, 2) + alpha * C(3, -1));
  using F = std::complex<float>;
  std::vector<F> ft = {{1, 1}}, fs = {{2, -3}};
  apply_op(REMORA_OP_SUM, REMORA_FLOAT_COMPLEX, ft.data(), fs.data(), 1);
  EXPECT_EQ(ft[0], F(3, -2));
}

TEST(ReduceOp, SignedIntegersWrapInsteadOfOverflowing) {
  int64_t target = std::numeric_limits<int64_t>::max(), one = 1;
  apply_op(REMORA_OP_SUM, REMORA_INT64, &target, &one, 1);
  EXPECT_EQ(target, std::numeric_limits<int64_t>::min());
  int8_t small = 100, factor = 3;
  apply_op(REMORA_OP_PROD, REMORA_INT8, &small, &factor, 1);
  EXPECT_EQ(small, static_cast<int8_t>(44));  // 300 mod 256
}

TEST(ReduceOp, UnalignedBuffersWork) {
  alignas(8) unsigned char target[1 + 3 * 8] = {}, source[2 + 3 * 8] = {};
  const double a[3] = {1, 2, 3}, b[3] = {10, 20, 30};
  std::memcpy(target + 1, a, sizeof a);
  std::memcpy(source + 2, b, sizeof b);
  apply_op(REMORA_OP_SUM, REMORA_DOUBLE, target + 1, source + 2, 3);
  double out[3];
  std::memcpy(out, target + 1, sizeof out);
  EXPECT_EQ(out[0], 11);
  EXPECT_EQ(out[2], 33);
}

// Sets the kernel policy for a scope and restores the previous one.
class KernelScope {
 public:
  explicit KernelScope(KernelPolicy policy) : saved_(kernel_policy()) {
    EXPECT_TRUE(set_kernel_policy(policy)) << kernel_width_name(policy.wide);
  }
  ~KernelScope() { set_kernel_policy(saved_); }

 private:
  KernelPolicy saved_;
};

// Element bytes for `type`: integers any bits; floats small integers and halves, with a NaN,
// infinities and signed zeros among them (MIN/MAX and sums of them must agree bitwise too).
std::vector<unsigned char> element_bytes(int type, size_t count, uint32_t seed) {
  const size_t size = datatype_size(type);
  std::vector<unsigned char> bytes(count * size);
  uint32_t state = seed;
  auto next = [&state] { return state = state * 1664525u + 1013904223u; };
  const double specials[] = {std::numeric_limits<double>::quiet_NaN(),
                             std::numeric_limits<double>::infinity(), -0.0, 0.0};
  for (size_t i = 0; i < count; ++i) {
    unsigned char* at = bytes.data() + i * size;
    const uint32_t r = next();
    const double value = i % 13 == 5 ? specials[(r >> 8) % 4] : static_cast<int>(r % 64) / 2.0 - 8;
    if (type == REMORA_DOUBLE) {
      std::memcpy(at, &value, 8);
    } else if (type == REMORA_FLOAT) {
      const auto f = static_cast<float>(value);
      std::memcpy(at, &f, 4);
    } else {
      for (size_t b = 0; b < size; ++b) at[b] = static_cast<unsigned char>(next() >> 13);
    }
  }
  return bytes;
}

// bytes at offset `at` of a buffer 3 bytes longer (to misalign operands apart).
std::vector<unsigned char> placed(const std::vector<unsigned char>& bytes, size_t at) {
  std::vector<unsigned char> buffer(bytes.size() + 3);
  // A loop: count 0 leaves the vectors empty, their data() null (memcpy's UB), and GCC 12 at
  // -O3 takes std::copy's memmove bound for a huge one (-Wstringop-overflow).
  for (size_t i = 0; i < bytes.size(); ++i) buffer[at + i] = bytes[i];
  return buffer;
}

TEST(ReduceOp, EveryKernelWidthGivesTheBaselinesBits) {
  const int real_types[] = {REMORA_INT8,  REMORA_INT16,  REMORA_INT32,  REMORA_INT64,
                            REMORA_UINT8, REMORA_UINT16, REMORA_UINT32, REMORA_UINT64,
                            REMORA_FLOAT, REMORA_DOUBLE};
  const size_t counts[] = {0, 1, 3, 7, 8, 9, 15, 16, 17, 31, 33, 64, 65, 257, 1000};
  for (KernelWidth width : {KernelWidth::Avx2, KernelWidth::Avx512}) {
    if (!kernel_supported(width)) continue;  // this CPU: the baseline is the only width
    for (int type : real_types)
      for (int op = REMORA_OP_SUM; op <= REMORA_OP_SCALED_SUM; ++op) {
        if (check_op("test", op, type) != REMORA_SUCCESS) continue;
        const size_t size = datatype_size(type);
        for (size_t count : counts)
          for (size_t shift = 0; shift < 3; ++shift) {  // target and source misaligned apart
            const auto target = element_bytes(type, count, static_cast<uint32_t>(op * 7 + count));
            const auto source = element_bytes(type, count, static_cast<uint32_t>(count + 99));
            auto base = placed(target, shift), wide = placed(target, shift),
                 in = placed(source, 2 - shift);
            const std::vector<unsigned char> alpha = element_bytes(type, 1, 5);
            {
              KernelScope scope({KernelWidth::Base, 0});
              apply_op(op, type, base.data() + shift, in.data() + 2 - shift, count, alpha.data());
            }
            {
              KernelScope scope({width, 0});
              apply_op(op, type, wide.data() + shift, in.data() + 2 - shift, count, alpha.data());
            }
            EXPECT_EQ(std::memcmp(base.data(), wide.data(), base.size()), 0)
                << kernel_width_name(width) << " " << datatype_name(type) << " " << op_name(op)
                << " count " << count << " size " << size << " shift " << shift;
          }
      }
  }
}

// A single row below the wide threshold takes the loop that is not vectorised (apply_short_row):
// it gives the vectorised baseline loop's bits for every type (complex ones too) and valid op,
// NaNs, infinities and signed zeros included, misaligned; and a patch of two rows, which keeps
// the vector loop, agrees with it row by row.
TEST(ReduceOp, ShortRowsGiveTheVectorLoopsBits) {
  const int types[] = {REMORA_INT8,  REMORA_INT16,  REMORA_INT32,         REMORA_INT64,
                       REMORA_UINT8, REMORA_UINT16, REMORA_UINT32,        REMORA_UINT64,
                       REMORA_FLOAT, REMORA_DOUBLE, REMORA_FLOAT_COMPLEX, REMORA_DOUBLE_COMPLEX};
  const size_t counts[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 17, 33};
  for (int type : types)
    for (int op = REMORA_OP_SUM; op <= REMORA_OP_SCALED_SUM; ++op) {
      if (check_op("test", op, type) != REMORA_SUCCESS) continue;
      for (size_t count : counts)
        for (size_t shift = 0; shift < 3; ++shift) {
          const auto target = element_bytes(type, count, static_cast<uint32_t>(op * 5 + count));
          const auto source = element_bytes(type, count, static_cast<uint32_t>(count + 7));
          auto vector = placed(target, shift), scalar = placed(target, shift),
               in = placed(source, 2 - shift);
          const std::vector<unsigned char> alpha = element_bytes(type, 1, 3);
          {
            KernelScope scope({KernelWidth::Base, 0});  // every row vectorised
            apply_op(op, type, vector.data() + shift, in.data() + 2 - shift, count, alpha.data());
          }
          {
            KernelScope scope({KernelWidth::Base, size_t{1} << 30});  // every row short
            apply_op(op, type, scalar.data() + shift, in.data() + 2 - shift, count, alpha.data());
          }
          EXPECT_EQ(std::memcmp(vector.data(), scalar.data(), vector.size()), 0)
              << datatype_name(type) << " " << op_name(op) << " count " << count << " shift "
              << shift;
        }
    }
  // Two rows of 3 doubles (a patch): the vector loop, the same sums as one short row each.
  KernelScope scope({KernelWidth::Base, size_t{1} << 30});
  double rows[6] = {1, 2, 3, 4, 5, 6}, row[3] = {1, 2, 3};
  const double add[3] = {0.5, 0.25, 0.125};
  apply_op_rows(REMORA_OP_SUM, REMORA_DOUBLE, rows, 3 * sizeof(double), add, 0, 3, 2);
  apply_op(REMORA_OP_SUM, REMORA_DOUBLE, row, add, 3);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(rows[i], row[i]) << i;
    EXPECT_EQ(rows[3 + i], 4 + i + add[i]) << i;
  }
}

// apply_op's own dispatch for sums of doubles, int64, floats and int32 gives the bits of the
// general path (apply_op_rows of one row), NaNs, infinities and signed zeros included, at
// every count to three times the wide kernels' threshold (both widths), misaligned.
TEST(ReduceOp, CommonSumsGiveTheGeneralPathsBits) {
  KernelScope scope({widest_kernel(), kDefaultWideMinBytes});
  for (int type : {REMORA_DOUBLE, REMORA_INT64, REMORA_FLOAT, REMORA_INT32, REMORA_INT16}) {
    const size_t size = datatype_size(type);
    for (size_t count = 0; count * size <= 3 * kDefaultWideMinBytes; ++count)
      for (size_t shift = 0; shift < 3; ++shift) {
        const auto target = element_bytes(type, count, static_cast<uint32_t>(count + 3));
        const auto source = element_bytes(type, count, static_cast<uint32_t>(count + 41));
        auto fast = placed(target, shift), general = placed(target, shift),
             in = placed(source, 2 - shift);
        apply_op(REMORA_OP_SUM, type, fast.data() + shift, in.data() + 2 - shift, count);
        apply_op_rows(REMORA_OP_SUM, type, general.data() + shift, 0, in.data() + 2 - shift, 0,
                      count, 1);
        EXPECT_EQ(std::memcmp(fast.data(), general.data(), fast.size()), 0)
            << datatype_name(type) << " count " << count << " shift " << shift;
        if (type == REMORA_INT64 && count > 0) {  // and the sums themselves
          int64_t a, b, sum;
          std::memcpy(&a, target.data(), 8);
          std::memcpy(&b, source.data(), 8);
          std::memcpy(&sum, fast.data() + shift, 8);
          EXPECT_EQ(static_cast<uint64_t>(sum),
                    static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
        }
      }
  }
}

TEST(ReduceOp, WideKernelsSumRowsExactly) {
  // Rows above the threshold take the widest kernel (the default policy): integer-valued
  // doubles sum exactly, including the remainder after the last full vector.
  KernelScope scope({widest_kernel(), 8});
  for (size_t count : {size_t{1}, size_t{13}, size_t{130}, size_t{4099}}) {
    std::vector<double> target(count), source(count);
    for (size_t i = 0; i < count; ++i) {
      target[i] = static_cast<double>(i);
      source[i] = static_cast<double>(3 * i + 1);
    }
    apply_op_rows(REMORA_OP_SUM, REMORA_DOUBLE, target.data(), 0, source.data(), 0, count, 2);
    for (size_t i = 0; i < count; ++i) ASSERT_EQ(target[i], static_cast<double>(7 * i + 2)) << i;
  }
}

TEST(ReduceOp, KernelWidthNames) {
  KernelWidth width = KernelWidth::Base;
  EXPECT_TRUE(parse_kernel_width("avx512", &width));
  EXPECT_EQ(width, KernelWidth::Avx512);
  EXPECT_STREQ(kernel_width_name(KernelWidth::Avx2), "avx2");
  EXPECT_FALSE(parse_kernel_width("auto", &width));
  EXPECT_TRUE(kernel_supported(KernelWidth::Base));
  EXPECT_TRUE(kernel_supported(widest_kernel()));
  // The measured threshold is stated twice: the policy before remora_init and the variable's
  // default.
  EXPECT_EQ(default_config().acc_kernel_min_bytes, kDefaultWideMinBytes);
}

}  // namespace
}  // namespace remora::rma
