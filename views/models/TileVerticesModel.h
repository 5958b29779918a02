#pragma once
// The Memory pane's Vertices tab: per codelet, the vertices on the selected
// tiles (all tiles when none are selected) and their vertex state bytes,
// summed over every compute set. Codelets with no vertex there are left out.
// The summing is CodeletVerticesModel's, shared with the Liveness pane's
// vertices of a step.
#include "views/models/CodeletVerticesModel.h"

#include <memory>
#include <vector>

namespace tessera::views {

class TileVerticesModel : public CodeletVerticesModel {
    Q_OBJECT

public:
    enum Column { Codelet, Vertices, StateBytes, ComputeSets, ColumnCount };

    explicit TileVerticesModel(QObject* parent = nullptr);

    void setReport(std::shared_ptr<const ReportData> data);
    void setTiles(const std::vector<int>& tiles); // ascending; empty: all tiles

private:
    void rebuild();

    std::shared_ptr<const ReportData> data_;
    std::vector<int> tiles_;
};

} // namespace tessera::views
