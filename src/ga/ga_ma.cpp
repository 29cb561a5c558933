// MA, GA's memory allocator for local buffers (macdecls.h): a heap and a stack of typed, named
// blocks within MA_init's sizes (together: either may use the other's free part, as in MA).
// Remora's arrays do not use it; GA programs do, for their own buffers. Each block is allocated
// from the system, aligned for its type (and MA_set_numalign), so that its offset from the type's
// base array is a whole number of elements: the index MA returns. Errors print as MA's ("MA error:
// <call>: ...") and return MA_FALSE, or end the job with hard_fail on.
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include "ga/ga_registry.hpp"
#include "macdecls.h"

extern "C" {
// The base arrays (GA's ma_cb_*): only their addresses matter. Aligned beyond any element size,
// so a block aligned for its type lies a whole number of elements away from its base.
alignas(64) char ma_cb_char[1];
alignas(64) int ma_cb_int[1];
alignas(64) long ma_cb_long[1];
alignas(64) long long ma_cb_longlong[1];
alignas(64) float ma_cb_float[1];
alignas(64) double ma_cb_dbl[1];
alignas(64) MA_LongDouble ma_cb_ldbl[1];
alignas(64) MA_SingleComplex ma_cb_scpl[1];
alignas(64) MA_DoubleComplex ma_cb_dcpl[1];
alignas(64) MA_LongDoubleComplex ma_cb_ldcpl[1];
}

