#include "WorkloadOptions.h"

#include "engine/workloads/Plugin.h"

namespace tessera::cli {

namespace {

unsigned parseThreads(const std::string& text) {
    try {
        std::size_t used = 0;
        const unsigned long n = std::stoul(text, &used);
        if (used == text.size() && n <= 1024) {
            return static_cast<unsigned>(n);
        }
    } catch (const std::exception&) {
    }
    throw UsageError("option '--threads' expects a number from 0 to 1024, not '" + text + "'");
}

} // namespace

void loadPlugins(const ParsedArgs& args) {
    for (const std::string& path : args.values("--plugin")) {
        workloads::loadPlugin(path); // throws a one-line Error
    }
}

std::vector<OptionSpec> workloadOptionSpecs() {
    return {
        {"--target", "", "NAME",
         std::string("mk1, mk2, bow or tiles:N (default ") + kDefaultTarget + ")"},
        {"--set", "", "NAME=VALUE", "workload parameter", true},
        {"--target-param", "", "KEY=VALUE", "override a target parameter, e.g. clockHz=1e9", true},
        {"--threads", "", "N", "engine threads (default 0: one per core)"},
        {"--plugin", "", "LIB.so", "load workloads from a plugin (docs/debugger.md)", true},
    };
}

WorkloadChoice chooseWorkload(const ParsedArgs& args) {
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
    choice.threads = parseThreads(args.value("--threads", "0"));
    return choice;
}

} // namespace tessera::cli
