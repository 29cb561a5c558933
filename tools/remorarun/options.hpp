// Command-line options of remorarun.
#pragma once

#include <string>
#include <vector>

namespace remorarun {

constexpr int kMaxRanks = 4096;

enum class HelpConfig { None, Text, Markdown };

// --bind-to: auto binds rank r to the r-th CPU of remorarun's affinity mask when the ranks fit
// on those CPUs one each and each rank is one runnable thread (REMORA_PROGRESS unset or manual);
// core always binds so (ranks beyond the CPUs wrap around); none never binds.
enum class Binding { Auto, Core, None };

// The internal option with which remorarun starts itself as a job's ghost process.
constexpr const char* kGhostOption = "--ghost-process";

struct Options {
  int nranks = 0;
  bool tag_output = false;
  Binding binding = Binding::Auto;
  double timeout_seconds = 0;  // 0: no timeout
  std::string timeout_text;    // as given, for messages
  bool help = false;
  bool version = false;
  HelpConfig help_config = HelpConfig::None;
  bool ghost = false;  // internal: run as the job's ghost process (REMORA_PROGRESS=ghost)
  std::vector<std::string> command;  // program and its arguments
};

// Parses argv. Returns true on success; on failure *error names the bad argument.
// Options end at the first argument that is not an option (the program) or at "--".
bool parse_options(int argc, char** argv, Options* options, std::string* error);

// The usage text printed by --help and after an argument error.
std::string usage_text();

// The text printed by --version: Remora's version and the MPI the library was built with.
std::string version_text();

}  // namespace remorarun
