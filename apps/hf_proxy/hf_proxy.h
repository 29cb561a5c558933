/* The Hartree-Fock proxy of paper 003 (section V-B1, Fig. 7): a distributed counter hands out
 * tasks; in phase 1 each task accumulates into one tile of a distributed 2-D matrix, in phase
 * 2 each task gets one tile. Four ways to communicate (the paper's versions):
 *   axpy_eom      Elemental's AXPY interface, detach by end-of-message messages (ORIG)
 *   axpy_nbc      the same, detach by nonblocking consensus, an ibarrier (ORIG-NBX)
 *   rma_nb        the RMA interface's nonblocking acc/get (IAcc/IGet) with up to
 *                 HF_OUTSTANDING operations in flight (RMA)
 *   rma_blocking  the locally blocking acc/get (RMAB)
 * Thread or ghost progress is the job's REMORA_PROGRESS (the paper's -CSP versions run with
 * Casper's ghost processes). Every run verifies what phase 2 read and the final matrix against
 * the sums computed from the task ids (hf_model.h). */
#ifndef HF_PROXY_H
#define HF_PROXY_H

#include <stdint.h>

#include "hf_array.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hf_variant {
  HF_AXPY_EOM,
  HF_AXPY_NBC,
  HF_RMA_NB,
  HF_RMA_BLOCKING,
  HF_VARIANT_COUNT
} hf_variant;

/* Nonblocking operations rma_nb keeps in flight before it waits for the oldest. */
#define HF_OUTSTANDING 8

const char* hf_variant_name(hf_variant variant);
const char* hf_layout_name(hf_layout layout);
/* 0 and *variant set when name is a variant's name, else -1. Likewise for layouts. */
int hf_variant_parse(const char* name, hf_variant* variant);
int hf_layout_parse(const char* name, hf_layout* layout);
/* Whether api offers what variant needs (the AXPY variants need a batch mode). */
int hf_variant_available(const hf_array_api* api, hf_variant variant);

typedef struct hf_config {
  int64_t n;        /* matrix order */
  int64_t tile;     /* tile edge */
  int64_t tasks;    /* tasks per phase */
  int inject_error; /* adds 1 to one task's weight: verification must catch it */
} hf_config;

typedef struct hf_result {
  double seconds;     /* both phases, from a barrier to the end of the last rank's work */
  int64_t mismatches; /* over all ranks: wrong elements read in phase 2 and in the final matrix */
  uint64_t checksum;  /* of the final matrix's values and positions, the same on every rank:
                         equal for two runs exactly when (barring collisions) their matrices are
                         bit for bit equal, whatever the layout, variant or array library */
} hf_result;

/* Collective. Runs variant once on matrix (zeroed first; created with n = config->n) using
 * counter (two counters, reset first). Returns 0 or the first failing call's error code. */
int hf_run(const hf_array_api* api, hf_matrix matrix, hf_counter counter, const hf_config* config,
           hf_variant variant, hf_result* result);

#ifdef __cplusplus
}
#endif

#endif /* HF_PROXY_H */
