/* The HF proxy program's command line, runs and report (see hf_driver.h). */
#include "hf_driver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

void hf_options_parse(int argc, char** argv, hf_options* o) {
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

const char* hf_choose_progress(hf_options* o) {
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

static int report_usage(const hf_array_api* api, const hf_options* o) {
  const int help = strcmp(o->error, "help") == 0;
  if (api->rank() == 0) {
    if (help)
      fputs(usage, stdout);
    else
      fprintf(stderr, "hf_proxy: %s\n", o->error);
  }
  return help ? 0 : HF_EXIT_USAGE;
}

static int failed(const hf_array_api* api, int status, const char* what) {
  if (status >= 0) return 0;
  fprintf(stderr, "hf_proxy: %s failed: %s\n", what, api->error_text());
  return 1;
}

/* One variant on one layout, repeated: prints its row; adds its wrong elements to *failures. */
static int run_variant(const hf_array_api* api, const hf_options* o, const char* progress,
                       hf_layout layout, hf_variant variant, hf_matrix matrix, hf_counter counter,
                       int64_t* failures) {
  double best = 0;
  int64_t mismatches = 0;
  uint64_t checksum = 0;
  for (int r = 0; r < o->repetitions; ++r) {
    hf_result result;
    if (failed(api, hf_run(api, matrix, counter, &o->config, variant, &result),
               hf_variant_name(variant)))
      return HF_EXIT_CALL_FAILED;
    if (r == 0 || result.seconds < best) best = result.seconds;
    mismatches += result.mismatches;
    checksum = result.checksum;
  }
  *failures += mismatches;
  if (api->rank() == 0) {
    printf("%-15s %-13s %-8s %12.1f %10.4f  %016llx  ", hf_layout_name(layout),
           hf_variant_name(variant), progress,
           best > 0 ? 2.0 * (double)o->config.tasks / best : 0.0, best,
           (unsigned long long)checksum);
    if (mismatches == 0)
      printf("ok\n");
    else
      printf("WRONG (%lld elements)\n", (long long)mismatches);
  }
  return 0;
}

int hf_drive(const hf_array_api* api, const hf_options* o, const char* progress) {
  if (o->error[0] != '\0') return report_usage(api, o);
  const char* strategy = getenv("REMORA_ACC_STRATEGY");
  if (api->rank() == 0)
    printf(
        "hf_proxy: %s API, %d ranks, progress %s, accumulate strategy %s, n=%lld tile=%lld, "
        "%lld tasks per phase\n%-15s %-13s %-8s %12s %10s  %-16s  %s\n",
        api->name, api->size(), progress, strategy != NULL && strategy[0] ? strategy : "auto",
        (long long)o->config.n, (long long)o->config.tile, (long long)o->config.tasks, "layout",
        "variant", "progress", "tasks/s", "seconds", "checksum", "check");
  hf_counter counter = NULL;
  if (failed(api, api->counter_create(2, &counter), "counter_create")) return HF_EXIT_CALL_FAILED;
  int64_t failures = 0;
  for (int l = 0; l < HF_LAYOUT_COUNT; ++l) {
    if (!o->layouts[l]) continue;
    hf_matrix matrix = NULL;
    if (failed(api, api->create((hf_layout)l, o->config.n, &matrix), "create"))
      return HF_EXIT_CALL_FAILED;
    for (int v = 0; v < HF_VARIANT_COUNT; ++v) {
      if (!o->variants[v] || !hf_variant_available(api, (hf_variant)v)) continue;
      const int status =
          run_variant(api, o, progress, (hf_layout)l, (hf_variant)v, matrix, counter, &failures);
      if (status != 0) return status;
    }
    if (failed(api, api->destroy(&matrix), "destroy")) return HF_EXIT_CALL_FAILED;
  }
  if (failed(api, api->counter_destroy(&counter), "counter_destroy")) return HF_EXIT_CALL_FAILED;
  if (api->rank() == 0) {
    printf(failures == 0 ? "hf_proxy: verified\n" : "hf_proxy: NOT verified\n");
    fflush(stdout);
  }
  return failures == 0 ? 0 : 1;
}
