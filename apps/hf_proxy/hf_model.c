#include "hf_model.h"

#include <stdlib.h>

hf_tiling hf_tiling_make(int64_t n, int64_t tile) {
  hf_tiling t;
  t.n = n;
  t.tile = tile;
  t.per_row = (n + tile - 1) / tile;
  t.count = t.per_row * t.per_row;
  return t;
}

void hf_tile_bounds(const hf_tiling* tiling, int64_t k, int64_t* lo, int64_t* hi) {
  const int64_t row = k / tiling->per_row, column = k % tiling->per_row;
  lo[0] = row * tiling->tile;
  lo[1] = column * tiling->tile;
  hi[0] = lo[0] + tiling->tile - 1 < tiling->n - 1 ? lo[0] + tiling->tile - 1 : tiling->n - 1;
  hi[1] = lo[1] + tiling->tile - 1 < tiling->n - 1 ? lo[1] + tiling->tile - 1 : tiling->n - 1;
}

int64_t hf_phase1_tile(const hf_tiling* tiling, int64_t task) {
  return task % tiling->count;
}

int64_t hf_phase2_tile(const hf_tiling* tiling, int64_t task) {
  return tiling->count - 1 - task % tiling->count;
}

double hf_weight(int64_t task) {
  return (double)(1 + task % 5);
}

double hf_element_value(int64_t i, int64_t j) {
  return (double)(1 + (i * 7 + j * 3) % 11);
}

void hf_tile_values(const hf_tiling* tiling, int64_t k, double* values) {
  int64_t lo[2], hi[2];
  hf_tile_bounds(tiling, k, lo, hi);
  const int64_t width = hi[1] - lo[1] + 1;
  for (int64_t i = lo[0]; i <= hi[0]; ++i)
    for (int64_t j = lo[1]; j <= hi[1]; ++j)
      values[(i - lo[0]) * width + (j - lo[1])] = hf_element_value(i, j);
}

int hf_expected_make(const hf_tiling* tiling, int64_t tasks, hf_expected* expected) {
  expected->tiling = *tiling;
  expected->weight_sum = calloc((size_t)tiling->count, sizeof(double));
  if (expected->weight_sum == NULL) return -1; /* out of memory */
  /* Tile k receives the tasks k, k + T, k + 2T, ... below tasks. */
  for (int64_t k = 0; k < tiling->count; ++k)
    for (int64_t t = k; t < tasks; t += tiling->count) expected->weight_sum[k] += hf_weight(t);
  return 0;
}

void hf_expected_free(hf_expected* expected) {
  free(expected->weight_sum);
  expected->weight_sum = NULL;
}

double hf_expected_element(const hf_expected* expected, int64_t i, int64_t j) {
  const hf_tiling* t = &expected->tiling;
  const int64_t k = (i / t->tile) * t->per_row + j / t->tile;
  return hf_element_value(i, j) * expected->weight_sum[k];
}

int64_t hf_tile_mismatches(const hf_expected* expected, int64_t k, const double* values,
                           int64_t ld) {
  int64_t lo[2], hi[2], bad = 0;
  hf_tile_bounds(&expected->tiling, k, lo, hi);
  for (int64_t i = lo[0]; i <= hi[0]; ++i)
    for (int64_t j = lo[1]; j <= hi[1]; ++j)
      if (values[(i - lo[0]) * ld + (j - lo[1])] != hf_expected_element(expected, i, j)) ++bad;
  return bad;
}
