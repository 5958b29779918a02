#include "engine/workloads/Workload.h"

#include "engine/core/Error.h"
#include "engine/workloads/Library.h"
#include "engine/workloads/Plugin.h"

namespace tessera::workloads {

std::uint64_t Workload::minimumTileMemory(const Parameters&, const Target&) const {
    return 0;
}

const std::vector<const Workload*>& all() {
    static const std::vector<const Workload*> list = {
        &matmulWorkload(),    &elementwiseWorkload(),   &reduceWorkload(),
        &softmaxWorkload(),   &conv2dWorkload(),        &mlpTrainWorkload(),
        &attentionWorkload(), &gatherScatterWorkload(), &stressWorkload(),
    };
    return list;
}

const Workload& find(const std::string& name) {
    std::string known;
    for (const Workload* w : available()) { // built-ins, then loaded plugins
        if (w->name() == name) {
            return *w;
        }
        known += (known.empty() ? "" : ", ") + w->name();
    }
    throw Error("unknown workload '" + name + "' (known: " + known + ")");
}

RunResult run(const Workload& workload, const Target& target,
              const std::map<std::string, std::string>& given, const EngineOptions& options) {
    const Parameters params(workload.parameters(), given);
    checkFits(workload, params, target, options.allowOutOfMemory);
    Graph graph(target);
    Built built = workload.build(graph, params);
    Engine engine(graph, built.programs, options);
    if (built.setUp) {
        built.setUp(engine);
    }
    for (unsigned program : built.runOrder) {
        engine.run(program);
    }
    RunResult result;
    result.verification = built.verify(engine);
    result.cycles = engine.cyclesSoFar();
    if (options.recorder) {
        options.recorder->onVerification({workload.name(), result.verification.passed,
                                          result.verification.maxAbsError,
                                          result.verification.detail});
    }
    return result;
}

} // namespace tessera::workloads
