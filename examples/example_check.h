/* Shared by the examples: stop the whole job when a Remora call fails. */
#ifndef REMORA_EXAMPLE_CHECK_H
#define REMORA_EXAMPLE_CHECK_H

#include <remora.h>
#include <stdio.h>

/* Every Remora call returns REMORA_SUCCESS or a negative code; remora_last_error() names the
 * function, the argument and its value. remora_abort ends every rank of the job. */
#define CHECK(call)                                                                              \
  do {                                                                                           \
    int check_status_ = (call);                                                                  \
    if (check_status_ != REMORA_SUCCESS) {                                                       \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, remora_last_error()); \
      remora_abort(2, "a Remora call failed");                                                   \
    }                                                                                            \
  } while (0)

#endif
