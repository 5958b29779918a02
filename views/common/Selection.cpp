#include "views/common/Selection.h"

namespace tessera::views {

// Each setter emits only on a real change, so panes that echo a selection
// back cannot loop.
void Selection::setStep(record::StepId step) {
    if (step != step_) {
        step_ = step;
        emit stepChanged(step);
    }
}

void Selection::setTile(record::TileId tile) {
    if (tile != tile_) {
        tile_ = tile;
        emit tileChanged(tile);
    }
}

void Selection::setVariable(record::VariableId variable) {
    if (variable != variable_) {
        variable_ = variable;
        emit variableChanged(variable);
    }
}

void Selection::setComputeSet(record::ComputeSetId computeSet) {
    if (computeSet != computeSet_) {
        computeSet_ = computeSet;
        emit computeSetChanged(computeSet);
    }
}

void Selection::clear() {
    setStep(record::StepId::none());
    setTile(record::TileId::none());
    setVariable(record::VariableId::none());
    setComputeSet(record::ComputeSetId::none());
}

} // namespace tessera::views
