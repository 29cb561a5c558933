#include "ga/ga_registry.hpp"

#include <cstdio>
#include <memory>
#include <mutex>

namespace remora::ga {
namespace {

// Slot k holds handle -(1000 + k): negative like GA's handles, never 0.
constexpr int kHandleBase = 1000;
// The handle table: fixed chunks of slots, each slot an atomic pointer, so that readers
// (lookup, on every GA call of every thread) find an array with two acquire loads and no lock.
// Writers (new_handle, free_handle: collective calls) hold state_mutex(). A chunk, once
// published, never moves or goes away; a slot's GaArray stays valid until GA_Destroy frees it
// (using a handle while another thread destroys it is an error in GA too).
constexpr size_t kChunkSlots = 256;
constexpr size_t kChunks = 4096;  // up to 1,048,576 live handles
struct Chunk {
  std::atomic<GaArray*> slot[kChunkSlots] = {};
};
struct Table {
  std::atomic<Chunk*> chunks[kChunks] = {};
  size_t used = 0;  // slots ever handed out (under state_mutex())
  ~Table() {
    for (auto& chunk : chunks) {
      Chunk* c = chunk.load(std::memory_order_relaxed);
      if (c == nullptr) continue;
      for (auto& slot : c->slot) delete slot.load(std::memory_order_relaxed);
      delete c;
    }
  }
};
Table table;
// Set by GA_Initialize* and GA_Terminate only (single-threaded), read by every call.
std::atomic<MPI_Comm> the_world_comm{MPI_COMM_NULL};

// The slot of index k, or nullptr when its chunk does not exist (yet).
std::atomic<GaArray*>* slot_at(size_t k) {
  if (k >= kChunks * kChunkSlots) return nullptr;
  Chunk* chunk = table.chunks[k / kChunkSlots].load(std::memory_order_acquire);
  return chunk != nullptr ? &chunk->slot[k % kChunkSlots] : nullptr;
}

// The array behind handle, or nullptr; no lock.
GaArray* find(int handle) {
  const int64_t k = -static_cast<int64_t>(handle) - kHandleBase;
  if (k < 0) return nullptr;
  std::atomic<GaArray*>* slot = slot_at(static_cast<size_t>(k));
  return slot != nullptr ? slot->load(std::memory_order_acquire) : nullptr;
}

}  // namespace

std::mutex& state_mutex() {
  static std::mutex mutex;
  return mutex;
}

void ga_error(const char* message, int code) {
  const int rank = remora_rank();
  std::fflush(stdout);
  char text[1024];
  std::snprintf(text, sizeof text, "GA_Error (rank %d): %s: %d", rank < 0 ? -1 : rank,
                message != nullptr ? message : "(no message)", code);
  // remora_abort prints the text with the rank; GA ends the job with a failure even for code 0.
  remora_abort(code >= 1 && code <= 255 ? code : 1, text);
  std::abort();  // remora_abort does not return
}

void ga_fail(const char* fn, const char* format, ...) {
  char detail[768];
  va_list args;
  va_start(args, format);
  std::vsnprintf(detail, sizeof detail, format, args);
  va_end(args);
  char message[1024];
  std::snprintf(message, sizeof message, "%s: %s", fn, detail);
  ga_error(message, 1);
}

void check(const char* fn, int status) {
  if (status < 0) ga_fail(fn, "%s", remora_last_error());
}

remora_datatype_t datatype_of(const char* fn, int type) {
  switch (type) {
    case C_INT:
      return REMORA_INT32;
    case C_LONG:
      return sizeof(long) == 8 ? REMORA_INT64 : REMORA_INT32;
    case C_LONGLONG:
      return REMORA_INT64;
    case F_INT:
    case F_LOG:
      return sizeof(Integer) == 8 ? REMORA_INT64 : REMORA_INT32;
    case C_FLOAT:
    case F_REAL:
      return REMORA_FLOAT;
    case C_DBL:
    case F_DBL:
      return REMORA_DOUBLE;
    case C_SCPL:
    case F_SCPL:
      return REMORA_FLOAT_COMPLEX;
    case C_DCPL:
    case F_DCPL:
      return REMORA_DOUBLE_COMPLEX;
    default:
      if (user_type_bytes(type) != 0) return REMORA_UINT8;
      ga_fail(fn,
              "type=%d is not a supported GA type code (C_INT, C_LONG, C_LONGLONG, "
              "C_FLOAT, C_DBL, C_SCPL, C_DCPL, their F_ forms, or one NGA_Register_type "
              "returned)",
              type);
  }
}

size_t element_size(const char* fn, int type) {
  if (const size_t bytes = user_type_bytes(type)) return bytes;
  switch (datatype_of(fn, type)) {
    case REMORA_INT32:
    case REMORA_FLOAT:
      return 4;
    case REMORA_FLOAT_COMPLEX:
    case REMORA_INT64:
    case REMORA_DOUBLE:
      return 8;
    default:
      return 16;
  }
}

int new_handle() {
  const std::lock_guard<std::mutex> hold(state_mutex());
  size_t k = 0;
  while (k < table.used && slot_at(k)->load(std::memory_order_relaxed) != nullptr) ++k;
  if (k == kChunks * kChunkSlots)
    ga_fail("GA_Create_handle", "%zu arrays exist: no handle is free", kChunks * kChunkSlots);
  if (k == table.used) {
    if (k % kChunkSlots == 0)  // publish the next chunk before any slot of it is read
      table.chunks[k / kChunkSlots].store(new Chunk, std::memory_order_release);
    ++table.used;
  }
  slot_at(k)->store(new GaArray, std::memory_order_release);
  return -(kHandleBase + static_cast<int>(k));
}

GaArray& lookup(const char* fn, int handle) {
  require_initialized(fn);
  GaArray* a = find(handle);
  if (a == nullptr)
    ga_fail(fn, "g_a=%d is not a valid array handle (never created, or destroyed)", handle);
  return *a;
}

bool handle_exists(int handle) {
  return find(handle) != nullptr;
}

GaArray& lookup_allocated(const char* fn, int handle, Types types) {
  GaArray& a = lookup(fn, handle);
  if (a.array == nullptr)
    ga_fail(fn, "g_a=%d ('%s') is not allocated yet (GA_Allocate)", handle, a.name.c_str());
  if (types == Types::Builtin && a.user_bytes != 0)
    ga_fail(fn,
            "g_a=%d ('%s') has the user-defined type %d (NGA_Register_type, %zu bytes); this "
            "call takes GA's built-in types only",
            handle, a.name.c_str(), a.type, a.user_bytes);
  return a;
}

void free_handle(int handle) {
  const std::lock_guard<std::mutex> hold(state_mutex());
  const int64_t k = -static_cast<int64_t>(handle) - kHandleBase;
  std::atomic<GaArray*>* slot = k >= 0 ? slot_at(static_cast<size_t>(k)) : nullptr;
  if (slot != nullptr) delete slot->exchange(nullptr, std::memory_order_acq_rel);
}

std::vector<int> live_handles() {
  std::vector<int> handles;
  const std::lock_guard<std::mutex> hold(state_mutex());
  for (size_t k = 0; k < table.used; ++k)
    if (slot_at(k)->load(std::memory_order_relaxed) != nullptr)
      handles.push_back(-(kHandleBase + static_cast<int>(k)));
  return handles;
}

void require_initialized(const char* fn) {
  int flag = 0;
  remora_initialized(&flag);
  // GA's own start-up sets the world communicator (Remora may also have been started by the
  // ARMCI layer alone).
  if (!flag || world_comm() == MPI_COMM_NULL)
    ga_fail(fn, "GA is not initialized (call GA_Initialize first)");
}

std::atomic<int>& default_pgroup() {
  static std::atomic<int> group{kWorldGroup};
  return group;
}

MPI_Comm world_comm() {
  return the_world_comm.load(std::memory_order_acquire);
}

void set_world_comm(MPI_Comm comm) {
  the_world_comm.store(comm, std::memory_order_release);
}

}  // namespace remora::ga
