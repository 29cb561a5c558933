/* MA, GA's allocator for local buffers, as GA programs use it (GA's lennard-jones example takes
 * its buffers with MA_push_get and MA_get_pointer): MA_init once (a second call fails),
 * stack blocks pushed and popped in order (popping one that is not on top fails, MA_chop_stack
 * pops it and everything above), heap blocks allocated and freed in any order and in pieces,
 * each block's index locating it in the type's base array (ma_cb_dbl[index] is the block's first
 * element, MA_get_index agrees), the free space shrinking by what was taken (Remora: exactly;
 * GA adds its block overhead), a request beyond the free space refused and a stack block larger
 * than the stack's part taken from the heap's, MA_sizeof, the memhandle iterator refused (GA's is
 * not implemented); and an MA buffer as the target of NGA_Get and the source of NGA_Put on a GA
 * array, compared with the values every rank computes. Passes on GA 5.8 too. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

#include "ga.h"
#include "ga_check.h"
#include "macdecls.h"

enum { STACK = 4000, HEAP = 6000, N = 50 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  GA_Initialize();
  CHECK(!MA_initialized());
  CHECK(MA_init(MT_DBL, STACK, HEAP) == MA_TRUE);
  CHECK(MA_initialized());
  CHECK(MA_set_error_print(MA_FALSE) == MA_TRUE); /* the refusals below are expected */
  CHECK(MA_init(MT_DBL, STACK, HEAP) == MA_FALSE);
  const int me = GA_Nodeid(), nprocs = GA_Nnodes();
  Integer it = 0, h = 0; /* GA's MA declares the iterator and refuses it */
  CHECK(!MA_init_memhandle_iterator(&it) && !MA_get_next_memhandle(&it, &h));

  /* Stack: three blocks of three types, each at its base array's index. */
  const Integer stack0 = MA_inquire_stack(MT_DBL), heap0 = MA_inquire_heap(MT_DBL);
  CHECK(stack0 >= N && heap0 >= N);
#ifdef REMORA_GA_H
  CHECK(stack0 == STACK && heap0 == HEAP && MA_inquire_avail(MT_DBL) == STACK + HEAP);
#endif
  Integer hd, hi, hc;
  MA_AccessIndex id, ii, ic;
  CHECK(MA_push_get(MT_DBL, N, "doubles", &hd, &id));
  CHECK(MA_push_get(MT_INT, N, "ints", &hi, &ii));
  CHECK(MA_push_get(MT_CHAR, 3, "chars", &hc, &ic));
  double* d = NULL;
  int* ip = NULL;
  char* c = NULL;
  CHECK(MA_get_pointer(hd, &d) && MA_get_pointer(hi, &ip) && MA_get_pointer(hc, &c));
  CHECK(d == &ma_cb_dbl[id] && ip == &ma_cb_int[ii] && c == &ma_cb_char[ic]);
  CHECK((uintptr_t)d % sizeof(double) == 0 && (uintptr_t)ip % sizeof(int) == 0);
  MA_AccessIndex again = -1;
  CHECK(MA_get_index(hd, &again) && again == id);
  for (int k = 0; k < N; ++k) d[k] = k + 0.5, ip[k] = -k;
  c[0] = 'a', c[1] = 'b', c[2] = 0;
  CHECK(MA_inquire_stack(MT_DBL) <= stack0 - N - N / 2);
#ifdef REMORA_GA_H
  CHECK(MA_inquire_stack(MT_CHAR) ==
        (Integer)(sizeof(double) * STACK - sizeof(double) * N - sizeof(int) * N - 3));
#endif
  CHECK(MA_pop_stack(hi) == MA_FALSE); /* not the top */
  CHECK(MA_pop_stack(hc));
  for (int k = 0; k < N; ++k) CHECK(d[k] == k + 0.5 && ip[k] == -k);
  Integer big;
  MA_AccessIndex big_index;
  CHECK(MA_push_get(MT_DBL, MA_inquire_avail(MT_DBL) + 1, "too big", &big, &big_index) == MA_FALSE);
  CHECK(MA_chop_stack(hd)); /* hd and hi above it */
  CHECK(MA_inquire_stack(MT_DBL) == stack0);
  /* As in MA, the stack grows into the heap's free part (and the heap into the stack's). */
  CHECK(MA_push_get(MT_DBL, stack0 + 10, "into the heap's part", &big, &big_index));
#ifdef REMORA_GA_H
  /* Remora's heap part shrinks by what the stack took of it (GA 5.8 still reports it free). */
  CHECK(MA_inquire_heap(MT_DBL) == heap0 - 10);
#endif
  CHECK(MA_pop_stack(big));

  /* Heap: freed in any order, and in pieces. */
  Integer ha, hb;
  MA_AccessIndex ia, ib;
  CHECK(MA_alloc_get(MT_DBL, N, "a", &ha, &ia));
  CHECK(MA_alloc_get(MT_LONGINT, N, "b", &hb, &ib));
  double* a = NULL;
  long* b = NULL;
  CHECK(MA_get_pointer(ha, &a) && MA_get_pointer(hb, &b));
  CHECK(a == &ma_cb_dbl[ia] && b == &ma_cb_long[ib]);
  for (int k = 0; k < N; ++k) b[k] = 7L * k;
  CHECK(MA_inquire_heap(MT_DBL) <= heap0 - 2 * N);
  CHECK(MA_free_heap_piece(hb, N / 2));
  CHECK(MA_free_heap(ha));
  CHECK(MA_free_heap(ha) == MA_FALSE); /* freed already */
  for (int k = 0; k < N / 2; ++k) CHECK(b[k] == 7L * k);
  CHECK(MA_free_heap(hb));
  CHECK(MA_inquire_heap(MT_DBL) == heap0);
  CHECK(MA_sizeof(MT_INT, 3, MT_DBL) == 2 && MA_sizeof(MT_DBL, 3, MT_CHAR) == 24);

  /* An MA buffer with a GA array, as GA programs use them. */
  int dims[1] = {N * nprocs};
  int g_a = NGA_Create(C_DBL, 1, dims, "values", NULL);
  CHECK(MA_push_get(MT_DBL, N, "mine", &hd, &id));
  CHECK(MA_get_pointer(hd, &d));
  for (int k = 0; k < N; ++k) d[k] = 1000.0 * me + k;
  int lo[1] = {N * me}, hi_[1] = {N * me + N - 1}, ld[1] = {1};
  NGA_Put(g_a, lo, hi_, d, ld);
  GA_Sync();
  const int next = (me + 1) % nprocs;
  lo[0] = N * next, hi_[0] = N * next + N - 1;
  NGA_Get(g_a, lo, hi_, d, ld);
  for (int k = 0; k < N; ++k) CHECK(d[k] == 1000.0 * next + k);
  CHECK(MA_pop_stack(hd));
  GA_Destroy(g_a);
  return ga_test_end("ma", me, nprocs);
}
