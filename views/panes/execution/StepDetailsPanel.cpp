#include "views/panes/execution/StepDetailsPanel.h"

#include "reports/Figures.h"
#include "views/common/Colors.h"
#include "views/common/Format.h"
#include "views/common/PlotStyle.h"
#include "views/data/ReportData.h"
#include "views/data/ReportProblem.h"
#include "views/data/ReportSource.h"
#include "views/models/ProgramKinds.h"
#include "views/panes/execution/StepText.h"

#include <qcustomplot.h>

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>

#include <algorithm>
#include <cmath>
#include <map>

namespace tessera::views::execution {

StepDetailsPanel::StepDetailsPanel(QWidget* parent)
    : QWidget(parent) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    info_ = new QLabel(this);
    info_->setTextFormat(Qt::RichText);
    info_->setWordWrap(true);
    info_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    info_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    info_->setContentsMargins(0, 0, 8, 0);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(info_);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setFixedWidth(400);
    chart_ = new QCustomPlot(this);
    chart_->setMinimumHeight(160);
    const char* names[] = {"compute", "exchange", "sync"};
    const Phase phases[] = {Phase::Compute, Phase::Exchange, Phase::Sync};
    for (int i = 0; i < 3; ++i) {
        bars_[i] = new QCPBars(chart_->xAxis, chart_->yAxis);
        bars_[i]->setName(names[i]);
        bars_[i]->setBrush(phaseColor(phases[i]));
        bars_[i]->setPen(Qt::NoPen);
        bars_[i]->setWidthType(QCPBars::wtPlotCoords);
        bars_[i]->setWidth(1.0);
        if (i > 0) {
            bars_[i]->moveAbove(bars_[i - 1]);
        }
    }
    chart_->setLocale(QLocale(QLocale::English, QLocale::UnitedStates)); // 12,345
    chart_->yAxis->setNumberFormat("f");
    chart_->yAxis->setNumberPrecision(0);
    ticker_ = QSharedPointer<QCPAxisTickerFixed>::create();
    ticker_->setScaleStrategy(QCPAxisTickerFixed::ssMultiples); // whole tiles
    chart_->xAxis->setTicker(ticker_);
    chart_->xAxis->setLabel(tr("tile"));
    chart_->yAxis->setLabel(tr("cycles"));
    chart_->legend->setVisible(true);
    QFont legendFont = font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.85);
    chart_->legend->setFont(legendFont);
    chart_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    chart_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    chart_->axisRect()->setRangeDrag(Qt::Horizontal);
    chart_->axisRect()->setRangeZoom(Qt::Horizontal);
    chart_->setCursor(Qt::PointingHandCursor);
    chart_->setToolTip(
        tr("Click a tile to select it in every pane; drag or wheel to pan and zoom"));
    // The selected tile: a tinted band over its bars, the full height.
    tileMark_ = new QCPItemRect(chart_);
    tileMark_->setClipToAxisRect(true);
    tileMark_->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
    tileMark_->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
    tileMark_->setVisible(false);
    connect(chart_, &QCustomPlot::mousePress, this,
            [this](QMouseEvent* e) { pressPos_ = e->position().toPoint(); });
    connect(chart_, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* e) {
        const QPoint pos = e->position().toPoint();
        if ((pos - pressPos_).manhattanLength() > 3 || !chart_->axisRect()->rect().contains(pos)) {
            return; // a drag pans the chart
        }
        const int tile = static_cast<int>(std::lround(chart_->xAxis->pixelToCoord(pos.x())));
        if (tile >= 0 && tile < tileCount_) {
            emit tileClicked(tile);
        }
    });
    layout->addWidget(scroll);
    layout->addWidget(chart_, 1);
    layout->addStretch(0); // keeps the text on the left while the chart is hidden
    applyPalette();
    connect(&task_.watcher(), &QFutureWatcher<void>::finished, this,
            &StepDetailsPanel::tilesArrived);
    showStep(record::StepId::none());
}

