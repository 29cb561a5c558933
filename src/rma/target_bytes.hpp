// Per-target state kept inside records of another class: element t at first + t * stride bytes.
// Window keeps the epoch's lock modes and the deferred lock's waiting bytes in its per-target
// records (Window::Target), so that a lock, put or unlock touches one cache line of per-target
// state; EpochState and DeferredLock reach them through this view.
#pragma once

#include <cstddef>
#include <new>

namespace remora::rma {

template <typename T>
class TargetBytes {
 public:
  TargetBytes() = default;
  TargetBytes(T* first, size_t stride)
      : first_(reinterpret_cast<unsigned char*>(first)), stride_(stride) {}
  T& operator[](size_t t) const {
    return *std::launder(reinterpret_cast<T*>(first_ + t * stride_));
  }

 private:
  unsigned char* first_ = nullptr;
  size_t stride_ = 0;
};

}  // namespace remora::rma
