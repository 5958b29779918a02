// popops' DynamicSlice, Sort and Encoding on the engine's ops (Slice.h,
// Order.h), and Loop.hpp's counted loops built from popops' own operations.
#include "engine/ops/Slice.h"

#include "Common.h"
#include "engine/ops/Mapping.h"
#include "engine/ops/Order.h"

#include <popops/DynamicSlice.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Encoding.hpp>
#include <popops/Loop.hpp>
#include <popops/Sort.hpp>

#include <algorithm>

namespace popops {

using detail::eg;
using detail::et;
using detail::nameOf;
using detail::pt;

namespace {

std::vector<std::size_t> sliceShape(std::vector<std::size_t> shape,
                                    const std::vector<std::size_t>& dims,
                                    const std::vector<std::size_t>& sizes, std::size_t numIndices,
                                    const char* what) {
    if (dims.size() != sizes.size()) {
        throw poputil::poplibs_error(std::string(what) + ": " + std::to_string(dims.size()) +
                                     " dimensions but " + std::to_string(sizes.size()) + " sizes");
    }
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (dims[i] >= shape.size() || sizes[i] > shape[dims[i]]) {
            throw poputil::poplibs_error(std::string(what) + ": dimension " +
                                         std::to_string(dims[i]) + " (size " +
                                         std::to_string(sizes[i]) + ") does not fit the shape");
        }
        shape[dims[i]] = sizes[i];
    }
    std::vector<std::size_t> out(shape.size() + 1, numIndices);
    std::copy(shape.begin(), shape.end(), out.begin() + 1);
    return out;
}

poplar::Tensor linearVariable(poplar::Graph& graph, const poplar::Type& type,
                              const std::vector<std::size_t>& shape, const std::string& name) {
    poplar::Tensor t = graph.addVariable(type, shape, name);
    detail::run(graph, [&] { tessera::ops::mapLinearly(eg(graph), et(t)); });
    return t;
}

// The one sliced dimension of the multi* functions.
std::size_t singleDim(const std::vector<std::size_t>& dims, const std::vector<std::size_t>& sizes,
                      const char* what) {
    if (dims.size() != 1 || sizes.size() != 1) {
        detail::unsupported(std::string(what) + " over " + std::to_string(dims.size()) +
                            " dimensions (one is supported)");
    }
    return dims[0];
}

// PopLibs' checks of a multi-dimension slice's offsets: [n, dims.size()].
void checkMultiOffsets(const poplar::Tensor& offsets, const std::vector<std::size_t>& dims,
                       const std::vector<std::size_t>& sizes, const std::string& what) {
    if (dims.size() != sizes.size()) {
        throw poputil::poplibs_error(what + ": " + std::to_string(dims.size()) +
                                     " dimensions but " + std::to_string(sizes.size()) + " sizes");
    }
    if (offsets.rank() != 2 || offsets.dim(1) != dims.size()) {
        throw poputil::poplibs_error(what + ": the offsets " + offsets.shapeToString() +
                                     " must be [number of slices, " + std::to_string(dims.size()) +
                                     "] (one per sliced dimension)");
    }
}

} // namespace

namespace embedding {
SlicePlan plan(const poplar::Graph&, const poplar::Type&, std::size_t, std::size_t,
               const std::vector<std::size_t>&, const poplar::OptionFlags&) {
    return SlicePlan();
}
} // namespace embedding

poplar::Tensor createSliceableTensor(poplar::Graph& graph, const poplar::Type& type,
                                     const std::vector<std::size_t>& shape,
                                     const std::vector<std::size_t>& dims,
                                     const std::vector<std::size_t>& sizes,
                                     std::size_t minGrainSize, const poplar::DebugContext& dc) {
    sliceShape(shape, dims, sizes, 1, "createSliceableTensor");
    const std::string name = nameOf(dc, "sliceable");
    if (dims.size() != 1) {
        return linearVariable(graph, type, shape, name);
    }
    return detail::run(graph, [&] {
        return pt(tessera::ops::createSliceable(eg(graph), poplar::detail::engineType(type), shape,
                                                dims[0], std::max<std::size_t>(1, minGrainSize),
                                                name));
    });
}