namespace remora::ga {
namespace {

struct TypeInfo {
  const char* name;
  size_t size;
  char* base;
  int index_base;  // 0 for C types, 1 for Fortran's
};

// Indexed by datatype - MT_FIRST. The Fortran types count from the C base of their size.
const TypeInfo* type_info(Integer datatype) {
  static const char* const names[] = {"char",
                                      "int",
                                      "long int",
                                      "float",
                                      "double",
                                      "long double",
                                      "single precision complex",
                                      "double precision complex",
                                      "long double precision complex",
                                      "byte",
                                      "integer",
                                      "logical",
                                      "real",
                                      "double precision",
                                      "single precision complex",
                                      "double precision complex",
                                      "long long"};
  static const size_t sizes[] = {sizeof(char),
                                 sizeof(int),
                                 sizeof(long),
                                 sizeof(float),
                                 sizeof(double),
                                 sizeof(MA_LongDouble),
                                 sizeof(MA_SingleComplex),
                                 sizeof(MA_DoubleComplex),
                                 sizeof(MA_LongDoubleComplex),
                                 1,
                                 sizeof(Integer),
                                 sizeof(Integer),
                                 sizeof(float),
                                 sizeof(double),
                                 sizeof(MA_SingleComplex),
                                 sizeof(MA_DoubleComplex),
                                 sizeof(long long)};
  static void* const bases[] = {ma_cb_char, ma_cb_int,     ma_cb_long,  ma_cb_float, ma_cb_dbl,
                                ma_cb_ldbl, ma_cb_scpl,    ma_cb_dcpl,  ma_cb_ldcpl, ma_cb_char,
                                ma_cb_long, ma_cb_long,    ma_cb_float, ma_cb_dbl,   ma_cb_scpl,
                                ma_cb_dcpl, ma_cb_longlong};
  static const auto table = [] {
    std::array<TypeInfo, MT_NUMTYPES> t{};
    for (size_t i = 0; i < t.size(); ++i) {
      const bool fortran = MT_FIRST + static_cast<int>(i) >= MT_F_BYTE &&
                           MT_FIRST + static_cast<int>(i) <= MT_F_DCPL;
      t[i] = {names[i], sizes[i], static_cast<char*>(bases[i]), fortran ? 1 : 0};
    }
    return t;
  }();
  if (datatype < MT_FIRST || datatype > MT_LAST) return nullptr;
  return &table[static_cast<size_t>(datatype - MT_FIRST)];
}

struct Block {
  Integer datatype = 0;
  Integer nelem = 0;
  std::string name;
  void* memory = nullptr;  // nullptr: the handle is free
  bool on_stack = false;
};

// MA_init's sizes. As in MA, the heap and the stack share one space: either may grow into the
// other's free part; the partition only bounds what MA_inquire_heap / _stack report. A negative
// size: no limit.
struct Space {
  int64_t limit = -1;
  int64_t used = 0;
};

struct State {
  bool initialized = false;
  Space heap, stack;
  std::vector<Block> blocks;      // memhandle = position
  std::vector<Integer> on_stack;  // memhandles, top last
  Integer numalign = 0;
  bool trace = false;
  int64_t heap_calls = 0, stack_calls = 0, max_heap = 0, max_stack = 0;
};

std::mutex ma_mutex;  // guards state()
State& state() {
  static State s;
  return s;
}

std::atomic<Boolean> auto_verify{MA_FALSE}, hard_fail{MA_FALSE}, error_print{MA_TRUE};
std::atomic<void (*)(void)> error_callback{nullptr};

Boolean exchange(std::atomic<Boolean>& flag, Integer value) {
  return flag.exchange(value != 0 ? MA_TRUE : MA_FALSE);
}

// MA's error report: printed (error_print) and MA_FALSE, or the end of the job (hard_fail).
__attribute__((format(printf, 2, 3))) Boolean ma_error(const char* fn, const char* format, ...) {
  char message[256];
  va_list args;
  va_start(args, format);
  std::vsnprintf(message, sizeof message, format, args);
  va_end(args);
  if (hard_fail.load() != MA_FALSE) {
    if (void (*callback)(void) = error_callback.load()) callback();
    ga_fail(fn, "%s", message);
  }
  if (error_print.load() != MA_FALSE) std::fprintf(stderr, "MA error: %s: %s\n", fn, message);
  return MA_FALSE;
}

// Free bytes in the shared space, and in one side's part of it.
int64_t total_free(const State& s) {
  if (s.heap.limit < 0 || s.stack.limit < 0) return INT64_MAX;
  return s.heap.limit + s.stack.limit - s.heap.used - s.stack.used;
}
int64_t part_free(const State& s, const Space& part) {
  if (part.limit < 0) return total_free(s);
  return std::min(std::max<int64_t>(part.limit - part.used, 0), total_free(s));
}

int64_t bytes_of(const TypeInfo& t, Integer nelem) {
  return static_cast<int64_t>(t.size) * nelem;
}

// The block behind memhandle, or nullptr after reporting why (held: ma_mutex).
Block* ma_find(State& s, const char* fn, Integer memhandle) {
  if (memhandle < 0 || memhandle >= static_cast<Integer>(s.blocks.size()) ||
      s.blocks[static_cast<size_t>(memhandle)].memory == nullptr) {
    ma_error(fn, "memhandle=%ld is not an allocated block", static_cast<long>(memhandle));
    return nullptr;
  }
  return &s.blocks[static_cast<size_t>(memhandle)];
}

// A block of the heap, or nullptr after reporting why (held: ma_mutex).
Block* heap_block(State& s, const char* fn, Integer memhandle) {
  Block* b = ma_find(s, fn, memhandle);
  if (b != nullptr && b->on_stack) {
    ma_error(fn, "memhandle=%ld (name: '%s') is on the stack", static_cast<long>(memhandle),
             b->name.c_str());
    return nullptr;
  }
  return b;
}

// A block's index: its offset in elements from its type's base array (1-based for Fortran's).
MA_AccessIndex index_of(const TypeInfo& t, const void* memory) {
  return (static_cast<const char*>(memory) - t.base) / static_cast<std::ptrdiff_t>(t.size) +
         t.index_base;
}

enum class Side { Heap, Stack };

// index: where the caller wants the block's index (nullptr: a call that returns none; *index
// nullptr: the caller passed NULL for it).
Boolean ma_allocate(const char* fn, Side side, Integer datatype, Integer nelem, const char* name,
                    Integer* memhandle, MA_AccessIndex* const* index) {
  const bool stack = side == Side::Stack;
  if (index != nullptr && *index == nullptr) return ma_error(fn, "index is NULL");
  const TypeInfo* t = type_info(datatype);
  if (t == nullptr)
    return ma_error(fn, "datatype=%ld is not an MT_ type", static_cast<long>(datatype));
  if (nelem < 0) return ma_error(fn, "nelem=%ld is negative", static_cast<long>(nelem));
  if (memhandle == nullptr) return ma_error(fn, "memhandle is NULL");
  const std::lock_guard<std::mutex> hold(ma_mutex);
  State& s = state();
  if (!s.initialized) return ma_error(fn, "MA not yet initialized (call MA_init first)");
  Space& space = stack ? s.stack : s.heap;
  const int64_t bytes = bytes_of(*t, nelem);
  if (bytes > total_free(s))
    return ma_error(fn, "nelem=%ld elements of %s (block '%s') exceed MA's %ld free bytes",
                    static_cast<long>(nelem), t->name, name != nullptr ? name : "",
                    static_cast<long>(total_free(s)));
  size_t align = std::max<size_t>(t->size, alignof(std::max_align_t));
  if (s.numalign > 0) align = std::max<size_t>(align, size_t{1} << s.numalign);
  const size_t size =
      (static_cast<size_t>(std::max<int64_t>(bytes, 1)) + align - 1) / align * align;
  void* memory = std::aligned_alloc(align, size);
  if (memory == nullptr)
    return ma_error(fn, "the system refused %zu bytes for block '%s'", size,
                    name != nullptr ? name : "");
  space.used += bytes;
  (stack ? s.max_stack : s.max_heap) = std::max(stack ? s.max_stack : s.max_heap, space.used);
  ++(stack ? s.stack_calls : s.heap_calls);
  auto slot = std::find_if(s.blocks.begin(), s.blocks.end(),
                           [](const Block& b) { return b.memory == nullptr; });
  if (slot == s.blocks.end()) slot = s.blocks.insert(slot, Block{});
  *slot = {datatype, nelem, name != nullptr ? name : "", memory, stack};
  *memhandle = slot - s.blocks.begin();
  if (stack) s.on_stack.push_back(*memhandle);
  if (index != nullptr) **index = index_of(*t, memory);
  if (s.trace)
    std::printf("MA: %s '%s': %ld %s, memhandle %ld\n", fn, slot->name.c_str(),
                static_cast<long>(nelem), t->name, static_cast<long>(*memhandle));
  return MA_TRUE;
}

void ma_release(State& s, const char* fn, Integer memhandle) {
  Block& b = s.blocks[static_cast<size_t>(memhandle)];
  (b.on_stack ? s.stack : s.heap).used -= bytes_of(*type_info(b.datatype), b.nelem);
  if (s.trace)
    std::printf("MA: %s '%s', memhandle %ld\n", fn, b.name.c_str(), static_cast<long>(memhandle));
  std::free(b.memory);
  b = Block{};
}

// Pops memhandle and every block above it (top_only: memhandle must be the top).
Boolean stack_release(const char* fn, Integer memhandle, bool top_only) {
  const std::lock_guard<std::mutex> hold(ma_mutex);
  State& s = state();
  Block* b = ma_find(s, fn, memhandle);
  if (b == nullptr) return MA_FALSE;
  const size_t at = static_cast<size_t>(std::find(s.on_stack.begin(), s.on_stack.end(), memhandle) -
                                        s.on_stack.begin());
  if (at == s.on_stack.size() || (top_only && at + 1 != s.on_stack.size()))
    return ma_error(fn, "memhandle=%ld (name: '%s') is not %s the stack",
                    static_cast<long>(memhandle), b->name.c_str(), top_only ? "the top of" : "on");
  while (s.on_stack.size() > at) {
    ma_release(s, fn, s.on_stack.back());
    s.on_stack.pop_back();
  }
  return MA_TRUE;
}

Integer fits(const char* fn, Integer datatype, int64_t bytes) {
  const TypeInfo* t = type_info(datatype);
  if (t == nullptr) {
    ma_error(fn, "datatype=%ld is not an MT_ type", static_cast<long>(datatype));
    return 0;
  }
  return static_cast<Integer>(bytes / static_cast<int64_t>(t->size));
}

enum class Part { Heap, Stack, Both };

Integer part_fits(const char* fn, Integer datatype, Part part) {
  int64_t free = 0;
  {
    const std::lock_guard<std::mutex> hold(ma_mutex);
    const State& s = state();
    free = part == Part::Both   ? total_free(s)
           : part == Part::Heap ? part_free(s, s.heap)
                                : part_free(s, s.stack);
  }
  return fits(fn, datatype, free);
}

}  // namespace
}  // namespace remora::ga

