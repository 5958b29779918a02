#include "views/panes/program/DataflowView.h"

#include "views/common/Colors.h"
#include "views/common/Format.h"
#include "views/common/ScrollRow.h"
#include "views/models/ProgramKinds.h"
#include "views/panes/program/GraphCanvas.h"
#include "views/panes/program/GraphItems.h"
#include "views/panes/program/HeatLegend.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace tessera::views {

namespace {

const char* const kEdgesHelp =
    "An arrow from a step to a tensor: the step writes it. From a tensor to a step: the step "
    "reads it. Each write makes a new version of a tensor, so the graph runs top to bottom in "
    "program order; a tensor read before any step in the scope writes it (an input, a weight, a "
    "constant) appears once at the top. Exchange buffers hold what a step receives.";

constexpr std::size_t kMaxGraphSteps = 400; // steps drawn at once
constexpr std::size_t kMaxWindows = 500;
constexpr double kStepHeight = 30;
constexpr double kTensorHeight = 26;
constexpr double kMinWidth = 64;
constexpr double kMaxWidth = 230;

QString nodeText(const DataflowNode& n) {
    QString name = QString::fromStdString(n.name);
    if (n.exchangeBuffer) {
        name.remove("exchange buffer: ");
        return "⇄ " + name;
    }
    return name;
}

} // namespace

DataflowView::DataflowView(QWidget* parent)
    : QWidget(parent) {
    setObjectName("dataflowView");
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new ScrollRow(buildToolbar())); // scrolls, not widens, in a small window
    scene_ = new QGraphicsScene(this);
    canvas_ = new GraphCanvas;
    canvas_->setScene(scene_);
    layout->addWidget(canvas_, 1);
    info_ = new QLabel;
    info_->setToolTip(kEdgesHelp);
    info_->setWordWrap(true);
    layout->addWidget(info_);
    connect(canvas_, &GraphCanvas::nodeClicked, this, [this](int index) {
        const DataflowNode& n = graph_.nodes[static_cast<std::size_t>(index)];
        if (n.kind == DataflowNode::Kind::Step) {
            selectedStep_ = record::StepId{n.id};
            markedComputeSet_ = n.computeSet;
            updateMarks();
            emit stepActivated(selectedStep_, markedComputeSet_);
        }
    });
}

DataflowView::~DataflowView() = default;

QWidget* DataflowView::buildToolbar() {
    auto* bar = new QWidget;
    auto* row = new QHBoxLayout(bar);
    row->setContentsMargins(0, 0, 0, 0);
    scope_ = new QComboBox;
    scope_->setToolTip("Draw the whole program or the steps of one operation");
    scope_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    scope_->setMaximumWidth(320);
    connect(scope_, &QComboBox::activated, this,
            [this](int i) { setScope(scope_->itemData(i).toInt()); });
    metricBox_ = new QComboBox;
    metricBox_->addItems({"Cycles", "Bytes exchanged", "Memory"});
    metricBox_->setToolTip(
        "Colour compute sets and copies by: cycles over all executions, bytes received over "
        "all executions, or peak not-always-live bytes of the fullest tile (tensors: their bytes)");
    connect(metricBox_, &QComboBox::activated, this,
            [this](int i) { setMetric(static_cast<Metric>(i)); });
    buffers_ = new QCheckBox("Exchange buffers");
    buffers_->setChecked(exchangeBuffers_);
    connect(buffers_, &QCheckBox::toggled, this, &DataflowView::setExchangeBuffers);
    searchEdit_ = new QLineEdit;
    searchEdit_->setPlaceholderText("Search nodes (Enter: next)");
    searchEdit_->setClearButtonEnabled(true);
    searchEdit_->setMinimumWidth(220);
    connect(searchEdit_, &QLineEdit::textChanged, this, [this](const QString& t) { search(t); });
    connect(searchEdit_, &QLineEdit::returnPressed, this, [this] { search(searchEdit_->text()); });
    matchLabel_ = new QLabel;
    matchLabel_->setMinimumWidth(fontMetrics().horizontalAdvance("no match  "));
    auto* fit = new QToolButton;
    fit->setText("Fit");
    fit->setToolTip("Show the whole graph");
    connect(fit, &QToolButton::clicked, this, &DataflowView::fitAll);
    legend_ = new HeatLegend;
    legend_->setToolTip(kEdgesHelp);
    row->addWidget(new QLabel("Scope"));
    row->addWidget(scope_);
    row->addSpacing(8);
    row->addWidget(new QLabel("Colour by"));
    row->addWidget(metricBox_);
    row->addWidget(buffers_);
    row->addSpacing(8);
    row->addWidget(searchEdit_);
    row->addWidget(matchLabel_);
    row->addWidget(fit);
    row->addStretch(1);
    row->addWidget(legend_);
    return bar;
}

