#pragma once
// Details of the selected program step: its compute set and vertices, its
// cycles split into phases, its tile balance, and a chart of its cycles on
// every tile (compute / exchange / sync stacked), fetched off the GUI thread.
#include "reports/ReportTypes.h"
#include "views/common/BackgroundTask.h"

#include <QSharedPointer>
#include <QString>
#include <QWidget>

#include <memory>

class QCustomPlot;
class QCPBars;
class QCPItemRect;
class QCPAxisTickerFixed;
class QLabel;

namespace tessera::reports {
struct ReportData;
}

namespace tessera::views {
using reports::ReportData;
class ReportSource;
} // namespace tessera::views

namespace tessera::views::execution {

class StepDetailsPanel : public QWidget {
    Q_OBJECT

public:
    explicit StepDetailsPanel(QWidget* parent = nullptr);

    void setReport(std::shared_ptr<const ReportData> report, std::shared_ptr<ReportSource> source);
    void showStep(record::StepId programStep); // none(): nothing selected
    record::StepId step() const { return step_; }
    // Marks a tile in the chart (-1: none); clicking a tile's bars selects it.
    void setSelectedTile(int tile);
    bool isLoading() const { return task_.isRunning(); }

    QCustomPlot* tileChart() const { return chart_; }
    QLabel* infoLabel() const { return info_; }
    // The chart's bars: compute, exchange, sync.
    QCPBars* bars(int phase) const;

signals:
    void tilesShown(tessera::record::StepId programStep);
    void tileClicked(int tile); // a click (not a drag) on the chart, over a tile's bars
    // The step's tile arrays cannot be read (a damaged report): one line.
    void problemFound(const QString& message);

private:
    void tilesArrived();
    void fillInfo(const reports::ProgramStepEntry* step, const reports::StepTiles* tiles);
    void applyPalette();
    void changeEvent(QEvent* event) override;

    std::shared_ptr<const ReportData> data_;
    std::shared_ptr<ReportSource> source_;
    record::StepId step_ = record::StepId::none();
    QLabel* info_ = nullptr;
    QCustomPlot* chart_ = nullptr;
    QCPBars* bars_[3] = {nullptr, nullptr, nullptr};
    QCPItemRect* tileMark_ = nullptr;
    int selectedTile_ = -1;
    int tileCount_ = 0;
    QPoint pressPos_;
    QSharedPointer<QCPAxisTickerFixed> ticker_;
    // A step's tile arrays as read off the GUI thread, or why they could not be.
    struct TilesResult {
        record::StepId step;
        std::shared_ptr<const reports::StepTiles> tiles;
        QString error;
    };
    BackgroundTask<TilesResult> task_;
};

} // namespace tessera::views::execution
