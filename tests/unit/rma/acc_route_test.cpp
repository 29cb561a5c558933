// The accumulate path rule (acc_route.hpp): every rank that maps a location takes the same
// path for it, and a rank that does not map it ships the update to the owner, which then
// takes the path of a rank that maps it.
#include "rma/accumulate/acc_route.hpp"

#include <gtest/gtest.h>

#include "remora.h"

namespace remora::rma {
namespace {

constexpr AccTarget kMapped{true, false};
constexpr AccTarget kSelf{true, true};
constexpr AccTarget kOtherNode{false, false};

TEST(AccRoute, NativeUsesCpuAtomicsOnMappedCapableElements) {
  EXPECT_EQ(choose_acc_path(AccStrategy::Native, kMapped, REMORA_DOUBLE, 8), AccPath::Native);
  EXPECT_EQ(choose_acc_path(AccStrategy::Native, kSelf, REMORA_INT32, 4), AccPath::Native);
  // Misaligned and 16-byte elements: the lock table, wherever the caller is on the node.
  EXPECT_EQ(choose_acc_path(AccStrategy::Native, kMapped, REMORA_DOUBLE, 4), AccPath::LockTable);
  EXPECT_EQ(choose_acc_path(AccStrategy::Native, kSelf, REMORA_DOUBLE_COMPLEX, 0),
            AccPath::LockTable);
}

TEST(AccRoute, AutoUsesTheLockTableOnMappedTargets) {
  for (int type : {REMORA_INT32, REMORA_DOUBLE, REMORA_DOUBLE_COMPLEX})
    for (uint64_t offset : {0u, 4u, 8u}) {
      EXPECT_EQ(choose_acc_path(AccStrategy::Auto, kMapped, type, offset), AccPath::LockTable);
      EXPECT_EQ(choose_acc_path(AccStrategy::Auto, kSelf, type, offset), AccPath::LockTable);
    }
}

TEST(AccRoute, NativeAndAutoShipUpdatesOfAnotherNodeToTheOwner) {
  for (AccStrategy strategy : {AccStrategy::Native, AccStrategy::Auto}) {
    EXPECT_EQ(choose_acc_path(strategy, kOtherNode, REMORA_DOUBLE, 8), AccPath::Owner);
    EXPECT_EQ(choose_acc_path(strategy, kOtherNode, REMORA_DOUBLE_COMPLEX, 0), AccPath::Owner);
  }
}

TEST(AccRoute, OwnerAppliesWhatACallerOnItsNodeWouldApply) {
  // The owner's handler decides as "self"; a caller on the owner's node as "mapped": equal for
  // every strategy that ships updates there, type and offset.
  for (AccStrategy strategy : {AccStrategy::Native, AccStrategy::Auto, AccStrategy::Owner}) {
    for (int type :
         {REMORA_INT32, REMORA_INT64, REMORA_FLOAT, REMORA_DOUBLE, REMORA_DOUBLE_COMPLEX})
      for (uint64_t offset : {0u, 4u, 8u, 12u}) {
        const AccPath owner = choose_acc_path(strategy, kSelf, type, offset);
        EXPECT_NE(owner, AccPath::Owner);
        if (strategy != AccStrategy::Owner) {
          EXPECT_EQ(owner, choose_acc_path(strategy, kMapped, type, offset));
        } else {
          EXPECT_EQ(owner, AccPath::LockTable);
        }
      }
  }
}

TEST(AccRoute, CallerAndOwnerKeepTheirMeaning) {
  for (AccTarget target : {kMapped, kSelf, kOtherNode})
    EXPECT_EQ(choose_acc_path(AccStrategy::Caller, target, REMORA_DOUBLE, 8), AccPath::LockTable);
  EXPECT_EQ(choose_acc_path(AccStrategy::Owner, kMapped, REMORA_DOUBLE, 8), AccPath::Owner);
  EXPECT_EQ(choose_acc_path(AccStrategy::Owner, kOtherNode, REMORA_DOUBLE, 8), AccPath::Owner);
  EXPECT_EQ(choose_acc_path(AccStrategy::Owner, kSelf, REMORA_DOUBLE, 8), AccPath::LockTable);
}

}  // namespace
}  // namespace remora::rma
