#pragma once
// The workload library: realistic programs with parameters, each checking its
// device result against an independent host computation. Used by the CLI,
// the demo, the debugger and the tests.
#include "engine/graph/Graph.h"
#include "engine/program/Program.h"
#include "engine/runtime/Engine.h"
#include "engine/workloads/Parameters.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace tessera::workloads {

struct Verification {
    bool passed = false;
    double maxAbsError = 0;
    std::string detail;
};

// A workload built into a graph: its programs, how to feed it and check it.
struct Built {
    std::vector<program::Program> programs;
    std::vector<unsigned> runOrder{0};           // engine.run(i) calls, in order
    std::function<void(Engine&)> setUp;          // writes inputs
    std::function<Verification(Engine&)> verify; // compares with the host reference
};

class Workload {
public:
    virtual ~Workload() = default;
    virtual std::string name() const = 0;
    virtual std::string description() const = 0;
    virtual std::vector<Parameter> parameters() const = 0;
    virtual Built build(Graph& graph, const Parameters& params) const = 0;
    // A lower bound of the tile memory (bytes, all tiles together) the
    // program needs at some point, e.g. its inputs and outputs, which are
    // always live; 0 when the workload cannot say. Cheap: it is computed from
    // the parameters before anything is built (checkFits).
    virtual std::uint64_t minimumTileMemory(const Parameters& params, const Target& target) const;
};

const std::vector<const Workload*>& all();
const Workload& find(const std::string& name); // throws Error listing the known names

// The most tile memory a workload may need, whatever the target: the engine
// holds every tile's memory in host memory (with the inputs, references and
// stores, about three times as much). An mk2 or Bow IPU holds 897 MiB, so
// anything that fits one passes.
inline constexpr std::uint64_t kMaxWorkloadTileMemory = std::uint64_t{1} << 30;

// Refuses a workload that cannot fit before anything is built: throws Error
// when its minimumTileMemory() exceeds what the target's tiles hold
// together (unless allowOutOfMemory: then it is built, and the compiled
// layout records the overflow) or kMaxWorkloadTileMemory (always).
void checkFits(const Workload& workload, const Parameters& params, const Target& target,
               bool allowOutOfMemory);

// "1.5 GiB", "624 KiB", "512 bytes".
std::string formatBytes(std::uint64_t bytes);

struct RunResult {
    Verification verification;
    std::uint64_t cycles = 0;
    std::uint64_t steps = 0;
};

// Checks the parameters and that the program can fit (checkFits), then
// builds, compiles, runs and verifies the workload; records through
// options.recorder (including the verification).
RunResult run(const Workload& workload, const Target& target,
              const std::map<std::string, std::string>& params, const EngineOptions& options);

} // namespace tessera::workloads
