/* One-sided patch operations on every distribution GA programs can ask for, checked against a
 * serial reference: put/get round trips on random patches (int and int64_t index forms,
 * padded ld), atomic accumulates from every rank into one patch, nonblocking calls sharing one
 * handle, strided and periodic forms, scatter/gather/scatter_acc. */
#include <mpi.h>
#include <stdio.h>

#include "ga.h"
#include "ga_check.h"
#include "ga_test_util.h"
#include "macdecls.h"

enum { BLOCK, CHUNKED, IRREGULAR, BLOCK_CYCLIC, SCALAPACK, TILED, LAYOUTS };
static const char* const kLayoutNames[LAYOUTS] = {"block",        "chunked",   "irregular",
                                                  "block-cyclic", "scalapack", "tiled"};

static int nprocs, me;
static const char* stage = "";

static int create(int layout, int type, int ndim, int* dims) {
  int g_a = 0;
  char name[64];
  snprintf(name, sizeof name, "%s-%d", kLayoutNames[layout], type);
  if (layout == BLOCK) {
    g_a = NGA_Create(type, ndim, dims, name, NULL);
  } else if (layout == CHUNKED) {
    int chunk[GA_MAX_DIM];
    for (int d = 0; d < ndim; ++d) chunk[d] = d == 0 ? dims[0] : -1; /* whole first dimension */
    g_a = NGA_Create(type, ndim, dims, name, chunk);
  } else if (layout == IRREGULAR) {
    /* Uneven blocks: the first dimension split in up to nprocs parts, the rest whole. */
    int block[GA_MAX_DIM], map[64], k = 0;
    for (int d = 0; d < ndim; ++d) {
      const int parts = d == 0 ? (nprocs < dims[0] ? nprocs : dims[0]) : 1;
      block[d] = parts;
      for (int b = 0; b < parts; ++b)
        map[k++] = b * dims[d] / parts + (dims[d] / parts > 1 ? b % 2 : 0);
    }
    g_a = NGA_Create_irreg(type, ndim, dims, name, block, map);
  } else {
    int block[2] = {3, 2}, grid[2] = {1, nprocs};
    if (nprocs == 4) grid[0] = 2, grid[1] = 2;
    g_a = GA_Create_handle();
    GA_Set_data(g_a, ndim, dims, type);
    GA_Set_array_name(g_a, name);
    if (layout == BLOCK_CYCLIC) GA_Set_block_cyclic(g_a, block);
    if (layout == SCALAPACK) GA_Set_block_cyclic_proc_grid(g_a, block, grid);
    if (layout == TILED) GA_Set_tiled_proc_grid(g_a, block, grid);
    CHECK(GA_Allocate(g_a));
  }
  CHECK(g_a != 0);
  return g_a;
}

/* The whole array equals the reference. */
static void check_all(int g_a, int type, int ndim, int* dims, const long* ref) {
  Patch p = whole(ndim, dims);
  void* buf = calloc((size_t)p.buffer_elems, elem_size(type));
  NGA_Get(g_a, p.lo, p.hi, buf, p.ld);
  for (long k = 0; k < p.count; ++k) {
    if (get_value(type, buf, k) != ref[k])
      fprintf(stderr, "rank %d: %s, type %d: element %ld is %ld, expected %ld\n", me, stage, type,
              k, get_value(type, buf, k), ref[k]);
    CHECK(get_value(type, buf, k) == ref[k]);
  }
  free(buf);
}

static void fill_buffer(int type, const Patch* p, const int* dims, void* buf, long base) {
  for (long k = 0; k < p->count; ++k) {
    long g, o;
    patch_element(p, dims, k, &g, &o);
    set_value(type, buf, o, base + g % 97);
  }
}

static void check_buffer(int type, const Patch* p, const int* dims, const void* buf,
                         const long* ref) {
  for (long k = 0; k < p->count; ++k) {
    long g, o;
    patch_element(p, dims, k, &g, &o);
    if (get_value(type, buf, o) != ref[g])
      fprintf(stderr, "rank %d: %s, type %d: element %ld is %ld, expected %ld\n", me, stage, type,
              g, get_value(type, buf, o), ref[g]);
    CHECK(get_value(type, buf, o) == ref[g]);
  }
}

