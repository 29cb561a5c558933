/* GA's settings and reports: GA_Set_debug / GA_Get_debug, GA_Set_memory_limit (limited, then
 * no limit again), GA_Deallocate (memory freed, handle kept and allocated again),
 * GA_Set_irreg_flag, GA_Set_memory_dev and GA_Register_stack_memory before an allocation that
 * must still work, gathers with and without NGA_Alloc_gatscat_buf's buffers, GA_Summarize (Remora:
 * its table checked), and the NGA_ spellings. With an argument, one misuse that must end the job
 * with GA_Error's message (the modes in misuse()). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ga.h"
#include "ga_check.h"
#include "macdecls.h"

static void* stack_alloc(size_t bytes, int align, char* name) {
  (void)align;
  (void)name;
  return malloc(bytes);
}

static void stack_free(void* p) {
  free(p);
}

/* The array holds value everywhere (checked through a get of all of it). */
static void check_filled(int g, double value) {
  double all[4][5];
  int lo[2] = {0, 0}, hi[2] = {3, 4}, ld[1] = {5};
  NGA_Get(g, lo, hi, all, ld);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 5; ++j) CHECK(all[i][j] == value);
}

#ifdef REMORA_GA_H
/* Remora only: GA's Fortran writes do not go through C's stdout. What GA_Summarize printed. */
static void check_summary(int g) {
  char path[] = "/tmp/remora_ga_summaryXXXXXX";
  const int file = mkstemp(path);
  CHECK(file >= 0);
  fflush(stdout);
  const int saved = dup(1);
  dup2(file, 1);
  GA_Summarize(1);
  fflush(stdout);
  dup2(saved, 1);
  close(saved);
  char text[4096] = "";
  FILE* in = fopen(path, "r");
  CHECK(in != NULL);
  const size_t got = fread(text, 1, sizeof text - 1, in);
  text[got] = '\0';
  fclose(in);
  close(file);
  unlink(path);
  CHECK(strstr(text, " Summary of allocated global arrays") == text);
  CHECK(strstr(text, "double precision alpha(5,4),  handle: ") != NULL);
  CHECK(strstr(text, "integer beta(4),  handle: ") != NULL);
  /* Who owns which patch of alpha: Fortran order, 1-based. */
  int lo[2], hi[2];
  NGA_Distribution(g, 0, lo, hi);
  char line[96];
  snprintf(line, sizeof line, "\n    (%d:%d,%d:%d) -> 0 \n", lo[1] + 1, hi[1] + 1, lo[0] + 1,
           hi[0] + 1);
  CHECK(strstr(text, line) != NULL);
}
#endif

static void misuse(const char* mode) {
  if (strcmp(mode, "stack") == 0) GA_Register_stack_memory(stack_alloc, NULL);
  if (strcmp(mode, "memory_dev") == 0) {
    int dims[1] = {4};
    const int g = NGA_Create(C_DBL, 1, dims, "allocated", NULL);
    char device[] = "host";
    GA_Set_memory_dev(g, device);
  }
  if (strcmp(mode, "irreg_flag") == 0) GA_Set_irreg_flag(4242, 1);
  if (strcmp(mode, "gatscat_twice") == 0) {
    NGA_Alloc_gatscat_buf(10);
    NGA_Alloc_gatscat_buf(20);
  }
  if (strcmp(mode, "gatscat_free") == 0) NGA_Free_gatscat_buf();
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  GA_Initialize();
  if (argc > 1) misuse(argv[1]); /* ends the job */
  CHECK(GA_Get_debug() == 0);
  GA_Set_debug(3);
  CHECK(GA_Get_debug() == 3 && NGA_Get_debug() == 3);
  NGA_Set_debug(0);
  CHECK(GA_Get_debug() == 0);

  GA_Set_memory_limit(1 << 20);
  CHECK(GA_Memory_limited() == 1 && GA_Memory_avail() <= (size_t)1 << 20);
  NGA_Set_memory_limit((size_t)-1); /* GA reads it as negative: no limit */
  CHECK(GA_Memory_limited() == 0);

  GA_Register_stack_memory(stack_alloc, stack_free);
  int dims[2] = {4, 5}, dims1[1] = {4};
  const int g = GA_Create_handle();
  GA_Set_data(g, 2, dims, C_DBL);
  GA_Set_array_name(g, "alpha");
  GA_Set_irreg_flag(g, 0);
  NGA_Set_irreg_flag(g, 0);
  char device[] = "host";
  GA_Set_memory_dev(g, device);
  CHECK(GA_Allocate(g) == 1);
  double two = 2.0, three = 3.0;
  GA_Fill(g, &two);
  check_filled(g, 2.0);
  const int beta = NGA_Create(C_INT, 1, dims1, "beta", NULL);
#ifdef REMORA_GA_H
  check_summary(g);
#endif
  GA_Summarize(0);

  /* Gathers with GA's preallocated buffers, then without. */
  NGA_Alloc_gatscat_buf(8);
  for (int round = 0; round < 2; ++round) {
    int subs[4][2] = {{0, 0}, {3, 4}, {1, 2}, {2, 1}};
    int* subscripts[4] = {subs[0], subs[1], subs[2], subs[3]};
    double got[4] = {0.0, 0.0, 0.0, 0.0};
    NGA_Gather(g, got, subscripts, 4);
    for (int k = 0; k < 4; ++k) CHECK(got[k] == 2.0);
    if (round == 0) NGA_Free_gatscat_buf();
  }

  /* Deallocate: the memory goes, the handle stays and can be allocated again. */
  CHECK(GA_Deallocate(g) == 1);
  CHECK(NGA_Deallocate(g) == 0);
  CHECK(GA_Allocate(g) == 1);
  GA_Fill(g, &three);
  check_filled(g, 3.0);
  GA_Destroy(beta);
  GA_Destroy(g);
  GA_Sync();
  GA_Terminate();
  MPI_Finalize();
  return 0;
}
