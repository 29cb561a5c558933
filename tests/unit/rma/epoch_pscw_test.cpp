// The post-start-complete-wait states of the epoch state machine: operations reach only the
// start group, and PSCW epochs conflict with fence and lock epochs.
#include <gtest/gtest.h>

#include <string>

#include "core/error.hpp"
#include "remora/win.h"
#include "rma/epoch.hpp"

namespace remora::rma {
namespace {

bool last_error_has(const char* fragment) {
  return std::string(last_error()).find(fragment) != std::string::npos;
}

TEST(EpochPscw, OperationsReachOnlyTheStartGroup) {
  EpochState epoch(3);
  ASSERT_EQ(epoch.begin_start("f"), REMORA_SUCCESS);
  epoch.started({false, true, false});
  EXPECT_EQ(epoch.check_access("f", 1), REMORA_SUCCESS);
  EXPECT_EQ(epoch.check_access("f", 2), REMORA_ERR_STATE);
  EXPECT_TRUE(last_error_has("target=2 is not in the group of remora_win_start"));
  EXPECT_EQ(epoch.begin_start("f"), REMORA_ERR_STATE);
  ASSERT_EQ(epoch.check_complete("f"), REMORA_SUCCESS);
  epoch.completed();
  EXPECT_EQ(epoch.check_access("f", 1), REMORA_ERR_STATE);
  EXPECT_EQ(epoch.check_complete("f"), REMORA_ERR_STATE);
  EXPECT_TRUE(last_error_has("remora_win_start was not called"));
}

TEST(EpochPscw, ConflictsWithFenceAndLocks) {
  EpochState epoch(2);
  ASSERT_EQ(epoch.begin_post("f"), REMORA_SUCCESS);
  epoch.posted();
  EXPECT_EQ(epoch.begin_post("f"), REMORA_ERR_STATE);
  EXPECT_EQ(epoch.check_fence("f", 0), REMORA_ERR_STATE);
  EXPECT_TRUE(last_error_has("exposure epoch is open"));
  EXPECT_EQ(epoch.check_free("f"), REMORA_ERR_STATE);
  EXPECT_EQ(epoch.begin_lock("f", 0), REMORA_SUCCESS);  // passive access during exposure
  epoch.locked(0, LockMode::Shared);
  EXPECT_EQ(epoch.begin_start("f"), REMORA_ERR_STATE);
  epoch.unlocked(0);
  ASSERT_EQ(epoch.begin_start("f"), REMORA_SUCCESS);
  epoch.started({true, true});
  EXPECT_EQ(epoch.begin_lock("f", 1), REMORA_ERR_STATE);
  EXPECT_EQ(epoch.begin_lock_all("f"), REMORA_ERR_STATE);
  epoch.completed();
  ASSERT_EQ(epoch.check_wait("f"), REMORA_SUCCESS);
  epoch.waited();
  EXPECT_EQ(epoch.check_wait("f"), REMORA_ERR_STATE);
  EXPECT_EQ(epoch.check_fence("f", 0), REMORA_SUCCESS);
  // A fence epoch with operations refuses start and post; an unused one is closed by them.
  epoch.fenced(0);
  epoch.note_operation();
  EXPECT_EQ(epoch.begin_start("f"), REMORA_ERR_STATE);
  EXPECT_EQ(epoch.begin_post("f"), REMORA_ERR_STATE);
  epoch.fenced(0);
  EXPECT_EQ(epoch.begin_post("f"), REMORA_SUCCESS);
  EXPECT_EQ(epoch.check_access("f", 0), REMORA_ERR_STATE);
}

}  // namespace
}  // namespace remora::rma