void StepDetailsPanel::setSelectedTile(int tile) {
    selectedTile_ = tile;
    const bool shown = tile >= 0 && tile < tileCount_;
    tileMark_->setVisible(shown);
    if (shown) {
        QColor fill = selectionColor();
        fill.setAlpha(70);
        tileMark_->setBrush(fill);
        tileMark_->setPen(QPen(selectionColor(), 2));
        tileMark_->topLeft->setCoords(tile - 0.5, 0);
        tileMark_->bottomRight->setCoords(tile + 0.5, 1);
    }
    chart_->replot();
}

QCPBars* StepDetailsPanel::bars(int phase) const {
    return phase >= 0 && phase < 3 ? bars_[phase] : nullptr;
}

void StepDetailsPanel::setReport(std::shared_ptr<const ReportData> report,
                                 std::shared_ptr<ReportSource> source) {
    data_ = std::move(report);
    source_ = std::move(source);
    showStep(record::StepId::none());
}

void StepDetailsPanel::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange) {
        applyPalette();
    }
    QWidget::changeEvent(event);
}

void StepDetailsPanel::applyPalette() {
    applyPlotPalette(chart_, palette());
    bars_[2]->setBrush(phaseColor(Phase::Sync, palette()));
    chart_->replot(QCustomPlot::rpQueuedReplot);
}

void StepDetailsPanel::showStep(record::StepId programStep) {
    step_ = programStep;
    for (QCPBars* b : bars_) {
        b->data()->clear();
    }
    const reports::ProgramStepEntry* s =
        data_ && !programStep.isNone() ? data_->step(programStep) : nullptr;
    if (!s) {
        info_->setText(
            tr("<b>No step selected</b><br>Click a step in the timeline or the program row "
               "below it to see its compute set, vertices and cycles on every tile."));
        chart_->setVisible(false);
        return;
    }
    chart_->setVisible(true);
    fillInfo(s, nullptr);
    chart_->replot(QCustomPlot::rpQueuedReplot);
    if (source_) {
        task_.start([source = source_, id = s->id]() {
            TilesResult r;
            r.step = id;
            try {
                r.tiles = source->stepTiles(id);
            } catch (const std::exception& e) {
                r.error = problemText(e);
            }
            return r;
        });
    }
}

void StepDetailsPanel::tilesArrived() {
    const TilesResult result = task_.take();
    if (!data_ || result.step != step_) {
        return; // a newer selection is on its way
    }
    if (!result.tiles) {
        chart_->setVisible(false);
        emit problemFound(result.error);
        return; // the step's figures stay; its tiles cannot be drawn
    }
    const auto& tiles = result.tiles;
    const auto n = static_cast<int>(tiles->computeCycles.size());
    QVector<double> keys(n), compute(n), exchange(n), sync(n);
    for (int t = 0; t < n; ++t) {
        keys[t] = t;
        compute[t] = tiles->computeCycles[t];
        exchange[t] =
            t < static_cast<int>(tiles->exchangeCycles.size()) ? tiles->exchangeCycles[t] : 0;
        sync[t] = t < static_cast<int>(tiles->syncCycles.size()) ? tiles->syncCycles[t] : 0;
    }
    bars_[0]->setData(keys, compute, true);
    bars_[1]->setData(keys, exchange, true);
    bars_[2]->setData(keys, sync, true);
    for (QCPBars* b : bars_) {
        b->setPen(n <= 64 ? QPen(palette().color(QPalette::Base), 1) : QPen(Qt::NoPen));
    }
    ticker_->setTickStep(1);
    chart_->xAxis->setRange(-0.5, n - 0.5);
    tileCount_ = n;
    setSelectedTile(selectedTile_); // within this step's tiles
    for (QCPBars* b : bars_) {
        b->setAntialiased(n <= 200); // many thin bars: crisp, no moire
    }
    chart_->yAxis->setRange(0,
                            std::max<double>(1.0, static_cast<double>(tiles->totalCycles)) * 1.08);
    chart_->replot();
    fillInfo(data_->step(tiles->step), tiles.get());
    emit tilesShown(step_);
}

