#include "WorkloadOptions.h"

#include "engine/workloads/Plugin.h"

namespace tessera::cli {

void loadPlugins(const ParsedArgs& args) {
    for (const std::string& path : args.values("--plugin")) {
        workloads::loadPlugin(path); // throws a one-line Error
    }
}

std::vector<OptionSpec> workloadOptionSpecs() {
    return {
        {"--target", "", "NAME",
         std::string("mk1, mk2, bow or tiles:N, N from 1 to 8192 (default ") + kDefaultTarget +
             ")"},
        {"--set", "", "NAME=VALUE",
         "workload parameter, in its range ('tessera-cli workloads' lists them)", true},
        {"--target-param", "", "KEY=VALUE",
         "override a target parameter, e.g. clockHz=1e9 (docs/engine.md lists them and their "
         "ranges)",
         true},
        {"--threads", "", "N", "engine threads, 0 to 1024 (default 0: one per core)"},
        {"--plugin", "", "LIB.so", "load workloads from a plugin (docs/debugger.md)", true},
    };
}

WorkloadChoice chooseWorkload(const ParsedArgs& args, bool allowOutOfMemory) {
    WorkloadChoice choice;
    loadPlugins(args);
    choice.workload = &workloads::find(args.positionals.front());
    for (const std::string& text : args.values("--set")) {
        auto [key, value] = splitAssignment(text, "--set");
        choice.given[key] = value;
    }
    choice.params = workloads::Parameters(choice.workload->parameters(), choice.given);
    choice.target = Target::preset(args.value("--target", kDefaultTarget));
    for (const std::string& text : args.values("--target-param")) {
        const auto [key, value] = splitAssignment(text, "--target-param");
        choice.target.set(key, value);
    }
    choice.target.validate();
    choice.threads =
        static_cast<unsigned>(parseCount("--threads", args.value("--threads", "0"), 0, 1024));
    workloads::checkFits(*choice.workload, choice.params, choice.target, allowOutOfMemory);
    return choice;
}

} // namespace tessera::cli
