// Lightweight profiling without Block programs, as in Graphcore's tutorial:
// profiler.programs.filter instruments the Execute of the compute set
// "twice" (run 5 times); with profiler.blocks.implicitFlush false and a
// 48-byte buffer (3 blocks of 16 bytes) the last two are dropped and one
// overflow block covers them. A bad regular expression is refused.
//
// Hand-derived: 4 tiles, the vertex on tile t costs 100 (t + 1) thread
// cycles, so 600 (t + 1) tile cycles; a step is 150 (ipuSyncCycles) + 2400
// (the slowest tile) = 2550 cycles. Tile 0's blocks are 600 long; the
// overflow block runs from the 4th block's start to the 5th's end:
// 2550 + 600 = 3150 cycles.
//
// Block flushes (implicitFlush on, the default): Repeat(2, five Executes of
// "twice") with the same 48-byte buffer and debug.instrumentExternalExchange.
// The Repeat's body holds the instrumented Executes, so a flush (a Sync of
// ipuSyncCycles = 150 cycles) ends each iteration: per iteration tile 0
// records 3 blocks of 600, drops the 4th and 5th (an overflow block of
// 2550 + 600 = 3150), then the flush empties the buffer: 2 x (3 blocks, 1
// overflow, 1 flush), the flushes starting at the end of the 5th and 10th
// Executes (cycles 5 x 2550 and 10 x 2550 + 150 after the run's start).
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <pva/pva.hpp>

#include <cstdint>
#include <iostream>

using namespace poplar;
using namespace poplar::program;

int main() {
    IPUModel model;
    model.tilesPerIPU = 4;
    Device device = model.createDevice();
    Graph graph(device.getTarget());
    graph.addCodelets("pipeline_codelets.cpp");
    Tensor x = graph.addVariable(FLOAT, {8}, "x");
    ComputeSet cs = graph.addComputeSet("twice");
    for (unsigned tile = 0; tile < 4; ++tile) {
        graph.setTileMapping(x.slice(2 * tile, 2 * tile + 2), tile);
        VertexRef v = graph.addVertex(cs, "Twice", {{"x", x.slice(2 * tile, 2 * tile + 2)}});
        graph.setTileMapping(v, tile);
        graph.setPerfEstimate(v, 100 * (tile + 1));
    }
    Sequence prog{Repeat(5, Execute(cs))};

    try {
        Engine bad(graph, prog, OptionFlags{{"profiler.programs.filter", "twi(ce"}});
        std::cout << "a bad regular expression was accepted\n";
    } catch (const invalid_option& e) {
        std::cout << "invalid_option: "
                  << (std::string(e.what()).find("profiler.programs.filter") != std::string::npos
                          ? "names the option"
                          : e.what())
                  << "\n";
    }

    pva::Report report = [&] {
        Engine engine(graph, prog,
                      OptionFlags{{"profiler.programs.filter", "twice"},
                                  {"profiler.blocks.implicitFlush", "false"},
                                  {"profiler.blocks.bufferSize", "48"}});
        engine.load(device);
        engine.run(0);
        return engine.getReport();
    }();
    unsigned common = 0, overflows = 0, flushes = 0, streamCopies = 0;
    for (const pva::Block& block : report.execution().blocks(0)) {
        if (block.isCommon()) {
            ++common;
            std::cout << block.program()->name() << ": " << block.cyclesTo() - block.cyclesFrom()
                      << "\n";
        } else if (block.isOverflow()) {
            ++overflows;
            std::cout << "overflow: " << block.cyclesTo() - block.cyclesFrom() << "\n";
        } else if (block.isBlockFlush()) {
            ++flushes;
        } else if (block.isStreamCopy()) {
            ++streamCopies;
        }
    }
    std::cout << "numCommonBlocks: " << common << "\nnumOverflows: " << overflows
              << "\nnumFlushes: " << flushes << "\nnumStreamCopies: " << streamCopies << "\n";

    {
        Sequence body;
        for (int i = 0; i < 5; ++i) {
            body.add(Execute(cs));
        }
        Engine flushing(graph, Sequence{Repeat(2, body)},
                        OptionFlags{{"profiler.programs.filter", "twice"},
                                    {"profiler.blocks.bufferSize", "48"},
                                    {"debug.instrumentExternalExchange", "true"}});
        flushing.load(device);
        flushing.run(0);
        pva::Report flushed = flushing.getReport();
        const std::uint64_t start = flushed.execution().runs().at(0).cyclesFrom();
        for (const pva::Block& block : flushed.execution().blocks(0)) {
            const char* kind = block.isCommon()       ? "common"
                               : block.isOverflow()   ? "overflow"
                               : block.isBlockFlush() ? "flush"
                                                      : "other";
            std::cout << "flushing: " << kind << " " << block.cyclesTo() - block.cyclesFrom();
            if (block.isBlockFlush()) {
                std::cout << " at " << block.cyclesFrom() - start << " (" << block.program()->name()
                          << ")";
            }
            std::cout << "\n";
        }
    }

    // Flushes (the default) end each iteration: every block is kept.
    Engine engine(graph, prog, OptionFlags{{"profiler.programs.filter", "twice"}});
    engine.run(0);
    std::cout << "with implicitFlush: " << engine.getReport().execution().blocks(3).size()
              << " blocks on tile 3, the first "
              << engine.getReport().execution().blocks(3).at(0).cyclesTo() -
                     engine.getReport().execution().blocks(3).at(0).cyclesFrom()
              << " cycles\n";
    std::cout << "without execution: " << engine.getReport(false).execution().steps().size()
              << " steps, " << engine.getReport(false).compilation().target().numTiles()
              << " tiles\n";
    return 0;
}
