#include "rma/accumulate/native_atomics.hpp"

#include <atomic>
#include <cstring>

#include "rma/accumulate/acc_args.hpp"
#include "rma/reduce_op.hpp"

namespace remora::rma {
namespace {

template <typename Word>
Word read_word(const void* source) {
  Word value;
  std::memcpy(&value, source, sizeof(Word));
  return value;
}

template <typename Word>
void accumulate_words(int op, int type, void* target, const void* origin, void* result,
                      size_t count, const void* alpha) {
  auto* words = static_cast<Word*>(target);
  const auto* in = static_cast<const unsigned char*>(origin);
  auto* out = static_cast<unsigned char*>(result);
  for (size_t i = 0; i < count; ++i) {
    std::atomic_ref<Word> word(words[i]);
    Word previous;
    if (op == REMORA_OP_NO_OP) {
      previous = word.load();
    } else if (op == REMORA_OP_REPLACE) {
      previous = word.exchange(read_word<Word>(in + i * sizeof(Word)));
    } else {
      previous = word.load(std::memory_order_relaxed);
      Word desired;
      do {
        desired = previous;
        apply_op(op, type, &desired, in + i * sizeof(Word), 1, alpha);
      } while (!word.compare_exchange_weak(previous, desired));
    }
    if (out != nullptr) std::memcpy(out + i * sizeof(Word), &previous, sizeof(Word));
  }
}

template <typename Word>
void compare_swap_word(void* target, const void* origin, const void* compare, void* result) {
  Word expected = read_word<Word>(compare);
  std::atomic_ref<Word>(*static_cast<Word*>(target))
      .compare_exchange_strong(expected, read_word<Word>(origin));
  std::memcpy(result, &expected, sizeof(Word));
}

}  // namespace

bool native_capable(int type, uint64_t offset) {
  const size_t size = datatype_size(type);
  return size >= 1 && size <= 8 && offset % size == 0;
}

void native_accumulate(int op, int type, void* target, const void* origin, void* result,
                       size_t count, const void* alpha) {
  switch (datatype_size(type)) {
    case 1:
      return accumulate_words<uint8_t>(op, type, target, origin, result, count, alpha);
    case 2:
      return accumulate_words<uint16_t>(op, type, target, origin, result, count, alpha);
    case 4:
      return accumulate_words<uint32_t>(op, type, target, origin, result, count, alpha);
    case 8:
      return accumulate_words<uint64_t>(op, type, target, origin, result, count, alpha);
    default:
      return;
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
