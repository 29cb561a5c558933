// Blocking patch operations: NGA_Put/Get/Acc, their periodic forms (indices that wrap around
// the array's ends) and strided forms (every skip[d]-th element).
#include "ga/ga_patch.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "ga/ga_stats.hpp"

namespace remora::ga {
namespace {

// Periodic: lo..hi in one dimension split into runs that lie inside [0, n) once wrapped.
struct Run {
  int64_t start;   // wrapped global index
  int64_t length;  // elements
  int64_t offset;  // from lo, in the buffer
};

std::vector<Run> wrapped_runs(int64_t lo, int64_t hi, int64_t n) {
  std::vector<Run> runs;
  for (int64_t pos = lo; pos <= hi;) {
    const int64_t start = ((pos % n) + n) % n;
    const int64_t length = std::min(hi - pos + 1, n - start);
    runs.push_back({start, length, pos - lo});
    pos += length;
  }
  return runs;
}

// Strided: the selected elements as one element list (subscripts + densely packed values),
// moved with one scatter / gather / scatter_acc.
void strided(const char* fn, const GaArray& a, Transfer op, const int64_t* lo, const int64_t* hi,
             const int64_t* skip, void* buffer, const int64_t* ld, const void* alpha) {
  if (lo == nullptr || hi == nullptr || skip == nullptr) ga_fail(fn, "lo, hi or skip is NULL");
  if (ld == nullptr && a.ndim > 1) ga_fail(fn, "ld is NULL for a %d-d array", a.ndim);
  int64_t count[GA_MAX_DIM], stride[GA_MAX_DIM], n = 1;
  for (int d = a.ndim - 1; d >= 0; --d) {
    if (skip[d] < 1) ga_fail(fn, "skip[%d]=%lld is not positive", d, (long long)skip[d]);
    if (lo[d] > hi[d])
      ga_fail(fn, "lo[%d]=%lld > hi[%d]=%lld", d, (long long)lo[d], d, (long long)hi[d]);
    count[d] = (hi[d] - lo[d]) / skip[d] + 1;
    stride[d] = d == a.ndim - 1 ? 1 : stride[d + 1] * ld[d];
    n *= count[d];
  }
  const size_t element = element_size(fn, a.type);
  std::vector<int64_t> subscripts(static_cast<size_t>(n * a.ndim));
  std::vector<char> values(static_cast<size_t>(n) * element);
  std::vector<int64_t> buffer_offsets(static_cast<size_t>(n));
  int64_t index[GA_MAX_DIM] = {};
  for (int64_t k = 0; k < n; ++k) {
    int64_t offset = 0;
    for (int d = 0; d < a.ndim; ++d) {
      subscripts[static_cast<size_t>(k * a.ndim + d)] = lo[d] + index[d] * skip[d];
      offset += index[d] * stride[d];
    }
    buffer_offsets[static_cast<size_t>(k)] = offset * static_cast<int64_t>(element);
    for (int d = a.ndim - 1; d >= 0 && ++index[d] == count[d]; --d) index[d] = 0;
  }
  char* user = static_cast<char*>(buffer);
  const auto pack = [&] {
    for (int64_t k = 0; k < n; ++k)
      std::memcpy(&values[static_cast<size_t>(k) * element],
                  user + buffer_offsets[static_cast<size_t>(k)], element);
  };
  const size_t un = static_cast<size_t>(n);
  switch (op) {
    case Transfer::Put:
      pack();
      check(fn, remora_array_scatter(a.array, values.data(), subscripts.data(), un));
      stat_record(Stat::Put, values.size());
      break;
    case Transfer::Acc:
      pack();
      check(fn, remora_array_scatter_acc(a.array, values.data(), subscripts.data(), un, alpha));
      stat_record(Stat::Acc, values.size());
      break;
    case Transfer::Get:
      check(fn, remora_array_gather(a.array, values.data(), subscripts.data(), un));
      for (int64_t k = 0; k < n; ++k)
        std::memcpy(user + buffer_offsets[static_cast<size_t>(k)],
                    &values[static_cast<size_t>(k) * element], element);
      stat_record(Stat::Get, values.size());
      break;
  }
}

template <typename Index>
void blocking(const char* fn, int g_a, Transfer op, const Index* lo, const Index* hi, void* buf,
              const Index* ld, const void* alpha) {
  const GaArray& a = lookup_allocated(fn, g_a, op == Transfer::Acc ? Types::Builtin : Types::Any);
  const PatchArgs args(a, lo, hi, ld);
  transfer(fn, a, op, args.lo.data, args.hi.data, buf, args.ld.data, alpha);
}

template <typename Index>
void blocking_periodic(const char* fn, int g_a, Transfer op, const Index* lo, const Index* hi,
                       void* buf, const Index* ld, const void* alpha) {
  const GaArray& a = lookup_allocated(fn, g_a);
  const PatchArgs args(a, lo, hi, ld);
  periodic(fn, a, op, args.lo.data, args.hi.data, buf, args.ld.data, alpha);
}

template <typename Index>
void blocking_strided(const char* fn, int g_a, Transfer op, const Index* lo, const Index* hi,
                      const Index* skip, void* buf, const Index* ld, const void* alpha) {
  const GaArray& a = lookup_allocated(fn, g_a);
  const PatchArgs args(a, lo, hi, ld);
  const Indices skip64(skip, a.ndim);
  strided(fn, a, op, args.lo.data, args.hi.data, skip64.data, buf, args.ld.data, alpha);
}

}  // namespace

void periodic(const char* fn, const GaArray& a, Transfer op, const int64_t* lo, const int64_t* hi,
              void* buffer, const int64_t* ld, const void* alpha) {
  if (lo == nullptr || hi == nullptr) ga_fail(fn, "lo or hi is NULL");
  if (ld == nullptr && a.ndim > 1) ga_fail(fn, "ld is NULL for a %d-d array", a.ndim);
  std::vector<std::vector<Run>> runs(static_cast<size_t>(a.ndim));
  int64_t stride[GA_MAX_DIM];  // buffer elements per step in each dimension
  for (int d = a.ndim - 1; d >= 0; --d) {
    if (lo[d] > hi[d])
      ga_fail(fn, "lo[%d]=%lld > hi[%d]=%lld", d, (long long)lo[d], d, (long long)hi[d]);
    runs[static_cast<size_t>(d)] = wrapped_runs(lo[d], hi[d], a.dims[d]);
    stride[d] = d == a.ndim - 1 ? 1 : stride[d + 1] * ld[d];
  }
  const size_t element = element_size(fn, a.type);
  size_t pick[GA_MAX_DIM] = {};
  while (true) {
    int64_t sub_lo[GA_MAX_DIM], sub_hi[GA_MAX_DIM], offset = 0;
    for (int d = 0; d < a.ndim; ++d) {
      const Run& run = runs[static_cast<size_t>(d)][pick[d]];
      sub_lo[d] = run.start;
      sub_hi[d] = run.start + run.length - 1;
      offset += run.offset * stride[d];
    }
    transfer(fn, a, op, sub_lo, sub_hi,
             static_cast<char*>(buffer) + offset * static_cast<int64_t>(element), ld, alpha);
    int d = a.ndim - 1;
    while (d >= 0 && pick[d] + 1 == runs[static_cast<size_t>(d)].size()) pick[d] = 0, --d;
    if (d < 0) return;
    ++pick[d];
  }
}

int64_t patch_elements(int ndim, const int64_t* lo, const int64_t* hi) {
  int64_t n = 1;
  for (int d = 0; d < ndim; ++d) n *= hi[d] >= lo[d] ? hi[d] - lo[d] + 1 : 0;
  return n;
}

void transfer(const char* fn, const GaArray& a, Transfer op, const int64_t* lo, const int64_t* hi,
              void* buffer, const int64_t* ld, const void* alpha) {
  if (op != Transfer::Get) require_writable(fn, a);
  if (a.user_bytes != 0 && op != Transfer::Acc)
    return transfer_bytes(fn, a, op, lo, hi, 0, static_cast<int64_t>(a.user_bytes), buffer, ld,
                          nullptr);
  switch (op) {
    case Transfer::Put:
      check(fn, remora_array_put(a.array, lo, hi, buffer, ld));
      break;
    case Transfer::Get:
      if (a.read_only)
        replica_get(fn, a, lo, hi, buffer, ld);
      else if (!cached_get(fn, a, lo, hi, buffer, ld))
        check(fn, remora_array_get(a.array, lo, hi, buffer, ld));
      break;
    case Transfer::Acc:
      if (alpha == nullptr) ga_fail(fn, "alpha is NULL");
      check(fn, remora_array_acc(a.array, lo, hi, buffer, ld, alpha));
      break;
  }
  const Stat stat = op == Transfer::Put ? Stat::Put : op == Transfer::Get ? Stat::Get : Stat::Acc;
  stat_record(stat, static_cast<size_t>(patch_elements(a.ndim, lo, hi)) * element_size(fn, a.type));
}

}  // namespace remora::ga

