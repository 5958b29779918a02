#include "views/models/TileVerticesModel.h"

#include <algorithm>

namespace tessera::views {

TileVerticesModel::TileVerticesModel(QObject* parent)
    : CodeletVerticesModel({{Field::Codelet, "Codelet"},
                            {Field::Vertices, "Vertices"},
                            {Field::StateBytes, "Vertex state"},
                            {Field::ComputeSets, "Compute sets"}},
                           parent) {}

void TileVerticesModel::setReport(std::shared_ptr<const ReportData> data) {
    data_ = std::move(data);
    tiles_.clear();
    rebuild();
}

void TileVerticesModel::setTiles(const std::vector<int>& tiles) {
    tiles_ = tiles;
    rebuild();
}

void TileVerticesModel::rebuild() {
    fill(data_.get(), [this](const record::VertexCountRecord& v) {
        return tiles_.empty() ||
               std::binary_search(tiles_.begin(), tiles_.end(), static_cast<int>(v.tile.value()));
    });
}

} // namespace tessera::views