using namespace remora::ga;

extern "C" {

Boolean MA_init(Integer datatype, Integer nominal_stack, Integer nominal_heap) {
  const TypeInfo* t = type_info(datatype);
  if (t == nullptr)
    return ma_error("MA_init", "datatype=%ld is not an MT_ type", static_cast<long>(datatype));
  const std::lock_guard<std::mutex> hold(ma_mutex);
  State& s = state();
  if (s.initialized) return ma_error("MA_init", "MA already initialized");
  s.stack.limit = nominal_stack < 0 ? -1 : bytes_of(*t, nominal_stack);
  s.heap.limit = nominal_heap < 0 ? -1 : bytes_of(*t, nominal_heap);
  s.initialized = true;
  return MA_TRUE;
}

Boolean MA_initialized(void) {
  const std::lock_guard<std::mutex> hold(ma_mutex);
  return state().initialized ? MA_TRUE : MA_FALSE;
}

Boolean MA_alloc_get(Integer datatype, Integer nelem, const char* name, Integer* memhandle,
                     MA_AccessIndex* index) {
  return ma_allocate("MA_alloc_get", Side::Heap, datatype, nelem, name, memhandle, &index);
}
Boolean MA_allocate_heap(Integer datatype, Integer nelem, const char* name, Integer* memhandle) {
  return ma_allocate("MA_allocate_heap", Side::Heap, datatype, nelem, name, memhandle, nullptr);
}
Boolean MA_push_get(Integer datatype, Integer nelem, const char* name, Integer* memhandle,
                    MA_AccessIndex* index) {
  return ma_allocate("MA_push_get", Side::Stack, datatype, nelem, name, memhandle, &index);
}
Boolean MA_push_stack(Integer datatype, Integer nelem, const char* name, Integer* memhandle) {
  return ma_allocate("MA_push_stack", Side::Stack, datatype, nelem, name, memhandle, nullptr);
}

Boolean MA_free_heap(Integer memhandle) {
  const std::lock_guard<std::mutex> hold(ma_mutex);
  State& s = state();
  if (heap_block(s, "MA_free_heap", memhandle) == nullptr) return MA_FALSE;
  ma_release(s, "MA_free_heap", memhandle);
  return MA_TRUE;
}

Boolean MA_free_heap_piece(Integer memhandle, Integer nelem) {
  const std::lock_guard<std::mutex> hold(ma_mutex);
  State& s = state();
  Block* b = heap_block(s, "MA_free_heap_piece", memhandle);
  if (b == nullptr) return MA_FALSE;
  if (nelem < 0)
    return ma_error("MA_free_heap_piece", "nelem=%ld is negative", static_cast<long>(nelem));
  if (nelem >= b->nelem) {
    ma_release(s, "MA_free_heap_piece", memhandle);
    return MA_TRUE;
  }
  // The memory stays where it is; only the count (and the heap's use) shrinks.
  s.heap.used -= bytes_of(*type_info(b->datatype), nelem);
  b->nelem -= nelem;
  return MA_TRUE;
}

Boolean MA_pop_stack(Integer memhandle) {
  return stack_release("MA_pop_stack", memhandle, true);
}

Boolean MA_chop_stack(Integer memhandle) {
  return stack_release("MA_chop_stack", memhandle, false);
}

Boolean MA_get_index(Integer memhandle, MA_AccessIndex* index) {
  if (index == nullptr) return ma_error("MA_get_index", "index is NULL");
  const std::lock_guard<std::mutex> hold(ma_mutex);
  Block* b = ma_find(state(), "MA_get_index", memhandle);
  if (b == nullptr) return MA_FALSE;
  const TypeInfo* t = type_info(b->datatype);
  *index = index_of(*t, b->memory);
  return MA_TRUE;
}

Boolean MA_get_pointer(Integer memhandle, void* pointer) {
  if (pointer == nullptr) return ma_error("MA_get_pointer", "pointer is NULL");
  const std::lock_guard<std::mutex> hold(ma_mutex);
  Block* b = ma_find(state(), "MA_get_pointer", memhandle);
  if (b == nullptr) return MA_FALSE;
  *static_cast<void**>(pointer) = b->memory;
  return MA_TRUE;
}

Pointer MA_get_mbase(Integer datatype) {
  const TypeInfo* t = type_info(datatype);
  if (t == nullptr) {
    ma_error("MA_get_mbase", "datatype=%ld is not an MT_ type", static_cast<long>(datatype));
    return nullptr;
  }
  return t->base;
}

// As in MA, where the iterator is declared but not implemented: an error, MA_FALSE.
Boolean MA_init_memhandle_iterator(Integer*) {
  return ma_error("MA_init_memhandle_iterator", "not yet implemented (nor in GA's MA)");
}

Boolean MA_get_next_memhandle(Integer*, Integer*) {
  return ma_error("MA_get_next_memhandle", "not yet implemented (nor in GA's MA)");
}

// The inquiries: elements of datatype that fit in the heap's share, the stack's, or all of it.
#define REMORA_MA_INQUIRY(name, part)              \
  Integer name(Integer datatype) {                 \
    return part_fits(#name, datatype, Part::part); \
  }
REMORA_MA_INQUIRY(MA_inquire_heap, Heap)
REMORA_MA_INQUIRY(MA_inquire_heap_check_stack, Heap)
REMORA_MA_INQUIRY(MA_inquire_heap_no_partition, Both)
REMORA_MA_INQUIRY(MA_inquire_stack, Stack)
REMORA_MA_INQUIRY(MA_inquire_stack_check_heap, Stack)
REMORA_MA_INQUIRY(MA_inquire_stack_no_partition, Both)
REMORA_MA_INQUIRY(MA_inquire_avail, Both)
#undef REMORA_MA_INQUIRY

Integer MA_sizeof(Integer datatype1, Integer nelem1, Integer datatype2) {
  const TypeInfo *from = type_info(datatype1), *to = type_info(datatype2);
  if (from == nullptr || to == nullptr) {
    ma_error("MA_sizeof", "datatype1=%ld, datatype2=%ld: both must be MT_ types",
             static_cast<long>(datatype1), static_cast<long>(datatype2));
    return 0;
  }
  const int64_t bytes = bytes_of(*from, nelem1), size = static_cast<int64_t>(to->size);
  return static_cast<Integer>((bytes + size - 1) / size);
}

Integer MA_sizeof_overhead(Integer datatype) {
  if (type_info(datatype) == nullptr)
    ma_error("MA_sizeof_overhead", "datatype=%ld is not an MT_ type", static_cast<long>(datatype));
  return 0;
}

Boolean MA_set_numalign(Integer value) {
  if (value < 0 || value > 12)
    return ma_error("MA_set_numalign", "value=%ld is outside [0, 12]", static_cast<long>(value));
  const std::lock_guard<std::mutex> hold(ma_mutex);
  state().numalign = value;
  return MA_TRUE;
}

Boolean MA_get_numalign(Integer* value) {
  if (value == nullptr) return ma_error("MA_get_numalign", "value is NULL");
  const std::lock_guard<std::mutex> hold(ma_mutex);
  *value = state().numalign;
  return MA_TRUE;
}

Boolean MA_set_auto_verify(Boolean value) {
  return exchange(auto_verify, value);
}
Boolean MA_set_hard_fail(Boolean value) {
  return exchange(hard_fail, value);
}
Boolean MA_set_error_print(Boolean value) {
  return exchange(error_print, value);
}

void MA_set_error_callback(void (*func)(void)) {
  error_callback.store(func);
}

void MA_trace(Boolean value) {
  const std::lock_guard<std::mutex> hold(ma_mutex);
  state().trace = value != MA_FALSE;
}

void MA_print_stats(Boolean printroutines) {
  const std::lock_guard<std::mutex> hold(ma_mutex);
  const State& s = state();
  std::printf("MA usage statistics:\n");
  std::printf("\tallocation statistics:\n\t\t\t\t\t      heap\t     stack\n");
  std::printf("\t\t\t\t\t      ----\t     -----\n");
  std::printf("\tcurrent number of blocks\t%10zu\t%10zu\n",
              static_cast<size_t>(
                  std::count_if(s.blocks.begin(), s.blocks.end(),
                                [](const Block& b) { return b.memory != nullptr && !b.on_stack; })),
              s.on_stack.size());
  std::printf("\tnumber of allocations\t\t%10ld\t%10ld\n", static_cast<long>(s.heap_calls),
              static_cast<long>(s.stack_calls));
  std::printf("\tcurrent total bytes\t\t%10ld\t%10ld\n", static_cast<long>(s.heap.used),
              static_cast<long>(s.stack.used));
  std::printf("\tmaximum total bytes\t\t%10ld\t%10ld\n", static_cast<long>(s.max_heap),
              static_cast<long>(s.max_stack));
  if (printroutines != MA_FALSE)
    std::printf("\t(calls per routine are not counted by Remora's MA)\n");
}

void MA_summarize_allocated_blocks(void) {
  const std::lock_guard<std::mutex> hold(ma_mutex);
  const State& s = state();
  int heap = 0, stack = 0;
  for (size_t h = 0; h < s.blocks.size(); ++h) {
    const Block& b = s.blocks[h];
    if (b.memory == nullptr) continue;
    ++(b.on_stack ? stack : heap);
    std::printf("%s block '%s', memhandle %zu: %ld elements of %s at %p\n",
                b.on_stack ? "stack" : "heap", b.name.c_str(), h, static_cast<long>(b.nelem),
                type_info(b.datatype)->name, b.memory);
  }
  std::printf("MA_summarize_allocated_blocks: %d heap blocks, %d stack blocks\n", heap, stack);
}

Boolean MA_verify_allocator_stuff(void) {
  return MA_TRUE;
}

}  // extern "C"
