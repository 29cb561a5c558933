#include "coll/handle_table.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

namespace remora::coll {
namespace {

// The table reuses a removed handle's entry for the next add (a request per nonblocking call):
// a removed handle stays unknown, the reused entry holds the new object only, and many live
// at once are all found.
TEST(HandleTable, ReusedEntriesHoldOnlyTheNewObject) {
  HandleTable<int> table;
  auto first = std::make_shared<int>(1);
  const void* first_handle = table.add(first);
  EXPECT_EQ(table.find(first_handle), first);
  EXPECT_EQ(table.remove(first_handle), first);
  EXPECT_EQ(table.find(first_handle), nullptr);
  EXPECT_EQ(table.find_borrowed(first_handle), nullptr);
  EXPECT_EQ(first.use_count(), 1);  // the table let go of it
  std::vector<std::shared_ptr<int>> objects;
  std::vector<const void*> handles;
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 20; ++i) {
      objects.push_back(std::make_shared<int>(round * 100 + i));
      handles.push_back(table.add(objects.back()));
    }
    for (size_t i = 0; i < handles.size(); ++i) {
      ASSERT_NE(table.find(handles[i]), nullptr);
      EXPECT_EQ(*table.find(handles[i]), *objects[i]);
      EXPECT_EQ(table.find_borrowed(handles[i]), objects[i].get());
    }
    // Remove every other one, newest first, and check the rest are untouched.
    for (size_t i = handles.size(); i-- > 0;) {
      if (i % 2 != 0) continue;
      EXPECT_EQ(table.remove(handles[i]), objects[i]);
      EXPECT_EQ(table.find(handles[i]), nullptr);
      EXPECT_EQ(table.remove(handles[i]), nullptr);  // twice: unknown
      handles.erase(handles.begin() + static_cast<std::ptrdiff_t>(i));
      objects.erase(objects.begin() + static_cast<std::ptrdiff_t>(i));
    }
    for (size_t i = 0; i < handles.size(); ++i) EXPECT_EQ(table.find(handles[i]), objects[i]);
  }
  for (size_t i = 0; i < handles.size(); ++i) {
    EXPECT_EQ(table.remove(handles[i]), objects[i]);
    EXPECT_EQ(objects[i].use_count(), 1);
  }
}

}  // namespace
}  // namespace remora::coll
