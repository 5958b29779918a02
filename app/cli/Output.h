#pragma once
// What a command prints as its result goes through these, so a write that
// fails (a full disk, a closed file) is remembered with its reason and main()
// fails the command instead of exiting 0 with the output lost.
#include <string>

namespace tessera::cli {

void print(const char* format, ...) __attribute__((format(printf, 1, 2)));
void printText(const std::string& text);
// Flushes standard output. 0 when everything printed reached it, else the
// errno of the first failure (-1 when the C library did not say why).
int flushStandardOutput();

} // namespace tessera::cli
