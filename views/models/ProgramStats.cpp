#include "views/models/ProgramStats.h"

#include "views/data/ReportSource.h"

#include <algorithm>
#include <optional>

namespace tessera::views {

namespace {

using record::ProgramKind;

bool isKind(const record::ProgramNodeRecord& n, ProgramKind kind) {
    return n.kind == kind;
}

bool isDataDependentLoop(const record::ProgramNodeRecord& n) {
    return isKind(n, ProgramKind::RepeatWhileTrue) || isKind(n, ProgramKind::RepeatWhileFalse);
}

// Positions of every node in pre-order (parents before children).
std::vector<int> preOrder(const ProgramStats& stats) {
    std::vector<int> order;
    order.reserve(stats.parent.size());
    std::vector<int> stack(stats.roots.rbegin(), stats.roots.rend());
    while (!stack.empty()) {
        const int n = stack.back();
        stack.pop_back();
        order.push_back(n);
        const auto& kids = stats.children[static_cast<std::size_t>(n)];
        stack.insert(stack.end(), kids.rbegin(), kids.rend());
    }
    return order;
}

} // namespace

int ProgramStats::nodePosition(record::ProgramNodeId id) const {
    const auto it = nodeIndex.find(id);
    return it == nodeIndex.end() ? -1 : it->second;
}

int ProgramStats::stepPosition(record::StepId id) const {
    const auto it = stepIndex.find(id);
    return it == stepIndex.end() ? -1 : it->second;
}

std::vector<std::uint64_t> countStepExecutions(const ReportData& data, const ReportSource& source) {
    std::unordered_map<record::StepId, std::size_t> position;
    for (std::size_t i = 0; i < data.programSteps.size(); ++i) {
        position[data.programSteps[i].id] = i;
    }
    std::vector<std::uint64_t> counts(data.programSteps.size(), 0);
    const auto executionsByStep =
        data.stepExecutionsLoaded ? data.stepExecutions : source.stepExecutions();
    for (const auto& [step, executions] : executionsByStep) {
        if (const auto it = position.find(step); it != position.end()) {
            counts[it->second] = executions;
        }
    }
    return counts;
}

std::string nodeLabel(const ReportData& data, const ProgramStats& stats, int nodePosition) {
    const auto& n = data.programNodes[static_cast<std::size_t>(nodePosition)];
    if (!n.name.empty()) {
        return n.name;
    }
    if (!n.step.isNone()) {
        const int s = stats.stepPosition(n.step);
        // An unnamed step falls through to its compute set's name.
        if (s >= 0 && !data.programSteps[static_cast<std::size_t>(s)].name.empty()) {
            return data.programSteps[static_cast<std::size_t>(s)].name;
        }
    }
    if (!n.computeSet.isNone()) {
        return data.computeSetName(n.computeSet);
    }
    return {};
}

// Executions of a node ("times entered") come from the steps that ran, so
// they are right for data-dependent control flow too: a step node's count is
// its step's; an If's is its predicate step's; a Repeat's is its body's
// divided by the repeat count; any other node takes its first child whose
// count is known. A RepeatWhile's entries cannot be told from its steps (the
// predicate runs once more than the body), so such nodes, and nodes with no
// steps at all, inherit from their parent (times the repeat count under a
// Repeat) and are marked inexact.
ProgramStats computeProgramStats(const ReportData& data,
                                 std::vector<std::uint64_t> stepExecutions) {
    ProgramStats stats;
    const std::size_t numNodes = data.programNodes.size();
    const std::size_t numSteps = data.programSteps.size();
    stepExecutions.resize(numSteps, 0);
    stats.stepExecutions = std::move(stepExecutions);
    stats.nodes.assign(numNodes, {});
    stats.parent.assign(numNodes, -1);
    stats.children.assign(numNodes, {});
    for (std::size_t i = 0; i < numNodes; ++i) {
        stats.nodeIndex[data.programNodes[i].id] = static_cast<int>(i);
    }
    for (std::size_t i = 0; i < numSteps; ++i) {
        stats.stepIndex[data.programSteps[i].id] = static_cast<int>(i);
    }
    for (std::size_t i = 0; i < numNodes; ++i) {
        const auto& n = data.programNodes[i];
        const int p = n.parent.isNone() ? -1 : stats.nodePosition(n.parent);
        stats.parent[i] = p;
        (p < 0 ? stats.roots : stats.children[static_cast<std::size_t>(p)])
            .push_back(static_cast<int>(i));
        if (isKind(n, ProgramKind::Block)) {
            stats.operations.push_back(static_cast<int>(i));
        }
    }
    // Node ids are assigned in program order; keep siblings in that order.
    auto byId = [&](int a, int b) {
        const auto& na = data.programNodes[static_cast<std::size_t>(a)];
        const auto& nb = data.programNodes[static_cast<std::size_t>(b)];
        return std::tie(na.programIndex, na.id) < std::tie(nb.programIndex, nb.id);
    };
    std::sort(stats.roots.begin(), stats.roots.end(), byId);
    for (auto& kids : stats.children) {
        std::sort(kids.begin(), kids.end(), byId);
    }
    std::sort(stats.operations.begin(), stats.operations.end(), byId);

    // Step figures go to the step's node and all its ancestors.
    std::vector<std::optional<std::uint64_t>> predicateRuns(numNodes);
    for (std::size_t s = 0; s < numSteps; ++s) {
        const auto& step = data.programSteps[s];
        const std::uint64_t runs = stats.stepExecutions[s];
        stats.totalCycles += step.totalCycles * runs;
        if (!step.operation.isNone()) {
            if (const int op = stats.nodePosition(step.operation); op >= 0) {
                stats.nodes[static_cast<std::size_t>(op)].selfCycles += step.totalCycles * runs;
            }
        }
        int n = stats.nodePosition(step.node);
        if (n >= 0 && step.kind == ProgramKind::Predicate) {
            predicateRuns[static_cast<std::size_t>(n)] = runs;
        }
        // At most numNodes ancestors: a cycle (which the reader refuses) cannot loop.
        for (std::size_t depth = 0; n >= 0 && depth < numNodes;
             n = stats.parent[static_cast<std::size_t>(n)], ++depth) {
            NodeStats& a = stats.nodes[static_cast<std::size_t>(n)];
            a.cycles += step.totalCycles * runs;
            a.computeCycles += step.computePhaseCycles * runs;
            a.exchangeCycles += step.exchangePhaseCycles * runs;
            a.syncCycles += step.syncCycles * runs;
            a.flops += step.flops * runs;
            a.bytesExchanged += step.bytesInSum * runs;
            a.vertices += step.vertices;
            a.peakNotAlwaysLive = std::max(a.peakNotAlwaysLive, step.notAlwaysLiveBytesMax);
            a.steps += 1;
            a.stepExecutions += runs;
        }
    }

    // Executions: bottom-up from the steps, then top-down for the unknown.
    const std::vector<int> order = preOrder(stats);
    std::vector<std::optional<std::uint64_t>> entered(numNodes);
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        const auto i = static_cast<std::size_t>(*it);
        const auto& n = data.programNodes[i];
        const auto& kids = stats.children[i];
        if (!n.step.isNone() && stats.stepPosition(n.step) >= 0) {
            entered[i] = stats.stepExecutions[static_cast<std::size_t>(stats.stepPosition(n.step))];
        } else if (isKind(n, ProgramKind::Repeat)) {
            if (!kids.empty() && entered[static_cast<std::size_t>(kids.front())]) {
                entered[i] = *entered[static_cast<std::size_t>(kids.front())] /
                             std::max<std::uint64_t>(1, n.repeatCount);
            }
        } else if (isKind(n, ProgramKind::If)) {
            entered[i] = predicateRuns[i];
        } else if (!isDataDependentLoop(n)) {
            for (const int c : kids) {
                if (entered[static_cast<std::size_t>(c)]) {
                    entered[i] = entered[static_cast<std::size_t>(c)];
                    break;
                }
            }
        }
    }
    for (const int pos : order) {
        const auto i = static_cast<std::size_t>(pos);
        NodeStats& a = stats.nodes[i];
        if (entered[i]) {
            a.executions = *entered[i];
            continue;
        }
        a.executionsExact = false;
        const int p = stats.parent[i];
        if (p < 0) {
            std::uint64_t runs = 0;
            for (const auto& r : data.runs) {
                runs += r.programIndex == data.programNodes[i].programIndex ? 1 : 0;
            }
            a.executions = runs;
        } else {
            const auto& pn = data.programNodes[static_cast<std::size_t>(p)];
            a.executions = stats.nodes[static_cast<std::size_t>(p)].executions *
                           (isKind(pn, ProgramKind::Repeat) ? pn.repeatCount : 1);
        }
    }
    return stats;
}

} // namespace tessera::views
