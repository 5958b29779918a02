#include "views/panes/execution/FlameSpans.h"

#include <algorithm>

namespace tessera::views::execution {

ProgramHierarchy::ProgramHierarchy(const std::vector<record::ProgramNodeRecord>& nodes,
                                   const std::vector<reports::ProgramStepEntry>& steps) {
    std::unordered_map<record::ProgramNodeId, record::ProgramNodeId> parent;
    parent.reserve(nodes.size());
    for (const auto& n : nodes) {
        parent[n.id] = n.parent;
    }
    for (const auto& s : steps) {
        std::vector<record::ProgramNodeId> chain;
        record::ProgramNodeId id = s.node;
        // Bounded walk: a malformed report cannot loop forever.
        while (!id.isNone() && chain.size() <= nodes.size()) {
            chain.push_back(id);
            auto it = parent.find(id);
            id = it == parent.end() ? record::ProgramNodeId::none() : it->second;
        }
        std::reverse(chain.begin(), chain.end());
        std::size_t& depth = depths_[s.programIndex];
        depth = std::max(depth, chain.size());
        chains_.emplace(s.id, std::move(chain));
    }
}

const std::vector<record::ProgramNodeId>&
ProgramHierarchy::chain(record::StepId programStep) const {
    static const std::vector<record::ProgramNodeId> none;
    auto it = chains_.find(programStep);
    return it == chains_.end() ? none : it->second;
}

std::size_t ProgramHierarchy::depth(std::uint32_t programIndex) const {
    auto it = depths_.find(programIndex);
    return it == depths_.end() ? 0 : it->second;
}

FlameData buildFlame(const std::vector<record::StepExecutionRecord>& steps,
                     const ProgramHierarchy& hierarchy) {
    FlameData out;
    // The executed step (index into `steps`) that last grew each row's span.
    std::vector<std::size_t> lastGrown;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const record::StepExecutionRecord& e = steps[i];
        const std::vector<record::ProgramNodeId>& chain = hierarchy.chain(e.programStep);
        if (out.rows.size() < chain.size()) {
            out.rows.resize(chain.size());
            lastGrown.resize(chain.size(), SIZE_MAX);
        }
        for (std::size_t d = 0; d < chain.size(); ++d) {
            const bool leaf = d + 1 == chain.size();
            std::vector<FlameSpan>& row = out.rows[d];
            if (!row.empty() && row.back().node == chain[d] && i > 0 && lastGrown[d] == i - 1 &&
                row.back().programStep == (leaf ? e.programStep : record::StepId::none())) {
                row.back().endCycle = std::max(row.back().endCycle, e.startCycle + e.cycles);
                ++row.back().executions;
            } else {
                row.push_back({e.startCycle, e.startCycle + e.cycles, chain[d],
                               leaf ? e.programStep : record::StepId::none(), 1});
            }
            lastGrown[d] = i;
        }
    }
    return out;
}

} // namespace tessera::views::execution
