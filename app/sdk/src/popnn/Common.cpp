#include "Common.h"

#include "engine/core/Type.h"

namespace popnn::detail {

std::string nameOr(const poplar::DebugContext& dc, const std::string& fallback) {
    return dc.getPathName().empty() ? fallback : dc.getPathName() + "/" + fallback;
}

void fail(const std::string& message) {
    throw poputil::poplibs_error(message);
}

std::string typeString(tessera::Type t) {
    return std::string(tessera::typeName(t));
}

tessera::TileId firstTile(const tessera::Graph& g, const tessera::Tensor& t) {
    const auto mapping = g.getTileMapping(t);
    for (std::size_t tile = 0; tile < mapping.size(); ++tile) {
        if (!mapping[tile].empty()) {
            return tessera::record::idAt<tessera::TileId>(tile);
        }
    }
    return tessera::TileId{0u};
}

tessera::Tensor reduce(tessera::Graph& g, tessera::program::Sequence& seq,
                       const tessera::Tensor& in, tessera::Type outType,
                       const std::vector<std::size_t>& dims, tessera::ops::ReduceOp op,
                       const std::string& name) {
    std::vector<tessera::ComputeSet> css;
    const tessera::Tensor out =
        tessera::ops::reduce(g, in, outType, dims, tessera::ops::ReduceSpec(op), css, name);
    tessera::ops::addStages(seq, css, name);
    return out;
}

void reduceInto(tessera::Graph& g, tessera::program::Sequence& seq, const tessera::Tensor& in,
                const tessera::Tensor& out, const std::vector<std::size_t>& dims,
                tessera::ops::ReduceOp op, bool update, const std::string& name) {
    std::vector<tessera::ComputeSet> css;
    tessera::ops::reduceWithOutput(g, in, out, dims, tessera::ops::ReduceSpec(op, update), css,
                                   name);
    tessera::ops::addStages(seq, css, name);
}

tessera::Tensor asRows(const tessera::Tensor& t) {
    const std::size_t cols = t.dim(t.rank() - 1);
    return t.reshape({cols == 0 ? 0 : t.numElements() / cols, cols});
}

tessera::Tensor alongRows(const tessera::Tensor& column, std::size_t cols) {
    return column.expand({1}).broadcast(cols, 1);
}

} // namespace popnn::detail
