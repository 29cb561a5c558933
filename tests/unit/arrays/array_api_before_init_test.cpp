// Every array function fails cleanly, naming itself, before remora_init (a job of one rank,
// no launcher).
#include <gtest/gtest.h>

#include <string>

#include "remora.h"

namespace {

void expect_not_initialized(int status, const char* function) {
  EXPECT_EQ(status, REMORA_ERR_NOT_INITIALIZED) << function;
  EXPECT_NE(std::string(remora_last_error()).find(function), std::string::npos)
      << remora_last_error();
}

#define EXPECT_NOT_INITIALIZED(function, ...) \
  expect_not_initialized(function(__VA_ARGS__), #function)

TEST(ArrayApiBeforeInit, EveryCallFailsWithNotInitialized) {
  remora_array_t a = nullptr;
  remora_array_request_t request = nullptr;
  remora_mutexes_t mutexes = nullptr;
  remora_axpy_t batch = nullptr;
  const int64_t dims[2] = {4, 4}, lo[2] = {0, 0}, hi[2] = {1, 1}, ld[1] = {2}, block[2] = {1, 1};
  const int nblock[2] = {1, 1};
  const int64_t map[2] = {0, 0};
  double buffer[4] = {}, alpha = 1, norm = 0;
  int64_t old = 0, out[2] = {};
  int grid[2] = {}, done = 0, count = 0, owners[1] = {};
  remora_datatype_t type;
  remora_distribution_kind_t kind;
  void* pointer = nullptr;
  EXPECT_NOT_INITIALIZED(remora_array_create, REMORA_DOUBLE, 2, dims, "a", &a);
  EXPECT_NOT_INITIALIZED(remora_array_create_irregular, REMORA_DOUBLE, 2, dims, nblock, map, "a",
                         &a);
  EXPECT_NOT_INITIALIZED(remora_array_create_block_cyclic, REMORA_DOUBLE, dims, block, nullptr, "a",
                         &a);
  EXPECT_NOT_INITIALIZED(remora_array_create_block_dealt, REMORA_DOUBLE, 2, dims, block, "a", &a);
  const int one_by_one[2] = {1, 1}, ntiles[2] = {1, 1};
  const int64_t starts[2] = {0, 0};
  EXPECT_NOT_INITIALIZED(remora_array_create_block_cyclic_nd, REMORA_DOUBLE, 2, dims, block,
                         one_by_one, "a", &a);
  EXPECT_NOT_INITIALIZED(remora_array_create_tiled, REMORA_DOUBLE, 2, dims, ntiles, starts,
                         one_by_one, "a", &a);
  EXPECT_NOT_INITIALIZED(remora_array_create_element_cyclic, REMORA_DOUBLE, dims, nullptr, "a", &a);
  EXPECT_NOT_INITIALIZED(remora_array_duplicate, a, "b", &a);
  EXPECT_NOT_INITIALIZED(remora_array_destroy, &a);
  EXPECT_NOT_INITIALIZED(remora_array_inquire, a, &type, nullptr, nullptr);
  EXPECT_NOT_INITIALIZED(remora_array_kind, a, &kind);
  int64_t local_count = 0;
  EXPECT_NOT_INITIALIZED(remora_array_access_local, a, 0, &pointer, &local_count);
  EXPECT_NOT_INITIALIZED(remora_array_proc_grid, a, grid);
  EXPECT_NOT_INITIALIZED(remora_array_distribution, a, 0, out, out);
  EXPECT_NOT_INITIALIZED(remora_array_local_shape, a, 0, out);
  EXPECT_NOT_INITIALIZED(remora_array_locate_region, a, lo, hi, 1, owners, nullptr, nullptr,
                         &count);
  EXPECT_NOT_INITIALIZED(remora_array_put, a, lo, hi, buffer, ld);
  EXPECT_NOT_INITIALIZED(remora_array_get, a, lo, hi, buffer, ld);
  EXPECT_NOT_INITIALIZED(remora_array_acc, a, lo, hi, buffer, ld, &alpha);
  EXPECT_NOT_INITIALIZED(remora_array_nbput, a, lo, hi, buffer, ld, &request);
  EXPECT_NOT_INITIALIZED(remora_array_nbget, a, lo, hi, buffer, ld, &request);
  EXPECT_NOT_INITIALIZED(remora_array_nbacc, a, lo, hi, buffer, ld, &alpha, &request);
  EXPECT_NOT_INITIALIZED(remora_array_wait, &request);
  EXPECT_NOT_INITIALIZED(remora_array_test, &request, &done);
  EXPECT_NOT_INITIALIZED(remora_array_flush, a);
  EXPECT_NOT_INITIALIZED(remora_array_flush_local, a);
  EXPECT_NOT_INITIALIZED(remora_array_sync);
  EXPECT_NOT_INITIALIZED(remora_array_access, a, lo, hi, &pointer, out);
  EXPECT_NOT_INITIALIZED(remora_array_release, a, pointer);
  EXPECT_NOT_INITIALIZED(remora_array_release_update, a, pointer);
  EXPECT_NOT_INITIALIZED(remora_array_scatter, a, buffer, lo, 1);
  EXPECT_NOT_INITIALIZED(remora_array_gather, a, buffer, lo, 1);
  EXPECT_NOT_INITIALIZED(remora_array_scatter_acc, a, buffer, lo, 1, &alpha);
  EXPECT_NOT_INITIALIZED(remora_array_read_inc, a, lo, 1, &old);
  EXPECT_NOT_INITIALIZED(remora_mutexes_create, 1, &mutexes);
  EXPECT_NOT_INITIALIZED(remora_mutex_lock, mutexes, 0);
  EXPECT_NOT_INITIALIZED(remora_mutex_unlock, mutexes, 0);
  EXPECT_NOT_INITIALIZED(remora_mutexes_destroy, &mutexes);
  EXPECT_NOT_INITIALIZED(remora_array_zero, a);
  EXPECT_NOT_INITIALIZED(remora_array_fill, a, &alpha);
  EXPECT_NOT_INITIALIZED(remora_array_scale, a, &alpha);
  EXPECT_NOT_INITIALIZED(remora_array_copy, a, a);
  EXPECT_NOT_INITIALIZED(remora_array_add, &alpha, a, &alpha, a, a);
  EXPECT_NOT_INITIALIZED(remora_array_dot, a, a, &alpha);
  EXPECT_NOT_INITIALIZED(remora_array_norm, a, &norm);
  EXPECT_NOT_INITIALIZED(remora_array_transpose, a, a);
  EXPECT_NOT_INITIALIZED(remora_array_symmetrize, a);
  EXPECT_NOT_INITIALIZED(remora_array_print_patch, a, lo, hi, stdout);
  EXPECT_NOT_INITIALIZED(remora_array_gemm, 'N', 'N', &alpha, a, a, &alpha, a);
  EXPECT_NOT_INITIALIZED(remora_axpy_attach, a, REMORA_AXPY_DETACH_NBX, &batch);
  EXPECT_NOT_INITIALIZED(remora_axpy, batch, REMORA_AXPY_LOCAL_TO_GLOBAL, &alpha, buffer, ld, lo,
                         hi);
  EXPECT_NOT_INITIALIZED(remora_axpy_detach, &batch);
}

}  // namespace
