/* hf_proxy: the Hartree-Fock proxy of paper 003 (section V-B1) over Remora's distributed
 * arrays. Runs the chosen variants on the chosen layouts, prints tasks/s for each (tasks of
 * both phases per second) and a checksum of the final matrix, verifies every run and prints
 * "hf_proxy: verified" (exit 0) or "hf_proxy: NOT verified" (exit 1).
 *
 *   remorarun -n 4 hf_proxy [--tasks N] [--n N] [--tile B] [--layout NAME|all]
 *                           [--variant NAME|all] [--repetitions R] [--progress MODE]
 *   REMORA_PROGRESS=ghost remorarun -n 4 hf_proxy ...      (ghost progress)
 *
 * --progress selects thread or manual progress when REMORA_PROGRESS is unset (default thread);
 * ghost progress needs the node's ghost process, which remorarun starts only when
 * REMORA_PROGRESS=ghost is in its own environment. The hidden option --inject-error perturbs
 * one contribution, so that a test can check that verification fails. hf_main_ga.c is the
 * same program over the Global-Arrays-compatible API. */
#include <remora.h>
#include <stdio.h>

#include "hf_driver.h"

static void check(int status, const char* what) {
  if (status < 0) {
    fprintf(stderr, "hf_proxy: %s failed: %s\n", what, remora_last_error());
    remora_abort(2, "hf_proxy: a Remora call failed");
  }
}

int main(int argc, char** argv) {
  hf_options o;
  hf_options_parse(argc, argv, &o);
  const char* progress = hf_choose_progress(&o);
  check(remora_init(&argc, &argv), "remora_init");
  const int code = hf_drive(hf_remora_api(), &o, progress);
  if (code == HF_EXIT_CALL_FAILED) remora_abort(2, "hf_proxy: a Remora call failed");
  check(remora_finalize(), "remora_finalize");
  return code;
}
