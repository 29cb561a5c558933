// GA's sparse data management on 1-D arrays: GA_Pack / GA_Unpack (gather the elements a mask
// selects into a dense array, and scatter them back) and the segmented scans GA_Scan_add /
// GA_Scan_copy (a non-zero mask element starts a segment). All collective over the arrays'
// group: each rank handles an even share of lo..hi, and the ranks exchange one summary each.
// Behaviour at the edges follows GA 5.8 (checked against it): a segment starts only at a set
// mask element inside lo..hi; before the first one Scan_add leaves the destination unchanged
// and Scan_copy sets it to zero.
#include <complex>
#include <cstring>
#include <utility>
#include <vector>

#include "ga/ga_registry.hpp"

using namespace remora::ga;

namespace {

// The three arrays of a call, checked: allocated, 1-D, of one group, src and dst of one type,
// lo..hi inside src (the array read or written at lo..hi) and the mask, and inside dst too for
// the scans. Names are GA's parameter names, for the messages.
struct Arrays {
  GaArray* src;
  GaArray* dst;
  GaArray* mask;
  remora_comm_t comm;
  int ranks, rank;
};

struct Named {
  const char* name;
  int handle;
};

Arrays arrays(const char* fn, Named src, Named dst, Named mask, int64_t lo, int64_t hi,
              bool dst_covers_range) {
  Arrays a{&lookup_allocated(fn, src.handle),
           &lookup_allocated(fn, dst.handle),
           &lookup_allocated(fn, mask.handle),
           nullptr,
           0,
           0};
  const std::pair<Named, GaArray*> all[3] = {{src, a.src}, {dst, a.dst}, {mask, a.mask}};
  for (const auto& [named, array] : all)
    if (array->ndim != 1)
      ga_fail(fn, "%s=%d ('%s') has %d dimensions; this operation takes 1-D arrays", named.name,
              named.handle, array->name.c_str(), array->ndim);
  if (a.src->datatype != a.dst->datatype)
    ga_fail(fn, "%s=%d has GA type %d but %s=%d has GA type %d: they must match", src.name,
            src.handle, a.src->type, dst.name, dst.handle, a.dst->type);
  if (a.src->pgroup != a.dst->pgroup || a.src->pgroup != a.mask->pgroup)
    ga_fail(fn, "%s=%d, %s=%d and %s=%d live on different process groups", src.name, src.handle,
            dst.name, dst.handle, mask.name, mask.handle);
  if (lo < 0 || hi < lo || hi >= a.src->dims[0])
    ga_fail(fn, "lo=%lld, hi=%lld is not a range inside %s=%d's [0, %lld)",
            static_cast<long long>(lo), static_cast<long long>(hi), src.name, src.handle,
            static_cast<long long>(a.src->dims[0]));
  if (hi >= a.mask->dims[0])
    ga_fail(fn, "hi=%lld lies outside %s=%d's [0, %lld)", static_cast<long long>(hi), mask.name,
            mask.handle, static_cast<long long>(a.mask->dims[0]));
  if (dst_covers_range && hi >= a.dst->dims[0])
    ga_fail(fn, "hi=%lld lies outside %s=%d's [0, %lld)", static_cast<long long>(hi), dst.name,
            dst.handle, static_cast<long long>(a.dst->dims[0]));
  a.comm = pgroup_comm(fn, a.src->pgroup);
  a.ranks = array_ranks(*a.src);
  a.rank = array_rank(*a.src);
  return a;
}

// This rank's share [first, last] of lo..hi (empty: first > last).
void share(const Arrays& a, int64_t lo, int64_t hi, int64_t* first, int64_t* last) {
  const int64_t n = hi - lo + 1;
  *first = lo + n * a.rank / a.ranks;
  *last = lo + n * (a.rank + 1) / a.ranks - 1;
}

std::vector<char> get(const char* fn, const GaArray& array, int64_t first, int64_t last) {
  std::vector<char> bytes(static_cast<size_t>(last - first + 1) * element_size(fn, array.type));
  if (first <= last) check(fn, remora_array_get(array.array, &first, &last, bytes.data(), nullptr));
  return bytes;
}

void put(const char* fn, const GaArray& array, int64_t first, int64_t last, const void* data) {
  if (first <= last) check(fn, remora_array_put(array.array, &first, &last, data, nullptr));
}

// The mask's elements as flags (non-zero: set; a complex element is set when either part is).
std::vector<char> flags(const char* fn, const GaArray& mask, int64_t first, int64_t last) {
  const std::vector<char> bytes = get(fn, mask, first, last);
  const auto n = static_cast<size_t>(last - first + 1);
  std::vector<char> set(first <= last ? n : 0);
  auto test = [&](auto zero) {
    using T = decltype(zero);
    const size_t parts = element_size(fn, mask.type) / sizeof(T);
    for (size_t i = 0; i < set.size(); ++i)
      for (size_t p = 0; p < parts; ++p) {
        T v;
        std::memcpy(&v, bytes.data() + (i * parts + p) * sizeof(T), sizeof v);
        if (v != zero) set[i] = 1;
      }
  };
  switch (mask.datatype) {
    case REMORA_INT32:
      test(int32_t{0});
      break;
    case REMORA_INT64:
      test(int64_t{0});
      break;
    case REMORA_FLOAT:
    case REMORA_FLOAT_COMPLEX:
      test(0.0f);
      break;
    default:
      test(0.0);
      break;
  }
  return set;
}

// Calls body(T{}) with T the C++ type of a GA array's elements.
template <typename Body>
void with_type(remora_datatype_t type, Body body) {
  switch (type) {
    case REMORA_INT32:
      body(int32_t{});
      break;
    case REMORA_INT64:
      body(int64_t{});
      break;
    case REMORA_FLOAT:
      body(float{});
      break;
    case REMORA_DOUBLE:
      body(double{});
      break;
    case REMORA_FLOAT_COMPLEX:
      body(std::complex<float>{});
      break;
    default:
      body(std::complex<double>{});
      break;
  }
}

template <typename Index>
void pack_unpack(const char* fn, bool pack, int g_src, int g_dst, int g_mask, int64_t lo,
                 int64_t hi, Index* icount) {
  if (icount == nullptr) ga_fail(fn, "icount is NULL");
  remora::ga::writable(fn, g_dst);
  // The sparse array is read (pack: g_src) or written (unpack: g_dest) at lo..hi; the dense one
  // holds the selected elements from index 0.
  const Named src{"g_src", g_src}, dest{"g_dest", g_dst}, mask{"g_mask", g_mask};
  const Arrays a = pack ? arrays(fn, src, dest, mask, lo, hi, false)
                        : arrays(fn, dest, src, mask, lo, hi, false);
  const GaArray& sparse = *a.src;
  const GaArray& dense = *a.dst;
  check(fn, remora_array_sync_comm(a.comm));
  int64_t first = 0, last = -1;
  share(a, lo, hi, &first, &last);
  const std::vector<char> set = flags(fn, *a.mask, first, last);
  int64_t count = 0;
  for (char f : set) count += f;
  std::vector<int64_t> counts(static_cast<size_t>(a.ranks));
  check(fn, remora_allgather(&count, counts.data(), 1, REMORA_INT64, a.comm, REMORA_COLL_AUTO));
  int64_t place = 0, total = 0;
  for (int r = 0; r < a.ranks; ++r) {
    if (r < a.rank) place += counts[static_cast<size_t>(r)];
    total += counts[static_cast<size_t>(r)];
  }
  if (total > dense.dims[0])
    ga_fail(fn, "the mask selects %lld elements but the packed array '%s' holds %lld",
            static_cast<long long>(total), dense.name.c_str(),
            static_cast<long long>(dense.dims[0]));
  const size_t size = element_size(fn, sparse.type);
  if (count > 0) {
    std::vector<char> values = get(fn, sparse, first, last);
    std::vector<char> packed(static_cast<size_t>(count) * size);
    if (pack) {
      for (size_t i = 0, k = 0; i < set.size(); ++i)
        if (set[i]) std::memcpy(packed.data() + size * k++, values.data() + size * i, size);
      put(fn, dense, place, place + count - 1, packed.data());
    } else {
      packed = get(fn, dense, place, place + count - 1);
      for (size_t i = 0, k = 0; i < set.size(); ++i)
        if (set[i]) std::memcpy(values.data() + size * i, packed.data() + size * k++, size);
      put(fn, sparse, first, last, values.data());
    }
  }
  *icount = static_cast<Index>(total);
  check(fn, remora_array_sync_comm(a.comm));
}

// One rank's share, summarised for the ranks after it.
struct Summary {
  int64_t has_set;         // a mask element is set in the share
  int64_t nonempty;        // the share has elements
  unsigned char tail[16];  // add: running sum at the share's end (from its last set element,
                           // or the share's plain sum); copy: the value at the last set element
};

template <typename T>
void scan_typed(const char* fn, const Arrays& a, int64_t first, int64_t last,
                const std::vector<char>& set, bool add, bool exclusive) {
  const std::vector<char> bytes = get(fn, *a.src, first, last);
  const size_t n = set.size();
  std::vector<T> src(n);
  if (n > 0) std::memcpy(src.data(), bytes.data(), n * sizeof(T));
  Summary mine{};
  mine.nonempty = n > 0 ? 1 : 0;
  T tail{};
  for (size_t i = 0; i < n; ++i) {
    if (set[i]) {
      mine.has_set = 1;
      tail = src[i];
    } else if (add) {
      tail = tail + src[i];
    }
  }
  std::memcpy(mine.tail, &tail, sizeof tail);
  std::vector<Summary> all(static_cast<size_t>(a.ranks));
  check(fn, remora_allgather(&mine, all.data(), sizeof(Summary), REMORA_UINT8, a.comm,
                             REMORA_COLL_AUTO));
  // The running value just before this share: from the nearest earlier share with a set
  // element, plus (add) the plain sums of the shares between.
  bool active = false;
  T carry{};
  for (int r = a.rank - 1; r >= 0; --r) {
    const Summary& s = all[static_cast<size_t>(r)];
    if (!s.nonempty) continue;
    T value;
    std::memcpy(&value, s.tail, sizeof value);
    if (s.has_set) {
      active = true;
      T sum = value;
      if (add)
        for (int k = r + 1; k < a.rank; ++k) {
          const Summary& between = all[static_cast<size_t>(k)];
          if (!between.nonempty) continue;
          T part;
          std::memcpy(&part, between.tail, sizeof part);
          sum = sum + part;
        }
      carry = sum;
      break;
    }
  }
  // Elements before the first segment start: as GA 5.8, Scan_add leaves them as they are and
  // Scan_copy sets them to zero (out's initial value).
  size_t begin = 0;
  if (!active && add)
    while (begin < n && !set[begin]) ++begin;
  std::vector<T> out(n);
  T running = carry;
  bool started = active;
  for (size_t i = begin; i < n; ++i) {
    const T before = running;
    started = started || set[i];
    if (set[i])
      running = src[i];
    else if (add)
      running = running + src[i];
    if (started) out[i] = add && exclusive ? (set[i] ? T{} : before) : running;
  }
  if (begin < n) put(fn, *a.dst, first + static_cast<int64_t>(begin), last, out.data() + begin);
}

void scan(const char* fn, int g_src, int g_dst, int g_mask, int64_t lo, int64_t hi, bool add,
          int excl) {
  if (add && excl != 0 && excl != 1)
    ga_fail(fn, "excl=%d is not 0 (inclusive) or 1 (exclusive)", excl);
  remora::ga::writable(fn, g_dst);
  const Arrays a = arrays(fn, {"g_a", g_src}, {"g_b", g_dst}, {"g_sbit", g_mask}, lo, hi, true);
  check(fn, remora_array_sync_comm(a.comm));
  int64_t first = 0, last = -1;
  share(a, lo, hi, &first, &last);
  const std::vector<char> set = flags(fn, *a.mask, first, last);
  with_type(a.src->datatype, [&](auto zero) {
    scan_typed<decltype(zero)>(fn, a, first, last, set, add, excl == 1);
  });
  check(fn, remora_array_sync_comm(a.comm));
}

}  // namespace

