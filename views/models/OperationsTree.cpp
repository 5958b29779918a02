#include "views/models/OperationsTree.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace tessera::views {

namespace {

using record::OperationLayer;

std::vector<std::string> splitPath(const std::string& name) {
    std::vector<std::string> parts;
    std::size_t from = 0;
    while (from <= name.size()) {
        const std::size_t slash = std::min(name.find('/', from), name.size());
        if (slash > from) { // "a//b" and a trailing "/" make no empty groups
            parts.push_back(name.substr(from, slash - from));
        }
        from = slash + 1;
    }
    return parts;
}

// Step positions beneath each Block node, indexed like data.programNodes.
std::vector<std::vector<int>> stepsUnderBlocks(const ReportData& data, const ProgramStats& stats) {
    std::vector<std::vector<int>> steps(data.programNodes.size());
    const std::size_t numNodes = data.programNodes.size();
    for (std::size_t s = 0; s < data.programSteps.size(); ++s) {
        int n = stats.nodePosition(data.programSteps[s].node);
        for (std::size_t depth = 0; n >= 0 && depth < numNodes;
             n = stats.parent[static_cast<std::size_t>(n)], ++depth) {
            if (data.programNodes[static_cast<std::size_t>(n)].kind == record::ProgramKind::Block) {
                steps[static_cast<std::size_t>(n)].push_back(static_cast<int>(s));
            }
        }
    }
    return steps;
}

// The compute sets of the steps, each once.
std::unordered_set<record::ComputeSetId> computeSetsOf(const ReportData& data,
                                                       const std::vector<int>& steps) {
    std::unordered_set<record::ComputeSetId> sets;
    for (const int s : steps) {
        const auto cs = data.programSteps[static_cast<std::size_t>(s)].computeSet;
        if (!cs.isNone()) {
            sets.insert(cs);
        }
    }
    return sets;
}

} // namespace

std::string layerName(OperationLayer layer) {
    switch (layer) {
    case OperationLayer::Library:
        return "PopLibs";
    case OperationLayer::Application:
        return "Application";
    case OperationLayer::Unknown:
        break;
    }
    return "unknown";
}

bool inLayer(const record::ProgramNodeRecord& node, LayerFilter layer) {
    switch (layer) {
    case LayerFilter::Library:
        return node.layer == OperationLayer::Library;
    case LayerFilter::Application:
        return node.layer == OperationLayer::Application;
    case LayerFilter::All:
        break;
    }
    return true;
}

std::vector<CodeletUse> codeletsOf(const ReportData& data, const ProgramStats&,
                                   const std::vector<int>& steps) {
    const auto sets = computeSetsOf(data, steps);
    std::map<record::CodeletId, CodeletUse> byCodelet;
    std::set<std::pair<record::TileId, record::CodeletId>> tileCodelets;
    for (const auto& v : data.vertexCounts) {
        if (v.count == 0 || !sets.contains(v.computeSet)) {
            continue;
        }
        CodeletUse& use = byCodelet[v.codelet];
        use.codelet = v.codelet;
        use.vertices += v.count;
        if (tileCodelets.emplace(v.tile, v.codelet).second) {
            ++use.tiles;
        }
    }
    std::unordered_map<record::CodeletId, const record::CodeletRecord*> codelets;
    for (const auto& c : data.codelets) {
        codelets[c.id] = &c;
    }
    std::vector<CodeletUse> out;
    for (auto& [id, use] : byCodelet) {
        if (const auto it = codelets.find(id); it != codelets.end()) {
            use.name = it->second->name;
            use.codeBytesPerTile = it->second->codeBytes;
        } else {
            use.name = "codelet " + std::to_string(id.value()) + " (not in the report)";
        }
        out.push_back(use);
    }
    std::stable_sort(out.begin(), out.end(), [](const CodeletUse& a, const CodeletUse& b) {
        return a.codeBytes() > b.codeBytes();
    });
    return out;
}

std::uint64_t codeBytesOf(const ReportData& data, const ProgramStats& stats,
                          const std::vector<int>& steps) {
    std::uint64_t bytes = 0;
    for (const auto& use : codeletsOf(data, stats, steps)) {
        bytes += use.codeBytes();
    }
    return bytes;
}

