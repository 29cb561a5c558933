#include "ga/ga_registry.hpp"

#include <cstdio>
#include <memory>
#include <mutex>

namespace remora::ga {
namespace {

// Slot k holds handle -(1000 + k): negative like GA's handles, never 0.
constexpr int kHandleBase = 1000;
// Guarded by state_mutex(); a slot's GaArray never moves (unique_ptr), so a reference taken
// under the lock stays valid until GA_Destroy.
std::vector<std::unique_ptr<GaArray>> slots;
// Set by GA_Initialize* and GA_Terminate only (single-threaded), read by every call.
std::atomic<MPI_Comm> the_world_comm{MPI_COMM_NULL};

int slot_of(int handle) {
  return -handle - kHandleBase;
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
      ga_fail(fn,
              "type=%d is not a supported GA type code (C_INT, C_LONG, C_LONGLONG, "
              "C_FLOAT, C_DBL, C_SCPL, C_DCPL or their F_ forms)",
              type);
  }
}

size_t element_size(const char* fn, int type) {
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
  for (size_t k = 0; k < slots.size(); ++k)
    if (!slots[k]) {
      slots[k] = std::make_unique<GaArray>();
      return -(kHandleBase + static_cast<int>(k));
    }
  slots.push_back(std::make_unique<GaArray>());
  return -(kHandleBase + static_cast<int>(slots.size()) - 1);
}

GaArray& lookup(const char* fn, int handle) {
  require_initialized(fn);
  const int slot = slot_of(handle);
  GaArray* a = nullptr;
  {
    const std::lock_guard<std::mutex> hold(state_mutex());
    if (slot >= 0 && static_cast<size_t>(slot) < slots.size())
      a = slots[static_cast<size_t>(slot)].get();
  }
  if (a == nullptr)
    ga_fail(fn, "g_a=%d is not a valid array handle (never created, or destroyed)", handle);
  return *a;
}

bool handle_exists(int handle) {
  const int slot = slot_of(handle);
  const std::lock_guard<std::mutex> hold(state_mutex());
  return slot >= 0 && static_cast<size_t>(slot) < slots.size() &&
         slots[static_cast<size_t>(slot)] != nullptr;
}

GaArray& lookup_allocated(const char* fn, int handle) {
  GaArray& a = lookup(fn, handle);
  if (a.array == nullptr)
    ga_fail(fn, "g_a=%d ('%s') is not allocated yet (GA_Allocate)", handle, a.name.c_str());
  return a;
}

void free_handle(int handle) {
  const std::lock_guard<std::mutex> hold(state_mutex());
  slots[static_cast<size_t>(slot_of(handle))].reset();
}

std::vector<int> live_handles() {
  std::vector<int> handles;
  const std::lock_guard<std::mutex> hold(state_mutex());
  for (size_t k = 0; k < slots.size(); ++k)
    if (slots[k]) handles.push_back(-(kHandleBase + static_cast<int>(k)));
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