poplar::Tensor createSliceableTensor(poplar::Graph& graph, const poplar::Type& type,
                                     const std::vector<std::size_t>& shape,
                                     const std::vector<std::size_t>& dims,
                                     const std::vector<std::size_t>& sizes, const SlicePlan&,
                                     const poplar::OptionFlags&, const poplar::DebugContext& dc) {
    return createSliceableTensor(graph, type, shape, dims, sizes, 0, dc);
}

poplar::Tensor createSliceTensor(poplar::Graph& graph, const poplar::Tensor& t,
                                 const std::vector<std::size_t>& dims,
                                 const std::vector<std::size_t>& sizes, std::size_t numIndices,
                                 const poplar::DebugContext& dc) {
    return linearVariable(graph, t.elementType(),
                          sliceShape(t.shape(), dims, sizes, numIndices, "createSliceTensor"),
                          nameOf(dc, "slices"));
}

poplar::Tensor createSliceTensor(poplar::Graph& graph, const poplar::Type& type,
                                 const std::vector<std::size_t>& shape,
                                 const std::vector<std::size_t>& dims,
                                 const std::vector<std::size_t>& sizes, std::size_t numIndices,
                                 const SlicePlan&, const poplar::OptionFlags&,
                                 const poplar::DebugContext& dc) {
    return linearVariable(graph, type,
                          sliceShape(shape, dims, sizes, numIndices, "createSliceTensor"),
                          nameOf(dc, "slices"));
}

poplar::Tensor createIndicesTensor(poplar::Graph& graph, const std::vector<std::size_t>& dims,
                                   std::size_t numIndices, const SlicePlan&,
                                   const poplar::OptionFlags&, const poplar::DebugContext& dc) {
    return linearVariable(graph, poplar::UNSIGNED_INT, {numIndices, dims.size()},
                          nameOf(dc, "indices"));
}

poplar::Tensor createSliceableTensorFromSlice(poplar::Graph& graph, const poplar::Tensor& s,
                                              const std::vector<std::size_t>& dims,
                                              const std::vector<std::size_t>& numSlices,
                                              const poplar::DebugContext& dc) {
    if (dims.size() != numSlices.size()) {
        throw poputil::poplibs_error(
            "createSliceableTensorFromSlice: " + std::to_string(dims.size()) + " dimensions but " +
            std::to_string(numSlices.size()) + " slice counts");
    }
    std::vector<std::size_t> shape = s.shape();
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (dims[i] >= shape.size()) {
            throw poputil::poplibs_error("createSliceableTensorFromSlice: dimension " +
                                         std::to_string(dims[i]) + " is out of range");
        }
        shape[dims[i]] *= numSlices[i];
    }
    std::vector<std::size_t> sizes;
    for (std::size_t d : dims) {
        sizes.push_back(s.dim(unsigned(d)));
    }
    return createSliceableTensor(graph, s.elementType(), shape, dims, sizes, 0, dc);
}

poplar::Tensor dynamicSlice(poplar::Graph& graph, const poplar::Tensor& t,
                            const poplar::Tensor& offset, const std::vector<std::size_t>& dims,
                            const std::vector<std::size_t>& sizes, poplar::program::Sequence& prog,
                            const poplar::DebugContext& dc, const poplar::OptionFlags&) {
    return detail::run(graph, [&] {
        return pt(detail::intoSequence(prog, [&](tessera::program::Sequence& seq) {
            return tessera::ops::dynamicSlice(eg(graph), seq, et(t), et(offset), dims, sizes,
                                              nameOf(dc, "dynamicSlice"));
        }));
    });
}

