/* The HF proxy's two phases in each variant, and the verification (see hf_proxy.h). */
#include "hf_proxy.h"

#include <stdlib.h>
#include <string.h>

#include "hf_model.h"

#define TRY(call)                    \
  do {                               \
    const int status_ = (call);      \
    if (status_ < 0) return status_; \
  } while (0)

/* Out of memory inside the proxy itself (not a library call). */
#define HF_ERR_NOMEM (-8)

static const char* const variant_names[HF_VARIANT_COUNT] = {"axpy_eom", "axpy_nbc", "rma_nb",
                                                            "rma_blocking"};
static const char* const layout_names[HF_LAYOUT_COUNT] = {"block", "element_cyclic"};

const char* hf_variant_name(hf_variant variant) {
  return variant_names[variant];
}

const char* hf_layout_name(hf_layout layout) {
  return layout_names[layout];
}

static int parse_name(const char* name, const char* const* names, int count) {
  for (int i = 0; i < count; ++i)
    if (strcmp(name, names[i]) == 0) return i;
  return -1;
}

int hf_variant_parse(const char* name, hf_variant* variant) {
  const int index = parse_name(name, variant_names, HF_VARIANT_COUNT);
  if (index < 0) return -1;
  *variant = (hf_variant)index;
  return 0;
}

int hf_layout_parse(const char* name, hf_layout* layout) {
  const int index = parse_name(name, layout_names, HF_LAYOUT_COUNT);
  if (index < 0) return -1;
  *layout = (hf_layout)index;
  return 0;
}

static int is_axpy(hf_variant variant) {
  return variant == HF_AXPY_EOM || variant == HF_AXPY_NBC;
}

int hf_variant_available(const hf_array_api* api, hf_variant variant) {
  return !is_axpy(variant) || (api->axpy_attach != NULL && api->axpy != NULL);
}

/* A tile read in phase 2 whose check waits until its operation completes. */
typedef struct pending_get {
  int64_t tile;
  double* values;
} pending_get;

typedef struct run_state {
  const hf_array_api* api;
  hf_matrix matrix;
  hf_counter counter;
  const hf_config* config;
  hf_variant variant;
  hf_tiling tiling;
  hf_expected expected;
  double** tile_values; /* phase 1's local tiles, computed on first use, kept until the end:
                           AXPY and nonblocking accs read them after the call returns */
  int64_t mismatches;
  int64_t checksum; /* this rank's slab's share of the final matrix's checksum */
  /* Phase 2's reads not yet checked: the AXPY batch's (one buffer per task) or the nonblocking
   * gets in flight (HF_OUTSTANDING slots). */
  pending_get* pending;
  int64_t pending_count, pending_capacity;
  hf_request requests[HF_OUTSTANDING];
  int64_t issued;
} run_state;

static const double* local_tile(run_state* s, int64_t k) {
  if (s->tile_values[k] == NULL) {
    s->tile_values[k] = malloc(sizeof(double) * (size_t)(s->tiling.tile * s->tiling.tile));
    if (s->tile_values[k] != NULL) hf_tile_values(&s->tiling, k, s->tile_values[k]);
  }
  return s->tile_values[k];
}

static double task_weight(const run_state* s, int64_t task) {
  const int perturbed = s->config->inject_error && task == s->config->tasks / 2;
  return hf_weight(task) + (perturbed ? 1.0 : 0.0);
}

static int64_t tile_width(const run_state* s, int64_t k, int64_t* lo, int64_t* hi) {
  hf_tile_bounds(&s->tiling, k, lo, hi);
  return hi[1] - lo[1] + 1;
}

static void check_tile(run_state* s, const pending_get* got) {
  int64_t lo[2], hi[2];
  s->mismatches +=
      hf_tile_mismatches(&s->expected, got->tile, got->values, tile_width(s, got->tile, lo, hi));
}

/* The slot of the next nonblocking operation, after completing (and for gets checking) the
 * operation that used it last. */
static int free_slot(run_state* s, int checks, int* slot) {
  *slot = (int)(s->issued++ % HF_OUTSTANDING);
  if (s->requests[*slot] == NULL) return 0;
  TRY(s->api->wait(&s->requests[*slot]));
  if (checks) check_tile(s, &s->pending[*slot]);
  return 0;
}

static int complete_outstanding(run_state* s, int checks) {
  for (int slot = 0; slot < HF_OUTSTANDING; ++slot) {
    if (s->requests[slot] == NULL) continue;
    TRY(s->api->wait(&s->requests[slot]));
    if (checks) check_tile(s, &s->pending[slot]);
  }
  s->issued = 0;
  return 0;
}

