// Post-start-complete-wait (generalised active target, paper 001 section 4) over the sync
// segment. Every counter is monotonic, so nothing is ever reset and no reset can race:
//   post(group):  for each origin o, add 1 to "posts from me" in o's part and wake o;
//   start(group): for each target t, expect one more post from t than before; immediate mode
//                 waits here until t's counter in this rank's part reaches it;
//   complete:     complete the operations (remotely), then add 1 to "completes from me" in
//                 each target's part and wake it;
//   wait / test:  this rank's part must show, for each origin of the post group, as many
//                 completes as this rank made posts to it.
// Deferred mode (paper 001): start returns at once; operations are queued (origin data copied)
// and complete waits for the posts, issues them in order, then completes. NOCHECK on start
// (the matching posts have already happened) skips both the wait and the queue.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "rma/op_queue.hpp"
#include "rma/window_options.hpp"

namespace remora::rma {

class Window;

class Pscw {
 public:
  explicit Pscw(Window& window);
  ~Pscw();
  Pscw(const Pscw&) = delete;
  Pscw& operator=(const Pscw&) = delete;

  // group: distinct world ranks (validated by the caller).
  int post(const char* function, const std::vector<int>& group, int assert_flags);
  int start(const char* function, const std::vector<int>& group, int assert_flags);
  int complete(const char* function);
  int wait(const char* function);
  int test(const char* function, int* flag);

  // The queue of the open access epoch in deferred mode, else null.
  OpQueue* deferral() { return deferring_ ? &queue_ : nullptr; }

 private:
  template <typename OffsetOf>
  bool counted(const std::vector<int>& group, OffsetOf offset_of,
               const std::vector<uint64_t>& made) const;
  bool posts_arrived() const;
  bool completes_arrived() const;
  int issue_deferred();

  Window& window_;
  std::vector<uint64_t> posts_made_;   // by origin: exposure epochs this rank opened to it
  std::vector<uint64_t> starts_made_;  // by target: access epochs this rank opened to it
  std::vector<int> access_group_;      // world ranks of the open start
  std::vector<int> exposure_group_;    // world ranks of the open post
  bool deferring_ = false;             // start returned without waiting for the posts
  OpQueue queue_;
};

}  // namespace remora::rma
