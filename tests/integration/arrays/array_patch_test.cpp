// Patch operations of every distribution against a serial reference: put, get, acc (blocking
// and nonblocking), scatter, gather, scatter_acc, access/release(_update), locate_region and
// the distribution queries, for every element type, on random patches with padded leading
// dimensions. Values are small integers, exact in every type, so every comparison is exact.
#include "array_reference.hpp"

using namespace array_test;

namespace {

int rank_, size_;

// Rounds of one writer each: puts (blocking, then nonblocking) visible to all after sync.
template <typename T>
void check_puts(remora_array_t a, Reference<T>& ref, uint64_t seed) {
  for (int round = 0; round < 4; ++round) {
    std::mt19937_64 rng(seed + static_cast<uint64_t>(round));
    const Patch p = random_patch(rng, ref.dims);
    int64_t length = 0;
    const std::vector<int64_t> ld = padded_ld(rng, p, &length);
    const std::vector<T> values = random_values<T>(rng, length);
    ref.for_each(p, ld, [&](const int64_t* i, int64_t b) {
      ref.data[static_cast<size_t>(ref.offset(i))] = values[static_cast<size_t>(b)];
    });
    if (rank_ == round % size_) {
      if (round % 2 == 0) {
        REQUIRE_OK(remora_array_put(a, p.lo.data(), p.hi.data(), values.data(), ld.data()));
      } else {
        remora_array_request_t request = REMORA_ARRAY_REQUEST_NULL;
        REQUIRE_OK(
            remora_array_nbput(a, p.lo.data(), p.hi.data(), values.data(), ld.data(), &request));
        REQUIRE_OK(remora_array_wait(&request));
        REQUIRE(request == REMORA_ARRAY_REQUEST_NULL);
      }
      REQUIRE_OK(remora_array_flush(a));
    }
    REQUIRE_OK(remora_array_sync());
  }
  verify_all(a, ref, "after puts");
}

// Every rank gets its own random patches (get and nbget + test) and compares.
template <typename T>
void check_gets(remora_array_t a, const Reference<T>& ref, uint64_t seed) {
  std::mt19937_64 rng(seed * 31 + static_cast<uint64_t>(rank_));
  for (int k = 0; k < 4; ++k) {
    const Patch p = random_patch(rng, ref.dims);
    int64_t length = 0;
    const std::vector<int64_t> ld = padded_ld(rng, p, &length);
    std::vector<T> buffer(static_cast<size_t>(length));
    if (k % 2 == 0) {
      REQUIRE_OK(remora_array_get(a, p.lo.data(), p.hi.data(), buffer.data(), ld.data()));
    } else {
      remora_array_request_t request = REMORA_ARRAY_REQUEST_NULL;
      REQUIRE_OK(
          remora_array_nbget(a, p.lo.data(), p.hi.data(), buffer.data(), ld.data(), &request));
      int done = 0;
      while (!done) REQUIRE_OK(remora_array_test(&request, &done));
      REQUIRE(request == REMORA_ARRAY_REQUEST_NULL);
    }
    ref.for_each(p, ld, [&](const int64_t* i, int64_t b) {
      REQUIRE(buffer[static_cast<size_t>(b)] == ref.data[static_cast<size_t>(ref.offset(i))],
              "get of patch %d: buffer offset %lld differs", k, static_cast<long long>(b));
    });
  }
  REQUIRE_OK(remora_array_sync());
}

// All ranks accumulate into overlapping random patches at once.
template <typename T>
void check_accs(remora_array_t a, Reference<T>& ref, uint64_t seed) {
  for (int r = 0; r < size_; ++r) {
    std::mt19937_64 rng(seed * 7 + static_cast<uint64_t>(r));
    const Patch p = random_patch(rng, ref.dims);
    int64_t length = 0;
    const std::vector<int64_t> ld = padded_ld(rng, p, &length);
    const std::vector<T> values = random_values<T>(rng, length);
    const T alpha = make_value<T>(r % 3 + 1);
    ref.for_each(p, ld, [&](const int64_t* i, int64_t b) {
      ref.data[static_cast<size_t>(ref.offset(i))] += alpha * values[static_cast<size_t>(b)];
    });
    if (r != rank_) continue;
    if (r % 2 == 0) {
      REQUIRE_OK(remora_array_acc(a, p.lo.data(), p.hi.data(), values.data(), ld.data(), &alpha));
    } else {
      remora_array_request_t request = REMORA_ARRAY_REQUEST_NULL;
      REQUIRE_OK(remora_array_nbacc(a, p.lo.data(), p.hi.data(), values.data(), ld.data(), &alpha,
                                    &request));
      REQUIRE_OK(remora_array_flush_local(a));
      REQUIRE_OK(remora_array_wait(&request));
    }
  }
  REQUIRE_OK(remora_array_sync());
  verify_all(a, ref, "after concurrent accs");
}

// Scatter to elements owned by one rank each (index % size == rank), scatter with duplicates,
// scatter_acc anywhere with duplicates, gather random elements with duplicates.
template <typename T>
void check_element_lists(remora_array_t a, Reference<T>& ref, uint64_t seed) {
  const size_t ndim = ref.dims.size();
  const int64_t total = static_cast<int64_t>(ref.data.size());
  auto subscript_of = [&](int64_t linear, int64_t* out) {
    for (size_t d = ndim; d-- > 0;) {
      out[d] = linear % ref.dims[d];
      linear /= ref.dims[d];
    }
  };
  std::vector<int64_t> subs;
  std::vector<T> values;
  for (int64_t i = 0; i < total; ++i)
    if ((i * 7 + 3) % (size_ + 1) == rank_) {
      subs.resize(subs.size() + ndim);
      subscript_of(i, subs.data() + subs.size() - ndim);
      values.push_back(make_value<T>(i % 11 - 5));
    }
  for (int r = 0; r < size_; ++r)
    for (int64_t i = 0; i < total; ++i)
      if ((i * 7 + 3) % (size_ + 1) == r)
        ref.data[static_cast<size_t>(i)] = make_value<T>(i % 11 - 5);
  REQUIRE_OK(remora_array_scatter(a, values.data(), subs.data(), values.size()));
  REQUIRE_OK(remora_array_sync());
  verify_all(a, ref, "after scatter");

  // Duplicates: one rank scatters 30 values to 10 places; the last value of each place wins.
  {
    std::mt19937_64 rng(seed * 11);
    const size_t n = 30;
    std::vector<int64_t> s(n * ndim);
    std::vector<T> v(n);
    for (size_t k = 0; k < n; ++k) {
      const int64_t linear = static_cast<int64_t>(rng() % 10) * (total / 10);
      subscript_of(linear, s.data() + k * ndim);
      v[k] = make_value<T>(static_cast<int64_t>(k % 13) - 6);
      ref.data[static_cast<size_t>(linear)] = v[k];
    }
    if (rank_ == size_ - 1) REQUIRE_OK(remora_array_scatter(a, v.data(), s.data(), n));
    REQUIRE_OK(remora_array_sync());
    verify_all(a, ref, "after scatter with duplicates");
  }

  // Every rank accumulates 60 random elements drawn from 30 places (many duplicates, also
  // between ranks): every contribution must be added.
  const T alpha = make_value<T>(2);
  const size_t acc_n = 60;
  for (int r = 0; r < size_; ++r) {
    std::mt19937_64 rng(seed * 13 + static_cast<uint64_t>(r));
    std::vector<int64_t> s(acc_n * ndim);
    std::vector<T> v(acc_n);
    for (size_t k = 0; k < acc_n; ++k) {
      const int64_t linear = static_cast<int64_t>(rng() % 30) * total / 30;
      subscript_of(linear, s.data() + k * ndim);
      v[k] = make_value<T>(static_cast<int64_t>(k % 9) - 4);
      ref.data[static_cast<size_t>(linear)] += alpha * v[k];
    }
    if (r == rank_) REQUIRE_OK(remora_array_scatter_acc(a, v.data(), s.data(), acc_n, &alpha));
  }
  REQUIRE_OK(remora_array_sync());
  verify_all(a, ref, "after scatter_acc");

  // Gather: random elements, half of them from 5 places (duplicates).
  std::mt19937_64 rng(seed * 17 + static_cast<uint64_t>(rank_));
  const size_t gather_n = 40;
  std::vector<int64_t> s(gather_n * ndim);
  std::vector<int64_t> linear(gather_n);
  for (size_t k = 0; k < gather_n; ++k) {
    linear[k] = k % 2 == 0 ? static_cast<int64_t>(rng() % static_cast<uint64_t>(total))
                           : static_cast<int64_t>(rng() % 5) * (total / 5);
    subscript_of(linear[k], s.data() + k * ndim);
  }
  std::vector<T> got(gather_n);
  REQUIRE_OK(remora_array_gather(a, got.data(), s.data(), gather_n));
  for (size_t k = 0; k < gather_n; ++k)
    REQUIRE(got[k] == ref.data[static_cast<size_t>(linear[k])], "gather element %zu", k);
  REQUIRE_OK(remora_array_sync());
}

// Whether pointer lies in rank's local array as this rank maps it (a direct access, not a copy).
bool points_into(remora_array_t a, const void* pointer, size_t element, int rank) {
  void* local = nullptr;
  int64_t count = 0;
  if (remora_array_access_local(a, rank, &local, &count) != REMORA_SUCCESS) return false;
  const auto* begin = static_cast<const char*>(local);
  const auto* at = static_cast<const char*>(pointer);
  return at >= begin && at < begin + static_cast<size_t>(count) * element;
}

bool points_into_any(remora_array_t a, const void* pointer, size_t element) {
  for (int r = 0; r < size_; ++r)
    if (points_into(a, pointer, element, r)) return true;
  return false;
}

// Cyclic layouts: a one-element patch lies inside one block, so each rank's access of the first
// element it owns is a pointer into its local array; a store through it stays after a plain
// release.
template <typename T>
void check_block_access(remora_array_t a, Reference<T>& ref) {
  const size_t ndim = ref.dims.size();
  std::vector<int64_t> index(ndim, 0);
  std::vector<int> picked(static_cast<size_t>(size_), 0);
  for (;;) {
    int owner = -1, count = 0;
    REQUIRE_OK(remora_array_locate_region(a, index.data(), index.data(), 1, &owner, nullptr,
                                          nullptr, &count));
    REQUIRE(count == 1, "one owner per element");
    if (!picked[static_cast<size_t>(owner)]) {
      picked[static_cast<size_t>(owner)] = 1;
      ref.data[static_cast<size_t>(ref.offset(index.data()))] += make_value<T>(7);
      if (owner == rank_) {
        int64_t ld[REMORA_ARRAY_MAX_DIM] = {};
        void* pointer = nullptr;
        REQUIRE_OK(remora_array_access(a, index.data(), index.data(), &pointer, ld));
        REQUIRE(points_into(a, pointer, sizeof(T), rank_),
                "a block's element is accessed in place");
        static_cast<T*>(pointer)[0] += make_value<T>(7);
        REQUIRE_OK(remora_array_release(a, pointer));
      }
    }
    size_t d = ndim;
    while (d-- > 0 && ++index[d] == ref.dims[d]) index[d] = 0;
    if (d == static_cast<size_t>(-1)) break;
  }
  REQUIRE_OK(remora_array_sync());
  verify_all(a, ref, "after in-place access of blocks");
}

// Each rank accesses a disjoint patch (its own block for block layouts, a slab of rows for
// cyclic ones), adds 1 everywhere and releases with update; a plain release of a copy
// changes nothing.
template <typename T>
void check_access(remora_array_t a, Reference<T>& ref) {
  remora_distribution_kind_t kind;
  REQUIRE_OK(remora_array_kind(a, &kind));
  const bool cyclic = kind == REMORA_DIST_BLOCK_CYCLIC || kind == REMORA_DIST_ELEMENT_CYCLIC;
  const size_t ndim = ref.dims.size();
  std::vector<Patch> mine(static_cast<size_t>(size_));
  for (int r = 0; r < size_; ++r) {
    Patch& p = mine[static_cast<size_t>(r)];
    p.lo.assign(ndim, 0);
    p.hi.assign(ndim, 0);
    if (!cyclic) {
      REQUIRE_OK(remora_array_distribution(a, r, p.lo.data(), p.hi.data()));
    } else {
      REQUIRE(remora_array_distribution(a, r, p.lo.data(), p.hi.data()) == REMORA_ERR_UNSUPPORTED);
      p.lo[0] = ref.dims[0] * r / size_;
      p.hi[0] = ref.dims[0] * (r + 1) / size_ - 1;
      for (size_t d = 1; d < ndim; ++d) {
        p.lo[d] = 0;
        p.hi[d] = ref.dims[d] - 1;
      }
    }
  }
  for (int r = 0; r < size_; ++r) {
    const Patch& p = mine[static_cast<size_t>(r)];
    bool empty = false;
    for (size_t d = 0; d < ndim; ++d) empty = empty || p.lo[d] > p.hi[d];
    if (empty) continue;
    int64_t ld[REMORA_ARRAY_MAX_DIM] = {};
    void* pointer = nullptr;
    std::vector<int64_t> ldv;
    if (r == rank_) {
      REQUIRE_OK(remora_array_access(a, p.lo.data(), p.hi.data(), &pointer, ld));
      ldv.assign(ld, ld + ndim);
    }
    ref.for_each(p, ldv.empty() ? std::vector<int64_t>(ndim, 0) : ldv,
                 [&](const int64_t* i, int64_t b) {
                   ref.data[static_cast<size_t>(ref.offset(i))] += make_value<T>(1);
                   if (r == rank_) static_cast<T*>(pointer)[b] += make_value<T>(1);
                 });
    if (r == rank_) REQUIRE_OK(remora_array_release_update(a, pointer));
  }
  REQUIRE_OK(remora_array_sync());
  verify_all(a, ref, "after access + release_update");

  // Rank 0's slab: a copy, whose plain release changes nothing, unless it lies inside one block
  // this rank maps (then the store stays): every rank learns which, to keep its reference.
  int32_t direct = 0;
  const Patch& slab = mine[0];
  if (cyclic && rank_ == 0 && slab.lo[0] <= slab.hi[0]) {
    int64_t ld[REMORA_ARRAY_MAX_DIM] = {};
    void* pointer = nullptr;
    REQUIRE_OK(remora_array_access(a, slab.lo.data(), slab.hi.data(), &pointer, ld));
    static_cast<T*>(pointer)[0] += make_value<T>(5);
    direct = points_into_any(a, pointer, sizeof(T)) ? 1 : 0;
    REQUIRE_OK(remora_array_release(a, pointer));
  }
  remora_comm_t world = REMORA_COMM_NULL;
  REQUIRE_OK(remora_comm_world(&world));
  REQUIRE_OK(remora_bcast(&direct, 1, REMORA_INT32, 0, world, REMORA_COLL_AUTO));
  if (direct) ref.data[static_cast<size_t>(ref.offset(slab.lo.data()))] += make_value<T>(5);
  REQUIRE_OK(remora_array_sync());
  verify_all(a, ref, "after access + release");
  if (cyclic) check_block_access(a, ref);
}

// locate_region agrees with the reference ownership: every owner listed once, the local
// shapes add up to the whole array, and for block layouts the boxes are the intersections.
void check_queries(remora_array_t a, const std::vector<int64_t>& dims, uint64_t seed) {
  const size_t ndim = dims.size();
  int64_t total = 0;
  for (int r = 0; r < size_; ++r) {
    int64_t extents[REMORA_ARRAY_MAX_DIM];
    REQUIRE_OK(remora_array_local_shape(a, r, extents));
    int64_t n = 1;
    for (size_t d = 0; d < ndim; ++d) n *= extents[d];
    total += n;
  }
  int64_t expected = 1;
  for (int64_t n : dims) expected *= n;
  REQUIRE(total == expected, "local shapes hold %lld of %lld elements", (long long)total,
          (long long)expected);
  // Each rank's whole local array, where mapped here (always this rank's; other nodes' not):
  // as many elements as its shape.
  for (int r = 0; r < size_; ++r) {
    int64_t extents[REMORA_ARRAY_MAX_DIM], count = -1, n = 1;
    void* local = nullptr;
    REQUIRE_OK(remora_array_local_shape(a, r, extents));
    const int status = remora_array_access_local(a, r, &local, &count);
    if (r != rank_ && status == REMORA_ERR_UNSUPPORTED) continue;
    REQUIRE_OK(status);
    for (size_t d = 0; d < ndim; ++d) n *= extents[d];
    REQUIRE(count == n && (n == 0 || local != nullptr), "rank %d: local count %lld of %lld", r,
            (long long)count, (long long)n);
  }
  remora_distribution_kind_t kind;
  REQUIRE_OK(remora_array_kind(a, &kind));
  std::mt19937_64 rng(seed + 99);
  const Patch p = random_patch(rng, dims);
  std::vector<int> owners(static_cast<size_t>(size_));
  std::vector<int64_t> olo(static_cast<size_t>(size_) * ndim), ohi(olo.size());
  int count = 0;
  REQUIRE_OK(remora_array_locate_region(a, p.lo.data(), p.hi.data(), size_, owners.data(),
                                        olo.data(), ohi.data(), &count));
  REQUIRE(count >= 1 && count <= size_, "count %d", count);
  for (int k = 1; k < count; ++k) REQUIRE(owners[k - 1] < owners[k], "owners not increasing");
  if (kind == REMORA_DIST_BLOCK || kind == REMORA_DIST_IRREGULAR) {
    int listed = 0;
    for (int r = 0; r < size_; ++r) {
      int64_t lo[REMORA_ARRAY_MAX_DIM], hi[REMORA_ARRAY_MAX_DIM];
      REQUIRE_OK(remora_array_distribution(a, r, lo, hi));
      bool meets = true;
      for (size_t d = 0; d < ndim; ++d)
        meets = meets && std::max(lo[d], p.lo[d]) <= std::min(hi[d], p.hi[d]);
      if (!meets) continue;
      REQUIRE(listed < count && owners[listed] == r, "owner %d missing", r);
      for (size_t d = 0; d < ndim; ++d) {
        REQUIRE(olo[static_cast<size_t>(listed) * ndim + d] == std::max(lo[d], p.lo[d]));
        REQUIRE(ohi[static_cast<size_t>(listed) * ndim + d] == std::min(hi[d], p.hi[d]));
      }
      ++listed;
    }
    REQUIRE(listed == count, "listed %d of %d", listed, count);
  }
  if (count > 1)
    REQUIRE(remora_array_locate_region(a, p.lo.data(), p.hi.data(), count - 1, owners.data(),
                                       nullptr, nullptr, &count) == REMORA_ERR_RANGE);
}

template <typename T>
void check_layout(const Layout& layout, const std::vector<int64_t>& dims, uint64_t seed) {
  remora_array_t a = nullptr;
  REQUIRE_OK(layout.create(type_of<T>(), dims.data(), &a));
  Reference<T> ref(dims);
  check_queries(a, dims, seed);
  check_puts(a, ref, seed);
  check_gets(a, ref, seed);
  check_accs(a, ref, seed);
  check_element_lists(a, ref, seed);
  check_access(a, ref);
  REQUIRE_OK(remora_array_destroy(&a));
  REQUIRE(a == nullptr);
}

template <typename T>
void check_type(uint64_t seed) {
  for (const Layout& layout : layouts_2d(size_)) check_layout<T>(layout, {13, 11}, seed);
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  rank_ = remora_rank();
  size_ = remora_size();
  check_type<double>(1);
  check_type<int32_t>(2);
  check_type<int64_t>(3);
  check_type<float>(4);
  check_type<std::complex<float>>(5);
  check_type<std::complex<double>>(6);
  // N-d block and irregular layouts.
  for (int ndim : {1, 3, 4}) {
    std::vector<int64_t> dims = {9, 5, 6, 4};
    dims.resize(static_cast<size_t>(ndim));
    const Layout nd_block{"block", ndim,
                          [ndim](remora_datatype_t t, const int64_t* d, remora_array_t* a) {
                            return remora_array_create(t, ndim, d, "block_nd", a);
                          }};
    check_layout<double>(nd_block, dims, 10 + static_cast<uint64_t>(ndim));
    check_layout<int32_t>(irregular_layout(ndim, size_), dims, 20 + static_cast<uint64_t>(ndim));
    const Layout nd_dealt{
        "dealt", ndim, [ndim](remora_datatype_t t, const int64_t* d, remora_array_t* a) {
          const int64_t block[4] = {2, 3, 4, 1};
          return remora_array_create_block_dealt(t, ndim, d, block, "dealt_nd", a);
        }};
    check_layout<double>(nd_dealt, dims, 30 + static_cast<uint64_t>(ndim));
    // Block-cyclic and tiles on an N-d grid: all the ranks along the first dimension, and a
    // grid of one rank (the others own nothing).
    for (const int ranks : {size_, 1}) {
      const Layout nd_cyclic{
          "cyclic_nd", ndim,
          [ndim, ranks](remora_datatype_t t, const int64_t* d, remora_array_t* a) {
            const int64_t block[4] = {2, 3, 4, 1};
            const int grid[4] = {ranks, 1, 1, 1};
            return remora_array_create_block_cyclic_nd(t, ndim, d, block, grid, "cyclic_nd", a);
          }};
      check_layout<double>(nd_cyclic, dims, 40 + static_cast<uint64_t>(ndim));
      const Layout nd_tiled{
          "tiled_nd", ndim,
          [ndim, ranks](remora_datatype_t t, const int64_t* d, remora_array_t* a) {
            const int ntiles[4] = {3, 2, 3, 2};
            std::vector<int64_t> starts;
            for (int e = 0; e < ndim; ++e)
              for (int64_t s : uneven_starts(d[e], ntiles[e])) starts.push_back(s);
            int g[4] = {ranks, 1, 1, 1};
            if (ndim == 4 && ranks % 2 == 0) g[0] = 2, g[3] = ranks / 2;
            return remora_array_create_tiled(t, ndim, d, ntiles, starts.data(), g, "tiled_nd", a);
          }};
      check_layout<int32_t>(nd_tiled, dims, 50 + static_cast<uint64_t>(ndim));
    }
  }
  return remora_finalize();
}
