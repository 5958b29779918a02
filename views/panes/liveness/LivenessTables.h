#pragma once
// The tables under the Liveness plot, as tabs: the variables live at the
// selected step, the always-live variables, and compared steps side by side
// with what became live or dead between them. Each has a filter box and
// sorts by any column.
#include "views/models/LiveVariablesModel.h"
#include "views/models/StepComparisonModel.h"

#include <QTabWidget>

#include <memory>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace tessera::views {

// What changed between two compared steps, as HTML: "+2 variables (1.0 KiB)
// became live, −1 variable (512 B) became dead; net +512 B". A side with no
// variables is left out (never "−0 (0 B) became dead").
QString liveChangeText(std::uint64_t born, std::uint64_t bornBytes, std::uint64_t died,
                       std::uint64_t diedBytes, std::uint64_t firstBytes, std::uint64_t lastBytes);

class LivenessTables : public QTabWidget {
    Q_OBJECT

public:
    enum Tab { LiveTab, AlwaysLiveTab, CompareTab };

    explicit LivenessTables(QWidget* parent = nullptr);

    void setReport(std::shared_ptr<const ReportData> reportData,
                   std::shared_ptr<const VariableLookup> lookup);
    // The variables live at `step` (from ReportSource::liveVariables); `stepBytes`
    // is the plot's not-always-live total at that step (negative: unknown).
    void showStep(std::uint32_t step, const std::vector<std::uint32_t>& live, double stepBytes);
    void clearStep();
    void showComparison(const std::vector<std::uint32_t>& steps,
                        const std::vector<std::vector<std::uint32_t>>& live);
    void selectVariable(int id);

    LiveVariablesModel* liveModel() const { return live_; }
    LiveVariablesModel* alwaysLiveModel() const { return alwaysLive_; }
    StepComparisonModel* comparisonModel() const { return comparison_; }
    // What the tables show: sorted and filtered as the user left them.
    QAbstractItemModel* liveShown() const;
    QAbstractItemModel* alwaysLiveShown() const;
    QAbstractItemModel* comparisonShown() const;
    QTableView* liveView() const { return liveView_; }
    QTableView* comparisonView() const { return comparisonView_; }
    QLabel* stepHeader() const { return stepHeader_; }
    QLabel* comparisonHeader() const { return comparisonHeader_; }

signals:
    void variableActivated(int id);
    void addStepRequested();
    void clearComparisonRequested();

private:
    QWidget* makePage(QLabel*& header, QLineEdit*& filter, QTableView*& view,
                      QAbstractItemModel* model, QSortFilterProxyModel*& proxy,
                      QWidget* extra = nullptr);
    void connectSelection(QTableView* view);

    std::shared_ptr<const ReportData> data_;
    std::shared_ptr<const VariableLookup> lookup_;
    LiveVariablesModel* live_ = nullptr;
    LiveVariablesModel* alwaysLive_ = nullptr;
    StepComparisonModel* comparison_ = nullptr;
    QSortFilterProxyModel* liveProxy_ = nullptr;
    QSortFilterProxyModel* alwaysProxy_ = nullptr;
    QSortFilterProxyModel* comparisonProxy_ = nullptr;
    QTableView* liveView_ = nullptr;
    QTableView* alwaysView_ = nullptr;
    QTableView* comparisonView_ = nullptr;
    QLabel* stepHeader_ = nullptr;
    QLabel* alwaysHeader_ = nullptr;
    QLabel* comparisonHeader_ = nullptr;
    QLineEdit* liveFilter_ = nullptr;
    QLineEdit* alwaysFilter_ = nullptr;
    QLineEdit* comparisonFilter_ = nullptr;
};

} // namespace tessera::views
