// The live objects behind C handles. A handle is the object's address, looked up here before
// it is ever dereferenced, so a stale or invented handle is reported instead of followed.
#pragma once

#include <memory>
#include <mutex>
#include <unordered_map>

namespace remora::coll {

template <typename T>
class HandleTable {
 public:
  void* add(std::shared_ptr<T> object) {
    void* handle = object.get();
    std::lock_guard lock(mutex_);
    live_.emplace(handle, std::move(object));
    return handle;
  }
  // nullptr when handle is not live.
  std::shared_ptr<T> find(const void* handle) const {
    std::lock_guard lock(mutex_);
    auto found = live_.find(handle);
    return found == live_.end() ? nullptr : found->second;
  }
  std::shared_ptr<T> remove(const void* handle) {
    std::lock_guard lock(mutex_);
    auto found = live_.find(handle);
    if (found == live_.end()) return nullptr;
    std::shared_ptr<T> object = std::move(found->second);
    live_.erase(found);
    return object;
  }

 private:
  mutable std::mutex mutex_;
  std::unordered_map<const void*, std::shared_ptr<T>> live_;
};

}  // namespace remora::coll
