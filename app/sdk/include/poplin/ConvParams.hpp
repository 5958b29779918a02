// poplin::ConvParams: the shape of a convolution as PopLibs describes it: a
// batch of inputs with N field dimensions, input and output channels per
// group, a number of groups, and transformations of the input, the kernel
// (truncation, dilation, padding, flipping) and the output (truncation,
// stride, padding).
#ifndef TESSERA_POPLIN_CONVPARAMS_HPP
#define TESSERA_POPLIN_CONVPARAMS_HPP

#include <poplar/Type.hpp>

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <tuple>
#include <vector>

namespace poplin {

struct ConvParams {
    struct InputTransform {
        // Removed from each end of each field dimension first.
        std::vector<unsigned> truncationLower;
        std::vector<unsigned> truncationUpper;
        // Then dilation - 1 zeros between neighbouring elements.
        std::vector<unsigned> dilation;
        // Then zeros added at each end.
        std::vector<unsigned> paddingLower;
        std::vector<unsigned> paddingUpper;
        // Finally the dimension reversed.
        std::vector<bool> flip;

        InputTransform() = default;
        // No transformation of `size` field dimensions.
        InputTransform(const std::size_t size);
        InputTransform(std::vector<unsigned> truncationLower, std::vector<unsigned> truncationUpper,
                       std::vector<unsigned> dilation, std::vector<unsigned> paddingLower,
                       std::vector<unsigned> paddingUpper, std::vector<bool> flip);

        friend bool operator<(const InputTransform& a, const InputTransform& b);
        friend bool operator==(const InputTransform& a, const InputTransform& b);
        friend bool operator!=(const InputTransform& a, const InputTransform& b);
    };

    struct OutputTransform {
        // Removed from each end of each output dimension first.
        std::vector<unsigned> truncationLower;
        std::vector<unsigned> truncationUpper;
        // Then every stride-th element kept.
        std::vector<unsigned> stride;
        // Then zeros added at each end.
        std::vector<unsigned> paddingLower;
        std::vector<unsigned> paddingUpper;

        OutputTransform() = default;
        OutputTransform(const std::size_t size);
        OutputTransform(std::vector<unsigned> truncationLower,
                        std::vector<unsigned> truncationUpper, std::vector<unsigned> striding,
                        std::vector<unsigned> paddingLower, std::vector<unsigned> paddingUpper);

        friend bool operator<(const OutputTransform& a, const OutputTransform& b);
        friend bool operator==(const OutputTransform& a, const OutputTransform& b);
        friend bool operator!=(const OutputTransform& a, const OutputTransform& b);
    };

    poplar::Type inputType;
    poplar::Type outputType;
    std::size_t batchSize = 0;
    std::vector<std::size_t> inputFieldShape;
    std::vector<std::size_t> kernelShape;
    std::size_t inputChannels = 0;  // per group
    std::size_t outputChannels = 0; // per group
    std::size_t numConvGroups = 1;

    InputTransform inputTransform;
    InputTransform kernelTransform;
    OutputTransform outputTransform;

    ConvParams() = default;
    ConvParams(poplar::Type dataType, std::size_t batchSize,
               std::vector<std::size_t> inputFieldShape, std::vector<std::size_t> kernelShape,
               std::size_t inputChannels, std::size_t outputChannels, std::size_t numConvGroups);
    ConvParams(poplar::Type inputType, poplar::Type outputType, std::size_t batchSize,
               std::vector<std::size_t> inputFieldShape, std::vector<std::size_t> kernelShape,
               std::size_t inputChannels, std::size_t outputChannels, std::size_t numConvGroups);
    ConvParams(poplar::Type inputType, poplar::Type outputType, std::size_t batchSize,
               std::vector<std::size_t> inputFieldShape, std::vector<std::size_t> kernelShape,
               std::size_t inputChannels, std::size_t outputChannels, std::size_t numConvGroups,
               InputTransform inputTransform, InputTransform kernelTransform,
               OutputTransform outputTransform);

    // The output size of dimension `dim` before / after the output transform.
    std::size_t getUntransformedOutputSize(unsigned dim) const;
    std::size_t getOutputSize(unsigned dim) const;
    std::size_t getNumOutputChansPerConvGroup() const { return outputChannels; }
    std::size_t getNumOutputChans() const { return outputChannels * numConvGroups; }
    std::size_t getInputSize(unsigned dim) const { return inputFieldShape[dim]; }
    std::size_t getNumInputChansPerConvGroup() const { return inputChannels; }
    std::size_t getNumInputChans() const { return inputChannels * numConvGroups; }
    std::size_t getNumConvGroups() const { return numConvGroups; }
    std::size_t getNumFieldDims() const { return inputFieldShape.size(); }
    std::size_t getBatchSize() const { return batchSize; }

    unsigned getTruncatedInputSize(unsigned dim) const;
    unsigned getTruncatedKernelSize(unsigned dim) const;
    unsigned getTransformedInputSize(unsigned dim) const;
    unsigned getTransformedKernelSize(unsigned dim) const;
    std::vector<std::size_t> getOutputFieldShape() const;

    // Throws poputil::poplibs_error when a transformation has the wrong number
    // of dimensions, a dilation or stride is 0, or the output is empty.
    void validate() const;

    friend bool operator<(const ConvParams& a, const ConvParams& b);
    friend bool operator==(const ConvParams& a, const ConvParams& b);
    friend bool operator!=(const ConvParams& a, const ConvParams& b);
};

std::ostream& operator<<(std::ostream& os, const ConvParams& p);

std::size_t hash_value(const ConvParams::InputTransform& it);
std::size_t hash_value(const ConvParams::OutputTransform& ot);

} // namespace poplin

namespace std {

template <>
struct hash<poplin::ConvParams::InputTransform> {
    std::size_t operator()(const poplin::ConvParams::InputTransform& it) const;
};

template <>
struct hash<poplin::ConvParams::OutputTransform> {
    std::size_t operator()(const poplin::ConvParams::OutputTransform& ot) const;
};

template <>
struct hash<poplin::ConvParams> {
    std::size_t operator()(const poplin::ConvParams& params) const;
};

} // namespace std

#endif
