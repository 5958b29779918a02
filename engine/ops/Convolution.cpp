#include "engine/ops/Convolution.h"

#include "engine/core/Error.h"
#include "engine/ops/Mapping.h"
#include "engine/ops/MatMul.h"

#include <functional>
#include <numeric>

namespace tessera::ops {

namespace {

std::size_t at(const std::vector<std::size_t>& v, std::size_t i, std::size_t fallback) {
    return v.empty() ? fallback : v[i];
}

std::size_t dilated(std::size_t n, std::size_t d) {
    return n == 0 ? 0 : (n - 1) * d + 1;
}

// The size of a field dimension after truncation, dilation and padding.
std::size_t transformedSize(std::size_t n, const ConvTransform& t, std::size_t i) {
    const std::size_t cut = at(t.truncationLower, i, 0) + at(t.truncationUpper, i, 0);
    const std::size_t kept = n > cut ? n - cut : 0;
    return at(t.paddingLower, i, 0) + dilated(kept, at(t.dilation, i, 1)) +
           at(t.paddingUpper, i, 0);
}

// Original index behind transformed index `x`, or -1 for padding and holes.
long long untransform(long long x, std::size_t size, const ConvTransform& t, std::size_t i,
                      std::size_t transformed) {
    if (!t.flip.empty() && t.flip[i]) {
        x = static_cast<long long>(transformed) - 1 - x;
    }
    const auto lower = static_cast<long long>(at(t.truncationLower, i, 0));
    const auto upper = static_cast<long long>(at(t.truncationUpper, i, 0));
    const auto d = static_cast<long long>(at(t.dilation, i, 1));
    const long long kept = std::max<long long>(0, static_cast<long long>(size) - lower - upper);
    const long long u = x - static_cast<long long>(at(t.paddingLower, i, 0));
    if (u < 0 ||
        u >= static_cast<long long>(
                 dilated(static_cast<std::size_t>(kept), static_cast<std::size_t>(d))) ||
        u % d != 0) {
        return -1;
    }
    return u / d + lower;
}

// Transformed index of original index `x`, or -1 when truncated away.
long long transform(long long x, std::size_t size, const ConvTransform& t, std::size_t i,
                    std::size_t transformed) {
    const auto lower = static_cast<long long>(at(t.truncationLower, i, 0));
    const auto upper = static_cast<long long>(at(t.truncationUpper, i, 0));
    if (x < lower || x >= static_cast<long long>(size) - upper) {
        return -1;
    }
    long long y = (x - lower) * static_cast<long long>(at(t.dilation, i, 1)) +
                  static_cast<long long>(at(t.paddingLower, i, 0));
    if (!t.flip.empty() && t.flip[i]) {
        y = static_cast<long long>(transformed) - 1 - y;
    }
    return y;
}

std::size_t product(const std::vector<std::size_t>& v) {
    return std::accumulate(v.begin(), v.end(), std::size_t{1}, std::multiplies<>());
}

// The row-major multi-index of flat index `flat` in `shape`.
std::vector<std::size_t> unflatten(std::size_t flat, const std::vector<std::size_t>& shape) {
    std::vector<std::size_t> index(shape.size());
    for (std::size_t d = shape.size(); d-- > 0;) {
        index[d] = flat % shape[d];
        flat /= shape[d];
    }
    return index;
}

// Appends to `runs` the input elements kernel position `k` reads for output
// positions 0..positions-1 of `channel`: consecutive sources as one slice,
// padding as one broadcast of `zero`.
void appendSourceRuns(const std::vector<long long>& source, std::size_t kernel, std::size_t k,
                      std::size_t positions, const Tensor& channel, const Tensor& zero,
                      std::vector<Tensor>& runs) {
    std::size_t p = 0;
    while (p < positions) {
        const long long first = source[p * kernel + k];
        std::size_t q = p + 1;
        if (first < 0) {
            while (q < positions && source[q * kernel + k] < 0) {
                ++q;
            }
            runs.push_back(zero.reshape({1}).broadcast(q - p, 0));
        } else {
            while (q < positions &&
                   source[q * kernel + k] == first + static_cast<long long>(q - p)) {
                ++q;
            }
            runs.push_back(channel.slice(static_cast<std::size_t>(first),
                                         static_cast<std::size_t>(first) + (q - p)));
        }
        p = q;
    }
}

} // namespace

void ConvSpec::validate(const std::string& what) const {
    const std::size_t n = inputFieldShape.size();
    if (kernelShape.size() != n) {
        throw Error(what + ": the kernel has " + std::to_string(kernelShape.size()) +
                    " field dimensions, the input " + std::to_string(n));
    }
    auto rank = [&](const std::vector<std::size_t>& v, const char* name) {
        if (!v.empty() && v.size() != n) {
            throw Error(what + ": " + name + " has " + std::to_string(v.size()) + " entries for " +
                        std::to_string(n) + " field dimensions");
        }
    };
    for (const ConvTransform* t : {&input, &kernel}) {
        rank(t->truncationLower, "truncationLower");
        rank(t->truncationUpper, "truncationUpper");
        rank(t->dilation, "dilation");
        rank(t->paddingLower, "paddingLower");
        rank(t->paddingUpper, "paddingUpper");
        if (!t->flip.empty() && t->flip.size() != n) {
            throw Error(what + ": flip has " + std::to_string(t->flip.size()) + " entries for " +
                        std::to_string(n) + " field dimensions");
        }
        for (std::size_t d : t->dilation) {
            if (d == 0) {
                throw Error(what + ": a dilation of 0");
            }
        }
    }
    rank(output.truncationLower, "output truncationLower");
    rank(output.truncationUpper, "output truncationUpper");
    rank(output.stride, "stride");
    rank(output.paddingLower, "output paddingLower");
    rank(output.paddingUpper, "output paddingUpper");
    for (std::size_t s : output.stride) {
        if (s == 0) {
            throw Error(what + ": a stride of 0");
        }
    }
    for (std::size_t i = 0; i < n; ++i) {
        if (transformedSize(kernelShape[i], kernel, i) >
            transformedSize(inputFieldShape[i], input, i)) {
            throw Error(what + ": in field dimension " + std::to_string(i) + " the kernel (" +
                        std::to_string(transformedSize(kernelShape[i], kernel, i)) +
                        " after its transformation) is larger than the input (" +
                        std::to_string(transformedSize(inputFieldShape[i], input, i)) + ")");
        }
    }
    if (numGroups == 0 || inputChannelsPerGroup == 0 || outputChannelsPerGroup == 0) {
        throw Error(what + ": groups and channels must be at least 1");
    }
}

std::vector<std::size_t> ConvSpec::outputFieldShape() const {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < inputFieldShape.size(); ++i) {
        const std::size_t raw = transformedSize(inputFieldShape[i], input, i) -
                                transformedSize(kernelShape[i], kernel, i) + 1;
        const std::size_t cut = at(output.truncationLower, i, 0) + at(output.truncationUpper, i, 0);
        const std::size_t kept = raw > cut ? raw - cut : 0;
        const std::size_t stride = at(output.stride, i, 1);
        out.push_back(at(output.paddingLower, i, 0) + (kept + stride - 1) / stride +
                      at(output.paddingUpper, i, 0));
    }
    return out;
}

