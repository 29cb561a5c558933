/* remora_abort with unusual arguments: code out of range (exit 1), NULL message, before
 * remora_init or after it. Usage: abort_codes <code> <before|after> */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "remora.h"

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  const int code = atoi(argv[1]);
  if (strcmp(argv[2], "after") == 0 && remora_init(&argc, &argv) != REMORA_SUCCESS) return 3;
  printf("about to abort\n"); /* remora_abort flushes stdout first */
  remora_abort(code, NULL);
  return 4; /* not reached */
}
