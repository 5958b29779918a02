#pragma once
// The options that choose and set up a workload run, shared by `capture` and
// `debug`: WORKLOAD, --target, --set, --target-param, --threads, --plugin.
#include "Args.h"
#include "engine/target/Target.h"
#include "engine/workloads/Workload.h"

#include <map>
#include <string>
#include <vector>

namespace tessera::cli {

struct WorkloadChoice {
    const workloads::Workload* workload = nullptr;
    workloads::Parameters params;
    std::map<std::string, std::string> given;
    Target target;
    unsigned threads = 0;
};

inline constexpr const char* kDefaultTarget = "mk2";

// Loads every --plugin LIB.so given (throws tessera::Error naming the problem).
void loadPlugins(const ParsedArgs& args);
// The option specs for a command's --help.
std::vector<OptionSpec> workloadOptionSpecs();
// Checks everything the user typed before the engine starts: the workload,
// each parameter against its range, the target's parameters against theirs,
// and that the program can fit the target (workloads::checkFits; with
// allowOutOfMemory only the host limit). Throws tessera::Error naming what is
// wrong, or UsageError.
WorkloadChoice chooseWorkload(const ParsedArgs& args, bool allowOutOfMemory);

} // namespace tessera::cli
