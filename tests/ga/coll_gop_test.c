/* GA_Brdcst from every root and the global operations GA_Igop/Lgop/Llgop/Fgop/Dgop/Zgop/Gop
 * with each of GA's ops ("+", "*", "max", "min", "absmax", "absmin") against the values every
 * rank can compute for all ranks. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "ga.h"
#include "ga_check.h"
#include "macdecls.h"

enum { N = 5 };
static int me, nprocs;

/* Rank r's element i: small, signed, distinct per rank (products stay exact). */
static long value(int r, int i) {
  return ((r + i) % 3 - 1) * (r + 2) + (i % 2 == 0 ? r : -r) + (r == 1 && i == 3 ? 0 : 1);
}

static long combine(const char* op, int i) {
  long result = 0;
  for (int r = 0; r < nprocs; ++r) {
    const long v = value(r, i), a = v < 0 ? -v : v;
    if (r == 0)
      result = strstr(op, "abs") == op ? a : v;
    else if (strcmp(op, "+") == 0)
      result += v;
    else if (strcmp(op, "*") == 0)
      result *= v;
    else if (strcmp(op, "max") == 0)
      result = v > result ? v : result;
    else if (strcmp(op, "min") == 0)
      result = v < result ? v : result;
    else if (strcmp(op, "absmax") == 0)
      result = a > result ? a : result;
    else
      result = a < result ? a : result;
  }
  return result;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  GA_Initialize();
  MA_init(C_DBL, 1000000, 1000000); /* GA needs MA for its temporary buffers */
  me = GA_Nodeid();
  nprocs = GA_Nnodes();

  for (int root = 0; root < nprocs; ++root) {
    char text[32];
    snprintf(text, sizeof text, "%s %d", me == root ? "from root" : "not sent", me);
    GA_Brdcst(text, (int)sizeof text, root);
    char want[32];
    snprintf(want, sizeof want, "from root %d", root);
    CHECK(strcmp(text, want) == 0);
  }

  const char* ops[6] = {"+", "*", "max", "min", "absmax", "absmin"};
  for (int o = 0; o < 6; ++o) {
    char op[8];
    strcpy(op, ops[o]);
    int xi[N];
    long xl[N];
    long long xll[N];
    float xf[N];
    double xd[N], xg[N];
    for (int i = 0; i < N; ++i) {
      xi[i] = (int)value(me, i);
      xl[i] = value(me, i);
      xll[i] = value(me, i);
      xf[i] = (float)value(me, i);
      xd[i] = (double)value(me, i) + 0.25 * (value(me, i) < 0 ? -1 : 1);
      xg[i] = (double)value(me, i);
    }
    GA_Igop(xi, N, op);
    GA_Lgop(xl, N, op);
    GA_Llgop(xll, N, op);
    GA_Fgop(xf, N, op);
    GA_Gop(C_DBL, xg, N, op);
    for (int i = 0; i < N; ++i) {
      const long want = combine(op, i);
      CHECK(xi[i] == want && xl[i] == want && xll[i] == want && xf[i] == (float)want);
      CHECK(xg[i] == (double)want);
    }
    /* Doubles with a fractional part: "+" and "max" checked against a direct computation. */
    GA_Dgop(xd, N, op);
    for (int i = 0; i < N; ++i) {
      double want = 0;
      for (int r = 0; r < nprocs; ++r) {
        const double v = (double)value(r, i) + 0.25 * (value(r, i) < 0 ? -1 : 1);
        const double use = strstr(op, "abs") == op ? fabs(v) : v;
        if (r == 0 || o == 0)
          want = r == 0 ? use : want + use;
        else if (o == 1)
          want *= use;
        else if (o == 2 || o == 4)
          want = use > want ? use : want;
        else
          want = use < want ? use : want;
      }
      CHECK(fabs(xd[i] - want) <= 1e-12 * (1 + fabs(want)));
    }
  }

  /* Ops are matched as GA matches them: '+' and '*' by the first character, the others as
     prefixes ("maximum" is "max"); "or" is a bitwise or of integers. */
  {
    int s = 1, p = 2, mx = me, mn = me, amx = -me, bits = 1 << (me % 16);
    GA_Igop(&s, 1, "+sum");
    GA_Igop(&p, 1, "*");
    GA_Igop(&mx, 1, "maximum");
    GA_Igop(&mn, 1, "minimum");
    GA_Igop(&amx, 1, "absmax");
    GA_Igop(&bits, 1, "or");
    int want_bits = 0;
    for (int r = 0; r < nprocs; ++r) want_bits |= 1 << (r % 16);
    CHECK(s == nprocs && p == 1 << nprocs && mx == nprocs - 1 && mn == 0);
    CHECK(amx == nprocs - 1 && bits == want_bits);
  }

  /* Complex sums and products. */
  DoubleComplex z[2] = {{1.0 + me, -1.0}, {0.0, 1.0}};
  GA_Zgop(z, 2, "+");
  CHECK(z[0].real == nprocs + nprocs * (nprocs - 1) / 2.0 && z[0].imag == -nprocs);
  /* As GA (checked against GA 5.8): a complex value is reduced as its two real parts, each
     with the op, so "*" of (2, 3) on every rank is (2^n, 3^n), not (2 + 3i)^n. */
  DoubleComplex w[1] = {{2.0, 3.0}};
  GA_Zgop(w, 1, "*");
  double two_n = 1, three_n = 1;
  for (int r = 0; r < nprocs; ++r) two_n *= 2, three_n *= 3;
  CHECK(w[0].real == two_n && w[0].imag == three_n);
  SingleComplex m[1] = {{me % 2 ? -5.0f : 1.0f, me % 2 ? 2.0f : -7.0f}};
  GA_Cgop(m, 1, "absmax");
  CHECK(m[0].real == (nprocs > 1 ? 5.0f : 1.0f) && m[0].imag == 7.0f);

  if (me == 0) printf("ga gop/brdcst: ok\n");
  GA_Terminate();
  MPI_Finalize();
  return 0;
}
