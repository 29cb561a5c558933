/* The HF proxy's array table (hf_array.h) over the Global-Arrays-compatible C API (ga.h), as a
 * GA program would write it: nothing here uses Remora's native API.
 *
 * - block layout: NGA_Create64 on C_DBL with GA's default (block) distribution;
 * - element_cyclic: GA has no element-cyclic distribution, but block-cyclic with 1 x 1 blocks
 *   on a Pr x Pc process grid (GA_Set_block_cyclic_proc_grid) is the same thing, Elemental's
 *   [MC,MR]: element (i, j) lives on grid position (i mod Pr, j mod Pc). The grid is the
 *   near-square one Remora's element-cyclic arrays use (Pr the largest divisor of P with
 *   Pr * Pr <= P);
 * - counters: a C_LONG array with NGA_Read_inc;
 * - the AXPY batch mode has no GA counterpart: its entries are NULL, so the proxy runs only
 *   the rma_nb and rma_blocking variants.
 * GA reports no errors to its caller (a failing call ends the job with GA_Error's message), so
 * every function here returns 0. Handles are GA's int handles, boxed. */
#include <ga.h>
#include <stdlib.h>

#include "hf_array.h"

/* Out of memory for a handle's box (a proxy-side failure, not a GA call). */
#define HF_GA_ERR_NOMEM (-8)

struct hf_matrix_s {
  int handle;
};
struct hf_counter_s {
  int handle;
};
struct hf_request_s {
  ga_nbhdl_t handle;
};

static int rank(void) {
  return GA_Nodeid();
}

static int size(void) {
  return GA_Nnodes();
}

static int barrier(void) {
  GA_Sync(); /* GA's barrier; it also completes the outstanding operations */
  return 0;
}

static int sum_int64(int64_t* value) {
  long x = (long)*value;
  GA_Lgop(&x, 1, "+");
  *value = x;
  return 0;
}

static const char* error_text(void) {
  return "GA calls end the job on failure (GA_Error); only a failed allocation returns";
}

/* A zero-filled n x n array of doubles with GA's block distribution or the element-cyclic one
 * (block-cyclic, 1 x 1 blocks, near-square grid). */
static int create_handle(hf_layout layout, int64_t n) {
  int64_t dims[2] = {n, n};
  if (layout != HF_LAYOUT_ELEMENT_CYCLIC) return NGA_Create64(C_DBL, 2, dims, "fock", NULL);
  const int ranks = GA_Nnodes();
  int rows = 1;
  for (int r = 1; r * r <= ranks; ++r)
    if (ranks % r == 0) rows = r;
  int block[2] = {1, 1}, grid[2] = {rows, ranks / rows};
  const int handle = GA_Create_handle();
  GA_Set_data64(handle, 2, dims, C_DBL);
  GA_Set_array_name(handle, "fock");
  GA_Set_block_cyclic_proc_grid(handle, block, grid);
  GA_Allocate(handle);
  return handle;
}

static int create(hf_layout layout, int64_t n, hf_matrix* matrix) {
  *matrix = malloc(sizeof **matrix);
  if (*matrix == NULL) return HF_GA_ERR_NOMEM;
  (*matrix)->handle = create_handle(layout, n);
  return 0;
}

static int destroy(hf_matrix* matrix) {
  GA_Destroy((*matrix)->handle);
  free(*matrix);
  *matrix = NULL;
  return 0;
}

static int zero(hf_matrix m) {
  GA_Zero(m->handle);
  return 0;
}

static int sync_all(void) {
  GA_Sync();
  return 0;
}

/* GA's patch calls take non-const arrays; they do not write lo, hi, ld or an acc's buffer. */
static int acc(hf_matrix m, const int64_t* lo, const int64_t* hi, const double* buffer, int64_t ld,
               double alpha) {
  NGA_Acc64(m->handle, (int64_t*)lo, (int64_t*)hi, (double*)buffer, &ld, &alpha);
  return 0;
}

static int get(hf_matrix m, const int64_t* lo, const int64_t* hi, double* buffer, int64_t ld) {
  NGA_Get64(m->handle, (int64_t*)lo, (int64_t*)hi, buffer, &ld);
  return 0;
}

static int new_request(hf_request* request) {
  *request = malloc(sizeof **request);
  return *request == NULL ? HF_GA_ERR_NOMEM : 0;
}

static int nbacc(hf_matrix m, const int64_t* lo, const int64_t* hi, const double* buffer,
                 int64_t ld, double alpha, hf_request* request) {
  const int status = new_request(request);
  if (status < 0) return status;
  NGA_NbAcc64(m->handle, (int64_t*)lo, (int64_t*)hi, (double*)buffer, &ld, &alpha,
              &(*request)->handle);
  return 0;
}

static int nbget(hf_matrix m, const int64_t* lo, const int64_t* hi, double* buffer, int64_t ld,
                 hf_request* request) {
  const int status = new_request(request);
  if (status < 0) return status;
  NGA_NbGet64(m->handle, (int64_t*)lo, (int64_t*)hi, buffer, &ld, &(*request)->handle);
  return 0;
}

static int wait_request(hf_request* request) {
  NGA_NbWait(&(*request)->handle);
  free(*request);
  *request = NULL;
  return 0;
}

static int counter_create(int count, hf_counter* counter) {
  *counter = malloc(sizeof **counter);
  if (*counter == NULL) return HF_GA_ERR_NOMEM;
  int dims[1] = {count};
  (*counter)->handle = NGA_Create(C_LONG, 1, dims, "counter", NULL);
  return 0;
}

static int counter_reset(hf_counter counter) {
  GA_Zero(counter->handle);
  return 0;
}

static int counter_next(hf_counter counter, int index, int64_t* ticket) {
  int subscript[1] = {index};
  *ticket = NGA_Read_inc(counter->handle, subscript, 1);
  return 0;
}

static int counter_destroy(hf_counter* counter) {
  GA_Destroy((*counter)->handle);
  free(*counter);
  *counter = NULL;
  return 0;
}

const hf_array_api* hf_ga_api(void) {
  static const hf_array_api api = {
      .name = "global-arrays",
      .rank = rank,
      .size = size,
      .wtime = GA_Wtime,
      .barrier = barrier,
      .error_text = error_text,
      .sync = sync_all,
      HF_ARRAY_BACKEND_ENTRIES,
      /* axpy_attach, axpy, axpy_detach: no GA counterpart */
  };
  return &api;
}
