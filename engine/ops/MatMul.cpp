#include "engine/ops/MatMul.h"

#include "engine/core/Error.h"
#include "engine/ops/Mapping.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace tessera::ops {

namespace {

std::size_t ceilDiv(std::size_t a, std::size_t b) {
    return (a + b - 1) / b;
}

// [begin, end) of part `i` of `n` split into `parts`.
std::pair<std::size_t, std::size_t> part(std::size_t n, std::size_t parts, std::size_t i) {
    return {n * i / parts, n * (i + 1) / parts};
}

} // namespace

MatMulPlan planMatMul(const Target& target, std::size_t m, std::size_t k, std::size_t n,
                      Type type) {
    return planMatMulOnTiles(target, target.numTiles(), m, k, n, type);
}

MatMulPlan planMatMulOnTiles(const Target& target, std::size_t tiles, std::size_t m, std::size_t k,
                             std::size_t n, Type type) {
    const double size = static_cast<double>(sizeOf(type));
    const double peak = type == Type::Half ? target.fp16FlopsPerCycle : target.fp32FlopsPerCycle;
    const double bandwidth = target.exchangeBytesPerCycle;
    const double budget = target.bytesPerTile * 0.6;
    MatMulPlan best;
    best.estimatedCycles = -1;
    for (std::size_t pm = 1; pm <= std::min(m, tiles); ++pm) {
        for (std::size_t pn = 1; pn <= std::min(n, tiles / pm); ++pn) {
            const std::size_t maxK = std::min(k, tiles / (pm * pn));
            for (std::size_t pk = 1; pk <= maxK; pk = pk < maxK && pk * 2 > maxK ? maxK : pk * 2) {
                const double rb = static_cast<double>(ceilDiv(m, pm));
                const double cb = static_cast<double>(ceilDiv(n, pn));
                const double kb = static_cast<double>(ceilDiv(k, pk));
                const double compute = 2 * rb * cb * kb / peak + 24 * target.numWorkerContexts;
                const double inputs = (rb * kb + kb * cb) * size;
                double cycles = compute + inputs / bandwidth;
                double memory = inputs + rb * cb * 4;
                if (pk > 1) { // each tile sums rb/pk rows of pk partials
                    const double rowsHere = std::ceil(rb / static_cast<double>(pk));
                    cycles += rowsHere * cb * 4 * static_cast<double>(pk - 1) / bandwidth +
                              rowsHere * (static_cast<double>(pk) * (4 + cb / 2)) *
                                  target.numWorkerContexts /
                                  std::min<double>(rowsHere, target.numWorkerContexts) +
                              2.0 * target.ipuSyncCycles;
                    memory += rowsHere * cb * 4 * static_cast<double>(pk);
                }
                if (memory > budget) {
                    cycles *= 4; // allowed, but only if nothing fits
                }
                if (best.estimatedCycles < 0 || cycles < best.estimatedCycles) {
                    best = {pm, pn, pk, cycles};
                }
                if (pk == maxK) {
                    break;
                }
            }
        }
    }
    return best;
}

std::uint64_t matMulWorkingBytes(const Target& target, std::size_t m, std::size_t k, std::size_t n,
                                 Type type) {
    const MatMulPlan plan = planMatMul(target, m, k, n, type);
    // Each A block is copied to the pn tiles of its row, each B block to the
    // pm tiles of its column (as matMul lays out aBlocks and bBlocks).
    std::uint64_t bytes =
        sizeOf(type) * (std::uint64_t{m} * k * plan.pn + std::uint64_t{k} * n * plan.pm);
    if (plan.pk > 1) {
        bytes += sizeOf(Type::Float) * plan.pm * plan.pn * plan.pk * ceilDiv(m, plan.pm) *
                 ceilDiv(n, plan.pn);
    }
    return bytes;
}

