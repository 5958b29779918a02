#pragma once
// Compare mode's Summary: both reports described, what could not be compared
// (the diff's notes), the headline changes as big numbers, every total side
// by side with its delta and percentage (regressions and improvements
// coloured), and how many steps, compute sets and variables changed.
#include "views/compare/ComparePane.h"

class QGridLayout;
class QLabel;
class QTableView;

namespace tessera::views {

class Card;
class CompareTableModel;
class StatTile;

class CompareSummaryPane : public ComparePane {
    Q_OBJECT

public:
    explicit CompareSummaryPane(QWidget* parent = nullptr);

    QString paneName() const override { return QStringLiteral("summary"); }
    QString title() const override { return tr("Summary"); }
    void setComparison(std::shared_ptr<const CompareData> comparison) override;
    QList<ExportTarget> exportTargets() const override;

    CompareTableModel* totalsModel() const { return totals_; }
    QTableView* totalsView() const { return totalsView_; }
    StatTile* stat(const QString& key) const; // "cycles", "peak-tile-memory", "memory", "time-ns"

protected:
    void changeEvent(QEvent* event) override;

private:
    void fillStats();
    void fillNotes();
    void fillChanges();

    QWidget* content_ = nullptr;
    QLabel* heading_ = nullptr;
    QLabel* baselineLine_ = nullptr;
    QLabel* comparisonLine_ = nullptr;
    Card* notesCard_ = nullptr;
    QLabel* notes_ = nullptr;
    std::vector<std::pair<QString, StatTile*>> stats_;
    Card* totalsCard_ = nullptr;
    CompareTableModel* totals_ = nullptr;
    QTableView* totalsView_ = nullptr;
    Card* changesCard_ = nullptr;
    QGridLayout* changesGrid_ = nullptr;
};

} // namespace tessera::views
