#include "rma/user_memory.hpp"

#include <cstring>

#include "core/error.hpp"
#include "core/process_edge.hpp"
#include "rma/agent_rdma.hpp"
#include "rma/locks/sync_geometry.hpp"

namespace remora::rma {
namespace {

constexpr const char* kModeNames[] = {"auto", "single_copy", "agent"};

// One directory entry per rank, in that rank's part.
constexpr size_t kBase = 0;
constexpr size_t kBytes = 8;
constexpr size_t kBaseStatus = 16;   // 0, or why this rank's base is unusable (BaseStatus)
constexpr size_t kForbiddenTo = 24;  // 0, or 1 + a target single-copy access was refused to
constexpr size_t kEntryBytes = 64;

enum BaseStatus : uint64_t { kBaseOk = 0, kBaseNull = 1, kBaseUnreadable = 2 };

}  // namespace

const char* user_memory_mode_name(UserMemoryMode mode) {
  const auto index = static_cast<uint64_t>(mode);
  return index < 3 ? kModeNames[index] : "?";
}

int parse_user_memory_mode(const char* text, UserMemoryMode* mode) {
  for (uint64_t i = 0; i < 3; ++i)
    if (std::strcmp(text, kModeNames[i]) == 0) {
      *mode = static_cast<UserMemoryMode>(i);
      return REMORA_SUCCESS;
    }
  return REMORA_ERR_ARG;
}

UserMemory::UserMemory(transport::Transport& transport, AgentRdma& agent,
                       std::atomic<uint64_t>* edge)
    : transport_(transport),
      agent_(agent),
      local_edge_(edge),
      bases_(static_cast<size_t>(transport.size())),
      sizes_(static_cast<size_t>(transport.size())),
      paths_(static_cast<size_t>(transport.size()), AccessPath::Agent) {}

UserMemory::~UserMemory() {
  delete directory_;
}

int UserMemory::create(const char* function, transport::Transport& transport,
                       const std::function<int()>& barrier, AgentRdma& agent, void* base,
                       size_t bytes, UserMemoryMode mode, std::atomic<uint64_t>* local_edge,
                       std::unique_ptr<UserMemory>* out) {
  std::unique_ptr<UserMemory> memory(new UserMemory(transport, agent, local_edge));
  if (int status = transport.allocate_segment(kEntryBytes, &memory->directory_)) return status;
  if (int status = memory->exchange(function, barrier, base, bytes, mode)) {
    transport.free_segment(memory->directory_);  // every rank saw the same failure
    memory->directory_ = nullptr;
    return status;
  }
  *out = std::move(memory);
  return REMORA_SUCCESS;
}

int UserMemory::exchange(const char* function, const std::function<int()>& barrier, void* base,
                         size_t bytes, UserMemoryMode mode) {
  const int me = transport_.rank(), size = transport_.size();
  auto word = [this](int rank, size_t offset) {
    return SyncWord(transport_, *directory_, rank, offset);
  };
  // Check our own base where the kernel lets us: its first and last byte must be ours.
  uint64_t base_status = kBaseOk;
  if (bytes > 0 && base == nullptr) {
    base_status = kBaseNull;
  } else if (bytes > 0) {
    unsigned char probe = 0;
    const auto* last = static_cast<const unsigned char*>(base) + bytes - 1;
    for (const void* at : {static_cast<const void*>(base), static_cast<const void*>(last)})
      if (transport_.read_private(me, at, &probe, 1) == REMORA_ERR_SYSTEM)
        base_status = kBaseUnreadable;  // EFAULT; a forbidden self-read proves nothing
  }
  word(me, kBase).store(reinterpret_cast<uintptr_t>(base));
  word(me, kBytes).store(bytes);
  word(me, kBaseStatus).store(base_status);
  if (int status = barrier()) return status;
  for (int rank = 0; rank < size; ++rank) {
    const auto r = static_cast<size_t>(rank);
    bases_[r] = reinterpret_cast<void*>(static_cast<uintptr_t>(word(rank, kBase).load()));
    sizes_[r] = word(rank, kBytes).load();
    if (const uint64_t bad = word(rank, kBaseStatus).load(); bad != kBaseOk)
      return fail(REMORA_ERR_ARG, "%s: rank %d's base=%p with bytes=%zu is %s", function, rank,
                  bases_[r], sizes_[r],
                  bad == kBaseNull ? "NULL" : "not readable memory of that process");
  }
  // Probe every target we may access: one byte of its memory through the kernel.
  uint64_t forbidden_to = 0;
  for (int target = 0; target < size; ++target) {
    AccessPath& path = paths_[static_cast<size_t>(target)];
    if (target == me) {
      path = AccessPath::Local;
      continue;
    }
    unsigned char probe = 0;
    const bool single_copy =
        mode != UserMemoryMode::Agent && sizes_[static_cast<size_t>(target)] > 0 &&
        transport_.read_private(target, bases_[static_cast<size_t>(target)], &probe, 1) ==
            REMORA_SUCCESS;
    path = single_copy ? AccessPath::SingleCopy : AccessPath::Agent;
    if (mode == UserMemoryMode::SingleCopy && !single_copy && sizes_[static_cast<size_t>(target)])
      forbidden_to = forbidden_to != 0 ? forbidden_to : static_cast<uint64_t>(target) + 1;
  }
  word(me, kForbiddenTo).store(forbidden_to);
  if (int status = barrier()) return status;
  for (int rank = 0; rank < size; ++rank)
    if (const uint64_t target = word(rank, kForbiddenTo).load(); target != 0)
      return fail(REMORA_ERR_UNSUPPORTED,
                  "%s: info user_memory=single_copy, but rank %d cannot read rank %llu's "
                  "memory with a single copy (process_vm_readv is forbidden by the operating "
                  "system, or the ranks are on different nodes; use auto or agent)",
                  function, rank, static_cast<unsigned long long>(target - 1));
  return REMORA_SUCCESS;
}

int UserMemory::free() {
  const int status = transport_.free_segment(directory_);
  directory_ = nullptr;
  return status;
}

void UserMemory::touch_local_edge(int target) const {
  if constexpr (kThreadSanitizer)
    if (local_edge_ != nullptr && target == transport_.rank()) touch_process_edge(*local_edge_);
}

int UserMemory::put(Window& window, int target, uint64_t offset, const void* origin, size_t bytes) {
  if (bytes == 0) return REMORA_SUCCESS;
  if (path(target) == AccessPath::Agent) return agent_.put(window, target, offset, origin, bytes);
  return write(target, offset, origin, bytes);
}

int UserMemory::get(Window& window, int target, uint64_t offset, void* result, size_t bytes) {
  if (bytes == 0) return REMORA_SUCCESS;
  if (path(target) == AccessPath::Agent) return agent_.get(window, target, offset, result, bytes);
  return read(target, offset, result, bytes);
}

int UserMemory::read(int target, uint64_t offset, void* local, size_t bytes) const {
  if (bytes == 0) return REMORA_SUCCESS;
  if (target != transport_.rank())
    return transport_.read_private(target, address(target, offset), local, bytes);
  touch_local_edge(target);
  std::memcpy(local, address(target, offset), bytes);
  touch_local_edge(target);
  return REMORA_SUCCESS;
}

int UserMemory::write(int target, uint64_t offset, const void* local, size_t bytes) const {
  if (bytes == 0) return REMORA_SUCCESS;
  if (target != transport_.rank())
    return transport_.write_private(target, address(target, offset), local, bytes);
  touch_local_edge(target);
  std::memcpy(address(target, offset), local, bytes);
  touch_local_edge(target);
  return REMORA_SUCCESS;
}

}  // namespace remora::rma
