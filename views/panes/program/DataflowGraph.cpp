#include "views/panes/program/DataflowGraph.h"

#include <algorithm>
#include <tuple>
#include <unordered_map>

namespace tessera::views {

int DataflowGraph::stepNode(std::uint32_t stepId) const {
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        if (nodes[i].kind == DataflowNode::Kind::Step && nodes[i].id == stepId) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

std::vector<std::uint32_t> stepsInScope(const ReportData& data, const ProgramStats& stats,
                                        int scopeNode) {
    std::vector<int> positions;
    for (std::size_t s = 0; s < data.programSteps.size(); ++s) {
        if (scopeNode < 0) {
            positions.push_back(static_cast<int>(s));
            continue;
        }
        for (int n = stats.nodePosition(data.programSteps[s].node); n >= 0;
             n = stats.parent[static_cast<std::size_t>(n)]) {
            if (n == scopeNode) {
                positions.push_back(static_cast<int>(s));
                break;
            }
        }
    }
    std::stable_sort(positions.begin(), positions.end(), [&](int a, int b) {
        const auto& sa = data.programSteps[static_cast<std::size_t>(a)];
        const auto& sb = data.programSteps[static_cast<std::size_t>(b)];
        return std::tie(sa.programIndex, sa.id) < std::tie(sb.programIndex, sb.id);
    });
    std::vector<std::uint32_t> ids;
    for (const int p : positions) {
        ids.push_back(data.programSteps[static_cast<std::size_t>(p)].id.value());
    }
    return ids;
}

DataflowGraph buildDataflowGraph(const ReportData& data, const ProgramStats& stats,
                                 const DataflowOptions& options) {
    DataflowGraph g;
    g.stepsInScope = options.steps.size();
    g.accessesRecorded = !data.variableAccesses.empty();
    std::vector<std::uint32_t> steps = options.steps;
    if (steps.size() > options.maxSteps) {
        steps.resize(options.maxSteps);
    }
    std::unordered_map<record::StepId, std::vector<const reports::VariableEntry*>> buffersOf;
    if (options.exchangeBuffers) {
        for (const auto& v : data.variables) {
            if (v.isExchangeBuffer && !v.firstStep.isNone()) {
                buffersOf[v.firstStep].push_back(&v);
            }
        }
    }
    const auto& accesses = data.variableAccesses;
    auto byStep = [](const reports::StepVariableAccess& a, record::StepId step) {
        return a.step < step;
    };
    auto addTensor = [&](record::VariableId variable, record::StepId producer) {
        const reports::VariableEntry* v = data.variable(variable);
        DataflowNode n;
        n.kind = DataflowNode::Kind::Tensor;
        n.id = variable.value();
        n.name = v ? v->name : "variable " + std::to_string(variable.value());
        n.exchangeBuffer = v && v->isExchangeBuffer;
        n.producer = producer;
        n.memory = v ? static_cast<double>(v->totalBytes) : 0.0;
        g.nodes.push_back(std::move(n));
        return static_cast<int>(g.nodes.size() - 1);
    };

    // Nodes in program order: a step's inputs, the step, the versions it writes.
    std::unordered_map<record::VariableId, int> latest; // node of its latest version
    for (const std::uint32_t stepId : steps) {
        const record::StepId id{stepId};
        const int pos = stats.stepPosition(id);
        if (pos < 0) {
            continue;
        }
        const auto& s = data.programSteps[static_cast<std::size_t>(pos)];
        const auto lo = std::lower_bound(accesses.begin(), accesses.end(), id, byStep);
        auto hi = lo;
        while (hi != accesses.end() && hi->step == id) {
            ++hi;
        }
        const auto buffers = buffersOf.find(id);
        const bool touches = lo != hi || buffers != buffersOf.end();
        if (s.kind != record::ProgramKind::Execute && !touches) {
            continue;
        }
        std::vector<int> inputs;
        for (auto a = lo; a != hi; ++a) {
            if (!a->reads()) {
                continue;
            }
            const auto it = latest.find(a->variable);
            const int t =
                it != latest.end() ? it->second : addTensor(a->variable, record::StepId::none());
            latest.emplace(a->variable, t);
            inputs.push_back(t);
        }
        if (buffers != buffersOf.end()) {
            for (const auto* b : buffers->second) {
                inputs.push_back(addTensor(b->id, record::StepId::none()));
            }
        }
        const double runs =
            static_cast<double>(stats.stepExecutions[static_cast<std::size_t>(pos)]);
        DataflowNode n;
        n.kind = DataflowNode::Kind::Step;
        n.id = s.id.value();
        n.name = s.name;
        n.stepKind = s.kind;
        n.computeSet = s.computeSet;
        n.cycles = static_cast<double>(s.totalCycles) * runs;
        n.bytesExchanged = static_cast<double>(s.bytesInSum) * runs;
        n.memory = static_cast<double>(s.notAlwaysLiveBytesMax);
        const int stepNode = static_cast<int>(g.nodes.size());
        g.nodes.push_back(std::move(n));
        ++g.stepsShown;
        for (const int t : inputs) {
            g.edges.emplace_back(t, stepNode);
            ++g.nodes[static_cast<std::size_t>(t)].readers;
        }
        for (auto a = lo; a != hi; ++a) {
            if (a->writes()) {
                const int t = addTensor(a->variable, id);
                g.edges.emplace_back(stepNode, t);
                latest[a->variable] = t;
            }
        }
    }
    return g;
}

} // namespace tessera::views
