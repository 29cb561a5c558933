/* The declarations of ga.h, macdecls.h and ga-mpi.h that GA programs depend on, checked by the
 * compiler: each function is assigned to a pointer of the type GA's documentation gives it
 * (return type, integer widths, pointer levels), and an incompatible pointer is an error here.
 * tools/ga-reference-run.sh compiles the same file against GA 5.8's own headers, so the types
 * written below are GA's. At run time: the calls behave as their types say (GA_Initialize_comm
 * returns 1, GA_Inquire_name a string, MA calls MA_TRUE, MA_AccessIndex holds a long). */
#pragma GCC diagnostic error "-Wincompatible-pointer-types"
#include <mpi.h>
#include <stdint.h>
#include <string.h>

#include "ga-mpi.h"
#include "ga.h"
#include "ga_check.h"
#include "macdecls.h"

/* Declared and assigned: a mismatch with the header fails to compile. */
#define TYPED(type, name, function) __typeof__(type) name = function

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  GA_Initialize();
  TYPED(char* (*)(int), inquire_name, GA_Inquire_name);
  TYPED(char* (*)(int), n_inquire_name, NGA_Inquire_name);
  TYPED(int (*)(ga_nbhdl_t*), nb_test, NGA_NbTest);
  TYPED(void (*)(int, int, int*), proc_topology, NGA_Proc_topology);
  TYPED(long (*)(int, int*, long), read_inc, NGA_Read_inc);
  TYPED(long (*)(int, int64_t*, long), read_inc64, NGA_Read_inc64);
  TYPED(long long (*)(int, int), lldot, GA_Lldot);
  TYPED(float (*)(int, int), fdot, GA_Fdot);
  TYPED(SingleComplex(*)(int, int), cdot, GA_Cdot);
  TYPED(DoubleComplex(*)(int, int), zdot, GA_Zdot);
  TYPED(size_t(*)(void), memory_avail, GA_Memory_avail);
  TYPED(void* (*)(int, int, int), getmem, GA_Getmem);
  TYPED(int (*)(int, char*, void*), assemble, GA_Assemble_duplicate);
  TYPED(void (*)(double*, int, char*), dgop, GA_Dgop);
  TYPED(void (*)(long*, int, char*), lgop, GA_Lgop);
  TYPED(void (*)(int, char*, void*, int*), select_elem, NGA_Select_elem);
  TYPED(MPI_Comm(*)(void), mpi_comm, GA_MPI_Comm);
  TYPED(MPI_Comm(*)(int), mpi_comm_pgroup, GA_MPI_Comm_pgroup);
  TYPED(Boolean(*)(Integer, Integer, Integer), ma_init, MA_init);
  TYPED(Boolean(*)(Integer, Integer, const char*, Integer*, MA_AccessIndex*), push_get,
        MA_push_get);
  TYPED(Boolean(*)(Integer, Integer, const char*, Integer*, MA_AccessIndex*), alloc_get,
        MA_alloc_get);
  TYPED(Boolean(*)(Integer, void*), get_pointer, MA_get_pointer);
  TYPED(Boolean(*)(Integer, MA_AccessIndex*), get_index, MA_get_index);
  TYPED(Boolean(*)(Integer), pop_stack, MA_pop_stack);
  TYPED(Boolean(*)(Integer), free_heap, MA_free_heap);
  TYPED(Integer(*)(Integer), inquire_avail, MA_inquire_avail);
  TYPED(Integer(*)(Integer, Integer, Integer), ma_sizeof, MA_sizeof);
  TYPED(Pointer(*)(Integer), get_mbase, MA_get_mbase);
  TYPED(Boolean(*)(Boolean), set_hard_fail, MA_set_hard_fail);
#ifdef REMORA_GA_H /* GA 5.9's (GA 5.8 has neither) */
  TYPED(int (*)(MPI_Comm), initialize_comm, GA_Initialize_comm);
  TYPED(int (*)(MPI_Comm), n_initialize_comm, NGA_Initialize_comm);
  CHECK(initialize_comm(MPI_COMM_WORLD) == 1 && n_initialize_comm(MPI_COMM_WORLD) == 1);
#endif
  CHECK(sizeof(MA_AccessIndex) == sizeof(long) && sizeof(Integer) == sizeof(long));
  CHECK(sizeof(ga_nbhdl_t) == sizeof(Integer));

  /* The calls through the pointers behave as their types say. */
  CHECK(ma_init(MT_DBL, 100, 100) == MA_TRUE);
  Integer h = -1;
  MA_AccessIndex index = -1;
  CHECK(push_get(MT_DBL, 4, "four", &h, &index) == MA_TRUE);
  double* p = NULL;
  CHECK(get_pointer(h, &p) == MA_TRUE && p == (double*)get_mbase(MT_DBL) + index);
  CHECK(inquire_avail(MT_DBL) >= 100 && ma_sizeof(MT_DBL, 4, MT_CHAR) == 32);
  CHECK(pop_stack(h) == MA_TRUE && set_hard_fail(MA_FALSE) == MA_FALSE);
  int dims[1] = {8};
  int g_a = NGA_Create(C_LONG, 1, dims, "declared", NULL);
  CHECK(strcmp(inquire_name(g_a), "declared") == 0 && strcmp(n_inquire_name(g_a), "declared") == 0);
  int zero[1] = {0};
  GA_Zero(g_a);
  const long ticket = read_inc(g_a, zero, 1);
  CHECK(ticket >= 0 && ticket < GA_Nnodes());
  GA_Sync();
  int coords[1] = {-1};
  proc_topology(g_a, 0, coords);
  CHECK(coords[0] == 0);
  double x = 1.0;
  dgop(&x, 1, "+");
  CHECK(x == GA_Nnodes());
  int me_in_comm = -1;
  MPI_Comm_rank(mpi_comm(), &me_in_comm);
  CHECK(me_in_comm == GA_Nodeid());
  (void)nb_test, (void)read_inc64, (void)lldot, (void)fdot, (void)cdot, (void)zdot;
  (void)memory_avail, (void)getmem, (void)assemble, (void)lgop, (void)select_elem;
  (void)mpi_comm_pgroup, (void)alloc_get, (void)get_index, (void)free_heap;
  GA_Destroy(g_a);
  return ga_test_end("decls", GA_Nodeid(), GA_Nnodes());
}
