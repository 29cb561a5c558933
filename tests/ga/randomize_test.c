/* GA_Randomize / NGA_Randomize: every element becomes value * rand() / RAND_MAX on its owner,
 * so it lies in [0, value]. Checked on block, irregular and block-cyclic arrays
 * of long, float and double elements (and int on Remora: GA 5.8 multiplies in int, which
 * overflows): every element in range, the values not all equal, a patch outside the array
 * untouched (a second array), and the array readable by every rank with the same values. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "ga.h"
#include "ga_check.h"
#include "macdecls.h"

enum { ROWS = 13, COLS = 11 };

static double element(int type, const void* buf, int k) {
  switch (type) {
    case C_INT:
      return ((const int*)buf)[k];
    case C_LONG:
      return (double)((const long*)buf)[k];
    case C_FLOAT:
      return ((const float*)buf)[k];
    default:
      return ((const double*)buf)[k];
  }
}

static void check_random(int type, int layout, int n_form) {
  const int me = GA_Nodeid();
  int dims[2] = {ROWS, COLS};
  const int g_a = GA_Create_handle();
  GA_Set_data(g_a, 2, dims, type);
  if (layout == 1) {
    int block[2] = {3, 2};
    GA_Set_block_cyclic(g_a, block);
  } else if (layout == 2) {
    int map[3] = {0, 5, 0}, nblock[2] = {GA_Nnodes() > 1 ? 2 : 1, 1};
    if (nblock[0] == 1) map[1] = 0; /* one block: rows from 0, columns from 0 */
    GA_Set_irreg_distr(g_a, map, nblock);
  }
  CHECK(GA_Allocate(g_a) == 1);
  const int g_b = GA_Duplicate(g_a, "untouched");
  CHECK(g_b != 0);
  GA_Zero(g_b);
  int ival = 1000;
  long lval = 1000;
  float fval = 2.5f;
  double dval = 7.25;
  void* value = type == C_INT     ? (void*)&ival
                : type == C_LONG  ? (void*)&lval
                : type == C_FLOAT ? (void*)&fval
                                  : (void*)&dval;
  const double limit = element(type, value, 0);
  if (n_form)
    NGA_Randomize(g_a, value);
  else
    GA_Randomize(g_a, value);
  double buf[ROWS * COLS], other[ROWS * COLS];
  int lo[2] = {0, 0}, hi[2] = {ROWS - 1, COLS - 1}, ld[1] = {COLS};
  NGA_Get(g_a, lo, hi, buf, ld);
  NGA_Get(g_b, lo, hi, other, ld);
  int distinct = 0;
  for (int k = 0; k < ROWS * COLS; ++k) {
    const double v = element(type, buf, k);
    CHECK(v >= 0.0 && v <= limit);
    if (v != element(type, buf, 0)) distinct = 1;
    CHECK(element(type, other, k) == 0.0);
  }
  CHECK(distinct);
  /* Every rank read the same values: rank 0's copy is broadcast and compared. */
  double first[ROWS * COLS];
  for (int k = 0; k < ROWS * COLS; ++k) first[k] = element(type, buf, k);
  GA_Brdcst(first, sizeof first, 0);
  for (int k = 0; k < ROWS * COLS; ++k) CHECK(first[k] == element(type, buf, k));
  (void)me;
  GA_Destroy(g_b);
  GA_Destroy(g_a);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  GA_Initialize();
#ifdef REMORA_GA_H
  const int types[] = {C_INT, C_LONG, C_FLOAT, C_DBL};
#else
  const int types[] = {C_LONG, C_FLOAT, C_DBL};
#endif
  for (size_t t = 0; t < sizeof types / sizeof types[0]; ++t)
    for (int layout = 0; layout < 3; ++layout)
      check_random(types[t], layout, (int)(t + layout) % 2);
  if (GA_Nodeid() == 0) printf("randomize: all checks passed on %d processes\n", GA_Nnodes());
  GA_Terminate();
  MPI_Finalize();
  return 0;
}
