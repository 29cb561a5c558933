// This process's windows: creates and frees them (collectively, in the same order on every
// rank, which gives each the same id everywhere), tells live handles from stale ones, and owns
// the owner-computes channel that finds windows by id.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

#include "rma/accumulate/owner_computes.hpp"
#include "rma/agent_rdma.hpp"
#include "rma/locks/remote_locks.hpp"
#include "rma/window.hpp"

namespace remora::rma {

namespace detail {
// The window the registry's find() returned last, while that window is live and the thread
// level is below multiple (where calls skip the library lock); else &no_window, which is no
// handle (not even NULL). The C API's hottest entry points test a handle with this one load and
// comparison (WindowRegistry::fast_find). Relaxed as WindowRegistry::last_.
extern const char no_window;
extern std::atomic<const void*> fast_window;
}  // namespace detail

class WindowRegistry {
 public:
  // barrier and reduce_scatter: over all ranks (the collectives sit above this layer).
  // ghosts, target_progress: WindowServices::ghosts, WindowServices::target_progress.
  static int create(transport::Transport& transport, const transport::GhostDirectory& ghosts,
                    std::function<int()> barrier,
                    std::function<int(const uint64_t*, uint64_t*)> reduce_scatter,
                    std::unique_ptr<WindowRegistry>* out, bool target_progress = false);

  // group: nullptr (every rank) or the members of a sub-communicator (collective over them).
  // user: a window over the caller's memory (remora_win_create), else Remora allocates it.
  int allocate(const char* function, std::shared_ptr<const WindowGroup> group, size_t bytes,
               size_t disp_unit, const WindowOptions& options, Window** window,
               const UserRegion* user = nullptr);
  // Collective; on failure the window stays live.
  int free(const char* function, Window* window);
  // The window behind a handle, or nullptr if it is not a live window of this process.
  Window* find(const remora_win_s* handle) const {
    if (Window* last = find_last(handle)) [[likely]]
      return last;
    return find_slow(handle);
  }
  // find()'s first test alone: the window find() returned last if it is handle, else nullptr
  // (then find() decides).
  Window* find_last(const remora_win_s* handle) const {
    Window* last = last_.load(std::memory_order_relaxed);
    return last == handle ? last : nullptr;
  }
  // Whether a live window of this process is on a sub-communicator.
  bool has_group_windows() const;
  // Below the multiple thread level, from remora_init to remora_finalize: whether handle is the
  // window find() returned last (then it is that live Window; else the library lock and find()
  // decide). False for NULL. A static: no runtime or registry to load first (none exists outside
  // init-finalize, where fast_window is &no_window).
  static bool is_fast(const remora_win_s* handle) {
    return detail::fast_window.load(std::memory_order_relaxed) == handle;
  }
  ~WindowRegistry();

 private:
  WindowRegistry() = default;
  // last_ = window, and fast_window with it below the multiple level (the level is set at
  // remora_init, after the registry exists and before any window does, and reset at
  // remora_finalize, after the registry is gone).
  void remember(Window* window) const;
  Window* find_slow(const remora_win_s* handle) const;
  WindowServices services_{};
  std::unique_ptr<OwnerComputes> owner_;
  std::unique_ptr<AgentRdma> agent_rdma_;
  std::unique_ptr<RemoteLocks> locks_;
  std::unordered_map<const remora_win_s*, std::unique_ptr<Window>> windows_;
  // The first live windows, searched before the hash table: a program rarely has more, and a
  // short scan costs less than hashing on every operation's handle check.
  static constexpr size_t kRecent = 8;
  std::vector<Window*> recent_;
  // The window find() returned last (cleared when it is freed): a program's operations mostly
  // go to one window in turn, so the common handle check is one load and one comparison.
  // Relaxed atomic: calls are serialised (the library lock at the multiple level), the atomic
  // only keeps a handler's call from being a data race.
  mutable std::atomic<Window*> last_{nullptr};
  uint64_t next_id_ = 0;
  // Windows on sub-communicators: ids agreed among their members (the largest proposal), in a
  // space of their own, so each process's ids stay unique.
  uint64_t next_group_id_ = 0;
};

}  // namespace remora::rma