using namespace remora::ga;

extern "C" {

void NGA_Put(int g_a, int lo[], int hi[], void* buf, int ld[]) {
  blocking("NGA_Put", g_a, Transfer::Put, lo, hi, buf, ld, nullptr);
}
void NGA_Put64(int g_a, int64_t lo[], int64_t hi[], void* buf, int64_t ld[]) {
  blocking("NGA_Put64", g_a, Transfer::Put, lo, hi, buf, ld, nullptr);
}
void NGA_Get(int g_a, int lo[], int hi[], void* buf, int ld[]) {
  blocking("NGA_Get", g_a, Transfer::Get, lo, hi, buf, ld, nullptr);
}
void NGA_Get64(int g_a, int64_t lo[], int64_t hi[], void* buf, int64_t ld[]) {
  blocking("NGA_Get64", g_a, Transfer::Get, lo, hi, buf, ld, nullptr);
}
void NGA_Acc(int g_a, int lo[], int hi[], void* buf, int ld[], void* alpha) {
  blocking("NGA_Acc", g_a, Transfer::Acc, lo, hi, buf, ld, alpha);
}
void NGA_Acc64(int g_a, int64_t lo[], int64_t hi[], void* buf, int64_t ld[], void* alpha) {
  blocking("NGA_Acc64", g_a, Transfer::Acc, lo, hi, buf, ld, alpha);
}

void NGA_Periodic_put(int g_a, int lo[], int hi[], void* buf, int ld[]) {
  blocking_periodic("NGA_Periodic_put", g_a, Transfer::Put, lo, hi, buf, ld, nullptr);
}
void NGA_Periodic_put64(int g_a, int64_t lo[], int64_t hi[], void* buf, int64_t ld[]) {
  blocking_periodic("NGA_Periodic_put64", g_a, Transfer::Put, lo, hi, buf, ld, nullptr);
}
void NGA_Periodic_get(int g_a, int lo[], int hi[], void* buf, int ld[]) {
  blocking_periodic("NGA_Periodic_get", g_a, Transfer::Get, lo, hi, buf, ld, nullptr);
}
void NGA_Periodic_get64(int g_a, int64_t lo[], int64_t hi[], void* buf, int64_t ld[]) {
  blocking_periodic("NGA_Periodic_get64", g_a, Transfer::Get, lo, hi, buf, ld, nullptr);
}
void NGA_Periodic_acc(int g_a, int lo[], int hi[], void* buf, int ld[], void* alpha) {
  blocking_periodic("NGA_Periodic_acc", g_a, Transfer::Acc, lo, hi, buf, ld, alpha);
}
void NGA_Periodic_acc64(int g_a, int64_t lo[], int64_t hi[], void* buf, int64_t ld[], void* alpha) {
  blocking_periodic("NGA_Periodic_acc64", g_a, Transfer::Acc, lo, hi, buf, ld, alpha);
}

void NGA_Strided_put(int g_a, int lo[], int hi[], int skip[], void* buf, int ld[]) {
  blocking_strided("NGA_Strided_put", g_a, Transfer::Put, lo, hi, skip, buf, ld, nullptr);
}
void NGA_Strided_put64(int g_a, int64_t lo[], int64_t hi[], int64_t skip[], void* buf,
                       int64_t ld[]) {
  blocking_strided("NGA_Strided_put64", g_a, Transfer::Put, lo, hi, skip, buf, ld, nullptr);
}
void NGA_Strided_get(int g_a, int lo[], int hi[], int skip[], void* buf, int ld[]) {
  blocking_strided("NGA_Strided_get", g_a, Transfer::Get, lo, hi, skip, buf, ld, nullptr);
}
void NGA_Strided_get64(int g_a, int64_t lo[], int64_t hi[], int64_t skip[], void* buf,
                       int64_t ld[]) {
  blocking_strided("NGA_Strided_get64", g_a, Transfer::Get, lo, hi, skip, buf, ld, nullptr);
}
void NGA_Strided_acc(int g_a, int lo[], int hi[], int skip[], void* buf, int ld[], void* alpha) {
  blocking_strided("NGA_Strided_acc", g_a, Transfer::Acc, lo, hi, skip, buf, ld, alpha);
}
void NGA_Strided_acc64(int g_a, int64_t lo[], int64_t hi[], int64_t skip[], void* buf, int64_t ld[],
                       void* alpha) {
  blocking_strided("NGA_Strided_acc64", g_a, Transfer::Acc, lo, hi, skip, buf, ld, alpha);
}

}  // extern "C"
