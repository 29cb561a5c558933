/* Writes 300 lines per rank, each line in three write() calls, so that without whole-line
 * forwarding the lines of different ranks would mix mid-line. */
#include "fault_common.h" /* first: it defines _DEFAULT_SOURCE */

#include <string.h>

static void put(const char* text) {
  size_t done = 0, length = strlen(text);
  while (done < length) {
    const ssize_t wrote = write(1, text + done, length - done);
    if (wrote <= 0) exit(3);
    done += (size_t)wrote;
  }
}

int main(int argc, char** argv) {
  const int rank = fault_start(&argc, &argv);
  char head[64], tail[64];
  for (int line = 0; line < 300; ++line) {
    snprintf(head, sizeof head, "rank %d line %d: ", rank, line);
    snprintf(tail, sizeof tail, "%d-%d\n", rank, line);
    put(head);
    put("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx ");
    put(tail);
  }
  return remora_finalize() == REMORA_SUCCESS ? 0 : 1;
}
