// The pieces of ghost progress that need no second process: the control block's ghost
// endpoint, the segment hand-over (Share / acknowledge / Forget) and the mode's parsing and
// wait policy. The multi-rank behaviour is tested under remorarun (win_target_computes,
// win_accumulate_owner.*.ghost, remorarun.fault.*.ghost).
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstring>

#include "core/backoff.hpp"
#include "core/config.hpp"
#include "progress/progress_engine.hpp"
#include "transport/shm/control_block.hpp"
#include "transport/shm/ghost_segments.hpp"

namespace remora::shm {
namespace {

TEST(GhostEndpoint, ControlBlockHasOneMoreSlotAndQueue) {
  ControlBlock plain, with_ghost;
  ASSERT_EQ(ControlBlock::create(3, "ghost-unit", 64, 1024, false, &plain), REMORA_SUCCESS);
  ASSERT_EQ(ControlBlock::create(3, "ghost-unit", 64, 1024, false, &with_ghost, 1), REMORA_SUCCESS);
  EXPECT_EQ(plain.ghost(), -1);
  EXPECT_EQ(plain.endpoints(), 3);
  EXPECT_EQ(with_ghost.nranks(), 3);
  EXPECT_EQ(with_ghost.endpoints(), 4);
  EXPECT_EQ(with_ghost.ghost(), 3);
  // A rank can send to the ghost, and the ghost to every rank.
  const char hello[] = "hello";
  AmQueue to_ghost = with_ghost.queue(3);
  EXPECT_TRUE(
      to_ghost.try_enqueue(1, 1, kChunkFirst | kChunkLast, sizeof hello, hello, sizeof hello));
  EXPECT_TRUE(with_ghost.queue(0).try_enqueue(3, 0, kChunkFirst | kChunkLast, sizeof hello, hello,
                                              sizeof hello));
  int source = -1;
  EXPECT_EQ(to_ghost.drain([&source](const AmChunk& chunk) { source = chunk.source; }, 8), 1u);
  EXPECT_EQ(source, 1);
}

TEST(GhostEndpoint, SharedSegmentIsTheSameMemoryUntilForgotten) {
  ControlBlock block;
  ASSERT_EQ(
      ControlBlock::create(2, "ghost-unit-" + std::to_string(getpid()), 64, 1024, false, &block, 1),
      REMORA_SUCCESS);
  ShmSegment ranks_view;
  ranks_view.id = 7;
  ranks_view.lay_out({100, 5000});
  const std::string name = segment_object_name(block.job_id(), ranks_view.id);
  ASSERT_EQ(ranks_view.map(name, O_CREAT | O_EXCL | O_RDWR), 0);

  GhostSegmentTable table(block);
  const std::vector<uint8_t> share = ghost_share_message(ranks_view);
  GhostSegmentTable::on_message(0, share.data(), share.size(), &table);
  shm_unlink(name.c_str());  // as rank 0 does after the acknowledgement
  const uint64_t answer = block.rank(block.ghost()).exchange.load();
  EXPECT_TRUE(ghost_acknowledged(answer, 7));
  EXPECT_FALSE(ghost_acknowledged(answer, 6));
  EXPECT_EQ(ghost_error(answer), 0);

  const auto* ghost_view = static_cast<const ShmSegment*>(table.find(7));
  ASSERT_NE(ghost_view, nullptr);
  EXPECT_EQ(ghost_view->bytes, ranks_view.bytes);
  EXPECT_EQ(ghost_view->offsets, ranks_view.offsets);
  std::memcpy(ranks_view.base + ranks_view.offsets[1] + 10, "ghost", 6);
  EXPECT_STREQ(reinterpret_cast<const char*>(ghost_view->base + ghost_view->offsets[1] + 10),
               "ghost");

  const std::vector<uint8_t> forget = ghost_forget_message(7);
  GhostSegmentTable::on_message(0, forget.data(), forget.size(), &table);
  EXPECT_EQ(table.find(7), nullptr);
}

TEST(GhostEndpoint, MappingFailureIsAcknowledgedWithTheError) {
  ControlBlock block;
  ASSERT_EQ(ControlBlock::create(1, "ghost-unit-missing", 64, 1024, false, &block, 1),
            REMORA_SUCCESS);
  ShmSegment never_created;
  never_created.id = 3;
  never_created.lay_out({64});
  GhostSegmentTable table(block);
  const std::vector<uint8_t> share = ghost_share_message(never_created);
  GhostSegmentTable::on_message(0, share.data(), share.size(), &table);
  const uint64_t answer = block.rank(block.ghost()).exchange.load();
  EXPECT_TRUE(ghost_acknowledged(answer, 3));
  EXPECT_EQ(ghost_error(answer), ENOENT);
  EXPECT_EQ(table.find(3), nullptr);
}

TEST(GhostEndpoint, ModeParsesAndCountsAsOneMoreProcess) {
  progress::Mode mode = progress::Mode::Manual;
  EXPECT_EQ(progress::parse_mode("ghost", &mode), REMORA_SUCCESS);
  EXPECT_EQ(mode, progress::Mode::Ghost);
  EXPECT_EQ(progress::parse_mode("ghosts", &mode), REMORA_ERR_CONFIG);
  Config config = default_config();
  config.progress = "ghost";  // 2 ranks and the ghost on 2 CPUs
  EXPECT_TRUE(make_wait_policy(config, 2, 2).oversubscribed);
  EXPECT_FALSE(make_wait_policy(config, 2, 3).oversubscribed);
}

}  // namespace
}  // namespace remora::shm
