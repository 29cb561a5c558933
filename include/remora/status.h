/* Remora status codes and error messages.
 *
 * Every Remora C function returns an int: 0 (REMORA_SUCCESS) or a non-negative result on
 * success, a negative REMORA_ERR_* code on failure. After a failure, remora_last_error()
 * returns a message for the calling thread that names the offending argument and its value. */
#ifndef REMORA_STATUS_H
#define REMORA_STATUS_H

#include "remora/export.h"

#ifdef __cplusplus
extern "C" {
#endif

enum remora_status {
  REMORA_SUCCESS = 0,
  REMORA_ERR_ARG = -1,             /* an argument is invalid (null pointer, negative size...) */
  REMORA_ERR_RANK = -2,            /* a rank is outside [0, size) */
  REMORA_ERR_RANGE = -3,           /* an offset, length or index lies outside the target
                                      segment, window or array */
  REMORA_ERR_ALIGN = -4,           /* an address is not aligned as the operation requires */
  REMORA_ERR_NOT_INITIALIZED = -5, /* called before remora_init or after remora_finalize */
  REMORA_ERR_STATE = -6,           /* not allowed in the current state (init twice, ...) */
  REMORA_ERR_CONFIG = -7,          /* a REMORA_* environment variable is malformed */
  REMORA_ERR_NOMEM = -8,           /* out of memory */
  REMORA_ERR_SYSTEM = -9,          /* an operating-system call failed */
  REMORA_ERR_ABORTED = -10,        /* the job is being torn down: a rank died or aborted */
  REMORA_ERR_UNSUPPORTED = -11,    /* not supported by this transport or build */
  REMORA_ERR_INTERNAL = -12        /* a bug in Remora: please report it */
};

/* A short, static description of a status code ("invalid argument", ...). */
REMORA_API const char* remora_strerror(int code);

/* The message of the last failure on the calling thread, or "" if there was none. The string
 * belongs to Remora and stays valid and unchanged until seven more calls of the same thread
 * have failed (other threads' failures never touch it); copy it to keep it longer. */
REMORA_API const char* remora_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* REMORA_STATUS_H */
