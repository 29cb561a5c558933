// Bad input to every kind of array call returns an error whose message names the argument:
// patches outside the array, lo > hi, short leading dimensions, invalid and destroyed handles,
// wrong types, bad distributions, stale requests and pointers, mutex misuse.
#include "array_reference.hpp"

namespace {

int size_;

void check_creation() {
  remora_array_t a = nullptr;
  const int64_t dims[2] = {6, 4}, zero[2] = {6, 0};
  REQUIRE_ERROR(remora_array_create(REMORA_INT16, 2, dims, "x", &a), REMORA_ERR_ARG, "type=2");
  REQUIRE_ERROR(remora_array_create(REMORA_DOUBLE, 0, dims, "x", &a), REMORA_ERR_ARG, "ndim=0");
  REQUIRE_ERROR(remora_array_create(REMORA_DOUBLE, 8, dims, "x", &a), REMORA_ERR_ARG, "ndim=8");
  REQUIRE_ERROR(remora_array_create(REMORA_DOUBLE, 2, zero, "x", &a), REMORA_ERR_ARG, "dims[1]=0");
  REQUIRE_ERROR(remora_array_create(REMORA_DOUBLE, 2, nullptr, "x", &a), REMORA_ERR_ARG,
                "dims is NULL");
  REQUIRE_ERROR(remora_array_create(REMORA_DOUBLE, 2, dims, "x", nullptr), REMORA_ERR_ARG,
                "array is NULL");
  const int nblock[2] = {1, 2};
  const int64_t bad_map[3] = {0, 0, 4}, late_map[3] = {1, 0, 2};
  REQUIRE_ERROR(remora_array_create_irregular(REMORA_DOUBLE, 2, dims, nblock, late_map, "x", &a),
                REMORA_ERR_ARG, "map[0]=1");
  if (size_ >= 2)
    REQUIRE_ERROR(remora_array_create_irregular(REMORA_DOUBLE, 2, dims, nblock, bad_map, "x", &a),
                  REMORA_ERR_ARG, "map[2]=4");
  const int many[2] = {size_ + 1, 1};
  std::vector<int64_t> map_many;
  for (int k = 0; k <= size_; ++k) map_many.push_back(k);
  map_many.push_back(0);
  if (size_ + 1 <= 6)
    REQUIRE_ERROR(
        remora_array_create_irregular(REMORA_DOUBLE, 2, dims, many, map_many.data(), "x", &a),
        REMORA_ERR_ARG, "more than the job's");
  const int64_t block[2] = {2, 0};
  REQUIRE_ERROR(remora_array_create_block_cyclic(REMORA_DOUBLE, dims, block, nullptr, "x", &a),
                REMORA_ERR_ARG, "block[1]=0");
  REQUIRE_ERROR(remora_array_create_block_dealt(REMORA_DOUBLE, 2, dims, block, "x", &a),
                REMORA_ERR_ARG, "block[1]=0");
  REQUIRE_ERROR(remora_array_create_block_dealt(REMORA_DOUBLE, 8, dims, block, "x", &a),
                REMORA_ERR_ARG, "ndim=8");
  REQUIRE_ERROR(remora_array_create_block_dealt(REMORA_DOUBLE, 2, dims, nullptr, "x", &a),
                REMORA_ERR_ARG, "block");
  const int grid[2] = {size_, 2};
  REQUIRE_ERROR(remora_array_create_element_cyclic(REMORA_DOUBLE, dims, grid, "x", &a),
                REMORA_ERR_ARG, "grid=");
  // The N-d grid layouts: a block extent of 0, a missing or too large grid, tile starts out of
  // order.
  const int64_t dims3[3] = {6, 4, 5}, block3[3] = {2, 0, 2}, starts3[6] = {0, 3, 0, 0, 2, 1};
  const int grid3[3] = {1, 1, 1}, big3[3] = {size_, 1, 2}, ntiles3[3] = {2, 1, 3};
  REQUIRE_ERROR(
      remora_array_create_block_cyclic_nd(REMORA_DOUBLE, 3, dims3, block3, grid3, "x", &a),
      REMORA_ERR_ARG, "block[1]=0");
  const int64_t good3[3] = {2, 2, 2};
  REQUIRE_ERROR(
      remora_array_create_block_cyclic_nd(REMORA_DOUBLE, 3, dims3, good3, nullptr, "x", &a),
      REMORA_ERR_ARG, "grid is NULL");
  REQUIRE_ERROR(remora_array_create_block_cyclic_nd(REMORA_DOUBLE, 3, dims3, good3, big3, "x", &a),
                REMORA_ERR_ARG, "needs more ranks");
  REQUIRE_ERROR(
      remora_array_create_tiled(REMORA_DOUBLE, 3, dims3, ntiles3, starts3, grid3, "x", &a),
      REMORA_ERR_ARG, "starts[5]=1 (tile 2 of dimension 2)");
  REQUIRE(a == nullptr);
}

void check_patches(remora_array_t a) {
  double buffer[64] = {};
  const int64_t lo[2] = {0, 0}, hi[2] = {5, 3}, ld[1] = {4};
  const int64_t outside[2] = {6, 3}, negative[2] = {-1, 0}, reversed_lo[2] = {0, 3},
                reversed_hi[2] = {5, 1}, short_ld[1] = {3};
  REQUIRE_ERROR(remora_array_put(a, lo, outside, buffer, ld), REMORA_ERR_RANGE, "hi[0]=6");
  REQUIRE_ERROR(remora_array_get(a, negative, hi, buffer, ld), REMORA_ERR_RANGE, "lo[0]=-1");
  REQUIRE_ERROR(remora_array_acc(a, reversed_lo, reversed_hi, buffer, ld, buffer), REMORA_ERR_ARG,
                "lo[1]=3 > hi[1]=1");
  REQUIRE_ERROR(remora_array_put(a, lo, hi, buffer, short_ld), REMORA_ERR_ARG, "ld[0]=3");
  REQUIRE_ERROR(remora_array_put(a, lo, hi, nullptr, ld), REMORA_ERR_ARG, "buffer is NULL");
  REQUIRE_ERROR(remora_array_get(a, lo, hi, buffer, nullptr), REMORA_ERR_ARG, "ld is NULL");
  REQUIRE_ERROR(remora_array_acc(a, lo, hi, buffer, ld, nullptr), REMORA_ERR_ARG, "alpha is NULL");
  REQUIRE_ERROR(remora_array_put(a, nullptr, hi, buffer, ld), REMORA_ERR_ARG, "lo is NULL");
  remora_array_request_t request = REMORA_ARRAY_REQUEST_NULL;
  REQUIRE_ERROR(remora_array_nbget(a, lo, outside, buffer, ld, &request), REMORA_ERR_RANGE,
                "hi[0]=6");
  REQUIRE(request == REMORA_ARRAY_REQUEST_NULL);
  REQUIRE_OK(remora_array_wait(&request));  // REMORA_ARRAY_REQUEST_NULL: nothing to wait for
  REQUIRE_OK(remora_array_nbget(a, lo, hi, buffer, ld, &request));
  remora_array_request_t copy = request;
  REQUIRE_OK(remora_array_wait(&request));
  REQUIRE_ERROR(remora_array_wait(&copy), REMORA_ERR_ARG, "not a live array request");
  const int64_t subs[4] = {1, 1, 6, 0};
  REQUIRE_ERROR(remora_array_scatter(a, buffer, subs, 2), REMORA_ERR_RANGE, "subscripts[2]=6");
  REQUIRE_ERROR(remora_array_read_inc(a, subs, 1, nullptr), REMORA_ERR_ARG,
                "read_inc needs REMORA_INT32");
  REQUIRE_ERROR(remora_array_release(a, buffer), REMORA_ERR_ARG, "pointer=");
  int owners[1];
  int count = 0;
  if (size_ > 1) {
    REQUIRE_ERROR(remora_array_locate_region(a, lo, hi, 0, owners, nullptr, nullptr, &count),
                  REMORA_ERR_RANGE, "more than max=0");
  }
  int64_t dlo[2], dhi[2];
  REQUIRE_ERROR(remora_array_distribution(a, size_, dlo, dhi), REMORA_ERR_RANK, "rank=");
}

void check_collective_misuse(remora_array_t a) {
  const int64_t dims[2] = {6, 4}, tdims[2] = {4, 6}, square[2] = {4, 4};
  remora_array_t i32 = nullptr, t = nullptr, sq = nullptr, ec = nullptr;
  REQUIRE_OK(remora_array_create(REMORA_INT32, 2, dims, "ints", &i32));
  REQUIRE_OK(remora_array_create(REMORA_DOUBLE, 2, tdims, "t", &t));
  REQUIRE_OK(remora_array_create(REMORA_INT32, 2, square, "sq", &sq));
  REQUIRE_OK(remora_array_create_element_cyclic(REMORA_DOUBLE, dims, nullptr, "ec", &ec));
  REQUIRE_ERROR(remora_array_copy(a, i32), REMORA_ERR_ARG, "b has type REMORA_INT32");
  REQUIRE_ERROR(remora_array_copy(a, t), REMORA_ERR_ARG, "different shape");
  REQUIRE_ERROR(remora_array_copy(a, a), REMORA_ERR_ARG, "same array");
  REQUIRE_ERROR(remora_array_transpose(a, a), REMORA_ERR_ARG, "same array");
  REQUIRE_ERROR(remora_array_transpose(a, ec), REMORA_ERR_ARG, "not shaped as the transpose");
  REQUIRE_ERROR(remora_array_symmetrize(a), REMORA_ERR_ARG, "not square");
  REQUIRE_ERROR(remora_array_symmetrize(sq), REMORA_ERR_ARG, "integer type");
  const double one = 1;
  REQUIRE_ERROR(remora_array_gemm('X', 'N', &one, a, t, &one, ec), REMORA_ERR_ARG, "transa='X'");
  REQUIRE_ERROR(remora_array_gemm('N', 'N', &one, a, ec, &one, t), REMORA_ERR_ARG,
                "shapes do not match");
  REQUIRE_ERROR(remora_array_gemm('N', 'N', &one, a, t, &one, a), REMORA_ERR_ARG, "c must differ");
  REQUIRE_ERROR(remora_array_fill(a, nullptr), REMORA_ERR_ARG, "value is NULL");
  int64_t lo[2], hi[2];
  REQUIRE_ERROR(remora_array_distribution(ec, 0, lo, hi), REMORA_ERR_UNSUPPORTED, "cyclic");
  const int64_t at[2] = {0, 0};
  REQUIRE_ERROR(remora_array_read_inc(i32, at, int64_t{1} << 40, nullptr), REMORA_ERR_ARG,
                "inc=1099511627776");
  for (remora_array_t* x : {&i32, &t, &sq, &ec}) REQUIRE_OK(remora_array_destroy(x));
}

// Byte arrays (REMORA_UINT8, the GA layer's user-defined types) move bytes; arithmetic on them
// is refused.
void check_byte_array() {
  remora_array_t a = nullptr;
  const int64_t dims[2] = {5, 3}, lo[2] = {1, 0}, hi[2] = {3, 2}, ld[1] = {3};
  REQUIRE_OK(remora_array_create(REMORA_UINT8, 2, dims, "bytes", &a));
  unsigned char in[9], out[9] = {0};
  for (int i = 0; i < 9; ++i) in[i] = static_cast<unsigned char>(200 + i);
  if (remora_rank() == 0) REQUIRE_OK(remora_array_put(a, lo, hi, in, ld));
  REQUIRE_OK(remora_array_sync());
  REQUIRE_OK(remora_array_get(a, lo, hi, out, ld));
  for (int i = 0; i < 9; ++i)
    REQUIRE(out[i] == in[i], "byte %d: %d, expected %d", i, out[i], in[i]);
  const unsigned char one = 1;
  REQUIRE_ERROR(remora_array_acc(a, lo, hi, in, ld, &one), REMORA_ERR_ARG,
                "a ('bytes') is a byte array (REMORA_UINT8)");
  REQUIRE_ERROR(remora_array_fill(a, &one), REMORA_ERR_ARG, "is a byte array");
  REQUIRE_OK(remora_array_destroy(&a));
}

void check_handles() {
  const int64_t dims[1] = {4}, lo[1] = {0}, hi[1] = {0};
  double v = 0;
  REQUIRE_ERROR(remora_array_get(nullptr, lo, hi, &v, nullptr), REMORA_ERR_ARG, "a is NULL");
  remora_array_t fake = reinterpret_cast<remora_array_t>(&v);
  REQUIRE_ERROR(remora_array_put(fake, lo, hi, &v, nullptr), REMORA_ERR_ARG, "not a live array");
  remora_array_t a = nullptr;
  REQUIRE_OK(remora_array_create(REMORA_DOUBLE, 1, dims, "gone", &a));
  remora_array_t stale = a;
  REQUIRE_OK(remora_array_destroy(&a));
  REQUIRE(a == nullptr);
  REQUIRE_ERROR(remora_array_get(stale, lo, hi, &v, nullptr), REMORA_ERR_ARG, "not a live array");
  REQUIRE_ERROR(remora_array_destroy(&stale), REMORA_ERR_ARG, "not a live array");

  remora_mutexes_t m = nullptr;
  REQUIRE_ERROR(remora_mutexes_create(0, &m), REMORA_ERR_ARG, "count=0");
  REQUIRE_OK(remora_mutexes_create(2, &m));
  REQUIRE_ERROR(remora_mutex_lock(m, 2), REMORA_ERR_ARG, "index=2");
  REQUIRE_ERROR(remora_mutex_unlock(m, 0), REMORA_ERR_STATE, "not held");
  REQUIRE_OK(remora_mutex_lock(m, 1));
  REQUIRE_ERROR(remora_mutex_lock(m, 1), REMORA_ERR_STATE, "already held");
  REQUIRE_OK(remora_mutex_unlock(m, 1));
  REQUIRE_OK(remora_mutexes_destroy(&m));
  REQUIRE_ERROR(remora_mutex_lock(m, 0), REMORA_ERR_ARG, "not a live mutex set");
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  size_ = remora_size();
  check_creation();
  check_byte_array();
  const int64_t dims[2] = {6, 4};
  remora_array_t a = nullptr;
  REQUIRE_OK(remora_array_create(REMORA_DOUBLE, 2, dims, "errors", &a));
  check_patches(a);
  void* local = nullptr;
  int64_t local_count = 0;
  REQUIRE_ERROR(remora_array_access_local(a, size_, &local, &local_count), REMORA_ERR_RANK,
                "rank=");
  REQUIRE_ERROR(remora_array_access_local(a, 0, &local, nullptr), REMORA_ERR_ARG, "count");
  check_collective_misuse(a);
  REQUIRE_OK(remora_array_destroy(&a));
  check_handles();
  return remora_finalize();
}
