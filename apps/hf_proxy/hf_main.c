/* hf_proxy: the Hartree-Fock proxy of paper 003 (section V-B1) over Remora's distributed
 * arrays. Runs the chosen variants on the chosen layouts, prints tasks/s for each (tasks of
 * both phases per second), verifies every run and prints "hf_proxy: verified" (exit 0) or
 * "hf_proxy: NOT verified" (exit 1).
 *
 *   remorarun -n 4 hf_proxy [--tasks N] [--n N] [--tile B] [--layout NAME|all]
 *                           [--variant NAME|all] [--repetitions R] [--progress MODE]
 *   REMORA_PROGRESS=ghost remorarun -n 4 hf_proxy ...      (ghost progress)
 *
 * --progress selects thread or manual progress when REMORA_PROGRESS is unset (default thread);
 * ghost progress needs the node's ghost process, which remorarun starts only when
 * REMORA_PROGRESS=ghost is in its own environment. The hidden option --inject-error perturbs
 * one contribution, so that a test can check that verification fails. */
#include <remora.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hf_proxy.h"

typedef struct options {
  hf_config config;
  int repetitions;
  int layouts[HF_LAYOUT_COUNT];   /* 1 = run */
  int variants[HF_VARIANT_COUNT]; /* 1 = run */
  const char* progress;           /* requested, or NULL */
  char error[256];                /* non-empty: a bad command line */
} options;

static const char usage[] =
    "usage: hf_proxy [--tasks N] [--n N] [--tile B] [--layout block|element_cyclic|all]\n"
    "                [--variant axpy_eom|axpy_nbc|rma_nb|rma_blocking|all] [--repetitions R]\n"
    "                [--progress thread|manual|ghost]\n"
    "  --tasks N        tasks per phase (default 1024)\n"
    "  --n N            order of the distributed matrix (default 256)\n"
    "  --tile B         tile edge (default 16)\n"
    "  --repetitions R  runs per variant; the fastest is reported (default 1)\n"
    "  --progress MODE  progress when REMORA_PROGRESS is unset (default thread); ghost needs\n"
    "                   REMORA_PROGRESS=ghost in remorarun's environment\n";

static void select_all(int* flags, int count, int value) {
  for (int i = 0; i < count; ++i) flags[i] = value;
}

static int parse_count(const char* text, int64_t minimum, int64_t* out) {
  char* end = NULL;
  const long long value = strtoll(text, &end, 10);
  if (end == text || *end != '\0' || value < minimum) return -1;
  *out = value;
  return 0;
}

static void parse(int argc, char** argv, options* o) {
  o->config = (hf_config){.n = 256, .tile = 16, .tasks = 1024, .inject_error = 0};
  o->repetitions = 1;
  select_all(o->layouts, HF_LAYOUT_COUNT, 1);
  select_all(o->variants, HF_VARIANT_COUNT, 1);
  o->progress = NULL;
  o->error[0] = '\0';
  for (int i = 1; i < argc && o->error[0] == '\0'; ++i) {
    const char* name = argv[i];
    if (strcmp(name, "--inject-error") == 0) {
      o->config.inject_error = 1;
      continue;
    }
    if (strcmp(name, "--help") == 0) {
      snprintf(o->error, sizeof o->error, "help");
      return;
    }
    const char* value = i + 1 < argc ? argv[i + 1] : NULL;
    if (value == NULL) {
      snprintf(o->error, sizeof o->error, "%s needs a value", name);
      return;
    }
    ++i;
    int64_t count = 0;
    int bad = 0;
    if (strcmp(name, "--tasks") == 0) {
      bad = parse_count(value, 0, &o->config.tasks);
    } else if (strcmp(name, "--n") == 0) {
      bad = parse_count(value, 1, &o->config.n);
    } else if (strcmp(name, "--tile") == 0) {
      bad = parse_count(value, 1, &o->config.tile);
    } else if (strcmp(name, "--repetitions") == 0) {
      bad = parse_count(value, 1, &count);
      o->repetitions = (int)count;
    } else if (strcmp(name, "--progress") == 0) {
      bad = strcmp(value, "thread") && strcmp(value, "manual") && strcmp(value, "ghost");
      o->progress = value;
    } else if (strcmp(name, "--layout") == 0) {
      hf_layout layout;
      select_all(o->layouts, HF_LAYOUT_COUNT, strcmp(value, "all") == 0);
      if (strcmp(value, "all") != 0 && !(bad = hf_layout_parse(value, &layout) != 0))
        o->layouts[layout] = 1;
    } else if (strcmp(name, "--variant") == 0) {
      hf_variant variant;
      select_all(o->variants, HF_VARIANT_COUNT, strcmp(value, "all") == 0);
      if (strcmp(value, "all") != 0 && !(bad = hf_variant_parse(value, &variant) != 0))
        o->variants[variant] = 1;
    } else {
      snprintf(o->error, sizeof o->error, "unknown option '%s'", name);
      return;
    }
    if (bad) snprintf(o->error, sizeof o->error, "%s '%s': invalid value", name, value);
  }
  if (o->config.tile > o->config.n && o->error[0] == '\0')
    snprintf(o->error, sizeof o->error, "--tile %lld is larger than --n %lld",
             (long long)o->config.tile, (long long)o->config.n);
}

