// C API: requests of nonblocking collectives (test, wait and their list forms).
#include <memory>
#include <string>
#include <vector>

#include "api/coll_handles.hpp"
#include "core/error.hpp"
#include "progress/poll_pacing.hpp"
#include "remora/coll.h"

using remora::fail;
using remora::api::check_out;
using remora::api::enter_waiting;
using remora::api::Runtime;

namespace {

using Found = std::vector<std::shared_ptr<remora::Request>>;

// The list of a call's requests: the thread's, reused from call to call (one allocation less
// per test or wait), emptied when the call returns so that it keeps no request alive. A call
// that finds it in use (none today: handlers make no such calls) takes its own.
class FoundList {
 public:
  FoundList() : list_(busy_ ? own_ : kept_) {
    if (&list_ == &kept_) busy_ = true;
  }
  ~FoundList() {
    list_.clear();
    if (&list_ == &kept_) busy_ = false;
  }
  FoundList(const FoundList&) = delete;
  FoundList& operator=(const FoundList&) = delete;
  Found& operator*() { return list_; }

 private:
  // initial-exec: a direct TLS access instead of a __tls_get_addr call (about 25 instructions)
  // at each of the four per test or wait, as transport/am_dispatcher.hpp's running_handler.
  [[gnu::tls_model("initial-exec")]] static thread_local Found kept_;
  [[gnu::tls_model("initial-exec")]] static thread_local bool busy_;
  Found own_;
  Found& list_;
};
[[gnu::tls_model("initial-exec")]] thread_local Found FoundList::kept_;
[[gnu::tls_model("initial-exec")]] constinit thread_local bool FoundList::busy_ = false;

// A handle that find() did not find live: the failure, naming requests[index].
int not_live(const char* function, int index, remora_request_t handle,
             remora::RequestTable::Miss miss) {
  return fail(REMORA_ERR_ARG, "%s: requests[%d]=%p is not a live request (%s)", function, index,
              static_cast<void*>(handle),
              miss == remora::RequestTable::Miss::Freed
                  ? "completed and freed already: the test or wait that completes a request "
                    "frees it"
                  : "not a request handle of this process");
}

int find_requests(const char* function, int count, const remora_request_t* requests,
                  const Runtime& runtime, std::vector<std::shared_ptr<remora::Request>>* found) {
  if (count < 0) return fail(REMORA_ERR_ARG, "%s: count=%d is negative", function, count);
  if (count > 0)
    if (int status = remora::api::check_pointer(function, "requests", requests)) return status;
  for (int i = 0; i < count; ++i) {
    if (requests[i] == REMORA_REQUEST_NULL) {
      found->push_back(nullptr);
      continue;
    }
    remora::RequestTable::Miss miss = remora::RequestTable::Miss::None;
    auto schedule = runtime.collectives->requests.find(requests[i], &miss);
    if (schedule == nullptr) return not_live(function, i, requests[i], miss);
    found->push_back(std::move(schedule));
  }
  return REMORA_SUCCESS;
}

// Whether a request is done; a stalled collective fails itself first (REMORA_COLL_TIMEOUT).
// waiting: asked by a thread that waits until it is done (Request::done_waiting).
bool finished(remora::Request& request, bool waiting = false) {
  request.check_stalled();
  return waiting ? request.done_waiting() : request.done();
}

// Frees a completed request and returns its status, its message prefixed with function.
int complete(const char* function, Runtime& runtime, remora_request_t* request,
             const remora::Request& schedule) {
  runtime.collectives->requests.remove(*request);
  *request = REMORA_REQUEST_NULL;
  const int status = schedule.status();
  if (status == REMORA_SUCCESS) return status;
  const std::string message = remora::last_error();
  return fail(status, "%s: %s", function, message.c_str());
}

// Completes every done request of the list; returns the first failure.
int complete_all(const char* function, Runtime& runtime, remora_request_t* requests,
                 const std::vector<std::shared_ptr<remora::Request>>& found) {
  int first = REMORA_SUCCESS;
  std::string message;
  for (size_t i = 0; i < found.size(); ++i) {
    if (found[i] == nullptr) continue;
    const int status = complete(function, runtime, &requests[i], *found[i]);
    if (status != REMORA_SUCCESS && first == REMORA_SUCCESS) {
      first = status;
      message = remora::last_error();
    }
  }
  return first == REMORA_SUCCESS ? first : fail(first, "%s", message.c_str());
}

int wait_all(const char* function, int count, remora_request_t* requests) {
  Runtime* runtime = nullptr;
  FoundList list;
  Found& found = *list;
  if (int status = enter_waiting(function, &runtime)) return status;
  if (int status = find_requests(function, count, requests, *runtime, &found)) return status;
  bool shm = false;
  for (const auto& schedule : found)
    shm = shm || (schedule != nullptr && schedule->polls_shared_memory());
  const int status = runtime->collectives->wait_until(
      [&found] {
        // Requests that share one object (rgets of one batch) follow each other: asked once.
        const remora::Request* asked = nullptr;
        for (const auto& schedule : found) {
          if (schedule == nullptr || schedule.get() == asked) continue;
          if (!finished(*schedule, true)) return false;
          asked = schedule.get();
        }
        return true;
      },
      shm);
  if (status != REMORA_SUCCESS) return status;
  return complete_all(function, *runtime, requests, found);
}

}  // namespace

