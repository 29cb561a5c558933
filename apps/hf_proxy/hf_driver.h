/* The HF proxy program's part that does not depend on the array library: the command line,
 * the progress mode, and the runs with their table, checksums and verdict. hf_main.c (Remora's
 * API, under remorarun) and hf_main_ga.c (the Global-Arrays-compatible API, under mpiexec)
 * differ only in how they start and end the job and which hf_array_api they pass. */
#ifndef HF_DRIVER_H
#define HF_DRIVER_H

#include "hf_proxy.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hf_options {
  hf_config config;
  int repetitions;
  int layouts[HF_LAYOUT_COUNT];   /* 1 = run */
  int variants[HF_VARIANT_COUNT]; /* 1 = run */
  const char* progress;           /* requested, or NULL */
  char error[256];                /* non-empty: a bad command line ("help": --help) */
} hf_options;

void hf_options_parse(int argc, char** argv, hf_options* o);

/* The progress mode the job runs under. Call before the library starts: applies --progress (or
 * the default, thread) when REMORA_PROGRESS is unset; ghost can only come from the launcher's
 * environment (a mismatch or an impossible request is recorded in o->error). */
const char* hf_choose_progress(hf_options* o);

/* Exit codes of hf_drive besides 0 (verified) and 1 (not verified). */
enum { HF_EXIT_USAGE = 2, HF_EXIT_CALL_FAILED = 3 };

/* Collective, after the library started: prints the usage or the command-line error, or runs
 * the selected variants on the selected layouts over api and prints one table row per run
 * (with the final matrix's checksum) and the verdict. Variants api cannot run are skipped.
 * Returns 0, 1, HF_EXIT_USAGE (0 for --help) or HF_EXIT_CALL_FAILED (the failing call was
 * printed; the caller ends the job). */
int hf_drive(const hf_array_api* api, const hf_options* o, const char* progress);

#ifdef __cplusplus
}
#endif

#endif /* HF_DRIVER_H */
