/* Every rank sleeps forever after remora_init: stopped by --timeout or a signal. */
#include "fault_common.h"

int main(int argc, char** argv) {
  fault_start(&argc, &argv);
  for (;;) pause();
}