/* One task as handed out: its tile's patch and the width of the tile's rows. */
typedef struct task_patch {
  int64_t task, tile, lo[2], hi[2], ld;
} task_patch;

/* 1 and *p set when the counter handed out a task of phase (0 or 1), 0 when none are left. */
static int next_task(run_state* s, int phase, task_patch* p) {
  TRY(s->api->counter_next(s->counter, phase, &p->task));
  if (p->task >= s->config->tasks) return 0;
  p->tile = phase == 0 ? hf_phase1_tile(&s->tiling, p->task) : hf_phase2_tile(&s->tiling, p->task);
  p->ld = tile_width(s, p->tile, p->lo, p->hi);
  return 1;
}

/* Opens the phase's AXPY batch (the AXPY variants only). */
static int begin_phase(run_state* s, hf_batch* batch) {
  *batch = NULL;
  if (!is_axpy(s->variant)) return 0;
  return s->api->axpy_attach(s->matrix, s->variant == HF_AXPY_NBC ? HF_DETACH_NBC : HF_DETACH_EOM,
                             batch);
}

/* Phase 1's task: accumulate weight * its local tile into tile (task mod T). */
static int accumulate_task(run_state* s, hf_batch batch, const task_patch* p) {
  const double* values = local_tile(s, p->tile);
  if (values == NULL) return HF_ERR_NOMEM;
  const double alpha = task_weight(s, p->task);
  int slot = 0;
  switch (s->variant) {
    case HF_AXPY_EOM:
    case HF_AXPY_NBC:
      /* LOCAL_TO_GLOBAL only reads the buffer. */
      return s->api->axpy(batch, HF_LOCAL_TO_GLOBAL, alpha, (double*)values, p->ld, p->lo, p->hi);
    case HF_RMA_NB:
      TRY(free_slot(s, 0, &slot));
      return s->api->nbacc(s->matrix, p->lo, p->hi, values, p->ld, alpha, &s->requests[slot]);
    default:
      return s->api->acc(s->matrix, p->lo, p->hi, values, p->ld, alpha);
  }
}

static int reserve_pending(run_state* s, int64_t count) {
  if (count <= s->pending_capacity) return 0;
  const int64_t capacity = count > 2 * s->pending_capacity ? count : 2 * s->pending_capacity;
  pending_get* grown = realloc(s->pending, sizeof(pending_get) * (size_t)capacity);
  if (grown == NULL) return HF_ERR_NOMEM;
  memset(grown + s->pending_capacity, 0,
         sizeof(pending_get) * (size_t)(capacity - s->pending_capacity));
  s->pending = grown;
  s->pending_capacity = capacity;
  return 0;
}

/* A zeroed buffer for one tile (AXPY's GLOBAL_TO_LOCAL adds into it) in pending slot index. */
static int tile_buffer(run_state* s, int64_t index, int64_t k) {
  TRY(reserve_pending(s, index + 1));
  pending_get* p = &s->pending[index];
  if (p->values == NULL) {
    p->values = calloc((size_t)(s->tiling.tile * s->tiling.tile), sizeof(double));
    if (p->values == NULL) return HF_ERR_NOMEM;
  } else {
    memset(p->values, 0, sizeof(double) * (size_t)(s->tiling.tile * s->tiling.tile));
  }
  p->tile = k;
  return 0;
}

/* Phase 2's task: get tile T-1 - (task mod T), to be checked once the data is there. */
static int get_task(run_state* s, hf_batch batch, const task_patch* p) {
  int slot = 0;
  switch (s->variant) {
    case HF_AXPY_EOM:
    case HF_AXPY_NBC:
      /* The buffer is filled only at detach: one per task. */
      TRY(tile_buffer(s, s->pending_count, p->tile));
      return s->api->axpy(batch, HF_GLOBAL_TO_LOCAL, 1.0, s->pending[s->pending_count++].values,
                          p->ld, p->lo, p->hi);
    case HF_RMA_NB:
      TRY(free_slot(s, 1, &slot));
      TRY(tile_buffer(s, slot, p->tile));
      return s->api->nbget(s->matrix, p->lo, p->hi, s->pending[slot].values, p->ld,
                           &s->requests[slot]);
    default:
      TRY(tile_buffer(s, 0, p->tile));
      TRY(s->api->get(s->matrix, p->lo, p->hi, s->pending[0].values, p->ld));
      check_tile(s, &s->pending[0]);
      return 0;
  }
}