void DataflowView::setProgram(std::shared_ptr<const ReportData> reportData,
                              std::shared_ptr<const ProgramStats> stats) {
    data_ = reportData && stats ? std::move(reportData) : nullptr;
    stats_ = data_ ? std::move(stats) : nullptr;
    scopeNode_ = -1;
    selectedStep_ = record::StepId::none();
    markedComputeSet_ = record::ComputeSetId::none();
    scope_->clear();
    if (stats_) {
        const std::size_t total = data_->programSteps.size();
        scope_->addItem(QString("Whole program (%1 steps)").arg(formatCount(total)), -1);
        // Windows of program steps, for programs too big to draw at once.
        for (std::size_t w = 0;
             total > kMaxGraphSteps && w * kMaxGraphSteps < total && w < kMaxWindows; ++w) {
            scope_->addItem(QString("Steps %1 – %2")
                                .arg(w * kMaxGraphSteps)
                                .arg(std::min(total, (w + 1) * kMaxGraphSteps) - 1),
                            -2 - static_cast<int>(w));
        }
        for (const int op : stats_->operations) {
            int depth = 0;
            for (int p = stats_->parent[static_cast<std::size_t>(op)]; p >= 0;
                 p = stats_->parent[static_cast<std::size_t>(p)]) {
                depth += data_->programNodes[static_cast<std::size_t>(p)].kind ==
                                 record::ProgramKind::Block
                             ? 1
                             : 0;
            }
            scope_->addItem(
                QString(depth * 3, ' ') +
                    QString::fromStdString(data_->programNodes[static_cast<std::size_t>(op)].name),
                op);
        }
    }
    rebuild();
}

void DataflowView::setMetric(Metric metric) {
    metric_ = metric;
    metricBox_->setCurrentIndex(static_cast<int>(metric));
    recolour();
}

void DataflowView::setScope(int nodePosition) {
    scopeNode_ = nodePosition;
    const int i = scope_->findData(nodePosition);
    if (i >= 0) {
        scope_->setCurrentIndex(i);
    }
    rebuild();
}

void DataflowView::setExchangeBuffers(bool shown) {
    exchangeBuffers_ = shown;
    {
        const QSignalBlocker block(buffers_);
        buffers_->setChecked(shown);
    }
    rebuild();
}

