/* Active messages: a payload sent to a handler that runs at the target inside its progress
 * engine (during Remora calls in manual progress mode, on the progress thread in thread mode).
 *
 * Guarantees: every message is delivered exactly once; messages from one sender to one
 * receiver are delivered in the order they were sent; a full receive queue makes the sender
 * wait (while still serving its own incoming messages), never drops a message. */
#ifndef REMORA_AM_H
#define REMORA_AM_H

#include <stddef.h>

#include "remora/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Runs at the target. payload is valid only during the call. A handler may send messages
 * and use put/get/atomics, but must not block waiting for other messages (no barrier). */
typedef void (*remora_am_handler_t)(int source, const void* payload, size_t bytes, void* context);

/* Registers handler and returns its id. Not collective, but ids are given out in order of
 * registration, so every rank must register the same handlers in the same order. */
REMORA_API int remora_am_register(remora_am_handler_t handler, void* context, int* handler_id);

/* Sends bytes of payload (payload may be NULL when bytes is 0) to handler_id at target.
 * Returns when payload may be reused. At most REMORA_AM_MAX_BYTES bytes. */
REMORA_API int remora_am_send(int target, int handler_id, const void* payload, size_t bytes);

#ifdef __cplusplus
}
#endif

#endif /* REMORA_AM_H */
