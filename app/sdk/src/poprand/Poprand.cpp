// poprand on the engine's counter-based generator (engine/ops/Random).
#include "Impl.h"
#include "PoplibsErrors.h"
#include "engine/ops/Map.h"
#include "engine/ops/Random.h"

#include <poprand/RandomGen.hpp>
#include <poprand/codelets.hpp>

#include <cmath>

namespace poprand {

using poplar::detail::Access;
using poplar::detail::engineType;
using poplar::detail::intoSequence;
using poplar::detail::translatePoplibs;
using tessera::ops::Distribution;
using tessera::ops::RandomSpec;

void addCodelets(poplar::Graph&) {}

namespace {

std::string opName(const poplar::DebugContext& dc, const std::string& fallback) {
    return dc.getPathName().empty() ? fallback : dc.getPathName();
}

// The seed and modifier as the engine takes them: the modifier counts only
// with a seed, as PopLibs documents.
RandomSpec seeded(Distribution d, const poplar::Tensor* seed, uint32_t seedModifier) {
    RandomSpec spec;
    spec.distribution = d;
    if (seed != nullptr) {
        spec.seed = Access::tensor(*seed);
        spec.seedModifier = seedModifier;
    }
    return spec;
}

poplar::Tensor generate(poplar::Graph& graph, const poplar::Tensor& reference,
                        const poplar::Type& outType, const RandomSpec& spec,
                        poplar::program::Sequence& prog, const std::string& name) {
    return translatePoplibs([&] {
        return Access::makeTensor(intoSequence(prog, [&](tessera::program::Sequence& seq) {
            return tessera::ops::random(Access::graph(graph).graph, seq, Access::tensor(reference),
                                        engineType(outType), spec, name);
        }));
    });
}

} // namespace

poplar::Tensor dropout(poplar::Graph& graph, const poplar::Tensor* seed,
                       const uint32_t seedModifier, const poplar::Tensor& input,
                       const poplar::Tensor& reference, double keepProbability, double scale,
                       bool outputClonesRef, poplar::program::Sequence& prog,
                       const poplar::DebugContext& dc) {
    const std::string name = opName(dc, "dropout");
    if (reference.shape() != input.shape()) {
        throw poputil::poplibs_error("poprand::dropout '" + name + "': the reference " +
                                     tessera::shapeString(reference.shape()) +
                                     " is not the input's shape " +
                                     tessera::shapeString(input.shape()));
    }
    RandomSpec spec = seeded(Distribution::Dropout, seed, seedModifier);
    spec.a = keepProbability;
    spec.b = scale;
    return translatePoplibs([&] {
        return Access::makeTensor(intoSequence(prog, [&](tessera::program::Sequence& seq) {
            return tessera::ops::dropout(Access::graph(graph).graph, seq, Access::tensor(input),
                                         Access::tensor(outputClonesRef ? reference : input), spec,
                                         name);
        }));
    });
}

poplar::Tensor dropout(poplar::Graph& graph, const poplar::Tensor* seed,
                       const uint32_t seedModifier, const poplar::Tensor& input,
                       const poplar::Tensor& reference, double keepProbability, double scale,
                       poplar::program::Sequence& prog, const poplar::DebugContext& dc) {
    return dropout(graph, seed, seedModifier, input, reference, keepProbability, scale, true, prog,
                   dc);
}

poplar::Tensor shapedDropout(poplar::Graph& graph, const poplar::Tensor* seed,
                             const uint32_t seedModifier, const poplar::Tensor& input,
                             const poplar::Tensor& reference, double keepProbability, double scale,
                             poplar::program::Sequence& prog, const poplar::DebugContext& dc) {
    const std::string name = opName(dc, "shapedDropout");
    if (input.elementType() != poplar::FLOAT && input.elementType() != poplar::HALF) {
        throw poputil::poplibs_error("poprand::shapedDropout '" + name +
                                     "': dropout takes float or half, not " +
                                     input.elementType().toString());
    }
    if (keepProbability <= 0 || keepProbability > 1) {
        throw poputil::poplibs_error("poprand::shapedDropout '" + name +
                                     "': the keep probability must be in (0, 1]");
    }
    RandomSpec spec = seeded(Distribution::Bernoulli, seed, seedModifier);
    spec.a = keepProbability;
    return translatePoplibs([&] {
        tessera::Graph& g = Access::graph(graph).graph;
        if (tessera::ops::broadcastShape({reference.shape(), input.shape()},
                                         "poprand::shapedDropout") != input.shape()) {
            throw poputil::poplibs_error("poprand::shapedDropout '" + name + "': the reference " +
                                         tessera::shapeString(reference.shape()) +
                                         " does not broadcast to the input " +
                                         tessera::shapeString(input.shape()));
        }
        return Access::makeTensor(intoSequence(prog, [&](tessera::program::Sequence& outer) {
            tessera::program::Sequence seq; // one operation: draw, then map
            const tessera::Type type = engineType(input.elementType());
            const tessera::Tensor mask =
                tessera::ops::random(g, seq, Access::tensor(reference), type, spec, name + "/mask");
            namespace ex = tessera::ops::expr;
            ex::Expression e; // input * mask * scale
            e.binary(ex::BinaryOp::Multiply,
                     e.binary(ex::BinaryOp::Multiply, e.placeholder(0), e.placeholder(1)),
                     e.constant(scale, type));
            const tessera::Tensor out =
                tessera::ops::map(g, seq, e, {Access::tensor(input), mask}, name + "/apply");
            outer.add(tessera::program::Block(seq, name, tessera::program::LibraryCall::at()));
            return out;
        }));
    });
}

poplar::Tensor uniform(poplar::Graph& graph, const poplar::Tensor* seed, uint32_t seedModifier,
                       const poplar::Tensor& reference, const poplar::Type& outType, double minVal,
                       double maxVal, poplar::program::Sequence& prog,
                       const poplar::DebugContext& dc) {
    RandomSpec spec = seeded(Distribution::Uniform, seed, seedModifier);
    spec.a = minVal;
    spec.b = maxVal;
    return generate(graph, reference, outType, spec, prog, opName(dc, "uniform"));
}

poplar::Tensor logUniform(poplar::Graph& graph, const poplar::Tensor* seed, uint32_t seedModifier,
                          const poplar::Tensor& reference, const poplar::Type& outType,
                          double minVal, double maxVal, poplar::program::Sequence& prog,
                          double base, const poplar::DebugContext& dc) {
    const std::string name = opName(dc, "logUniform");
    if (outType != poplar::FLOAT && outType != poplar::HALF) {
        throw poplar::poplar_error("not supported by Tessera: poprand::logUniform of " +
                                   outType.toString() + " (float and half are)");
    }
    if (minVal < 1) {
        throw poputil::poplibs_error("poprand::logUniform '" + name + "': minVal " +
                                     std::to_string(minVal) + " is less than 1");
    }
    if (maxVal <= minVal) {
        throw poputil::poplibs_error("poprand::logUniform '" + name + "': maxVal " +
                                     std::to_string(maxVal) + " is not greater than minVal " +
                                     std::to_string(minVal));
    }
    if (!(base > 0) || base == 1) {
        throw poputil::poplibs_error("poprand::logUniform '" + name + "': the base " +
                                     std::to_string(base) + " is not positive and other than 1");
    }
    const double lnBase = std::log(base);
    RandomSpec spec = seeded(Distribution::Uniform, seed, seedModifier);
    spec.a = std::log(minVal) / lnBase;
    spec.b = std::log(maxVal) / lnBase;
    return translatePoplibs([&] {
        tessera::Graph& g = Access::graph(graph).graph;
        return Access::makeTensor(intoSequence(prog, [&](tessera::program::Sequence& outer) {
            tessera::program::Sequence seq; // one operation: draw, then map
            // The exponent in float; exp(u ln base) clamped into the interval
            // (rounding can step just outside it), then cast to outType.
            const tessera::Tensor u = tessera::ops::random(
                g, seq, Access::tensor(reference), tessera::Type::Float, spec, name + "/exponent");
            namespace ex = tessera::ops::expr;
            ex::Expression e;
            const auto v =
                e.unary(ex::UnaryOp::Exponent, e.binary(ex::BinaryOp::Multiply, e.placeholder(0),
                                                        e.constant(lnBase, tessera::Type::Float)));
            const auto clamped =
                e.ternary(ex::TernaryOp::Clamp, v, e.constant(minVal, tessera::Type::Float),
                          e.constant(maxVal, tessera::Type::Float));
            e.cast(clamped, engineType(outType));
            const tessera::Tensor out = tessera::ops::map(g, seq, e, {u}, name + "/apply");
            outer.add(tessera::program::Block(seq, name, tessera::program::LibraryCall::at()));
            return out;
        }));
    });
}

poplar::Tensor bernoulli(poplar::Graph& graph, const poplar::Tensor* seed, uint32_t seedModifier,
                         const poplar::Tensor& reference, const poplar::Type& outType, double prob,
                         poplar::program::Sequence& prog, const poplar::DebugContext& dc) {
    RandomSpec spec = seeded(Distribution::Bernoulli, seed, seedModifier);
    spec.a = prob;
    return generate(graph, reference, outType, spec, prog, opName(dc, "bernoulli"));
}

poplar::Tensor normal(poplar::Graph& graph, const poplar::Tensor* seed, uint32_t seedModifier,
                      const poplar::Tensor& reference, const poplar::Type& outType, double mean,
                      double stdDev, poplar::program::Sequence& prog,
                      const poplar::DebugContext& dc) {
    RandomSpec spec = seeded(Distribution::Normal, seed, seedModifier);
    spec.a = mean;
    spec.b = stdDev;
    return generate(graph, reference, outType, spec, prog, opName(dc, "normal"));
}

poplar::Tensor truncatedNormal(poplar::Graph& graph, const poplar::Tensor* seed,
                               uint32_t seedModifier, const poplar::Tensor& reference,
                               const poplar::Type& outType, double mean, double stdDev,
                               double alpha, poplar::program::Sequence& prog,
                               const poplar::DebugContext& dc) {
    RandomSpec spec = seeded(Distribution::TruncatedNormal, seed, seedModifier);
    spec.a = mean;
    spec.b = stdDev;
    spec.c = alpha;
    return generate(graph, reference, outType, spec, prog, opName(dc, "truncatedNormal"));
}

void setSeed(poplar::Graph& graph, const poplar::Tensor& masterSeed, uint32_t seedModifier,
             poplar::program::Sequence& prog, const poplar::DebugContext& dc) {
    translatePoplibs([&] {
        intoSequence(prog, [&](tessera::program::Sequence& seq) {
            tessera::ops::setSeed(Access::graph(graph).graph, seq, Access::tensor(masterSeed),
                                  seedModifier, opName(dc, "setSeed"));
        });
        return 0;
    });
}

} // namespace poprand
