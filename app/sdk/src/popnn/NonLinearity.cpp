// popnn::nonLinearity and its gradient (NonLinearity.hpp) and logSoftmax
// (LogSoftmax.hpp), as PopLibs defines them:
// * element-wise types run popnn's own vertices (in place, or into a new
//   tensor mapped like the input), split over each tile's workers, so the
//   ComputeSet overloads add them to the caller's compute set;
// * SOFTMAX, SOFTMAX_STABLE, SOFTMAX_SCALED over the innermost dimension:
//   (max, subtract it), exp, a float sum, 1 / sum (times SOFTMAX_SCALING =
//   62000 when scaled), multiply; Sequence overloads only, as in PopLibs;
// * the softmax gradient g * y - y * sum(g * y) over the innermost dimension;
// * GELU is the tanh approximation 0.5 x (1 + tanh(0.7978845608 x (1 +
//   0.044715 x^2))), GELU_ERF 0.5 x (1 + erf(x / sqrt 2)); their gradients
//   (and SWISH's) take the non-linearity's input, the others' its output;
// * HARD_SIGMOID is clamp(0.2 x + 0.5, 0, 1) and its gradient 0.2 * g where
//   |act| <= 2.5, else 0 (PopLibs applies that test to the argument given).
#include "Common.h"
#include "engine/codelets/Codelet.h"
#include "engine/codelets/Vertex.h"
#include "engine/ops/Elementwise.h"
#include "engine/ops/Mapping.h"

#include <popnn/LogSoftmax.hpp>
#include <popnn/NonLinearity.hpp>

#include <cmath>