/* The progress mode the job runs under. Before remora_init: applies --progress (or the default,
 * thread) when REMORA_PROGRESS is unset; ghost can only come from the launcher's environment. */
static const char* choose_progress(options* o) {
  const char* set = getenv("REMORA_PROGRESS");
  if (set != NULL && set[0] != '\0') {
    if (o->progress != NULL && strcmp(o->progress, set) != 0 && o->error[0] == '\0')
      snprintf(o->error, sizeof o->error, "--progress %s, but REMORA_PROGRESS=%s", o->progress,
               set);
    return set;
  }
  const char* mode = o->progress != NULL ? o->progress : "thread";
  if (strcmp(mode, "ghost") == 0) {
    if (o->error[0] == '\0')
      snprintf(o->error, sizeof o->error,
               "--progress ghost needs the ghost process: run REMORA_PROGRESS=ghost remorarun ...");
    return "manual";
  }
  setenv("REMORA_PROGRESS", mode, 1);
  return mode;
}

static void check(int status, const char* what) {
  if (status < 0) {
    fprintf(stderr, "hf_proxy: %s failed: %s\n", what, remora_last_error());
    remora_abort(2, "hf_proxy: a Remora call failed");
  }
}

int main(int argc, char** argv) {
  options o;
  parse(argc, argv, &o);
  const char* progress = choose_progress(&o);
  check(remora_init(&argc, &argv), "remora_init");
  const hf_array_api* api = hf_remora_api();
  const int rank = api->rank();
  if (o.error[0] != '\0') {
    const int help = strcmp(o.error, "help") == 0;
    if (rank == 0)
      fprintf(help ? stdout : stderr, "%s%s%s", help ? "" : "hf_proxy: ", help ? "" : o.error,
              help ? usage : "\n");
    remora_finalize();
    return help ? 0 : 2;
  }
  const char* strategy = getenv("REMORA_ACC_STRATEGY");
  if (rank == 0)
    printf(
        "hf_proxy: %d ranks, progress %s, accumulate strategy %s, n=%lld tile=%lld, %lld "
        "tasks per phase\n%-15s %-13s %-8s %12s %10s  %s\n",
        api->size(), progress, strategy != NULL && strategy[0] ? strategy : "auto",
        (long long)o.config.n, (long long)o.config.tile, (long long)o.config.tasks, "layout",
        "variant", "progress", "tasks/s", "seconds", "check");
  hf_counter counter = NULL;
  check(api->counter_create(2, &counter), "counter_create");
  int64_t failures = 0;
  for (int l = 0; l < HF_LAYOUT_COUNT; ++l) {
    if (!o.layouts[l]) continue;
    hf_matrix matrix = NULL;
    check(api->create((hf_layout)l, o.config.n, &matrix), "create");
    for (int v = 0; v < HF_VARIANT_COUNT; ++v) {
      if (!o.variants[v] || !hf_variant_available(api, (hf_variant)v)) continue;
      double best = 0;
      int64_t mismatches = 0;
      for (int r = 0; r < o.repetitions; ++r) {
        hf_result result;
        check(hf_run(api, matrix, counter, &o.config, (hf_variant)v, &result),
              hf_variant_name((hf_variant)v));
        if (r == 0 || result.seconds < best) best = result.seconds;
        mismatches += result.mismatches;
      }
      failures += mismatches;
      if (rank == 0) {
        printf("%-15s %-13s %-8s %12.1f %10.4f  ", hf_layout_name((hf_layout)l),
               hf_variant_name((hf_variant)v), progress,
               best > 0 ? 2.0 * (double)o.config.tasks / best : 0.0, best);
        if (mismatches == 0)
          printf("ok\n");
        else
          printf("WRONG (%lld elements)\n", (long long)mismatches);
      }
    }
    check(api->destroy(&matrix), "destroy");
  }
  check(api->counter_destroy(&counter), "counter_destroy");
  if (rank == 0) {
    printf(failures == 0 ? "hf_proxy: verified\n" : "hf_proxy: NOT verified\n");
    fflush(stdout);
  }
  check(remora_finalize(), "remora_finalize");
  return failures == 0 ? 0 : 1;
}
