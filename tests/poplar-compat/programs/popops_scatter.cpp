// popops/Scatter.hpp as PopLibs ports XLA's scatter, property-tested: random
// operands, scatter indices (scalar and vector start indices, indexVectorDim
// first or last) and windows (inserted and kept window dimensions), replace
// and an update computation (add), compared with a host model of XLA's
// definition written here (every update element U goes to operand index
// start(U) + window(U), start indices clamped so the window fits; later
// updates win); then PopLibs' errors.
#include "popops_check.h"

#include <popops/ElementWise.hpp>
#include <popops/Scatter.hpp>
#include <popops/codelets.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>
#include <functional>

using namespace poplar;
using namespace poplar::program;

namespace {

std::vector<std::size_t> coordOf(std::size_t i, const std::vector<std::size_t>& shape) {
    std::vector<std::size_t> c(shape.size());
    for (std::size_t d = shape.size(); d-- > 0;) {
        c[d] = i % shape[d];
        i /= shape[d];
    }
    return c;
}

std::size_t flatIndex(const std::vector<std::size_t>& c, const std::vector<std::size_t>& shape) {
    std::size_t i = 0;
    for (std::size_t d = 0; d < shape.size(); ++d) {
        i = i * shape[d] + c[d];
    }
    return i;
}

bool has(const std::vector<unsigned>& v, std::size_t x) {
    return std::find(v.begin(), v.end(), x) != v.end();
}

struct Scatter {
    std::vector<std::size_t> operandShape, indicesShape, updatesShape;
    std::size_t indexVectorDim;
    std::vector<unsigned> updateWindowDims;
    std::vector<std::size_t> insertWindowDims;
    std::vector<unsigned> toOperand;
};

// XLA's scatter on the host: for each update element in order.
std::vector<double> scatterRef(const Scatter& s, std::vector<double> operand,
                               const std::vector<double>& indices,
                               const std::vector<double>& updates, bool add) {
    const std::size_t rank = s.operandShape.size();
    // The window dimensions of the operand (not inserted), in order.
    std::vector<std::size_t> windowOperandDims, windowSize(rank, 1);
    for (std::size_t d = 0; d < rank; ++d) {
        if (std::find(s.insertWindowDims.begin(), s.insertWindowDims.end(), d) ==
            s.insertWindowDims.end()) {
            windowOperandDims.push_back(d);
        }
    }
    for (std::size_t w = 0; w < windowOperandDims.size(); ++w) {
        windowSize[windowOperandDims[w]] = s.updatesShape[s.updateWindowDims[w]];
    }
    for (std::size_t u = 0; u < updates.size(); ++u) {
        const std::vector<std::size_t> U = coordOf(u, s.updatesShape);
        // The scatter index: U's non-window coordinates, in order.
        std::vector<std::size_t> G;
        for (std::size_t d = 0; d < U.size(); ++d) {
            if (!has(s.updateWindowDims, d)) {
                G.push_back(U[d]);
            }
        }
        std::vector<std::size_t> start(rank, 0);
        for (std::size_t k = 0; k < s.toOperand.size(); ++k) {
            std::vector<std::size_t> ic;
            std::size_t g = 0;
            for (std::size_t d = 0; d < s.indicesShape.size() + 1; ++d) {
                if (d == s.indexVectorDim) {
                    if (d < s.indicesShape.size()) {
                        ic.push_back(k);
                    }
                } else if (g < G.size()) {
                    ic.push_back(G[g++]);
                }
            }
            const double raw = indices[flatIndex(ic, s.indicesShape)];
            const std::size_t d = s.toOperand[k];
            const double most = double(s.operandShape[d] - windowSize[d]);
            start[d] = std::size_t(std::min(most, std::max(0.0, raw)));
        }
        std::vector<std::size_t> at = start;
        for (std::size_t w = 0; w < windowOperandDims.size(); ++w) {
            at[windowOperandDims[w]] += U[s.updateWindowDims[w]];
        }
        double& o = operand[flatIndex(at, s.operandShape)];
        o = add ? o + updates[u] : updates[u];
    }
    return operand;
}

std::string text(const Scatter& s) {
    std::ostringstream o;
    o << "operand " << shapeText(s.operandShape) << " indices " << shapeText(s.indicesShape)
      << " updates " << shapeText(s.updatesShape) << " ivd " << s.indexVectorDim;
    return o.str();
}

// A random scatter: K of the operand's dimensions scattered (some inserted),
// windows of random sizes, start indices that may overrun (clamped).
Scatter randomScatter(Rng& rng) {
    Scatter s;
    const std::size_t rank = 1 + rng.below(3);
    for (std::size_t d = 0; d < rank; ++d) {
        s.operandShape.push_back(2 + rng.below(4));
    }
    std::vector<std::size_t> dims(rank);
    for (std::size_t d = 0; d < rank; ++d) {
        dims[d] = d;
    }
    for (std::size_t i = rank; i-- > 1;) {
        std::swap(dims[i], dims[rng.below(unsigned(i + 1))]);
    }
    const std::size_t k = 1 + rng.below(unsigned(rank));
    for (std::size_t i = 0; i < k; ++i) {
        s.toOperand.push_back(unsigned(dims[i]));
        if (rng.below(2) == 0) {
            s.insertWindowDims.push_back(dims[i]);
        }
    }
    std::sort(s.insertWindowDims.begin(), s.insertWindowDims.end());
    // Indices: one or two scatter dimensions, the index vector first or last
    // (a scalar index when K == 1 and it is last).
    const std::size_t batchRank = 1 + rng.below(2);
    std::vector<std::size_t> batch;
    for (std::size_t b = 0; b < batchRank; ++b) {
        batch.push_back(1 + rng.below(3));
    }
    const bool scalar = k == 1 && rng.below(2) == 0;
    const bool first = !scalar && rng.below(2) == 0;
    s.indicesShape = batch;
    if (scalar) {
        s.indexVectorDim = batchRank;
    } else if (first) {
        s.indicesShape.insert(s.indicesShape.begin(), k);
        s.indexVectorDim = 0;
    } else {
        s.indicesShape.push_back(k);
        s.indexVectorDim = batchRank;
    }
    // Updates: the batch dimensions first, then the window dimensions.
    s.updatesShape = batch;
    for (std::size_t d = 0; d < rank; ++d) {
        if (std::find(s.insertWindowDims.begin(), s.insertWindowDims.end(), d) ==
            s.insertWindowDims.end()) {
            s.updateWindowDims.push_back(unsigned(s.updatesShape.size()));
            s.updatesShape.push_back(1 + rng.below(unsigned(s.operandShape[d])));
        }
    }
    return s;
}

void scatters(Checker& c) {
    Graph& g = c.graph;
    for (int trial = 0; trial < 16; ++trial) {
        const Scatter s = randomScatter(c.rng);
        const bool add = trial % 2 == 1;
        const Type type = trial % 4 < 2 ? FLOAT : INT;
        std::vector<double> operand(count(s.operandShape)), indices(count(s.indicesShape)),
            updates(count(s.updatesShape));
        for (std::size_t i = 0; i < operand.size(); ++i) {
            operand[i] = c.rng.between(-50, 50);
        }
        for (std::size_t i = 0; i < indices.size(); ++i) {
            indices[i] = c.rng.between(-1, 5); // some below 0 or past the end: clamped
        }
        for (std::size_t i = 0; i < updates.size(); ++i) {
            updates[i] = c.rng.between(100, 200);
        }
        const Tensor o = c.variable(type, s.operandShape, operand);
        const Tensor idx = c.constant(INT, s.indicesShape, indices);
        const Tensor up = c.constant(type, s.updatesShape, updates);
        if (add) {
            popops::UpdateComputationFunc plus = [](Graph& graph, Tensor& a, Tensor& b,
                                                    Sequence& prog) {
                return popops::add(graph, a, b, prog);
            };
            popops::scatter(g, o, idx, up, s.indexVectorDim, s.updateWindowDims, s.insertWindowDims,
                            s.toOperand, plus, c.prog, "scatterAdd");
        } else {
            popops::scatter(g, o, idx, up, s.indexVectorDim, s.updateWindowDims, s.insertWindowDims,
                            s.toOperand, c.prog, "scatter");
        }
        c.expect(add ? "scatter with an update computation" : "scatter", text(s), o,
                 scatterRef(s, operand, indices, updates, add));
    }
}

void errors(Checker& c) {
    Graph& g = c.graph;
    Sequence scratch;
    const Tensor o = c.constant(FLOAT, {4, 3}, std::vector<double>(12, 0));
    const Tensor idx = c.constant(INT, {2}, std::vector<double>(2, 1));
    const Tensor fidx = c.constant(FLOAT, {2}, std::vector<double>(2, 1));
    const Tensor up = c.constant(FLOAT, {2, 3}, std::vector<double>(6, 1));
    const Tensor upInt = c.constant(INT, {2, 3}, std::vector<double>(6, 1));
    typedef std::vector<unsigned> U;
    typedef std::vector<std::size_t> S;
    const Checker::ErrorCase cases[] = {
        {"float indices",
         [&] { popops::scatter(g, o, fidx, up, 1, U(1, 1), S(1, 0), U(1, 0), scratch); }},
        {"updates of another type",
         [&] { popops::scatter(g, o, idx, upInt, 1, U(1, 1), S(1, 0), U(1, 0), scratch); }},
        {"window dims not adding up to the rank",
         [&] { popops::scatter(g, o, idx, up, 1, U(1, 1), S(), U(1, 0), scratch); }},
        {"two start dims for scalar indices",
         [&] {
             popops::scatter(g, o, idx, up, 1, U(1, 1), S(1, 0), U{0, 1}, scratch);
         }},
        {"a window larger than the operand",
         [&] {
             popops::scatter(g, o, idx, c.constant(FLOAT, {2, 5}, std::vector<double>(10, 1)), 1,
                             U(1, 1), S(1, 0), U(1, 0), scratch);
         }},
        {"indexVectorDim beyond the indices",
         [&] { popops::scatter(g, o, idx, up, 3, U(1, 1), S(1, 0), U(1, 0), scratch); }},
    };
    c.expectPoplibsErrors("errors", cases);
}

} // namespace

int main() {
    IPUModel model;
    model.tilesPerIPU = 6;
    Device device = model.createDevice();
    Graph graph(device.getTarget());
    popops::addCodelets(graph);
    Sequence prog;
    Rng rng(61);
    Checker c(graph, prog, rng);
    errors(c);
    scatters(c);
    return c.run(device);
}
