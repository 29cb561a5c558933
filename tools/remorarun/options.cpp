#include "options.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "remora/version.h"

namespace remorarun {
namespace {

bool parse_ranks(const std::string& text, int* out) {
  if (text.empty() || text[0] < '0' || text[0] > '9') return false;  // no sign, no spaces
  char* end = nullptr;
  errno = 0;
  const long value = std::strtol(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || value < 1 || value > kMaxRanks) return false;
  *out = static_cast<int>(value);
  return true;
}

bool parse_seconds(const std::string& text, double* out) {
  if (text.empty()) return false;
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(text.c_str(), &end);
  if (errno != 0 || *end != '\0' || !std::isfinite(value) || value <= 0) return false;
  // Longer than a year is certainly a typo, and keeps the deadline arithmetic far from overflow.
  if (value > 366.0 * 24 * 3600) return false;
  *out = value;
  return true;
}

// Matches "--name value" and "--name=value"; advances *index past the value.
bool option_value(const std::string& name, int argc, char** argv, int* index, std::string* value,
                  bool* missing) {
  const std::string argument = argv[*index];
  if (argument == name) {
    if (*index + 1 >= argc) {
      *missing = true;
      return true;
    }
    *value = argv[++*index];
    return true;
  }
  if (argument.rfind(name + "=", 0) == 0) {
    *value = argument.substr(name.size() + 1);
    return true;
  }
  return false;
}

}  // namespace

std::string usage_text() {
  return "usage: remorarun -n N [--tag-output] [--timeout SECONDS] [--bind-to auto|core|none] "
         "[--]\n"
         "                 program [args...]\n"
         "       remorarun --help | --version | --help-config[=text|markdown]\n"
         "\n"
         "Starts N ranks of program on this node and waits for them.\n"
         "\n"
         "  -n, --np N           number of ranks, 1.." +
         std::to_string(kMaxRanks) +
         "\n"
         "  --tag-output         prefix every line a rank writes with \"[rank] \"\n"
         "  --timeout SECONDS    stop the job after SECONDS (fractions allowed); exit 124\n"
         "  --bind-to WHAT       core: bind rank r to the r-th CPU remorarun may run on; none:\n"
         "                       leave the ranks unbound; auto (default): core when the ranks\n"
         "                       fit on those CPUs one each and REMORA_PROGRESS is unset or\n"
         "                       manual (the ranks are then told REMORA_OVERSUBSCRIBED=no unless\n"
         "                       it is set), else none\n"
         "  --                   end of options: the next argument is the program\n"
         "  -h, --help           print this text\n"
         "  --version            print Remora's version and the MPI it was built with\n"
         "  --help-config        print the REMORA_* configuration variables\n"
         "  --help-config=text   the same\n"
         "  --help-config=markdown  the same as a Markdown table (docs/configuration.md)\n"
         "\n"
         "-n N, -nN, --np N and --np=N are the same; --timeout=SECONDS also works. Under an MPI\n"
         "launcher (mpiexec, srun) a program runs without remorarun.\n"
         "\n"
         "Exit status: 0 when every rank exits 0; otherwise the exit code of the first rank\n"
         "that died abnormally (128+signal if killed by a signal, 1 if it exited 0 without\n"
         "remora_finalize), 124 on --timeout, 128+signal when remorarun itself is signalled,\n"
         "2 for a usage error, 127 when the program cannot be executed.\n";
}

std::string version_text() {
  std::string text = "remorarun (Remora) " REMORA_VERSION_STRING "\n";
#ifdef REMORARUN_MPI
  text += "MPI transport: " REMORARUN_MPI "\n";
#else
  text += "MPI transport: not built (one node only)\n";
#endif
  return text;
}

bool parse_options(int argc, char** argv, Options* options, std::string* error) {
  if (argc == 2 && argv[1] == std::string(kGhostOption)) {  // started by a launcher, alone
    options->ghost = true;
    return true;
  }
  bool have_ranks = false;
  int index = 1;
  for (; index < argc; ++index) {
    const std::string argument = argv[index];
    if (argument == "--") {
      ++index;
      break;
    }
    if (argument.empty() || argument[0] != '-') break;  // the program

    std::string value;
    bool missing = false;
    if (argument == "-n" || argument == "--np" || argument.rfind("--np=", 0) == 0 ||
        (argument.rfind("-n", 0) == 0 && argument.size() > 2 && argument[2] != '-')) {
      // -n N, -nN, --np N, --np=N
      if (argument == "-n" || argument == "--np") {
        if (index + 1 >= argc) {
          *error = "option '" + argument + "' needs a value";
          return false;
        }
        value = argv[++index];
      } else if (argument[1] == 'n') {
        value = argument.substr(2);
      } else {
        value = argument.substr(5);
      }
      if (!parse_ranks(value, &options->nranks)) {
        *error = "-n '" + value + "': expected a whole number of ranks in 1.." +
                 std::to_string(kMaxRanks);
        return false;
      }
      have_ranks = true;
    } else if (argument == "--tag-output") {
      options->tag_output = true;
    } else if (option_value("--timeout", argc, argv, &index, &value, &missing)) {
      if (missing) {
        *error = "option '--timeout' needs a value";
        return false;
      }
      if (!parse_seconds(value, &options->timeout_seconds)) {
        *error = "--timeout '" + value + "': expected a positive number of seconds";
        return false;
      }
      options->timeout_text = value;
    } else if (option_value("--bind-to", argc, argv, &index, &value, &missing)) {
      if (missing) {
        *error = "option '--bind-to' needs a value";
        return false;
      }
      if (value == "auto") {
        options->binding = Binding::Auto;
      } else if (value == "core") {
        options->binding = Binding::Core;
      } else if (value == "none") {
        options->binding = Binding::None;
      } else {
        *error = "--bind-to '" + value + "': expected auto, core or none";
        return false;
      }
    } else if (argument == "--help" || argument == "-h") {
      options->help = true;
    } else if (argument == "--version") {
      options->version = true;
    } else if (argument == "--help-config") {
      options->help_config = HelpConfig::Text;
    } else if (argument.rfind("--help-config=", 0) == 0) {
      const std::string format = argument.substr(std::strlen("--help-config="));
      if (format == "markdown") {
        options->help_config = HelpConfig::Markdown;
      } else if (format == "text") {
        options->help_config = HelpConfig::Text;
      } else {
        *error = "--help-config='" + format + "': expected 'markdown' or 'text'";
        return false;
      }
    } else {
      *error = "unknown option '" + argument + "'";
      return false;
    }
  }
  // Help needs neither -n nor a program.
  if (options->help || options->version || options->help_config != HelpConfig::None) return true;

  for (; index < argc; ++index) options->command.emplace_back(argv[index]);
  if (!have_ranks) {
    *error = "missing -n N (the number of ranks)";
    return false;
  }
  if (options->command.empty()) {
    *error = "missing the program to run";
    return false;
  }
  return true;
}

}  // namespace remorarun
