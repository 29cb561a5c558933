#include "rma/window_options.hpp"

#include <cerrno>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/log.hpp"
#include "rma/user_memory.hpp"

namespace remora::rma {
namespace {

int parse_strategy(const std::string& text, AccStrategy* strategy) {
  const AccStrategyDescriptor* descriptor = find_acc_strategy(text);
  if (descriptor == nullptr) return REMORA_ERR_ARG;
  *strategy = descriptor->strategy;
  return REMORA_SUCCESS;
}

constexpr const char* kSyncImplNames[] = {"immediate", "deferred"};

int parse_sync_impl(const std::string& text, SyncImpl* impl) {
  for (uint64_t i = 0; i < 2; ++i)
    if (text == kSyncImplNames[i]) {
      *impl = static_cast<SyncImpl>(i);
      return REMORA_SUCCESS;
    }
  return REMORA_ERR_ARG;
}

int parse_count(const std::string& text, uint64_t low, uint64_t high, uint64_t* value) {
  if (text.empty() || text[0] == '-' || text[0] == '+') return REMORA_ERR_ARG;
  char* end = nullptr;
  errno = 0;
  const unsigned long long parsed = std::strtoull(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || parsed < low || parsed > high) return REMORA_ERR_ARG;
  *value = parsed;
  return REMORA_SUCCESS;
}

std::string trimmed(const std::string& text) {
  const size_t first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

bool is_bool(const std::string& value) {
  return value == "true" || value == "false";
}

// MPI's standard window info keys: accepted with their MPI values. Remora needs none of them
// (it keeps MPI's default accumulate ordering, and shares memory whatever the sizes), so a
// program written for MPI runs unchanged. accumulate_ordering's value is a list, so its later
// items arrive as entries of their own (continuation: rar, raw, war, waw).
bool mpi_standard_key(const std::string& key, const std::string& value) {
  if (key == "no_locks" || key == "same_size" || key == "same_disp_unit" ||
      key == "alloc_shared_noncontig")
    return is_bool(value);
  if (key == "accumulate_ordering")
    return value == "none" || value == "rar" || value == "raw" || value == "war" || value == "waw";
  if (key == "accumulate_ops") return value == "same_op" || value == "same_op_no_op";
  return false;
}

bool ordering_item(const std::string& entry) {
  return entry == "rar" || entry == "raw" || entry == "war" || entry == "waw";
}

// Unknown keys are ignored, as MPI ignores them, with one warning per key and process (info
// strict=1 makes them errors).
void warn_unknown_once(const char* function, const std::string& key) {
  static std::mutex mutex;
  static std::set<std::string> warned;
  std::lock_guard lock(mutex);
  if (!warned.insert(key).second) return;
  log(LogLevel::Warn,
      "%s: info key '%s' is unknown and ignored (Remora's keys: acc_strategy, acc_lock_stripes, "
      "acc_lock_granularity, fence, lock, pscw, user_memory, strict; MPI's window keys are "
      "accepted)",
      function, key.c_str());
}

// Applies one key=value pair (spaces around key and value are ignored).
int apply_pair(const char* function, const std::string& pair, bool strict, WindowOptions* options) {
  const size_t equals = pair.find('=');
  if (equals == std::string::npos)
    return fail(REMORA_ERR_ARG, "%s: info entry '%s' is not of the form key=value", function,
                pair.c_str());
  const std::string key = trimmed(pair.substr(0, equals)), value = trimmed(pair.substr(equals + 1));
  if (key == "strict") {
    if (value != "0" && value != "1")
      return fail(REMORA_ERR_ARG, "%s: info strict='%s' is not 0 or 1", function, value.c_str());
  } else if (mpi_standard_key(key, value)) {
    // accepted: see mpi_standard_key
  } else if (key == "acc_strategy") {
    if (parse_strategy(value, &options->strategy) != REMORA_SUCCESS)
      return fail(REMORA_ERR_ARG, "%s: info acc_strategy='%s' is not one of %s", function,
                  value.c_str(), acc_strategy_names(", ").c_str());
  } else if (key == "acc_lock_stripes") {
    if (parse_count(value, 1, 65536, &options->lock_stripes) != REMORA_SUCCESS)
      return fail(REMORA_ERR_ARG, "%s: info acc_lock_stripes='%s' is not an integer in [1, 65536]",
                  function, value.c_str());
  } else if (key == "acc_lock_granularity") {
    if (parse_count(value, 16, uint64_t{1} << 30, &options->lock_granularity) != REMORA_SUCCESS)
      return fail(REMORA_ERR_ARG,
                  "%s: info acc_lock_granularity='%s' is not a byte count in [16, 1073741824]",
                  function, value.c_str());
  } else if (key == "fence" || key == "lock" || key == "pscw") {
    SyncImpl* impl = key == "fence"  ? &options->fence
                     : key == "lock" ? &options->lock
                                     : &options->pscw;
    if (parse_sync_impl(value, impl) != REMORA_SUCCESS)
      return fail(REMORA_ERR_ARG, "%s: info %s='%s' is not one of immediate, deferred", function,
                  key.c_str(), value.c_str());
  } else if (key == "user_memory") {
    UserMemoryMode mode{};
    if (parse_user_memory_mode(value.c_str(), &mode) != REMORA_SUCCESS)
      return fail(REMORA_ERR_ARG,
                  "%s: info user_memory='%s' is not one of auto, single_copy, agent", function,
                  value.c_str());
    options->user_memory = static_cast<uint64_t>(mode);
  } else if (key == "no_locks" || key == "same_size" || key == "same_disp_unit" ||
             key == "alloc_shared_noncontig" || key == "accumulate_ordering" ||
             key == "accumulate_ops") {
    return fail(REMORA_ERR_ARG, "%s: info %s='%s' is not a value MPI defines for it", function,
                key.c_str(), value.c_str());
  } else if (strict) {
    return fail(REMORA_ERR_ARG,
                "%s: info key '%s' is unknown (acc_strategy, acc_lock_stripes, "
                "acc_lock_granularity, fence, lock, pscw, user_memory, strict, and MPI's window "
                "keys; strict=1 is set)",
                function, key.c_str());
  } else {
    warn_unknown_once(function, key);
  }
  return REMORA_SUCCESS;
}

}  // namespace

const char* sync_impl_name(SyncImpl impl) {
  const auto index = static_cast<uint64_t>(impl);
  return index < 2 ? kSyncImplNames[index] : "?";
}

int parse_window_options(const char* function, const Config& config, const char* info,
                         WindowOptions* options) {
  // The configuration was validated at remora_init, so its strategy name parses.
  parse_strategy(config.acc_strategy, &options->strategy);
  options->lock_stripes = static_cast<uint64_t>(config.acc_lock_stripes);
  options->lock_granularity = config.acc_lock_granularity;
  options->lock_granularity_remote = config.acc_lock_granularity_remote;
  parse_sync_impl(config.rma_fence, &options->fence);
  parse_sync_impl(config.rma_lock, &options->lock);
  parse_sync_impl(config.rma_pscw, &options->pscw);
  UserMemoryMode mode{};
  parse_user_memory_mode(config.rma_user_memory.c_str(), &mode);
  options->user_memory = static_cast<uint64_t>(mode);
  if (info == nullptr) return REMORA_SUCCESS;
  std::vector<std::string> entries;
  const std::string text(info);
  for (size_t start = 0; start < text.size();) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    const std::string entry = trimmed(text.substr(start, comma - start));
    if (!entry.empty()) entries.push_back(entry);
    start = comma + 1;
  }
  // strict=1 anywhere applies to every entry.
  bool strict = false;
  for (const std::string& entry : entries)
    if (entry.find('=') != std::string::npos &&
        trimmed(entry.substr(0, entry.find('='))) == "strict")
      strict = trimmed(entry.substr(entry.find('=') + 1)) == "1";
  bool in_ordering = false;  // the previous entry was accumulate_ordering (or an item of it)
  for (const std::string& entry : entries) {
    if (in_ordering && ordering_item(entry)) continue;
    in_ordering = entry.find('=') != std::string::npos &&
                  trimmed(entry.substr(0, entry.find('='))) == "accumulate_ordering";
    if (int status = apply_pair(function, entry, strict, options)) return status;
  }
  return REMORA_SUCCESS;
}

}  // namespace remora::rma
