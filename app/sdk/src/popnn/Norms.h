#pragma once
// What popnn's normalisations share (BatchNorm.cpp, GroupNorm.cpp; LayerNorm
// and InstanceNorm are header wrappers of group norm). They work on a view
// of the activations [batch][channels][field...] in which the statistics
// reduce some dimensions and broadcast back over them:
// * batch norm: one statistic per channel, over the batch and the field;
// * group norm: one per (batch, group) (index batch * numGroups + group),
//   over the group's channels and the field; channel c is in group
//   c % numGroups (PopLibs' strided grouping, its default).
// Statistics are reduced in partialsType and returned in the activations'
// type: mean, and invStdDev = 1 / sqrt(variance + eps) with the variance
// biased (/ N) or unbiased (/ (N - 1)); stableAlgo subtracts the mean before
// squaring. Gradients propagate through the statistics (biased).
#include "Common.h"
#include "engine/program/SourceLocation.h"

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

#include <string>
#include <utility>
#include <vector>

namespace popnn::detail {

struct NormView {
    tessera::Tensor view;                // the activations, viewed
    std::vector<std::size_t> dims;       // reduced by the statistics
    std::vector<std::size_t> statsShape; // the view's shape with `dims` set to 1
    std::vector<std::size_t> actsShape;  // the activations' own shape
    std::size_t count = 0;               // elements per statistic
};

// groups == 0: batch norm's view; else group norm's.
NormView makeView(const tessera::Tensor& acts, std::size_t groups, const std::string& what);
tessera::Type partialsOf(const poplar::Type& t);

std::pair<tessera::Tensor, tessera::Tensor>
statistics(tessera::Graph& g, tessera::program::Sequence& seq, const NormView& v, float eps,
           bool unbiased, bool stable, tessera::Type partials, const std::string& name);
tessera::Tensor whiten(tessera::Graph& g, tessera::program::Sequence& seq, const NormView& v,
                       const tessera::Tensor& mean, const tessera::Tensor& isd,
                       const std::string& name);
// x * mul + add, mul and add spread along the view.
tessera::Tensor affine(tessera::Graph& g, tessera::program::Sequence& seq, const NormView& v,
                       const tessera::Tensor& x, const tessera::Tensor& mul,
                       const tessera::Tensor& add, const std::string& name);
// (sum of gradsIn * whitened, sum of gradsIn) per statistic of v.
std::pair<tessera::Tensor, tessera::Tensor>
paramGradients(tessera::Graph& g, tessera::program::Sequence& seq, const NormView& v,
               const tessera::Tensor& whitened, const tessera::Tensor& gradsIn,
               tessera::Type partials, const std::string& name);
// The gradient at the input through the statistics of v; gamma is spread
// along perChannel.
tessera::Tensor inputGradients(tessera::Graph& g, tessera::program::Sequence& seq,
                               const NormView& v, const NormView& perChannel,
                               const tessera::Tensor& whitened, const tessera::Tensor& gradsIn,
                               const tessera::Tensor& isd, const tessera::Tensor& gamma,
                               tessera::Type partials, const std::string& name);
// gamma += scale * gammaDelta, beta += scale * betaDelta (scaleT if given).
void paramUpdate(tessera::Graph& g, tessera::program::Sequence& seq, const tessera::Tensor& gd,
                 const tessera::Tensor& bd, const tessera::Tensor* scaleT, float scale,
                 const tessera::Tensor& gamma, const tessera::Tensor& beta,
                 const std::string& name);

// Runs `body` into a named Block appended to `prog`.
template <typename F>
auto inBlock(poplar::program::Sequence& prog, const std::string& name, F body,
             const tessera::SourceLocation& where = tessera::SourceLocation::current()) {
    return intoSequence(prog, [&](tessera::program::Sequence& seq) {
        tessera::program::Sequence inner;
        auto result = body(inner);
        seq.add(tessera::program::Block(inner, name, tessera::program::LibraryCall::at(where)));
        return result;
    });
}

inline std::pair<poplar::Tensor, poplar::Tensor>
toPoplar(const std::pair<tessera::Tensor, tessera::Tensor>& p) {
    return {Access::makeTensor(p.first), Access::makeTensor(p.second)};
}
inline const tessera::Tensor& T(const poplar::Tensor& t) {
    return Access::tensor(t);
}
inline tessera::Graph& G(poplar::Graph& graph) {
    return Access::graph(graph).graph;
}

} // namespace popnn::detail
