// Accumulates with CPU atomics, one element at a time, directly on the target's mapped memory
// (std::atomic_ref: fetch_add/and/or/xor for integer sums and bitwise ops, exchange for
// REPLACE, load for NO_OP, else a compare-and-swap loop around combine<Op, T>). Only for
// elements of 1, 2, 4 or 8 bytes at an aligned address: those are lock-free and therefore
// atomic across processes. 16-byte elements are not (libatomic would use a
// lock private to each process), so they go through the lock table.
#pragma once

#include <cstddef>
#include <cstdint>

namespace remora::rma {

struct AccArgs;

// Whether an element of type at byte offset (of a page-aligned part) can use CPU atomics.
bool native_capable(int type, uint64_t offset);

// target[i] op= origin[i] for i < count, each element atomically; result[i] (if not null)
// receives the previous value. origin may be null for REMORA_OP_NO_OP.
void native_accumulate(int op, int type, void* target, const void* origin, void* result,
                       size_t count, const void* alpha);

// Stores *origin if *target equals *compare (bitwise); *result receives the previous value.
void native_compare_swap(int type, void* target, const void* origin, const void* compare,
                         void* result);

// One accumulate-family operation (accumulate, get_accumulate, fetch_and_op, compare_and_swap)
// with CPU atomics on a target part mapped at `part` (args.offset is into it).
void apply_native_at(void* part, const AccArgs& args);

}  // namespace remora::rma
