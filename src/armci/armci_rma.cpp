// ARMCI's one-sided transfers: contiguous, strided and vector put / get / accumulate, their
// nonblocking forms and handles, single values and flagged puts. Each contiguous piece is one
// Remora window operation in the region's lock_all epoch.
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <mutex>

#include "armci/armci_internal.hpp"

namespace remora::armci {
namespace {

enum class Kind { Put, Get, Acc };

constexpr int kMaxStrideLevels = 8;  // ARMCI's limit

// A strided transfer, validated: count[0] bytes per piece, count[1..levels] repetitions.
struct Strided {
  int levels = 0;
  size_t count[kMaxStrideLevels + 1] = {};
  size_t local_stride[kMaxStrideLevels] = {};
  size_t remote_stride[kMaxStrideLevels] = {};
  size_t pieces = 1;  // count[1] * ... * count[levels]; 0 when any count is 0
};

// The byte extent [0, extent) a strided side spans from its start.
size_t extent(const Strided& s, const size_t* stride) {
  if (s.pieces == 0 || s.count[0] == 0) return 0;
  size_t last = s.count[0];
  for (int i = 0; i < s.levels; ++i) last += (s.count[i + 1] - 1) * stride[i];
  return last;
}

Strided validate(const char* fn, const int* src_stride, const int* dst_stride, const int* count,
                 int levels, bool local_is_src) {
  if (levels < 0 || levels > kMaxStrideLevels)
    fail(fn, "stride_levels=%d is outside [0, %d]", levels, kMaxStrideLevels);
  if (count == nullptr) fail(fn, "count is NULL");
  if (levels > 0 && (src_stride == nullptr || dst_stride == nullptr))
    fail(fn, "src_stride_ar=%p, dst_stride_ar=%p: NULL with stride_levels=%d",
         static_cast<const void*>(src_stride), static_cast<const void*>(dst_stride), levels);
  Strided s;
  s.levels = levels;
  for (int i = 0; i <= levels; ++i) {
    if (count[i] < 0) fail(fn, "count[%d]=%d is negative", i, count[i]);
    s.count[i] = static_cast<size_t>(count[i]);
    if (i > 0) s.pieces *= s.count[i];
  }
  for (int i = 0; i < levels; ++i) {
    if (src_stride[i] < 0) fail(fn, "src_stride_ar[%d]=%d is negative", i, src_stride[i]);
    if (dst_stride[i] < 0) fail(fn, "dst_stride_ar[%d]=%d is negative", i, dst_stride[i]);
    const auto src = static_cast<size_t>(src_stride[i]), dst = static_cast<size_t>(dst_stride[i]);
    s.local_stride[i] = local_is_src ? src : dst;
    s.remote_stride[i] = local_is_src ? dst : src;
  }
  return s;
}

void check_local(const char* fn, const char* what, const void* ptr, size_t bytes) {
  if (ptr == nullptr && bytes > 0) fail(fn, "%s is NULL", what);
}

// Requests of nonblocking calls not yet waited for, of every thread of the rank (guarded by
// pending_mutex, never held while waiting: a wait takes its requests out of the list first).
struct Pending {
  const armci_hdl_t* handle;
  int target;
  remora_win_t win;
  remora_request_t request;
};
std::mutex pending_mutex;
std::vector<Pending> pending;

// Set while an ARMCI_Nb* call of this thread issues its pieces (Nonblocking below).
thread_local bool nonblocking_active = false;
thread_local armci_hdl_t* nonblocking_handle = nullptr;

// For the duration of an ARMCI_Nb* call: its pieces become requests recorded with hdl.
struct Nonblocking {
  Nonblocking(armci_hdl_t* hdl, int proc) {
    if (hdl != nullptr) hdl->target = proc;  // NULL: an implicit handle (ARMCI_WaitAll)
    nonblocking_active = true;
    nonblocking_handle = hdl;
  }
  ~Nonblocking() {
    nonblocking_active = false;
    nonblocking_handle = nullptr;
  }
  Nonblocking(const Nonblocking&) = delete;
  Nonblocking& operator=(const Nonblocking&) = delete;
};

template <typename Match>
void wait_matching(const char* fn, Match match) {
  std::vector<Pending> mine;
  {
    const std::lock_guard<std::mutex> hold(pending_mutex);
    size_t kept = 0;
    for (Pending& p : pending) {
      if (match(p))
        mine.push_back(p);
      else
        pending[kept++] = p;
    }
    pending.resize(kept);
  }
  for (Pending& p : mine) check(fn, remora_request_wait(&p.request));
}

// One contiguous piece: bytes at offset of the region on proc <-> local; a request when an
// ARMCI_Nb* call is issuing it.
void piece(const char* fn, Kind kind, Region& region, int proc, size_t offset, void* local,
           size_t bytes, remora_datatype_t type, size_t element_bytes, const void* scale) {
  const int wr = region.win_rank[static_cast<size_t>(proc)];  // proc's rank in the window
  if (nonblocking_active) {
    remora_request_t request = REMORA_REQUEST_NULL;
    switch (kind) {
      case Kind::Put:
        check(fn, remora_win_rput(region.win, wr, offset, local, bytes, REMORA_UINT8, &request));
        break;
      case Kind::Get:
        check(fn, remora_win_rget(region.win, wr, offset, local, bytes, REMORA_UINT8, &request));
        break;
      case Kind::Acc:
        check(fn, remora_win_raccumulate(region.win, wr, offset, local, bytes / element_bytes, type,
                                         REMORA_OP_SCALED_SUM, scale, &request));
        break;
    }
    const std::lock_guard<std::mutex> hold(pending_mutex);
    pending.push_back({nonblocking_handle, proc, region.win, request});
    return;
  }
  switch (kind) {
    case Kind::Put:
      check(fn, remora_win_put(region.win, wr, offset, local, bytes, REMORA_UINT8));
      break;
    case Kind::Get:
      check(fn, remora_win_get(region.win, wr, offset, local, bytes, REMORA_UINT8));
      break;
    case Kind::Acc:
      check(fn, remora_win_accumulate(region.win, wr, offset, local, bytes / element_bytes, type,
                                      REMORA_OP_SCALED_SUM, scale));
      break;
  }
}

// Orders this operation after earlier ones to proc that it could overtake: a get or an
// accumulate waits for pending puts, a put for pending accumulates, a get for both.
void order(const char* fn, Kind kind, Region& region, int proc) {
  switch (kind) {
    case Kind::Put:
      flush_if_dirty(fn, region, proc, kPendingAcc);
      break;
    case Kind::Get:
      flush_if_dirty(fn, region, proc);
      break;
    case Kind::Acc:
      flush_if_dirty(fn, region, proc, kPendingPut);
      break;
  }
}

void after(Kind kind, Region& region, int proc) {
  if (kind == Kind::Put) mark_dirty(region, proc, kPendingPut);
  if (kind == Kind::Acc) mark_dirty(region, proc, kPendingAcc);
}

struct AccType {
  remora_datatype_t type = REMORA_UINT8;
  size_t element_bytes = 1;
};

AccType acc_type(const char* fn, Kind kind, int datatype, const void* scale) {
  AccType t;
  if (kind != Kind::Acc) return t;
  t.type = acc_datatype(fn, datatype, &t.element_bytes);
  if (scale == nullptr) fail(fn, "scale is NULL");
  return t;
}

// The strided transfer: local / remote are the local and remote start addresses.
void strided(const char* fn, Kind kind, int datatype, const void* scale, void* local,
             const char* local_name, void* remote, const char* remote_name, const Strided& s,
             int proc) {
  check_proc(fn, "proc", proc);
  const AccType t = acc_type(fn, kind, datatype, scale);
  if (kind == Kind::Acc && s.count[0] % t.element_bytes != 0)
    fail(fn, "count[0]=%zu bytes is not a whole number of %zu-byte elements of datatype=%d",
         s.count[0], t.element_bytes, datatype);
  const size_t remote_extent = extent(s, s.remote_stride);
  if (remote_extent == 0) return;
  check_local(fn, local_name, local, extent(s, s.local_stride));
  const Location where = locate(fn, remote_name, remote, remote_extent, proc);
  order(fn, kind, *where.region, proc);
  size_t index[kMaxStrideLevels + 1] = {};
  size_t local_offset = 0, remote_offset = 0;
  for (size_t p = 0; p < s.pieces; ++p) {
    piece(fn, kind, *where.region, proc, where.offset + remote_offset,
          static_cast<char*>(local) + local_offset, s.count[0], t.type, t.element_bytes, scale);
    for (int level = 0; level < s.levels; ++level) {  // the next piece (odometer)
      local_offset += s.local_stride[level];
      remote_offset += s.remote_stride[level];
      if (++index[level] < s.count[level + 1]) break;
      local_offset -= s.count[level + 1] * s.local_stride[level];
      remote_offset -= s.count[level + 1] * s.remote_stride[level];
      index[level] = 0;
    }
  }
  after(kind, *where.region, proc);
}

void contiguous(const char* fn, Kind kind, int datatype, const void* scale, void* local,
                const char* local_name, void* remote, const char* remote_name, int bytes,
                int proc) {
  check_bytes(fn, "bytes", bytes);
  const int count[1] = {bytes};
  const Strided s = validate(fn, nullptr, nullptr, count, 0, true);
  strided(fn, kind, datatype, scale, local, local_name, remote, remote_name, s, proc);
}

void vector(const char* fn, Kind kind, int datatype, const void* scale, armci_giov_t* iov,
            int iov_len, int proc) {
  check_proc(fn, "proc", proc);
  if (iov_len < 0) fail(fn, "iov_len=%d is negative", iov_len);
  if (iov == nullptr && iov_len > 0) fail(fn, "iov is NULL with iov_len=%d", iov_len);
  const AccType t = acc_type(fn, kind, datatype, scale);
  for (int v = 0; v < iov_len; ++v) {
    const armci_giov_t& g = iov[v];
    if (g.bytes < 0) fail(fn, "iov[%d].bytes=%d is negative", v, g.bytes);
    if (g.ptr_array_len < 0) fail(fn, "iov[%d].ptr_array_len=%d is negative", v, g.ptr_array_len);
    if (g.bytes == 0 || g.ptr_array_len == 0) continue;
    if (g.src_ptr_array == nullptr || g.dst_ptr_array == nullptr)
      fail(fn, "iov[%d]: src_ptr_array=%p, dst_ptr_array=%p: NULL", v,
           static_cast<void*>(g.src_ptr_array), static_cast<void*>(g.dst_ptr_array));
    if (kind == Kind::Acc && static_cast<size_t>(g.bytes) % t.element_bytes != 0)
      fail(fn, "iov[%d].bytes=%d is not a whole number of %zu-byte elements of datatype=%d", v,
           g.bytes, t.element_bytes, datatype);
    const auto bytes = static_cast<size_t>(g.bytes);
    for (int i = 0; i < g.ptr_array_len; ++i) {
      void* remote = kind == Kind::Get ? g.src_ptr_array[i] : g.dst_ptr_array[i];
      void* local = kind == Kind::Get ? g.dst_ptr_array[i] : g.src_ptr_array[i];
      if (local == nullptr)
        fail(fn, "iov[%d].%s_ptr_array[%d] is NULL", v, kind == Kind::Get ? "dst" : "src", i);
      const Location where = locate(fn, kind == Kind::Get ? "src_ptr_array[i]" : "dst_ptr_array[i]",
                                    remote, bytes, proc);
      order(fn, kind, *where.region, proc);
      piece(fn, kind, *where.region, proc, where.offset, local, bytes, t.type, t.element_bytes,
            scale);
      after(kind, *where.region, proc);
    }
  }
}

void copy_strided(const char* fn, char* ptr, int levels, const int* stride, const int* count,
                  char* buf, bool to_ptr) {
  if (ptr == nullptr || buf == nullptr)
    fail(fn, "ptr=%p, buf=%p: NULL", static_cast<void*>(ptr), static_cast<void*>(buf));
  const Strided s = validate(fn, stride, stride, count, levels, true);
  size_t index[kMaxStrideLevels + 1] = {};
  size_t offset = 0;
  for (size_t p = 0; p < s.pieces; ++p, buf += s.count[0]) {
    if (to_ptr)
      std::memcpy(ptr + offset, buf, s.count[0]);
    else
      std::memcpy(buf, ptr + offset, s.count[0]);
    for (int level = 0; level < s.levels; ++level) {
      offset += s.local_stride[level];
      if (++index[level] < s.count[level + 1]) break;
      offset -= s.count[level + 1] * s.local_stride[level];
      index[level] = 0;
    }
  }
}

template <typename T>
T get_value(const char* fn, void* src, int proc) {
  T value{};
  contiguous(fn, Kind::Get, 0, nullptr, &value, "result", src, "src", sizeof(T), proc);
  return value;
}

}  // namespace

void wait_pending_handle(const char* fn, const armci_hdl_t* handle) {
  wait_matching(fn, [&](const Pending& p) { return p.handle == handle; });
}

void wait_pending_target(const char* fn, int target) {
  wait_matching(fn, [&](const Pending& p) { return target < 0 || p.target == target; });
}

void wait_pending_window(const char* fn, remora_win_t win) {
  wait_matching(fn, [&](const Pending& p) { return p.win == win; });
}

int test_pending_handle(const char* fn, const armci_hdl_t* handle) {
  std::vector<Pending> mine;  // tested outside the lock; the incomplete ones go back
  {
    const std::lock_guard<std::mutex> hold(pending_mutex);
    size_t kept = 0;
    for (Pending& p : pending) {
      if (p.handle == handle)
        mine.push_back(p);
      else
        pending[kept++] = p;
    }
    pending.resize(kept);
  }
  size_t incomplete = 0;
  for (Pending& p : mine) {
    int done = 0;
    check(fn, remora_request_test(&p.request, &done));
    if (!done) mine[incomplete++] = p;
  }
  mine.resize(incomplete);
  if (mine.empty()) return 0;
  const std::lock_guard<std::mutex> hold(pending_mutex);
  pending.insert(pending.end(), mine.begin(), mine.end());
  return 1;
}

}  // namespace remora::armci

