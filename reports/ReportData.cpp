#include "reports/ReportData.h"

#include "reports/ReportReader.h"

#include <algorithm>

namespace tessera::reports {

namespace {

template <typename T, typename Id>
const T* findById(const std::vector<T>& list, Id id) {
    if (id.isNone()) {
        return nullptr;
    }
    // Ids are dense and sorted in practice; fall back to a search otherwise.
    if (id.value() < list.size() && list[id.value()].id == id) {
        return &list[id.value()];
    }
    for (const T& e : list) {
        if (e.id == id) {
            return &e;
        }
    }
    return nullptr;
}

} // namespace

const VariableEntry* ReportData::variable(VariableId id) const {
    return findById(variables, id);
}
const ProgramStepEntry* ReportData::step(StepId id) const {
    return findById(programSteps, id);
}
const record::ProgramNodeRecord* ReportData::node(ProgramNodeId id) const {
    return findById(programNodes, id);
}

std::string ReportData::computeSetName(ComputeSetId id) const {
    const auto* cs = findById(computeSets, id);
    return cs ? cs->name : std::string();
}

std::uint64_t ReportData::executionsOf(StepId step) const {
    const auto it = std::lower_bound(stepExecutions.begin(), stepExecutions.end(),
                                     std::pair<StepId, std::uint64_t>{step, 0});
    return it != stepExecutions.end() && it->first == step ? it->second : 0;
}

std::shared_ptr<const ReportData> loadReportData(const std::filesystem::path& path,
                                                 const LoadProgress& progress,
                                                 const std::atomic<bool>* cancel,
                                                 LoadOptions options) {
    if (cancel && cancel->load()) {
        throw LoadCancelled();
    }
    if (progress) {
        progress(0, "opening");
    }
    const ReportReader reader(path);
    return loadReportData(reader, progress, cancel, options);
}

std::shared_ptr<const ReportData> loadReportData(const ReportReader& reader,
                                                 const LoadProgress& progress,
                                                 const std::atomic<bool>* cancel,
                                                 LoadOptions options) {
    auto data = std::make_shared<ReportData>();
    data->path = reader.info().path;
    int stage = 0;
    constexpr int kStages = 9;
    auto step = [&](const char* what) {
        if (cancel && cancel->load()) {
            throw LoadCancelled();
        }
        if (progress) {
            progress(100 * stage / kStages, what);
        }
        ++stage;
    };
    step("opening");
    data->info = reader.info();
    data->target = reader.target();
    data->problems = reader.problems();
    // Each part on its own: a damaged one is a problem, the others still load.
    auto part = [&](auto&& read) {
        try {
            read();
        } catch (const std::exception& e) {
            data->problems.push_back(e.what());
        }
    };
    step("summary");
    part([&] { data->summary = reader.summary(); });
    step("memory");
    part([&] {
        data->categories = reader.memoryCategories();
        data->tileMemory = reader.tileMemory();
    });
    part([&] { data->tileOverlap = reader.notAlwaysLiveOverlap(); });
    step("variables");
    part([&] { data->variables = reader.variables(); });
    if (options.placement) {
        part([&] {
            std::vector<std::vector<std::pair<TileId, std::uint64_t>>> placement;
            placement.reserve(data->variables.size());
            for (const VariableEntry& v : data->variables) {
                auto tiles = v.isExchangeBuffer ? decltype(reader.variableTiles(v.id)){}
                                                : reader.variableTiles(v.id);
                std::sort(tiles.begin(), tiles.end());
                placement.push_back(std::move(tiles));
            }
            data->placement = std::move(placement);
        });
    }
    step("compute sets");
    part([&] {
        data->codelets = reader.codelets();
        data->computeSets = reader.computeSets();
        data->vertexCounts = reader.vertexCounts();
    });
    step("program");
    part([&] { data->programNodes = reader.programNodes(); });
    part([&] { data->programSteps = reader.programSteps(); });
    step("runs");
    part([&] { data->runs = reader.runs(); });
    try {
        data->stepExecutions = reader.stepExecutions();
        data->stepExecutionsLoaded = true;
    } catch (const std::exception&) {
        // Already among the problems (a damaged run) or named by the Program
        // pane when it asks the source: the other panes load as usual.
    }
    step("dataflow");
    part([&] { data->variableAccesses = reader.variableAccesses(); });
    step("done");
    if (progress) {
        progress(100, "done");
    }
    return data;
}

} // namespace tessera::reports