void dynamicSliceWithOutput(poplar::Graph& graph, const poplar::Tensor& output,
                            const poplar::Tensor& t, const poplar::Tensor& offset,
                            const std::vector<std::size_t>& dims,
                            const std::vector<std::size_t>& sizes, poplar::program::Sequence& prog,
                            const poplar::DebugContext& dc, const poplar::OptionFlags&) {
    detail::run(graph, [&] {
        detail::intoSequence(prog, [&](tessera::program::Sequence& seq) {
            tessera::ops::dynamicSliceWithOutput(eg(graph), seq, et(output), et(t), et(offset),
                                                 dims, sizes, nameOf(dc, "dynamicSlice"));
        });
    });
}

void dynamicUpdate(poplar::Graph& graph, const poplar::Tensor& t, const poplar::Tensor& s,
                   const poplar::Tensor& offset, const std::vector<std::size_t>& dims,
                   const std::vector<std::size_t>& sizes, poplar::program::Sequence& prog,
                   const poplar::DebugContext& dc, const poplar::OptionFlags&) {
    detail::run(graph, [&] {
        detail::intoSequence(prog, [&](tessera::program::Sequence& seq) {
            tessera::ops::dynamicUpdate(eg(graph), seq, et(t), et(s), et(offset), dims, sizes,
                                        nameOf(dc, "dynamicUpdate"));
        });
    });
}

poplar::Tensor multiSlice(poplar::Graph& graph, const poplar::Tensor& t,
                          const poplar::Tensor& offsets, const std::vector<std::size_t>& dims,
                          const std::vector<std::size_t>& sizes, poplar::program::Sequence& prog,
                          const SlicePlan&, const poplar::OptionFlags&,
                          const poplar::DebugContext& dc) {
    if (dims.size() > 1) {
        // As PopLibs: one dynamic slice per row of offsets, into out[i].
        checkMultiOffsets(offsets, dims, sizes, "multiSlice");
        const poplar::Tensor out = createSliceTensor(graph, t, dims, sizes, offsets.dim(0),
                                                     poplar::DebugContext(dc, "out"));
        poplar::program::Sequence body;
        for (std::size_t i = 0; i < offsets.dim(0); ++i) {
            dynamicSliceWithOutput(graph, out[i], t, offsets[i], dims, sizes, body,
                                   poplar::DebugContext(dc, std::to_string(i)));
        }
        prog.add(detail::libraryBlock(body, nameOf(dc, "multiSlice")));
        return out;
    }
    if (offsets.rank() == 2) {
        checkMultiOffsets(offsets, dims, sizes, "multiSlice");
    }
    const std::size_t dim = singleDim(dims, sizes, "popops::multiSlice");
    return detail::run(graph, [&] {
        return pt(detail::intoSequence(prog, [&](tessera::program::Sequence& seq) {
            return tessera::ops::multiSlice(eg(graph), seq, et(t), et(offsets), dim, sizes[0],
                                            nameOf(dc, "multiSlice"));
        }));
    });
}

poplar::Tensor multiSlice(poplar::Graph& graph, const poplar::Tensor& t,
                          poplar::ArrayRef<unsigned> offsets, std::size_t dim,
                          poplar::program::Sequence& prog, const poplar::DebugContext& dc,
                          const poplar::OptionFlags&) {
    if (dim >= t.rank()) {
        throw poputil::poplibs_error("multiSlice: dimension " + std::to_string(dim) +
                                     " is out of range for " + t.shapeToString());
    }
    const poplar::Tensor out =
        createSliceTensor(graph, t, {dim}, {1}, offsets.size(), poplar::DebugContext(dc, "out"));
    poplar::program::Sequence copies;
    for (std::size_t i = 0; i < offsets.size(); ++i) {
        if (offsets[i] >= t.dim(unsigned(dim))) {
            throw poputil::poplibs_error("multiSlice: offset " + std::to_string(offsets[i]) +
                                         " is out of range for dimension " + std::to_string(dim) +
                                         " of " + t.shapeToString());
        }
        copies.add(
            poplar::program::Copy(t.slice(offsets[i], offsets[i] + 1, unsigned(dim)), out[i]));
    }
    prog.add(detail::libraryBlock(copies, nameOf(dc, "multiSlice")));
    return out;
}

