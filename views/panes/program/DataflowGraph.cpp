#include "views/panes/program/DataflowGraph.h"

#include <algorithm>
#include <map>
#include <numeric>
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
        ids.push_back(data.programSteps[static_cast<std::size_t>(p)].id);
    }
    return ids;
}

DataflowGraph buildDataflowGraph(const ReportData& data, const ProgramStats& stats,
                                 const DataflowOptions& options) {
    DataflowGraph g;
    g.stepsInScope = options.steps.size();
    std::vector<std::uint32_t> steps = options.steps;
    if (steps.size() > options.maxSteps) {
        steps.resize(options.maxSteps);
    }
    std::unordered_map<std::uint32_t, std::size_t> order; // step id -> index in `steps`
    for (std::size_t i = 0; i < steps.size(); ++i) {
        order[steps[i]] = i;
    }

    // Tensors with a live range touching the scope, grouped by the step that
    // produces them (or, failing that, consumes them).
    struct TensorRef {
        const reports::VariableEntry* v;
        bool produced; // its first step is in scope
        bool consumed; // its last step is in scope (and differs from the first)
    };
    std::map<std::size_t, std::vector<TensorRef>> byStep;
    std::vector<bool> stepTouched(steps.size(), false);
    for (const auto& v : data.variables) {
        if (v.alwaysLive || v.isConstant || v.firstStep == reports::kNone) {
            continue;
        }
        if (v.isExchangeBuffer && !options.exchangeBuffers) {
            continue;
        }
        const auto first = order.find(v.firstStep);
        const std::uint32_t lastStep = v.lastStep == reports::kNone ? v.firstStep : v.lastStep;
        const auto last = order.find(lastStep);
        const bool produced = first != order.end() && !v.isExchangeBuffer;
        const bool consumed =
            last != order.end() && (v.isExchangeBuffer || lastStep != v.firstStep);
        if (!produced && !consumed) {
            continue;
        }
        byStep[produced ? first->second : last->second].push_back({&v, produced, consumed});
        if (produced) {
            stepTouched[first->second] = true;
        }
        if (consumed) {
            stepTouched[last->second] = true;
        }
    }

    // Nodes in program order: a step, then the tensors it produces.
    std::vector<int> stepNodeOf(steps.size(), -1);
    std::vector<std::pair<std::size_t, const TensorRef*>> pendingTensors;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const int pos = stats.stepPosition(steps[i]);
        if (pos < 0) {
            continue;
        }
        const auto& s = data.programSteps[static_cast<std::size_t>(pos)];
        if (s.kind == "Execute" || stepTouched[i]) {
            const double runs =
                static_cast<double>(stats.stepExecutions[static_cast<std::size_t>(pos)]);
            DataflowNode n;
            n.kind = DataflowNode::Kind::Step;
            n.id = s.id;
            n.name = s.name;
            n.stepKind = s.kind;
            n.computeSet = s.computeSet;
            n.cycles = static_cast<double>(s.totalCycles) * runs;
            n.bytesExchanged = static_cast<double>(s.bytesInSum) * runs;
            n.memory = static_cast<double>(s.notAlwaysLiveBytesMax);
            stepNodeOf[i] = static_cast<int>(g.nodes.size());
            g.nodes.push_back(std::move(n));
            ++g.stepsShown;
        }
        if (const auto it = byStep.find(i); it != byStep.end()) {
            for (const TensorRef& t : it->second) {
                pendingTensors.emplace_back(g.nodes.size(), &t);
                DataflowNode n;
                n.kind = DataflowNode::Kind::Tensor;
                n.id = t.v->id;
                n.name = t.v->name;
                n.exchangeBuffer = t.v->isExchangeBuffer;
                n.memory = static_cast<double>(t.v->totalBytes);
                g.nodes.push_back(std::move(n));
            }
        }
    }
    for (const auto& [node, t] : pendingTensors) {
        const int tensor = static_cast<int>(node);
        if (t->produced && stepNodeOf[order.at(t->v->firstStep)] >= 0) {
            g.edges.emplace_back(stepNodeOf[order.at(t->v->firstStep)], tensor);
        }
        const std::uint32_t lastStep =
            t->v->lastStep == reports::kNone ? t->v->firstStep : t->v->lastStep;
        if (t->consumed && stepNodeOf[order.at(lastStep)] >= 0) {
            g.edges.emplace_back(tensor, stepNodeOf[order.at(lastStep)]);
        }
    }
    return g;
}

} // namespace tessera::views
