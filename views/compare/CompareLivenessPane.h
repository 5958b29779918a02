#pragma once
// Compare mode's Liveness: the not-always-live bytes (summed over tiles) of
// both reports over program steps, the steps aligned by program identity (a
// step only one side has leaves a gap in the other's curve), either overlaid
// or as the difference; the aligned steps in a table below.
#include "engine/record/Ids.h"
#include "views/compare/ComparePane.h"

#include <qcustomplot.h>

class QCheckBox;
class QComboBox;
class QLabel;
class QTableView;

namespace tessera::views {

class CompareFilterModel;
class CompareTableModel;

class CompareLivenessPane : public ComparePane {
    Q_OBJECT

public:
    enum class Mode { Overlaid, Difference };

    explicit CompareLivenessPane(QWidget* parent = nullptr);

    QString paneName() const override { return QStringLiteral("liveness"); }
    QString title() const override { return tr("Liveness"); }
    void setComparison(std::shared_ptr<const CompareData> comparison) override;
    // Follows the selected (baseline) step: its aligned row is marked.
    void setSelection(Selection* selection) override;
    QList<ExportTarget> exportTargets() const override;
    void zoomIn() override;
    void zoomOut() override;
    void resetZoom() override;

    void setMode(Mode mode);
    Mode mode() const { return mode_; }

    QCustomPlot* plot() const { return plot_; }
    QCPGraph* baselineGraph() const { return baseline_; }
    QCPGraph* comparisonGraph() const { return comparison_; }
    QCPGraph* differenceGraph() const { return difference_; }
    CompareTableModel* stepsModel() const { return steps_; }
    QTableView* stepsView() const { return view_; }
    int markedX() const { return markedX_; } // -1: none

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();
    void applyStyle();
    void selectX(int x);
    void markX(int x);
    void showStep(record::StepId baselineStep);

    Mode mode_ = Mode::Overlaid;
    int markedX_ = -1;
    QComboBox* modeBox_ = nullptr;
    QLabel* caption_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    QCPGraph* baseline_ = nullptr;
    QCPGraph* comparison_ = nullptr;
    QCPGraph* difference_ = nullptr;
    QCPItemStraightLine* marker_ = nullptr;
    CompareTableModel* steps_ = nullptr;
    CompareFilterModel* filter_ = nullptr;
    QTableView* view_ = nullptr;
    QCheckBox* changedOnly_ = nullptr;
};

} // namespace tessera::views