void DataflowView::rebuild() {
    scene_->clear();
    nodes_.clear();
    edges_.clear();
    matches_.clear();
    graph_ = {};
    layout_ = {};
    if (!data_) {
        info_->setText("No report");
        legend_->setRange("", "", "");
        return;
    }
    DataflowOptions options;
    options.steps = stepsInScope(*data_, *stats_, scopeNode_ >= 0 ? scopeNode_ : -1);
    options.maxSteps = kMaxGraphSteps;
    if (scopeNode_ <= -2) { // a window of steps in program order
        const std::size_t first = std::min(
            options.steps.size(), static_cast<std::size_t>(-2 - scopeNode_) * kMaxGraphSteps);
        const std::size_t end = std::min(options.steps.size(), first + kMaxGraphSteps);
        options.steps =
            std::vector<std::uint32_t>(options.steps.begin() + static_cast<std::ptrdiff_t>(first),
                                       options.steps.begin() + static_cast<std::ptrdiff_t>(end));
    }
    options.exchangeBuffers = exchangeBuffers_;
    graph_ = buildDataflowGraph(*data_, *stats_, options);

    const QFontMetricsF metrics(GraphNodeItem::labelFont());
    std::vector<graph::Size> sizes;
    for (const DataflowNode& n : graph_.nodes) {
        const double w =
            std::clamp(metrics.horizontalAdvance(nodeText(n)) + 28, kMinWidth, kMaxWidth);
        sizes.push_back({w, n.kind == DataflowNode::Kind::Step ? kStepHeight : kTensorHeight});
    }
    graph::LayoutOptions layoutOptions;
    layoutOptions.layerGap = 44;
    layout_ = graph::layoutGraph(sizes, graph_.edges, layoutOptions);

    const QColor edgeColor = this->edgeColor();
    for (std::size_t e = 0; e < graph_.edges.size(); ++e) {
        std::vector<QPointF> points;
        for (const auto& p : layout_.edgePoints[e]) {
            points.emplace_back(p.x, p.y);
        }
        auto* item = new GraphEdgeItem(points);
        item->setColor(edgeColor);
        scene_->addItem(item);
        edges_.push_back(item);
    }
    for (std::size_t i = 0; i < graph_.nodes.size(); ++i) {
        const DataflowNode& n = graph_.nodes[i];
        const auto shape = n.kind == DataflowNode::Kind::Tensor ? GraphNodeItem::Shape::Tensor
                           : n.stepKind == record::ProgramKind::Execute
                               ? GraphNodeItem::Shape::ComputeSet
                               : GraphNodeItem::Shape::Copy;
        auto* item = new GraphNodeItem(static_cast<int>(i), shape,
                                       QSizeF(sizes[i].width, sizes[i].height), nodeText(n));
        item->setPos(layout_.position[i].x, layout_.position[i].y);
        QString tip;
        if (n.kind == DataflowNode::Kind::Step) {
            tip = QString("<b>%1</b> %2<br>step %3%4<br>cycles (all executions): %5<br>bytes "
                          "received: %6<br>"
                          "peak not-always-live (fullest tile): %7")
                      .arg(programKindText(n.stepKind),
                           QString::fromStdString(n.name).toHtmlEscaped())
                      .arg(n.id)
                      .arg(n.computeSet.isNone()
                               ? QString()
                               : QString(", compute set %1").arg(n.computeSet.value()))
                      .arg(formatCount(static_cast<std::uint64_t>(n.cycles)),
                           formatBytes(static_cast<std::uint64_t>(n.bytesExchanged)),
                           formatBytes(static_cast<std::uint64_t>(n.memory)));
        } else {
            const QString origin =
                n.exchangeBuffer ? QString("received by its step")
                : n.producer.isNone()
                    ? QString("an input of this scope (written before it, or never)")
                    : QString("as written by step %1").arg(n.producer.value());
            tip = QString("<b>%1</b> %2<br>%3 over all tiles<br>%4<br>read by %5 step(s) shown")
                      .arg(n.exchangeBuffer ? "exchange buffer" : "tensor",
                           QString::fromStdString(n.name).toHtmlEscaped(),
                           formatBytes(static_cast<std::uint64_t>(n.memory)), origin)
                      .arg(n.readers);
        }
        item->setToolTip(tip);
        scene_->addItem(item);
        nodes_.push_back(item);
    }
    scene_->setSceneRect(scene_->itemsBoundingRect().adjusted(-40, -40, 40, 40));

    std::size_t steps = 0;
    for (const auto& n : graph_.nodes) {
        steps += n.kind == DataflowNode::Kind::Step ? 1 : 0;
    }
    QString text = QString("%1 compute sets and copies, %2 tensors, %3 edges, %4 crossings")
                       .arg(steps)
                       .arg(graph_.nodes.size() - steps)
                       .arg(graph_.edges.size())
                       .arg(layout_.crossings);
    if (graph_.stepsShown < graph_.stepsInScope && options.steps.size() > options.maxSteps) {
        text += QString(" · showing the first %1 of %2 steps: choose a window of steps or an "
                        "operation as scope")
                    .arg(options.maxSteps)
                    .arg(graph_.stepsInScope);
    }
    if (!graph_.accessesRecorded) {
        text += " · <i>this report predates schema 1.1 and does not record which tensors each "
                "step reads and writes: tensors are not drawn</i>";
    }
    info_->setText(text);
    recolour();
    updateMarks();
    pendingView_ = true;
    if (isVisible()) {
        initialView();
    }
}

