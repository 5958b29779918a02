#pragma once
// What the user has selected, shared by every pane: selecting a step, tile,
// variable or compute set in one pane selects it in all. -1 means none.
#include <QObject>

namespace tessera::views {

class Selection : public QObject {
    Q_OBJECT

public:
    using QObject::QObject;

    int step() const { return step_; } // a program step id
    int tile() const { return tile_; }
    int variable() const { return variable_; }
    int computeSet() const { return computeSet_; }

public slots:
    void setStep(int step);
    void setTile(int tile);
    void setVariable(int variable);
    void setComputeSet(int computeSet);
    void clear();

signals:
    void stepChanged(int step);
    void tileChanged(int tile);
    void variableChanged(int variable);
    void computeSetChanged(int computeSet);

private:
    int step_ = -1;
    int tile_ = -1;
    int variable_ = -1;
    int computeSet_ = -1;
};

} // namespace tessera::views
