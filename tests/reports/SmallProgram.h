#pragma once
// A small real program for report tests, built with the engine API: per-tile
// adds repeated many times (uneven work per tile so groups differ), a copy
// that exchanges between tiles, and a reduction to one tile.
#include "engine/graph/Graph.h"
#include "engine/program/Program.h"
#include "engine/record/Recorder.h"
#include "engine/runtime/Engine.h"
#include "engine/target/Target.h"

#include <string>
#include <vector>

namespace tessera::testing {

// Sends every record to each recorder in turn.
class TeeRecorder : public record::Recorder {
public:
    TeeRecorder(record::Recorder& a, record::Recorder& b)
        : a_(a)
        , b_(b) {}
    void onCompiled(const record::CompiledRecord& r) override {
        a_.onCompiled(r);
        b_.onCompiled(r);
    }
    void onRunBegin(const record::RunBeginRecord& r) override {
        a_.onRunBegin(r);
        b_.onRunBegin(r);
    }
    void onStep(const record::StepExecutionRecord& r) override {
        a_.onStep(r);
        b_.onStep(r);
    }
    void onRunEnd(const record::RunEndRecord& r) override {
        a_.onRunEnd(r);
        b_.onRunEnd(r);
    }
    void onVerification(const record::VerificationRecord& r) override {
        a_.onVerification(r);
        b_.onVerification(r);
    }

private:
    record::Recorder& a_;
    record::Recorder& b_;
};

struct SmallProgram {
    unsigned tiles = 6;
    std::size_t repeats = 150;
    unsigned runs = 2;

    // Builds, runs (`runs` times) and records; returns the sum computed on tile 0.
    float run(record::Recorder& recorder) const {
        Graph graph(Target::preset("tiles:" + std::to_string(tiles)));
        std::vector<std::size_t> sizes;
        std::size_t total = 0;
        for (unsigned t = 0; t < tiles; ++t) {
            sizes.push_back(8 * (t + 1)); // tile t does t+1 times the work of tile 0
            total += sizes.back();
        }
        Tensor a = graph.addVariable(Type::Float, {total}, "a");
        Tensor b = graph.addVariable(Type::Float, {total}, "b");
        Tensor c = graph.addVariable(Type::Float, {total}, "c");
        Tensor d = graph.addVariable(Type::Float, {total}, "d");
        Tensor sum = graph.addVariable(Type::Float, {}, "sum");
        graph.setTileMapping(sum, TileId{0u});
        ComputeSet add = graph.addComputeSet("add");
        std::size_t begin = 0;
        for (unsigned t = 0; t < tiles; ++t) {
            const std::size_t end = begin + sizes[t];
            graph.setTileMapping(a.slice(begin, end), record::idAt<TileId>(t));
            graph.setTileMapping(b.slice(begin, end), record::idAt<TileId>(t));
            graph.setTileMapping(c.slice(begin, end), record::idAt<TileId>(t));
            // d lives one tile over, so the copy exchanges.
            graph.setTileMapping(d.slice(begin, end), record::idAt<TileId>((t + 1) % tiles));
            auto v = graph.addVertex(add, "Add<float>",
                                     {{"in1", a.slice(begin, end)},
                                      {"in2", b.slice(begin, end)},
                                      {"out", c.slice(begin, end)}});
            graph.setTileMapping(v, record::idAt<TileId>(t));
            begin = end;
        }
        ComputeSet reduce = graph.addComputeSet("reduce");
        auto r = graph.addVertex(reduce, "ReduceAdd<float>", {{"in", d}, {"out", sum}});
        graph.setTileMapping(r, TileId{0u});
        graph.setInitialValue(a, 1.0);
        graph.setInitialValue(b, 2.0);

        program::Sequence body({program::Repeat(repeats, program::Execute(add, "add step")),
                                program::Copy(c, d, "shift"),
                                program::Execute(reduce, "reduce step")},
                               "main");
        EngineOptions options;
        options.threads = 2;
        options.recorder = &recorder;
        Engine engine(graph, program::Block(body, "small program"), options);
        for (unsigned i = 0; i < runs; ++i) {
            engine.run(0);
        }
        recorder.onVerification({"small-program", true, 0.0, "sum of a + b"});
        return engine.read<float>(sum).front();
    }
};

} // namespace tessera::testing
