// NGA_NbPut/NbGet/NbAcc, NbWait and NbTest. A GA handle names a list of Remora requests: a
// call given a handle that is still pending adds to its list (GA programs issue many calls on
// one handle and wait once); any other value (completed, or never set) starts a new list.
// The handle encodes the slot and a generation, so a stale or uninitialised value is not
// mistaken for a live one. The table is guarded by state_mutex(), never held while waiting:
// threads of a rank (MPI_THREAD_MULTIPLE) each use handles of their own at the same time.
#include <memory>
#include <mutex>
#include <vector>

#include "ga/ga_patch.hpp"
#include "ga/ga_stats.hpp"

namespace remora::ga {
namespace {

struct Pending {
  uint32_t generation = 0;
  bool active = false;
  std::vector<remora_array_request_t> requests;
};
std::vector<std::unique_ptr<Pending>> pending;  // a Pending never moves
uint32_t next_generation = 1;

ga_nbhdl_t encode(size_t slot, uint32_t generation) {
  return static_cast<ga_nbhdl_t>((static_cast<uint64_t>(generation) << 32) | slot);
}

// The live list a handle names, or nullptr. Called with state_mutex() held.
Pending* find(const ga_nbhdl_t* handle) {
  const uint64_t value = static_cast<uint64_t>(*handle);
  const size_t slot = static_cast<size_t>(value & 0xffffffffu);
  const uint32_t generation = static_cast<uint32_t>(value >> 32);
  if (slot >= pending.size()) return nullptr;
  Pending& p = *pending[slot];
  return p.active && p.generation == generation ? &p : nullptr;
}

// Called with state_mutex() held.
Pending& list_for(ga_nbhdl_t* handle) {
  if (Pending* live = find(handle)) return *live;
  size_t slot = 0;
  while (slot < pending.size() && pending[slot]->active) ++slot;
  if (slot == pending.size()) pending.push_back(std::make_unique<Pending>());
  Pending& p = *pending[slot];
  p.active = true;
  p.generation = next_generation++;
  if (next_generation == 0) next_generation = 1;
  p.requests.clear();
  *handle = encode(slot, p.generation);
  return p;
}

template <typename Index>
void nonblocking(const char* fn, int g_a, Transfer op, const Index* lo, const Index* hi, void* buf,
                 const Index* ld, const void* alpha, ga_nbhdl_t* handle) {
  const GaArray& a = lookup_allocated(fn, g_a, op == Transfer::Acc ? Types::Builtin : Types::Any);
  if (handle == nullptr) ga_fail(fn, "nbhandle is NULL");
  const PatchArgs args(a, lo, hi, ld);
  if (a.user_bytes != 0)
    return transfer_bytes(fn, a, op, args.lo.data, args.hi.data, 0,
                          static_cast<int64_t>(a.user_bytes), buf, args.ld.data, handle);
  remora_array_request_t request = REMORA_ARRAY_REQUEST_NULL;
  if (op != Transfer::Get) require_writable(fn, a);
  if (op == Transfer::Get && (a.read_only || a.cache)) {  // from the replica or the read cache:
    if (a.read_only)                                      // complete at once
      replica_get(fn, a, args.lo.data, args.hi.data, buf, args.ld.data);
    else
      cached_get(fn, a, args.lo.data, args.hi.data, buf, args.ld.data);
    stat_record(Stat::Get, static_cast<size_t>(patch_elements(a.ndim, args.lo.data, args.hi.data)) *
                               element_size(fn, a.type));
    const std::lock_guard<std::mutex> hold(state_mutex());
    list_for(handle);
    return;
  }
  switch (op) {
    case Transfer::Put:
      check(fn,
            remora_array_nbput(a.array, args.lo.data, args.hi.data, buf, args.ld.data, &request));
      break;
    case Transfer::Get:
      check(fn,
            remora_array_nbget(a.array, args.lo.data, args.hi.data, buf, args.ld.data, &request));
      break;
    case Transfer::Acc:
      if (alpha == nullptr) ga_fail(fn, "alpha is NULL");
      check(fn, remora_array_nbacc(a.array, args.lo.data, args.hi.data, buf, args.ld.data, alpha,
                                   &request));
      break;
  }
  const Stat stat = op == Transfer::Put ? Stat::Put : op == Transfer::Get ? Stat::Get : Stat::Acc;
  stat_record(stat, static_cast<size_t>(patch_elements(a.ndim, args.lo.data, args.hi.data)) *
                        element_size(fn, a.type));
  const std::lock_guard<std::mutex> hold(state_mutex());
  list_for(handle).requests.push_back(request);
}

}  // namespace

void add_request(const char* fn, ga_nbhdl_t* handle, remora_array_request_t request) {
  if (handle == nullptr) ga_fail(fn, "nbhandle is NULL");
  const std::lock_guard<std::mutex> hold(state_mutex());
  list_for(handle).requests.push_back(request);
}

void complete_handle(const char* fn, ga_nbhdl_t* handle) {
  if (handle == nullptr) ga_fail(fn, "nbhandle is NULL");
  const std::lock_guard<std::mutex> hold(state_mutex());
  list_for(handle);  // a live handle with nothing pending: NbWait / NbTest complete it at once
}

}  // namespace remora::ga

