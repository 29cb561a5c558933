// Checks, before any rank is started, that the program can be executed, so that a typo gives
// one message instead of one per rank.
#pragma once

#include <string>

namespace remorarun {

// Looks program up as execvp would (PATH search unless it contains a '/'). Returns 0 if an
// executable file was found, else the errno execvp would report (ENOENT, EACCES, ...).
int check_program(const std::string& program);

}  // namespace remorarun
