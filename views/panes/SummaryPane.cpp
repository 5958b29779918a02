#include "views/panes/SummaryPane.h"

#include "views/common/Card.h"
#include "views/common/Colors.h"
#include "views/common/Format.h"
#include "views/common/InfoTable.h"
#include "views/common/ProportionBar.h"
#include "views/common/Selection.h"
#include "views/data/ReportData.h"
#include "views/models/SummaryInsights.h"
#include "views/models/VariablesModel.h"
#include "views/panes/memory/MemoryHistogramPlot.h"

#include <QGridLayout>
#include <QLabel>
#include <QScrollArea>
#include <QTableWidget>
#include <QVBoxLayout>

namespace tessera::views {

namespace {

const QColor kGood(0x2e, 0x9d, 0x4f);
const QColor kBad(0xc6, 0x28, 0x28);

QString ghz(double hz) {
    return QString("%1 GHz").arg(hz / 1e9, 0, 'f', 3);
}

double share(std::uint64_t part, std::uint64_t whole) {
    return whole ? static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

} // namespace

SummaryPane::SummaryPane(QWidget* parent)
    : Pane(parent) {
    setObjectName("summaryPane");
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    scroll_ = new QScrollArea(this);
    scroll_->setWidgetResizable(true);
    scroll_->setFrameShape(QFrame::NoFrame);
    content_ = new QWidget;
    content_->setObjectName("summaryContent");
    auto* grid = new QGridLayout(content_);
    grid->setContentsMargins(16, 14, 16, 16);
    grid->setHorizontalSpacing(12);
    grid->setVerticalSpacing(12);
    buildHeader(content_, grid);

    targetCard_ = new Card("Target", content_);
    targetGrid_ = addInfoGrid(targetCard_->body());
    targetCard_->body()->addStretch(1);
    executionCard_ = new Card("Cycles", content_);
    cycleSplit_ = new ProportionBar(executionCard_);
    cycleSplit_->setObjectName("cycleSplit");
    executionCard_->body()->addWidget(cycleSplit_);
    executionGrid_ = addInfoGrid(executionCard_->body());
    executionCard_->body()->addStretch(1);
    memoryCard_ = new Card("Memory", content_);
    memoryGrid_ = addInfoGrid(memoryCard_->body());
    memoryCard_->body()->addStretch(1);
    grid->addWidget(targetCard_, 3, 0);
    grid->addWidget(executionCard_, 3, 1);
    grid->addWidget(memoryCard_, 3, 2);

    histogramCard_ = new Card("Memory across tiles", content_);
    histogram_ = new MemoryHistogramPlot(histogramCard_);
    histogramNote_ = makeMuted(QString(), histogramCard_);
    histogramNote_->setWordWrap(true);
    histogramCard_->body()->addWidget(histogram_, 1);
    histogramCard_->body()->addWidget(histogramNote_);
    fullestCard_ = new Card("Fullest tiles", content_);
    fullest_ = makeCompactTable({"Tile", "Used", "Of capacity", "Overflow"}, fullestCard_);
    setColumnUnits(fullest_, {{1, "bytes"}, {2, "fraction of capacity"}, {3, "bytes"}});
    fullest_->setObjectName("fullestTiles");
    fullest_->setCursor(Qt::PointingHandCursor);
    fullest_->setToolTip("Click a tile to select it in every pane");
    fullestCard_->body()->addWidget(fullest_);
    fullestCard_->body()->addWidget(makeMuted("Click a tile to select it.", fullestCard_));
    fullestCard_->body()->addStretch(1);
    grid->addWidget(histogramCard_, 4, 0, 1, 2);
    grid->addWidget(fullestCard_, 4, 2);

    codeletCard_ = new Card("Vertex state and code by codelet", content_);
    codelets_ = makeCompactTable({"Codelet", "Vertices", "State", "Code", "Total"}, codeletCard_);
    setColumnUnits(codelets_, {{1, QString()}, {2, "bytes"}, {3, "bytes"}, {4, "bytes"}});
    codelets_->setObjectName("codeletFootprint");
    codeletCard_->body()->addWidget(codelets_);
    codeletCard_->body()->addStretch(1);
    alwaysLiveCard_ = new Card("Always-live variables", content_);
    alwaysLive_ = makeCompactTable({"Variable", "Kind", "Bytes", "Tiles"}, alwaysLiveCard_);
    setColumnUnits(alwaysLive_, {{2, "bytes"}, {3, QString()}});
    alwaysLive_->setObjectName("alwaysLiveVariables");
    alwaysLiveNote_ = makeMuted(QString(), alwaysLiveCard_);
    alwaysLiveCard_->body()->addWidget(alwaysLive_);
    alwaysLiveCard_->body()->addWidget(alwaysLiveNote_);
    alwaysLiveCard_->body()->addStretch(1);
    reportCard_ = new Card("Report", content_);
    reportGrid_ = addInfoGrid(reportCard_->body());
    reportCard_->body()->addStretch(1);
    grid->addWidget(codeletCard_, 5, 0);
    grid->addWidget(alwaysLiveCard_, 5, 1);
    grid->addWidget(reportCard_, 5, 2);
    for (int c = 0; c < 3; ++c) {
        grid->setColumnStretch(c, 1);
    }
    grid->setRowStretch(6, 1);

    scroll_->setWidget(content_);
    outer->addWidget(scroll_);
    connect(fullest_, &QTableWidget::cellClicked, this, [this](int row, int) {
        const auto tile = idFromVariant<record::TileId>(fullest_->item(row, 0)->data(Qt::UserRole));
        if (selection_) {
            selection_->setTile(tile);
        }
    });
    showEmpty();
}

SummaryPane::~SummaryPane() = default;

void SummaryPane::buildHeader(QWidget* content, QGridLayout* grid) {
    auto* titles = new QVBoxLayout;
    titles->setSpacing(2);
    heading_ = makeHeading(QString(), content, 1.6);
    heading_->setObjectName("summaryHeading");
    subheading_ = makeMuted(QString(), content);
    subheading_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    titles->addWidget(heading_);
    titles->addWidget(subheading_);
    grid->addLayout(titles, 0, 0, 1, 3);

    status_ = new Card(QString(), content);
    status_->setObjectName("memoryStatusCard");
    statusText_ = makeHeading(QString(), status_, 1.3);
    statusText_->setObjectName("memoryStatus");
    statusDetail_ = new QLabel(status_);
    statusDetail_->setObjectName("memoryStatusDetail");
    statusDetail_->setWordWrap(true);
    status_->body()->addWidget(statusText_);
    status_->body()->addWidget(statusDetail_);
    grid->addWidget(status_, 1, 0, 1, 3);

    auto* stats = new QHBoxLayout;
    stats->setSpacing(12);
    cyclesStat_ = new StatTile("Total cycles", content);
    cyclesStat_->valueLabel()->setObjectName("totalCycles");
    cyclesStat_->detailLabel()->setObjectName("totalTime");
    memoryStat_ = new StatTile("Memory in use", content);
    memoryStat_->valueLabel()->setObjectName("totalMemory");
    fullestStat_ = new StatTile("Fullest tile", content);
    fullestStat_->valueLabel()->setObjectName("fullestTile");
    verifyStat_ = new StatTile("Verification", content);
    verifyStat_->valueLabel()->setObjectName("verification");
    for (auto* s : {cyclesStat_, memoryStat_, fullestStat_, verifyStat_}) {
        stats->addWidget(s, 1);
    }
    grid->addLayout(stats, 2, 0, 1, 3);
}

void SummaryPane::setReport(std::shared_ptr<const ReportData> report,
                            std::shared_ptr<ReportSource>) {
    data_ = std::move(report);
    if (!data_) {
        showEmpty();
        return;
    }
    content_->setEnabled(true);
    const auto& s = data_->summary;
    const SummaryInsights insights = computeInsights(*data_);
    heading_->setText(data_->info.workload.empty()
                          ? QString::fromStdString(data_->path.filename().string())
                          : QString::fromStdString(data_->info.workload));
    subheading_->setText(QString("%1 · %2 tiles · %3")
                             .arg(QString::fromStdString(data_->target.name),
                                  formatCount(data_->target.numTiles),
                                  QString::fromStdString(data_->path.string())));
    cyclesStat_->setValue(
        formatCount(s.cycles.total),
        QString("%1 at %2")
            .arg(formatCyclesAsTime(s.cycles.total, s.target.clockHz), ghz(s.target.clockHz)));
    memoryStat_->setValue(
        formatBytes(s.memory.totalBytes),
        QString("on %1 of %2 tiles, including gaps")
            .arg(formatCount(insights.tilesUsed), formatCount(data_->tileMemory.size())));
    fullestStat_->setValue(
        formatPercent(share(s.memory.peakTileBytes, s.target.bytesPerTile)),
        QString("tile %1: %2 of %3")
            .arg(s.memory.peakTile)
            .arg(formatBytes(s.memory.peakTileBytes), formatBytes(s.target.bytesPerTile)));
    fullestStat_->valueLabel()->setStyleSheet(
        s.memory.outOfMemory ? QString("color: %1").arg(kBad.name()) : QString());
    if (!s.verification) {
        verifyStat_->setValue("Not verified", "the report holds no verification");
        verifyStat_->valueLabel()->setStyleSheet(QString());
    } else {
        verifyStat_->setValue(
            s.verification->passed ? "Passed" : "Failed",
            s.verification->detail.empty()
                ? QString("max abs error %1").arg(s.verification->maxAbsError, 0, 'g', 3)
                : QString::fromStdString(s.verification->detail));
        verifyStat_->valueLabel()->setStyleSheet(
            QString("color: %1").arg((s.verification->passed ? kGood : kBad).name()));
    }
    fillTarget();
    fillExecution();
    fillMemory(insights);
    fillFullest(insights);
    fillCodelets(insights);
    fillAlwaysLive(insights);
    fillReport();
}

void SummaryPane::showEmpty() {
    heading_->setText("No report");
    subheading_->setText("Open a report (.tsr) from the File menu or drop one on the window.");
    statusText_->clear();
    statusDetail_->clear();
    status_->setAccent({});
    for (auto* s : {cyclesStat_, memoryStat_, fullestStat_, verifyStat_}) {
        s->setValue("–");
    }
    content_->setEnabled(false);
}

void SummaryPane::fillTarget() {
    const auto& t = data_->target;
    QStringList regions;
    for (const auto& r : t.regions) {
        regions << QString("%1 %2").arg(QString::fromStdString(r.name), formatBytes(r.bytes));
    }
    setInfoRows(
        targetGrid_,
        {{"Name", QString::fromStdString(t.name), "targetName"},
         {"IPUs", formatCount(t.numIpus), "targetIpus"},
         {"Tiles",
          QString("%1 (%2 per IPU)").arg(formatCount(t.numTiles), formatCount(t.tilesPerIpu)),
          "targetTiles"},
         {"Memory per tile", formatBytes(t.bytesPerTile), "targetBytesPerTile"},
         {"Memory in total", formatBytes(t.bytesPerTile * t.numTiles)},
         {"Regions", regions.join(", ")},
         {"Clock", ghz(t.clockHz), "targetClock"},
         {"Worker contexts", formatCount(t.workerContexts)},
         {"Exchange", QString("%1 bytes per cycle per tile").arg(t.exchangeBytesPerCycle)}});
}

void SummaryPane::fillExecution() {
    const auto& s = data_->summary;
    const double hz = s.target.clockHz;
    auto seg = [&](const QString& name, std::uint64_t cycles, Phase phase) {
        return ProportionBar::Segment{
            name, static_cast<double>(cycles), phaseColor(phase, palette()),
            QString("%1 cycles · %2").arg(formatCount(cycles), formatCyclesAsTime(cycles, hz))};
    };
    cycleSplit_->setSegments({seg("Compute", s.cycles.compute, Phase::Compute),
                              seg("Exchange", s.cycles.exchange, Phase::Exchange),
                              seg("Sync", s.cycles.sync, Phase::Sync)});
    QString runs = QString("%1 run(s), %2 steps executed")
                       .arg(s.runs.count)
                       .arg(formatCount(s.runs.executedSteps));
    if (s.runs.incomplete) {
        runs += QString(", %1 stopped early").arg(s.runs.incomplete);
    }
    setInfoRows(executionGrid_, {{"Total", QString("%1 cycles (%2)")
                                               .arg(formatCount(s.cycles.total),
                                                    formatCyclesAsTime(s.cycles.total, hz))},
                                 {"Runs", runs},
                                 {"Program steps", formatCount(s.program.steps)},
                                 {"Compute sets", formatCount(s.program.computeSets)},
                                 {"Vertices", formatCount(s.program.vertices)},
                                 {"Variables", formatCount(s.program.variables)}});
}

void SummaryPane::fillMemory(const SummaryInsights& in) {
    const auto& s = data_->summary;
    const auto cap = s.target.bytesPerTile;
    if (s.memory.outOfMemory) {
        statusText_->setText("Out of memory");
        statusDetail_->setText(
            QString("%1 of %2 tiles are over their %3 capacity. Worst: tile %4 needs %5, "
                    "%6 more than it has.")
                .arg(formatCount(in.tilesOverCapacity), formatCount(data_->tileMemory.size()),
                     formatBytes(cap))
                .arg(in.worst.tile.value())
                .arg(formatBytes(in.worst.bytes), formatBytes(in.worst.overflow)));
        status_->setAccent(kBad);
    } else {
        statusText_->setText("Fits in memory");
        statusDetail_->setText(
            QString("Every tile fits its %1. The fullest, tile %2, uses %3 (%4); %5 of it is "
                    "free.")
                .arg(formatBytes(cap))
                .arg(s.memory.peakTile)
                .arg(formatBytes(s.memory.peakTileBytes),
                     formatPercent(share(s.memory.peakTileBytes, cap)),
                     formatBytes(cap > s.memory.peakTileBytes ? cap - s.memory.peakTileBytes : 0)));
        status_->setAccent(kGood);
    }
    statusText_->setStyleSheet(
        QString("color: %1").arg((s.memory.outOfMemory ? kBad : kGood).name()));
    QList<InfoRow> rows = {
        {"Status", s.memory.outOfMemory ? "out of memory" : "fits", "memoryStatusValue",
         s.memory.outOfMemory ? kBad : kGood},
        {"In use", QString("%1 (%2 without gaps)")
                       .arg(formatBytes(in.totalBytes), formatBytes(in.totalBytes - in.gapBytes))},
        {"Always-live", formatBytes(in.alwaysLiveBytes)},
        {"Not-always-live peak", formatBytes(in.notAlwaysLivePeakBytes)},
        {"Gaps", formatBytes(in.gapBytes)},
        {"Tiles over capacity", formatCount(in.tilesOverCapacity), "tilesOverCapacity",
         in.tilesOverCapacity ? kBad : QColor()}};
    if (in.tilesOverCapacity) {
        rows.append({"Worst overflow",
                     QString("tile %1 by %2")
                         .arg(in.worst.tile.value())
                         .arg(formatBytes(in.worst.overflow)),
                     "worstOverflow", kBad});
    }
    setInfoRows(memoryGrid_, rows);
    histogram_->setHistogram(in.histogram);
    QString note = QString("%1 tiles in %2 bins of %3, from %4 to %5.")
                       .arg(formatCount(data_->tileMemory.size()))
                       .arg(in.histogram.counts.size())
                       .arg(formatBytes(in.histogram.binWidth), formatBytes(in.histogram.lower),
                            formatBytes(static_cast<std::uint64_t>(in.histogram.upper())));
    if (!in.histogram.capacityInRange) {
        note += QString(" The capacity, %1, is off the scale: the fullest tile uses %2 of it.")
                    .arg(formatBytes(cap), formatPercent(share(in.histogram.maxBytes, cap)));
    }
    histogramNote_->setText(note);
}

void SummaryPane::fillFullest(const SummaryInsights& in) {
    fullest_->setRowCount(static_cast<int>(in.fullest.size()));
    for (int r = 0; r < fullest_->rowCount(); ++r) {
        const TileUsage& t = in.fullest[static_cast<std::size_t>(r)];
        auto* tile =
            compactCell(QString("Tile %1").arg(t.tile.value()), false, heatColor(t.fraction));
        tile->setData(Qt::UserRole, idVariant(t.tile));
        fullest_->setItem(r, 0, tile);
        fullest_->setItem(r, 1, numberCell(formatBytes(t.bytes), qulonglong(t.bytes)));
        fullest_->setItem(r, 2, numberCell(formatPercent(t.fraction), t.fraction));
        auto* over =
            numberCell(t.overflow ? formatBytes(t.overflow) : QString("–"), qulonglong(t.overflow));
        if (t.overflow) {
            over->setForeground(kBad);
        }
        fullest_->setItem(r, 3, over);
    }
    fitTableHeight(fullest_);
}

void SummaryPane::fillCodelets(const SummaryInsights& in) {
    const int rows = static_cast<int>(std::min<std::size_t>(in.codelets.size(), 8));
    codelets_->setRowCount(rows);
    for (int r = 0; r < rows; ++r) {
        const auto& c = in.codelets[static_cast<std::size_t>(r)];
        auto* name = compactCell(QString::fromStdString(c.name));
        name->setToolTip(
            QString("%1 on %2 tile(s)").arg(QString::fromStdString(c.name)).arg(c.tiles));
        codelets_->setItem(r, 0, name);
        codelets_->setItem(r, 1, numberCell(formatCount(c.vertices), qulonglong(c.vertices)));
        codelets_->setItem(r, 2, numberCell(formatBytes(c.stateBytes), qulonglong(c.stateBytes)));
        codelets_->setItem(r, 3, numberCell(formatBytes(c.codeBytes), qulonglong(c.codeBytes)));
        codelets_->setItem(r, 4, numberCell(formatBytes(c.total()), qulonglong(c.total())));
    }
    fitTableHeight(codelets_);
}

void SummaryPane::fillAlwaysLive(const SummaryInsights& in) {
    const int rows = static_cast<int>(std::min<std::size_t>(in.alwaysLive.size(), 8));
    alwaysLive_->setRowCount(rows);
    for (int r = 0; r < rows; ++r) {
        const auto* v = in.alwaysLive[static_cast<std::size_t>(r)];
        const auto kind = variableKind(*v);
        auto* name = compactCell(QString::fromStdString(v->name));
        name->setToolTip(QString("%1 %2 %3")
                             .arg(QString::fromStdString(v->name), QString::fromStdString(v->type),
                                  shapeText(v->shape)));
        alwaysLive_->setItem(r, 0, name);
        alwaysLive_->setItem(
            r, 1,
            compactCell(variableKindName(kind), false,
                        categoryColor(kind == VariableKind::Constant
                                          ? record::MemoryCategory::Constant
                                          : record::MemoryCategory::AlwaysLiveVariable)));
        alwaysLive_->setItem(r, 2,
                             numberCell(formatBytes(v->totalBytes), qulonglong(v->totalBytes)));
        alwaysLive_->setItem(r, 3, numberCell(formatCount(v->numTiles), qulonglong(v->numTiles)));
    }
    fitTableHeight(alwaysLive_);
    std::uint64_t total = 0;
    for (const auto* v : in.alwaysLive) {
        total += v->totalBytes;
    }
    const auto more = in.alwaysLive.size() - static_cast<std::size_t>(rows);
    alwaysLiveNote_->setText(
        in.alwaysLive.empty()
            ? QString("No always-live variables.")
            : QString("%1 always-live variables and constants, %2 in all%3.")
                  .arg(formatCount(in.alwaysLive.size()), formatBytes(total),
                       more ? QString("; %1 more in the Memory pane").arg(formatCount(more))
                            : QString()));
}

void SummaryPane::fillReport() {
    const auto& info = data_->info;
    QStringList params;
    for (const auto& [k, v] : info.workloadParameters) {
        params << QString("%1=%2").arg(QString::fromStdString(k), QString::fromStdString(v));
    }
    QString status = info.complete ? "complete" : "incomplete";
    if (!info.complete && !info.incompleteReason.empty()) {
        status += ": " + QString::fromStdString(info.incompleteReason);
    }
    setInfoRows(
        reportGrid_,
        {{"Workload", info.workload.empty() ? QString("–") : QString::fromStdString(info.workload),
          "workload"},
         {"Parameters", params.isEmpty() ? QString("–") : params.join(", "), "parameters"},
         {"Capture", status, "reportComplete", info.complete ? QColor() : kBad},
         {"Created", QString::fromStdString(info.createdAt)},
         {"Tool", QString("%1 %2").arg(QString::fromStdString(info.tool),
                                       QString::fromStdString(info.toolVersion))},
         {"Schema", QString::fromStdString(info.schemaVersion)},
         {"File", QString::fromStdString(data_->path.filename().string())}});
}

void SummaryPane::setSelection(Selection* selection) {
    if (selection_) {
        disconnect(selection_, nullptr, this, nullptr);
    }
    selection_ = selection;
    if (selection_) {
        connect(selection_, &Selection::tileChanged, this, [this](record::TileId tile) {
            QSignalBlocker block(fullest_);
            fullest_->clearSelection();
            for (int r = 0; r < fullest_->rowCount(); ++r) {
                if (idFromVariant<record::TileId>(fullest_->item(r, 0)->data(Qt::UserRole)) ==
                    tile) {
                    fullest_->selectRow(r);
                }
            }
        });
    }
}

QList<ExportTarget> SummaryPane::exportTargets() const {
    return {{"summary", content_, nullptr},
            {"memory-histogram", histogram_, nullptr},
            {"fullest-tiles", nullptr, fullest_->model()},
            {"codelet-footprint", nullptr, codelets_->model()},
            {"always-live-variables", nullptr, alwaysLive_->model()}};
}

} // namespace tessera::views
