// fetch_and_op of one element as one function per (element type, op), for the inline fast path
// of remora_win_fetch_and_op (and of a one-element get_accumulate without alpha): the entry
// points check their arguments inline and then call (a tail call) the table's function, so a
// valid call in an immediate passive epoch runs no switch on the type or the op and needs no
// stack frame (Window::fetch_and_op). Two tables: the lock table in place (the caller has taken
// the element's stripe; the function updates the element and releases the stripe) and CPU
// atomics (native_atomics.cpp). A null entry means the op does not apply to the type (check_op
// would refuse it) or, for CPU atomics, the element is too large: the general path then reports
// or applies it.
#pragma once

#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "remora/types.h"
#include "rma/combine.hpp"

namespace remora::rma {

class LockTable;

// The C++ type of each remora_datatype_t, indexed by its value (0 is none).
using ElementTypes =
    std::tuple<void, int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t,
               float, double, std::complex<float>, std::complex<double>>;
static_assert(REMORA_INT8 == 1 && REMORA_UINT8 == 5 && REMORA_FLOAT == 9 &&
              REMORA_DOUBLE_COMPLEX == 12);
inline constexpr size_t kElementTypes = std::tuple_size_v<ElementTypes>;
// fetch_and_op takes every op but REMORA_OP_SCALED_SUM, the last one.
inline constexpr size_t kFetchOps = REMORA_OP_NO_OP + 1;
static_assert(REMORA_OP_SCALED_SUM == REMORA_OP_NO_OP + 1);

// Whether Op applies to T (check_op's rule): bitwise and logical ops need integers, MIN and MAX
// real values.
template <typename T, int Op>
inline constexpr bool kFetchApplies =
    Op >= REMORA_OP_SUM&& Op <= REMORA_OP_NO_OP &&
    !(Op >= REMORA_OP_BAND && Op <= REMORA_OP_LXOR && !std::is_integral_v<T>)&&!(
        (Op == REMORA_OP_MIN || Op == REMORA_OP_MAX) && is_complex<T>::value);

// The element at `element`, whose stripe `stripe` of `table` the caller holds (taken in place,
// LockTable::try_lock_element): *result = old value, element = old op *origin (origin unread
// for REMORA_OP_NO_OP); then the stripe is released (LockTable::unlock_element). Returns
// REMORA_SUCCESS.
using HeldFetch = int (*)(LockTable& table, int64_t stripe, unsigned char* element,
                          const void* origin, void* result);
// The same with one CPU atomic on an element of at most 8 bytes at an address aligned to its
// size (native_capable).
using NativeFetch = int (*)(unsigned char* element, const void* origin, void* result);

template <typename Fn>
using FetchTable = std::array<std::array<Fn, kFetchOps>, kElementTypes>;
extern const FetchTable<HeldFetch> kHeldFetch;      // element_fetch.cpp
extern const FetchTable<NativeFetch> kNativeFetch;  // native_atomics.cpp

// The entry of (type, op), or nullptr (any int is accepted).
template <typename Fn>
inline Fn fetch_entry(const FetchTable<Fn>& table, int type, int op) {
  if (static_cast<unsigned>(type) >= kElementTypes || static_cast<unsigned>(op) >= kFetchOps)
    return nullptr;
  return table[static_cast<size_t>(type)][static_cast<size_t>(op)];
}

// A table of &Entry<T, Op>::run for every (type, op) that applies and for which
// Entry<T, Op>::kAvailable, else nullptr.
template <typename Fn, template <typename, int> class Entry, size_t Type, int Op>
constexpr Fn fetch_cell() {
  if constexpr (Type == 0) {
    return nullptr;
  } else {
    using T = std::tuple_element_t<Type, ElementTypes>;
    if constexpr (kFetchApplies<T, Op> && Entry<T, Op>::kAvailable)
      return &Entry<T, Op>::run;
    else
      return nullptr;
  }
}

template <typename Fn, template <typename, int> class Entry, size_t Type, size_t... Ops>
constexpr std::array<Fn, kFetchOps> fetch_row(std::index_sequence<Ops...>) {
  return {fetch_cell<Fn, Entry, Type, static_cast<int>(Ops)>()...};
}

template <typename Fn, template <typename, int> class Entry, size_t... Types>
constexpr FetchTable<Fn> fetch_rows(std::index_sequence<Types...>) {
  return {fetch_row<Fn, Entry, Types>(std::make_index_sequence<kFetchOps>{})...};
}

template <typename Fn, template <typename, int> class Entry>
constexpr FetchTable<Fn> make_fetch_table() {
  return fetch_rows<Fn, Entry>(std::make_index_sequence<kElementTypes>{});
}

}  // namespace remora::rma
