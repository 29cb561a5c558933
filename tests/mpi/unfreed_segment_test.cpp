// A segment the application never freed is deleted by remora_finalize alone, without the
// collective free: across nodes (REMORA_NODE_SIZE=1) its MPI window must leave the lists that
// flushes visit (every window, and per target the windows with operations outstanding to it)
// before it goes, or the next flush visits freed memory (ASan: use after free). Here the
// deletion is done by hand as remora_finalize does it, after a put to every other rank listed
// the window for each (and a flush_all, which leaves it listed, completed them); then flushes of
// every target and of all succeed, and a put through a second segment arrives (its value checked).
// A flush of a rank outside the job fails and names it.
#include <cstdint>

#include "api/runtime.hpp"
#include "multirank.hpp"

namespace {

int64_t value(int origin, int target) {
  return 1000 * origin + target + 1;
}

}  // namespace

int main(int argc, char** argv) {
  int rank = 0, size = 0;
  remora_test::init(&argc, &argv, &rank, &size);
  remora::api::Runtime* runtime = nullptr;
  REQUIRE_OK(remora::api::enter("unfreed_segment_test", &runtime));
  remora::transport::Transport& transport = *runtime->transport;
  const size_t part = static_cast<size_t>(size) * sizeof(int64_t);

  remora::transport::Segment* unfreed = nullptr;
  REQUIRE_OK(transport.allocate_segment(part, &unfreed));
  for (int target = 0; target < size; ++target) {
    if (target == rank) continue;
    const int64_t sent = value(rank, target);
    REQUIRE_OK(transport.put(*unfreed, target, 0, &sent, sizeof sent));
  }
  // Complete at the targets (flush_all leaves the window listed for them), and nobody accesses
  // the memory any more, as at remora_finalize; then delete it as remora_finalize does.
  REQUIRE_OK(transport.flush_all());
  REQUIRE_OK(remora_barrier());
  delete unfreed;

  remora::transport::Segment* kept = nullptr;
  REQUIRE_OK(transport.allocate_segment(part, &kept));
  for (int target = 0; target < size; ++target) {
    if (target == rank) continue;
    const int64_t sent = value(rank, target);
    REQUIRE_OK(
        transport.put(*kept, target, static_cast<size_t>(rank) * sizeof sent, &sent, sizeof sent));
    REQUIRE_OK(transport.flush(target));
  }
  REQUIRE_OK(transport.flush_all());
  REQUIRE_ERROR(transport.flush(size), REMORA_ERR_RANK, "target rank");
  REQUIRE_ERROR(transport.flush(-1), REMORA_ERR_RANK, "target rank -1");
  REQUIRE_OK(remora_barrier());
  const auto* mine = static_cast<const int64_t*>(transport.address(*kept, rank));
  for (int origin = 0; origin < size; ++origin)
    if (origin != rank)
      REQUIRE(mine[origin] == value(origin, rank), "rank %d's put holds %lld, expected %lld",
              origin, static_cast<long long>(mine[origin]),
              static_cast<long long>(value(origin, rank)));
  REQUIRE_OK(remora_barrier());  // everyone has read its part before it goes
  REQUIRE_OK(transport.free_segment(kept));
  REQUIRE_OK(remora_finalize());
  return 0;
}
