#include "core/config.hpp"

#include <gtest/gtest.h>

#include "core/error.hpp"

namespace remora {
namespace {

TEST(Config, DefaultsComeFromTheRegistry) {
  const Config config = default_config();
  EXPECT_EQ(config.progress, "manual");
  EXPECT_EQ(config.am_queue_slots, 512);
  EXPECT_EQ(config.am_slot_bytes, 1024u);
  EXPECT_EQ(config.am_max_bytes, 64ull << 20);
  EXPECT_EQ(config.rank, -1);
  EXPECT_EQ(config.control_fd, -1);
}

TEST(Config, ParsesEveryKind) {
  Config config;
  std::vector<std::string> warnings;
  const Environment env = {{"REMORA_PROGRESS", "thread"},  {"REMORA_AM_QUEUE_SLOTS", "64"},
                           {"REMORA_AM_SLOT_BYTES", "2K"}, {"REMORA_AM_MAX_BYTES", "3MiB"},
                           {"REMORA_JOB_ID", "abc-1"},     {"PATH", "/usr/bin"}};
  ASSERT_EQ(parse_config(env, &config, &warnings), REMORA_SUCCESS) << last_error();
  EXPECT_EQ(config.progress, "thread");
  EXPECT_EQ(config.am_queue_slots, 64);
  EXPECT_EQ(config.am_slot_bytes, 2048u);
  EXPECT_EQ(config.am_max_bytes, 3ull << 20);
  EXPECT_EQ(config.job_id, "abc-1");
  EXPECT_TRUE(warnings.empty());
}

struct Malformed {
  const char* name;
  const char* value;
};

class MalformedValue : public ::testing::TestWithParam<Malformed> {};

TEST_P(MalformedValue, IsAnErrorThatNamesTheVariableAndValue) {
  Config config;
  std::vector<std::string> warnings;
  const Malformed bad = GetParam();
  EXPECT_EQ(parse_config({{bad.name, bad.value}}, &config, &warnings), REMORA_ERR_CONFIG);
  const std::string message = last_error();
  EXPECT_NE(message.find(bad.name), std::string::npos) << message;
  EXPECT_NE(message.find(std::string("'") + bad.value + "'"), std::string::npos) << message;
}

INSTANTIATE_TEST_SUITE_P(
    Config, MalformedValue,
    ::testing::Values(Malformed{"REMORA_PROGRESS", "ghostly"}, Malformed{"REMORA_PROGRESS", ""},
                      Malformed{"REMORA_WAIT_SPIN_US", "fast"},
                      Malformed{"REMORA_WAIT_SPIN_US", "-3"},
                      Malformed{"REMORA_WAIT_SPIN_US", "12abc"},
                      Malformed{"REMORA_AM_QUEUE_SLOTS", "100"},  // not a power of two
                      Malformed{"REMORA_AM_QUEUE_SLOTS", "8"},    // below the minimum
                      Malformed{"REMORA_AM_SLOT_BYTES", "1000"},  // not a multiple of 64
                      Malformed{"REMORA_AM_MAX_BYTES", "5T"},
                      Malformed{"REMORA_AM_MAX_BYTES", "-1"}, Malformed{"REMORA_BARRIER", "tree"}));

TEST(Config, UnknownRemoraVariablesDrawAWarningNotAnError) {
  Config config;
  std::vector<std::string> warnings;
  ASSERT_EQ(
      parse_config({{"REMORA_PROGRES", "thread"}, {"OTHER_REMORA_X", "1"}}, &config, &warnings),
      REMORA_SUCCESS);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("REMORA_PROGRES='thread'"), std::string::npos) << warnings[0];
  EXPECT_EQ(config.progress, "manual");
}

TEST(Config, HelpAndMarkdownListEveryVariable) {
  const std::string help = config_help_text();
  const std::string markdown = config_markdown();
  ASSERT_FALSE(config_registry().empty());
  for (const auto& spec : config_registry()) {
    EXPECT_NE(help.find(spec.name), std::string::npos) << spec.name;
    EXPECT_NE(markdown.find(std::string("`") + spec.name + "`"), std::string::npos) << spec.name;
  }
}

}  // namespace
}  // namespace remora