static void round_trips(int g_a, int type, int ndim, int* dims, long* ref, int rounds) {
  const char* layout = stage;
  char text[96];
  for (int round = 0; round < rounds; ++round) {
    /* Every rank draws the writer's patch from the shared sequence. */
    Patch p = random_patch(ndim, dims, round % 2);
    const int writer = round % nprocs;
    snprintf(text, sizeof text, "%s round %d", layout, round);
    stage = text;
    if (me == writer) {
      void* buf = calloc((size_t)p.buffer_elems, elem_size(type));
      fill_buffer(type, &p, dims, buf, 1000 * (round + 1));
      if (round % 3 == 2) {
        Patch64 p64 = patch64(&p);
        NGA_Put64(g_a, p64.lo, p64.hi, buf, p64.ld);
      } else {
        NGA_Put(g_a, p.lo, p.hi, buf, p.ld);
      }
      free(buf);
    }
    for (long k = 0; k < p.count; ++k) {
      long g, o;
      patch_element(&p, dims, k, &g, &o);
      ref[g] = 1000 * (round + 1) + g % 97;
    }
    GA_Sync();
    /* Each rank reads its own random patch. */
    uint64_t saved = rng_state;
    rng_seed((uint64_t)(round * 131 + me + 7));
    Patch q = random_patch(ndim, dims, 1);
    rng_state = saved;
    void* buf = calloc((size_t)q.buffer_elems, elem_size(type));
    if (round % 2) {
      Patch64 q64 = patch64(&q);
      NGA_Get64(g_a, q64.lo, q64.hi, buf, q64.ld);
    } else {
      NGA_Get(g_a, q.lo, q.hi, buf, q.ld);
    }
    check_buffer(type, &q, dims, buf, ref);
    free(buf);
    GA_Sync();
  }
}

/* A real scale factor v in the array's type (complex: v + 0i). */
static void make_alpha(int type, long v, void* alpha) {
  if (type == C_SCPL) {
    SingleComplex z = {(float)v, 0.0f};
    memcpy(alpha, &z, sizeof z);
  } else if (type == C_DCPL) {
    DoubleComplex z = {(double)v, 0.0};
    memcpy(alpha, &z, sizeof z);
  } else {
    set_value(type, alpha, 0, v);
  }
}

/* Every rank accumulates into the same patch (twice: blocking and nonblocking); integers
 * must come out exact, and so must the small-integer floating values. */
static void accumulate_all(int g_a, int type, int ndim, int* dims, long* ref) {
  Patch p = random_patch(ndim, dims, 1);
  void* buf = calloc((size_t)p.buffer_elems, elem_size(type));
  char alpha[16];
  make_alpha(type, 2, alpha);
  for (long k = 0; k < p.count; ++k) {
    long g, o;
    patch_element(&p, dims, k, &g, &o);
    set_value(type, buf, o, me + 1 + g % 5);
  }
  for (int r = 0; r < 3; ++r) NGA_Acc(g_a, p.lo, p.hi, buf, p.ld, alpha);
  ga_nbhdl_t handle;
  NGA_NbAcc(g_a, p.lo, p.hi, buf, p.ld, alpha, &handle);
  NGA_NbWait(&handle);
  for (long k = 0; k < p.count; ++k) {
    long g, o;
    patch_element(&p, dims, k, &g, &o);
    for (int rank = 0; rank < nprocs; ++rank) ref[g] += 4 * 2 * (rank + 1 + g % 5);
  }
  GA_Sync();
  check_all(g_a, type, ndim, dims, ref);
  free(buf);
  GA_Sync();
}

/* Several nonblocking gets on one handle, waited once; puts on one handle, tested until 0. */
static void nonblocking(int g_a, int type, int ndim, int* dims, long* ref) {
  enum { N = 3 };
  Patch p[N];
  void* buf[N];
  for (int i = 0; i < N; ++i) p[i] = random_patch(ndim, dims, i % 2);
  if (me == nprocs - 1) {
    ga_nbhdl_t put_handle;
    for (int i = 0; i < N; ++i) {
      buf[i] = calloc((size_t)p[i].buffer_elems, elem_size(type));
      fill_buffer(type, &p[i], dims, buf[i], 50000 + 100 * i);
      NGA_NbPut(g_a, p[i].lo, p[i].hi, buf[i], p[i].ld, &put_handle);
    }
    /* GA's polling idiom: NGA_NbTest returns 1 once complete (a 0 here would loop until the
       test's timeout fails it). */
    while (!NGA_NbTest(&put_handle)) {
    }
    CHECK(NGA_NbTest(&put_handle) == 1); /* still 1 for a completed handle */
    NGA_NbWait(&put_handle);             /* completed already: no effect */
    for (int i = 0; i < N; ++i) free(buf[i]);
  }
  for (int i = 0; i < N; ++i)
    for (long k = 0; k < p[i].count; ++k) {
      long g, o;
      patch_element(&p[i], dims, k, &g, &o);
      ref[g] = 50000 + 100 * i + g % 97;
    }
  GA_Sync();
  ga_nbhdl_t get_handle;
  for (int i = 0; i < N; ++i) {
    buf[i] = calloc((size_t)p[i].buffer_elems, elem_size(type));
    NGA_NbGet(g_a, p[i].lo, p[i].hi, buf[i], p[i].ld, &get_handle);
  }
  NGA_NbWait(&get_handle);
  for (int i = 0; i < N; ++i) {
    check_buffer(type, &p[i], dims, buf[i], ref);
    free(buf[i]);
  }
  GA_Sync();
}