using namespace remora::ga;

extern "C" {

void NGA_NbPut(int g_a, int lo[], int hi[], void* buf, int ld[], ga_nbhdl_t* nbhandle) {
  nonblocking("NGA_NbPut", g_a, Transfer::Put, lo, hi, buf, ld, nullptr, nbhandle);
}
void NGA_NbPut64(int g_a, int64_t lo[], int64_t hi[], void* buf, int64_t ld[],
                 ga_nbhdl_t* nbhandle) {
  nonblocking("NGA_NbPut64", g_a, Transfer::Put, lo, hi, buf, ld, nullptr, nbhandle);
}
void NGA_NbGet(int g_a, int lo[], int hi[], void* buf, int ld[], ga_nbhdl_t* nbhandle) {
  nonblocking("NGA_NbGet", g_a, Transfer::Get, lo, hi, buf, ld, nullptr, nbhandle);
}
void NGA_NbGet64(int g_a, int64_t lo[], int64_t hi[], void* buf, int64_t ld[],
                 ga_nbhdl_t* nbhandle) {
  nonblocking("NGA_NbGet64", g_a, Transfer::Get, lo, hi, buf, ld, nullptr, nbhandle);
}
void NGA_NbAcc(int g_a, int lo[], int hi[], void* buf, int ld[], void* alpha,
               ga_nbhdl_t* nbhandle) {
  nonblocking("NGA_NbAcc", g_a, Transfer::Acc, lo, hi, buf, ld, alpha, nbhandle);
}
void NGA_NbAcc64(int g_a, int64_t lo[], int64_t hi[], void* buf, int64_t ld[], void* alpha,
                 ga_nbhdl_t* nbhandle) {
  nonblocking("NGA_NbAcc64", g_a, Transfer::Acc, lo, hi, buf, ld, alpha, nbhandle);
}

void NGA_NbWait(ga_nbhdl_t* nbhandle) {
  require_initialized("NGA_NbWait");
  if (nbhandle == nullptr) ga_fail("NGA_NbWait", "nbhandle is NULL");
  std::vector<remora_array_request_t> requests;
  {
    const std::lock_guard<std::mutex> hold(state_mutex());
    Pending* p = find(nbhandle);
    if (p == nullptr) return;  // completed already (GA: nothing to do)
    requests.swap(p->requests);
    p->active = false;
  }
  for (remora_array_request_t& request : requests) check("NGA_NbWait", remora_array_wait(&request));
}

int NGA_NbTest(ga_nbhdl_t* nbhandle) {
  require_initialized("NGA_NbTest");
  if (nbhandle == nullptr) ga_fail("NGA_NbTest", "nbhandle is NULL");
  // GA 5.9: 1 once the operation is complete (also for a handle completed before), 0 while
  // it is still pending (its C binding returns the negation of the internal pending test).
  // The requests are tested outside the lock; the handle stays live meanwhile (its slot is not
  // reused), and what is still pending goes back to it.
  std::vector<remora_array_request_t> requests;
  {
    const std::lock_guard<std::mutex> hold(state_mutex());
    Pending* p = find(nbhandle);
    if (p == nullptr) return 1;
    requests.swap(p->requests);
  }
  std::vector<remora_array_request_t> still;
  for (remora_array_request_t& request : requests) {
    int done = 0;
    check("NGA_NbTest", remora_array_test(&request, &done));
    if (!done) still.push_back(request);
  }
  const std::lock_guard<std::mutex> hold(state_mutex());
  Pending* p = find(nbhandle);
  if (p == nullptr) return still.empty() ? 1 : 0;  // (a handle used by two threads at once)
  p->requests.insert(p->requests.end(), still.begin(), still.end());
  if (!p->requests.empty()) return 0;
  p->active = false;
  return 1;
}

}  // extern "C"
