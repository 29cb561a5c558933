#include "rma/reduce_op.hpp"

#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "core/config.hpp"
#include "core/error.hpp"
#include "rma/combine.hpp"

namespace remora::rma {
namespace {

// Rows of count elements: row r at out + r * out_stride and in + r * in_stride (bytes). One
// row is the contiguous case; the inner loop is the same (and vectorised) either way.
struct Rows {
  size_t rows = 1;
  size_t out_stride = 0;
  size_t in_stride = 0;
};

// The loop itself, inlined into one function per kernel width (below).
// Element i of a row: every loop below is this step, so every loop gives the same bits.
template <int Op, typename T>
[[gnu::always_inline]] inline void apply_element(unsigned char* out, const unsigned char* in,
                                                 size_t i, T alpha) {
  T a, b;
  std::memcpy(&a, out + i * sizeof(T), sizeof(T));
  std::memcpy(&b, in + i * sizeof(T), sizeof(T));
  const T result = combine<Op, T>(a, b, alpha);
  std::memcpy(out + i * sizeof(T), &result, sizeof(T));
}

template <int Op, typename T>
[[gnu::always_inline]] inline void apply_rows(unsigned char* out, const unsigned char* in,
                                              size_t count, T alpha, Rows shape) {
  for (size_t r = 0; r < shape.rows; ++r, out += shape.out_stride, in += shape.in_stride)
    for (size_t i = 0; i < count; ++i) apply_element<Op, T>(out, in, i, alpha);
}

template <int Op, typename T>
void apply_loop(unsigned char* out, const unsigned char* in, size_t count, T alpha, Rows shape) {
  apply_rows<Op, T>(out, in, count, alpha, shape);
}

// One short row (below the wide loops' threshold: a few elements of a small accumulate) without
// the vectorised loop's overlap test, unrolled copies and remainder, which cost more than the
// elements do: 4 doubles took 61 instructions in apply_loop against about 30 here (callgrind,
// Release, 2026-11-28). The same element step as every loop here, so the same bits.
#if defined(__GNUC__) && !defined(__clang__)
#define REMORA_NOT_VECTORISED [[gnu::optimize("no-tree-vectorize")]]
#else
#define REMORA_NOT_VECTORISED  // other compilers: the same bits, maybe vectorised
#endif
template <int Op, typename T>
REMORA_NOT_VECTORISED void apply_short_row(unsigned char* out, const unsigned char* in,
                                           size_t count, T alpha) {
  for (size_t i = 0; i < count; ++i) apply_element<Op, T>(out, in, i, alpha);
}

// The same loop compiled for wider vectors than the build's baseline (SSE2 on x86-64), as Open
// MPI's op/avx component does: the one difference from osc/sm at 8-512 KiB (docs/rma.md,
// "Reduction kernels"). Only where the width cannot change a result: an elementwise op with no
// multiply-add the compiler could contract into an FMA (AVX-512 implies FMA), i.e. real types
// and every op but SCALED_SUM.
template <int Op, typename T>
constexpr bool kWidthNeutral = !is_complex<T>::value && Op != REMORA_OP_SCALED_SUM;

#if defined(__x86_64__) && defined(__GNUC__)
#define REMORA_WIDE_KERNELS 1
template <int Op, typename T>
[[gnu::target("avx2")]] void apply_loop_avx2(unsigned char* out, const unsigned char* in,
                                             size_t count, T alpha, Rows shape) {
  apply_rows<Op, T>(out, in, count, alpha, shape);
}
template <int Op, typename T>
[[gnu::target("avx512f,avx512bw,avx512dq,avx512vl,prefer-vector-width=512")]] void
apply_loop_avx512(unsigned char* out, const unsigned char* in, size_t count, T alpha, Rows shape) {
  apply_rows<Op, T>(out, in, count, alpha, shape);
}
#endif

bool cpu_has(KernelWidth width) {
#ifdef REMORA_WIDE_KERNELS
  __builtin_cpu_init();  // may run before main (kernel_policy's initialiser)
  switch (width) {
    case KernelWidth::Base:
      return true;
    case KernelWidth::Avx2:
      return __builtin_cpu_supports("avx2");
    case KernelWidth::Avx512:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
  }
  return false;
#else
  return width == KernelWidth::Base;
#endif
}

KernelWidth widest_on_cpu() {
  if (cpu_has(KernelWidth::Avx512)) return KernelWidth::Avx512;
  if (cpu_has(KernelWidth::Avx2)) return KernelWidth::Avx2;
  return KernelWidth::Base;
}

constexpr const char* kWidthNames[] = {"base", "avx2", "avx512"};

// Read on every apply_op call; written by set_kernel_policy at remora_init (before any
// window or communicator exists) and by tests.
KernelPolicy g_policy{widest_on_cpu(), kDefaultWideMinBytes};

// The loop of the policy's width for these rows.
template <int Op, typename T>
void apply_width(unsigned char* out, const unsigned char* in, size_t count, T scale, Rows shape) {
  // Narrow rows stay on the baseline loop (one narrow row: not vectorised at all): below the
  // measured threshold the wide loop's set-up and remainder cost more than its width saves.
  if (shape.rows == 1 && count * sizeof(T) < g_policy.wide_min_bytes)
    return apply_short_row<Op, T>(out, in, count, scale);
#ifdef REMORA_WIDE_KERNELS
  if constexpr (kWidthNeutral<Op, T>) {
    if (count * sizeof(T) >= g_policy.wide_min_bytes) {
      if (g_policy.wide == KernelWidth::Avx512)
        return apply_loop_avx512<Op, T>(out, in, count, scale, shape);
      if (g_policy.wide == KernelWidth::Avx2)
        return apply_loop_avx2<Op, T>(out, in, count, scale, shape);
    }
  }
#endif
  apply_loop<Op, T>(out, in, count, scale, shape);
}

template <typename T>
void apply_typed(int op, void* target, const void* source, size_t count, const void* alpha,
                 Rows shape = {}) {
  T scale{};
  if (alpha != nullptr) std::memcpy(&scale, alpha, sizeof(T));
  auto* out = static_cast<unsigned char*>(target);
  const auto* in = static_cast<const unsigned char*>(source);
  // REMORA_OP_NO_OP leaves the target as it is.
  visit_op(op, [&](auto Op) { apply_width<decltype(Op)::value, T>(out, in, count, scale, shape); });
}

template <typename T>
void update_one_typed(int op, void* target, const void* origin, const void* compare, void* result,
                      const void* alpha) {
  T old;
  std::memcpy(&old, target, sizeof(T));
  if (result != nullptr) std::memcpy(result, &old, sizeof(T));
  if (compare != nullptr) {  // bitwise, as the lock table's compare_and_swap
    if (std::memcmp(&old, compare, sizeof(T)) == 0) std::memcpy(target, origin, sizeof(T));
    return;
  }
  if (op == REMORA_OP_NO_OP) return;
  T source, scale{};
  std::memcpy(&source, origin, sizeof(T));
  if (alpha != nullptr) std::memcpy(&scale, alpha, sizeof(T));
  visit_op(op, [&](auto Op) {
    const T updated = combine<decltype(Op)::value, T>(old, source, scale);
    std::memcpy(target, &updated, sizeof(T));
  });
}

bool is_integer(int type) {
  return type >= REMORA_INT8 && type <= REMORA_UINT64;
}
bool is_complex_type(int type) {
  return type == REMORA_FLOAT_COMPLEX || type == REMORA_DOUBLE_COMPLEX;
}

}  // namespace

const char* datatype_name(int type) {
  static const char* const names[] = {"?",      "INT8",          "INT16",         "INT32",  "INT64",
                                      "UINT8",  "UINT16",        "UINT32",        "UINT64", "FLOAT",
                                      "DOUBLE", "FLOAT_COMPLEX", "DOUBLE_COMPLEX"};
  return datatype_size(type) != 0 ? names[type] : "?";
}

const char* op_name(int op) {
  static const char* const names[] = {"?",    "SUM",     "PROD",  "MIN",       "MAX",
                                      "BAND", "BOR",     "BXOR",  "LAND",      "LOR",
                                      "LXOR", "REPLACE", "NO_OP", "SCALED_SUM"};
  return op >= REMORA_OP_SUM && op <= REMORA_OP_SCALED_SUM ? names[op] : "?";
}

namespace {

bool known_op(int op) {
  return op >= REMORA_OP_SUM && op <= REMORA_OP_SCALED_SUM;
}

// For a known op and type: bitwise and logical ops need integers, ordering needs real values.
bool op_applies(int op, int type) {
  const bool bitwise_or_logical = op >= REMORA_OP_BAND && op <= REMORA_OP_LXOR;
  const bool ordering = op == REMORA_OP_MIN || op == REMORA_OP_MAX;
  return !(bitwise_or_logical && !is_integer(type)) && !(ordering && is_complex_type(type));
}

}  // namespace

bool op_valid_for(int op, int type) {
  return datatype_size(type) != 0 && known_op(op) && op_applies(op, type);
}

int check_op(const char* function, int op, int type) {
  if (datatype_size(type) == 0)
    return fail(REMORA_ERR_ARG, "%s: type=%d is not a remora_datatype_t", function, type);
  if (!known_op(op)) return fail(REMORA_ERR_ARG, "%s: op=%d is not a remora_op_t", function, op);
  if (!op_applies(op, type))
    return fail(REMORA_ERR_ARG, "%s: op=REMORA_OP_%s is not valid for type=REMORA_%s", function,
                op_name(op), datatype_name(type));
  return REMORA_SUCCESS;
}

bool kernel_supported(KernelWidth width) {
  return cpu_has(width);
}

KernelWidth widest_kernel() {
  return widest_on_cpu();
}

const char* kernel_width_name(KernelWidth width) {
  return kWidthNames[static_cast<int>(width)];
}

bool parse_kernel_width(std::string_view name, KernelWidth* width) {
  for (int w = 0; w < 3; ++w)
    if (name == kWidthNames[w]) {
      *width = static_cast<KernelWidth>(w);
      return true;
    }
  return false;
}

KernelPolicy kernel_policy() {
  return g_policy;
}

bool set_kernel_policy(KernelPolicy policy) {
  if (!cpu_has(policy.wide)) return false;
  g_policy = policy;
  return true;
}

int configure_kernel(const Config& config) {
  KernelPolicy policy{widest_on_cpu(), config.acc_kernel_min_bytes};
  if (config.acc_kernel != "auto" && !parse_kernel_width(config.acc_kernel, &policy.wide))
    return fail(REMORA_ERR_CONFIG, "REMORA_ACC_KERNEL=%s is not auto|base|avx2|avx512",
                config.acc_kernel.c_str());
  if (!set_kernel_policy(policy))
    return fail(REMORA_ERR_CONFIG, "REMORA_ACC_KERNEL=%s: this CPU (or build) lacks it; widest: %s",
                config.acc_kernel.c_str(), kernel_width_name(widest_on_cpu()));
  return REMORA_SUCCESS;
}

// apply_op and update_one switch on the type each: one visitor (a generic lambda) for both cost
// 5-10% of acc_bandwidth at 8-512 B (Release, three interleaved runs, 2026-11-26).
namespace {

void apply_shaped(int op, int type, void* target, const void* source, size_t count,
                  const void* alpha, Rows shape) {
  switch (type) {
    case REMORA_INT8:
      return apply_typed<int8_t>(op, target, source, count, alpha, shape);
    case REMORA_INT16:
      return apply_typed<int16_t>(op, target, source, count, alpha, shape);
    case REMORA_INT32:
      return apply_typed<int32_t>(op, target, source, count, alpha, shape);
    case REMORA_INT64:
      return apply_typed<int64_t>(op, target, source, count, alpha, shape);
    case REMORA_UINT8:
      return apply_typed<uint8_t>(op, target, source, count, alpha, shape);
    case REMORA_UINT16:
      return apply_typed<uint16_t>(op, target, source, count, alpha, shape);
    case REMORA_UINT32:
      return apply_typed<uint32_t>(op, target, source, count, alpha, shape);
    case REMORA_UINT64:
      return apply_typed<uint64_t>(op, target, source, count, alpha, shape);
    case REMORA_FLOAT:
      return apply_typed<float>(op, target, source, count, alpha, shape);
    case REMORA_DOUBLE:
      return apply_typed<double>(op, target, source, count, alpha, shape);
    case REMORA_FLOAT_COMPLEX:
      return apply_typed<std::complex<float>>(op, target, source, count, alpha, shape);
    case REMORA_DOUBLE_COMPLEX:
      return apply_typed<std::complex<double>>(op, target, source, count, alpha, shape);
    default:
      return;
  }
}

// Sums of the common element types (accumulates of doubles, GA's patches): straight to the
// loop of the policy's width, without apply_typed's alpha and op visitor, which cost about
// as much as the loop itself at 32 B (callgrind, Release: 372 -> 299 instructions per
// remora_win_accumulate of 4 doubles). The same loops as theirs, so the same bits.
template <typename T>
void sum(void* target, const void* source, size_t count) {
  apply_width<REMORA_OP_SUM, T>(static_cast<unsigned char*>(target),
                                static_cast<const unsigned char*>(source), count, T{}, Rows{});
}

bool apply_common_sum(int type, void* target, const void* source, size_t count) {
  switch (type) {
    case REMORA_DOUBLE:
      sum<double>(target, source, count);
      return true;
    case REMORA_INT64:
      sum<int64_t>(target, source, count);
      return true;
    case REMORA_FLOAT:
      sum<float>(target, source, count);
      return true;
    case REMORA_INT32:
      sum<int32_t>(target, source, count);
      return true;
    default:
      return false;
  }
}

}  // namespace

void apply_op(int op, int type, void* target, const void* source, size_t count, const void* alpha) {
  if (op == REMORA_OP_SUM && apply_common_sum(type, target, source, count)) return;
  apply_shaped(op, type, target, source, count, alpha, Rows{});
}

void apply_op_rows(int op, int type, void* target, size_t target_stride, const void* source,
                   size_t source_stride, size_t count, size_t rows, const void* alpha) {
  apply_shaped(op, type, target, source, count, alpha, Rows{rows, target_stride, source_stride});
}

void update_one(int op, int type, void* target, const void* origin, const void* compare,
                void* result, const void* alpha) {
  switch (type) {
    case REMORA_INT8:
      return update_one_typed<int8_t>(op, target, origin, compare, result, alpha);
    case REMORA_INT16:
      return update_one_typed<int16_t>(op, target, origin, compare, result, alpha);
    case REMORA_INT32:
      return update_one_typed<int32_t>(op, target, origin, compare, result, alpha);
    case REMORA_INT64:
      return update_one_typed<int64_t>(op, target, origin, compare, result, alpha);
    case REMORA_UINT8:
      return update_one_typed<uint8_t>(op, target, origin, compare, result, alpha);
    case REMORA_UINT16:
      return update_one_typed<uint16_t>(op, target, origin, compare, result, alpha);
    case REMORA_UINT32:
      return update_one_typed<uint32_t>(op, target, origin, compare, result, alpha);
    case REMORA_UINT64:
      return update_one_typed<uint64_t>(op, target, origin, compare, result, alpha);
    case REMORA_FLOAT:
      return update_one_typed<float>(op, target, origin, compare, result, alpha);
    case REMORA_DOUBLE:
      return update_one_typed<double>(op, target, origin, compare, result, alpha);
    case REMORA_FLOAT_COMPLEX:
      return update_one_typed<std::complex<float>>(op, target, origin, compare, result, alpha);
    case REMORA_DOUBLE_COMPLEX:
      return update_one_typed<std::complex<double>>(op, target, origin, compare, result, alpha);
    default:
      return;
  }
}

}  // namespace remora::rma
