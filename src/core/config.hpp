// Configuration from REMORA_* environment variables, generated from config_vars.def.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace remora {

enum class VarKind { Choice, Int, Size, String };

struct VarSpec {
  const char* name;  // full name, "REMORA_PROGRESS"
  VarKind kind;
  const char* default_value;
  const char* constraint;
  const char* category;
  const char* doc;
};

using ConfigChoice = std::string;
using ConfigInt = long long;
using ConfigSize = uint64_t;
using ConfigString = std::string;

struct Config {
#define REMORA_CONFIG_VAR(NAME, member, Kind, def, constraint, category, doc) Config##Kind member;
#include "core/config_vars.def"
#undef REMORA_CONFIG_VAR
};

using Environment = std::vector<std::pair<std::string, std::string>>;

// Every registered variable, in declaration order.
const std::vector<VarSpec>& config_registry();

// The defaults of every variable.
Config default_config();

// Parses every REMORA_* entry of env into *config (starting from the defaults). Unknown
// REMORA_* names are appended to *warnings; a malformed value returns REMORA_ERR_CONFIG with
// a message naming the variable and its value.
int parse_config(const Environment& env, Config* config, std::vector<std::string>* warnings);

// The process environment as name/value pairs.
Environment process_environment();

// Human-readable help (for remorarun --help-config) and the Markdown table of
// docs/configuration.md.
std::string config_help_text();
std::string config_markdown();

}  // namespace remora