void StepDetailsPanel::fillInfo(const reports::ProgramStepEntry* s,
                                const reports::StepTiles* tiles) {
    if (!s) {
        return;
    }
    const double clock = data_->target.clockHz;
    const auto total = static_cast<double>(s->totalCycles);
    QString rows;
    auto row = [&rows](const QString& key, const QString& value) {
        rows +=
            QString("<tr><td style='padding-right:10px'>%1</td><td>%2</td></tr>").arg(key, value);
    };
    if (!s->computeSet.isNone()) {
        row(tr("Compute set"),
            QString("<b>%1</b>")
                .arg(QString::fromStdString(data_->computeSetName(s->computeSet)).toHtmlEscaped()));
        // Vertices by codelet, the most numerous first.
        std::map<record::CodeletId, std::uint64_t> byCodelet;
        for (const auto& v : data_->vertexCounts) {
            if (v.computeSet == s->computeSet) {
                byCodelet[v.codelet] += v.count;
            }
        }
        std::vector<std::pair<std::uint64_t, record::CodeletId>> order;
        for (const auto& [codelet, count] : byCodelet) {
            order.emplace_back(count, codelet);
        }
        std::sort(order.rbegin(), order.rend());
        QStringList parts;
        for (std::size_t i = 0; i < order.size() && i < 3; ++i) {
            const std::uint32_t c = order[i].second.value();
            const QString name = c < data_->codelets.size()
                                     ? QString::fromStdString(data_->codelets[c].name)
                                     : QString("codelet %1").arg(c);
            parts << QString("%1 ×%2").arg(name.toHtmlEscaped(), formatCount(order[i].first));
        }
        if (order.size() > 3) {
            parts << tr("%1 more codelets").arg(order.size() - 3);
        }
        row(tr("Vertices"),
            formatCount(s->vertices) + (parts.isEmpty() ? QString() : "<br>" + parts.join("<br>")));
    }
    row(tr("Cycles"), cyclesText(total, clock));
    row(tr("Phases"), tr("sync %1 · exchange %2 · compute %3<br>%4 · %5 · %6")
                          .arg(formatCount(s->syncCycles), formatCount(s->exchangePhaseCycles),
                               formatCount(s->computePhaseCycles))
                          .arg(formatShare(static_cast<double>(s->syncCycles), total),
                               formatShare(static_cast<double>(s->exchangePhaseCycles), total),
                               formatShare(static_cast<double>(s->computePhaseCycles), total)));
    const double tilesN = data_->target.numTiles;
    if (s->computeCyclesMax > 0 && tilesN > 0) {
        const double mean = static_cast<double>(s->computeCyclesSum) / tilesN;
        row(tr("Tile balance"),
            tr("<b>%1</b> · compute a tile: mean %2, max %3")
                .arg(formatPercent(reports::tileBalance(*s, data_->target.numTiles)))
                .arg(formatCount(static_cast<std::uint64_t>(mean + 0.5)))
                .arg(formatCount(s->computeCyclesMax)));
    }
    if (tiles && !tiles->computeCycles.empty()) {
        const auto busiest =
            std::max_element(tiles->computeCycles.begin(), tiles->computeCycles.end());
        const auto idle = std::count(tiles->computeCycles.begin(), tiles->computeCycles.end(), 0u);
        row(tr("Busiest tile"), tr("%1 · %2 of %3 tiles compute nothing")
                                    .arg(busiest - tiles->computeCycles.begin())
                                    .arg(idle)
                                    .arg(tiles->computeCycles.size()));
    }
    row(tr("Exchange"),
        tr("%1 in · %2 out").arg(formatBytes(s->bytesInSum), formatBytes(s->bytesOutSum)));
    if (s->flops > 0) {
        row(tr("FLOPs"), formatCount(s->flops));
    }
    info_->setText(
        QString("<b>%1</b> <i>%2</i> · program step #%3<table style='margin-top:4px'>%4</table>")
            .arg(stepLabel(*data_, s->id).toHtmlEscaped(), programKindText(s->kind))
            .arg(s->id.value())
            .arg(rows));
}

} // namespace tessera::views::execution
