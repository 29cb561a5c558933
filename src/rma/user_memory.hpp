// The data of a window over the user's own memory (remora_win_create): each rank's base and
// size, learnt at creation from a small directory segment, and for every target the path its
// bytes are reached by:
//   local       this rank's own memory: memcpy;
//   single_copy another process's memory, copied by the kernel (Transport::read_private /
//               write_private: process_vm_readv/writev), probed at creation;
//   agent       the target's progress agent copies (AgentRdma, active messages).
// The window's lock words, counters and accumulate lock table stay in its Remora-allocated
// sync segment, as for remora_win_allocate.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "transport/transport.hpp"

namespace remora::rma {

class AgentRdma;
class Window;

// Info key user_memory / REMORA_RMA_USER_MEMORY.
enum class UserMemoryMode : uint64_t { Auto, SingleCopy, Agent };
const char* user_memory_mode_name(UserMemoryMode mode);
// REMORA_SUCCESS, or REMORA_ERR_ARG for an unknown name.
int parse_user_memory_mode(const char* text, UserMemoryMode* mode);

enum class AccessPath { Local, SingleCopy, Agent };

// What remora_win_create passes down: the user's memory and how to reach it.
struct UserRegion {
  void* base;
  UserMemoryMode mode;
};

class UserMemory {
 public:
  // Collective (two barriers). Fails on every rank if any rank's base is unusable, or if
  // single_copy was asked for and the operating system forbids it for some pair of ranks.
  static int create(const char* function, transport::Transport& transport,
                    const std::function<int()>& barrier, AgentRdma& agent, void* base, size_t bytes,
                    UserMemoryMode mode, std::atomic<uint64_t>* local_edge,
                    std::unique_ptr<UserMemory>* out);
  ~UserMemory();
  UserMemory(const UserMemory&) = delete;
  UserMemory& operator=(const UserMemory&) = delete;
  // Collective: frees the directory segment.
  int free();

  void* base() const { return bases_[static_cast<size_t>(transport_.rank())]; }
  size_t size(int rank) const { return sizes_[static_cast<size_t>(rank)]; }
  const size_t* sizes() const { return sizes_.data(); }
  AccessPath path(int target) const { return paths_[static_cast<size_t>(target)]; }

  // Puts and gets by any path (the agent's need the window, for its id and completion counts).
  int put(Window& window, int target, uint64_t offset, const void* origin, size_t bytes);
  int get(Window& window, int target, uint64_t offset, void* result, size_t bytes);
  // Direct access: local or single-copy targets only (the lock-table path of accumulates and
  // the agent at the target).
  int read(int target, uint64_t offset, void* local, size_t bytes) const;
  int write(int target, uint64_t offset, const void* local, size_t bytes) const;

 private:
  UserMemory(transport::Transport& transport, AgentRdma& agent, std::atomic<uint64_t>* edge);
  int exchange(const char* function, const std::function<int()>& barrier, void* base, size_t bytes,
               UserMemoryMode mode);
  uint8_t* address(int target, uint64_t offset) const {
    return static_cast<uint8_t*>(bases_[static_cast<size_t>(target)]) + offset;
  }
  void touch_local_edge(int target) const;

  transport::Transport& transport_;
  AgentRdma& agent_;
  std::atomic<uint64_t>* local_edge_;
  transport::Segment* directory_ = nullptr;
  std::vector<void*> bases_;  // in each owner's address space
  std::vector<size_t> sizes_;
  std::vector<AccessPath> paths_;
};

}  // namespace remora::rma
