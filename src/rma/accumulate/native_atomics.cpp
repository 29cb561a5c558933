#include "rma/accumulate/native_atomics.hpp"

#include <atomic>
#include <bit>
#include <complex>
#include <cstring>
#include <type_traits>

#include "remora/status.h"
#include "rma/accumulate/acc_args.hpp"
#include "rma/accumulate/element_fetch.hpp"
#include "rma/combine.hpp"
#include "rma/reduce_op.hpp"

namespace remora::rma {
namespace {

template <typename Word>
Word read_word(const void* source) {
  Word value;
  std::memcpy(&value, source, sizeof(Word));
  return value;
}

// The unsigned word of the same size as T: the atomics work on its bits.
template <typename T>
using WordOf =
    std::conditional_t<sizeof(T) == 1, uint8_t,
                       std::conditional_t<sizeof(T) == 2, uint16_t,
                                          std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;

// Integer sums and bitwise ops have an atomic instruction of their own (two's complement: the
// unsigned word's wrap-around sum is the signed one's); every other op is a compare-and-swap
// loop around combine<Op, T>.
template <int Op, typename T>
constexpr bool kFetchInstruction = std::is_integral_v<T> &&
                                   (Op == REMORA_OP_SUM || Op == REMORA_OP_BAND ||
                                    Op == REMORA_OP_BOR || Op == REMORA_OP_BXOR);

template <int Op, typename T>
void accumulate_loop(void* target, const unsigned char* in, unsigned char* out, size_t count,
                     T alpha) {
  using Word = WordOf<T>;
  auto* words = static_cast<Word*>(target);
  for (size_t i = 0; i < count; ++i) {
    std::atomic_ref<Word> word(words[i]);
    const auto source = read_word<Word>(in + i * sizeof(Word));
    Word previous;
    if constexpr (Op == REMORA_OP_REPLACE) {
      previous = word.exchange(source);
    } else if constexpr (kFetchInstruction<Op, T> && Op == REMORA_OP_SUM) {
      previous = word.fetch_add(source);
    } else if constexpr (kFetchInstruction<Op, T> && Op == REMORA_OP_BAND) {
      previous = word.fetch_and(source);
    } else if constexpr (kFetchInstruction<Op, T> && Op == REMORA_OP_BOR) {
      previous = word.fetch_or(source);
    } else if constexpr (kFetchInstruction<Op, T> && Op == REMORA_OP_BXOR) {
      previous = word.fetch_xor(source);
    } else {
      const auto operand = std::bit_cast<T>(source);
      previous = word.load(std::memory_order_relaxed);
      while (!word.compare_exchange_weak(
          previous,
          std::bit_cast<Word>(combine<Op, T>(std::bit_cast<T>(previous), operand, alpha))))
        ;
    }
    if (out != nullptr) std::memcpy(out + i * sizeof(Word), &previous, sizeof(Word));
  }
}

template <typename T>
void accumulate_typed(int op, void* target, const void* origin, void* result, size_t count,
                      const void* alpha) {
  auto* out = static_cast<unsigned char*>(result);
  if (op == REMORA_OP_NO_OP) {  // a fetch: origin may be null
    auto* words = static_cast<WordOf<T>*>(target);
    for (size_t i = 0; i < count; ++i) {
      const auto value = std::atomic_ref<WordOf<T>>(words[i]).load();
      if (out != nullptr) std::memcpy(out + i * sizeof(T), &value, sizeof(T));
    }
    return;
  }
  T scale{};
  if (alpha != nullptr) std::memcpy(&scale, alpha, sizeof(T));
  const auto* in = static_cast<const unsigned char*>(origin);
  visit_op(
      op, [&](auto Op) { accumulate_loop<decltype(Op)::value, T>(target, in, out, count, scale); });
}

// kNativeFetch's functions: accumulate_typed's element for one (T, Op).
template <typename T, int Op>
struct NativeFetchEntry {
  static constexpr bool kAvailable = sizeof(T) <= 8;  // 16-byte elements are not lock-free
  static int run(unsigned char* element, const void* origin, void* result) {
    if constexpr (Op == REMORA_OP_NO_OP) {
      (void)origin;  // not read: a fetch
      const auto value = std::atomic_ref<WordOf<T>>(*reinterpret_cast<WordOf<T>*>(element)).load();
      std::memcpy(result, &value, sizeof(T));
    } else {
      accumulate_loop<Op, T>(element, static_cast<const unsigned char*>(origin),
                             static_cast<unsigned char*>(result), 1, T{});
    }
    return REMORA_SUCCESS;
  }
};

template <typename Word>
void compare_swap_word(void* target, const void* origin, const void* compare, void* result) {
  Word expected = read_word<Word>(compare);
  std::atomic_ref<Word>(*static_cast<Word*>(target))
      .compare_exchange_strong(expected, read_word<Word>(origin));
  std::memcpy(result, &expected, sizeof(Word));
}

}  // namespace

constinit const FetchTable<NativeFetch> kNativeFetch =
    make_fetch_table<NativeFetch, NativeFetchEntry>();

bool native_capable(int type, uint64_t offset) {
  const size_t size = datatype_size(type);
  return size >= 1 && size <= 8 && offset % size == 0;
}

void native_accumulate(int op, int type, void* target, const void* origin, void* result,
                       size_t count, const void* alpha) {
  switch (type) {
    case REMORA_INT8:
      return accumulate_typed<int8_t>(op, target, origin, result, count, alpha);
    case REMORA_INT16:
      return accumulate_typed<int16_t>(op, target, origin, result, count, alpha);
    case REMORA_INT32:
      return accumulate_typed<int32_t>(op, target, origin, result, count, alpha);
    case REMORA_INT64:
      return accumulate_typed<int64_t>(op, target, origin, result, count, alpha);
    case REMORA_UINT8:
      return accumulate_typed<uint8_t>(op, target, origin, result, count, alpha);
    case REMORA_UINT16:
      return accumulate_typed<uint16_t>(op, target, origin, result, count, alpha);
    case REMORA_UINT32:
      return accumulate_typed<uint32_t>(op, target, origin, result, count, alpha);
    case REMORA_UINT64:
      return accumulate_typed<uint64_t>(op, target, origin, result, count, alpha);
    case REMORA_FLOAT:
      return accumulate_typed<float>(op, target, origin, result, count, alpha);
    case REMORA_DOUBLE:
      return accumulate_typed<double>(op, target, origin, result, count, alpha);
    case REMORA_FLOAT_COMPLEX:
      return accumulate_typed<std::complex<float>>(op, target, origin, result, count, alpha);
    default:
      return;  // 16-byte elements are not native_capable
  }
}

void native_compare_swap(int type, void* target, const void* origin, const void* compare,
                         void* result) {
  switch (datatype_size(type)) {
    case 1:
      return compare_swap_word<uint8_t>(target, origin, compare, result);
    case 2:
      return compare_swap_word<uint16_t>(target, origin, compare, result);
    case 4:
      return compare_swap_word<uint32_t>(target, origin, compare, result);
    case 8:
      return compare_swap_word<uint64_t>(target, origin, compare, result);
    default:
      return;
  }
}

void apply_native_at(void* part, const AccArgs& args) {
  void* target = static_cast<unsigned char*>(part) + args.offset;
  if (args.compare != nullptr)
    native_compare_swap(args.type, target, args.origin, args.compare, args.result);
  else
    native_accumulate(args.op, args.type, target, args.origin, args.result, args.count, args.alpha);
}

}  // namespace remora::rma
