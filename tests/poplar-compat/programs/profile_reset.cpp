// resetExecutionProfile retracts the runs before it from everything that
// reports them: the autoReport file (read back by the test with tessera-cli
// summary --json), getReport() and printProfileSummary; disable/enable-
// ExecutionProfiling bracket what is recorded after it.
//   program 0: two copies (2 steps); program 1: one copy (1 step).
//   run 0, run 0, run 1   recorded, then retracted by the reset
//   run 0                 profiling disabled: not recorded
//   run 1, run 0          recorded: 2 runs, 1 + 2 = 3 steps
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

#include <iostream>
#include <sstream>
#include <string>

using namespace poplar;
using namespace poplar::program;

namespace {

// "<label>: value" from the profile summary's Execution section.
std::string valueOf(const std::string& summary, const std::string& label) {
    std::istringstream lines(summary);
    std::string line;
    while (std::getline(lines, line)) {
        const std::size_t at = line.find(label);
        if (at != std::string::npos) {
            const std::size_t value = line.find_first_not_of(" :", at + label.size());
            return value == std::string::npos ? "" : line.substr(value);
        }
    }
    return "(missing)";
}

std::string runsOf(Engine& engine) {
    std::ostringstream s;
    engine.printProfileSummary(s);
    return "summary runs " + valueOf(s.str(), "Programs run") + ", steps " +
           valueOf(s.str(), "Steps executed");
}

} // namespace

int main() {
    IPUModel model;
    model.tilesPerIPU = 4;
    Device device = model.createDevice();
    Graph graph(device.getTarget());
    Tensor c = graph.addConstant<int>(INT, {4}, {1, 2, 3, 4});
    Tensor v = graph.addVariable(INT, {4}, "v");
    Tensor w = graph.addVariable(INT, {4}, "w");
    graph.setTileMapping(c, 0);
    graph.setTileMapping(v, 1);
    graph.setTileMapping(w, 2);
    Engine engine(graph, {Sequence({Copy(c, v), Copy(v, w)}), Sequence({Copy(c, w)})});
    engine.load(device);

    engine.run(0);
    engine.run(0);
    engine.run(1);
    std::cout << "before the reset: " << runsOf(engine) << "\n";
    std::cout << "getReport runs before the reset: " << engine.getReport().execution().runs().size()
              << "\n";
    engine.resetExecutionProfile();
    std::cout << "after the reset: " << runsOf(engine) << "\n";
    std::cout << "getReport runs after the reset: " << engine.getReport().execution().runs().size()
              << "\n";
    engine.disableExecutionProfiling();
    engine.run(0);
    engine.enableExecutionProfiling();
    engine.run(1);
    engine.run(0);
    std::cout << "at the end: " << runsOf(engine) << "\n";
    std::cout << "getReport runs at the end: " << engine.getReport().execution().runs().size()
              << "\n";
    return 0;
}
