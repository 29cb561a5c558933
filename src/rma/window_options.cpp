#include "rma/window_options.hpp"

#include <cerrno>
#include <cstdlib>
#include <string>

#include "core/error.hpp"
#include "rma/user_memory.hpp"

namespace remora::rma {
namespace {

constexpr const char* kStrategyNames[] = {"auto", "native", "caller", "owner"};

int parse_strategy(const std::string& text, AccStrategy* strategy) {
  for (uint64_t i = 0; i < 4; ++i)
    if (text == kStrategyNames[i]) {
      *strategy = static_cast<AccStrategy>(i);
      return REMORA_SUCCESS;
    }
  return REMORA_ERR_ARG;
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

// Applies one key=value pair.
int apply_pair(const char* function, const std::string& pair, WindowOptions* options) {
  const size_t equals = pair.find('=');
  if (equals == std::string::npos)
    return fail(REMORA_ERR_ARG, "%s: info entry '%s' is not of the form key=value", function,
                pair.c_str());
  const std::string key = pair.substr(0, equals), value = pair.substr(equals + 1);
  if (key == "acc_strategy") {
    if (parse_strategy(value, &options->strategy) != REMORA_SUCCESS)
      return fail(REMORA_ERR_ARG,
                  "%s: info acc_strategy='%s' is not one of auto, native, caller, owner", function,
                  value.c_str());
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
  } else {
    return fail(REMORA_ERR_ARG,
                "%s: info key '%s' is unknown (acc_strategy, acc_lock_stripes, "
                "acc_lock_granularity, fence, lock, pscw, user_memory)",
                function, key.c_str());
  }
  return REMORA_SUCCESS;
}

}  // namespace

const char* strategy_name(AccStrategy strategy) {
  const auto index = static_cast<uint64_t>(strategy);
  return index < 4 ? kStrategyNames[index] : "?";
}

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
  const std::string text(info);
  size_t start = 0;
  while (start < text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    const std::string pair = text.substr(start, comma - start);
    if (!pair.empty())
      if (int status = apply_pair(function, pair, options)) return status;
    start = comma + 1;
  }
  return REMORA_SUCCESS;
}

}  // namespace remora::rma
