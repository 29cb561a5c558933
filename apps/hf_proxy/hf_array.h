/* The HF proxy's view of a distributed-array library: every call the proxy makes on its matrix,
 * its task counter and its job goes through this table, so the same proxy can run over
 * Remora's own API (hf_array_remora.c) or over the Global-Arrays-compatible API
 * (hf_array_ga.c: NGA_Acc/NGA_Get/NGA_NbAcc/NGA_Read_inc..., no AXPY batch mode).
 *
 * Indexing follows Global Arrays' C API, as remora/array.h does: row-major, from 0, a patch is
 * lo[0..1]..hi[0..1] inclusive, a local buffer has leading dimension ld (its row length).
 * Every function returns 0 or a negative error code (hf_array_api.error_text says what). */
#ifndef HF_ARRAY_H
#define HF_ARRAY_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hf_layout { HF_LAYOUT_BLOCK, HF_LAYOUT_ELEMENT_CYCLIC, HF_LAYOUT_COUNT } hf_layout;

/* How an AXPY batch learns at detach that no more updates will come (paper 003 III-A). */
typedef enum hf_detach { HF_DETACH_EOM, HF_DETACH_NBC } hf_detach;
typedef enum hf_direction { HF_LOCAL_TO_GLOBAL, HF_GLOBAL_TO_LOCAL } hf_direction;

typedef struct hf_matrix_s* hf_matrix;   /* an n x n matrix of doubles */
typedef struct hf_counter_s* hf_counter; /* counters for dynamic load balancing */
typedef struct hf_request_s* hf_request; /* a nonblocking operation */
typedef struct hf_batch_s* hf_batch;     /* an open AXPY batch */

typedef struct hf_array_api {
  const char* name;
  /* Job */
  int (*rank)(void);
  int (*size)(void);
  double (*wtime)(void);
  int (*barrier)(void);
  int (*sum_int64)(int64_t* value); /* in place, over all ranks */
  const char* (*error_text)(void);

  /* Matrix (collective create/destroy/zero; sync completes everyone's operations) */
  int (*create)(hf_layout layout, int64_t n, hf_matrix* matrix);
  int (*destroy)(hf_matrix* matrix);
  int (*zero)(hf_matrix matrix);
  int (*sync)(void);
  /* patch += alpha * buffer, atomic per element; locally blocking (buffer reusable) */
  int (*acc)(hf_matrix m, const int64_t* lo, const int64_t* hi, const double* buffer, int64_t ld,
             double alpha);
  int (*get)(hf_matrix m, const int64_t* lo, const int64_t* hi, double* buffer, int64_t ld);
  /* Nonblocking forms: the buffer is reusable (acc) or filled (get) after wait. */
  int (*nbacc)(hf_matrix m, const int64_t* lo, const int64_t* hi, const double* buffer, int64_t ld,
               double alpha, hf_request* request);
  int (*nbget)(hf_matrix m, const int64_t* lo, const int64_t* hi, double* buffer, int64_t ld,
               hf_request* request);
  int (*wait)(hf_request* request);

  /* Counters: `count` int64 counters starting at 0; next = atomic fetch-and-add of 1. */
  int (*counter_create)(int count, hf_counter* counter);
  int (*counter_reset)(hf_counter counter); /* collective */
  int (*counter_next)(hf_counter counter, int index, int64_t* ticket);
  int (*counter_destroy)(hf_counter* counter);

  /* AXPY batch mode (Elemental's AxpyInterface). NULL in a library without it: the proxy then
   * offers only the RMA variants. attach and detach are collective. */
  int (*axpy_attach)(hf_matrix m, hf_detach detach, hf_batch* batch);
  int (*axpy)(hf_batch batch, hf_direction direction, double alpha, double* buffer, int64_t ld,
              const int64_t* lo, const int64_t* hi);
  int (*axpy_detach)(hf_batch* batch);
} hf_array_api;

/* The entries every backend fills with static functions of its own under these names, for its
 * hf_array_api initializer (designated initializers: the order does not matter). */
#define HF_ARRAY_BACKEND_ENTRIES                                                                  \
  .sum_int64 = sum_int64, .create = create, .destroy = destroy, .zero = zero, .acc = acc,         \
  .get = get, .nbacc = nbacc, .nbget = nbget, .wait = wait_request,                               \
  .counter_create = counter_create, .counter_reset = counter_reset, .counter_next = counter_next, \
  .counter_destroy = counter_destroy

/* Remora's distributed arrays (remora/array.h). Call after remora_init. */
const hf_array_api* hf_remora_api(void);
/* The Global-Arrays-compatible API (ga.h; built with MPI). Call after GA_Initialize. */
const hf_array_api* hf_ga_api(void);

#ifdef __cplusplus
}
#endif

#endif /* HF_ARRAY_H */
