#include "core/config.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "core/error.hpp"

extern char** environ;

namespace remora {
namespace {

int parse_integer(const std::string& text, long long* out) {
  if (text.empty()) return -1;
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0') return -1;
  *out = value;
  return 0;
}

// "64M" -> 67108864. Suffixes K, M, G (powers of 1024), optionally followed by "B"/"iB".
int parse_bytes(const std::string& text, uint64_t* out) {
  if (text.empty() || text[0] == '-') return -1;
  char* end = nullptr;
  errno = 0;
  const unsigned long long value = std::strtoull(text.c_str(), &end, 10);
  if (errno != 0 || end == text.c_str()) return -1;
  std::string suffix(end);
  uint64_t scale = 1;
  if (!suffix.empty()) {
    switch (suffix[0]) {
      case 'k':
      case 'K':
        scale = 1ull << 10;
        break;
      case 'm':
      case 'M':
        scale = 1ull << 20;
        break;
      case 'g':
      case 'G':
        scale = 1ull << 30;
        break;
      default:
        return -1;
    }
    suffix.erase(0, 1);
    if (!(suffix.empty() || suffix == "B" || suffix == "iB")) return -1;
  }
  if (value > UINT64_MAX / scale) return -1;
  *out = value * scale;
  return 0;
}

// Splits "min:max" of a constraint.
template <typename Parse, typename T>
void parse_bounds(const char* constraint, Parse parse, T* low, T* high) {
  const std::string bounds(constraint);
  const size_t colon = bounds.find(':');
  parse(bounds.substr(0, colon), low);
  parse(bounds.substr(colon + 1), high);
}

int malformed(const VarSpec& spec, const std::string& text, const char* expected) {
  return fail(REMORA_ERR_CONFIG, "%s='%s' is malformed: expected %s", spec.name, text.c_str(),
              expected);
}

int assign(const VarSpec& spec, const std::string& text, ConfigInt* out) {
  long long value = 0, low = 0, high = 0;
  parse_bounds(spec.constraint, parse_integer, &low, &high);
  const std::string expected = format("an integer in [%lld, %lld]", low, high);
  if (parse_integer(text, &value) != 0 || value < low || value > high)
    return malformed(spec, text, expected.c_str());
  *out = value;
  return REMORA_SUCCESS;
}

int assign(const VarSpec& spec, const std::string& text, ConfigSize* out) {
  uint64_t value = 0, low = 0, high = 0;
  parse_bounds(spec.constraint, parse_bytes, &low, &high);
  const std::string expected =
      format("a byte count in [%llu, %llu] (suffixes K, M, G allowed)",
             static_cast<unsigned long long>(low), static_cast<unsigned long long>(high));
  if (parse_bytes(text, &value) != 0 || value < low || value > high)
    return malformed(spec, text, expected.c_str());
  *out = value;
  return REMORA_SUCCESS;
}

// Choice and String share std::string storage; the kind tells them apart.
int assign(const VarSpec& spec, const std::string& text, std::string* out) {
  if (spec.kind == VarKind::Choice) {
    const std::string choices = std::string("|") + spec.constraint + "|";
    if (text.empty() || choices.find("|" + text + "|") == std::string::npos)
      return malformed(spec, text, format("one of %s", spec.constraint).c_str());
  }
  *out = text;
  return REMORA_SUCCESS;
}

// Checks that are not simple ranges.
int validate(const Config& config) {
  const auto slots = config.am_queue_slots;
  if ((slots & (slots - 1)) != 0)
    return fail(REMORA_ERR_CONFIG,
                "REMORA_AM_QUEUE_SLOTS='%lld' is malformed: expected a power of two", slots);
  if (config.am_slot_bytes % 64 != 0)
    return fail(REMORA_ERR_CONFIG,
                "REMORA_AM_SLOT_BYTES='%llu' is malformed: expected a multiple of 64",
                static_cast<unsigned long long>(config.am_slot_bytes));
  return REMORA_SUCCESS;
}

const char* kind_name(VarKind kind) {
  switch (kind) {
    case VarKind::Choice:
      return "choice";
    case VarKind::Int:
      return "integer";
    case VarKind::Size:
      return "bytes";
    case VarKind::String:
      return "string";
  }
  return "?";
}

std::string allowed_values(const VarSpec& spec) {
  switch (spec.kind) {
    case VarKind::Choice: {
      // `a`, `b`, `c`: no '|', which would split a Markdown table cell.
      std::string choices = "`";  // appended: operator+ trips GCC 12's -Wstringop-overread at -O3
      choices += spec.constraint;
      choices += '`';
      for (size_t bar = choices.find('|'); bar != std::string::npos; bar = choices.find('|'))
        choices.replace(bar, 1, "`, `");
      return choices;
    }
    case VarKind::Int:
    case VarKind::Size: {
      std::string bounds(spec.constraint);
      bounds.replace(bounds.find(':'), 1, " .. ");
      return bounds;
    }
    case VarKind::String:
      return "text";
  }
  return "";
}

}  // namespace

const std::vector<VarSpec>& config_registry() {
  static const std::vector<VarSpec> registry = {
#define REMORA_CONFIG_VAR(NAME, member, Kind, def, constraint, category, doc) \
  {"REMORA_" #NAME, VarKind::Kind, def, constraint, category, doc},
#include "core/config_vars.def"
#undef REMORA_CONFIG_VAR
  };
  return registry;
}

Config default_config() {
  Config config;
  Environment none;
  std::vector<std::string> ignored;
  // The defaults are valid by construction; a failure here is a bug in config_vars.def.
  if (parse_config(none, &config, &ignored) != REMORA_SUCCESS) std::abort();
  return config;
}

int parse_config(const Environment& env, Config* config, std::vector<std::string>* warnings) {
  auto value_of = [&env](const char* name) -> const std::string* {
    for (const auto& [key, value] : env)
      if (key == name) return &value;
    return nullptr;
  };
  int status = REMORA_SUCCESS;
  size_t index = 0;
  const auto& registry = config_registry();
#define REMORA_CONFIG_VAR(NAME, member, Kind, def, constraint, category, doc)                 \
  {                                                                                           \
    const VarSpec& spec = registry[index++];                                                  \
    const std::string* given = value_of(spec.name);                                           \
    status = assign(spec, given ? *given : std::string(spec.default_value), &config->member); \
    if (status != REMORA_SUCCESS) return status;                                              \
  }
#include "core/config_vars.def"
#undef REMORA_CONFIG_VAR

  for (const auto& [key, value] : env) {
    if (key.rfind("REMORA_", 0) != 0) continue;
    bool known = false;
    for (const auto& spec : registry) known = known || key == spec.name;
    if (!known)
      warnings->push_back(
          format("unknown configuration variable %s='%s' is ignored (see "
                 "remorarun --help-config)",
                 key.c_str(), value.c_str()));
  }
  return validate(*config);
}

Environment process_environment() {
  Environment env;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const char* equals = std::strchr(*entry, '=');
    if (equals == nullptr) continue;
    env.emplace_back(std::string(*entry, static_cast<size_t>(equals - *entry)),
                     std::string(equals + 1));
  }
  return env;
}

std::string config_help_text() {
  std::string text = "Remora configuration (environment variables):\n";
  for (const auto& spec : config_registry()) {
    text += format("\n  %s  [%s: %s]  default: %s\n      %s\n", spec.name, kind_name(spec.kind),
                   allowed_values(spec).c_str(),
                   spec.default_value[0] ? spec.default_value : "(empty)", spec.doc);
  }
  return text;
}

std::string config_markdown() {
  std::string text =
      "# Configuration\n\n"
      "Remora reads these environment variables at `remora_init`. This page is generated from\n"
      "`src/core/config_vars.def` by `remorarun --help-config=markdown`; a test keeps it in\n"
      "sync. Unknown `REMORA_*` variables draw a warning; a malformed value makes `remora_init`\n"
      "fail with `REMORA_ERR_CONFIG` and a message naming the variable.\n\n"
      "| variable | type | allowed | default | area | meaning |\n"
      "|---|---|---|---|---|---|\n";
  for (const auto& spec : config_registry()) {
    text += format("| `%s` | %s | %s | `%s` | %s | %s |\n", spec.name, kind_name(spec.kind),
                   allowed_values(spec).c_str(), spec.default_value, spec.category, spec.doc);
  }
  return text;
}

}  // namespace remora
