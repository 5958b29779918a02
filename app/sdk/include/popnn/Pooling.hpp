// popnn::pooling: MAX, AVG and SUM pooling over the field dimensions of an
// input laid out [batch][channels][field...] (any number of field
// dimensions), with per-dimension kernel, stride and lower / upper padding
// (negative: truncation), and the input gradients. Padding never takes part:
// MAX ignores it, AVG divides by the number of non-padding elements in the
// window, SUM adds the non-padding elements.
#ifndef TESSERA_POPNN_POOLING_HPP
#define TESSERA_POPNN_POOLING_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <popnn/PoolingDef.hpp>

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <utility>
#include <vector>

namespace popnn {
namespace pooling {

struct PoolParams {
    PoolingType poolingType;
    std::vector<std::size_t> inputFieldShape;
    std::vector<std::size_t> kernelShape;
    std::vector<unsigned> stride;
    std::vector<int> inputTruncationOrPaddingLower;
    std::vector<int> inputTruncationOrPaddingUpper;
    std::size_t numChannels;
    std::size_t batchSize;
    poplar::Type dType;

    PoolParams(PoolingType poolingType_, std::vector<std::size_t> inputFieldShape_,
               std::vector<std::size_t> kernelShape_, std::vector<unsigned> stride_,
               std::vector<int> inputTruncationOrPaddingLower_,
               std::vector<int> inputTruncationOrPaddingUpper_, std::size_t numChannels_,
               std::size_t batchSize_, poplar::Type dType_)
        : poolingType(poolingType_)
        , inputFieldShape(std::move(inputFieldShape_))
        , kernelShape(std::move(kernelShape_))
        , stride(std::move(stride_))
        , inputTruncationOrPaddingLower(std::move(inputTruncationOrPaddingLower_))
        , inputTruncationOrPaddingUpper(std::move(inputTruncationOrPaddingUpper_))
        , numChannels(numChannels_)
        , batchSize(batchSize_)
        , dType(dType_) {}

    std::size_t getNumFieldDims() const { return inputFieldShape.size(); }
    // Per field dimension: (input + lower + upper - kernel) / stride + 1.
    std::vector<std::size_t> getOutputFieldShape() const;
};

std::ostream& operator<<(std::ostream& o, const PoolParams& params);
const char* asString(const PoolingType& method); // "MAX", "AVG", "SUM"
std::vector<std::size_t> getOutputFieldShape(const PoolParams& params);
// Additions and comparisons: one per window element per output.
std::uint64_t getFwdFlops(const PoolParams& params);
std::uint64_t getBwdFlops(const PoolParams& params);

// A new tensor [batch][channels][output field...].
poplar::Tensor pool(poplar::Graph& graph, const PoolParams& params, const poplar::Tensor& in,
                    poplar::program::Sequence& prog,
                    const poplar::DebugContext& debugContext = poplar::DebugContext(),
                    const poplar::OptionFlags& options = poplar::OptionFlags());

// MAX, AVG or SUM: the gradient at the input. For MAX every input equal to
// its window's result gets the window's gradient (divided by the number of
// such inputs when useScaledGradient).
poplar::Tensor poolInputGradient(poplar::Graph& graph, const PoolParams& params,
                                 const poplar::Tensor& in, const poplar::Tensor& pooled,
                                 const poplar::Tensor& pooledGradient, bool useScaledGradient,
                                 poplar::program::Sequence& prog,
                                 const poplar::DebugContext& debugContext = poplar::DebugContext(),
                                 const poplar::OptionFlags& options = poplar::OptionFlags());
// AVG or SUM (no activations needed). fwdChansPerGroup is a layout hint.
poplar::Tensor poolInputGradient(poplar::Graph& graph, const PoolParams& params,
                                 const unsigned fwdChansPerGroup,
                                 const poplar::Tensor& pooledGradient,
                                 poplar::program::Sequence& prog,
                                 const poplar::DebugContext& debugContext = poplar::DebugContext(),
                                 const poplar::OptionFlags& options = poplar::OptionFlags());

} // namespace pooling
} // namespace popnn

#endif
