#pragma once
// The workload library: realistic programs with parameters, each checking its
// device result against an independent host computation. Used by the CLI,
// the demo, the debugger and the tests.
#include "engine/graph/Graph.h"
#include "engine/program/Program.h"
#include "engine/runtime/Engine.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace tessera::workloads {

struct Parameter {
    std::string name;
    std::string defaultValue;
    std::string description;
};

struct Verification {
    bool passed = false;
    double maxAbsError = 0;
    std::string detail;
};

// Parameter values by name, checked against a workload's declared parameters.
class Parameters {
public:
    Parameters() = default;
    Parameters(const std::vector<Parameter>& declared,
               const std::map<std::string, std::string>& given);
    std::size_t getSize(const std::string& name) const; // throws Error naming the parameter
    double getDouble(const std::string& name) const;
    Type getType(const std::string& name) const;
    const std::string& get(const std::string& name) const;
    const std::map<std::string, std::string>& values() const { return values_; }

private:
    std::map<std::string, std::string> values_;
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
};

const std::vector<const Workload*>& all();
const Workload& find(const std::string& name); // throws Error listing the known names

struct RunResult {
    Verification verification;
    std::uint64_t cycles = 0;
    std::uint64_t steps = 0;
};

// Builds, compiles, runs and verifies a workload; records through
// options.recorder (including the verification).
RunResult run(const Workload& workload, const Target& target,
              const std::map<std::string, std::string>& params, const EngineOptions& options);

} // namespace tessera::workloads
