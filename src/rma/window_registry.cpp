#include "rma/window_registry.hpp"

#include <algorithm>

#include "core/threads.hpp"

namespace remora::rma {

namespace detail {
constinit const char no_window = 0;
constinit std::atomic<const void*> fast_window{&no_window};
}  // namespace detail

int WindowRegistry::create(transport::Transport& transport, const transport::GhostDirectory& ghosts,
                           std::function<int()> barrier,
                           std::function<int(const uint64_t*, uint64_t*)> reduce_scatter,
                           std::unique_ptr<WindowRegistry>* out, bool target_progress) {
  std::unique_ptr<WindowRegistry> registry(new WindowRegistry());
  if (int status = OwnerComputes::create(transport, ghosts, &registry->owner_)) return status;
  if (int status = AgentRdma::create(transport, *registry->owner_, &registry->agent_rdma_))
    return status;
  if (int status = RemoteLocks::create(transport, ghosts, *registry->owner_, &registry->locks_))
    return status;
  registry->services_ = WindowServices{&transport,
                                       &ghosts,
                                       std::move(barrier),
                                       registry->owner_.get(),
                                       std::move(reduce_scatter),
                                       registry->agent_rdma_.get(),
                                       target_progress,
                                       registry->locks_.get()};
  *out = std::move(registry);
  return REMORA_SUCCESS;
}

int WindowRegistry::allocate(const char* function, std::shared_ptr<const WindowGroup> group,
                             size_t bytes, size_t disp_unit, const WindowOptions& options,
                             Window** window, const UserRegion* user) {
  constexpr uint64_t kGroupWindowBit = uint64_t{1} << 63;
  uint64_t id = next_id_;
  if (group) {
    std::vector<uint64_t> proposals;
    if (int status = group->allgather(next_group_id_, &proposals)) return status;
    id = *std::max_element(proposals.begin(), proposals.end());
    next_group_id_ = id + 1;
    id |= kGroupWindowBit;
  } else {
    ++next_id_;
  }
  std::unique_ptr<Window> created;
  if (int status = Window::create(function, services_, std::move(group), id, bytes, disp_unit,
                                  options, &created, user))
    return status;
  *window = created.get();
  if (recent_.size() < kRecent) recent_.push_back(created.get());
  windows_[created.get()] = std::move(created);
  return REMORA_SUCCESS;
}

bool WindowRegistry::has_group_windows() const {
  for (const auto& [handle, window] : windows_)
    if (window->group() != nullptr) return true;
  return false;
}

int WindowRegistry::free(const char* function, Window* window) {
  if (int status = window->free(function)) return status;
  if (last_.load(std::memory_order_relaxed) == window)
    last_.store(nullptr, std::memory_order_relaxed);
  if (is_fast(window)) detail::fast_window.store(&detail::no_window, std::memory_order_relaxed);
  std::erase(recent_, window);
  windows_.erase(window);
  return REMORA_SUCCESS;
}

Window* WindowRegistry::find_slow(const remora_win_s* handle) const {
  Window* found = nullptr;
  for (Window* window : recent_)
    if (window == handle) found = window;
  if (found == nullptr && windows_.size() > recent_.size()) {
    auto it = windows_.find(handle);
    if (it != windows_.end()) found = it->second.get();
  }
  if (found != nullptr) remember(found);
  return found;
}

void WindowRegistry::remember(Window* window) const {
  last_.store(window, std::memory_order_relaxed);
  if (!threads::multiple())
    detail::fast_window.store(static_cast<const remora_win_s*>(window), std::memory_order_relaxed);
}

WindowRegistry::~WindowRegistry() {
  detail::fast_window.store(&detail::no_window, std::memory_order_relaxed);
}

}  // namespace remora::rma