namespace {

void multiUpdateOp(poplar::Graph& graph, const poplar::Tensor& t, const poplar::Tensor& s,
                   const poplar::Tensor& offsets, const std::vector<std::size_t>& dims,
                   const std::vector<std::size_t>& sizes, poplar::program::Sequence& prog,
                   tessera::ops::UpdateOp op, const poplar::Tensor* scale,
                   const poplar::DebugContext& dc, const char* what) {
    if (dims.size() > 1) {
        checkMultiOffsets(offsets, dims, sizes, what);
        if (op != tessera::ops::UpdateOp::Assign) { // as PopLibs: one dimension only
            throw poputil::poplibs_error(std::string(what) +
                                         " requires dims to specify 1 dimension");
        }
        if (s.rank() != t.rank() + 1 || s.dim(0) != offsets.dim(0)) {
            throw poputil::poplibs_error(std::string(what) + ": the slices " + s.shapeToString() +
                                         " must be [" + std::to_string(offsets.dim(0)) +
                                         ", ...] with one slice per row of offsets");
        }
        // As PopLibs: one dynamic update per row of offsets, in order.
        poplar::program::Sequence body;
        for (std::size_t i = 0; i < offsets.dim(0); ++i) {
            dynamicUpdate(graph, t, s[i], offsets[i], dims, sizes, body,
                          poplar::DebugContext(dc, std::to_string(i)));
        }
        prog.add(detail::libraryBlock(body, nameOf(dc, what)));
        return;
    }
    if (offsets.rank() == 2) {
        checkMultiOffsets(offsets, dims, sizes, what);
    }
    const std::size_t dim = singleDim(dims, sizes, what);
    detail::run(graph, [&] {
        std::optional<tessera::Tensor> sc;
        if (scale != nullptr) {
            sc = et(*scale);
        }
        detail::intoSequence(prog, [&](tessera::program::Sequence& seq) {
            tessera::ops::multiUpdate(eg(graph), seq, et(t), et(s), et(offsets), dim, sizes[0], op,
                                      sc, nameOf(dc, what));
        });
    });
}

} // namespace

void multiUpdate(poplar::Graph& graph, const poplar::Tensor& t, const poplar::Tensor& s,
                 const poplar::Tensor& offsets, const std::vector<std::size_t>& dims,
                 const std::vector<std::size_t>& sizes, poplar::program::Sequence& prog,
                 const SlicePlan&, const poplar::OptionFlags&, const poplar::DebugContext& dc) {
    multiUpdateOp(graph, t, s, offsets, dims, sizes, prog, tessera::ops::UpdateOp::Assign, nullptr,
                  dc, "multiUpdate");
}

void multiUpdateAdd(poplar::Graph& graph, const poplar::Tensor& t, const poplar::Tensor& s,
                    const poplar::Tensor& offsets, const poplar::Tensor& scale,
                    const std::vector<std::size_t>& dims, const std::vector<std::size_t>& sizes,
                    poplar::program::Sequence& prog, const SlicePlan&, const poplar::OptionFlags&,
                    const poplar::DebugContext& dc) {
    multiUpdateOp(graph, t, s, offsets, dims, sizes, prog, tessera::ops::UpdateOp::Add, &scale, dc,
                  "multiUpdateAdd");
}

void multiUpdateMax(poplar::Graph& graph, const poplar::Tensor& t, const poplar::Tensor& s,
                    const poplar::Tensor& offsets, const std::vector<std::size_t>& dims,
                    const std::vector<std::size_t>& sizes, poplar::program::Sequence& prog,
                    const SlicePlan&, const poplar::OptionFlags&, const poplar::DebugContext& dc) {
    multiUpdateOp(graph, t, s, offsets, dims, sizes, prog, tessera::ops::UpdateOp::Max, nullptr, dc,
                  "multiUpdateMax");
}

// --- Sort ---------------------------------------------------------------------