// The whole graph when it is readable that way; otherwise a readable zoom
// on its top (or on the selected step).
void DataflowView::initialView() {
    pendingView_ = false;
    fitAll();
    if (canvas_->zoom() >= 0.3 || nodes_.empty()) {
        return;
    }
    canvas_->zoomBy(0.75 / canvas_->zoom());
    const int selected = !selectedStep_.isNone() ? graph_.stepNode(selectedStep_.value()) : -1;
    if (selected >= 0) {
        canvas_->centerOn(nodes_[static_cast<std::size_t>(selected)]);
    } else {
        const QRectF rect = scene_->sceneRect();
        canvas_->centerOn(rect.center().x(),
                          rect.top() + canvas_->viewport()->height() / (2 * canvas_->zoom()));
    }
}

QColor DataflowView::edgeColor() const {
    QColor c = palette().color(QPalette::WindowText);
    c.setAlpha(150);
    return c;
}

void DataflowView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        for (GraphEdgeItem* edge : edges_) {
            edge->setColor(edgeColor());
        }
    }
}

void DataflowView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (pendingView_) {
        initialView();
    }
}

void DataflowView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (pendingView_ && isVisible()) {
        initialView();
    }
}

double DataflowView::metricValue(const DataflowNode& node) const {
    switch (metric_) {
    case Metric::Cycles:
        return node.cycles;
    case Metric::BytesExchanged:
        return node.bytesExchanged;
    case Metric::Memory:
        return node.memory;
    }
    return 0;
}

QColor DataflowView::colorFor(int index) const {
    const DataflowNode& n = graph_.nodes[static_cast<std::size_t>(index)];
    if (n.kind == DataflowNode::Kind::Step) {
        return heatColor(maxStep_ > 0 ? metricValue(n) / maxStep_ : 0);
    }
    if (metric_ == Metric::Memory) {
        return heatColor(maxTensor_ > 0 ? n.memory / maxTensor_ : 0);
    }
    return n.exchangeBuffer ? QColor(0xd6, 0xf0, 0xf4) : QColor(0xfd, 0xe9, 0xd4);
}

void DataflowView::recolour() {
    maxStep_ = 0;
    maxTensor_ = 0;
    for (const DataflowNode& n : graph_.nodes) {
        if (n.kind == DataflowNode::Kind::Step) {
            maxStep_ = std::max(maxStep_, metricValue(n));
        } else {
            maxTensor_ = std::max(maxTensor_, n.memory);
        }
    }
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
        const DataflowNode& n = graph_.nodes[i];
        const QColor fill = colorFor(static_cast<int>(i));
        nodes_[i]->setFill(fill);
        if (n.kind == DataflowNode::Kind::Tensor) {
            nodes_[i]->setBorder(n.exchangeBuffer
                                     ? categoryColor(record::MemoryCategory::InternalExchangeCode)
                                     : categoryColor(record::MemoryCategory::NotAlwaysLiveVariable),
                                 n.exchangeBuffer ? Qt::DashLine : Qt::SolidLine);
        } else if (n.stepKind == record::ProgramKind::Execute) {
            nodes_[i]->setBorder(fill.darker(150));
        } else {
            nodes_[i]->setBorder(phaseColor(Phase::Exchange), Qt::DashLine);
        }
    }
    const auto high = static_cast<std::uint64_t>(maxStep_);
    switch (metric_) {
    case Metric::Cycles:
        legend_->setRange("Cycles", "0", formatCount(high));
        break;
    case Metric::BytesExchanged:
        legend_->setRange("Bytes received", "0", formatBytes(high));
        break;
    case Metric::Memory:
        legend_->setRange("Memory", "0", formatBytes(high));
        break;
    }
}

