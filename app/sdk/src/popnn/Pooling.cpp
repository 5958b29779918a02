// popnn::pooling on the engine: the output (or, for the gradients, the
// input-shaped result) is spread over the tiles a (batch, channel) plane at a
// time, and one vertex per plane, on the tile holding its result, pools the
// plane's inputs exchanged to it. A configuration's windows are worked out
// once, as a worklist (constants on each tile that pools) the vertices read,
// so the codelets are fixed (popnn::Pool<T>, PoolMaxGradient<T>,
// PoolSumGradient<T>) and a serialised executable finds them again.
#include "Common.h"
#include "engine/codelets/Codelet.h"
#include "engine/codelets/Vertex.h"
#include "engine/ops/Elementwise.h"
#include "engine/ops/Mapping.h"

#include <popnn/Pooling.hpp>

#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <type_traits>

namespace popnn {
namespace pooling {

using namespace popnn::detail;

namespace {

// Each output's window: the flat indices (within a plane) of the input
// elements it covers, padding left out.
struct Windows {
    PoolingType type = PoolingType::MAX;
    std::size_t inSize = 0;
    std::vector<std::vector<std::uint32_t>> of; // per output element
};

template <typename T>
std::string joined(const std::vector<T>& v) {
    std::string s;
    for (std::size_t i = 0; i < v.size(); ++i) {
        s += (i ? "x" : "") + std::to_string(v[i]);
    }
    return s;
}

void validate(const PoolParams& p) {
    const std::size_t n = p.getNumFieldDims();
    if (p.kernelShape.size() != n || p.stride.size() != n ||
        p.inputTruncationOrPaddingLower.size() != n ||
        p.inputTruncationOrPaddingUpper.size() != n) {
        fail("pool: kernelShape, stride and the paddings need one entry per field dimension (" +
             std::to_string(n) + ")");
    }
    for (std::size_t d = 0; d < n; ++d) {
        const long padded = static_cast<long>(p.inputFieldShape[d]) +
                            p.inputTruncationOrPaddingLower[d] + p.inputTruncationOrPaddingUpper[d];
        if (p.stride[d] == 0 || p.kernelShape[d] == 0) {
            fail("pool: kernel sizes and strides must be positive");
        }
        if (padded < static_cast<long>(p.kernelShape[d])) {
            fail("pool: Kernels larger than (padded) input not supported (dimension " +
                 std::to_string(d) + ")");
        }
    }
}

std::shared_ptr<const Windows> windowsOf(const PoolParams& p) {
    auto w = std::make_shared<Windows>();
    w->type = p.poolingType;
    const std::vector<std::size_t> out = p.getOutputFieldShape();
    const std::size_t n = p.getNumFieldDims();
    std::size_t outSize = 1, kSize = 1;
    w->inSize = 1;
    for (std::size_t d = 0; d < n; ++d) {
        outSize *= out[d];
        kSize *= p.kernelShape[d];
        w->inSize *= p.inputFieldShape[d];
    }
    w->of.resize(outSize);
    std::vector<std::size_t> o(n, 0), k(n, 0);
    for (std::size_t flat = 0; flat < outSize; ++flat) {
        std::size_t rest = flat;
        for (std::size_t d = n; d-- > 0;) {
            o[d] = rest % out[d];
            rest /= out[d];
        }
        for (std::size_t kf = 0; kf < kSize; ++kf) {
            std::size_t kr = kf;
            for (std::size_t d = n; d-- > 0;) {
                k[d] = kr % p.kernelShape[d];
                kr /= p.kernelShape[d];
            }
            std::size_t index = 0;
            bool inside = true;
            for (std::size_t d = 0; d < n && inside; ++d) {
                const long pos = static_cast<long>(o[d] * p.stride[d] + k[d]) -
                                 p.inputTruncationOrPaddingLower[d];
                inside = pos >= 0 && pos < static_cast<long>(p.inputFieldShape[d]);
                index = index * p.inputFieldShape[d] + static_cast<std::size_t>(inside ? pos : 0);
            }
            if (inside) {
                w->of[flat].push_back(static_cast<std::uint32_t>(index));
            }
        }
    }
    return w;
}

// A plane's windows as a worklist: output o covers the input elements
// indices[starts[o] .. starts[o + 1]). PopLibs' pooling vertices carry
// worklists too; here they are constants on each tile that pools.
template <typename T>
class PoolForward : public tessera::Vertex {
public:
    tessera::Input<tessera::Vector<T>> in;
    tessera::Output<tessera::Vector<T>> out;
    tessera::Input<tessera::Vector<unsigned>> starts;
    tessera::Input<tessera::Vector<unsigned>> indices;
    unsigned poolingType = 0;
    bool compute() {
        for (std::size_t o = 0; o < out.size(); ++o) {
            const unsigned b = starts[o], e = starts[o + 1];
            if (poolingType == unsigned(PoolingType::MAX)) {
                // A window of padding only gives the type's lowest value.
                float m =
                    std::is_same_v<T, float> ? std::numeric_limits<float>::lowest() : -65504.0f;
                for (unsigned k = b; k < e; ++k) {
                    m = std::max(m, float(in[indices[k]]));
                }
                out[o] = T(m);
            } else {
                float sum = 0;
                for (unsigned k = b; k < e; ++k) {
                    sum += float(in[indices[k]]);
                }
                if (poolingType == unsigned(PoolingType::AVG) && e > b) {
                    sum /= float(e - b);
                }
                out[o] = T(sum);
            }
        }
        return true;
    }
};

template <typename T>
class PoolMaxGradient : public tessera::Vertex {
public:
    tessera::Input<tessera::Vector<T>> in;
    tessera::Input<tessera::Vector<T>> pooled;
    tessera::Input<tessera::Vector<T>> pooledGradient;
    tessera::Output<tessera::Vector<T>> out;
    tessera::Input<tessera::Vector<unsigned>> starts;
    tessera::Input<tessera::Vector<unsigned>> indices;
    unsigned scaled = 0;
    bool compute() {
        std::vector<float> acc(out.size(), 0.0f);
        for (std::size_t o = 0; o < pooled.size(); ++o) {
            const unsigned b = starts[o], e = starts[o + 1];
            const float y = float(pooled[o]);
            std::size_t matches = 0;
            for (unsigned k = b; k < e; ++k) {
                matches += float(in[indices[k]]) == y;
            }
            float g = float(pooledGradient[o]);
            if (scaled && matches > 0) {
                g /= float(matches);
            }
            for (unsigned k = b; k < e; ++k) {
                if (float(in[indices[k]]) == y) {
                    acc[indices[k]] += g;
                }
            }
        }
        for (std::size_t i = 0; i < out.size(); ++i) {
            out[i] = T(acc[i]);
        }
        return true;
    }
};

template <typename T>
class PoolSumGradient : public tessera::Vertex {
public:
    tessera::Input<tessera::Vector<T>> pooledGradient;
    tessera::Output<tessera::Vector<T>> out;
    tessera::Input<tessera::Vector<unsigned>> starts;
    tessera::Input<tessera::Vector<unsigned>> indices;
    unsigned poolingType = 0;
    bool compute() {
        std::vector<float> acc(out.size(), 0.0f);
        for (std::size_t o = 0; o < pooledGradient.size(); ++o) {
            const unsigned b = starts[o], e = starts[o + 1];
            float g = float(pooledGradient[o]);
            if (poolingType == unsigned(PoolingType::AVG) && e > b) {
                g /= float(e - b);
            }
            for (unsigned k = b; k < e; ++k) {
                acc[indices[k]] += g;
            }
        }
        for (std::size_t i = 0; i < out.size(); ++i) {
            out[i] = T(acc[i]);
        }
        return true;
    }
};

tessera::PerfEstimator worklistEstimator() {
    return [](const tessera::VertexIntrospector& v, const tessera::Target&) {
        const std::size_t work = v.fieldSize("indices");
        return tessera::PerfEstimate{20 + 2 * work + v.fieldSize("starts"), work};
    };
}

const char* kFormula = "20 + 2 * (window elements) + outputs";

template <typename T>
void addPoolCodelets(tessera::Graph& g, tessera::Type type) {
    const std::string suffix = "<" + typeString(type) + ">";
    {
        using V = PoolForward<T>;
        g.addCodelet(tessera::CodeletBuilder<V>("popnn::Pool" + suffix)
                         .field("in", &V::in)
                         .field("out", &V::out)
                         .field("starts", &V::starts)
                         .field("indices", &V::indices)
                         .state("poolingType", &V::poolingType)
                         .codeBytes(256)
                         .estimator(kFormula, worklistEstimator())
                         .build());
    }
    {
        using V = PoolMaxGradient<T>;
        g.addCodelet(tessera::CodeletBuilder<V>("popnn::PoolMaxGradient" + suffix)
                         .field("in", &V::in)
                         .field("pooled", &V::pooled)
                         .field("pooledGradient", &V::pooledGradient)
                         .field("out", &V::out)
                         .field("starts", &V::starts)
                         .field("indices", &V::indices)
                         .state("scaled", &V::scaled)
                         .sameSize({"in", "out"})
                         .sameSize({"pooled", "pooledGradient"})
                         .codeBytes(320)
                         .estimator(kFormula, worklistEstimator())
                         .build());
    }
    {
        using V = PoolSumGradient<T>;
        g.addCodelet(tessera::CodeletBuilder<V>("popnn::PoolSumGradient" + suffix)
                         .field("pooledGradient", &V::pooledGradient)
                         .field("out", &V::out)
                         .field("starts", &V::starts)
                         .field("indices", &V::indices)
                         .state("poolingType", &V::poolingType)
                         .codeBytes(256)
                         .estimator(kFormula, worklistEstimator())
                         .build());
    }
}

// The worklist of a configuration, as constants placed on the tiles asking
// for them (one copy per tile).
class Worklists {
public:
    Worklists(tessera::Graph& g, const Windows& w, const std::string& name)
        : graph_(g)
        , name_(name) {
        starts_.push_back(0);
        for (const auto& win : w.of) {
            for (std::uint32_t i : win) {
                indices_.push_back(double(i));
            }
            starts_.push_back(double(indices_.size()));
        }
        if (indices_.empty()) {
            indices_.push_back(0); // a constant needs an element; no window reads it
        }
    }
    std::pair<tessera::Tensor, tessera::Tensor> on(tessera::TileId tile) {
        auto it = copies_.find(tile);
        if (it == copies_.end()) {
            const std::string n = name_ + "/worklist" + std::to_string(tile.value());
            tessera::Tensor s = graph_.addConstant(tessera::Type::UnsignedInt, {starts_.size()},
                                                   starts_, n + "/starts");
            tessera::Tensor i = graph_.addConstant(tessera::Type::UnsignedInt, {indices_.size()},
                                                   indices_, n + "/indices");
            graph_.setTileMapping(s, tile);
            graph_.setTileMapping(i, tile);
            it = copies_.emplace(tile, std::make_pair(s, i)).first;
        }
        return it->second;
    }

private:
    tessera::Graph& graph_;
    std::string name_;
    std::vector<double> starts_, indices_;
    std::map<tessera::TileId, std::pair<tessera::Tensor, tessera::Tensor>> copies_;
};

void addCodeletsFor(tessera::Graph& g) {
    addPoolCodelets<float>(g, tessera::Type::Float);
    addPoolCodelets<tessera::half>(g, tessera::Type::Half);
}

std::vector<std::size_t> fullShape(const PoolParams& p, const std::vector<std::size_t>& field) {
    std::vector<std::size_t> s = {p.batchSize, p.numChannels};
    s.insert(s.end(), field.begin(), field.end());
    return s;
}

void checkTensor(const tessera::Tensor& t, const std::vector<std::size_t>& shape,
                 tessera::Type type, const std::string& what) {
    if (t.shape() != shape) {
        fail("pool: " + what + " has shape " + tessera::shapeString(t.shape()) + ", expected " +
             tessera::shapeString(shape) + " ([batch][channels][field...])");
    }
    if (t.elementType() != type) {
        fail("pool: " + what + " is " + typeString(t.elementType()) + ", the parameters say " +
             typeString(type));
    }
}

tessera::Type typeOf(const PoolParams& p) {
    const tessera::Type t = poplar::detail::engineType(p.dType);
    if (t != tessera::Type::Float && t != tessera::Type::Half) {
        fail("pool: dType must be FLOAT or HALF");
    }
    return t;
}

// A new [batch][channels][field] variable, planes spread over the tiles.
tessera::Tensor planesVariable(tessera::Graph& g, const std::vector<std::size_t>& shape,
                               tessera::Type type, const std::string& name) {
    tessera::Tensor t = g.addVariable(type, shape, name);
    std::size_t plane = 1;
    for (std::size_t d = 2; d < shape.size(); ++d) {
        plane *= shape[d];
    }
    tessera::ops::mapLinearly(g, t, std::max<std::size_t>(plane, 1));
    return t;
}

tessera::Tensor planes(const tessera::Tensor& t, std::size_t count) {
    return t.reshape({count, count == 0 ? 0 : t.numElements() / count});
}

using Edges = std::vector<std::pair<std::string, tessera::Tensor>>;

// What every pooling operation plans: one `codelet` vertex per (batch,
// channel) plane p, on the tile holding its result plane results[p], with
// edges(p), that tile's copy of the worklist, and the state `state` set to
// `stateValue`; the compute set runs as one Block named `name`.
void planPlanes(tessera::Graph& g, poplar::program::Sequence& prog, const PoolParams& params,
                const std::string& codelet, const std::string& name, const tessera::Tensor& results,
                const std::function<Edges(std::size_t)>& edges, const std::string& state,
                double stateValue) {
    Worklists work(g, *windowsOf(params), name);
    const tessera::ComputeSet cs = g.addComputeSet(name);
    for (std::size_t p = 0; p < results.dim(0); ++p) {
        const tessera::TileId tile = firstTile(g, results[p]);
        const auto [starts, indices] = work.on(tile);
        Edges all = edges(p);
        all.emplace_back("starts", starts);
        all.emplace_back("indices", indices);
        const tessera::VertexRef v = g.addVertex(cs, codelet, all);
        g.setInitialValue(v[state], stateValue);
        g.setTileMapping(v, tile);
    }
    intoSequence(prog, [&](tessera::program::Sequence& seq) {
        seq.add(
            tessera::program::Block(tessera::program::Sequence{tessera::program::Execute(cs, name)},
                                    name, tessera::program::LibraryCall::at()));
    });
}

} // namespace

std::vector<std::size_t> PoolParams::getOutputFieldShape() const {
    std::vector<std::size_t> out;
    for (std::size_t d = 0; d < inputFieldShape.size(); ++d) {
        const long padded = static_cast<long>(inputFieldShape[d]) +
                            inputTruncationOrPaddingLower[d] + inputTruncationOrPaddingUpper[d];
        const long k = static_cast<long>(kernelShape[d]);
        out.push_back(
            padded < k || stride[d] == 0
                ? 0
                : static_cast<std::size_t>((padded - k) / static_cast<long>(stride[d]) + 1));
    }
    return out;
}

std::vector<std::size_t> getOutputFieldShape(const PoolParams& params) {
    return params.getOutputFieldShape();
}

const char* asString(const PoolingType& method) {
    switch (method) {
    case PoolingType::MAX:
        return "MAX";
    case PoolingType::AVG:
        return "AVG";
    case PoolingType::SUM:
        return "SUM";
    }
    throw poputil::poplibs_error("Unsupported pooling method");
}

std::ostream& operator<<(std::ostream& o, const PoolParams& p) {
    o << "Pool params:\n"
      << "        poolingType                   " << asString(p.poolingType) << "\n"
      << "        inputFieldShape               " << joined(p.inputFieldShape) << "\n"
      << "        kernelShape                   " << joined(p.kernelShape) << "\n"
      << "        stride                        " << joined(p.stride) << "\n"
      << "        inputTruncationOrPaddingLower " << joined(p.inputTruncationOrPaddingLower) << "\n"
      << "        inputTruncationOrPaddingUpper " << joined(p.inputTruncationOrPaddingUpper) << "\n"
      << "        numChannels                   " << p.numChannels << "\n"
      << "        batchSize                     " << p.batchSize << "\n"
      << "        dType                         " << p.dType << "\n";
    return o;
}

std::uint64_t getFwdFlops(const PoolParams& p) {
    std::uint64_t n = p.batchSize * p.numChannels;
    for (std::size_t d : p.getOutputFieldShape()) {
        n *= d;
    }
    for (std::size_t k : p.kernelShape) {
        n *= k;
    }
    return n;
}

std::uint64_t getBwdFlops(const PoolParams& p) {
    return getFwdFlops(p);
}

poplar::Tensor pool(poplar::Graph& graph, const PoolParams& params, const poplar::Tensor& in,
                    poplar::program::Sequence& prog, const poplar::DebugContext& dc,
                    const poplar::OptionFlags&) {
    return translatePoplibs([&] {
        validate(params);
        tessera::Graph& g = Access::graph(graph).graph;
        const tessera::Type type = typeOf(params);
        const tessera::Tensor& x = Access::tensor(in);
        checkTensor(x, fullShape(params, params.inputFieldShape), type, "in");
        const std::string name = nameOr(dc, "Pool");
        addCodeletsFor(g);
        const std::size_t count = params.batchSize * params.numChannels;
        const tessera::Tensor out =
            planesVariable(g, fullShape(params, params.getOutputFieldShape()), type, name + "/out");
        const tessera::Tensor inPlanes = planes(x, count), outPlanes = planes(out, count);
        planPlanes(
            g, prog, params, "popnn::Pool<" + typeString(type) + ">", name, outPlanes,
            [&](std::size_t p) {
                return Edges{{"in", inPlanes[p]}, {"out", outPlanes[p]}};
            },
            "poolingType", double(params.poolingType));
        return Access::makeTensor(out);
    });
}

poplar::Tensor poolInputGradient(poplar::Graph& graph, const PoolParams& params,
                                 const poplar::Tensor& in, const poplar::Tensor& pooled,
                                 const poplar::Tensor& pooledGradient, bool useScaledGradient,
                                 poplar::program::Sequence& prog, const poplar::DebugContext& dc,
                                 const poplar::OptionFlags& options) {
    if (params.poolingType != PoolingType::MAX) {
        return poolInputGradient(graph, params, 1, pooledGradient, prog, dc, options);
    }
    return translatePoplibs([&] {
        validate(params);
        tessera::Graph& g = Access::graph(graph).graph;
        const tessera::Type type = typeOf(params);
        const tessera::Tensor& x = Access::tensor(in);
        const tessera::Tensor& y = Access::tensor(pooled);
        const tessera::Tensor& dy = Access::tensor(pooledGradient);
        const std::vector<std::size_t> outShape = fullShape(params, params.getOutputFieldShape());
        checkTensor(x, fullShape(params, params.inputFieldShape), type, "in");
        checkTensor(y, outShape, type, "pooled");
        checkTensor(dy, outShape, type, "pooledGradient");
        const std::string name = nameOr(dc, "PoolGrad");
        addCodeletsFor(g);
        const std::size_t count = params.batchSize * params.numChannels;
        const tessera::Tensor dx = tessera::ops::cloneLike(g, x, type, name + "/inGradient");
        const tessera::Tensor xs = planes(x, count), ys = planes(y, count), dys = planes(dy, count),
                              dxs = planes(dx, count);
        planPlanes(
            g, prog, params, "popnn::PoolMaxGradient<" + typeString(type) + ">", name, dxs,
            [&](std::size_t p) {
                return Edges{
                    {"in", xs[p]}, {"pooled", ys[p]}, {"pooledGradient", dys[p]}, {"out", dxs[p]}};
            },
            "scaled", useScaledGradient ? 1.0 : 0.0);
        return Access::makeTensor(dx);
    });
}

poplar::Tensor poolInputGradient(poplar::Graph& graph, const PoolParams& params, const unsigned,
                                 const poplar::Tensor& pooledGradient,
                                 poplar::program::Sequence& prog, const poplar::DebugContext& dc,
                                 const poplar::OptionFlags&) {
    return translatePoplibs([&] {
        if (params.poolingType == PoolingType::MAX) {
            fail("poolInputGradient: MAX pooling needs the forward activations (use the "
                 "overload taking in and pooled)");
        }
        validate(params);
        tessera::Graph& g = Access::graph(graph).graph;
        const tessera::Type type = typeOf(params);
        const tessera::Tensor& dy = Access::tensor(pooledGradient);
        checkTensor(dy, fullShape(params, params.getOutputFieldShape()), type, "pooledGradient");
        const std::string name = nameOr(dc, "PoolGrad");
        addCodeletsFor(g);
        const std::size_t count = params.batchSize * params.numChannels;
        const tessera::Tensor dx = planesVariable(g, fullShape(params, params.inputFieldShape),
                                                  type, name + "/inGradient");
        const tessera::Tensor dys = planes(dy, count), dxs = planes(dx, count);
        planPlanes(
            g, prog, params, "popnn::PoolSumGradient<" + typeString(type) + ">", name, dxs,
            [&](std::size_t p) {
                return Edges{{"pooledGradient", dys[p]}, {"out", dxs[p]}};
            },
            "poolingType", double(params.poolingType));
        return Access::makeTensor(dx);
    });
}

} // namespace pooling

void detail::addPoolingCodelets(tessera::Graph& g) {
    pooling::addCodeletsFor(g);
}

} // namespace popnn
