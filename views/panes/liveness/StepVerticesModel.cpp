#include "views/panes/liveness/StepVerticesModel.h"

namespace tessera::views {

StepVerticesModel::StepVerticesModel(QObject* parent)
    : CodeletVerticesModel(
          {{Field::Codelet, "Codelet"},
           {Field::Vertices, "Vertices"},
           {Field::Tiles, "Tiles", "Tiles running vertices of this codelet in this step"},
           {Field::StateBytes, "State", "Vertex state bytes over all tiles"},
           {Field::CodeBytes, "Code size"},
           {Field::CycleEstimate, "Cycle estimate",
            "Cycles per vertex as the codelet's estimator states them"}},
          parent) {}

void StepVerticesModel::clear() {
    computeSet_ = record::ComputeSetId::none();
    fill(nullptr, {});
}

void StepVerticesModel::setStep(const std::shared_ptr<const ReportData>& data,
                                record::StepId step) {
    const auto* entry = data ? data->step(step) : nullptr;
    computeSet_ = entry ? entry->computeSet : record::ComputeSetId::none();
    if (computeSet_.isNone()) {
        fill(nullptr, {}); // no step, or one that runs no compute set
        return;
    }
    fill(data.get(),
         [cs = computeSet_](const record::VertexCountRecord& v) { return v.computeSet == cs; });
}

} // namespace tessera::views
