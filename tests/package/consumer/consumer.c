/* A program outside the Remora tree, built against an installed Remora. */
#include <remora.h>
#include <stdio.h>

int main(int argc, char** argv) {
  if (remora_init(&argc, &argv) != REMORA_SUCCESS) {
    fprintf(stderr, "remora_init: %s\n", remora_last_error());
    return 1;
  }
  remora_segment_t segment;
  int64_t old = 0, value = 0;
  int ok = remora_segment_allocate(8, &segment) == REMORA_SUCCESS;
  ok = ok && remora_barrier() == REMORA_SUCCESS;
  if (remora_rank() == 0) {
    ok = ok && remora_put(segment, 0, 0, &(int64_t){41}, 8) == REMORA_SUCCESS;
    ok = ok && remora_fetch_add(segment, 0, 0, 1, &old) == REMORA_SUCCESS;
    ok = ok && remora_get(segment, 0, 0, &value, 8) == REMORA_SUCCESS;
    printf("consumer: rank %d of %d, fetch-add gave %lld, value %lld\n", remora_rank(),
           remora_size(), (long long)old, (long long)value);
  }
  ok = ok && remora_segment_free(&segment) == REMORA_SUCCESS;
  ok = ok && remora_finalize() == REMORA_SUCCESS;
  return ok ? 0 : 1;
}
