// The live objects behind C handles. A handle is the object's address, looked up here before
// it is ever dereferenced, so a stale or invented handle is reported instead of followed.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace remora::coll {

template <typename T>
class HandleTable {
 public:
  void* add(std::shared_ptr<T> object) {
    void* handle = object.get();
    std::lock_guard lock(mutex_);
    if (spares_.empty()) {
      live_.emplace(handle, std::move(object));
    } else {
      Node& spare = spares_.back();
      spare.key() = handle;
      spare.mapped() = std::move(object);
      live_.insert(std::move(spare));
      spares_.pop_back();
    }
    return handle;
  }
  // nullptr when handle is not live.
  std::shared_ptr<T> find(const void* handle) const {
    std::lock_guard lock(mutex_);
    auto found = live_.find(handle);
    return found == live_.end() ? nullptr : found->second;
  }
  // The object without taking a reference, for the duration of a call on it (an application
  // may not free a handle while another of its threads calls with it). The thread's last
  // lookup answers without the lock while no handle of any table of T was removed since.
  T* find_borrowed(const void* handle) const {
    // initial-exec: the library is never loaded with dlopen after start (as coll_api.cpp's
    // thread_args); the default model called __tls_get_addr on every collective call.
    [[gnu::tls_model("initial-exec")]] constinit thread_local Recent recent;
    if (recent.handle == handle && recent.table == this &&
        recent.generation == generation_.load(std::memory_order_acquire))
      return recent.object;
    std::lock_guard lock(mutex_);
    auto found = live_.find(handle);
    if (found == live_.end()) return nullptr;
    recent = {handle, this, generation_.load(std::memory_order_relaxed), found->second.get()};
    return recent.object;
  }
  ~HandleTable() { generation_.fetch_add(1, std::memory_order_release); }
  HandleTable() = default;
  HandleTable(const HandleTable&) = delete;
  HandleTable& operator=(const HandleTable&) = delete;
  std::shared_ptr<T> remove(const void* handle) {
    std::lock_guard lock(mutex_);
    generation_.fetch_add(1, std::memory_order_release);
    auto found = live_.find(handle);
    if (found == live_.end()) return nullptr;
    std::shared_ptr<T> object = std::move(found->second);
    // The node waits for an add (a request per nonblocking call: one allocation less, also
    // for a batch of requests made and then completed together, as rgets are).
    if (spares_.size() < kMaxSpares)
      spares_.push_back(live_.extract(found));
    else
      live_.erase(found);
    return object;
  }

 private:
  struct Recent {
    const void* handle = nullptr;
    const HandleTable* table = nullptr;
    uint64_t generation = 0;
    T* object = nullptr;
  };
  // Moves at every removal and table destruction (process-wide: a table made at a later
  // initialization may sit at the same address).
  static inline std::atomic<uint64_t> generation_{1};
  mutable std::mutex mutex_;
  using Map = std::unordered_map<const void*, std::shared_ptr<T>>;
  using Node = typename Map::node_type;
  static constexpr size_t kMaxSpares = 1024;
  Map live_;
  std::vector<Node> spares_;  // removed nodes (their objects moved out), for the next adds
};

}  // namespace remora::coll