namespace popnn {

using namespace detail;
using tessera::ops::ReduceOp;

namespace {

constexpr float kSoftmaxScaling = 62000.0f; // PopLibs' SOFTMAX_SCALING
constexpr float kGeluAlpha = 0.7978845608f;
constexpr float kGeluBeta = 0.044715f;
constexpr float kHardSigmoidEdge = 2.5f;
constexpr float kInvSqrt2 = 0.7071067811865475f;
constexpr float kTwoOverSqrtPi = 1.1283791670955126f;

bool isSoftmax(NonLinearityType nl) {
    return nl == NonLinearityType::SOFTMAX || nl == NonLinearityType::SOFTMAX_STABLE ||
           nl == NonLinearityType::SOFTMAX_SCALED;
}

const char* nlName(NonLinearityType nl) {
    switch (nl) {
    case NonLinearityType::SIGMOID:
        return "SIGMOID";
    case NonLinearityType::HARD_SIGMOID:
        return "HARD_SIGMOID";
    case NonLinearityType::RELU:
        return "RELU";
    case NonLinearityType::TANH:
        return "TANH";
    case NonLinearityType::GELU:
        return "GELU";
    case NonLinearityType::GELU_ERF:
        return "GELU_ERF";
    case NonLinearityType::SWISH:
        return "SWISH";
    case NonLinearityType::SOFTMAX:
        return "SOFTMAX";
    case NonLinearityType::SOFTMAX_STABLE:
        return "SOFTMAX_STABLE";
    case NonLinearityType::SOFTMAX_SCALED:
        return "SOFTMAX_SCALED";
    }
    return nullptr;
}

float sigmoid(float x) {
    return 1.0f / (1.0f + std::exp(-x));
}

float forward(NonLinearityType nl, float x) {
    switch (nl) {
    case NonLinearityType::SIGMOID:
        return sigmoid(x);
    case NonLinearityType::HARD_SIGMOID:
        return std::min(1.0f, std::max(0.0f, x * (0.5f / kHardSigmoidEdge) + 0.5f));
    case NonLinearityType::RELU:
        return x > 0.0f ? x : 0.0f;
    case NonLinearityType::TANH:
        return std::tanh(x);
    case NonLinearityType::GELU:
        return 0.5f * x * (1.0f + std::tanh(x * kGeluAlpha * (1.0f + kGeluBeta * x * x)));
    case NonLinearityType::GELU_ERF:
        return 0.5f * x * (1.0f + std::erf(x * kInvSqrt2));
    case NonLinearityType::SWISH:
        return x * sigmoid(x);
    default:
        return x;
    }
}

// d(non-linearity)/d(input), from the output (act) or, for GELU and SWISH,
// the input.
float derivative(NonLinearityType nl, float act) {
    switch (nl) {
    case NonLinearityType::SIGMOID:
        return act * (1.0f - act);
    case NonLinearityType::HARD_SIGMOID:
        return std::fabs(act) <= kHardSigmoidEdge ? 0.5f / kHardSigmoidEdge : 0.0f;
    case NonLinearityType::RELU:
        return act > 0.0f ? 1.0f : 0.0f;
    case NonLinearityType::TANH:
        return 1.0f - act * act;
    case NonLinearityType::GELU: {
        const float t = std::tanh(act * kGeluAlpha * (1.0f + kGeluBeta * act * act));
        return 0.5f *
               (1.0f + t +
                (1.0f - t * t) * act * (kGeluAlpha + 3.0f * act * act * kGeluAlpha * kGeluBeta));
    }
    case NonLinearityType::GELU_ERF: {
        const float y = act * kInvSqrt2;
        return 0.5f * (1.0f + std::erf(y) + y * kTwoOverSqrtPi * std::exp(-y * y));
    }
    case NonLinearityType::SWISH: {
        const float s = sigmoid(act);
        return s * (1.0f + act * (1.0f - s));
    }
    default:
        return 1.0f;
    }
}

// The cost of one element, in thread cycles (transcendentals cost more).
std::uint64_t cyclesPerElement(NonLinearityType nl) {
    switch (nl) {
    case NonLinearityType::RELU:
    case NonLinearityType::HARD_SIGMOID:
        return 2;
    case NonLinearityType::GELU:
    case NonLinearityType::GELU_ERF:
    case NonLinearityType::SWISH:
        return 14;
    default:
        return 8;
    }
}

template <typename T, NonLinearityType NL>
class NonLinearityInPlace : public tessera::Vertex {
public:
    tessera::InOut<tessera::Vector<T>> data;
    bool compute() {
        for (std::size_t i = 0; i < data.size(); ++i) {
            data[i] = T(forward(NL, float(data[i])));
        }
        return true;
    }
};

template <typename T, NonLinearityType NL>
class NonLinearityOutOfPlace : public tessera::Vertex {
public:
    tessera::Input<tessera::Vector<T>> in;
    tessera::Output<tessera::Vector<T>> out;
    bool compute() {
        for (std::size_t i = 0; i < in.size(); ++i) {
            out[i] = T(forward(NL, float(in[i])));
        }
        return true;
    }
};

template <typename T, NonLinearityType NL>
class NonLinearityGrad : public tessera::Vertex {
public:
    tessera::Input<tessera::Vector<T>> out;
    tessera::Input<tessera::Vector<T>> outGrad;
    tessera::Output<tessera::Vector<T>> inGrad;
    bool compute() {
        for (std::size_t i = 0; i < out.size(); ++i) {
            inGrad[i] = T(derivative(NL, float(out[i])) * float(outGrad[i]));
        }
        return true;
    }
};

std::string codeletName(const char* family, tessera::Type type, NonLinearityType nl) {
    return std::string("popnn::") + family + "<" + typeString(type) +
           ",popnn::NonLinearityType::" + nlName(nl) + ">";
}

tessera::PerfEstimator estimatorFor(NonLinearityType nl, const char* sizeField) {
    const std::uint64_t perElement = cyclesPerElement(nl);
    const std::string field = sizeField;
    return [perElement, field](const tessera::VertexIntrospector& v, const tessera::Target&) {
        const std::size_t n = v.fieldSize(field);
        return tessera::PerfEstimate{10 + perElement * n, perElement * n};
    };
}

template <typename T, NonLinearityType NL>
void addFor(tessera::Graph& g, tessera::Type type) {
    using In = NonLinearityInPlace<T, NL>;
    using Out = NonLinearityOutOfPlace<T, NL>;
    using Grad = NonLinearityGrad<T, NL>;
    const std::string per = std::to_string(cyclesPerElement(NL));
    g.addCodelet(tessera::CodeletBuilder<In>(codeletName("NonLinearityInPlace", type, NL))
                     .field("data", &In::data)
                     .codeBytes(160)
                     .estimator("10 + " + per + " * n", estimatorFor(NL, "data"))
                     .build());
    g.addCodelet(tessera::CodeletBuilder<Out>(codeletName("NonLinearity", type, NL))
                     .field("in", &Out::in)
                     .field("out", &Out::out)
                     .sameSize({"in", "out"})
                     .codeBytes(160)
                     .estimator("10 + " + per + " * n", estimatorFor(NL, "in"))
                     .build());
    g.addCodelet(tessera::CodeletBuilder<Grad>(codeletName("NonLinearityGrad", type, NL))
                     .field("out", &Grad::out)
                     .field("outGrad", &Grad::outGrad)
                     .field("inGrad", &Grad::inGrad)
                     .sameSize({"out", "outGrad", "inGrad"})
                     .codeBytes(192)
                     .estimator("10 + (" + per + " + 1) * n", estimatorFor(NL, "out"))
                     .build());
}

template <NonLinearityType NL>
void addBothTypes(tessera::Graph& g) {
    addFor<float, NL>(g, tessera::Type::Float);
    addFor<tessera::half, NL>(g, tessera::Type::Half);
}

void checkFloating(const tessera::Tensor& t, const std::string& what) {
    if (t.elementType() != tessera::Type::Float && t.elementType() != tessera::Type::Half) {
        fail(what + ": the tensor must be float or half, not " + typeString(t.elementType()));
    }
}

// One vertex per worker-sized run of `ref`'s elements on each tile, each
// given the same run of every field's tensor.
void addElementwise(tessera::Graph& g, tessera::ComputeSet cs, const std::string& codelet,
                    const tessera::Tensor& ref,
                    const std::vector<std::pair<std::string, tessera::Tensor>>& fields) {
    const std::size_t workers = g.getTarget().numWorkerContexts;
    std::vector<tessera::Tensor> flat;
    for (const auto& f : fields) {
        flat.push_back(f.second.flatten());
    }
    for (const tessera::ops::TileRange& r : tessera::ops::tileRanges(g, ref)) {
        for (const auto& [b, e] : tessera::ops::splitRange(r.begin, r.end, workers, 8)) {
            std::vector<std::pair<std::string, tessera::Tensor>> conn;
            for (std::size_t i = 0; i < fields.size(); ++i) {
                conn.emplace_back(fields[i].first, flat[i].slice(b, e));
            }
            g.setTileMapping(g.addVertex(cs, codelet, conn), r.tile);
        }
    }
}

// Element-wise forward into `cs`: in place on `t`, or from `t` into `out`.
void elementwiseForward(tessera::Graph& g, NonLinearityType nl, const tessera::Tensor& t,
                        const tessera::Tensor* out, tessera::ComputeSet cs) {
    checkFloating(t, std::string("nonLinearity ") + nlName(nl));
    addNonLinearityCodelets(g);
    if (out) {
        addElementwise(g, cs, codeletName("NonLinearity", t.elementType(), nl), t,
                       {{"in", t}, {"out", *out}});
    } else {
        addElementwise(g, cs, codeletName("NonLinearityInPlace", t.elementType(), nl), t,
                       {{"data", t}});
    }
}

// Softmax over the innermost dimension; in place writes into t.
tessera::Tensor softmax(tessera::Graph& g, tessera::program::Sequence& seq,
                        const tessera::Tensor& t, NonLinearityType nl, bool inPlace,
                        const std::string& name) {
    if (t.rank() < 1) {
        fail("input tensor to softmax non-linearity must have at least 1 dimension");
    }
    checkFloating(t, "softmax");
    const bool stable = nl != NonLinearityType::SOFTMAX;
    const bool scaled = nl == NonLinearityType::SOFTMAX_SCALED;
    const tessera::Type type = t.elementType();
    const tessera::Tensor rows = asRows(t);
    const std::size_t cols = rows.dim(1);
    std::vector<tessera::Tensor> inputs = {rows};
    Ex e;
    std::int32_t x = e.placeholder(0);
    if (stable) {
        inputs.push_back(
            alongRows(reduce(g, seq, rows, type, {1}, ReduceOp::Max, name + "/max"), cols));
        x = e.binary(BinaryOp::Subtract, x, e.placeholder(1));
        if (scaled) {
            x = e.binary(BinaryOp::Add, x,
                         e.constant(std::log(double(kSoftmaxScaling)), tessera::Type::Float));
        }
    }
    e.unary(UnaryOp::Exponent, x);
    tessera::Tensor exps;
    if (inPlace) {
        tessera::ops::mapInPlace(g, seq, e, inputs, name + "/exp");
        exps = rows;
    } else {
        exps = tessera::ops::map(g, seq, e, inputs, name + "/exp");
    }
    const tessera::Tensor sum =
        reduce(g, seq, exps, tessera::Type::Float, {1}, ReduceOp::Add, name + "/sum");
    Ex inv;
    std::int32_t r = inv.unary(UnaryOp::Inverse, inv.placeholder(0));
    if (scaled) {
        r = inv.binary(BinaryOp::Multiply, r, inv.constant(kSoftmaxScaling, tessera::Type::Float));
    }
    if (type != tessera::Type::Float) {
        inv.cast(r, type);
    }
    const tessera::Tensor oneOverSum = tessera::ops::map(g, seq, inv, {sum}, name + "/invScale");
    Ex mul;
    mul.binary(BinaryOp::Multiply, mul.placeholder(0), mul.placeholder(1));
    tessera::ops::mapInPlace(g, seq, mul, {exps, alongRows(oneOverSum, cols)}, name + "/scale");
    return inPlace ? t : exps.reshape(t.shape());
}

tessera::Tensor softmaxGradient(tessera::Graph& g, tessera::program::Sequence& seq,
                                const tessera::Tensor& out, const tessera::Tensor& outGrad,
                                const std::string& name) {
    if (out.shape() != outGrad.shape()) {
        fail("out and outGradient tensors must have the same shape for softmax gradient "
             "calculation");
    }
    checkFloating(out, "softmax gradient");
    const tessera::Tensor y =
        out.rank() == 0 ? out.reshape({1, 1}) : asRows(out.rank() < 2 ? out.flatten() : out);
    const tessera::Tensor gr = outGrad.reshape(y.shape());
    Ex mul;
    mul.binary(BinaryOp::Multiply, mul.placeholder(0), mul.placeholder(1));
    const tessera::Tensor gy = tessera::ops::map(g, seq, mul, {y, gr}, name + "/gXy");
    const tessera::Tensor sum =
        reduce(g, seq, gy, gy.elementType(), {1}, ReduceOp::Add, name + "/sumgXy");
    Ex sub; // gy - y * sum
    sub.binary(BinaryOp::Subtract, sub.placeholder(0),
               sub.binary(BinaryOp::Multiply, sub.placeholder(1), sub.placeholder(2)));
    tessera::ops::mapInPlace(g, seq, sub, {gy, y, alongRows(sum, y.dim(1))}, name + "/inGrad");
    return gy.reshape(outGrad.shape());
}

float scalingOf(NonLinearityType nl) {
    return nl == NonLinearityType::SOFTMAX_SCALED ? kSoftmaxScaling : 1.0f;
}

tessera::ComputeSet engineCs(const poplar::ComputeSet& cs) {
    return tessera::ComputeSet{tessera::ComputeSetId{cs.getId()}};
}

void runInBlock(tessera::program::Sequence& seq, tessera::ComputeSet cs, const std::string& name,
                const tessera::SourceLocation& where = tessera::SourceLocation::current()) {
    seq.add(tessera::program::Block(tessera::program::Sequence{tessera::program::Execute(cs, name)},
                                    name, tessera::program::LibraryCall::at(where)));
}

} // namespace

void detail::addNonLinearityCodelets(tessera::Graph& g) {
    addBothTypes<NonLinearityType::SIGMOID>(g);
    addBothTypes<NonLinearityType::HARD_SIGMOID>(g);
    addBothTypes<NonLinearityType::RELU>(g);
    addBothTypes<NonLinearityType::TANH>(g);
    addBothTypes<NonLinearityType::GELU>(g);
    addBothTypes<NonLinearityType::GELU_ERF>(g);
    addBothTypes<NonLinearityType::SWISH>(g);
}

void nonLinearityInPlace(poplar::Graph& graph, NonLinearityType nl, poplar::Tensor t,
                         poplar::program::Sequence& prog, const poplar::DebugContext& dc) {
    translatePoplibs([&] {
        tessera::Graph& g = Access::graph(graph).graph;
        const tessera::Tensor& in = Access::tensor(t);
        const std::string name = nameOr(dc, "Nonlinearity");
        intoSequence(prog, [&](tessera::program::Sequence& seq) {
            if (isSoftmax(nl)) {
                tessera::program::Sequence body;
                softmax(g, body, in, nl, true, name);
                seq.add(tessera::program::Block(body, name, tessera::program::LibraryCall::at()));
                return;
            }
            const tessera::ComputeSet cs = g.addComputeSet(name);
            elementwiseForward(g, nl, in, nullptr, cs);
            runInBlock(seq, cs, name);
        });
        return 0;
    });
}

void nonLinearityInPlace(poplar::Graph& graph, NonLinearityType nl, poplar::Tensor t,
                         poplar::ComputeSet& cs, const poplar::DebugContext&) {
    translatePoplibs([&] {
        if (isSoftmax(nl)) {
            fail("Compute set variant of softmax not implemented");
        }
        elementwiseForward(Access::graph(graph).graph, nl, Access::tensor(t), nullptr,
                           engineCs(cs));
        return 0;
    });
}

void nonLinearityInPlace(poplar::Graph& graph, NonLinearityType nl, poplar::Tensor t,
                         float& nonLinearityScaling, poplar::program::Sequence& prog,
                         const poplar::DebugContext& dc) {
    nonLinearityScaling = scalingOf(nl);
    nonLinearityInPlace(graph, nl, t, prog, dc);
}

void nonLinearityInPlace(poplar::Graph& graph, NonLinearityType nl, poplar::Tensor t,
                         float& nonLinearityScaling, poplar::ComputeSet& cs,
                         const poplar::DebugContext& dc) {
    nonLinearityScaling = scalingOf(nl);
    nonLinearityInPlace(graph, nl, t, cs, dc);
}

poplar::Tensor nonLinearity(poplar::Graph& graph, NonLinearityType nl, poplar::Tensor t,
                            poplar::program::Sequence& prog, const poplar::DebugContext& dc) {
    return translatePoplibs([&] {
        tessera::Graph& g = Access::graph(graph).graph;
        const tessera::Tensor& in = Access::tensor(t);
        const std::string name = nameOr(dc, "Nonlinearity");
        return Access::makeTensor(intoSequence(prog, [&](tessera::program::Sequence& seq) {
            if (isSoftmax(nl)) {
                tessera::program::Sequence body;
                const tessera::Tensor out = softmax(g, body, in, nl, false, name);
                seq.add(tessera::program::Block(body, name, tessera::program::LibraryCall::at()));
                return out;
            }
            checkFloating(in, std::string("nonLinearity ") + nlName(nl));
            const tessera::Tensor out =
                tessera::ops::cloneLike(g, in, in.elementType(), name + "/out");
            const tessera::ComputeSet cs = g.addComputeSet(name);
            elementwiseForward(g, nl, in, &out, cs);
            runInBlock(seq, cs, name);
            return out;
        }));
    });
}

poplar::Tensor nonLinearity(poplar::Graph& graph, NonLinearityType nl, poplar::Tensor t,
                            float& nonLinearityScaling, poplar::program::Sequence& prog,
                            const poplar::DebugContext& dc) {
    nonLinearityScaling = scalingOf(nl);
    return nonLinearity(graph, nl, t, prog, dc);
}

poplar::Tensor nonLinearityInputGradient(poplar::Graph& graph, NonLinearityType nl,
                                         poplar::Tensor act, poplar::Tensor outGradient,
                                         poplar::ComputeSet& cs, const poplar::DebugContext& dc) {
    return translatePoplibs([&] {
        if (isSoftmax(nl)) {
            fail("Compute set variant of softmax gradient not implemented");
        }
        tessera::Graph& g = Access::graph(graph).graph;
        const tessera::Tensor& out = Access::tensor(act);
        const tessera::Tensor& grad = Access::tensor(outGradient);
        checkFloating(out, "nonLinearityInputGradient");
        if (out.shape() != grad.shape() || out.elementType() != grad.elementType()) {
            fail("nonLinearityInputGradient: act and outGradient must have the same shape and "
                 "type");
        }
        addNonLinearityCodelets(g);
        const tessera::Tensor inGrad = tessera::ops::cloneLike(
            g, out, out.elementType(), nameOr(dc, "NonLinearityGrad") + "/inGrad");
        addElementwise(g, engineCs(cs), codeletName("NonLinearityGrad", out.elementType(), nl), out,
                       {{"out", out}, {"outGrad", grad}, {"inGrad", inGrad}});
        return Access::makeTensor(inGrad);
    });
}

poplar::Tensor nonLinearityInputGradient(poplar::Graph& graph, NonLinearityType nl,
                                         poplar::Tensor act, poplar::Tensor outGradient,
                                         poplar::program::Sequence& prog,
                                         const poplar::DebugContext& dc) {
    const std::string name = nameOr(dc, "NonLinearityGrad");
    if (isSoftmax(nl)) {
        return translatePoplibs([&] {
            tessera::Graph& g = Access::graph(graph).graph;
            return Access::makeTensor(intoSequence(prog, [&](tessera::program::Sequence& seq) {
                tessera::program::Sequence body;
                const tessera::Tensor out = softmaxGradient(g, body, Access::tensor(act),
                                                            Access::tensor(outGradient), name);
                seq.add(tessera::program::Block(body, name, tessera::program::LibraryCall::at()));
                return out;
            }));
        });
    }
    poplar::ComputeSet cs = graph.addComputeSet(name);
    poplar::Tensor out = nonLinearityInputGradient(graph, nl, act, outGradient, cs, dc);
    translatePoplibs([&] {
        intoSequence(prog,
                     [&](tessera::program::Sequence& seq) { runInBlock(seq, engineCs(cs), name); });
        return 0;
    });
    return out;
}

namespace {

tessera::Tensor logSoftmaxImpl(tessera::Graph& g, tessera::program::Sequence& seq,
                               const tessera::Tensor& t, bool inPlace, const std::string& name) {
    if (t.rank() < 1) {
        fail("input tensor to logSoftmax must have at least 1 dimension");
    }
    checkFloating(t, "logSoftmax");
    const tessera::Type type = t.elementType();
    const tessera::Tensor rows = asRows(t);
    const std::size_t cols = rows.dim(1);
    const tessera::Tensor max =
        alongRows(reduce(g, seq, rows, type, {1}, ReduceOp::Max, name + "/max"), cols);
    Ex sub;
    sub.binary(BinaryOp::Subtract, sub.placeholder(0), sub.placeholder(1));
    tessera::Tensor shifted;
    if (inPlace) {
        tessera::ops::mapInPlace(g, seq, sub, {rows, max}, name + "/shift");
        shifted = rows;
    } else {
        shifted = tessera::ops::map(g, seq, sub, {rows, max}, name + "/shift");
    }
    Ex exp;
    exp.unary(UnaryOp::Exponent, exp.placeholder(0));
    const tessera::Tensor exps = tessera::ops::map(g, seq, exp, {shifted}, name + "/exp");
    const tessera::Tensor sum =
        reduce(g, seq, exps, tessera::Type::Float, {1}, ReduceOp::Add, name + "/sum");
    Ex log;
    const std::int32_t l = log.unary(UnaryOp::Logarithm, log.placeholder(0));
    if (type != tessera::Type::Float) {
        log.cast(l, type);
    }
    const tessera::Tensor logSum = tessera::ops::map(g, seq, log, {sum}, name + "/log");
    tessera::ops::mapInPlace(g, seq, sub, {shifted, alongRows(logSum, cols)}, name + "/out");
    return inPlace ? t : shifted.reshape(t.shape());
}

} // namespace

poplar::Tensor logSoftmax(poplar::Graph& graph, poplar::Tensor t, poplar::program::Sequence& prog,
                          const poplar::DebugContext& dc) {
    return translatePoplibs([&] {
        tessera::Graph& g = Access::graph(graph).graph;
        const std::string name = nameOr(dc, "LogSoftmax");
        return Access::makeTensor(intoSequence(prog, [&](tessera::program::Sequence& seq) {
            tessera::program::Sequence body;
            const tessera::Tensor out = logSoftmaxImpl(g, body, Access::tensor(t), false, name);
            seq.add(tessera::program::Block(body, name, tessera::program::LibraryCall::at()));
            return out;
        }));
    });
}

void logSoftmaxInPlace(poplar::Graph& graph, poplar::Tensor t, poplar::program::Sequence& prog,
                       const poplar::DebugContext& dc) {
    translatePoplibs([&] {
        tessera::Graph& g = Access::graph(graph).graph;
        const std::string name = nameOr(dc, "LogSoftmax");
        intoSequence(prog, [&](tessera::program::Sequence& seq) {
            tessera::program::Sequence body;
            logSoftmaxImpl(g, body, Access::tensor(t), true, name);
            seq.add(tessera::program::Block(body, name, tessera::program::LibraryCall::at()));
        });
        return 0;
    });
}

} // namespace popnn
