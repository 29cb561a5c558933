/* What the HF proxy computes, independent of how it communicates: the tiling of the n x n
 * matrix, each task's contribution, and the sums the matrix must hold at the end.
 *
 * The matrix is cut into tiles of tile x tile elements (the last row and column of tiles may
 * be smaller), numbered row-major. Phase 1: task t adds weight(t) * g(i, j) to every element
 * (i, j) of tile t mod T (T tiles), as a Fock build adds a shell quartet's integrals to a
 * block. Phase 2: task t reads tile T-1 - (t mod T). Weights and g are small integers, so
 * every sum is exact in double precision and the expected matrix can be compared exactly:
 * element (i, j) of tile k must hold g(i, j) * (sum of weight(t) over t < tasks with
 * t mod T = k). */
#ifndef HF_MODEL_H
#define HF_MODEL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hf_tiling {
  int64_t n;       /* matrix order */
  int64_t tile;    /* tile edge */
  int64_t per_row; /* tiles per row of tiles */
  int64_t count;   /* T */
} hf_tiling;

hf_tiling hf_tiling_make(int64_t n, int64_t tile);
/* The patch of tile k: lo[0..1]..hi[0..1], inclusive. */
void hf_tile_bounds(const hf_tiling* tiling, int64_t k, int64_t* lo, int64_t* hi);
int64_t hf_phase1_tile(const hf_tiling* tiling, int64_t task);
int64_t hf_phase2_tile(const hf_tiling* tiling, int64_t task);

/* The scale factor task t applies to its tile's values. */
double hf_weight(int64_t task);
/* The value task contributions carry for element (i, j), before weighting. */
double hf_element_value(int64_t i, int64_t j);
/* Fills values (rows of the tile's width) with g over tile k. */
void hf_tile_values(const hf_tiling* tiling, int64_t k, double* values);

/* The expected sums: weight_sum[k] = sum of weight(t) over t < tasks with t mod T = k,
 * computed from the task ids alone (not from what any rank did). */
typedef struct hf_expected {
  hf_tiling tiling;
  double* weight_sum; /* T entries */
} hf_expected;

/* 0, or -1 when out of memory. */
int hf_expected_make(const hf_tiling* tiling, int64_t tasks, hf_expected* expected);
void hf_expected_free(hf_expected* expected);
double hf_expected_element(const hf_expected* expected, int64_t i, int64_t j);
/* How many elements of tile k, stored in values with leading dimension ld, differ from the
 * expected sums. */
int64_t hf_tile_mismatches(const hf_expected* expected, int64_t k, const double* values,
                           int64_t ld);

#ifdef __cplusplus
}
#endif

#endif /* HF_MODEL_H */
