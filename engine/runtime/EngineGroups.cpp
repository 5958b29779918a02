// Engine::run's groups of steps run tile by tile (runtime/StepGroups.h).
#include "engine/runtime/PreparedEngine.h"
#include "engine/runtime/VertexPrint.h"

#include <algorithm>
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

namespace tessera {

using compiler::Instruction;
using compiler::StepId;
using compiler::StepPlan;
using runtime::CopyOp;
using runtime::Instance;
using runtime::PreparedStep;
using runtime::runCompute;

// The work of `steps` consecutive Step instructions from pc_, tile by tile
// (runtime/StepGroups.h says when that gives the same bytes). Prints and
// records come out as the steps one after another would give them; a failure
// is the one those would report (the earliest step's, then the lowest
// tile's), with the records of the steps before it.
void Engine::runGroup(std::size_t steps) {
    std::unique_ptr<GroupWork>& made = prepared_->groupWork[program_][pc_];
    if (!made) {
        made = std::make_unique<GroupWork>(makeGroupWork(steps));
    }
    const GroupWork& g = *made;
    const std::size_t n = g.steps.size(), tiles = g.tileStarts.size() - 1;
    std::vector<std::string> printed(g.items.size());
    std::vector<std::exception_ptr> errors(tiles);
    std::vector<std::size_t> failedStep(tiles, n);
    pool_.parallelFor(tiles, [&](std::size_t b, std::size_t e) {
        for (std::size_t t = b; t < e; ++t) {
            for (std::size_t i = g.tileStarts[t]; i < g.tileStarts[t + 1]; ++i) {
                const GroupWork::Item& item = g.items[i];
                if (item.copies) {
                    runtime::copyRuns(*item.copies);
                }
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
                    errors[t] = std::current_exception();
                    failedStep[t] = item.step;
                    break;
                }
            }
        }
    });
    const auto failed = std::min_element(failedStep.begin(), failedStep.end());
    const std::size_t done = failed == failedStep.end() ? n : *failed;
    if (std::any_of(printed.begin(), printed.end(), [](const auto& p) { return !p.empty(); })) {
        for (std::size_t k = 0; k < std::min(done + 1, n); ++k) {
            std::vector<std::string> step; // this step's, in tile order
            for (std::size_t i = 0; i < g.items.size(); ++i) {
                if (g.items[i].step == k) {
                    step.push_back(std::move(printed[i]));
                }
            }
            writeVertexPrints(step);
        }
    }
    for (std::size_t k = 0; k < done; ++k) {
        finishStep(g.steps[k], compiled_->step(g.steps[k]));
    }
    if (done < n) {
        std::rethrow_exception(errors[static_cast<std::size_t>(failed - failedStep.begin())]);
    }
    pc_ += n;
    settle();
}

Engine::GroupWork Engine::makeGroupWork(std::size_t steps) const {
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
    std::stable_sort(g.items.begin(), g.items.end(),
                     [](const auto& a, const auto& b) { return a.tile < b.tile; });
    for (std::size_t i = 0; i < g.items.size(); ++i) {
        if (i == 0 || g.items[i].tile != g.items[i - 1].tile) {
            g.tileStarts.push_back(i);
        }
    }
    g.tileStarts.push_back(g.items.size());
    return g;
}

} // namespace tessera
