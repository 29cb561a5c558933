// The origin-side epoch state machine: which operations and synchronisation calls each state
// allows.
#include "rma/epoch.hpp"

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "remora/win.h"

namespace remora::rma {
namespace {

TEST(EpochState, OperationsNeedAnEpoch) {
  EpochState epoch(3);
  EXPECT_EQ(epoch.check_access("f", 1), REMORA_ERR_STATE);
  EXPECT_NE(std::string(last_error()).find("target=1"), std::string::npos);
  ASSERT_EQ(epoch.check_fence("f", 0), REMORA_SUCCESS);
  epoch.fenced(0);
  EXPECT_EQ(epoch.check_access("f", 1), REMORA_SUCCESS);
  epoch.fenced(REMORA_MODE_NOSUCCEED);
  EXPECT_EQ(epoch.check_access("f", 1), REMORA_ERR_STATE);
  ASSERT_EQ(epoch.begin_lock("f", 2), REMORA_SUCCESS);
  epoch.locked(2, LockMode::Shared);
  EXPECT_EQ(epoch.check_access("f", 2), REMORA_SUCCESS);
  EXPECT_EQ(epoch.check_access("f", 1), REMORA_ERR_STATE);
  EXPECT_EQ(epoch.check_passive("f", -1), REMORA_SUCCESS);
  EXPECT_EQ(epoch.lock_mode(2), LockMode::Shared);
}

TEST(EpochState, FenceEpochWithOperationsConflictsWithLocks) {
  EpochState epoch(2);
  epoch.fenced(0);
  EXPECT_EQ(epoch.begin_lock("f", 0), REMORA_SUCCESS);  // unused fence epoch: allowed
  epoch.locked(0, LockMode::Exclusive);
  EXPECT_EQ(epoch.check_fence("f", 0), REMORA_ERR_STATE);
  EXPECT_EQ(epoch.check_free("f"), REMORA_ERR_STATE);
  epoch.unlocked(0);
  epoch.fenced(0);
  epoch.note_operation();
  EXPECT_EQ(epoch.begin_lock("f", 0), REMORA_ERR_STATE);
  EXPECT_EQ(epoch.begin_lock_all("f"), REMORA_ERR_STATE);
  EXPECT_EQ(epoch.check_fence("f", REMORA_MODE_NOPRECEDE), REMORA_ERR_STATE);
  EXPECT_EQ(epoch.check_free("f"), REMORA_ERR_STATE);
  EXPECT_EQ(epoch.check_fence("f", REMORA_MODE_NOSUCCEED), REMORA_SUCCESS);
  epoch.fenced(REMORA_MODE_NOSUCCEED);
  EXPECT_EQ(epoch.check_free("f"), REMORA_SUCCESS);
}

TEST(EpochState, LockAllExcludesSingleLocks) {
  EpochState epoch(2);
  ASSERT_EQ(epoch.begin_lock_all("f"), REMORA_SUCCESS);
  epoch.locked_all();
  EXPECT_EQ(epoch.begin_lock("f", 1), REMORA_ERR_STATE);
  EXPECT_EQ(epoch.check_unlock("f", 1), REMORA_ERR_STATE);
  EXPECT_EQ(epoch.begin_lock_all("f"), REMORA_ERR_STATE);
  EXPECT_EQ(epoch.check_access("f", 1), REMORA_SUCCESS);
  EXPECT_EQ(epoch.check_unlock_all("f"), REMORA_SUCCESS);
  epoch.unlocked_all();
  EXPECT_EQ(epoch.check_unlock_all("f"), REMORA_ERR_STATE);
  EXPECT_EQ(epoch.check_passive("f", 0), REMORA_ERR_STATE);
}

}  // namespace
}  // namespace remora::rma
