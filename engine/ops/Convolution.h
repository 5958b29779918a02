#pragma once
// poplin::convolution in the engine, with PopLibs' ConvParams: any number of
// field dimensions, batches, groups, and the input, kernel and output
// transformations (truncation, dilation, padding, flipping, output stride).
// Layouts are PopLibs': activations [B][G * C][field...], weights
// [G][Cout][Cin][kernel...], output [B][G * Cout][outField...]. Each group
// runs as the product of an im2col view of the input (no copy; zeros where the
// window falls in padding) and the group's weights, planned by ops::matMul.
#include "engine/graph/Graph.h"
#include "engine/program/Program.h"

#include <string>
#include <vector>

namespace tessera::ops {

struct ConvTransform {
    std::vector<std::size_t> truncationLower, truncationUpper; // per field dim (empty: 0)
    std::vector<std::size_t> dilation;                         // (empty: 1)
    std::vector<std::size_t> paddingLower, paddingUpper;       // (empty: 0)
    std::vector<bool> flip;                                    // (empty: false)
};

struct ConvOutputTransform {
    std::vector<std::size_t> truncationLower, truncationUpper;
    std::vector<std::size_t> stride; // (empty: 1)
    std::vector<std::size_t> paddingLower, paddingUpper;
};

struct ConvSpec {
    Type inputType = Type::Float, outputType = Type::Float;
    std::size_t batchSize = 1;
    std::vector<std::size_t> inputFieldShape, kernelShape;
    std::size_t inputChannelsPerGroup = 1, outputChannelsPerGroup = 1, numGroups = 1;
    ConvTransform input, kernel;
    ConvOutputTransform output;

    // Throws Error naming `what` when a transformation has the wrong rank or
    // the output would be empty.
    void validate(const std::string& what) const;
    std::vector<std::size_t> outputFieldShape() const;
    std::vector<std::size_t> inputShape() const;   // [B][G*Cin][field]
    std::vector<std::size_t> weightsShape() const; // [G][Cout][Cin][kernel]
    std::vector<std::size_t> outputShape() const;  // [B][G*Cout][outField]
};

// Which input element (per field dim) an output position and kernel position
// read, or -1 where they meet padding or a dilation hole: the definition of
// the convolution, shared by the engine and tests' references.
std::vector<long long> convInputIndex(const ConvSpec& spec,
                                      const std::vector<std::size_t>& outPosition,
                                      const std::vector<std::size_t>& kernelPosition);

Tensor createConvInput(Graph& graph, const ConvSpec& spec, const std::string& name);
Tensor createConvWeights(Graph& graph, const ConvSpec& spec, const std::string& name);

Tensor convolution(Graph& graph, program::Sequence& seq, const Tensor& in, const Tensor& weights,
                   const ConvSpec& spec, const std::string& name);

} // namespace tessera::ops
