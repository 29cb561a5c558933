// Element types and reduction operators: the one place where `target op= source` is
// computed, for accumulates (RMA) and for reductions (collectives). Not atomic: callers that
// need per-element atomicity (concurrent accumulates) provide it around these kernels.
#pragma once

#include <cstddef>
#include <string_view>

#include "remora/types.h"

namespace remora {
struct Config;
}

namespace remora::rma {

// Bytes per element, or 0 for a value that is not a remora_datatype_t. Inline: every
// operation's argument check asks.
inline size_t datatype_size(int type) {
  switch (type) {
    case REMORA_INT8:
    case REMORA_UINT8:
      return 1;
    case REMORA_INT16:
    case REMORA_UINT16:
      return 2;
    case REMORA_INT32:
    case REMORA_UINT32:
    case REMORA_FLOAT:
      return 4;
    case REMORA_INT64:
    case REMORA_UINT64:
    case REMORA_DOUBLE:
    case REMORA_FLOAT_COMPLEX:
      return 8;
    case REMORA_DOUBLE_COMPLEX:
      return 16;
    default:
      return 0;
  }
}

const char* datatype_name(int type);
const char* op_name(int op);

// Whether `op` is a remora_op_t that applies to `type`, a remora_datatype_t; reports nothing.
bool op_valid_for(int op, int type);

// REMORA_SUCCESS, or REMORA_ERR_ARG with a message naming `function`, the op and the type.
int check_op(const char* function, int op, int type);

// The vector width of apply_op's loops (REMORA_ACC_KERNEL): the build's baseline, or the same
// loop compiled for AVX2 or AVX-512 and chosen at run time. Every width computes bit-identical
// results (the wide loops take only real types and ops other than SCALED_SUM).
enum class KernelWidth { Base, Avx2, Avx512 };

struct KernelPolicy {
  KernelWidth wide = KernelWidth::Base;  // for rows of at least wide_min_bytes
  size_t wide_min_bytes = 0;  // narrower rows: the baseline (one row: a loop not vectorised)
};

// Rows narrower than this stay on the baseline loop (REMORA_ACC_KERNEL_MIN_BYTES's default),
// measured by bench/acc_kernel_thresholds.sh (docs/benchmarks.md, "Reduction kernel widths").
inline constexpr size_t kDefaultWideMinBytes = 128;

// Whether this CPU runs `width` (and this build has it).
bool kernel_supported(KernelWidth width);
// The widest width kernel_supported.
KernelWidth widest_kernel();
// "base", "avx2", "avx512"; parse_kernel_width returns false for another name ("auto": the
// caller's, meaning widest_kernel()).
const char* kernel_width_name(KernelWidth width);
bool parse_kernel_width(std::string_view name, KernelWidth* width);
// The process's policy (initially widest_kernel() from kDefaultWideMinBytes). set_kernel_policy
// is called at remora_init, before any operation, and by tests; a width the CPU lacks is refused
// (returns false, policy unchanged).
KernelPolicy kernel_policy();
bool set_kernel_policy(KernelPolicy policy);
// set_kernel_policy from REMORA_ACC_KERNEL and REMORA_ACC_KERNEL_MIN_BYTES; REMORA_ERR_CONFIG
// naming the variable when the CPU lacks the width asked for.
int configure_kernel(const Config& config);

// target[i] = target[i] op source[i] for i < count. alpha (one element of `type`) is used by
// REMORA_OP_SCALED_SUM only. The op must be valid for the type (check_op). target and source
// may be unaligned.
void apply_op(int op, int type, void* target, const void* source, size_t count,
              const void* alpha = nullptr);

// apply_op on `rows` rows of count elements each: row r of the target at target + r *
// target_stride, of the source at source + r * source_stride (strides in bytes). One type and
// op dispatch for all rows (a patch accumulate updated in place).
void apply_op_rows(int op, int type, void* target, size_t target_stride, const void* source,
                   size_t source_stride, size_t count, size_t rows, const void* alpha = nullptr);

// One element of the accumulate family at target, not atomic (the caller holds its stripe):
// *result (if not null) receives the old value; then, with compare, origin replaces the target
// if the target equals *compare bitwise (compare_and_swap), else target = target op *origin
// (REMORA_OP_NO_OP: unchanged). The one-element path of Window::accumulate_in_place: one switch on
// the type and one on the op, no loop.
void update_one(int op, int type, void* target, const void* origin, const void* compare,
                void* result, const void* alpha);

}  // namespace remora::rma
