// Programs as libpva has them: a program tree built by hand here, walked with
// a ProgramVisitor whose visitXxx methods take the per-type classes; each
// loop iteration's executions in execution().steps(); and blocks of loops
// nested in loops (each execution of the inner loop is its own block).
//
//   visitor tree|steps|blocks REPORT   reads the report written by
//   visitor                           running the program (autoReport)
//
// Hand-derived (expected_visitor.txt): 4 tiles; "twice" and "again" have one
// Twice vertex per tile costing 100 (t + 1) thread cycles, so 600 (t + 1)
// tile cycles and a step of 150 (sync) + 2400 = 2550 cycles. Block flushes
// (implicitFlush, the default) end the body of each Repeat whose body holds
// an instrumented program outside a nested loop: "inner loop" (holds
// "again"), "outer loop" (holds "inner loop"), "nested outer" (holds "nested
// inner"), not "nested inner" ("nested step" is not instrumented); each is a
// Sync of 150 cycles. So "inner loop" on tile 0 is 2550 + 150 + 2550 + 150 +
// 600 = 6000 cycles, on tile 3 5400 + 2400 = 7800; "nested inner" 2550 + 600
// = 3150 and 2550 + 2400 = 4950.
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <pva/pva.hpp>

#include <iostream>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

// Prints each program met, indented by depth, with what its class adds.
class TreePrinter : public pva::ProgramVisitor {
public:
    void visitSequence(const pva::SequenceProgram& p) override { line("Sequence", p); }
    void visitRepeat(const pva::RepeatProgram& p) override { line("Repeat", p); }
    void visitBlock(const pva::BlockProgram& p) override { line("Block", p); }
    void visitOnTileExecute(const pva::OnTileExecuteProgram& p) override {
        line("OnTileExecute", p, " computeSet=" + p.computeSet().name());
    }
    void visitDoExchange(const pva::DoExchangeProgram& p) override { line("DoExchange", p); }
    void visitStreamCopyBegin(const pva::StreamCopyBeginProgram& p) override {
        line("StreamCopyBegin", p);
    }
    void visitStreamCopyMid(const pva::StreamCopyMidProgram& p) override {
        line("StreamCopyMid", p);
    }
    void visitStreamCopyEnd(const pva::StreamCopyEndProgram& p) override {
        line("StreamCopyEnd", p);
    }
    void visitSync(const pva::SyncProgram& p) override { line("Sync", p); }
    void visitProgram(const pva::Program& p) override { line("other", p); }

private:
    void line(const char* visited, const pva::Program& p, const std::string& extra = "") {
        std::cout << std::string(2 * depth_, ' ') << visited << " '" << p.name() << "'" << extra
                  << "\n";
        ++depth_;
        for (const auto& child : p.children()) {
            child->accept(*this);
        }
        --depth_;
    }
    unsigned depth_ = 0;
};

int capture() {
    IPUModel model;
    model.tilesPerIPU = 4;
    Device device = model.createDevice();
    Graph graph(device.getTarget());
    graph.addCodelets("pipeline_codelets.cpp");
    Tensor x = graph.addVariable(FLOAT, {8}, "x");
    Tensor y = graph.addVariable(FLOAT, {8}, "y");
    ComputeSet twice = graph.addComputeSet("twice");
    ComputeSet again = graph.addComputeSet("again");
    for (unsigned tile = 0; tile < 4; ++tile) {
        graph.setTileMapping(x.slice(2 * tile, 2 * tile + 2), tile);
        graph.setTileMapping(y.slice(2 * tile, 2 * tile + 2), (tile + 1) % 4);
        for (ComputeSet cs : {twice, again}) {
            VertexRef v = graph.addVertex(cs, "Twice", {{"x", x.slice(2 * tile, 2 * tile + 2)}});
            graph.setTileMapping(v, tile);
            graph.setPerfEstimate(v, 100 * (tile + 1));
        }
    }
    DataStream in = graph.addHostToDeviceFIFO("in", FLOAT, 8);
    DataStream out = graph.addDeviceToHostFIFO("out", FLOAT, 8);

    Sequence prog{
        Copy(in, x, false, "load"),
        Repeat(2, Sequence{Execute(twice, "outer step"), Repeat(3, Execute(again), "inner loop")},
               "outer loop"),
        Repeat(2, Repeat(2, Execute(again, "nested step"), "nested inner"), "nested outer"),
        Block(Copy(x, y, false, "move"), "tail"),
        Copy(y, out, false, "save"),
    };
    Engine engine(graph, prog,
                  OptionFlags{{"debug.name", "visitor"},
                              {"profiler.programs.filter", "inner loop|nested inner|again"}});
    engine.load(device);
    std::vector<float> input(8, 1), output(8);
    engine.connectStream("in", input.data());
    engine.connectStream("out", output.data());
    engine.run(0);
    // 2 x 4 (outer loop) + 2 x 2 (nested) doublings of 1
    std::cout << "output: " << output[0] << "\n";
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    if (argc == 1) {
        return capture();
    }
    if (argc != 3) {
        std::cerr << "usage: visitor [tree|steps|blocks REPORT]\n";
        return 2;
    }
    const std::string what = argv[1];
    pva::Report report = pva::openReport(argv[2]);
    if (what == "tree") {
        TreePrinter printer;
        report.compilation().controlPrograms().at(0)->accept(printer);
    } else if (what == "steps") {
        for (const pva::ExecutionStep& step : report.execution().steps()) {
            std::cout << pva::typeName(step.program()->type()) << " '" << step.program()->name()
                      << "': " << step.cycles() << "\n";
        }
    } else {
        for (unsigned tile : {0u, 3u}) {
            for (const pva::Block& block : report.execution().blocks(tile)) {
                std::cout << "tile " << tile << " " << block.program()->name() << ": "
                          << block.cyclesTo() - block.cyclesFrom() << "\n";
            }
        }
    }
    return 0;
}
