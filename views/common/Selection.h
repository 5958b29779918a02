#pragma once
// What the user has selected, shared by every pane: selecting a step, tile,
// variable or compute set in one pane selects it in all. none() means none.
#include "views/common/IdNumbers.h"

#include <QObject>

namespace tessera::views {

class Selection : public QObject {
    Q_OBJECT

public:
    using QObject::QObject;

    tessera::record::StepId step() const { return step_; } // a program step id
    tessera::record::TileId tile() const { return tile_; }
    tessera::record::VariableId variable() const { return variable_; }
    tessera::record::ComputeSetId computeSet() const { return computeSet_; }

public slots:
    void setStep(tessera::record::StepId step);
    void setTile(tessera::record::TileId tile);
    void setVariable(tessera::record::VariableId variable);
    void setComputeSet(tessera::record::ComputeSetId computeSet);
    void clear();

signals:
    void stepChanged(tessera::record::StepId step);
    void tileChanged(tessera::record::TileId tile);
    void variableChanged(tessera::record::VariableId variable);
    void computeSetChanged(tessera::record::ComputeSetId computeSet);

private:
    record::StepId step_ = record::StepId::none();
    record::TileId tile_ = record::TileId::none();
    record::VariableId variable_ = record::VariableId::none();
    record::ComputeSetId computeSet_ = record::ComputeSetId::none();
};

} // namespace tessera::views
