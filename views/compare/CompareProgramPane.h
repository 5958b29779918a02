#pragma once
// Compare mode's Program: program steps matched by identity (their place in
// the program tree) and compute sets matched by name, each listed with
// whether it was added, removed, changed or is the same, cycles side by side
// and the largest regressions first. "Changed only" hides the same ones.
#include "views/compare/ComparePane.h"

class QCheckBox;
class QLabel;
class QTableView;

namespace tessera::views {

class CompareFilterModel;
class CompareTableModel;

class CompareProgramPane : public ComparePane {
    Q_OBJECT

public:
    explicit CompareProgramPane(QWidget* parent = nullptr);

    QString paneName() const override { return QStringLiteral("program"); }
    QString title() const override { return tr("Program"); }
    void setComparison(std::shared_ptr<const CompareData> comparison) override;
    QList<ExportTarget> exportTargets() const override;

    void setChangedOnly(bool changedOnly);

    CompareTableModel* stepsModel() const { return steps_; }
    CompareTableModel* computeSetsModel() const { return computeSets_; }
    CompareFilterModel* stepsFilter() const { return stepsFilter_; }
    CompareFilterModel* computeSetsFilter() const { return computeSetsFilter_; }
    QTableView* stepsView() const { return stepsView_; }
    QTableView* computeSetsView() const { return computeSetsView_; }

private:
    CompareTableModel* steps_ = nullptr;
    CompareTableModel* computeSets_ = nullptr;
    CompareFilterModel* stepsFilter_ = nullptr;
    CompareFilterModel* computeSetsFilter_ = nullptr;
    QTableView* stepsView_ = nullptr;
    QTableView* computeSetsView_ = nullptr;
    QCheckBox* changedOnly_ = nullptr;
    QLabel* stepsCaption_ = nullptr;
    QLabel* computeSetsCaption_ = nullptr;
};

} // namespace tessera::views
