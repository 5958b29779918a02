// The normalisations' shared core (Norms.h) on the engine's reductions and
// element-wise maps.
#include "Norms.h"

#include "engine/ops/Elementwise.h"

namespace popnn::detail {

using tessera::ops::ReduceOp;

namespace {

// A statistic (flat) viewed to broadcast along the view.
tessera::Tensor spread(const tessera::Tensor& stat, const NormView& v, const std::string& what) {
    std::size_t n = 1;
    for (std::size_t d : v.statsShape) {
        n *= d;
    }
    if (stat.numElements() != n) {
        fail(what + ": a statistic or parameter has " + std::to_string(stat.numElements()) +
             " elements, expected " + std::to_string(n));
    }
    return stat.reshape(v.statsShape);
}

Ex binaryExpr(BinaryOp op) {
    Ex e;
    e.binary(op, e.placeholder(0), e.placeholder(1));
    return e;
}

} // namespace

NormView makeView(const tessera::Tensor& acts, std::size_t groups, const std::string& what) {
    if (acts.rank() < 2) {
        fail(what + ": activations must be at least 2-D ([batch][channels][field...])");
    }
    if (acts.elementType() != tessera::Type::Float && acts.elementType() != tessera::Type::Half) {
        fail(what + ": activations must be FLOAT or HALF");
    }
    NormView v;
    v.actsShape = acts.shape();
    const std::size_t batch = acts.dim(0), channels = acts.dim(1);
    const std::size_t field =
        channels == 0 || batch == 0 ? 0 : acts.numElements() / (batch * channels);
    if (groups == 0) {
        v.view = acts.reshape({batch, channels, field});
        v.dims = {0, 2};
        v.statsShape = {1, channels, 1};
    } else {
        if (channels % groups != 0) {
            fail(what + ": the number of channels (" + std::to_string(channels) +
                 ") is not a multiple of the number of groups (" + std::to_string(groups) + ")");
        }
        v.view = acts.reshape({batch, channels / groups, groups, field});
        v.dims = {1, 3};
        v.statsShape = {batch, 1, groups, 1};
    }
    std::size_t stats = 1;
    for (std::size_t d : v.statsShape) {
        stats *= d;
    }
    v.count = stats == 0 ? 0 : v.view.numElements() / stats;
    return v;
}

tessera::Type partialsOf(const poplar::Type& t) {
    const tessera::Type p = poplar::detail::engineType(t);
    if (p != tessera::Type::Float && p != tessera::Type::Half) {
        fail("norm: partialsType must be FLOAT or HALF");
    }
    return p;
}

std::pair<tessera::Tensor, tessera::Tensor>
statistics(tessera::Graph& g, tessera::program::Sequence& seq, const NormView& v, float eps,
           bool unbiased, bool stable, tessera::Type partials, const std::string& name) {
    const tessera::Type type = v.view.elementType();
    const double n = double(v.count);
    std::vector<tessera::ComputeSet> css;
    const tessera::Tensor mean = tessera::ops::reduce(
        g, v.view, partials, v.dims, tessera::ops::ReduceSpec(ReduceOp::Add, false, 1.0 / n), css,
        name + "/mean");
    tessera::ops::addStages(seq, css, name + "/mean");
    css.clear();
    tessera::Tensor variance;
    if (stable) {
        Ex centred; // (x - mean) cast to partials
        centred.binary(BinaryOp::Subtract, centred.cast(centred.placeholder(0), partials),
                       centred.placeholder(1));
        const tessera::Tensor diff = tessera::ops::map(
            g, seq, centred, {v.view, mean.reshape(v.statsShape)}, name + "/centred");
        variance = tessera::ops::reduce(
            g, diff, partials, v.dims,
            tessera::ops::ReduceSpec(ReduceOp::SquareAdd, false, 1.0 / n), css, name + "/variance");
        tessera::ops::addStages(seq, css, name + "/variance");
    } else {
        const tessera::Tensor power = tessera::ops::reduce(
            g, v.view, partials, v.dims,
            tessera::ops::ReduceSpec(ReduceOp::SquareAdd, false, 1.0 / n), css, name + "/power");
        tessera::ops::addStages(seq, css, name + "/power");
        Ex var; // power - mean^2
        var.binary(BinaryOp::Subtract, var.placeholder(0),
                   var.unary(UnaryOp::Square, var.placeholder(1)));
        variance = tessera::ops::map(g, seq, var, {power, mean}, name + "/variance");
    }
    // invStdDev = 1 / sqrt(variance * correction + eps), in the activations' type.
    const double correction = unbiased && n > 1 ? n / (n - 1) : 1.0;
    Ex isd;
    const auto scaled =
        isd.binary(BinaryOp::Multiply, isd.placeholder(0), isd.constant(correction, partials));
    isd.cast(isd.unary(UnaryOp::Rsqrt,
                       isd.binary(BinaryOp::Add, scaled, isd.constant(double(eps), partials))),
             type);
    const tessera::Tensor invStdDev = tessera::ops::map(g, seq, isd, {variance}, name + "/iStdDev");
    Ex cast;
    cast.cast(cast.placeholder(0), type);
    const tessera::Tensor meanOut =
        partials == type ? mean : tessera::ops::map(g, seq, cast, {mean}, name + "/meanCast");
    return {meanOut.flatten(), invStdDev.flatten()};
}

tessera::Tensor whiten(tessera::Graph& g, tessera::program::Sequence& seq, const NormView& v,
                       const tessera::Tensor& mean, const tessera::Tensor& isd,
                       const std::string& name) {
    Ex e; // (x - mean) * invStdDev
    e.binary(BinaryOp::Multiply, e.binary(BinaryOp::Subtract, e.placeholder(0), e.placeholder(1)),
             e.placeholder(2));
    return tessera::ops::map(g, seq, e, {v.view, spread(mean, v, name), spread(isd, v, name)},
                             name + "/whiten")
        .reshape(v.actsShape);
}

// a * b + c with b, c spread along the view.
tessera::Tensor affine(tessera::Graph& g, tessera::program::Sequence& seq, const NormView& v,
                       const tessera::Tensor& x, const tessera::Tensor& mul,
                       const tessera::Tensor& add, const std::string& name) {
    Ex e;
    e.binary(BinaryOp::Add, e.binary(BinaryOp::Multiply, e.placeholder(0), e.placeholder(1)),
             e.placeholder(2));
    return tessera::ops::map(
               g, seq, e, {x.reshape(v.view.shape()), spread(mul, v, name), spread(add, v, name)},
               name)
        .reshape(v.actsShape);
}

// (sum over the statistic's elements of gradsIn * whitened, of gradsIn).
std::pair<tessera::Tensor, tessera::Tensor>
paramGradients(tessera::Graph& g, tessera::program::Sequence& seq, const NormView& v,
               const tessera::Tensor& whitened, const tessera::Tensor& gradsIn,
               tessera::Type partials, const std::string& name) {
    if (gradsIn.shape() != v.actsShape) {
        fail(name + ": gradsIn must have the shape of the activations");
    }
    const tessera::Type type = whitened.elementType();
    const tessera::Tensor gx = tessera::ops::map(
        g, seq, binaryExpr(BinaryOp::Multiply),
        {whitened.reshape(v.view.shape()), gradsIn.reshape(v.view.shape())}, name + "/gradsXacts");
    const tessera::Tensor gammaDelta =
        reduce(g, seq, gx, partials, v.dims, ReduceOp::Add, name + "/gammaDelta");
    const tessera::Tensor betaDelta = reduce(g, seq, gradsIn.reshape(v.view.shape()), partials,
                                             v.dims, ReduceOp::Add, name + "/betaDelta");
    if (partials == type) {
        return {gammaDelta.flatten(), betaDelta.flatten()};
    }
    Ex cast;
    cast.cast(cast.placeholder(0), type);
    return {tessera::ops::map(g, seq, cast, {gammaDelta}, name + "/castGamma").flatten(),
            tessera::ops::map(g, seq, cast, {betaDelta}, name + "/castBeta").flatten()};
}

// The gradient at the input through the statistics:
// invStdDev * (gN - (sum(gN) + whitened * sum(gN * whitened)) / N), gN = gradsIn * gamma.
tessera::Tensor inputGradients(tessera::Graph& g, tessera::program::Sequence& seq,
                               const NormView& v, const NormView& perChannel,
                               const tessera::Tensor& whitened, const tessera::Tensor& gradsIn,
                               const tessera::Tensor& isd, const tessera::Tensor& gamma,
                               tessera::Type partials, const std::string& name) {
    if (gradsIn.shape() != v.actsShape) {
        fail(name + ": gradsIn must have the shape of the activations");
    }
    // gamma is per channel: spread it along the per-channel view.
    const tessera::Tensor gN = tessera::ops::map(g, seq, binaryExpr(BinaryOp::Multiply),
                                                 {gradsIn.reshape(perChannel.view.shape()),
                                                  spread(gamma, perChannel, name)},
                                                 name + "/gradsNorm")
                                   .reshape(v.view.shape());
    const tessera::Tensor x = whitened.reshape(v.view.shape());
    const tessera::Tensor gx =
        tessera::ops::map(g, seq, binaryExpr(BinaryOp::Multiply), {gN, x}, name + "/gradsXacts");
    const tessera::Tensor sumG =
        reduce(g, seq, gN, partials, v.dims, ReduceOp::Add, name + "/sumG");
    const tessera::Tensor sumGX =
        reduce(g, seq, gx, partials, v.dims, ReduceOp::Add, name + "/sumGX");
    const tessera::Type type = whitened.elementType();
    Ex e; // isd * (gN - (sumG + x * sumGX) / N)
    const auto cN = e.cast(e.placeholder(0), partials);
    const auto cX = e.cast(e.placeholder(1), partials);
    const auto inner =
        e.binary(BinaryOp::Subtract, cN,
                 e.binary(BinaryOp::Multiply,
                          e.binary(BinaryOp::Add, e.placeholder(2),
                                   e.binary(BinaryOp::Multiply, cX, e.placeholder(3))),
                          e.constant(1.0 / double(v.count), partials)));
    e.cast(e.binary(BinaryOp::Multiply, inner, e.cast(e.placeholder(4), partials)), type);
    return tessera::ops::map(g, seq, e,
                             {gN, x, sumG.reshape(v.statsShape), sumGX.reshape(v.statsShape),
                              spread(isd, v, name)},
                             name + "/inGradient")
        .reshape(v.actsShape);
}

// gamma += scale * gammaDelta, beta += scale * betaDelta.
void paramUpdate(tessera::Graph& g, tessera::program::Sequence& seq, const tessera::Tensor& gd,
                 const tessera::Tensor& bd, const tessera::Tensor* scaleT, float scale,
                 const tessera::Tensor& gamma, const tessera::Tensor& beta,
                 const std::string& name) {
    for (const auto& [param, delta] : {std::make_pair(gamma, gd), std::make_pair(beta, bd)}) {
        if (param.shape() != delta.shape() || param.elementType() != delta.elementType()) {
            fail(name + ": each parameter and its delta must have the same shape and type");
        }
        Ex e;
        const tessera::Type type = param.elementType();
        std::vector<tessera::Tensor> inputs = {param, delta};
        std::int32_t s;
        if (scaleT) {
            if (scaleT->numElements() != 1) {
                fail(name + ": scale must be a one-element tensor");
            }
            inputs.push_back(scaleT->reshape({}));
            s = e.cast(e.placeholder(2), type);
        } else {
            s = e.constant(double(scale), type);
        }
        e.binary(BinaryOp::Add, e.placeholder(0),
                 e.binary(BinaryOp::Multiply, e.placeholder(1), s));
        tessera::ops::mapInPlace(g, seq, e, inputs, name);
    }
}

} // namespace popnn::detail
