#pragma once
// The Summary pane: what a report is about at a glance. The target, the
// cycle totals and their compute / exchange / sync split, whether the
// program fits in memory (and by how much it does not), the fullest tiles,
// a histogram of memory across tiles, the largest vertex state and code by
// codelet, the always-live variables, verification and the report itself.
#include "views/common/Pane.h"

#include <memory>

class QGridLayout;
class QLabel;
class QScrollArea;
class QTableWidget;

namespace tessera::views {

class Card;
class MemoryHistogramPlot;
class ProportionBar;
class StatTile;
struct SummaryInsights;

class SummaryPane : public Pane {
    Q_OBJECT

public:
    explicit SummaryPane(QWidget* parent = nullptr);
    ~SummaryPane() override;

    QString paneName() const override { return "summary"; }
    QString title() const override { return "Summary"; }
    void setReport(std::shared_ptr<const ReportData> data,
                   std::shared_ptr<ReportSource> source) override;
    void setSelection(Selection* selection) override;
    QList<ExportTarget> exportTargets() const override;

    // Parts, for tests.
    MemoryHistogramPlot* histogram() const { return histogram_; }
    QTableWidget* fullestTiles() const { return fullest_; }
    ProportionBar* cycleSplit() const { return cycleSplit_; }

private:
    void buildHeader(QWidget* content, QGridLayout* grid);
    void fillTarget();
    void fillExecution();
    void fillMemory(const SummaryInsights& insights);
    void fillFullest(const SummaryInsights& insights);
    void fillCodelets(const SummaryInsights& insights);
    void fillAlwaysLive(const SummaryInsights& insights);
    void fillReport();
    void showEmpty();

    std::shared_ptr<const ReportData> data_;
    Selection* selection_ = nullptr;
    QScrollArea* scroll_ = nullptr;
    QWidget* content_ = nullptr;
    QLabel* heading_ = nullptr;
    QLabel* subheading_ = nullptr;
    Card* status_ = nullptr;
    QLabel* statusText_ = nullptr;
    QLabel* statusDetail_ = nullptr;
    StatTile* cyclesStat_ = nullptr;
    StatTile* memoryStat_ = nullptr;
    StatTile* fullestStat_ = nullptr;
    StatTile* verifyStat_ = nullptr;
    Card* targetCard_ = nullptr;
    Card* executionCard_ = nullptr;
    Card* memoryCard_ = nullptr;
    Card* histogramCard_ = nullptr;
    Card* fullestCard_ = nullptr;
    Card* codeletCard_ = nullptr;
    Card* alwaysLiveCard_ = nullptr;
    Card* reportCard_ = nullptr;
    QGridLayout* targetGrid_ = nullptr;
    QGridLayout* executionGrid_ = nullptr;
    QGridLayout* memoryGrid_ = nullptr;
    QGridLayout* reportGrid_ = nullptr;
    ProportionBar* cycleSplit_ = nullptr;
    MemoryHistogramPlot* histogram_ = nullptr;
    QLabel* histogramNote_ = nullptr;
    QTableWidget* fullest_ = nullptr;
    QTableWidget* codelets_ = nullptr;
    QTableWidget* alwaysLive_ = nullptr;
    QLabel* alwaysLiveNote_ = nullptr;
};

} // namespace tessera::views