OperationFigures figuresOf(const ReportData& data, const ProgramStats& stats,
                           const std::vector<int>& steps) {
    OperationFigures f;
    for (const int s : steps) {
        const auto& step = data.programSteps[static_cast<std::size_t>(s)];
        const std::uint64_t runs = stats.stepExecutions[static_cast<std::size_t>(s)];
        f.cycles += step.totalCycles * runs;
        f.computeCycles += step.computePhaseCycles * runs;
        f.exchangeCycles += step.exchangePhaseCycles * runs;
        f.syncCycles += step.syncCycles * runs;
        f.flops += step.flops * runs;
        f.bytesReceived += step.bytesInSum * runs;
        f.vertices += step.vertices;
        f.peakMemory = std::max(f.peakMemory, step.notAlwaysLiveBytesMax);
        ++f.steps;
    }
    f.codeBytes = codeBytesOf(data, stats, steps);
    return f;
}

OperationsTree buildOperationsTree(const ReportData& data, const ProgramStats& stats,
                                   LayerFilter layer) {
    OperationsTree tree;
    for (const int op : stats.operations) {
        tree.layersKnown =
            tree.layersKnown ||
            data.programNodes[static_cast<std::size_t>(op)].layer != OperationLayer::Unknown;
    }
    const auto stepsOf = stepsUnderBlocks(data, stats);
    // Path -> row: a group, or the first operation of that full name (which
    // then heads the operations under its path, as a group would).
    std::map<std::string, int> byPath;
    auto addRow = [&](OperationRow row) {
        const int index = static_cast<int>(tree.rows.size());
        (row.parent < 0 ? tree.roots : tree.rows[static_cast<std::size_t>(row.parent)].children)
            .push_back(index);
        tree.rows.push_back(std::move(row));
        return index;
    };
    for (const int op : stats.operations) {
        const auto& node = data.programNodes[static_cast<std::size_t>(op)];
        if (!inLayer(node, layer)) {
            continue;
        }
        const auto parts = splitPath(node.name);
        int parent = -1;
        std::string prefix;
        for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
            prefix += (i ? "/" : "") + parts[i];
            auto [it, added] = byPath.emplace(prefix, -1);
            if (added) {
                OperationRow g;
                g.label = parts[i];
                g.debugName = prefix;
                g.parent = parent;
                it->second = addRow(std::move(g));
            }
            parent = it->second;
        }
        const std::string label = !node.libraryFunction.empty() ? node.libraryFunction
                                  : parts.empty()               ? std::string("(unnamed)")
                                                                : parts.back();
        const std::string path =
            prefix + (parts.size() > 1 ? "/" : "") + (parts.empty() ? std::string() : parts.back());
        const auto existing = byPath.find(path);
        if (existing != byPath.end() &&
            tree.rows[static_cast<std::size_t>(existing->second)].node < 0) {
            OperationRow& g =
                tree.rows[static_cast<std::size_t>(existing->second)]; // a group so far
            g.label = label;
            g.debugName = node.name;
            g.node = op;
            g.operations = 1;
            const auto& own = stepsOf[static_cast<std::size_t>(op)];
            g.steps.insert(g.steps.end(), own.begin(), own.end());
            ++tree.operationCount;
            continue;
        }
        OperationRow row;
        row.label = label;
        row.debugName = node.name;
        row.node = op;
        row.parent = parent;
        row.operations = 1;
        row.steps = stepsOf[static_cast<std::size_t>(op)];
        const int index = addRow(std::move(row));
        if (!parts.empty()) {
            byPath.emplace(path, index);
        }
        ++tree.operationCount;
    }
    // Children come after their parents: fold steps upwards from the end.
    std::vector<int> allSteps;
    for (auto r = tree.rows.size(); r-- > 0;) {
        OperationRow& row = tree.rows[r];
        std::sort(row.steps.begin(), row.steps.end());
        row.steps.erase(std::unique(row.steps.begin(), row.steps.end()), row.steps.end());
        row.figures = figuresOf(data, stats, row.steps);
        auto& into =
            row.parent < 0 ? allSteps : tree.rows[static_cast<std::size_t>(row.parent)].steps;
        into.insert(into.end(), row.steps.begin(), row.steps.end());
        if (row.parent >= 0) {
            tree.rows[static_cast<std::size_t>(row.parent)].operations += row.operations;
        }
    }
    std::sort(allSteps.begin(), allSteps.end());
    allSteps.erase(std::unique(allSteps.begin(), allSteps.end()), allSteps.end());
    tree.total = figuresOf(data, stats, allSteps);
    return tree;
}

} // namespace tessera::views
