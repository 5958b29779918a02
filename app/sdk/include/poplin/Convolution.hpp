// poplin convolutions with PopLibs' ConvParams (any number of field
// dimensions, batches, groups, input/kernel truncation, dilation, padding and
// flipping, output truncation, stride and padding), in PopLibs' layouts:
//   input   [B][G * Cin][field...]        (createInput)
//   weights [G][Cout][Cin][kernel...]     (createWeights)
//   output  [B][G * Cout][outField...]
// Each group runs as an im2col view of the input (no copy) times the group's
// weights, planned across tiles as poplin::matMul is. Planning options and
// caches are accepted; Tessera's planner chooses the tile grid itself.
// The weight-update pass is a convolution of its own (activations by output
// gradients); fullyConnectedWeightTranspose is not supported by Tessera and
// throws poplar::poplar_error saying so.
#ifndef TESSERA_POPLIN_CONVOLUTION_HPP
#define TESSERA_POPLIN_CONVOLUTION_HPP

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplin/ConvParams.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#ifndef TESSERA_POPLIN_PLANNING_CACHE
#define TESSERA_POPLIN_PLANNING_CACHE
namespace poplin {
// Plans are cheap in Tessera; the cache is accepted and counts its uses.
class PlanningCache {
public:
    PlanningCache()
        : uses_(0) {}
    std::size_t size() const { return uses_; }
    void recordUse() { ++uses_; }

private:
    std::size_t uses_;
};
} // namespace poplin
#endif

namespace poplin {

// Multiply-accumulates of the forward pass (2 flops each).
std::uint64_t getFwdFlops(const ConvParams& params);

// A new weights tensor [G][Cout][Cin][kernel...] mapped over the tiles.
poplar::Tensor createWeights(poplar::Graph& graph, const ConvParams& params,
                             const poplar::DebugContext& debugContext = {},
                             const poplar::OptionFlags& options = {},
                             PlanningCache* cache = nullptr);

// A new input tensor [B][G * Cin][field...] mapped over the tiles.
poplar::Tensor createInput(poplar::Graph& graph, const ConvParams& params,
                           const poplar::DebugContext& debugContext = {},
                           const poplar::OptionFlags& options = {}, PlanningCache* cache = nullptr);

// The convolution of `in` by `weights`. With transposeAndFlipWeights the
// weights are given as [G][Cin][Cout][kernel...] (the forward pass's, for the
// gradient of its input): their channel dimensions are swapped and every
// kernel dimension is reversed first.
poplar::Tensor convolution(poplar::Graph& graph, const poplar::Tensor& in,
                           const poplar::Tensor& weights, const ConvParams& params,
                           bool transposeAndFlipWeights, poplar::program::Sequence& prog,
                           const poplar::DebugContext& debugContext = {},
                           const poplar::OptionFlags& options = {}, PlanningCache* cache = nullptr);

// weightsOut [G][Cin][Cout][kernel...] := weightsIn [G][Cout][Cin][kernel...]
// with the channel dimensions swapped and every kernel dimension reversed.
void weightsTransposeChansFlipXY(poplar::Graph& graph, const poplar::Tensor& weightsIn,
                                 const poplar::Tensor& weightsOut, poplar::program::Sequence& prog,
                                 const poplar::DebugContext& debugContext = {});

// The gradient of the loss by the weights [G][Cout][Cin][kernel...] from
// the gradient by the output zDeltas [B][G * Cout][outField...] and the
// forward pass's activations, for the forward pass's params.
poplar::Tensor calculateWeightDeltas(poplar::Graph& graph, const poplar::Tensor& zDeltas,
                                     const poplar::Tensor& activations, const ConvParams& params,
                                     poplar::program::Sequence& prog,
                                     const poplar::DebugContext& debugContext = {},
                                     const poplar::OptionFlags& options = {},
                                     PlanningCache* cache = nullptr);
// weights += scale * calculateWeightDeltas(...).
void convolutionWeightUpdate(poplar::Graph& graph, const poplar::Tensor& zDeltas,
                             const poplar::Tensor& weights, const poplar::Tensor& activations,
                             ConvParams params, const poplar::Tensor& scale,
                             poplar::program::Sequence& prog,
                             const poplar::DebugContext& debugContext = {},
                             const poplar::OptionFlags& options = {},
                             PlanningCache* cache = nullptr);
void convolutionWeightUpdate(poplar::Graph& graph, const poplar::Tensor& zDeltas,
                             const poplar::Tensor& weights, const poplar::Tensor& activations,
                             ConvParams params, float scale, poplar::program::Sequence& prog,
                             const poplar::DebugContext& debugContext = {},
                             const poplar::OptionFlags& options = {},
                             PlanningCache* cache = nullptr);
// Not supported by Tessera (throws poplar::poplar_error).
poplar::Tensor fullyConnectedWeightTranspose(poplar::Graph& graph, poplar::Tensor activations,
                                             const ConvParams& params,
                                             poplar::program::Sequence& prog,
                                             const poplar::DebugContext& debugContext = {},
                                             const poplar::OptionFlags& options = {},
                                             PlanningCache* cache = nullptr);

// biases [C] += scale * (zDeltas [B][C][field...] summed over batch and field).
void convolutionBiasUpdate(poplar::Graph& graph, const poplar::Tensor& zDeltas,
                           const poplar::Tensor& biases, const poplar::Tensor& scale,
                           const poplar::OptionFlags& options, poplar::program::Sequence& prog,
                           const poplar::DebugContext& debugContext = {});
void convolutionBiasUpdate(poplar::Graph& graph, const poplar::Tensor& zDeltas,
                           const poplar::Tensor& biases, float scale,
                           const poplar::OptionFlags& options, poplar::program::Sequence& prog,
                           const poplar::DebugContext& debugContext = {});

// A new bias tensor [G * Cout] for the output `acts` of a convolution.
poplar::Tensor createBiases(poplar::Graph& graph, const poplar::Tensor& acts,
                            const poplar::DebugContext& debugContext = {"biases"});

// acts [B][C][field...] += biases [C] (broadcast over batch and field).
void addBias(poplar::Graph& graph, const poplar::Tensor& acts, const poplar::Tensor& biases,
             poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {});

} // namespace poplin

#endif
