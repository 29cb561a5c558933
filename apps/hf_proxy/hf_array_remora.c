/* The HF proxy's array table (hf_array.h) over Remora's distributed arrays (remora/array.h).
 * The proxy's handles are Remora's handles, cast. */
#include <remora.h>

#include "hf_array.h"

static remora_array_t array_of(hf_matrix m) {
  return (remora_array_t)m;
}

static int sum_int64(int64_t* value) {
  remora_comm_t world;
  int status = remora_comm_world(&world);
  if (status < 0) return status;
  return remora_allreduce(REMORA_IN_PLACE, value, 1, REMORA_INT64, REMORA_OP_SUM, world,
                          REMORA_COLL_AUTO);
}

static int create(hf_layout layout, int64_t n, hf_matrix* matrix) {
  const int64_t dims[2] = {n, n};
  remora_array_t a = NULL;
  const int status = layout == HF_LAYOUT_ELEMENT_CYCLIC
                         ? remora_array_create_element_cyclic(REMORA_DOUBLE, dims, NULL, "fock", &a)
                         : remora_array_create(REMORA_DOUBLE, 2, dims, "fock", &a);
  *matrix = (hf_matrix)a;
  return status;
}

static int destroy(hf_matrix* matrix) {
  remora_array_t a = array_of(*matrix);
  const int status = remora_array_destroy(&a);
  *matrix = NULL;
  return status;
}

static int zero(hf_matrix m) {
  return remora_array_zero(array_of(m));
}

static int acc(hf_matrix m, const int64_t* lo, const int64_t* hi, const double* buffer, int64_t ld,
               double alpha) {
  return remora_array_acc(array_of(m), lo, hi, buffer, &ld, &alpha);
}

static int get(hf_matrix m, const int64_t* lo, const int64_t* hi, double* buffer, int64_t ld) {
  return remora_array_get(array_of(m), lo, hi, buffer, &ld);
}

static int nbacc(hf_matrix m, const int64_t* lo, const int64_t* hi, const double* buffer,
                 int64_t ld, double alpha, hf_request* request) {
  remora_array_request_t r = REMORA_ARRAY_REQUEST_NULL;
  const int status = remora_array_nbacc(array_of(m), lo, hi, buffer, &ld, &alpha, &r);
  *request = (hf_request)r;
  return status;
}

static int nbget(hf_matrix m, const int64_t* lo, const int64_t* hi, double* buffer, int64_t ld,
                 hf_request* request) {
  remora_array_request_t r = REMORA_ARRAY_REQUEST_NULL;
  const int status = remora_array_nbget(array_of(m), lo, hi, buffer, &ld, &r);
  *request = (hf_request)r;
  return status;
}

static int wait_request(hf_request* request) {
  remora_array_request_t r = (remora_array_request_t)*request;
  const int status = remora_array_wait(&r);
  *request = NULL;
  return status;
}

/* Counters: a 1-D int64 array, one element per counter. */
static int counter_create(int count, hf_counter* counter) {
  const int64_t dims[1] = {count};
  remora_array_t a = NULL;
  const int status = remora_array_create(REMORA_INT64, 1, dims, "counter", &a);
  *counter = (hf_counter)a;
  return status;
}

static int counter_reset(hf_counter counter) {
  return remora_array_zero((remora_array_t)counter);
}

static int counter_next(hf_counter counter, int index, int64_t* ticket) {
  const int64_t subscript[1] = {index};
  return remora_array_read_inc((remora_array_t)counter, subscript, 1, ticket);
}

static int counter_destroy(hf_counter* counter) {
  remora_array_t a = (remora_array_t)*counter;
  const int status = remora_array_destroy(&a);
  *counter = NULL;
  return status;
}

static int axpy_attach(hf_matrix m, hf_detach detach, hf_batch* batch) {
  remora_axpy_t b = NULL;
  const int status = remora_axpy_attach(
      array_of(m), detach == HF_DETACH_NBC ? REMORA_AXPY_DETACH_NBX : REMORA_AXPY_DETACH_EOM, &b);
  *batch = (hf_batch)b;
  return status;
}

static int axpy(hf_batch batch, hf_direction direction, double alpha, double* buffer, int64_t ld,
                const int64_t* lo, const int64_t* hi) {
  return remora_axpy(
      (remora_axpy_t)batch,
      direction == HF_GLOBAL_TO_LOCAL ? REMORA_AXPY_GLOBAL_TO_LOCAL : REMORA_AXPY_LOCAL_TO_GLOBAL,
      &alpha, buffer, &ld, lo, hi);
}

static int axpy_detach(hf_batch* batch) {
  remora_axpy_t b = (remora_axpy_t)*batch;
  const int status = remora_axpy_detach(&b);
  *batch = NULL;
  return status;
}

const hf_array_api* hf_remora_api(void) {
  static const hf_array_api api = {
      .name = "remora",
      .rank = remora_rank,
      .size = remora_size,
      .wtime = remora_wtime,
      .barrier = remora_barrier,
      .error_text = remora_last_error,
      .sync = remora_array_sync,
      HF_ARRAY_BACKEND_ENTRIES,
      .axpy_attach = axpy_attach,
      .axpy = axpy,
      .axpy_detach = axpy_detach,
  };
  return &api;
}
