// poplin::ConvParams: constructors, sizes, validation, comparison, hashing.
#include <poplar/exceptions.hpp>
#include <poplin/ConvParams.hpp>
#include <poputil/exceptions.hpp>

#include <ostream>
#include <sstream>
#include <string>
#include <tuple>

namespace poplin {

namespace {

unsigned at(const std::vector<unsigned>& v, unsigned i, unsigned fallback) {
    return v.empty() ? fallback : v[i];
}

unsigned dilated(unsigned n, unsigned d) {
    return n == 0 ? 0 : (n - 1) * d + 1;
}

unsigned truncated(std::size_t size, const ConvParams::InputTransform& t, unsigned dim) {
    const std::size_t cut = at(t.truncationLower, dim, 0) + at(t.truncationUpper, dim, 0);
    return size > cut ? static_cast<unsigned>(size - cut) : 0;
}

unsigned transformed(std::size_t size, const ConvParams::InputTransform& t, unsigned dim) {
    return at(t.paddingLower, dim, 0) + dilated(truncated(size, t, dim), at(t.dilation, dim, 1)) +
           at(t.paddingUpper, dim, 0);
}

template <typename T>
void hashCombine(std::size_t& seed, const T& value) {
    seed ^= std::hash<T>()(value) + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
}

template <typename T>
void hashRange(std::size_t& seed, const std::vector<T>& values) {
    hashCombine(seed, values.size());
    for (const T& v : values) {
        hashCombine(seed, static_cast<std::size_t>(v));
    }
}

template <typename T>
void print(std::ostream& os, const char* name, const std::vector<T>& v) {
    os << "  " << name << ": {";
    for (std::size_t i = 0; i < v.size(); ++i) {
        os << (i ? "," : "") << v[i];
    }
    os << "}\n";
}

} // namespace

ConvParams::InputTransform::InputTransform(const std::size_t size)
    : truncationLower(size, 0)
    , truncationUpper(size, 0)
    , dilation(size, 1)
    , paddingLower(size, 0)
    , paddingUpper(size, 0)
    , flip(size, false) {}

ConvParams::InputTransform::InputTransform(std::vector<unsigned> truncationLower_,
                                           std::vector<unsigned> truncationUpper_,
                                           std::vector<unsigned> dilation_,
                                           std::vector<unsigned> paddingLower_,
                                           std::vector<unsigned> paddingUpper_,
                                           std::vector<bool> flip_)
    : truncationLower(std::move(truncationLower_))
    , truncationUpper(std::move(truncationUpper_))
    , dilation(std::move(dilation_))
    , paddingLower(std::move(paddingLower_))
    , paddingUpper(std::move(paddingUpper_))
    , flip(std::move(flip_)) {}

ConvParams::OutputTransform::OutputTransform(const std::size_t size)
    : truncationLower(size, 0)
    , truncationUpper(size, 0)
    , stride(size, 1)
    , paddingLower(size, 0)
    , paddingUpper(size, 0) {}

ConvParams::OutputTransform::OutputTransform(std::vector<unsigned> truncationLower_,
                                             std::vector<unsigned> truncationUpper_,
                                             std::vector<unsigned> striding,
                                             std::vector<unsigned> paddingLower_,
                                             std::vector<unsigned> paddingUpper_)
    : truncationLower(std::move(truncationLower_))
    , truncationUpper(std::move(truncationUpper_))
    , stride(std::move(striding))
    , paddingLower(std::move(paddingLower_))
    , paddingUpper(std::move(paddingUpper_)) {}

static auto tie(const ConvParams::InputTransform& t) {
    return std::tie(t.truncationLower, t.truncationUpper, t.dilation, t.paddingLower,
                    t.paddingUpper, t.flip);
}
static auto tie(const ConvParams::OutputTransform& t) {
    return std::tie(t.truncationLower, t.truncationUpper, t.stride, t.paddingLower, t.paddingUpper);
}
static auto tie(const ConvParams& p) {
    return std::tie(p.inputType, p.outputType, p.batchSize, p.inputFieldShape, p.kernelShape,
                    p.inputChannels, p.outputChannels, p.numConvGroups, p.inputTransform,
                    p.kernelTransform, p.outputTransform);
}

bool operator<(const ConvParams::InputTransform& a, const ConvParams::InputTransform& b) {
    return tie(a) < tie(b);
}
bool operator==(const ConvParams::InputTransform& a, const ConvParams::InputTransform& b) {
    return tie(a) == tie(b);
}
bool operator!=(const ConvParams::InputTransform& a, const ConvParams::InputTransform& b) {
    return !(a == b);
}
bool operator<(const ConvParams::OutputTransform& a, const ConvParams::OutputTransform& b) {
    return tie(a) < tie(b);
}
bool operator==(const ConvParams::OutputTransform& a, const ConvParams::OutputTransform& b) {
    return tie(a) == tie(b);
}
bool operator!=(const ConvParams::OutputTransform& a, const ConvParams::OutputTransform& b) {
    return !(a == b);
}
bool operator<(const ConvParams& a, const ConvParams& b) {
    return tie(a) < tie(b);
}
bool operator==(const ConvParams& a, const ConvParams& b) {
    return tie(a) == tie(b);
}
bool operator!=(const ConvParams& a, const ConvParams& b) {
    return !(a == b);
}

ConvParams::ConvParams(poplar::Type dataType, std::size_t batchSize_,
                       std::vector<std::size_t> inputFieldShape_,
                       std::vector<std::size_t> kernelShape_, std::size_t inputChannels_,
                       std::size_t outputChannels_, std::size_t numConvGroups_)
    : ConvParams(dataType, dataType, batchSize_, std::move(inputFieldShape_),
                 std::move(kernelShape_), inputChannels_, outputChannels_, numConvGroups_) {}

ConvParams::ConvParams(poplar::Type inputType_, poplar::Type outputType_, std::size_t batchSize_,
                       std::vector<std::size_t> inputFieldShape_,
                       std::vector<std::size_t> kernelShape_, std::size_t inputChannels_,
                       std::size_t outputChannels_, std::size_t numConvGroups_)
    : ConvParams(inputType_, outputType_, batchSize_, inputFieldShape_, kernelShape_,
                 inputChannels_, outputChannels_, numConvGroups_,
                 InputTransform(inputFieldShape_.size()), InputTransform(inputFieldShape_.size()),
                 OutputTransform(inputFieldShape_.size())) {}

ConvParams::ConvParams(poplar::Type inputType_, poplar::Type outputType_, std::size_t batchSize_,
                       std::vector<std::size_t> inputFieldShape_,
                       std::vector<std::size_t> kernelShape_, std::size_t inputChannels_,
                       std::size_t outputChannels_, std::size_t numConvGroups_,
                       InputTransform inputTransform_, InputTransform kernelTransform_,
                       OutputTransform outputTransform_)
    : inputType(inputType_)
    , outputType(outputType_)
    , batchSize(batchSize_)
    , inputFieldShape(std::move(inputFieldShape_))
    , kernelShape(std::move(kernelShape_))
    , inputChannels(inputChannels_)
    , outputChannels(outputChannels_)
    , numConvGroups(numConvGroups_)
    , inputTransform(std::move(inputTransform_))
    , kernelTransform(std::move(kernelTransform_))
    , outputTransform(std::move(outputTransform_)) {}

unsigned ConvParams::getTruncatedInputSize(unsigned dim) const {
    return truncated(inputFieldShape.at(dim), inputTransform, dim);
}
unsigned ConvParams::getTruncatedKernelSize(unsigned dim) const {
    return truncated(kernelShape.at(dim), kernelTransform, dim);
}
unsigned ConvParams::getTransformedInputSize(unsigned dim) const {
    return transformed(inputFieldShape.at(dim), inputTransform, dim);
}
unsigned ConvParams::getTransformedKernelSize(unsigned dim) const {
    return transformed(kernelShape.at(dim), kernelTransform, dim);
}

std::size_t ConvParams::getUntransformedOutputSize(unsigned dim) const {
    const unsigned in = getTransformedInputSize(dim);
    const unsigned k = getTransformedKernelSize(dim);
    return in >= k ? in - k + 1 : 0;
}

std::size_t ConvParams::getOutputSize(unsigned dim) const {
    const OutputTransform& t = outputTransform;
    const std::size_t size = getUntransformedOutputSize(dim);
    const std::size_t cut = at(t.truncationLower, dim, 0) + at(t.truncationUpper, dim, 0);
    const std::size_t kept = size > cut ? size - cut : 0;
    const std::size_t stride = at(t.stride, dim, 1);
    const std::size_t strided = stride == 0 ? 0 : (kept + stride - 1) / stride;
    return at(t.paddingLower, dim, 0) + strided + at(t.paddingUpper, dim, 0);
}

std::vector<std::size_t> ConvParams::getOutputFieldShape() const {
    std::vector<std::size_t> out;
    for (unsigned d = 0; d < inputFieldShape.size(); ++d) {
        out.push_back(getOutputSize(d));
    }
    return out;
}

void ConvParams::validate() const {
    const std::size_t n = inputFieldShape.size();
    auto fail = [](const std::string& what) {
        throw poputil::poplibs_error("poplin::ConvParams: " + what);
    };
    if (kernelShape.size() != n) {
        fail("the kernel has " + std::to_string(kernelShape.size()) +
             " field dimensions, the input " + std::to_string(n));
    }
    auto checkSize = [&](std::size_t size, const char* what) {
        if (size != 0 && size != n) {
            fail(std::string(what) + " has " + std::to_string(size) + " entries, not " +
                 std::to_string(n));
        }
    };
    for (const InputTransform* t : {&inputTransform, &kernelTransform}) {
        const char* which = t == &inputTransform ? "inputTransform" : "kernelTransform";
        checkSize(t->truncationLower.size(), which);
        checkSize(t->truncationUpper.size(), which);
        checkSize(t->dilation.size(), which);
        checkSize(t->paddingLower.size(), which);
        checkSize(t->paddingUpper.size(), which);
        checkSize(t->flip.size(), which);
        for (unsigned d : t->dilation) {
            if (d == 0) {
                fail(std::string(which) + ".dilation is 0");
            }
        }
    }
    const OutputTransform& o = outputTransform;
    checkSize(o.truncationLower.size(), "outputTransform");
    checkSize(o.truncationUpper.size(), "outputTransform");
    checkSize(o.stride.size(), "outputTransform");
    checkSize(o.paddingLower.size(), "outputTransform");
    checkSize(o.paddingUpper.size(), "outputTransform");
    for (unsigned s : o.stride) {
        if (s == 0) {
            fail("outputTransform.stride is 0");
        }
    }
    if (batchSize == 0 || inputChannels == 0 || outputChannels == 0 || numConvGroups == 0) {
        fail("the batch size, channels and groups must not be 0");
    }
    for (unsigned d = 0; d < n; ++d) {
        if (getTransformedKernelSize(d) == 0) {
            fail("the kernel of field dimension " + std::to_string(d) + " is empty");
        }
        if (getTransformedInputSize(d) < getTransformedKernelSize(d)) {
            fail("the transformed input (" + std::to_string(getTransformedInputSize(d)) +
                 ") of field dimension " + std::to_string(d) +
                 " is smaller than the transformed kernel (" +
                 std::to_string(getTransformedKernelSize(d)) + ")");
        }
    }
}

std::ostream& operator<<(std::ostream& os, const ConvParams& p) {
    os << "Params: inputType " << p.inputType << ", outputType " << p.outputType << "\n";
    os << "  batchSize " << p.batchSize << ", numConvGroups " << p.numConvGroups
       << ", inputChannelsPerConvGroup " << p.inputChannels << ", outputChannelsPerConvGroup "
       << p.outputChannels << "\n";
    print(os, "inputFieldShape", p.inputFieldShape);
    print(os, "kernelShape", p.kernelShape);
    print(os, "inputTruncationLower", p.inputTransform.truncationLower);
    print(os, "inputTruncationUpper", p.inputTransform.truncationUpper);
    print(os, "inputDilation", p.inputTransform.dilation);
    print(os, "inputPaddingLower", p.inputTransform.paddingLower);
    print(os, "inputPaddingUpper", p.inputTransform.paddingUpper);
    print(os, "flipInput", p.inputTransform.flip);
    print(os, "kernelTruncationLower", p.kernelTransform.truncationLower);
    print(os, "kernelTruncationUpper", p.kernelTransform.truncationUpper);
    print(os, "kernelDilation", p.kernelTransform.dilation);
    print(os, "kernelPaddingLower", p.kernelTransform.paddingLower);
    print(os, "kernelPaddingUpper", p.kernelTransform.paddingUpper);
    print(os, "flipKernel", p.kernelTransform.flip);
    print(os, "outputTruncationLower", p.outputTransform.truncationLower);
    print(os, "outputTruncationUpper", p.outputTransform.truncationUpper);
    print(os, "stride", p.outputTransform.stride);
    print(os, "outputPaddingLower", p.outputTransform.paddingLower);
    print(os, "outputPaddingUpper", p.outputTransform.paddingUpper);
    print(os, "outputFieldShape", p.getOutputFieldShape());
    return os;
}

std::size_t hash_value(const ConvParams::InputTransform& it) {
    std::size_t seed = 0;
    hashRange(seed, it.truncationLower);
    hashRange(seed, it.truncationUpper);
    hashRange(seed, it.dilation);
    hashRange(seed, it.paddingLower);
    hashRange(seed, it.paddingUpper);
    hashRange(seed, it.flip);
    return seed;
}

std::size_t hash_value(const ConvParams::OutputTransform& ot) {
    std::size_t seed = 0;
    hashRange(seed, ot.truncationLower);
    hashRange(seed, ot.truncationUpper);
    hashRange(seed, ot.stride);
    hashRange(seed, ot.paddingLower);
    hashRange(seed, ot.paddingUpper);
    return seed;
}

} // namespace poplin

std::size_t std::hash<poplin::ConvParams::InputTransform>::operator()(
    const poplin::ConvParams::InputTransform& it) const {
    return poplin::hash_value(it);
}

std::size_t std::hash<poplin::ConvParams::OutputTransform>::operator()(
    const poplin::ConvParams::OutputTransform& ot) const {
    return poplin::hash_value(ot);
}

std::size_t std::hash<poplin::ConvParams>::operator()(const poplin::ConvParams& p) const {
    std::size_t seed = 0;
    poplin::hashCombine(seed, p.inputType.id());
    poplin::hashCombine(seed, p.outputType.id());
    poplin::hashCombine(seed, p.batchSize);
    poplin::hashRange(seed, p.inputFieldShape);
    poplin::hashRange(seed, p.kernelShape);
    poplin::hashCombine(seed, p.inputChannels);
    poplin::hashCombine(seed, p.outputChannels);
    poplin::hashCombine(seed, p.numConvGroups);
    poplin::hashCombine(seed, poplin::hash_value(p.inputTransform));
    poplin::hashCombine(seed, poplin::hash_value(p.kernelTransform));
    poplin::hashCombine(seed, poplin::hash_value(p.outputTransform));
    return seed;
}