using namespace remora::armci;

extern "C" {

int PARMCI_Put(void* src, void* dst, int size, int target) {
  contiguous("ARMCI_Put", Kind::Put, 0, nullptr, src, "src", dst, "dst", size, target);
  return 0;
}

int PARMCI_Get(void* src, void* dst, int size, int target) {
  contiguous("ARMCI_Get", Kind::Get, 0, nullptr, dst, "dst", src, "src", size, target);
  return 0;
}

int PARMCI_Acc(int datatype, void* scale, void* src, void* dst, int bytes, int proc) {
  contiguous("ARMCI_Acc", Kind::Acc, datatype, scale, src, "src", dst, "dst", bytes, proc);
  return 0;
}

int PARMCI_PutS(void* src_ptr, int src_stride_ar[], void* dst_ptr, int dst_stride_ar[], int count[],
                int stride_levels, int proc) {
  const char* fn = "ARMCI_PutS";
  const Strided s = validate(fn, src_stride_ar, dst_stride_ar, count, stride_levels, true);
  strided(fn, Kind::Put, 0, nullptr, src_ptr, "src_ptr", dst_ptr, "dst_ptr", s, proc);
  return 0;
}

int PARMCI_GetS(void* src_ptr, int src_stride_ar[], void* dst_ptr, int dst_stride_ar[], int count[],
                int stride_levels, int proc) {
  const char* fn = "ARMCI_GetS";
  const Strided s = validate(fn, src_stride_ar, dst_stride_ar, count, stride_levels, false);
  strided(fn, Kind::Get, 0, nullptr, dst_ptr, "dst_ptr", src_ptr, "src_ptr", s, proc);
  return 0;
}

int PARMCI_AccS(int datatype, void* scale, void* src_ptr, int src_stride_ar[], void* dst_ptr,
                int dst_stride_ar[], int count[], int stride_levels, int proc) {
  const char* fn = "ARMCI_AccS";
  const Strided s = validate(fn, src_stride_ar, dst_stride_ar, count, stride_levels, true);
  strided(fn, Kind::Acc, datatype, scale, src_ptr, "src_ptr", dst_ptr, "dst_ptr", s, proc);
  return 0;
}

int PARMCI_Put_flag(void* src, void* dst, int size, int* flag, int value, int proc) {
  const char* fn = "ARMCI_Put_flag";
  contiguous(fn, Kind::Put, 0, nullptr, src, "src", dst, "dst", size, proc);
  fence(fn, proc);
  contiguous(fn, Kind::Put, 0, nullptr, &value, "value", flag, "flag", sizeof(int), proc);
  fence(fn, proc);
  return 0;
}

int PARMCI_PutS_flag(void* src_ptr, int src_stride_ar[], void* dst_ptr, int dst_stride_ar[],
                     int count[], int stride_levels, int* flag, int value, int proc) {
  const char* fn = "ARMCI_PutS_flag";
  const Strided s = validate(fn, src_stride_ar, dst_stride_ar, count, stride_levels, true);
  strided(fn, Kind::Put, 0, nullptr, src_ptr, "src_ptr", dst_ptr, "dst_ptr", s, proc);
  fence(fn, proc);
  contiguous(fn, Kind::Put, 0, nullptr, &value, "value", flag, "flag", sizeof(int), proc);
  fence(fn, proc);
  return 0;
}

void PARMCI_INIT_HANDLE(armci_hdl_t* hdl) {
  if (hdl == nullptr) fail("ARMCI_INIT_HANDLE", "hdl is NULL");
  hdl->target = -1;
  hdl->aggregate = 0;
}

void PARMCI_SET_AGGREGATE_HANDLE(armci_hdl_t* handle) {
  if (handle == nullptr) fail("ARMCI_SET_AGGREGATE_HANDLE", "handle is NULL");
  handle->aggregate = 1;
}

void PARMCI_UNSET_AGGREGATE_HANDLE(armci_hdl_t* handle) {
  if (handle == nullptr) fail("ARMCI_UNSET_AGGREGATE_HANDLE", "handle is NULL");
  handle->aggregate = 0;
}

int PARMCI_NbPut(void* src, void* dst, int bytes, int proc, armci_hdl_t* hdl) {
  const Nonblocking nb(hdl, proc);
  contiguous("ARMCI_NbPut", Kind::Put, 0, nullptr, src, "src", dst, "dst", bytes, proc);
  return 0;
}

int PARMCI_NbGet(void* src, void* dst, int bytes, int proc, armci_hdl_t* hdl) {
  const Nonblocking nb(hdl, proc);
  contiguous("ARMCI_NbGet", Kind::Get, 0, nullptr, dst, "dst", src, "src", bytes, proc);
  return 0;
}

int PARMCI_NbAcc(int datatype, void* scale, void* src, void* dst, int bytes, int proc,
                 armci_hdl_t* hdl) {
  const Nonblocking nb(hdl, proc);
  contiguous("ARMCI_NbAcc", Kind::Acc, datatype, scale, src, "src", dst, "dst", bytes, proc);
  return 0;
}

int PARMCI_NbPutS(void* src_ptr, int src_stride_ar[], void* dst_ptr, int dst_stride_ar[],
                  int count[], int stride_levels, int proc, armci_hdl_t* hdl) {
  const char* fn = "ARMCI_NbPutS";
  const Nonblocking nb(hdl, proc);
  const Strided s = validate(fn, src_stride_ar, dst_stride_ar, count, stride_levels, true);
  strided(fn, Kind::Put, 0, nullptr, src_ptr, "src_ptr", dst_ptr, "dst_ptr", s, proc);
  return 0;
}

int PARMCI_NbGetS(void* src_ptr, int src_stride_ar[], void* dst_ptr, int dst_stride_ar[],
                  int count[], int stride_levels, int proc, armci_hdl_t* hdl) {
  const char* fn = "ARMCI_NbGetS";
  const Nonblocking nb(hdl, proc);
  const Strided s = validate(fn, src_stride_ar, dst_stride_ar, count, stride_levels, false);
  strided(fn, Kind::Get, 0, nullptr, dst_ptr, "dst_ptr", src_ptr, "src_ptr", s, proc);
  return 0;
}

int PARMCI_NbAccS(int datatype, void* scale, void* src_ptr, int src_stride_ar[], void* dst_ptr,
                  int dst_stride_ar[], int count[], int stride_levels, int proc, armci_hdl_t* hdl) {
  const char* fn = "ARMCI_NbAccS";
  const Nonblocking nb(hdl, proc);
  const Strided s = validate(fn, src_stride_ar, dst_stride_ar, count, stride_levels, true);
  strided(fn, Kind::Acc, datatype, scale, src_ptr, "src_ptr", dst_ptr, "dst_ptr", s, proc);
  return 0;
}

int PARMCI_PutV(armci_giov_t* iov, int iov_len, int proc) {
  vector("ARMCI_PutV", Kind::Put, 0, nullptr, iov, iov_len, proc);
  return 0;
}

int PARMCI_GetV(armci_giov_t* iov, int iov_len, int proc) {
  vector("ARMCI_GetV", Kind::Get, 0, nullptr, iov, iov_len, proc);
  return 0;
}

int PARMCI_AccV(int datatype, void* scale, armci_giov_t* iov, int iov_len, int proc) {
  vector("ARMCI_AccV", Kind::Acc, datatype, scale, iov, iov_len, proc);
  return 0;
}

int PARMCI_NbPutV(armci_giov_t* iov, int iov_len, int proc, armci_hdl_t* handle) {
  const Nonblocking nb(handle, proc);
  vector("ARMCI_NbPutV", Kind::Put, 0, nullptr, iov, iov_len, proc);
  return 0;
}

int PARMCI_NbGetV(armci_giov_t* iov, int iov_len, int proc, armci_hdl_t* handle) {
  const Nonblocking nb(handle, proc);
  vector("ARMCI_NbGetV", Kind::Get, 0, nullptr, iov, iov_len, proc);
  return 0;
}

int PARMCI_NbAccV(int datatype, void* scale, armci_giov_t* iov, int iov_len, int proc,
                  armci_hdl_t* handle) {
  const Nonblocking nb(handle, proc);
  vector("ARMCI_NbAccV", Kind::Acc, datatype, scale, iov, iov_len, proc);
  return 0;
}

// Completion of nonblocking calls: a get's data has arrived, a put's or accumulate's source
// may be reused (remote completion: ARMCI_Fence).
int PARMCI_Wait(armci_hdl_t* hdl) {
  require_initialized("ARMCI_Wait");
  if (hdl == nullptr) fail("ARMCI_Wait", "hdl is NULL");
  wait_pending_handle("ARMCI_Wait", hdl);
  return 0;
}

int PARMCI_Test(armci_hdl_t* hdl) {
  require_initialized("ARMCI_Test");
  if (hdl == nullptr) fail("ARMCI_Test", "hdl is NULL");
  return test_pending_handle("ARMCI_Test", hdl);  // ARMCI: 0 = complete
}

int PARMCI_WaitProc(int proc) {
  check_proc("ARMCI_WaitProc", "proc", proc);
  wait_pending_target("ARMCI_WaitProc", proc);
  return 0;
}

int PARMCI_WaitAll(void) {
  require_initialized("ARMCI_WaitAll");
  wait_pending_target("ARMCI_WaitAll", -1);
  return 0;
}

void armci_write_strided(void* ptr, int stride_levels, int stride_arr[], int count[], char* buf) {
  copy_strided("armci_write_strided", static_cast<char*>(ptr), stride_levels, stride_arr, count,
               buf, true);
}

void armci_read_strided(void* ptr, int stride_levels, int stride_arr[], int count[], char* buf) {
  copy_strided("armci_read_strided", static_cast<char*>(ptr), stride_levels, stride_arr, count, buf,
               false);
}

int PARMCI_PutValueInt(int src, void* dst, int proc) {
  contiguous("ARMCI_PutValueInt", Kind::Put, 0, nullptr, &src, "src", dst, "dst", sizeof src, proc);
  return 0;
}

int PARMCI_PutValueLong(long src, void* dst, int proc) {
  contiguous("ARMCI_PutValueLong", Kind::Put, 0, nullptr, &src, "src", dst, "dst", sizeof src,
             proc);
  return 0;
}

int PARMCI_PutValueFloat(float src, void* dst, int proc) {
  contiguous("ARMCI_PutValueFloat", Kind::Put, 0, nullptr, &src, "src", dst, "dst", sizeof src,
             proc);
  return 0;
}

int PARMCI_PutValueDouble(double src, void* dst, int proc) {
  contiguous("ARMCI_PutValueDouble", Kind::Put, 0, nullptr, &src, "src", dst, "dst", sizeof src,
             proc);
  return 0;
}

int PARMCI_NbPutValueInt(int src, void* dst, int proc, armci_hdl_t* hdl) {
  if (hdl != nullptr) hdl->target = proc;  // done at once: the value is on this stack
  contiguous("ARMCI_NbPutValueInt", Kind::Put, 0, nullptr, &src, "src", dst, "dst", sizeof src,
             proc);
  return 0;
}

int PARMCI_NbPutValueLong(long src, void* dst, int proc, armci_hdl_t* hdl) {
  if (hdl != nullptr) hdl->target = proc;  // done at once: the value is on this stack
  contiguous("ARMCI_NbPutValueLong", Kind::Put, 0, nullptr, &src, "src", dst, "dst", sizeof src,
             proc);
  return 0;
}

int PARMCI_NbPutValueFloat(float src, void* dst, int proc, armci_hdl_t* hdl) {
  if (hdl != nullptr) hdl->target = proc;  // done at once: the value is on this stack
  contiguous("ARMCI_NbPutValueFloat", Kind::Put, 0, nullptr, &src, "src", dst, "dst", sizeof src,
             proc);
  return 0;
}

int PARMCI_NbPutValueDouble(double src, void* dst, int proc, armci_hdl_t* hdl) {
  if (hdl != nullptr) hdl->target = proc;  // done at once: the value is on this stack
  contiguous("ARMCI_NbPutValueDouble", Kind::Put, 0, nullptr, &src, "src", dst, "dst", sizeof src,
             proc);
  return 0;
}

int PARMCI_GetValueInt(void* src, int proc) {
  return get_value<int>("ARMCI_GetValueInt", src, proc);
}

long PARMCI_GetValueLong(void* src, int proc) {
  return get_value<long>("ARMCI_GetValueLong", src, proc);
}

float PARMCI_GetValueFloat(void* src, int proc) {
  return get_value<float>("ARMCI_GetValueFloat", src, proc);
}

double PARMCI_GetValueDouble(void* src, int proc) {
  return get_value<double>("ARMCI_GetValueDouble", src, proc);
}

}  // extern "C"

