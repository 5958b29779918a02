#include "views/panes/LivenessPane.h"

#include "views/common/Format.h"
#include "views/common/ScrollRow.h"
#include "views/common/Selection.h"
#include "views/data/ReportSource.h"
#include "views/models/ProgramKinds.h"
#include "views/models/VariableLookup.h"
#include "views/panes/liveness/LivenessPlot.h"
#include "views/panes/liveness/LivenessTables.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace tessera::views {

namespace {
// Reading every step's tile arrays on the GUI thread is fine up to about this
// many step x tile entries; beyond, it runs in the background.
constexpr std::uint64_t kSynchronousEntries = 2'000'000;
constexpr std::size_t kCachedCurves = 8;
} // namespace

LivenessPane::LivenessPane(QWidget* parent)
    : Pane(parent) {
    setObjectName("livenessPane");
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(new ScrollRow(buildToolbar())); // scrolls, not widens, in a small window
    auto* split = new QSplitter(Qt::Vertical);
    split->setChildrenCollapsible(false);
    plot_ = new LivenessPlot;
    tables_ = new LivenessTables;
    split->addWidget(plot_);
    split->addWidget(tables_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({540, 360});
    layout->addWidget(split, 1);

    plot_->setToolTipProvider([this](int x) { return toolTipFor(x); });
    plot_->clearSeries("No report");
    connect(plot_, &LivenessPlot::stepClicked, this, [this](int x, Qt::KeyboardModifiers mods) {
        const record::StepId step = steps_.stepIds[static_cast<std::size_t>(x)];
        if (mods & (Qt::ControlModifier | Qt::MetaModifier)) {
            if (compared_.empty() && !step_.isNone() && step_ != step) {
                compared_.push_back(step_);
            }
            toggleComparedStep(step);
        } else {
            selectStep(step);
        }
    });
    connect(tables_, &LivenessTables::variableActivated, this, [this](record::VariableId id) {
        variable_ = id;
        showVariableSpan(id);
        if (selection_) {
            selection_->setVariable(id);
        }
    });
    connect(tables_, &LivenessTables::addStepRequested, this, [this] {
        if (!step_.isNone() &&
            std::find(compared_.begin(), compared_.end(), step_) == compared_.end()) {
            toggleComparedStep(step_);
        }
    });
    connect(tables_, &LivenessTables::clearComparisonRequested, this,
            [this] { setComparedSteps({}); });
    connect(&task_.watcher(), &QFutureWatcher<void>::finished, this, &LivenessPane::curveLoaded);
}

LivenessPane::~LivenessPane() {
    if (cancel_) {
        cancel_->store(true);
    }
    task_.waitForFinished();
}

QWidget* LivenessPane::buildToolbar() {
    auto* bar = new QWidget;
    auto* row = new QHBoxLayout(bar);
    row->setContentsMargins(0, 0, 0, 0);
    alwaysLive_ = new QCheckBox("Always-live");
    alwaysLive_->setChecked(showAlwaysLive_);
    alwaysLive_->setToolTip("Show the always-live bytes as a band under the not-always-live bytes");
    connect(alwaysLive_, &QCheckBox::toggled, this, &LivenessPane::setAlwaysLiveShown);
    tileSpin_ = new QSpinBox;
    tileSpin_->setRange(-1, -1);
    tileSpin_->setSpecialValueText("All tiles");
    tileSpin_->setPrefix("Tile ");
    tileSpin_->setToolTip("Show the bytes of one tile (follows the selected tile)");
    tileSpin_->setMinimumWidth(110);
    connect(tileSpin_, &QSpinBox::valueChanged, this, &LivenessPane::setTile);
    peak_ = new QLabel;
    peak_->setTextFormat(Qt::RichText);
    peakButton_ = new QToolButton;
    peakButton_->setText("Go to peak");
    peakButton_->setToolTip("Select the step with the most not-always-live bytes");
    connect(peakButton_, &QToolButton::clicked, this, &LivenessPane::goToPeak);
    auto* hint =
        new QLabel("Click: select a step · Ctrl+click: compare steps · wheel/drag: zoom/pan");
    hint->setEnabled(false);
    row->addWidget(alwaysLive_);
    row->addSpacing(12);
    row->addWidget(tileSpin_);
    row->addSpacing(12);
    row->addWidget(peak_);
    row->addWidget(peakButton_);
    row->addStretch(1);
    row->addWidget(hint);
    return bar;
}

void LivenessPane::setReport(std::shared_ptr<const ReportData> reportData,
                             std::shared_ptr<ReportSource> reportSource) {
    if (cancel_) {
        cancel_->store(true);
    }
    task_.waitForFinished();
    loadingTile_ = kNoLoad;
    data_ = reportData && reportSource ? std::move(reportData) : nullptr;
    source_ = data_ ? std::move(reportSource) : nullptr;
    lookup_ = data_ ? std::make_shared<const VariableLookup>(*data_) : nullptr;
    steps_ = data_ ? makeLivenessSteps(*data_) : LivenessSteps{};
    curves_.clear();
    failedCurves_.clear();
    compared_.clear();
    step_ = selection_ && data_ && steps_.x(selection_->step()) >= 0 ? selection_->step()
                                                                     : record::StepId::none();
    variable_ = selection_ ? selection_->variable() : record::VariableId::none();
    selectPeakWhenRead_ = data_ && step_.isNone();
    {
        const QSignalBlocker block(tileSpin_);
        tileSpin_->setRange(-1, data_ ? static_cast<int>(data_->target.numTiles) - 1 : -1);
        const int wanted = selection_ ? idNumber(selection_->tile()) : -1;
        tile_ = wanted < static_cast<int>(data_ ? data_->target.numTiles : 0) ? wanted : -1;
        tileSpin_->setValue(tile_);
    }
    tables_->setReport(data_, lookup_);
    peakButton_->setEnabled(data_ != nullptr);
    if (!data_) {
        peak_->clear();
        plot_->clearSeries("No report");
        return;
    }
    requestCurve();
    showStep();
    showComparison();
}

void LivenessPane::setSelection(Selection* selection) {
    if (selection_) {
        disconnect(selection_, nullptr, this, nullptr);
    }
    selection_ = selection;
    if (!selection_) {
        return;
    }
    connect(selection_, &Selection::stepChanged, this, [this](record::StepId step) {
        selectPeakWhenRead_ = false; // a step chosen elsewhere wins over the peak
        step_ = step;
        showStep();
    });
    connect(selection_, &Selection::tileChanged, this,
            [this](record::TileId tile) { setTile(idNumber(tile)); });
    connect(selection_, &Selection::variableChanged, this, [this](record::VariableId variable) {
        variable_ = variable;
        showVariableSpan(variable);
        tables_->selectVariable(variable);
    });
}

QList<ExportTarget> LivenessPane::exportTargets() const {
    return {{"liveness-plot", plot_, nullptr},
            {"live-variables", nullptr, tables_->liveShown()},
            {"always-live-variables", nullptr, tables_->alwaysLiveShown()},
            {"step-comparison", nullptr, tables_->comparisonShown()},
            {"step-vertices", nullptr, tables_->verticesShown()},
            {"step-cycles", nullptr, tables_->cyclesShown()}};
}

void LivenessPane::zoomIn() {
    plot_->zoomBy(0.8);
}
void LivenessPane::zoomOut() {
    plot_->zoomBy(1.25);
}
void LivenessPane::resetZoom() {
    plot_->resetView();
}

void LivenessPane::setTile(int tile) {
    const int maxTile = data_ ? static_cast<int>(data_->target.numTiles) - 1 : -1;
    tile = tile > maxTile ? -1 : std::max(-1, tile);
    if (tile == tile_) {
        return;
    }
    tile_ = tile;
    {
        const QSignalBlocker block(tileSpin_);
        tileSpin_->setValue(tile);
    }
    if (selection_ && tile >= 0) {
        selection_->setTile(idFromNumber<record::TileId>(tile));
    }
    if (data_) {
        requestCurve();
        showStep();
    }
}

void LivenessPane::setAlwaysLiveShown(bool shown) {
    showAlwaysLive_ = shown;
    {
        const QSignalBlocker block(alwaysLive_);
        alwaysLive_->setChecked(shown);
    }
    showCurve();
}

void LivenessPane::requestCurve() {
    if (!source_ || curves_.count(tile_)) {
        showCurve();
        return;
    }
    if (const auto failed = failedCurves_.find(tile_); failed != failedCurves_.end()) {
        peak_->clear();
        plot_->clearSeries(failed->second);
        return;
    }
    if (loadingTile_ == tile_) {
        return;
    }
    const std::uint64_t entries =
        steps_.size() * std::max<std::uint64_t>(1, data_->target.numTiles);
    // All tiles' sums come with the program steps: no tile arrays to read.
    if (tile_ < 0 || entries <= kSynchronousEntries) {
        CurveResult r;
        try {
            r.curve = notAlwaysLiveCurve(steps_, *source_, tile_);
        } catch (const std::exception& e) {
            r.error = problemText(e);
        }
        curveRead(tile_, std::move(r));
        return;
    }
    if (cancel_) {
        cancel_->store(true);
    }
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    loadingTile_ = tile_;
    plot_->clearSeries(
        QString("Reading the liveness of %1 steps…").arg(formatCount(steps_.size())));
    task_.start([steps = steps_, source = source_, tile = tile_, cancel = cancel_] {
        CurveResult r;
        try {
            r.curve = notAlwaysLiveCurve(steps, *source, tile, cancel.get());
        } catch (const std::exception& e) {
            r.error = problemText(e);
        }
        return r;
    });
}

void LivenessPane::curveLoaded() {
    const int tile = loadingTile_;
    loadingTile_ = kNoLoad;
    CurveResult r = task_.take();
    if (tile == kNoLoad || (r.error.isEmpty() && r.curve.size() != steps_.size())) {
        return; // cancelled or stale
    }
    curveRead(tile, std::move(r));
}

void LivenessPane::curveRead(int tile, CurveResult result) {
    if (!result.error.isEmpty()) {
        // The plot says so; the tables and the rest of the pane still work.
        failedCurves_[tile] = tr("The liveness cannot be read: the report is damaged");
        emit problemFound(result.error);
    } else {
        curves_[tile] = std::move(result.curve);
    }
    requestCurve();
}

void LivenessPane::showCurve() {
    const auto it = curves_.find(tile_);
    if (!data_ || it == curves_.end()) {
        return;
    }
    while (curves_.size() > kCachedCurves) {
        auto victim = std::find_if(curves_.begin(), curves_.end(), [this](const auto& c) {
            return c.first != -1 && c.first != tile_;
        });
        if (victim == curves_.end()) {
            break;
        }
        curves_.erase(victim);
    }
    const std::vector<double>& curve = curves_.at(tile_);
    double alwaysLive = -1;
    if (showAlwaysLive_) {
        alwaysLive = tile_ < 0 ? steps_.alwaysLiveBytes
                               : steps_.alwaysLiveBytesPerTile[static_cast<std::size_t>(tile_)];
    }
    plot_->setCapacity(tile_ < 0 ? -1 : static_cast<double>(data_->target.bytesPerTile));
    plot_->setSeries(curve, alwaysLive,
                     tile_ < 0 ? QString("Bytes, all %1 tiles").arg(data_->target.numTiles)
                               : QString("Bytes on tile %1").arg(tile_));
    if (!curve.empty()) {
        const auto peakX =
            static_cast<std::size_t>(std::max_element(curve.begin(), curve.end()) - curve.begin());
        const auto* step = data_->step(steps_.stepIds[peakX]);
        peak_->setText(
            QString("Peak not-always-live: <b>%1</b> at step %2 <i>%3</i>")
                .arg(formatBytes(static_cast<std::uint64_t>(curve[peakX])))
                .arg(steps_.stepIds[peakX].value())
                .arg(step ? QString::fromStdString(step->name).toHtmlEscaped() : QString()));
        if (selectPeakWhenRead_) {
            // What the user came for, before any click: the peak's live variables.
            // The shared selection is left alone: opening a report moves no other pane.
            selectPeakWhenRead_ = false;
            step_ = steps_.stepIds[peakX];
            showStep();
        }
    }
    plot_->setSelectedX(!step_.isNone() ? steps_.x(step_) : -1);
    showComparison();
    showVariableSpan(variable_);
}

void LivenessPane::goToPeak() {
    const auto it = curves_.find(tile_);
    if (it == curves_.end() || it->second.empty()) {
        return;
    }
    const auto x = static_cast<std::size_t>(std::max_element(it->second.begin(), it->second.end()) -
                                            it->second.begin());
    selectStep(steps_.stepIds[x]);
}

void LivenessPane::selectStep(record::StepId step) {
    selectPeakWhenRead_ = false;
    step_ = step;
    if (selection_) {
        selection_->setStep(step);
    }
    showStep();
}

void LivenessPane::showStep() {
    const int x = !step_.isNone() ? steps_.x(step_) : -1;
    plot_->setSelectedX(x);
    if (x < 0 || !source_) {
        tables_->clearStep();
        return;
    }
    const auto all = curves_.find(-1);
    const double bytes = all != curves_.end() ? all->second[static_cast<std::size_t>(x)] : -1;
    const record::StepId step = step_;
    const auto tiles = readReport([&] { return source_->stepTiles(step); });
    tables_->showStep(step, readReport([&] { return source_->liveVariables(step); }), bytes,
                      tiles.get());
    if (!variable_.isNone()) {
        tables_->selectVariable(variable_);
    }
}

void LivenessPane::setComparedSteps(const std::vector<record::StepId>& steps) {
    compared_.clear();
    for (const auto s : steps) {
        if (steps_.x(s) >= 0 &&
            std::find(compared_.begin(), compared_.end(), s) == compared_.end()) {
            compared_.push_back(s);
        }
    }
    if (compared_.size() > kMaxComparedSteps) {
        compared_.erase(compared_.begin(),
                        compared_.end() - static_cast<std::ptrdiff_t>(kMaxComparedSteps));
    }
    showComparison();
}

void LivenessPane::toggleComparedStep(record::StepId step) {
    std::vector<record::StepId> next = compared_;
    const auto it = std::find(next.begin(), next.end(), step);
    if (it != next.end()) {
        next.erase(it);
    } else {
        next.push_back(step);
    }
    setComparedSteps(next);
    if (compared_.size() >= 2) {
        tables_->setCurrentIndex(LivenessTables::CompareTab);
    }
}

void LivenessPane::showComparison() {
    // Shown in program order, so "became live" reads forwards in time.
    std::sort(compared_.begin(), compared_.end(),
              [this](record::StepId a, record::StepId b) { return steps_.x(a) < steps_.x(b); });
    std::vector<int> xs;
    std::vector<std::vector<record::VariableId>> live;
    for (const auto s : compared_) {
        xs.push_back(steps_.x(s));
        live.push_back(source_ ? readReport([&] { return source_->liveVariables(s); })
                               : std::vector<record::VariableId>{});
    }
    plot_->setComparedX(xs);
    tables_->showComparison(compared_, live);
}

void LivenessPane::showVariableSpan(record::VariableId variable) {
    const auto* v = lookup_ && !variable.isNone() ? lookup_->find(variable) : nullptr;
    if (!v || v->alwaysLive || v->firstStep.isNone()) {
        plot_->setHighlightSpan(-1, -1);
        return;
    }
    plot_->setHighlightSpan(steps_.x(v->firstStep),
                            steps_.x(v->lastStep.isNone() ? v->firstStep : v->lastStep),
                            QString::fromStdString(v->name) + " live");
}

QString LivenessPane::toolTipFor(int x) const {
    if (!data_ || x < 0 || static_cast<std::size_t>(x) >= steps_.size()) {
        return {};
    }
    const auto& step = data_->programSteps[static_cast<std::size_t>(
        steps_.stepPositions[static_cast<std::size_t>(x)])];
    QString tip =
        QString("<b>Step %1</b> · %2<br>%3")
            .arg(step.id.value())
            .arg(programKindText(step.kind), QString::fromStdString(step.name).toHtmlEscaped());
    const auto it = curves_.find(tile_);
    if (it != curves_.end()) {
        tip += QString("<br>not-always-live: <b>%1</b> (%2)")
                   .arg(formatBytes(
                            static_cast<std::uint64_t>(it->second[static_cast<std::size_t>(x)])),
                        tile_ < 0 ? QString("all tiles") : QString("tile %1").arg(tile_));
    }
    tip += QString("<br>fullest tile: %1<br>live variables: %2")
               .arg(formatBytes(step.notAlwaysLiveBytesMax), formatCount(step.liveVariableCount));
    return tip;
}

} // namespace tessera::views
