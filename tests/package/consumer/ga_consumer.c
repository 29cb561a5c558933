/* A Global Arrays program outside the Remora tree, built against an installed Remora's ga.h. */
#include <ga.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  GA_Initialize();
  int dims[1] = {1};
  int g_counter = NGA_Create(C_LONG, 1, dims, "counter", NULL);
  GA_Zero(g_counter);
  GA_Sync();
  int subscript[1] = {0};
  long mine = NGA_Read_inc(g_counter, subscript, 1);
  GA_Sync();
  long total = -1;
  int lo[1] = {0}, hi[1] = {0}, ld[1] = {1};
  NGA_Get(g_counter, lo, hi, &total, ld);
  int ok = total == GA_Nnodes() && mine >= 0 && mine < GA_Nnodes();
  if (GA_Nodeid() == 0) printf("ga consumer: %d ranks, counter %ld\n", GA_Nnodes(), total);
  if (!ok)
    fprintf(stderr, "ga consumer: rank %d got ticket %ld, counter %ld\n", GA_Nodeid(), mine, total);
  GA_Destroy(g_counter);
  GA_Terminate();
  MPI_Finalize();
  return ok ? 0 : 1;
}
