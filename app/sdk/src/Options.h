#pragma once
// Engine options: OptionFlags merged with POPLAR_ENGINE_OPTIONS (JSON).
#include <poplar/OptionFlags.hpp>

#include <string>
#include <utility>
#include <vector>

namespace poplar::detail {

struct EngineConfig {
    bool allowOutOfMemory = false;
    bool instrument = false;
    bool report = false; // autoReport.all / outputGraphProfile / outputExecutionProfile
    std::string reportDirectory = "."; // autoReport.directory
    // The engine's name (option debug.name): autoReport writes into a
    // subdirectory of that name, as Poplar does for a named engine.
    std::string name;
    // Lightweight profiling (profiler.blocks.filter, profiler.programs.filter,
    // profiler.blocks.implicitFlush, profiler.blocks.bufferSize,
    // debug.instrumentExternalExchange) as given, validated; stored with the
    // report for libpva's blocks (docs/libpva.md).
    std::vector<std::pair<std::string, std::string>> profilerOptions;
};

// The options given in code, then those in $POPLAR_ENGINE_OPTIONS (which win).
// Throws invalid_option for a malformed value or JSON.
EngineConfig engineConfig(const OptionFlags& options);

// A flat JSON object {"key": "value" | true | false | number, ...} as flags.
OptionFlags parseJsonOptions(const std::string& json, const std::string& origin);

} // namespace poplar::detail
