#include "views/common/Selection.h"

namespace tessera::views {

// Each setter emits only on a real change, so panes that echo a selection
// back cannot loop.
void Selection::setStep(int step) {
    if (step != step_) {
        step_ = step;
        emit stepChanged(step);
    }
}

void Selection::setTile(int tile) {
    if (tile != tile_) {
        tile_ = tile;
        emit tileChanged(tile);
    }
}

void Selection::setVariable(int variable) {
    if (variable != variable_) {
        variable_ = variable;
        emit variableChanged(variable);
    }
}

void Selection::setComputeSet(int computeSet) {
    if (computeSet != computeSet_) {
        computeSet_ = computeSet;
        emit computeSetChanged(computeSet);
    }
}

void Selection::clear() {
    setStep(-1);
    setTile(-1);
    setVariable(-1);
    setComputeSet(-1);
}

} // namespace tessera::views
