#include "views/compare/CompareMemoryPane.h"

#include "views/common/Card.h"
#include "views/common/Colors.h"
#include "views/common/PlotStyle.h"
#include "views/common/Selection.h"
#include "views/compare/CompareData.h"
#include "views/compare/CompareWidgets.h"
#include "views/compare/DeltaTileMap.h"
#include "views/compare/models/CompareTables.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace tessera::views {

namespace {

const reports::Delta& measureOf(const reports::TileMemoryDelta& t, int measure) {
    static const reports::Delta kNone;
    switch (measure) {
    case 0:
        return t.total;
    case 1:
        return t.alwaysLive;
    case 2:
        return t.notAlwaysLive;
    case 3:
        return t.gaps;
    default: {
        const auto k = static_cast<std::size_t>(measure - 4);
        return k < t.categories.size() ? t.categories[k] : kNone;
    }
    }
}

} // namespace

CompareMemoryPane::CompareMemoryPane(QWidget* parent)
    : ComparePane(parent) {
    setObjectName(QStringLiteral("compareMemoryPane"));
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(8, 6, 8, 0);
    bar->addWidget(new QLabel(tr("Difference in"), this));
    measureBox_ = new QComboBox(this);
    measureBox_->setObjectName(QStringLiteral("measure"));
    measureBox_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    bar->addWidget(measureBox_);
    caption_ = makeMuted(QString(), this);
    caption_->setObjectName(QStringLiteral("memoryCaption"));
    bar->addSpacing(12);
    bar->addWidget(caption_, 1);

    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("tileDeltaPlot"));
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->axisRect()->setRangeDrag(Qt::Horizontal);
    plot_->axisRect()->setRangeZoom(Qt::Horizontal);
    plot_->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new IntegerAxisTicker));
    plot_->xAxis->setLabel(tr("tile"));
    plot_->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new ByteAxisTicker));
    plot_->yAxis->setLabel(tr("comparison − baseline"));
    growth_ = new QCPBars(plot_->xAxis, plot_->yAxis);
    growth_->setName(tr("grew"));
    shrink_ = new QCPBars(plot_->xAxis, plot_->yAxis);
    shrink_->setName(tr("shrank"));
    for (QCPBars* b : {growth_, shrink_}) {
        b->setWidth(0.8);
        b->setPen(Qt::NoPen);
    }
    selectedLine_ = new QCPItemStraightLine(plot_);
    selectedLine_->setPen(QPen(selectionColor(), 1.5, Qt::DashLine));
    selectedLine_->setVisible(false);
    plot_->legend->setVisible(true);
    plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    map_ = new DeltaTileMap(this);

    auto* top = new QSplitter(Qt::Horizontal, this);
    top->addWidget(plot_);
    top->addWidget(map_);
    top->setStretchFactor(0, 3);
    top->setStretchFactor(1, 1);
    notComparable_ = new QLabel(this);
    notComparable_->setObjectName(QStringLiteral("tilesNotComparable"));
    notComparable_->setAlignment(Qt::AlignCenter);
    notComparable_->setWordWrap(true);
    stack_ = new QStackedWidget(this);
    stack_->addWidget(top);
    stack_->addWidget(notComparable_);

    auto* varCard = new Card(tr("Variables whose size or placement changed"), this);
    auto* varBar = new QHBoxLayout;
    changedOnly_ = new QCheckBox(tr("Changed only"), varCard);
    changedOnly_->setChecked(true);
    varBar->addWidget(changedOnly_);
    varBar->addStretch(1);
    varCard->body()->addLayout(varBar);
    variables_ = new CompareTableModel(this);
    variablesFilter_ = new CompareFilterModel(this);
    variablesFilter_->setSourceModel(variables_);
    variablesFilter_->setChangedOnly(true);
    variablesView_ = makeCompareTable(variablesFilter_, QStringLiteral("variableDeltas"), varCard);
    varCard->body()->addWidget(variablesView_, 1);
    tiles_ = new CompareTableModel(this);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(stack_);
    split->addWidget(varCard);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(split, 1);

    connect(measureBox_, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (i >= 0) {
            setMeasure(i);
        }
    });
    connect(changedOnly_, &QCheckBox::toggled, variablesFilter_,
            &CompareFilterModel::setChangedOnly);
    connect(map_, &DeltaTileMap::tileClicked, this, [this](int tile) {
        if (selection_) {
            selection_->setTile(idFromNumber<record::TileId>(tile));
        }
    });
    connect(plot_, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* e) {
        const int tile = static_cast<int>(std::lround(plot_->xAxis->pixelToCoord(e->pos().x())));
        if (selection_ && tile >= 0 && static_cast<std::size_t>(tile) < deltas_.size() &&
            plot_->axisRect()->rect().contains(e->pos())) {
            selection_->setTile(idFromNumber<record::TileId>(tile));
        }
    });
    applyStyle();
    setComparison(nullptr);
}