/* 2-d only: strided put/get/acc with skips (2, 3), periodic get/put/acc wrapping both ends. */
static void strided_periodic(int g_a, int type, int* dims, long* ref) {
  int lo[2] = {1, 0}, hi[2] = {dims[0] - 1, dims[1] - 2}, skip[2] = {2, 3};
  const int n0 = (hi[0] - lo[0]) / skip[0] + 1, n1 = (hi[1] - lo[1]) / skip[1] + 1;
  int ld[1] = {n1 + 1};
  void* buf = calloc((size_t)(n0 * ld[0]), elem_size(type));
  char alpha[16];
  make_alpha(type, 3, alpha);
  if (me == 0) {
    for (int i = 0; i < n0; ++i)
      for (int j = 0; j < n1; ++j) set_value(type, buf, i * ld[0] + j, 7 * i + j);
    NGA_Strided_put(g_a, lo, hi, skip, buf, ld);
  }
  for (int i = 0; i < n0; ++i)
    for (int j = 0; j < n1; ++j)
      ref[(lo[0] + i * skip[0]) * dims[1] + lo[1] + j * skip[1]] = 7 * i + j;
  GA_Sync();
  /* Every rank accumulates 3 * (i + j) into the strided elements. */
  for (int i = 0; i < n0; ++i)
    for (int j = 0; j < n1; ++j) set_value(type, buf, i * ld[0] + j, i + j);
  NGA_Strided_acc(g_a, lo, hi, skip, buf, ld, alpha);
  for (int i = 0; i < n0; ++i)
    for (int j = 0; j < n1; ++j)
      ref[(lo[0] + i * skip[0]) * dims[1] + lo[1] + j * skip[1]] += 3 * (i + j) * nprocs;
  GA_Sync();
  memset(buf, 0, (size_t)(n0 * ld[0]) * elem_size(type));
  NGA_Strided_get(g_a, lo, hi, skip, buf, ld);
  for (int i = 0; i < n0; ++i)
    for (int j = 0; j < n1; ++j)
      CHECK(get_value(type, buf, i * ld[0] + j) ==
            ref[(lo[0] + i * skip[0]) * dims[1] + lo[1] + j * skip[1]]);
  free(buf);
  check_all(g_a, type, 2, dims, ref);
  GA_Sync();

  /* Periodic: rows -2..dims[0]+1 (wraps at both ends, longer than the array) by columns
   * dims[1]-3..dims[1]+2. */
  int plo[2] = {-2, dims[1] - 3}, phi[2] = {dims[0] + 1, dims[1] + 2};
  const int m0 = phi[0] - plo[0] + 1, m1 = phi[1] - plo[1] + 1;
  int pld[1] = {m1};
  void* pbuf = calloc((size_t)(m0 * m1), elem_size(type));
  NGA_Periodic_get(g_a, plo, phi, pbuf, pld);
#define WRAP(i, n) ((((i) % (n)) + (n)) % (n))
  for (int i = 0; i < m0; ++i)
    for (int j = 0; j < m1; ++j)
      CHECK(get_value(type, pbuf, i * m1 + j) ==
            ref[WRAP(plo[0] + i, dims[0]) * dims[1] + WRAP(plo[1] + j, dims[1])]);
  GA_Sync();
  /* Periodic put of a patch that does not cover an element twice, then periodic acc. */
  int qlo[2] = {dims[0] - 2, -1}, qhi[2] = {dims[0] + 1, 1};
  const int r0 = 4, r1 = 3;
  int qld[1] = {r1};
  if (me == 0) {
    for (int i = 0; i < r0 * r1; ++i) set_value(type, pbuf, i, 900 + i);
    NGA_Periodic_put(g_a, qlo, qhi, pbuf, qld);
  }
  for (int i = 0; i < r0; ++i)
    for (int j = 0; j < r1; ++j)
      ref[WRAP(qlo[0] + i, dims[0]) * dims[1] + WRAP(qlo[1] + j, dims[1])] = 900 + i * r1 + j;
  GA_Sync();
  for (int i = 0; i < r0 * r1; ++i) set_value(type, pbuf, i, 1);
  NGA_Periodic_acc(g_a, qlo, qhi, pbuf, qld, alpha);
  for (int i = 0; i < r0; ++i)
    for (int j = 0; j < r1; ++j)
      ref[WRAP(qlo[0] + i, dims[0]) * dims[1] + WRAP(qlo[1] + j, dims[1])] += 3 * nprocs;
  GA_Sync();
  check_all(g_a, type, 2, dims, ref);
  free(pbuf);
  GA_Sync();
}

