// Window info strings: defaults from the configuration, overrides, and rejected input.
#include "rma/window_options.hpp"

#include <gtest/gtest.h>

#include <string>

#include "core/error.hpp"

namespace remora::rma {
namespace {

TEST(WindowOptions, DefaultsComeFromTheConfiguration) {
  Config config = default_config();
  config.acc_strategy = "owner";
  config.acc_lock_stripes = 7;
  WindowOptions options;
  ASSERT_EQ(parse_window_options("f", config, nullptr, &options), REMORA_SUCCESS);
  EXPECT_EQ(options.strategy, AccStrategy::Owner);
  EXPECT_EQ(options.lock_stripes, 7u);
  EXPECT_EQ(options.lock_granularity, 4096u);
}

TEST(WindowOptions, InfoOverridesDefaults) {
  WindowOptions options;
  ASSERT_EQ(parse_window_options("f", default_config(),
                                 "acc_strategy=caller,,acc_lock_stripes=1,acc_lock_granularity=64",
                                 &options),
            REMORA_SUCCESS);
  EXPECT_EQ(options.strategy, AccStrategy::Caller);
  EXPECT_EQ(options.lock_stripes, 1u);
  EXPECT_EQ(options.lock_granularity, 64u);
  EXPECT_STREQ(acc_strategy(options.strategy).name, "caller");
}

// The strategy list is the one source of names: REMORA_ACC_STRATEGY's choices must be its names,
// and every descriptor sits at the index of its remora_acc_strategy_t value.
TEST(AccStrategies, ListMatchesConfigurationChoicesAndPublicValues) {
  std::string choices;
  for (const VarSpec& spec : config_registry())
    if (std::string(spec.name) == "REMORA_ACC_STRATEGY") choices = spec.constraint;
  EXPECT_EQ(choices, acc_strategy_names("|"));
  size_t index = 0;
  for (const AccStrategyDescriptor& descriptor : acc_strategies()) {
    EXPECT_EQ(static_cast<size_t>(descriptor.strategy), index++);
    EXPECT_EQ(find_acc_strategy(descriptor.name), &descriptor);
  }
  EXPECT_EQ(find_acc_strategy("fast"), nullptr);
}

TEST(WindowOptions, PscwModeFromConfigurationAndInfo) {
  Config config = default_config();
  WindowOptions options;
  ASSERT_EQ(parse_window_options("f", config, nullptr, &options), REMORA_SUCCESS);
  EXPECT_EQ(options.pscw, SyncImpl::Immediate);
  config.rma_pscw = "deferred";
  ASSERT_EQ(parse_window_options("f", config, nullptr, &options), REMORA_SUCCESS);
  EXPECT_EQ(options.pscw, SyncImpl::Deferred);
  ASSERT_EQ(parse_window_options("f", config, "pscw=immediate", &options), REMORA_SUCCESS);
  EXPECT_EQ(options.pscw, SyncImpl::Immediate);
  EXPECT_EQ(parse_window_options("f", config, "pscw=lazy", &options), REMORA_ERR_ARG);
  EXPECT_NE(std::string(last_error()).find("pscw='lazy'"), std::string::npos) << last_error();
}

TEST(WindowOptions, RejectsMalformedInfoNamingIt) {
  WindowOptions options;
  for (const char* info :
       {"acc_strategy=fast", "acc_lock_stripes=-1", "acc_lock_stripes=99999999",
        "acc_lock_granularity=8", "acc_lock_granularity=1x", "acc_strategy", "no_locks=maybe",
        "accumulate_ops=sum", "strict=2", "speed=11,strict=1"}) {
    EXPECT_EQ(parse_window_options("remora_win_allocate", default_config(), info, &options),
              REMORA_ERR_ARG)
        << info;
    EXPECT_NE(std::string(last_error()).find("remora_win_allocate: info"), std::string::npos)
        << last_error();
  }
}

TEST(WindowOptions, SyncImplementations) {
  Config config = default_config();
  WindowOptions options;
  ASSERT_EQ(parse_window_options("f", config, nullptr, &options), REMORA_SUCCESS);
  EXPECT_EQ(options.fence, SyncImpl::Immediate);  // the documented defaults
  EXPECT_EQ(options.lock, SyncImpl::Immediate);
  config.rma_fence = "deferred";
  ASSERT_EQ(parse_window_options("f", config, "lock=deferred", &options), REMORA_SUCCESS);
  EXPECT_EQ(options.fence, SyncImpl::Deferred);
  EXPECT_EQ(options.lock, SyncImpl::Deferred);
  ASSERT_EQ(parse_window_options("f", config, "fence=immediate", &options), REMORA_SUCCESS);
  EXPECT_EQ(options.fence, SyncImpl::Immediate);
  EXPECT_STREQ(sync_impl_name(options.lock), "immediate");
  for (const char* info : {"fence=later", "lock=", "fence=Deferred"})
    EXPECT_EQ(parse_window_options("f", config, info, &options), REMORA_ERR_ARG) << info;
}

// MPI habits: MPI's window keys are accepted, spaces around '=' are ignored, and an unknown key
// is ignored with a warning unless strict=1.
TEST(WindowOptions, AcceptsMpiKeysAndIgnoresUnknownOnes) {
  WindowOptions options;
  EXPECT_EQ(parse_window_options("remora_win_allocate", default_config(),
                                 "no_locks=true, accumulate_ordering=rar,raw,waw , "
                                 "accumulate_ops = same_op, same_size=false,same_disp_unit=true,"
                                 "alloc_shared_noncontig=true, acc_strategy = owner ,speed=11",
                                 &options),
            REMORA_SUCCESS)
      << last_error();
  EXPECT_EQ(options.strategy, AccStrategy::Owner);
  EXPECT_EQ(parse_window_options("remora_win_allocate", default_config(),
                                 "accumulate_ordering=none,lock = deferred", &options),
            REMORA_SUCCESS)
      << last_error();
  EXPECT_EQ(options.lock, SyncImpl::Deferred);
  EXPECT_EQ(
      parse_window_options("remora_win_allocate", default_config(), "strict=1,speed=11", &options),
      REMORA_ERR_ARG);
  EXPECT_NE(std::string(last_error()).find("info key 'speed' is unknown"), std::string::npos)
      << last_error();
  // An ordering item outside accumulate_ordering is no key=value entry.
  EXPECT_EQ(parse_window_options("remora_win_allocate", default_config(), "rar", &options),
            REMORA_ERR_ARG);
}

}  // namespace
}  // namespace remora::rma