std::vector<std::size_t> ConvSpec::inputShape() const {
    std::vector<std::size_t> s = {batchSize, numGroups * inputChannelsPerGroup};
    s.insert(s.end(), inputFieldShape.begin(), inputFieldShape.end());
    return s;
}

std::vector<std::size_t> ConvSpec::weightsShape() const {
    std::vector<std::size_t> s = {numGroups, outputChannelsPerGroup, inputChannelsPerGroup};
    s.insert(s.end(), kernelShape.begin(), kernelShape.end());
    return s;
}

std::vector<std::size_t> ConvSpec::outputShape() const {
    std::vector<std::size_t> s = {batchSize, numGroups * outputChannelsPerGroup};
    const std::vector<std::size_t> field = outputFieldShape();
    s.insert(s.end(), field.begin(), field.end());
    return s;
}

std::vector<long long> convInputIndex(const ConvSpec& spec,
                                      const std::vector<std::size_t>& outPosition,
                                      const std::vector<std::size_t>& kernelPosition) {
    const std::size_t n = spec.inputFieldShape.size();
    std::vector<long long> index(n, -1);
    for (std::size_t i = 0; i < n; ++i) {
        const ConvOutputTransform& o = spec.output;
        const auto p = static_cast<long long>(outPosition[i]);
        const std::size_t raw = transformedSize(spec.inputFieldShape[i], spec.input, i) -
                                transformedSize(spec.kernelShape[i], spec.kernel, i) + 1;
        const std::size_t cut = at(o.truncationLower, i, 0) + at(o.truncationUpper, i, 0);
        const auto stride = static_cast<long long>(at(o.stride, i, 1));
        const long long strided =
            (static_cast<long long>(raw > cut ? raw - cut : 0) + stride - 1) / stride;
        const long long u = p - static_cast<long long>(at(o.paddingLower, i, 0));
        if (u < 0 || u >= strided) {
            return std::vector<long long>(n, -1); // output padding: zero
        }
        const long long q = u * stride + static_cast<long long>(at(o.truncationLower, i, 0));
        const std::size_t kernelT = transformedSize(spec.kernelShape[i], spec.kernel, i);
        const long long k = transform(static_cast<long long>(kernelPosition[i]),
                                      spec.kernelShape[i], spec.kernel, i, kernelT);
        if (k < 0) {
            return std::vector<long long>(n, -1); // a truncated kernel element
        }
        index[i] = untransform(q + k, spec.inputFieldShape[i], spec.input, i,
                               transformedSize(spec.inputFieldShape[i], spec.input, i));
        if (index[i] < 0) {
            return std::vector<long long>(n, -1);
        }
    }
    return index;
}

