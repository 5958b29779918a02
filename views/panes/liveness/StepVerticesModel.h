#pragma once
// The vertices a program step runs, one row per codelet: how many vertices of
// it the step's compute set holds, on how many tiles, their state bytes, the
// codelet's code size and its cycle estimate as the report states it (a
// formula of the vertex's work size: the report keeps no per-vertex size, so
// no per-step number). A step with no compute set (exchange, sync, copy...)
// has no rows. The summing is CodeletVerticesModel's, shared with the Memory
// pane's Vertices tab.
#include "views/models/CodeletVerticesModel.h"

#include <memory>

namespace tessera::views {

class StepVerticesModel : public CodeletVerticesModel {
    Q_OBJECT

public:
    enum Column { Codelet, Vertices, Tiles, StateBytes, CodeBytes, CycleEstimate, ColumnCount };

    explicit StepVerticesModel(QObject* parent = nullptr);

    // Rows of `step`'s compute set, the most vertices first. Null data or an
    // unknown step clears the model.
    void setStep(const std::shared_ptr<const ReportData>& data, record::StepId step);
    void clear();

    record::ComputeSetId computeSet() const { return computeSet_; } // none() when none

private:
    record::ComputeSetId computeSet_ = record::ComputeSetId::none();
};

} // namespace tessera::views
