#pragma once
// Two versions of one small program for comparison tests, built with the
// engine API: the "after" version inserts one Execute step in the middle of
// the main sequence, so everything after it has a different step id but the
// same place in the program. Also the helpers the tests use to compute the
// expected figures independently of reports/: straight from the engine's
// records (record::InMemoryRecorder), not from a report.
#include "SmallProgram.h"
#include "engine/record/Recorder.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tessera::testing {

struct VariantProgram {
    unsigned tiles = 4;
    bool insertStep = false; // the "after" version
    std::size_t repeats = 5;
    unsigned runs = 2;
    std::string firstVariable = "a"; // e.g. a name CSV must quote

    void run(record::Recorder& recorder) const {
        Graph graph(Target::preset("tiles:" + std::to_string(tiles)));
        std::vector<std::size_t> sizes;
        std::size_t total = 0;
        for (unsigned t = 0; t < tiles; ++t) {
            sizes.push_back(16 * (t + 1));
            total += sizes.back();
        }
        Tensor a = graph.addVariable(Type::Float, {total}, firstVariable);
        Tensor b = graph.addVariable(Type::Float, {total}, "b");
        Tensor c = graph.addVariable(Type::Float, {total}, "c");
        Tensor d = graph.addVariable(Type::Float, {total}, "d");
        std::optional<Tensor> tmp;
        std::optional<ComputeSet> inserted;
        ComputeSet first = graph.addComputeSet("first add");
        ComputeSet second = graph.addComputeSet("second add");
        if (insertStep) {
            tmp = graph.addVariable(Type::Float, {total}, "tmp");
            inserted = graph.addComputeSet("inserted fill");
        }
        ComputeSet third = graph.addComputeSet("third add");
        std::size_t begin = 0;
        for (unsigned t = 0; t < tiles; ++t) {
            const std::size_t end = begin + sizes[t];
            for (const Tensor& x : {a, b, c, d}) {
                graph.setTileMapping(x.slice(begin, end), record::idAt<TileId>(t));
            }
            auto add = [&](ComputeSet cs, const Tensor& in1, const Tensor& in2, const Tensor& out) {
                auto v = graph.addVertex(cs, "Add<float>",
                                         {{"in1", in1.slice(begin, end)},
                                          {"in2", in2.slice(begin, end)},
                                          {"out", out.slice(begin, end)}});
                graph.setTileMapping(v, record::idAt<TileId>(t));
            };
            add(first, a, b, c);
            add(second, c, b, a);
            add(third, a, c, d);
            if (insertStep) {
                graph.setTileMapping(tmp->slice(begin, end), record::idAt<TileId>(t));
                auto v =
                    graph.addVertex(*inserted, "Fill<float>", {{"out", tmp->slice(begin, end)}});
                graph.setInitialValue(v["value"], 1.0);
                graph.setTileMapping(v, record::idAt<TileId>(t));
            }
            begin = end;
        }
        graph.setInitialValue(a, 1.0);
        graph.setInitialValue(b, 2.0);
        graph.createHostRead("d", d);

        program::Sequence body;
        body.add(program::Execute(first, "first"));
        body.add(program::Repeat(repeats, program::Execute(second, "second")));
        if (insertStep) {
            body.add(program::Execute(*inserted, "inserted"));
        }
        body.add(program::Execute(third, "third"));
        EngineOptions options;
        options.threads = 2;
        options.recorder = &recorder;
        Engine engine(graph, program::Block(body, "variant"), options);
        for (unsigned i = 0; i < runs; ++i) {
            engine.run(0);
        }
        recorder.onVerification({"variant", true, 0.0, "not checked"});
    }
};

// Figures computed straight from the engine's records.
struct RecordFigures {
    std::uint64_t cycles = 0, compute = 0, exchange = 0, sync = 0;
    std::uint64_t memory = 0, peakTile = 0, alwaysLive = 0, livenessPeak = 0, vertices = 0;
    std::uint64_t executedSteps = 0;
    std::vector<std::uint64_t> tileTotals;           // per tile, with gaps
    std::map<std::string, std::uint64_t> stepCycles; // by step name: Σ executed cycles
    std::map<std::string, std::uint64_t> stepExecutions;
    std::map<std::string, std::uint64_t> stepLiveness; // Σ tiles not-always-live bytes

    explicit RecordFigures(const record::InMemoryRecorder& r) {
        for (const auto& end : r.runEnds) {
            cycles += end.cycles;
            compute += end.computeCycles;
            exchange += end.exchangeCycles;
            sync += end.syncCycles;
        }
        const auto& c = r.compiled;
        memory = c.totalMemoryBytes;
        for (const auto& t : c.tileMemory) {
            peakTile = std::max<std::uint64_t>(peakTile, t.totalIncludingGaps);
            alwaysLive += t.alwaysLiveBytes;
            tileTotals.push_back(t.totalIncludingGaps);
        }
        for (const auto& cs : c.computeSets) {
            vertices += cs.vertexCount;
        }
        for (const auto& p : c.programSteps) {
            std::uint64_t sum = 0;
            for (const std::uint32_t b : p.notAlwaysLiveBytes) {
                sum += b;
            }
            stepLiveness[p.name] = sum;
            livenessPeak = std::max(livenessPeak, sum);
            stepCycles[p.name] += 0;
            stepExecutions[p.name] += 0;
        }
        for (const auto& s : r.steps) {
            const std::string& name = c.programSteps.at(s.programStep.value()).name;
            stepCycles[name] += s.cycles;
            ++stepExecutions[name];
            ++executedSteps;
        }
    }
};

} // namespace tessera::testing
