/* Global Arrays patch latency, for Remora's GA-compatible layer and for Global Arrays itself
 * (the same source compiled against each; bench/compare_ga.sh runs both, interleaved).
 * Rank 0 operates on a patch that rank 1 owns (found with NGA_Distribution), p = 2:
 *   put_1x1, get_1x1, acc_1x1, put_16x16, get_16x16, acc_16x16  (doubles; acc with alpha 1)
 *   read_inc                                                      (NGA_Read_inc, inc 1)
 * Rows: ga_latency,<op>_<label>,2,<bytes>,us,<median> and us_min (the project's CSV schema);
 * one warm-up batch, then B batches of K operations; median of per-operation times. The target
 * checks the accumulated and counted values at the end.
 *   mpiexec -n 2 ./ga_latency [--label NAME] [--csv] [--iterations K] [--batches B] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga.h"
#include "macdecls.h"

enum { kMaxBatches = 64, kEdge = 16 };

static int compare_doubles(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

static void report(int csv, const char* op, const char* label, int bytes, double* us, int n) {
  qsort(us, (size_t)n, sizeof(double), compare_doubles);
  const double median = n % 2 ? us[n / 2] : (us[n / 2 - 1] + us[n / 2]) / 2;
  if (csv) {
    printf("ga_latency,%s_%s,2,%d,us,%.6g\n", op, label, bytes, median);
    printf("ga_latency,%s_%s,2,%d,us_min,%.6g\n", op, label, bytes, us[0]);
  } else {
    printf("ga_latency  %-10s %-16s %6d B  %10.4f us (min %.4f)\n", op, label, bytes, median,
           us[0]);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv); /* GA 5.8 (ARMCI-MPI) needs MPI started first */
  GA_Initialize();
  MA_init(C_DBL, 1000000, 1000000);
  const char* label = "ga";
  int csv = 0, iterations = 20000, batches = 5;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--csv") == 0)
      csv = 1;
    else if (strcmp(argv[i], "--label") == 0 && i + 1 < argc)
      label = argv[++i];
    else if (strcmp(argv[i], "--iterations") == 0 && i + 1 < argc)
      iterations = atoi(argv[++i]);
    else if (strcmp(argv[i], "--batches") == 0 && i + 1 < argc)
      batches = atoi(argv[++i]);
    else {
      fprintf(stderr, "ga_latency: bad argument '%s'\n", argv[i]);
      GA_Error("ga_latency: usage", 2);
    }
  }
  if (batches < 1) batches = 1;
  if (batches > kMaxBatches) batches = kMaxBatches;
  if (GA_Nnodes() != 2) GA_Error("ga_latency: run with 2 processes", GA_Nnodes());
  const int me = GA_Nodeid();

  int dims[2] = {64, 64}, chunk[2] = {-1, -1};
  const int g_a = NGA_Create(C_DBL, 2, dims, "latency", chunk);
  GA_Zero(g_a);
  int lo[2], hi[2];
  NGA_Distribution(g_a, 1, lo, hi); /* rank 1's block */
  int counter_dims[1] = {2}, counter_chunk[1] = {1};
  const int g_c = NGA_Create(C_LONG, 1, counter_dims, "counter", counter_chunk);
  GA_Zero(g_c);
  int counter_lo[1], counter_hi[1];
  NGA_Distribution(g_c, 1, counter_lo, counter_hi);
  GA_Sync();

  double patch[kEdge * kEdge], one = 1.0;
  for (int i = 0; i < kEdge * kEdge; ++i) patch[i] = 1.0;
  double us[kMaxBatches];
  long accumulated = 0, incremented = 0; /* per element of the 1x1 corner, and the counter */
  if (me == 0) {
    for (int edge = 1; edge <= kEdge; edge += kEdge - 1) {
      int plo[2] = {lo[0], lo[1]}, phi[2] = {lo[0] + edge - 1, lo[1] + edge - 1}, ld[1] = {edge};
      const int bytes = edge * edge * (int)sizeof(double);
      const char* names[3][2] = {
          {"put_1x1", "put_16x16"}, {"get_1x1", "get_16x16"}, {"acc_1x1", "acc_16x16"}};
      for (int op = 0; op < 3; ++op) {
        for (int batch = -1; batch < batches; ++batch) {
          const double start = MPI_Wtime();
          for (int i = 0; i < iterations; ++i) {
            if (op == 0)
              NGA_Put(g_a, plo, phi, patch, ld);
            else if (op == 1)
              NGA_Get(g_a, plo, phi, patch, ld);
            else
              NGA_Acc(g_a, plo, phi, patch, ld, &one);
          }
          if (op == 2) accumulated += iterations;
          if (batch >= 0) us[batch] = (MPI_Wtime() - start) * 1e6 / iterations;
        }
        report(csv, names[op][edge == 1 ? 0 : 1], label, bytes, us, batches);
        /* the get returned what the put wrote and the accumulates added: reset for the next */
        for (int i = 0; i < edge * edge; ++i) patch[i] = 1.0;
      }
      if (edge == 1) {
        /* after put 1.0 then the 1x1 accumulates, the corner holds 1 + accumulated */
        double corner = 0;
        NGA_Get(g_a, plo, plo, &corner, ld);
        if (corner != 1.0 + (double)accumulated)
          GA_Error("ga_latency: 1x1 accumulate sum wrong", 1);
        accumulated = 0;
      }
    }
    for (int batch = -1; batch < batches; ++batch) {
      const double start = MPI_Wtime();
      for (int i = 0; i < iterations; ++i) NGA_Read_inc(g_c, counter_lo, 1);
      incremented += iterations;
      if (batch >= 0) us[batch] = (MPI_Wtime() - start) * 1e6 / iterations;
    }
    report(csv, "read_inc", label, 8, us, batches);
  }
  GA_Sync();
  long counted = 0;
  NGA_Get(g_c, counter_lo, counter_hi, &counted, counter_lo);
  long expected = incremented;
  GA_Lgop(&expected, 1, "+");
  if (counted != expected) GA_Error("ga_latency: read_inc count wrong", (int)counted);
  GA_Destroy(g_c);
  GA_Destroy(g_a);
  GA_Terminate();
  MPI_Finalize();
  return 0;
}