Tensor createConvInput(Graph& graph, const ConvSpec& spec, const std::string& name) {
    spec.validate(name);
    Tensor t = graph.addVariable(spec.inputType, spec.inputShape(), name);
    mapLinearly(graph, t, std::max<std::size_t>(1, product(spec.inputFieldShape)));
    return t;
}

Tensor createConvWeights(Graph& graph, const ConvSpec& spec, const std::string& name) {
    spec.validate(name);
    Tensor t = graph.addVariable(spec.inputType, spec.weightsShape(), name);
    mapLinearly(graph, t, std::max<std::size_t>(1, product(spec.kernelShape)));
    return t;
}

Tensor convolution(Graph& graph, program::Sequence& seq, const Tensor& in, const Tensor& weights,
                   const ConvSpec& spec, const std::string& name) {
    spec.validate(name);
    if (in.shape() != spec.inputShape()) {
        throw Error(name + ": the input " + in.describe() + " " + shapeString(in.shape()) +
                    " is not " + shapeString(spec.inputShape()) + " as the parameters say");
    }
    if (weights.shape() != spec.weightsShape()) {
        throw Error(name + ": the weights " + weights.describe() + " " +
                    shapeString(weights.shape()) + " are not " + shapeString(spec.weightsShape()) +
                    " as the parameters say");
    }
    if (in.elementType() != weights.elementType() || spec.outputType != in.elementType()) {
        throw Error(name + ": not supported by Tessera: a convolution of " +
                    std::string(typeName(in.elementType())) + " by " +
                    std::string(typeName(weights.elementType())) + " giving " +
                    std::string(typeName(spec.outputType)) + " (the types must be equal)");
    }
    const std::vector<std::size_t> outField = spec.outputFieldShape();
    const std::size_t positions = product(outField), kernel = product(spec.kernelShape);
    const std::size_t ci = spec.inputChannelsPerGroup, co = spec.outputChannelsPerGroup;
    const Tensor zero = graph.addConstant(in.elementType(), {}, 0.0, name + "/zero");
    graph.setTileMapping(zero, TileId{0u});
    // Per (output position, kernel position): the input field element, or -1.
    std::vector<long long> source(positions * kernel);
    std::vector<std::size_t> fieldStrides(spec.inputFieldShape.size(), 1);
    for (std::size_t d = fieldStrides.size(); d-- > 1;) {
        fieldStrides[d - 1] = fieldStrides[d] * spec.inputFieldShape[d];
    }
    for (std::size_t p = 0; p < positions; ++p) {
        const std::vector<std::size_t> outPos = unflatten(p, outField);
        for (std::size_t k = 0; k < kernel; ++k) {
            const std::vector<long long> idx =
                convInputIndex(spec, outPos, unflatten(k, spec.kernelShape));
            long long flat = 0;
            for (std::size_t d = 0; d < idx.size(); ++d) {
                if (idx[d] < 0) {
                    flat = -1;
                    break;
                }
                flat += idx[d] * static_cast<long long>(fieldStrides[d]);
            }
            source[p * kernel + k] = flat;
        }
    }
    const std::size_t field = product(spec.inputFieldShape);
    const Tensor flatIn = in.reshape({spec.batchSize, spec.numGroups, ci, field});
    // im2col transposed, row (c, k), column (b, p): along a row the output
    // positions of one image read consecutive input elements (a whole output
    // row of an unstrided convolution is one run), so the copies that build it
    // are runs rather than one element each, and out = weights . patches is
    // [co][b * p], the output's own channel-major order.
    std::vector<Tensor> groups;
    program::Sequence body;
    for (std::size_t g = 0; g < spec.numGroups; ++g) {
        std::vector<Tensor> rows;
        for (std::size_t c = 0; c < ci; ++c) {
            for (std::size_t k = 0; k < kernel; ++k) {
                std::vector<Tensor> runs;
                for (std::size_t b = 0; b < spec.batchSize; ++b) {
                    const Tensor channel = flatIn[b][g][c];
                    appendSourceRuns(source, kernel, k, positions, channel, zero, runs);
                }
                rows.push_back(concat(runs).expand({0}));
            }
        }
        const Tensor patches = concat(rows, 0); // [Ci * K, B * P]
        const Tensor w = weights[g].reshape({co, ci * kernel});
        const Tensor out = matMul(graph, body, w, patches, name + "/group" + std::to_string(g));
        groups.push_back(out.reshape({co, spec.batchSize, positions}).dimShuffle({1, 0, 2}));
    }
    seq.add(program::Block(body, name, program::LibraryCall{__func__}));
    std::vector<std::size_t> shape = spec.outputShape();
    return concat(groups, 1).reshape(shape);
}

} // namespace tessera::ops
