// Engine::run's groups of steps run tile by tile (runtime/StepGroups.h).
#include "engine/runtime/PreparedEngine.h"
#include "engine/runtime/VertexPrint.h"

#include <algorithm>
#include <cstdint>
#include <exception>
#include <string>
#include <tuple>
#include <vector>

namespace tessera {

using compiler::Instruction;
using compiler::StepId;
using compiler::StepPlan;
using runtime::CopyOp;
using runtime::Instance;
using runtime::PreparedStep;
using runtime::runCompute;

// The work of `steps` consecutive Step instructions from pc_, unit by unit
// (runtime/StepGroups.h says when that gives the same bytes). Prints and
// records come out as the steps one after another would give them; a failure
// is the one those would report (the earliest step's, then the lowest
// tile's), with the records of the steps before it.
void Engine::runGroup(std::size_t steps) {
    std::unique_ptr<GroupWork>& made = prepared_->groupWork[program_][pc_];
    if (!made) {
        made = std::make_unique<GroupWork>(
            makeGroupWork(steps, prepared_->groups->unitsFrom(program_, pc_)));
    }
    const GroupWork& g = *made;
    const std::size_t n = g.steps.size(), units = g.unitStarts.size() - 1;
    std::vector<std::string> printed(g.items.size());
    std::vector<std::exception_ptr> errors(units);
    // Per unit, the step and tile of its failure (n: none).
    std::vector<std::pair<std::size_t, std::uint32_t>> failedAt(units, {n, 0});
    pool_.parallelFor(units, [&](std::size_t b, std::size_t e) {
        for (std::size_t u = b; u < e; ++u) {
            // A step at a time: every tile's copies, then every tile's vertices.
            for (std::size_t first = g.unitStarts[u], end = g.unitStarts[u + 1]; first < end;) {
                std::size_t last = first;
                while (last < end && g.items[last].step == g.items[first].step) {
                    ++last;
                }
                for (std::size_t i = first; i < last; ++i) {
                    if (g.items[i].copies) {
                        runtime::copyRuns(*g.items[i].copies);
                    }
                }
                for (std::size_t i = first; i < last; ++i) {
                    const GroupWork::Item& item = g.items[i];
                    if (!item.vertices) {
                        continue;
                    }
                    runtime::VertexPrintCapture capture(printed[i]);
                    try {
                        const StepPlan& plan = compiled_->step(g.steps[item.step]);
                        for (const Instance& inst : *item.vertices) {
                            runCompute(graph_, inst, g.steps[item.step], plan);
                        }
                    } catch (...) {
                        if (!errors[u]) { // the unit's lowest failing tile of this step
                            errors[u] = std::current_exception();
                            failedAt[u] = {item.step, item.tile};
                        }
                    }
                }
                if (errors[u]) {
                    break; // the step's other tiles ran, as with the steps apart
                }
                first = last;
            }
        }
    });
    const auto failed = std::min_element(failedAt.begin(), failedAt.end());
    const std::size_t done = failed == failedAt.end() ? n : failed->first;
    if (std::any_of(printed.begin(), printed.end(), [](const auto& p) { return !p.empty(); })) {
        std::vector<std::size_t> order(g.items.size()); // by step, then tile
        for (std::size_t i = 0; i < order.size(); ++i) {
            order[i] = i;
        }
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return std::tie(g.items[a].step, g.items[a].tile) <
                   std::tie(g.items[b].step, g.items[b].tile);
        });
        std::vector<std::string> step; // one step's, in tile order
        for (std::size_t i = 0; i < order.size(); ++i) {
            const std::size_t k = g.items[order[i]].step;
            if (k > done) {
                break;
            }
            step.push_back(std::move(printed[order[i]]));
            if (i + 1 == order.size() || g.items[order[i + 1]].step != k) {
                writeVertexPrints(step);
                step.clear();
            }
        }
    }
    for (std::size_t k = 0; k < done; ++k) {
        finishStep(g.steps[k], compiled_->step(g.steps[k]));
    }
    if (done < n) {
        std::rethrow_exception(errors[static_cast<std::size_t>(failed - failedAt.begin())]);
    }
    pc_ += n;
    settle();
}

// `units`: each tile's unit (StepGroups::unitsFrom); empty: a unit a tile.
Engine::GroupWork Engine::makeGroupWork(std::size_t steps,
                                        const std::vector<std::uint32_t>& units) const {
    GroupWork g;
    const std::vector<Instruction>& code = compiled_->programs[program_];
    for (std::size_t k = 0; k < steps; ++k) {
        g.steps.push_back(code[pc_ + k].step);
    }
    for (std::uint32_t k = 0; k < steps; ++k) {
        const PreparedStep& p = prepared_->steps[g.steps[k].value()];
        // Both lists ascend by tile: walk them together.
        std::size_t c = 0, v = 0;
        while (c < p.gather.tiles.size() || v < p.computeTiles.size()) {
            const std::uint32_t tile =
                std::min(c < p.gather.tiles.size() ? p.gather.tiles[c] : UINT32_MAX,
                         v < p.computeTiles.size() ? p.computeTiles[v] : UINT32_MAX);
            GroupWork::Item item{tile, k};
            if (c < p.gather.tiles.size() && p.gather.tiles[c] == tile) {
                item.copies = &p.gather.byTile[c++];
            }
            if (v < p.computeTiles.size() && p.computeTiles[v] == tile) {
                item.vertices = &p.compute[v++];
            }
            g.items.push_back(item);
        }
    }
    const auto unitOf = [&](const GroupWork::Item& i) {
        return units.empty() ? i.tile : units[i.tile];
    };
    std::stable_sort(g.items.begin(), g.items.end(), [&](const auto& a, const auto& b) {
        return std::tuple(unitOf(a), a.step, a.tile) < std::tuple(unitOf(b), b.step, b.tile);
    });
    for (std::size_t i = 0; i < g.items.size(); ++i) {
        if (i == 0 || unitOf(g.items[i]) != unitOf(g.items[i - 1])) {
            g.unitStarts.push_back(i);
        }
    }
    g.unitStarts.push_back(g.items.size());
    return g;
}

} // namespace tessera