/* One phase: tasks from counter `phase` until none are left, then completion of everything the
 * phase issued (detach, or the nonblocking operations in flight) and the checks that waited
 * for it. */
static int run_phase(run_state* s, int phase,
                     int (*task)(run_state*, hf_batch, const task_patch*)) {
  hf_batch batch = NULL;
  TRY(begin_phase(s, &batch));
  task_patch p;
  int more = 0;
  while ((more = next_task(s, phase, &p)) > 0) TRY(task(s, batch, &p));
  TRY(more);
  if (!is_axpy(s->variant)) return complete_outstanding(s, phase == 1);
  TRY(s->api->axpy_detach(&batch));
  for (int64_t i = 0; i < s->pending_count; ++i) check_tile(s, &s->pending[i]);
  s->pending_count = 0;
  return 0;
}

/* One element's share of the checksum: a 64-bit mix (splitmix64's finaliser) of its position
 * and bits, cut to 30 bits so that the sum over up to 2^33 elements (n <= 92681) cannot overflow
 * int64. */
static int64_t element_hash(int64_t index, double value) {
  uint64_t bits;
  memcpy(&bits, &value, sizeof bits);
  uint64_t x = bits ^ ((uint64_t)index * 0x9E3779B97F4A7C15ull);
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return (int64_t)((x ^ (x >> 31)) >> 34);
}

/* Each rank compares its slab of rows of the final matrix with the expected sums and adds the
 * slab's elements to the checksum. */
static int verify_matrix(run_state* s) {
  const int rank = s->api->rank(), size = s->api->size();
  const int64_t n = s->config->n;
  const int64_t first = n * rank / size, last = n * (rank + 1) / size - 1;
  if (first > last) return 0;
  double* rows = malloc(sizeof(double) * (size_t)((last - first + 1) * n));
  if (rows == NULL) return HF_ERR_NOMEM;
  const int64_t lo[2] = {first, 0}, hi[2] = {last, n - 1};
  const int status = s->api->get(s->matrix, lo, hi, rows, n);
  if (status == 0)
    for (int64_t i = first; i <= last; ++i)
      for (int64_t j = 0; j < n; ++j) {
        const double value = rows[(i - first) * n + j];
        if (value != hf_expected_element(&s->expected, i, j)) ++s->mismatches;
        s->checksum += element_hash(i * n + j, value);
      }
  free(rows);
  return status;
}

static int run_phases(run_state* s, hf_result* result) {
  const hf_array_api* api = s->api;
  TRY(api->zero(s->matrix));
  TRY(api->counter_reset(s->counter));
  TRY(api->barrier());
  const double start = api->wtime();
  TRY(run_phase(s, 0, accumulate_task));
  if (!is_axpy(s->variant)) TRY(api->sync()); /* detach completed the AXPY variants' updates */
  TRY(run_phase(s, 1, get_task));
  TRY(api->barrier()); /* ranks without tasks wait here, as in the paper */
  result->seconds = api->wtime() - start;
  TRY(verify_matrix(s));
  result->mismatches = s->mismatches;
  TRY(api->sum_int64(&result->mismatches));
  TRY(api->sum_int64(&s->checksum));
  result->checksum = (uint64_t)s->checksum;
  return 0;
}

int hf_run(const hf_array_api* api, hf_matrix matrix, hf_counter counter, const hf_config* config,
           hf_variant variant, hf_result* result) {
  run_state s;
  memset(&s, 0, sizeof s);
  s.api = api;
  s.matrix = matrix;
  s.counter = counter;
  s.config = config;
  s.variant = variant;
  s.tiling = hf_tiling_make(config->n, config->tile);
  int status = hf_expected_make(&s.tiling, config->tasks, &s.expected) < 0 ? HF_ERR_NOMEM : 0;
  s.tile_values = calloc((size_t)s.tiling.count, sizeof(double*));
  if (s.tile_values == NULL) status = HF_ERR_NOMEM;
  if (status == 0) status = run_phases(&s, result);
  for (int64_t k = 0; s.tile_values != NULL && k < s.tiling.count; ++k) free(s.tile_values[k]);
  free(s.tile_values);
  for (int64_t i = 0; i < s.pending_capacity; ++i) free(s.pending[i].values);
  free(s.pending);
  hf_expected_free(&s.expected);
  return status;
}