void CompareMemoryPane::setSelection(Selection* selection) {
    if (selection_) {
        disconnect(selection_, nullptr, this, nullptr);
    }
    selection_ = selection;
    if (!selection_) {
        return;
    }
    auto follow = [this](record::TileId id) {
        const int tile = idNumber(id); // the map and the plot number tiles
        map_->setSelectedTile(tile);
        selectedLine_->setVisible(tile >= 0 && static_cast<std::size_t>(tile) < deltas_.size());
        selectedLine_->point1->setCoords(tile, 0);
        selectedLine_->point2->setCoords(tile, 1);
        plot_->replot();
    };
    connect(selection_, &Selection::tileChanged, this, follow);
    follow(selection_->tile());
}

void CompareMemoryPane::setComparison(std::shared_ptr<const CompareData> comparison) {
    data_ = std::move(comparison);
    fillVariables(*variables_, data_);
    fillTiles(*tiles_, data_);
    {
        const QSignalBlocker block(measureBox_);
        measureBox_->clear();
        measureBox_->addItems(
            {tr("Total (with gaps)"), tr("Always-live"), tr("Not-always-live pool"), tr("Gaps")});
        if (data_) {
            for (const reports::MemoryCategoryEntry& c : data_->diff.categories) {
                measureBox_->addItem(QString::fromStdString(c.name));
            }
        }
        measure_ = std::min(measure_, measureBox_->count() - 1);
        measureBox_->setCurrentIndex(measure_);
    }
    rebuild();
}

void CompareMemoryPane::setMeasure(int measure) {
    if (measure < 0 || measure >= measureBox_->count()) {
        return;
    }
    measure_ = measure;
    {
        const QSignalBlocker block(measureBox_);
        measureBox_->setCurrentIndex(measure);
    }
    rebuild();
}

bool CompareMemoryPane::tilesShown() const {
    return stack_->currentIndex() == 0;
}

void CompareMemoryPane::rebuild() {
    deltas_.clear();
    if (data_ && !data_->diff.tilesComparable) {
        QString text = tr("<h3>Per-tile memory is not compared</h3>");
        for (const std::string& note : data_->diff.notes) {
            text += QStringLiteral("<p>%1</p>").arg(QString::fromStdString(note).toHtmlEscaped());
        }
        notComparable_->setText(text);
        stack_->setCurrentIndex(1);
        caption_->setText(tr("Totals and variables are still compared (Summary pane, below)."));
        measureBox_->setEnabled(false);
    } else {
        stack_->setCurrentIndex(0);
        measureBox_->setEnabled(data_ != nullptr);
    }
    QVector<double> gx, gy, sx, sy;
    std::int64_t lo = 0, hi = 0, grew = 0, shrank = 0;
    if (data_) {
        for (const reports::TileMemoryDelta& t : data_->diff.tiles) {
            const std::int64_t d = measureOf(t, measure_).delta();
            deltas_.push_back(d);
            lo = std::min(lo, d);
            hi = std::max(hi, d);
            (d > 0 ? gx : sx) << t.tile.value();
            (d > 0 ? gy : sy) << static_cast<double>(d);
            grew += d > 0 ? 1 : 0;
            shrank += d < 0 ? 1 : 0;
        }
    }
    growth_->setData(gx, gy, true);
    shrink_->setData(sx, sy, true);
    map_->setDeltas(deltas_);
    if (data_ && data_->diff.tilesComparable) {
        caption_->setText(tr("%1 tiles grew, %2 shrank, %3 unchanged")
                              .arg(grew)
                              .arg(shrank)
                              .arg(static_cast<qsizetype>(deltas_.size()) - grew - shrank));
    } else if (!data_) {
        caption_->clear();
    }
    plot_->xAxis->setRange(-0.5, std::max<double>(1.0, static_cast<double>(deltas_.size())) - 0.5);
    const double pad = std::max(1.0, static_cast<double>(hi - lo) * 0.08);
    plot_->yAxis->setRange(static_cast<double>(lo) - (lo < 0 ? pad : 0),
                           static_cast<double>(hi) + (hi > 0 ? pad : 0) + (hi == lo ? 1 : 0));
    plot_->replot();
}

void CompareMemoryPane::applyStyle() {
    applyPlotPalette(plot_, palette());
    growth_->setBrush(worseColor(palette()));
    shrink_->setBrush(betterColor(palette()));
    plot_->replot();
}

void CompareMemoryPane::changeEvent(QEvent* event) {
    ComparePane::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyStyle();
    }
}

void CompareMemoryPane::zoomIn() {
    plot_->xAxis->scaleRange(0.5, plot_->xAxis->range().center());
    plot_->replot();
}

void CompareMemoryPane::zoomOut() {
    plot_->xAxis->scaleRange(2.0, plot_->xAxis->range().center());
    plot_->replot();
}

void CompareMemoryPane::resetZoom() {
    rebuild();
}

QList<ExportTarget> CompareMemoryPane::exportTargets() const {
    return {{QStringLiteral("compare-memory-per-tile"), plot_, tiles_},
            {QStringLiteral("compare-tile-map"), map_, nullptr},
            {QStringLiteral("compare-variables"), nullptr, variablesFilter_}};
}

} // namespace tessera::views