void DataflowView::updateMarks() {
    std::vector<bool> marked(nodes_.size(), false);
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
        const DataflowNode& n = graph_.nodes[i];
        const bool isStep = n.kind == DataflowNode::Kind::Step;
        marked[i] = isStep && (record::StepId{n.id} == selectedStep_ ||
                               (!markedComputeSet_.isNone() && n.computeSet == markedComputeSet_));
        const bool matched =
            std::find(matches_.begin(), matches_.end(), static_cast<int>(i)) != matches_.end();
        nodes_[i]->setMarked(marked[i], matched);
    }
    for (std::size_t e = 0; e < edges_.size(); ++e) {
        const auto [from, to] = graph_.edges[e];
        edges_[e]->setHighlighted(marked[static_cast<std::size_t>(from)] ||
                                  marked[static_cast<std::size_t>(to)]);
    }
}

void DataflowView::selectStep(record::StepId stepId) {
    selectedStep_ = stepId;
    int node = !stepId.isNone() ? graph_.stepNode(stepId.value()) : -1;
    if (node < 0 && !stepId.isNone() && scopeNode_ < 0 && data_ &&
        data_->programSteps.size() > kMaxGraphSteps) {
        // Not drawn in the whole-program view or this window: go to its window.
        const auto all = stepsInScope(*data_, *stats_, -1);
        const auto it = std::find(all.begin(), all.end(), stepId.value());
        if (it != all.end()) {
            setScope(-2 -
                     static_cast<int>(static_cast<std::size_t>(it - all.begin()) / kMaxGraphSteps));
            node = graph_.stepNode(stepId.value());
        }
    }
    markedComputeSet_ = record::ComputeSetId::none();
    if (node >= 0) {
        markedComputeSet_ = graph_.nodes[static_cast<std::size_t>(node)].computeSet;
    }
    updateMarks();
    if (node >= 0) {
        centreOn(node);
    }
}

void DataflowView::markComputeSet(record::ComputeSetId computeSet) {
    markedComputeSet_ = computeSet;
    updateMarks();
}

int DataflowView::search(const QString& text) {
    const QString needle = text.trimmed();
    if (needle == lastSearch_ && !matches_.empty()) {
        matchCursor_ = (matchCursor_ + 1) % matches_.size(); // again: the next match
    } else {
        lastSearch_ = needle;
        matches_.clear();
        matchCursor_ = 0;
        for (std::size_t i = 0; i < graph_.nodes.size() && !needle.isEmpty(); ++i) {
            if (QString::fromStdString(graph_.nodes[i].name)
                    .contains(needle, Qt::CaseInsensitive)) {
                matches_.push_back(static_cast<int>(i));
            }
        }
    }
    updateMarks();
    if (matches_.empty()) {
        matchLabel_->setText(needle.isEmpty() ? QString() : QString("no match"));
        return 0;
    }
    matchLabel_->setText(QString("%1 / %2").arg(matchCursor_ + 1).arg(matches_.size()));
    centreOn(matches_[matchCursor_]);
    return static_cast<int>(matches_.size());
}

void DataflowView::centreOn(int index) {
    if (canvas_->zoom() < 0.6) {
        canvas_->zoomBy(0.8 / canvas_->zoom());
    }
    canvas_->centerOn(nodes_[static_cast<std::size_t>(index)]);
}

void DataflowView::zoomBy(double factor) {
    canvas_->zoomBy(factor);
}

void DataflowView::fitAll() {
    const QRectF rect = scene_->sceneRect();
    if (rect.isEmpty()) {
        return;
    }
    canvas_->fitInView(rect, Qt::KeepAspectRatio);
    if (canvas_->zoom() > 1.2) {
        canvas_->zoomBy(1.2 / canvas_->zoom());
    }
}

} // namespace tessera::views