poplar::Tensor sort(poplar::Graph& graph, const poplar::Tensor& t, unsigned dim,
                    poplar::program::Sequence& prog, const poplar::DebugContext& dc) {
    return detail::run(graph, [&] {
        return pt(detail::intoSequence(prog, [&](tessera::program::Sequence& seq) {
            return tessera::ops::sort(eg(graph), seq, et(t), dim, nameOf(dc, "sort"));
        }));
    });
}

void sortInPlace(poplar::Graph& graph, const poplar::Tensor& t, unsigned dim,
                 poplar::program::Sequence& prog, const poplar::DebugContext& dc) {
    detail::run(graph, [&] {
        detail::intoSequence(prog, [&](tessera::program::Sequence& seq) {
            tessera::ops::sortInPlace(eg(graph), seq, et(t), dim, nameOf(dc, "sortInPlace"));
        });
    });
}

poplar::Tensor sortKeyValue(poplar::Graph& graph, const poplar::Tensor& k, const poplar::Tensor& v,
                            unsigned dim, poplar::program::Sequence& prog,
                            const poplar::DebugContext& dc) {
    return detail::run(graph, [&] {
        return pt(detail::intoSequence(prog, [&](tessera::program::Sequence& seq) {
            return tessera::ops::sortKeyValue(eg(graph), seq, et(k), et(v), dim,
                                              nameOf(dc, "sortKeyValue"));
        }));
    });
}

void sortKeyValueInPlace(poplar::Graph& graph, const poplar::Tensor& k, const poplar::Tensor& v,
                         unsigned dim, poplar::program::Sequence& prog,
                         const poplar::DebugContext& dc) {
    detail::run(graph, [&] {
        detail::intoSequence(prog, [&](tessera::program::Sequence& seq) {
            tessera::ops::sortKeyValueInPlace(eg(graph), seq, et(k), et(v), dim,
                                              nameOf(dc, "sortKeyValueInPlace"));
        });
    });
}

// --- Encoding -----------------------------------------------------------------

namespace {

void oneHot(poplar::Graph& graph, const poplar::Tensor& indices, const poplar::Tensor& encoded,
            poplar::program::Sequence& prog, const poplar::Tensor* on, const poplar::Tensor* off,
            const poplar::DebugContext& dc) {
    detail::run(graph, [&] {
        std::optional<tessera::Tensor> eon, eoff;
        if (on != nullptr) {
            eon = et(*on);
            eoff = et(*off);
        }
        detail::intoSequence(prog, [&](tessera::program::Sequence& seq) {
            tessera::ops::encodeOneHot(eg(graph), seq, et(indices), et(encoded), eon, eoff,
                                       nameOf(dc, "encodeOneHot"));
        });
    });
}

void iotaOf(poplar::Graph& graph, const poplar::Tensor& t, const poplar::Type& type, double start,
            poplar::program::Sequence& prog, const poplar::DebugContext& dc) {
    if (t.elementType() != type) {
        throw poputil::poplibs_error("iota: the tensor must be " + type.toString() + ", not " +
                                     t.elementType().toString());
    }
    detail::run(graph, [&] {
        detail::intoSequence(prog, [&](tessera::program::Sequence& seq) {
            tessera::ops::iota(eg(graph), seq, et(t), start, nameOf(dc, "iota"));
        });
    });
}

} // namespace

void encodeOneHot(poplar::Graph& graph, const poplar::Tensor& indices,
                  const poplar::Tensor& encoded, poplar::program::Sequence& prog,
                  const poplar::DebugContext& dc) {
    oneHot(graph, indices, encoded, prog, nullptr, nullptr, dc);
}

void encodeOneHot(poplar::Graph& graph, const poplar::Tensor& indices,
                  const poplar::Tensor& encoded, poplar::program::Sequence& prog,
                  const poplar::Tensor& on, const poplar::Tensor& off,
                  const poplar::DebugContext& dc) {
    oneHot(graph, indices, encoded, prog, &on, &off, dc);
}

void iota(poplar::Graph& graph, const poplar::Tensor& t, unsigned startInteger,
          poplar::program::Sequence& prog, const poplar::DebugContext& dc) {
    iotaOf(graph, t, poplar::UNSIGNED_INT, startInteger, prog, dc);
}

