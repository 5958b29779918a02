// Sync(SyncType) and the sync type of cycle stamps, on a 1-IPU and a 2-IPU
// model: each type costs its own sync (docs/engine.md, "Sync types").
// cycleCount around a Sequence holding one Sync counts exactly that Sync's
// step; two stamps back to back differ by one stamp step, whose sync is the
// stamp's type. The expected values are the mk2 preset's ipuSyncCycles (150,
// INTERNAL), globalSyncCycles (1500, EXTERNAL) and hostSyncCycles (3000,
// GLOBAL), on both targets: INTERNAL syncs each IPU on its own, in parallel.
#include <poplar/CycleCount.hpp>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

const char* typeName(SyncType t) {
    return t == SyncType::INTERNAL ? "INTERNAL" : t == SyncType::EXTERNAL ? "EXTERNAL" : "GLOBAL";
}

std::uint64_t readCycles(Engine& engine, const std::string& handle) {
    unsigned words[2] = {0, 0}; // low, high
    engine.readTensor(handle, words, words + 2);
    return (std::uint64_t(words[1]) << 32) | words[0];
}

void run(unsigned ipus) {
    IPUModel model("ipu2");
    model.numIPUs = ipus;
    model.tilesPerIPU = 4;
    Device device = model.createDevice();
    Graph graph(device.getTarget());
    const SyncType types[] = {SyncType::INTERNAL, SyncType::EXTERNAL, SyncType::GLOBAL};
    std::vector<Program> programs;
    for (SyncType type : types) {
        Sequence one({Sync(type)});
        // The counter's own type must not change the count of what it times.
        Tensor count = cycleCount(graph, one, 0, SyncType::GLOBAL);
        graph.createHostRead(std::string("sync ") + typeName(type), count);
        programs.push_back(one);
    }
    for (SyncType type : types) {
        Sequence stamps;
        Tensor a = cycleStamp(graph, stamps, 0, type);
        Tensor b = cycleStamp(graph, stamps, 0, type);
        graph.createHostRead(std::string("a ") + typeName(type), a);
        graph.createHostRead(std::string("b ") + typeName(type), b);
        programs.push_back(stamps);
    }
    Engine engine(graph, programs);
    engine.load(device);
    for (unsigned i = 0; i < programs.size(); ++i) {
        engine.run(i);
    }
    for (SyncType type : types) {
        std::cout << ipus << " IPU(s): Sync(" << typeName(type) << ") costs "
                  << readCycles(engine, std::string("sync ") + typeName(type)) << " cycles\n";
    }
    for (SyncType type : types) {
        const std::string n = typeName(type);
        std::cout << ipus << " IPU(s): cycleStamp(" << n << ") step costs "
                  << readCycles(engine, "b " + n) - readCycles(engine, "a " + n) << " cycles\n";
    }
}

} // namespace

int main() {
    run(1);
    run(2);
    return 0;
}