extern "C" {

void GA_Pack(int g_src, int g_dest, int g_mask, int lo, int hi, int* icount) {
  pack_unpack("GA_Pack", true, g_src, g_dest, g_mask, lo, hi, icount);
}

void GA_Pack64(int g_src, int g_dest, int g_mask, int64_t lo, int64_t hi, int64_t* icount) {
  pack_unpack("GA_Pack64", true, g_src, g_dest, g_mask, lo, hi, icount);
}

void GA_Unpack(int g_src, int g_dest, int g_mask, int lo, int hi, int* icount) {
  pack_unpack("GA_Unpack", false, g_src, g_dest, g_mask, lo, hi, icount);
}

void GA_Unpack64(int g_src, int g_dest, int g_mask, int64_t lo, int64_t hi, int64_t* icount) {
  pack_unpack("GA_Unpack64", false, g_src, g_dest, g_mask, lo, hi, icount);
}

void GA_Scan_add(int g_a, int g_b, int g_sbit, int lo, int hi, int excl) {
  scan("GA_Scan_add", g_a, g_b, g_sbit, lo, hi, true, excl);
}

void GA_Scan_add64(int g_a, int g_b, int g_sbit, int64_t lo, int64_t hi, int excl) {
  scan("GA_Scan_add64", g_a, g_b, g_sbit, lo, hi, true, excl);
}

void GA_Scan_copy(int g_a, int g_b, int g_sbit, int lo, int hi) {
  scan("GA_Scan_copy", g_a, g_b, g_sbit, lo, hi, false, 0);
}

void GA_Scan_copy64(int g_a, int g_b, int g_sbit, int64_t lo, int64_t hi) {
  scan("GA_Scan_copy64", g_a, g_b, g_sbit, lo, hi, false, 0);
}

}  // extern "C"