namespace {

void checkOperands(const Tensor& a, const Tensor& b, const std::string& name) {
    if (a.rank() != 2 || b.rank() != 2 || a.dim(1) != b.dim(0)) {
        throw Error(name + ": cannot multiply " + a.describe() + " " + shapeString(a.shape()) +
                    " by " + b.describe() + " " + shapeString(b.shape()));
    }
    if (a.elementType() != b.elementType() ||
        (a.elementType() != Type::Float && a.elementType() != Type::Half)) {
        throw Error(name + ": matMul needs two float or two half operands, got " +
                    std::string(typeName(a.elementType())) + " and " +
                    std::string(typeName(b.elementType())));
    }
}

// One-element copies beyond which a scattered operand is rearranged first:
// each is a separate exchange instruction on a real IPU (and a transfer the
// host holds), where a rearranged operand's block copies are whole rows.
constexpr std::size_t kRearrangeAboveCopies = std::size_t{1} << 20;

// The operands `xs` (each copied to `copies` tiles), or when their views are
// scattered (on average under two elements a region, as a transpose is) and
// those copies would exceed kRearrangeAboveCopies, row-major copies of them
// made by one Copy added to `body`, spread over all tiles by whole rows.
std::vector<Tensor> rearrangeScattered(Graph& graph, program::Sequence& body,
                                       const std::vector<Tensor>& xs, std::size_t copies,
                                       const std::string& name, const char* operand) {
    std::size_t regions = 0, elements = 0;
    for (const Tensor& x : xs) {
        regions += x.regions().size();
        elements += x.numElements();
    }
    if (copies < 2 || regions * 2 <= elements || regions * copies <= kRearrangeAboveCopies) {
        return xs;
    }
    const std::size_t rows = xs[0].dim(0), cols = xs[0].dim(1);
    const Tensor all = graph.addVariable(xs[0].elementType(), {xs.size(), rows, cols},
                                         name + "/rearranged" + operand);
    mapLinearly(graph, all, std::max<std::size_t>(1, cols));
    std::vector<Tensor> sources, out;
    for (std::size_t g = 0; g < xs.size(); ++g) {
        sources.push_back(xs[g].flatten());
        out.push_back(all[g]);
    }
    body.add(program::Copy(concat(sources), all.flatten(), name + "/rearrange" + operand));
    return out;
}

// The products of as[g] . bs[g] (all of one shape) into c[g], group g planned
// on its own `tilesPerGroup` tiles from tile g * tilesPerGroup (wrapping when
// the groups outnumber the tiles), all groups in one compute set per phase.
// `makeOutputs` creates the outputs, one per group (after the block copies,
// so the variables are made in the order the profile has always shown).
void buildGroups(Graph& graph, program::Sequence& seq, const std::vector<Tensor>& as,
                 const std::vector<Tensor>& bs,
                 const std::function<std::vector<Tensor>()>& makeOutputs, std::size_t tilesPerGroup,
                 const std::string& name, const char* function) {
    const Type type = as[0].elementType();
    const std::string tn(typeName(type));
    const std::size_t m = as[0].dim(0), k = as[0].dim(1), n = bs[0].dim(1);
    const std::size_t groups = as.size();
    const std::size_t numTiles = graph.getTarget().numTiles();
    const MatMulPlan plan = planMatMulOnTiles(graph.getTarget(), tilesPerGroup, m, k, n, type);
    const std::size_t workers = graph.getTarget().numWorkerContexts;
    auto tileOf = [&](std::size_t g, std::size_t i, std::size_t j, std::size_t l) {
        return record::idAt<TileId>((g * tilesPerGroup + (i * plan.pn + j) * plan.pk + l) %
                                    numTiles);
    };

    // A scattered operand (a transpose) copied element by element to several
    // tiles is first rearranged once into row-major order, as poplin
    // rearranges operands; the block copies then move whole rows.
    program::Sequence body;
    const std::vector<Tensor> aUsed = rearrangeScattered(graph, body, as, plan.pn, name, "A");
    const std::vector<Tensor> bUsed = rearrangeScattered(graph, body, bs, plan.pm, name, "B");

    // Per-tile contiguous copies of the A and B blocks each tile multiplies,
    // block (g, i, j, l) at index ((g * pm + i) * pn + j) * pk + l, the order
    // of the loops below.
    const std::size_t blocks = groups * plan.pm * plan.pn * plan.pk;
    struct Bounds {
        std::size_t g, r0, r1, c0, c1, k0, k1;
    };
    const auto boundsOf = [&](std::size_t index) {
        const std::size_t l = index % plan.pk, j = index / plan.pk % plan.pn,
                          i = index / (plan.pk * plan.pn) % plan.pm,
                          g = index / (plan.pk * plan.pn * plan.pm);
        const auto [r0, r1] = part(m, plan.pm, i);
        const auto [c0, c1] = part(n, plan.pn, j);
        const auto [k0, k1] = part(k, plan.pk, l);
        return Bounds{g, r0, r1, c0, c1, k0, k1};
    };
    // Regions expected of row-major operands, a block row each: every row of
    // A is cut into pk pieces, each in pn blocks; every row of B into pn
    // pieces, each in pm blocks.
    const Tensor aSource = concatFlattened(
        blocks,
        [&](std::size_t index) {
            const Bounds b = boundsOf(index);
            return aUsed[b.g].slice({b.r0, b.k0}, {b.r1, b.k1});
        },
        groups * m * plan.pn * plan.pk);
    const Tensor bSource = concatFlattened(
        blocks,
        [&](std::size_t index) {
            const Bounds b = boundsOf(index);
            return bUsed[b.g].slice({b.k0, b.c0}, {b.k1, b.c1});
        },
        groups * k * plan.pm * plan.pn);
    Tensor aBlocks = graph.addVariable(type, {aSource.numElements()}, name + "/aBlocks");
    Tensor bBlocks = graph.addVariable(type, {bSource.numElements()}, name + "/bBlocks");
    const std::vector<Tensor> cs = makeOutputs();
    const bool reduce = plan.pk > 1;
    const Type partialType = Type::Float;
    const std::size_t partialStride = ceilDiv(m, plan.pm) * ceilDiv(n, plan.pn);
    const std::size_t groupPartials = plan.pm * plan.pn * plan.pk * partialStride;
    Tensor partials;
    if (reduce) {
        partials = graph.addVariable(partialType, {groups * groupPartials}, name + "/partials");
    }
    const ComputeSet products = graph.addComputeSet(name + "/products");
    const ComputeSet sums = reduce ? graph.addComputeSet(name + "/reduce") : ComputeSet{};
    const std::string productCodelet =
        "MatMulPartial<" + tn + "," + (reduce ? std::string(typeName(partialType)) : tn) + ">";
    const std::string reduceCodelet =
        "ReducePartials<" + std::string(typeName(partialType)) + "," + tn + ">";
    std::size_t aPos = 0, bPos = 0;
    for (std::size_t g = 0; g < groups; ++g) {
        const Tensor& c = cs[g];
        std::size_t blockIndex = 0;
        for (std::size_t i = 0; i < plan.pm; ++i) {
            for (std::size_t j = 0; j < plan.pn; ++j) {
                for (std::size_t l = 0; l < plan.pk; ++l, ++blockIndex) {
                    const TileId tile = tileOf(g, i, j, l);
                    const auto [r0, r1] = part(m, plan.pm, i);
                    const auto [c0, c1] = part(n, plan.pn, j);
                    const auto [k0, k1] = part(k, plan.pk, l);
                    const std::size_t rows = r1 - r0, cols = c1 - c0, kb = k1 - k0;
                    const Tensor aBlock = aBlocks.slice(aPos, aPos + rows * kb);
                    const Tensor bBlock = bBlocks.slice(bPos, bPos + kb * cols);
                    graph.setTileMapping(aBlock, tile);
                    graph.setTileMapping(bBlock, tile);
                    aPos += rows * kb;
                    bPos += kb * cols;
                    const std::size_t pOffset = g * groupPartials + blockIndex * partialStride;
                    if (reduce) {
                        graph.setTileMapping(partials.slice(pOffset, pOffset + partialStride),
                                             tile);
                    } else {
                        graph.setTileMapping(c.slice({r0, c0}, {r1, c1}), tile);
                    }
                    for (const auto& [w0, w1] : splitRange(0, rows, workers, 1)) {
                        // Output rows w0..w1, one entry each.
                        const Tensor out =
                            reduce ? partials.slice(pOffset + w0 * cols, pOffset + w1 * cols)
                                         .reshape({w1 - w0, cols})
                                   : c.slice({r0 + w0, c0}, {r0 + w1, c1});
                        VertexRef v =
                            graph.addVertex(products, productCodelet,
                                            {{"a", aBlock.slice(w0 * kb, w1 * kb)}, {"b", bBlock}});
                        graph.connectRows(v["out"], out);
                        graph.setTileMapping(v, tile);
                    }
                }
                if (!reduce) {
                    continue;
                }
                // Rows of output block (i, j) are shared out among its pk tiles.
                const auto [r0, r1] = part(m, plan.pm, i);
                const auto [c0, c1] = part(n, plan.pn, j);
                const std::size_t cols = c1 - c0;
                // The block's pk partial outputs, one a row.
                const std::size_t first =
                    g * groupPartials + (i * plan.pn + j) * plan.pk * partialStride;
                const Tensor blockPartials = partials.slice(first, first + plan.pk * partialStride)
                                                 .reshape({plan.pk, partialStride});
                for (std::size_t l = 0; l < plan.pk; ++l) {
                    const TileId tile = tileOf(g, i, j, l);
                    const auto [q0, q1] = part(r1 - r0, plan.pk, l);
                    if (q0 < q1) {
                        graph.setTileMapping(c.slice({r0 + q0, c0}, {r0 + q1, c1}), tile);
                    }
                    for (std::size_t r = q0; r < q1; ++r) {
                        VertexRef v = graph.addVertex(sums, reduceCodelet,
                                                      {{"out", c[r0 + r].slice(c0, c1)}});
                        // Row r of each of the pk partial outputs.
                        graph.connectRows(
                            v["partials"],
                            blockPartials.slice({0, r * cols}, {plan.pk, (r + 1) * cols}));
                        graph.setTileMapping(v, tile);
                    }
                }
            }
        }
    }
    body.add(program::Copy(aSource, aBlocks, name + "/copyA"));
    body.add(program::Copy(bSource, bBlocks, name + "/copyB"));
    body.add(program::Execute(products));
    if (reduce) {
        body.add(program::Execute(sums));
    }
    seq.add(program::Block(body, name, program::LibraryCall{function}));
}

} // namespace

