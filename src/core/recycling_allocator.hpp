// An allocator for std::allocate_shared of objects a thread makes and frees at a high rate (the
// request of an rget across nodes, one per call): a freed block is kept in a list of the
// freeing thread (up to kKept blocks of each size) for that thread's next allocation of the
// size, instead of going back to malloc, whose own per-thread cache keeps 7 blocks of a size:
// past those (a batch of rgets completed together) every block took malloc's shared free lists.
// A block allocated by one thread and freed by another is kept by the other. The lists are the
// threads' own: nothing is shared, nothing is locked.
#pragma once

#include <cstddef>
#include <new>

namespace remora {

template <typename T>
class RecyclingAllocator {
 public:
  using value_type = T;

  RecyclingAllocator() = default;
  template <typename U>
  RecyclingAllocator(const RecyclingAllocator<U>&) {}  // NOLINT: rebinding converts implicitly

  T* allocate(size_t n) {
    static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__ && sizeof(T) >= sizeof(void*));
    Kept& kept = kept_;
    if (n == 1 && kept.first != nullptr) {
      void* block = kept.first;
      kept.first = *static_cast<void**>(block);
      --kept.count;
      return static_cast<T*>(block);
    }
    return static_cast<T*>(::operator new(n * sizeof(T)));
  }
  void deallocate(T* block, size_t n) {
    Kept& kept = kept_;
    if (n == 1 && kept.count < kKept && !kept.closed) {
      ::new (static_cast<void*>(block)) void*(kept.first);  // the list's link, in the block
      kept.first = block;
      ++kept.count;
      return;
    }
    ::operator delete(block);
  }

  template <typename U>
  bool operator==(const RecyclingAllocator<U>&) const {
    return true;
  }

 private:
  static constexpr size_t kKept = 256;
  // A list through the kept blocks' first words: a few bytes of TLS (initial-exec TLS must fit
  // in the space glibc keeps for libraries loaded by dlopen, as Python loads this one).
  struct Kept {
    void* first = nullptr;
    size_t count = 0;
    bool closed = false;
    // At the thread's exit its blocks go back to malloc, and so does a block freed later in
    // that exit.
    ~Kept() {
      while (first != nullptr) {
        void* block = first;
        first = *static_cast<void**>(block);
        ::operator delete(block);
      }
      count = 0;
      closed = true;
    }
  };
  // initial-exec: a direct TLS access, not a __tls_get_addr call per allocation (as
  // api/request_api.cpp's lists).
  [[gnu::tls_model("initial-exec")]] static inline thread_local Kept kept_;
};

}  // namespace remora