// The ARMCI_ names: weak aliases of the PARMCI_ definitions (armci_internal.hpp).
REMORA_ARMCI_PROFILED(ARMCI_Put);
REMORA_ARMCI_PROFILED(ARMCI_Get);
REMORA_ARMCI_PROFILED(ARMCI_Acc);
REMORA_ARMCI_PROFILED(ARMCI_PutS);
REMORA_ARMCI_PROFILED(ARMCI_GetS);
REMORA_ARMCI_PROFILED(ARMCI_AccS);
REMORA_ARMCI_PROFILED(ARMCI_Put_flag);
REMORA_ARMCI_PROFILED(ARMCI_PutS_flag);
REMORA_ARMCI_PROFILED(ARMCI_INIT_HANDLE);
REMORA_ARMCI_PROFILED(ARMCI_SET_AGGREGATE_HANDLE);
REMORA_ARMCI_PROFILED(ARMCI_UNSET_AGGREGATE_HANDLE);
REMORA_ARMCI_PROFILED(ARMCI_NbPut);
REMORA_ARMCI_PROFILED(ARMCI_NbGet);
REMORA_ARMCI_PROFILED(ARMCI_NbAcc);
REMORA_ARMCI_PROFILED(ARMCI_NbPutS);
REMORA_ARMCI_PROFILED(ARMCI_NbGetS);
REMORA_ARMCI_PROFILED(ARMCI_NbAccS);
REMORA_ARMCI_PROFILED(ARMCI_PutV);
REMORA_ARMCI_PROFILED(ARMCI_GetV);
REMORA_ARMCI_PROFILED(ARMCI_AccV);
REMORA_ARMCI_PROFILED(ARMCI_NbPutV);
REMORA_ARMCI_PROFILED(ARMCI_NbGetV);
REMORA_ARMCI_PROFILED(ARMCI_NbAccV);
REMORA_ARMCI_PROFILED(ARMCI_Wait);
REMORA_ARMCI_PROFILED(ARMCI_Test);
REMORA_ARMCI_PROFILED(ARMCI_WaitProc);
REMORA_ARMCI_PROFILED(ARMCI_WaitAll);
REMORA_ARMCI_PROFILED(ARMCI_PutValueInt);
REMORA_ARMCI_PROFILED(ARMCI_PutValueLong);
REMORA_ARMCI_PROFILED(ARMCI_PutValueFloat);
REMORA_ARMCI_PROFILED(ARMCI_PutValueDouble);
REMORA_ARMCI_PROFILED(ARMCI_NbPutValueInt);
REMORA_ARMCI_PROFILED(ARMCI_NbPutValueLong);
REMORA_ARMCI_PROFILED(ARMCI_NbPutValueFloat);
REMORA_ARMCI_PROFILED(ARMCI_NbPutValueDouble);
REMORA_ARMCI_PROFILED(ARMCI_GetValueInt);
REMORA_ARMCI_PROFILED(ARMCI_GetValueLong);
REMORA_ARMCI_PROFILED(ARMCI_GetValueFloat);
REMORA_ARMCI_PROFILED(ARMCI_GetValueDouble);