/* Scatter by one rank, gather by all, scatter_acc by all (distinct elements per call). */
static void scatter_gather(int g_a, int type, int ndim, int* dims, long* ref) {
  enum { N = 10 };
  int subs_storage[N][GA_MAX_DIM];
  int* subs[N];
  long flat[N];
  int used[4096] = {0};
  long total = 1;
  for (int d = 0; d < ndim; ++d) total *= dims[d];
  for (int k = 0; k < N; ++k) {
    long f;
    do f = rng(total);
    while (used[f]);
    used[f] = 1;
    flat[k] = f;
    for (int d = ndim - 1, rest = (int)f; d >= 0; --d) {
      subs_storage[k][d] = rest % dims[d];
      rest /= dims[d];
    }
    subs[k] = subs_storage[k];
  }
  char values[N * 16], alpha[16];
  make_alpha(type, 1, alpha);
  for (int k = 0; k < N; ++k) set_value(type, values, k, 300 + k);
  if (me == 0) NGA_Scatter(g_a, values, subs, N);
  for (int k = 0; k < N; ++k) ref[flat[k]] = 300 + k;
  GA_Sync();
  memset(values, 0, sizeof values);
  NGA_Gather(g_a, values, subs, N);
  for (int k = 0; k < N; ++k) CHECK(get_value(type, values, k) == ref[flat[k]]);
  GA_Sync();
  for (int k = 0; k < N; ++k) set_value(type, values, k, k + 1);
  NGA_Scatter_acc(g_a, values, subs, N, alpha);
  for (int k = 0; k < N; ++k) ref[flat[k]] += (long)(k + 1) * nprocs;
  GA_Sync();
  /* The 64-bit form reads them back. */
  int64_t subs64_storage[N][GA_MAX_DIM];
  int64_t* subs64[N];
  for (int k = 0; k < N; ++k) {
    to_int64(subs_storage[k], ndim, subs64_storage[k]);
    subs64[k] = subs64_storage[k];
  }
  NGA_Gather64(g_a, values, subs64, N);
  for (int k = 0; k < N; ++k) CHECK(get_value(type, values, k) == ref[flat[k]]);
  GA_Sync();
}

static void run(int layout, int type, int ndim, int* dims) {
  long total = 1;
  for (int d = 0; d < ndim; ++d) total *= dims[d];
  long* ref = calloc((size_t)total, sizeof(long));
  const int g_a = create(layout, type, ndim, dims);
  /* GA leaves new arrays undefined: rank 0 writes every element first. */
  if (me == 0) {
    Patch p = whole(ndim, dims);
    void* buf = calloc((size_t)p.count, elem_size(type));
    for (long k = 0; k < total; ++k) set_value(type, buf, k, k % 13);
    NGA_Put(g_a, p.lo, p.hi, buf, p.ld);
    free(buf);
  }
  for (long k = 0; k < total; ++k) ref[k] = k % 13;
  GA_Sync();
  stage = kLayoutNames[layout];
  round_trips(g_a, type, ndim, dims, ref, 6);
  accumulate_all(g_a, type, ndim, dims, ref);
  nonblocking(g_a, type, ndim, dims, ref);
  if (ndim == 2) strided_periodic(g_a, type, dims, ref);
  scatter_gather(g_a, type, ndim, dims, ref);
  check_all(g_a, type, ndim, dims, ref);
  GA_Destroy(g_a);
  free(ref);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  GA_Initialize();
  MA_init(C_DBL, 1000000, 1000000); /* GA needs MA for its temporary buffers */
  me = GA_Nodeid();
  nprocs = GA_Nnodes();
  rng_seed(12345);

  static const int kTypes[] = {C_INT, C_LONG, C_DBL, C_DCPL, C_FLOAT, C_SCPL, F_INT, F_DBL};
  const int ntypes = (int)(sizeof kTypes / sizeof kTypes[0]);
  int dims2[2] = {13, 11};
  for (int layout = 0; layout < LAYOUTS; ++layout)
    for (int t = layout % 2; t < ntypes; t += 2) run(layout, kTypes[t], 2, dims2);
  /* Other ranks of dimension: block and irregular. */
  int dims1[1] = {37}, dims3[3] = {5, 4, 6}, dims4[4] = {3, 4, 2, 5};
  run(BLOCK, C_DBL, 1, dims1);
  run(IRREGULAR, C_LONG, 1, dims1);
  run(BLOCK, C_INT, 3, dims3);
  run(IRREGULAR, C_DCPL, 3, dims3);
  run(CHUNKED, F_DBL, 4, dims4);

  GA_Terminate();
  MPI_Finalize();
  if (me == 0) printf("ga patch: %d ranks ok\n", nprocs);
  return 0;
}
