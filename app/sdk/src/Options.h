#pragma once
// Engine options: OptionFlags merged with POPLAR_ENGINE_OPTIONS (JSON).
#include <poplar/OptionFlags.hpp>

#include <string>

namespace poplar::detail {

struct EngineConfig {
    bool allowOutOfMemory = false;
    bool instrument = false;
    bool report = false; // autoReport.all / outputGraphProfile / outputExecutionProfile
    std::string reportDirectory = "."; // autoReport.directory
};

// The options given in code, then those in $POPLAR_ENGINE_OPTIONS (which win).
// Throws invalid_option for a malformed value or JSON.
EngineConfig engineConfig(const OptionFlags& options);

// A flat JSON object {"key": "value" | true | false | number, ...} as flags.
OptionFlags parseJsonOptions(const std::string& json, const std::string& origin);

} // namespace poplar::detail