Tensor matMul(Graph& graph, program::Sequence& seq, const Tensor& a, const Tensor& b,
              const std::string& name) {
    checkOperands(a, b, name);
    Tensor c;
    const auto makeOutput = [&] {
        c = graph.addVariable(a.elementType(), {a.dim(0), b.dim(1)}, name + "/out");
        return std::vector<Tensor>{c};
    };
    buildGroups(graph, seq, {a}, {b}, makeOutput, graph.getTarget().numTiles(), name, __func__);
    return c;
}

Tensor matMulGrouped(Graph& graph, program::Sequence& seq, const Tensor& a, const Tensor& b,
                     const std::string& name) {
    if (a.rank() != 3 || b.rank() != 3 || a.dim(0) != b.dim(0)) {
        throw Error(name + ": grouped operands must be {G,m,k} and {G,k,n}, got " +
                    shapeString(a.shape()) + " and " + shapeString(b.shape()));
    }
    const std::size_t groups = a.dim(0);
    std::vector<Tensor> as, bs;
    for (std::size_t g = 0; g < groups; ++g) {
        checkOperands(a[g], b[g], name);
        as.push_back(a[g]);
        bs.push_back(b[g]);
    }
    Tensor c;
    const auto makeOutputs = [&] {
        c = graph.addVariable(a.elementType(), {groups, a.dim(1), b.dim(2)}, name + "/out");
        std::vector<Tensor> cs;
        for (std::size_t g = 0; g < groups; ++g) {
            cs.push_back(c[g]);
        }
        return cs;
    };
    if (groups == 0 || a.dim(1) * b.dim(2) == 0) {
        makeOutputs();
        return c;
    }
    const std::size_t tiles = graph.getTarget().numTiles();
    buildGroups(graph, seq, as, bs, makeOutputs, std::max<std::size_t>(1, tiles / groups), name,
                __func__);
    return c;
}

} // namespace tessera::ops