extern "C" {

// ---- Requests ----

int remora_request_test(remora_request_t* request, int* flag) {
  REMORA_API_ENTRY();
  constexpr const char* kFunction = "remora_request_test";
  Runtime* runtime = nullptr;
  if (int status = enter_waiting(kFunction, &runtime)) return status;
  if (int status = check_out(kFunction, "flag", flag)) return status;
  if (int status = remora::api::check_pointer(kFunction, "request", request)) return status;
  *flag = 1;
  if (*request == REMORA_REQUEST_NULL) return REMORA_SUCCESS;
  // One request: found directly, without the list of the list forms.
  remora::RequestTable::Miss miss = remora::RequestTable::Miss::None;
  const std::shared_ptr<remora::Request> found =
      runtime->collectives->requests.find(*request, &miss);
  if (found == nullptr) return not_live(kFunction, 0, *request, miss);
  remora::progress::PacedTestCall call;
  remora::Request& schedule = *found;
  const auto done = [&schedule] { return schedule.done(); };
  // A request waiting for shm rounds advances them itself (check_stalled): when that completes
  // it, the engine's poll (the rank's local work: every area's pending calls, each under its
  // lock; about 500 instructions of a small igather's test) is left to the next call.
  if (schedule.polls_shared_memory() && finished(schedule)) {
    call.finish(*runtime->transport, true, done);
    return complete(kFunction, *runtime, request, schedule);
  }
  const bool progressed = runtime->progress->poll();
  call.finish(*runtime->transport, progressed || finished(schedule), done);
  if (!finished(schedule)) {
    *flag = 0;
    return REMORA_SUCCESS;
  }
  return complete(kFunction, *runtime, request, schedule);
}

// One request: wait_all's steps without its list (the thread's vector, the loops over it, the
// first failure's copy): a quarter to half of an 8 B igather's wait (docs/benchmarks-log.md).
int remora_request_wait(remora_request_t* request) {
  REMORA_API_ENTRY();
  constexpr const char* kFunction = "remora_request_wait";
  if (int status = remora::api::check_pointer(kFunction, "request", request)) return status;
  Runtime* runtime = nullptr;
  if (int status = enter_waiting(kFunction, &runtime)) return status;
  if (*request == REMORA_REQUEST_NULL) return REMORA_SUCCESS;
  remora::RequestTable::Miss miss = remora::RequestTable::Miss::None;
  const std::shared_ptr<remora::Request> found =
      runtime->collectives->requests.find(*request, &miss);
  if (found == nullptr) return not_live(kFunction, 0, *request, miss);
  remora::Request& schedule = *found;
  const int status = runtime->collectives->wait_until(
      [&schedule] { return finished(schedule, true); }, schedule.polls_shared_memory());
  if (status != REMORA_SUCCESS) return status;
  return complete(kFunction, *runtime, request, schedule);
}

int remora_request_waitall(int count, remora_request_t* requests) {
  REMORA_API_ENTRY();
  return wait_all("remora_request_waitall", count, requests);
}

int remora_request_waitany(int count, remora_request_t* requests, int* index) {
  REMORA_API_ENTRY();
  Runtime* runtime = nullptr;
  FoundList list;
  Found& found = *list;
  if (int status = enter_waiting("remora_request_waitany", &runtime)) return status;
  if (int status = check_out("remora_request_waitany", "index", index)) return status;
  if (int status = find_requests("remora_request_waitany", count, requests, *runtime, &found))
    return status;
  *index = REMORA_UNDEFINED;
  bool any = false, shm = false;
  for (const auto& schedule : found) {
    any = any || schedule != nullptr;
    shm = shm || (schedule != nullptr && schedule->polls_shared_memory());
  }
  if (!any) return REMORA_SUCCESS;
  const int status = runtime->collectives->wait_until(
      [&found, index] {
        for (size_t i = 0; i < found.size(); ++i)
          if (found[i] != nullptr && finished(*found[i])) {
            *index = static_cast<int>(i);
            return true;
          }
        return false;
      },
      shm);
  if (status != REMORA_SUCCESS) return status;
  const auto i = static_cast<size_t>(*index);
  return complete("remora_request_waitany", *runtime, &requests[i], *found[i]);
}

int remora_request_testall(int count, remora_request_t* requests, int* flag) {
  REMORA_API_ENTRY();
  Runtime* runtime = nullptr;
  FoundList list;
  Found& found = *list;
  if (int status = enter_waiting("remora_request_testall", &runtime)) return status;
  if (int status = check_out("remora_request_testall", "flag", flag)) return status;
  if (int status = find_requests("remora_request_testall", count, requests, *runtime, &found))
    return status;
  remora::progress::PacedTestCall call;
  const bool progressed = runtime->progress->poll();
  auto all_finished = [&found] {
    for (const auto& schedule : found)
      if (schedule != nullptr && !finished(*schedule)) return false;
    return true;
  };
  call.finish(*runtime->transport, progressed || all_finished(), all_finished);
  *flag = 0;
  if (!all_finished()) return REMORA_SUCCESS;
  *flag = 1;
  return complete_all("remora_request_testall", *runtime, requests, found);
}

}  // extern "C"
