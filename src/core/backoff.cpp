#include "core/backoff.hpp"

namespace remora {

WaitPolicy make_wait_policy(const Config& config, int ranks_on_node, int cpus,
                            ProgressThreadWaits progress_waits) {
  WaitPolicy policy;
  // A progress thread that spins in its waits counts as a runnable thread.
  const int threads_per_rank =
      config.progress == "thread" && progress_waits == ProgressThreadWaits::Spinning ? 2 : 1;
  if (config.oversubscribed == "yes")
    policy.oversubscribed = true;
  else if (config.oversubscribed == "no")
    policy.oversubscribed = false;
  else  // the node's ghost process (REMORA_PROGRESS=ghost) is one more runnable process
    policy.oversubscribed =
        ranks_on_node * threads_per_rank + (config.progress == "ghost" ? 1 : 0) > cpus;
  const long long spin_us =
      policy.oversubscribed ? config.wait_spin_oversubscribed_us : config.wait_spin_us;
  policy.spin_ns = static_cast<uint64_t>(spin_us) * 1000;
  policy.yields = static_cast<int>(config.wait_yields);
  policy.max_sleep_ns = static_cast<uint64_t>(config.wait_sleep_max_us) * 1000;
  policy.first_sleep_ns = std::min<uint64_t>(policy.first_sleep_ns, policy.max_sleep_ns);
  return policy;
}

}  // namespace remora
