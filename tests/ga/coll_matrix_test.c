/* GA's matrix utilities (GA_Zero_diagonal, GA_Shift_diagonal, GA_Set_diagonal,
 * GA_Add_diagonal, GA_Get_diag, GA_Scale_rows, GA_Scale_cols) on 7 x 7, 9 x 6 and 6 x 9 matrices of
 * block, irregular and ScaLAPACK block-cyclic distributions, against a serial reference. As
 * GA 5.8 does (this program passes against it at 1, 2 and 4 ranks but for GA_Zero_diagonal,
 * which there zeroes elements off the diagonal at more than one rank): GA_Scale_rows
 * multiplies element [i][j] by v[i], GA_Scale_cols by v[j]. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_util.h"
#include "ga.h"
#include "macdecls.h"

/* A 1-D array of n elements of type holding ref (rank 0 puts, then a sync). */
static int vector_create(int type, int n, const long* ref, const char* name) {
  int g_v = NGA_Create(type, 1, &n, (char*)name, NULL);
  CHECK(g_v != 0);
  if (GA_Nodeid() == 0) {
    char* buf = (char*)malloc((size_t)n * elem_size(type));
    for (int i = 0; i < n; ++i) set_value(type, buf, i, ref[i]);
    int lo[1] = {0}, hi[1] = {n - 1}, ld[1] = {n};
    NGA_Put(g_v, lo, hi, buf, ld);
    free(buf);
  }
  GA_Sync();
  return g_v;
}

static void vector_expect(int g_v, int type, int n, const long* ref, const char* what) {
  char* buf = (char*)malloc((size_t)n * elem_size(type));
  int lo[1] = {0}, hi[1] = {n - 1}, ld[1] = {n};
  NGA_Get(g_v, lo, hi, buf, ld);
  for (int i = 0; i < n; ++i) {
    if (get_value(type, buf, i) != ref[i]) {
      fprintf(stderr, "rank %d: %s (type %d): element %d is %ld, expected %ld\n", GA_Nodeid(), what,
              type, i, get_value(type, buf, i), ref[i]);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  }
  free(buf);
  GA_Sync();
}

static void check_matrix(int layout, int type, int rows, int cols) {
  enum { MAX = 81 };
  long a[MAX], v[9], d[9];
  const int n = rows < cols ? rows : cols;
  coll_random(a, rows * cols, 100 + (unsigned)layout);
  coll_random(v, 9, 200 + (unsigned)layout);
  int g_a = coll_create(layout, type, rows, cols, "matrix");
  coll_load(g_a, type, rows, cols, a);

  int g_d = vector_create(type, n, v, "diag_in");
  GA_Set_diagonal(g_a, g_d);
  for (int i = 0; i < n; ++i) a[i * cols + i] = v[i];
  coll_expect(g_a, type, rows, cols, a, "GA_Set_diagonal");
  GA_Add_diagonal(g_a, g_d);
  for (int i = 0; i < n; ++i) a[i * cols + i] += v[i];
  coll_expect(g_a, type, rows, cols, a, "GA_Add_diagonal");
  char shift[16];
  set_value(type, shift, 0, 3);
  GA_Shift_diagonal(g_a, shift);
  for (int i = 0; i < n; ++i) a[i * cols + i] += 3;
  coll_expect(g_a, type, rows, cols, a, "GA_Shift_diagonal");
  int g_out = vector_create(type, n, v, "diag_out");
  GA_Get_diag(g_a, g_out);
  for (int i = 0; i < n; ++i) d[i] = a[i * cols + i];
  vector_expect(g_out, type, n, d, "GA_Get_diag");
  GA_Zero_diagonal(g_a);
  for (int i = 0; i < n; ++i) a[i * cols + i] = 0;
  coll_expect(g_a, type, rows, cols, a, "GA_Zero_diagonal");
  GA_Destroy(g_d);
  GA_Destroy(g_out);

  /* Scaling keeps complex values out of the (v, -v) form the helpers check: real types. */
  if (type != C_DCPL) {
    int g_r = vector_create(type, rows, v, "row_scale");
    GA_Scale_rows(g_a, g_r);
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j) a[i * cols + j] *= v[i];
    coll_expect(g_a, type, rows, cols, a, "GA_Scale_rows");
    int g_c = vector_create(type, cols, v, "col_scale");
    GA_Scale_cols(g_a, g_c);
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j) a[i * cols + j] *= v[j];
    coll_expect(g_a, type, rows, cols, a, "GA_Scale_cols");
    GA_Destroy(g_r);
    GA_Destroy(g_c);
  }
  GA_Destroy(g_a);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  GA_Initialize();
  MA_init(C_DBL, 1000000, 1000000); /* GA needs MA for its temporary buffers */
  const int types[4] = {C_DBL, C_INT, C_LONG, C_DCPL};
  for (int layout = 0; layout < COLL_LAYOUTS; ++layout)
    for (int t = 0; t < 4; ++t) {
      check_matrix(layout, types[t], 7, 7);
      check_matrix(layout, types[t], 9, 6);
      check_matrix(layout + 1, types[t], 6, 9);
    }
  if (GA_Nodeid() == 0) printf("ga matrix utilities: ok\n");
  GA_Terminate();
  MPI_Finalize();
  return 0;
}
