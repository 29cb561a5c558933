// One element of `target op source` for every reduction operator and element type, with the
// op as a template argument (combine<Op, T>) so that loops over it hold no branch and
// vectorise. Shared by the plain kernels (rma/reduce_op.cpp) and the CPU-atomic ones
// (rma/accumulate/native_atomics.cpp), so that both compute exactly the same result.
#pragma once

#include <algorithm>
#include <complex>
#include <type_traits>
#include <utility>

#include "remora/types.h"

namespace remora::rma {

template <typename T>
struct is_complex : std::false_type {};
template <typename T>
struct is_complex<std::complex<T>> : std::true_type {};

// Integer arithmetic wraps (two's complement) as it does in MPI implementations, without the
// undefined behaviour of signed overflow: compute in the unsigned type.
template <typename T>
T wrap_add(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
  } else {
    return a + b;
  }
}

template <typename T>
T wrap_mul(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    // Promote to at least unsigned int so that small types do not multiply as signed int.
    using P = std::common_type_t<U, unsigned int>;
    return static_cast<T>(
        static_cast<U>(static_cast<P>(static_cast<U>(a)) * static_cast<P>(static_cast<U>(b))));
  } else {
    return a * b;
  }
}

// One element of `target op source`; the op is a template argument so that a loop over it
// holds no branch and the compiler vectorises it (an accumulate of doubles runs at memory
// speed rather than at one switch per element).
template <int Op, typename T>
T combine(T target, T source, T alpha) {
  if constexpr (Op == REMORA_OP_SUM) return wrap_add(target, source);
  if constexpr (Op == REMORA_OP_PROD) return wrap_mul(target, source);
  if constexpr (Op == REMORA_OP_REPLACE) return source;
  if constexpr (Op == REMORA_OP_SCALED_SUM) return wrap_add(target, wrap_mul(alpha, source));
  if constexpr (!is_complex<T>::value) {
    if constexpr (Op == REMORA_OP_MIN) return std::min(target, source);
    if constexpr (Op == REMORA_OP_MAX) return std::max(target, source);
  }
  if constexpr (std::is_integral_v<T>) {
    if constexpr (Op == REMORA_OP_BAND) return static_cast<T>(target & source);
    if constexpr (Op == REMORA_OP_BOR) return static_cast<T>(target | source);
    if constexpr (Op == REMORA_OP_BXOR) return static_cast<T>(target ^ source);
    if constexpr (Op == REMORA_OP_LAND) return static_cast<T>((target != 0) && (source != 0));
    if constexpr (Op == REMORA_OP_LOR) return static_cast<T>((target != 0) || (source != 0));
    if constexpr (Op == REMORA_OP_LXOR) return static_cast<T>((target != 0) != (source != 0));
  }
  return target;  // REMORA_OP_NO_OP, and ops that check_op refuses for T
}

// Calls visit(std::integral_constant<int, Op>) for the run-time op (every op but
// REMORA_OP_NO_OP, for which it calls nothing): one switch, then code specialised for Op.
template <typename Visit>
void visit_op(int op, Visit&& visit) {
  using std::integral_constant;
  switch (op) {
    case REMORA_OP_SUM:
      return visit(integral_constant<int, REMORA_OP_SUM>{});
    case REMORA_OP_PROD:
      return visit(integral_constant<int, REMORA_OP_PROD>{});
    case REMORA_OP_MIN:
      return visit(integral_constant<int, REMORA_OP_MIN>{});
    case REMORA_OP_MAX:
      return visit(integral_constant<int, REMORA_OP_MAX>{});
    case REMORA_OP_BAND:
      return visit(integral_constant<int, REMORA_OP_BAND>{});
    case REMORA_OP_BOR:
      return visit(integral_constant<int, REMORA_OP_BOR>{});
    case REMORA_OP_BXOR:
      return visit(integral_constant<int, REMORA_OP_BXOR>{});
    case REMORA_OP_LAND:
      return visit(integral_constant<int, REMORA_OP_LAND>{});
    case REMORA_OP_LOR:
      return visit(integral_constant<int, REMORA_OP_LOR>{});
    case REMORA_OP_LXOR:
      return visit(integral_constant<int, REMORA_OP_LXOR>{});
    case REMORA_OP_REPLACE:
      return visit(integral_constant<int, REMORA_OP_REPLACE>{});
    case REMORA_OP_SCALED_SUM:
      return visit(integral_constant<int, REMORA_OP_SCALED_SUM>{});
    default:
      return;
  }
}

}  // namespace remora::rma