void iota(poplar::Graph& graph, const poplar::Tensor& t, int startInteger,
          poplar::program::Sequence& prog, const poplar::DebugContext& dc) {
    iotaOf(graph, t, poplar::INT, startInteger, prog, dc);
}

// --- Loop ---------------------------------------------------------------------

namespace {

poplar::Tensor scalarConstant(poplar::Graph& graph, const poplar::Type& type, long long value) {
    poplar::Tensor c = type == poplar::UNSIGNED_INT
                           ? graph.addConstant(type, {}, static_cast<unsigned>(value))
                           : graph.addConstant(type, {}, static_cast<int>(value));
    graph.setTileMapping(c, 0);
    return c;
}

// count = initial; while (count != limit) { body; count += step; }
poplar::program::Sequence loop(poplar::Graph& graph, const poplar::Tensor& count, long long initial,
                               const poplar::Tensor& limit, long long step,
                               const poplar::program::Program& body, const std::string& name) {
    if (count.elementType() != poplar::INT && count.elementType() != poplar::UNSIGNED_INT) {
        throw poputil::poplibs_error(name + ": the loop counter must be INT or UNSIGNED_INT");
    }
    poplar::program::Sequence out;
    out.add(poplar::program::Copy(scalarConstant(graph, count.elementType(), initial), count));
    poplar::program::Sequence condition;
    const poplar::Tensor more = neq(graph, count, limit, condition, name + "/condition");
    poplar::program::Sequence pass;
    pass.add(body);
    addInPlace(graph, count, scalarConstant(graph, count.elementType(), step), pass,
               name + "/increment");
    out.add(poplar::program::RepeatWhileTrue(condition, more, pass));
    return poplar::program::Sequence({detail::libraryBlock(out, name)});
}

} // namespace

poplar::program::Sequence countedLoop(poplar::Graph& graph, std::size_t begin, std::size_t end,
                                      std::size_t step, const CountedLoopBodyType& body,
                                      const poplar::DebugContext& dc) {
    if (step == 0 || end < begin || (end - begin) % step != 0) {
        throw poputil::poplibs_error("countedLoop: the step must be positive and divide end - "
                                     "begin (begin " +
                                     std::to_string(begin) + ", end " + std::to_string(end) +
                                     ", step " + std::to_string(step) + ")");
    }
    const std::string name = nameOf(dc, "countedLoop");
    poplar::Tensor counter = graph.addVariable(poplar::UNSIGNED_INT, {}, name + "/counter");
    graph.setTileMapping(counter, 0);
    const poplar::Tensor limit =
        scalarConstant(graph, poplar::UNSIGNED_INT, static_cast<long long>(end));
    return loop(graph, counter, static_cast<long long>(begin), limit, static_cast<long long>(step),
                body(counter), name);
}

poplar::program::Sequence countedLoop(poplar::Graph& graph, std::size_t count,
                                      const CountedLoopBodyType& body,
                                      const poplar::DebugContext& dc) {
    return countedLoop(graph, 0, count, 1, body, dc);
}

poplar::program::Sequence countedForLoop(poplar::Graph& graph, const poplar::Tensor& count,
                                         int initialCount, const poplar::Tensor& countLimit,
                                         int countStep, const poplar::program::Program& body,
                                         const poplar::DebugContext& dc) {
    return loop(graph, count, initialCount, countLimit, countStep, body,
                nameOf(dc, "countedForLoop"));
}

poplar::program::Sequence countedForLoop(poplar::Graph& graph, int initialCount,
                                         const poplar::Tensor& countLimit, int countStep,
                                         const poplar::program::Program& body,
                                         const poplar::DebugContext& dc) {
    const std::string name = nameOf(dc, "countedForLoop");
    poplar::Tensor count = graph.addVariable(countLimit.elementType(), {}, name + "/count");
    graph.setTileMapping(count, 0);
    return countedForLoop(graph, count, initialCount, countLimit, countStep, body, dc);
}

} // namespace popops
