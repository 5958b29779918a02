// popops::scatter as XLA's scatter expander does it: one dynamic update (or
// slice, computation, update) per scatter index, in order, on the public
// popops operations; the start indices are clamped first in one map.
#include "Common.h"

#include <popops/Cast.hpp>
#include <popops/DynamicSlice.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Scatter.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>

namespace popops {

namespace {

[[noreturn]] void fail(const std::string& message) {
    throw poputil::poplibs_error("scatter: " + message);
}

bool contains(const std::vector<unsigned>& v, std::size_t x) {
    return std::find(v.begin(), v.end(), x) != v.end();
}

// The parts of one scatter: [G, K] start indices, [G, window...] updates
// and, per operand dimension, the window size.
struct Plan {
    poplar::Tensor starts;  // [G, K], indices' type
    poplar::Tensor windows; // [G, operand rank] shaped windows
    std::vector<std::size_t> windowShape;
    std::vector<std::size_t> dims, sizes; // the scattered operand dims and their window sizes
};

Plan plan(const poplar::Tensor& operand, const poplar::Tensor& indices,
          const poplar::Tensor& updates, std::size_t indexVectorDim,
          std::vector<unsigned> updateWindowDims, std::vector<std::size_t> insertWindowDims,
          const std::vector<unsigned>& toOperand) {
    std::sort(updateWindowDims.begin(), updateWindowDims.end());
    std::sort(insertWindowDims.begin(), insertWindowDims.end());
    if (indexVectorDim > indices.rank()) {
        fail("indexVectorDim " + std::to_string(indexVectorDim) + " is beyond the indices' rank " +
             std::to_string(indices.rank()));
    }
    if (indices.elementType() != poplar::INT && indices.elementType() != poplar::UNSIGNED_INT) {
        fail("the indices must be INT or UNSIGNED_INT, not " + indices.elementType().toString());
    }
    if (updateWindowDims.size() + insertWindowDims.size() != operand.rank()) {
        fail("updateWindowDims (" + std::to_string(updateWindowDims.size()) +
             ") and insertWindowDims (" + std::to_string(insertWindowDims.size()) +
             ") must add up to the operand's rank " + std::to_string(operand.rank()));
    }
    for (const unsigned d : updateWindowDims) {
        if (d >= updates.rank()) {
            fail("update window dimension " + std::to_string(d) + " is out of range");
        }
    }
    for (std::size_t i = 0; i < insertWindowDims.size(); ++i) {
        if (insertWindowDims[i] >= operand.rank() ||
            (i > 0 && insertWindowDims[i] == insertWindowDims[i - 1])) {
            fail("insertWindowDims must be distinct operand dimensions");
        }
    }
    // The indices as [scatter dims..., K].
    poplar::Tensor idx = indices;
    if (indexVectorDim == indices.rank()) {
        idx = idx.expand({indices.rank()});
    } else {
        std::vector<unsigned> order;
        for (unsigned d = 0; d < indices.rank(); ++d) {
            if (d != indexVectorDim) {
                order.push_back(d);
            }
        }
        order.push_back(unsigned(indexVectorDim));
        idx = idx.dimShuffle(order);
    }
    const std::size_t k = idx.dim(idx.rank() - 1);
    if (toOperand.size() != k) {
        fail("scatterDimsToOperandDims has " + std::to_string(toOperand.size()) +
             " entries for start vectors of " + std::to_string(k));
    }
    for (std::size_t i = 0; i < toOperand.size(); ++i) {
        if (toOperand[i] >= operand.rank() ||
            std::count(toOperand.begin(), toOperand.end(), toOperand[i]) != 1) {
            fail("scatterDimsToOperandDims must be distinct operand dimensions");
        }
    }
    // The updates as [scatter dims..., window dims...].
    std::vector<unsigned> order;
    for (unsigned d = 0; d < updates.rank(); ++d) {
        if (!contains(updateWindowDims, d)) {
            order.push_back(d);
        }
    }
    const std::size_t scatterRank = order.size();
    if (scatterRank != idx.rank() - 1) {
        fail("the updates have " + std::to_string(scatterRank) +
             " scatter dimensions but the indices " + std::to_string(idx.rank() - 1));
    }
    for (std::size_t d = 0; d < scatterRank; ++d) {
        if (updates.dim(order[d]) != idx.dim(unsigned(d))) {
            fail("the updates' scatter dimensions " + updates.shapeToString() +
                 " do not match the indices " + indices.shapeToString());
        }
    }
    order.insert(order.end(), updateWindowDims.begin(), updateWindowDims.end());
    const poplar::Tensor ups = updates.dimShuffle(order);
    // The window in the operand's dimensions: 1 where inserted.
    Plan p;
    std::size_t next = 0;
    for (std::size_t d = 0; d < operand.rank(); ++d) {
        const bool inserted = std::find(insertWindowDims.begin(), insertWindowDims.end(), d) !=
                              insertWindowDims.end();
        const std::size_t size = inserted ? 1 : updates.dim(updateWindowDims[next++]);
        if (size > operand.dim(unsigned(d))) {
            fail("the window (" + std::to_string(size) + ") is larger than operand dimension " +
                 std::to_string(d) + " (" + std::to_string(operand.dim(unsigned(d))) + ")");
        }
        p.windowShape.push_back(size);
    }
    std::size_t g = 1;
    for (std::size_t d = 0; d < scatterRank; ++d) {
        g *= idx.dim(unsigned(d));
    }
    p.starts = idx.reshape({g, k});
    std::vector<std::size_t> shape(1, g);
    shape.insert(shape.end(), p.windowShape.begin(), p.windowShape.end());
    p.windows = ups.reshape(shape);
    for (const unsigned d : toOperand) {
        p.dims.push_back(d);
        p.sizes.push_back(p.windowShape[d]);
    }
    return p;
}

void scatterWith(poplar::Graph& graph, const poplar::Tensor& operand, const poplar::Tensor& indices,
                 const poplar::Tensor& updates, std::size_t indexVectorDim,
                 std::vector<unsigned> updateWindowDims, std::vector<std::size_t> insertWindowDims,
                 const std::vector<unsigned>& scatterDimsToOperandDims,
                 UpdateComputationFunc* updateComputation, poplar::program::Sequence& prog,
                 const poplar::DebugContext& dc) {
    if (updates.elementType() != operand.elementType()) {
        fail("the updates are " + updates.elementType().toString() + " but the operand is " +
             operand.elementType().toString());
    }
    const Plan p = plan(operand, indices, updates, indexVectorDim, std::move(updateWindowDims),
                        std::move(insertWindowDims), scatterDimsToOperandDims);
    const std::string name = detail::nameOf(dc, "scatter");
    poplar::program::Sequence body;
    const std::size_t g = p.starts.dim(0);
    if (g == 0 || p.windows.numElements() == 0) {
        prog.add(detail::libraryBlock(body, name));
        return;
    }
    // Dimensions not scattered: the window starts at 0 (a static slice).
    poplar::Tensor target = operand;
    for (unsigned d = 0; d < operand.rank(); ++d) {
        if (!contains(scatterDimsToOperandDims, d)) {
            target = target.slice(0, p.windowShape[d], d);
        }
    }
    // Start indices clamped as XLA clamps: into [0, dim - window].
    std::vector<int> limits;
    for (std::size_t i = 0; i < p.dims.size(); ++i) {
        limits.push_back(int(operand.dim(unsigned(p.dims[i])) - p.sizes[i]));
    }
    const poplar::Tensor limit = graph.addConstant<int>(poplar::INT, {1, limits.size()}, limits,
                                                        poplar::DebugContext(dc, "limits"));
    graph.setTileMapping(limit, 0);
    namespace pe = popops::expr;
    const poplar::Tensor starts =
        map(graph,
            pe::Cast(pe::Min(pe::Max(pe::Cast(pe::_1, poplar::INT), pe::Const(0)), pe::_2),
                     poplar::UNSIGNED_INT),
            {p.starts, limit}, body, poplar::DebugContext(dc, "clampedStarts"));
    for (std::size_t i = 0; i < g; ++i) {
        const poplar::DebugContext step(dc, std::to_string(i));
        poplar::Tensor update = p.windows[i];
        if (updateComputation != nullptr) {
            poplar::Tensor current =
                dynamicSlice(graph, target, starts[i], p.dims, p.sizes, body, step);
            update = (*updateComputation)(graph, current, update, body);
        }
        dynamicUpdate(graph, target, update, starts[i], p.dims, p.sizes, body, step);
    }
    prog.add(detail::libraryBlock(body, name));
}

} // namespace

void scatter(poplar::Graph& graph, const poplar::Tensor& operand, const poplar::Tensor& indices,
             const poplar::Tensor& updates, std::size_t indexVectorDim,
             std::vector<unsigned> updateWindowDims, std::vector<std::size_t> insertWindowDims,
             std::vector<unsigned> scatterDimsToOperandDims, poplar::program::Sequence& prog,
             const poplar::DebugContext& dc) {
    scatterWith(graph, operand, indices, updates, indexVectorDim, std::move(updateWindowDims),
                std::move(insertWindowDims), scatterDimsToOperandDims, nullptr, prog, dc);
}

void scatter(poplar::Graph& graph, const poplar::Tensor& operand, const poplar::Tensor& indices,
             const poplar::Tensor& updates, std::size_t indexVectorDim,
             std::vector<unsigned> updateWindowDims, std::vector<std::size_t> insertWindowDims,
             std::vector<unsigned> scatterDimsToOperandDims,
             UpdateComputationFunc& updateComputation, poplar::program::Sequence& prog,
             const poplar::DebugContext& dc) {
    scatterWith(graph, operand, indices, updates, indexVectorDim, std::move(updateWindowDims),
                std::move(insertWindowDims), scatterDimsToOperandDims, &updateComputation, prog,
                dc);
}

} // namespace popops
