#pragma once
// The tessera-cli commands. Each lives in its own Cmd*.cpp and is listed in
// main.cpp; a new command (diff, export) adds a file and one line there.
#include "Args.h"

#include <functional>
#include <string>
#include <vector>

namespace tessera::cli {

struct Command {
    CommandSpec spec;
    std::function<int(const ParsedArgs&)> run; // returns an exit code; may throw
};

Command workloadsCommand();
Command captureCommand();
Command summaryCommand();
Command diffCommand();
Command exportCommand();
Command debugCommand();

// Writes "tessera-cli: error: <message>" as one line on stderr.
void printError(const std::string& message);

} // namespace tessera::cli
