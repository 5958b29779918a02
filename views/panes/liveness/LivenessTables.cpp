#include "views/panes/liveness/LivenessTables.h"

#include "reports/Figures.h"
#include "views/common/FillingColumn.h"
#include "views/common/Format.h"
#include "views/common/IdNumbers.h"
#include "views/models/ProgramKinds.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStringList>
#include <QTableView>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace tessera::views {

namespace {

constexpr const char* kNoStepText = "Click a step in the plot to list the variables live there.";

void setupView(QAbstractItemView* view) {
    view->setAlternatingRowColors(true);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setTextElideMode(Qt::ElideMiddle);
    view->setIconSize(QSize(9, 9));
}

QTableView* makeTable() {
    auto* view = new QTableView;
    setupView(view);
    view->setSortingEnabled(true);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setStretchLastSection(false);
    view->horizontalHeader()->setHighlightSections(false);
    view->setWordWrap(false);
    return view;
}

QSortFilterProxyModel* makeProxy(QAbstractItemModel* model, QObject* parent) {
    auto* proxy = new QSortFilterProxyModel(parent);
    proxy->setSourceModel(model);
    proxy->setSortRole(kSortRole);
    proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    proxy->setFilterKeyColumn(0);
    return proxy;
}

// Columns fit their contents; the first (names) within bounds, and it takes
// the width the others leave (unless the last column already stretches).
void fitColumns(QHeaderView* h, QAbstractItemView* view) {
    for (int c = 0; c < h->count(); ++c) {
        if (auto* tree = qobject_cast<QTreeView*>(view)) {
            tree->resizeColumnToContents(c);
        } else if (auto* table = qobject_cast<QTableView*>(view)) {
            table->resizeColumnToContents(c);
        }
    }
    if (h->count() > 0) {
        h->resizeSection(0, std::clamp(h->sectionSize(0), 160, 420));
        h->setSectionResizeMode(0, QHeaderView::Interactive);
    }
    if (h->stretchLastSection()) {
        return;
    }
    if (auto* filling =
            view->viewport()->findChild<FillingColumn*>(QString(), Qt::FindDirectChildrenOnly)) {
        filling->refit();
    } else {
        FillingColumn::install(view, h);
    }
}
void fitColumns(QTableView* view) {
    fitColumns(view->horizontalHeader(), view);
}
void fitColumns(QTreeView* view) {
    fitColumns(view->header(), view);
}

// A page: a row of header text and controls over a view.
QWidget* makePage(QLabel*& header, const QList<QWidget*>& controls, QWidget* view,
                  QWidget* below = nullptr) {
    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(4, 6, 4, 4);
    auto* top = new QHBoxLayout;
    header = new QLabel;
    header->setTextFormat(Qt::RichText);
    header->setWordWrap(true);
    // A long header wraps rather than widening the window.
    header->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    header->setMinimumWidth(80);
    top->addWidget(header, 1);
    for (QWidget* c : controls) {
        top->addWidget(c);
    }
    layout->addLayout(top);
    layout->addWidget(view, 1);
    if (below) {
        layout->addWidget(below, 1);
    }
    return page;
}

QLineEdit* makeFilter() {
    auto* filter = new QLineEdit;
    filter->setPlaceholderText("Filter variables");
    filter->setClearButtonEnabled(true);
    filter->setMaximumWidth(260);
    filter->setMinimumWidth(90);
    return filter;
}

} // namespace

LivenessTables::LivenessTables(QWidget* parent)
    : QTabWidget(parent) {
    setObjectName("livenessTables");
    setDocumentMode(true);
    setUsesScrollButtons(true); // five tabs never widen the window
    live_.flat = new LiveVariablesModel(this);
    always_.flat = new LiveVariablesModel(this);
    comparison_ = new StepComparisonModel(this);
    vertices_ = new StepVerticesModel(this);
    cycles_ = new StepCyclesModel(this);

    addTab(makeVariablePage(live_), "Live at step");
    addTab(makeVariablePage(always_), "Always-live");
    addTab(makeVerticesPage(), "Vertices");
    addTab(makeCyclesPage(), "Cycle Estimates");
    addTab(makeComparisonPage(), "Compare steps");

    live_.header->setText(kNoStepText);
    comparisonHeader_->setText(
        "Ctrl+click two or more steps in the plot to compare their live variables.");
    setGrouped(true); // sets the views' models, then their selection is followed
    connectSelection(live_.view);
    connectSelection(always_.view);
    connectSelection(comparisonView_);
}

QWidget* LivenessTables::makeVariablePage(VariablePage& page) {
    page.tree = new LiveVariablesTreeModel(page.flat, this);
    page.filter = makeFilter();
    page.grouped = new QCheckBox("Group by name");
    page.grouped->setToolTip(
        "Group the variables by their debug-name hierarchy (\"/\"-separated), or list them flat");
    page.view = new QTreeView;
    setupView(page.view);
    page.view->setSortingEnabled(true);
    page.view->setUniformRowHeights(true);
    page.view->header()->setStretchLastSection(false);
    page.view->header()->setHighlightSections(false);
    page.view->sortByColumn(LiveVariablesModel::Bytes, Qt::DescendingOrder);
    page.flatProxy = makeProxy(page.flat, this);
    page.treeProxy = makeProxy(page.tree, this);
    // A group stays while any variable under it matches; variables match by full name.
    page.treeProxy->setRecursiveFilteringEnabled(true);
    page.treeProxy->setFilterRole(LiveVariablesTreeModel::kPathRole);
    for (auto* proxy : {page.flatProxy, page.treeProxy}) {
        connect(page.filter, &QLineEdit::textChanged, proxy,
                &QSortFilterProxyModel::setFilterFixedString);
    }
    connect(page.grouped, &QCheckBox::toggled, this, &LivenessTables::setGrouped);
    QLabel* header = nullptr;
    QWidget* widget = makePage(header, {page.grouped, page.filter}, page.view);
    page.header = header;
    return widget;
}

QWidget* LivenessTables::makeComparisonPage() {
    auto* buttons = new QWidget;
    auto* buttonRow = new QHBoxLayout(buttons);
    buttonRow->setContentsMargins(0, 0, 0, 0);
    auto* add = new QPushButton("Add selected step");
    add->setToolTip("Compare the selected step too (or Ctrl+click steps in the plot)");
    auto* clear = new QPushButton("Clear");
    buttonRow->addWidget(add);
    buttonRow->addWidget(clear);
    connect(add, &QPushButton::clicked, this, &LivenessTables::addStepRequested);
    connect(clear, &QPushButton::clicked, this, &LivenessTables::clearComparisonRequested);
    comparisonFilter_ = makeFilter();
    comparisonView_ = makeTable();
    comparisonProxy_ = makeProxy(comparison_, this);
    comparisonView_->setModel(comparisonProxy_);
    connect(comparisonFilter_, &QLineEdit::textChanged, comparisonProxy_,
            &QSortFilterProxyModel::setFilterFixedString);
    return makePage(comparisonHeader_, {buttons, comparisonFilter_}, comparisonView_);
}

QWidget* LivenessTables::makeVerticesPage() {
    verticesView_ = makeTable();
    verticesProxy_ = makeProxy(vertices_, this);
    verticesView_->setModel(verticesProxy_);
    verticesView_->sortByColumn(StepVerticesModel::Vertices, Qt::DescendingOrder);
    return makePage(verticesHeader_, {}, verticesView_);
}

QWidget* LivenessTables::makeCyclesPage() {
    cyclesView_ = makeTable();
    cyclesView_->setSortingEnabled(false); // phases in their order
    cyclesView_->setModel(cycles_);
    cyclesView_->setMinimumHeight(cyclesView_->verticalHeader()->defaultSectionSize() * 2);
    // Each codelet's estimate, beside how many vertices of it the step runs.
    estimatesView_ = makeTable();
    estimatesProxy_ = makeProxy(vertices_, this);
    estimatesView_->setModel(estimatesProxy_);
    estimatesView_->sortByColumn(StepVerticesModel::Vertices, Qt::DescendingOrder);
    for (const int c :
         {StepVerticesModel::Tiles, StepVerticesModel::StateBytes, StepVerticesModel::CodeBytes}) {
        estimatesView_->setColumnHidden(c, true);
    }
    estimatesView_->horizontalHeader()->setStretchLastSection(true);
    estimatesView_->setMinimumHeight(estimatesView_->verticalHeader()->defaultSectionSize() * 2);
    return makePage(cyclesHeader_, {}, cyclesView_, estimatesView_);
}

void LivenessTables::connectSelection(QAbstractItemView* view) {
    // Group rows have no variable id.
    auto activate = [this, view](const QModelIndex& index) {
        const QVariant id = view->model()->data(index, kIdRole);
        if (id.isValid()) {
            emit variableActivated(idFromVariant<record::VariableId>(id));
        }
    };
    connect(view, &QAbstractItemView::clicked, this, activate);
    // The selection model changes with the view's model: connected once per model.
    auto follow = [this, view, activate] {
        connect(view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
                [view, activate](const QModelIndex& current) {
                    if (current.isValid() && view->hasFocus()) {
                        activate(current);
                    }
                });
    };
    follow();
    if (auto* tree = qobject_cast<QTreeView*>(view)) {
        connect(this, &LivenessTables::groupingChanged, tree, follow);
    }
}

void LivenessTables::setGrouped(bool grouped) {
    const bool changed = grouped != grouped_ || !live_.view->model();
    grouped_ = grouped;
    for (VariablePage* page : {&live_, &always_}) {
        {
            const QSignalBlocker block(page->grouped);
            page->grouped->setChecked(grouped);
        }
        if (changed) {
            page->view->setModel(grouped ? page->treeProxy : page->flatProxy);
            page->view->setRootIsDecorated(grouped);
            showVariables(*page);
        }
    }
    if (changed) {
        emit groupingChanged(grouped);
    }
}

// After the variables or the grouping changed: columns fit, and a lone top
// group is opened (everything under "fwd/" would otherwise be one closed row).
void LivenessTables::showVariables(VariablePage& page) {
    QAbstractItemModel* shown = page.view->model();
    if (grouped_ && shown->rowCount() == 1) {
        page.view->expand(shown->index(0, 0));
    }
    fitColumns(page.view);
}

void LivenessTables::setReport(std::shared_ptr<const ReportData> reportData,
                               std::shared_ptr<const VariableLookup> lookup) {
    data_ = std::move(reportData);
    lookup_ = std::move(lookup);
    std::vector<record::VariableId> always;
    if (data_) {
        for (const auto& v : data_->variables) {
            if (v.alwaysLive && !v.isConstant) {
                always.push_back(v.id);
            }
        }
    }
    always_.flat->setVariables(data_, lookup_, always);
    always_.header->setText(
        data_
            ? QString(
                  "<b>%1</b> always-live variables, <b>%2</b> over all tiles: live at every step.")
                  .arg(formatCount(always.size()), formatBytes(always_.flat->totalBytes()))
            : QString());
    showVariables(always_);
    clearStep();
    showComparison({}, {});
}

void LivenessTables::showStep(record::StepId step, const std::vector<record::VariableId>& live,
                              double stepBytes, const reports::StepTiles* tiles) {
    live_.flat->setVariables(data_, lookup_, live);
    const auto* entry = data_ ? data_->step(step) : nullptr;
    QString text = QString("Step <b>%1</b>").arg(step.value());
    if (entry) {
        text += QString(" · %1 <b>%2</b>")
                    .arg(programKindText(entry->kind),
                         QString::fromStdString(entry->name).toHtmlEscaped());
    }
    text += QString(" — %1 live variables, %2")
                .arg(formatCount(live_.flat->rowCount()), formatBytes(live_.flat->totalBytes()));
    if (stepBytes >= 0) {
        text += QString(" (not-always-live on all tiles: %1)")
                    .arg(formatBytes(static_cast<std::uint64_t>(stepBytes)));
    }
    live_.header->setText(text);
    showVariables(live_);
    showVertices(step);
    showCycles(step, tiles);
}

void LivenessTables::showVertices(record::StepId step) {
    vertices_->setStep(data_, step);
    const auto* entry = data_ ? data_->step(step) : nullptr;
    if (!entry) {
        verticesHeader_->setText(kNoStepText);
    } else if (vertices_->computeSet().isNone()) {
        verticesHeader_->setText(QString("Step <b>%1</b> · %2 runs no vertices: it has no "
                                         "compute set.")
                                     .arg(step.value())
                                     .arg(programKindText(entry->kind)));
    } else {
        verticesHeader_->setText(
            QString("Step <b>%1</b> · compute set <b>%2</b>: %3 vertices of %4 on %5 of %6 tiles")
                .arg(step.value())
                .arg(QString::fromStdString(data_->computeSetName(vertices_->computeSet()))
                         .toHtmlEscaped(),
                     formatCount(vertices_->totalVertices()),
                     vertices_->rowCount() == 1
                         ? QString("1 codelet")
                         : QString("%1 codelets")
                               .arg(formatCount(static_cast<std::uint64_t>(vertices_->rowCount()))),
                     formatCount(vertices_->tilesUsed()), formatCount(data_->target.numTiles)));
    }
    fitColumns(verticesView_);
}

void LivenessTables::showCycles(record::StepId step, const reports::StepTiles* tiles) {
    if (!tiles) {
        cycles_->clear();
        cyclesHeader_->setText(
            data_ && data_->step(step)
                ? QString("The cycles per tile of step %1 cannot be read.").arg(step.value())
                : QString(kNoStepText));
        return;
    }
    cycles_->setTiles(*tiles);
    const auto& compute = cycles_->stats(StepCyclesModel::Compute);
    QString text = QString("Step <b>%1</b>: <b>%2</b> cycles on every tile")
                       .arg(step.value())
                       .arg(formatCount(cycles_->totalCycles()));
    if (compute.max > 0) {
        text += QString(" · compute balance %1 (mean ÷ max over tiles)")
                    .arg(formatPercent(
                        reports::tileBalance(compute.mean, static_cast<double>(compute.max))));
    }
    if (vertices_->rowCount() > 0) {
        text += QString("<br>Cycle estimates of the step's codelets, per vertex:");
    }
    cyclesHeader_->setText(text);
    fitColumns(cyclesView_);
    fitColumns(estimatesView_);
    int h = cyclesView_->horizontalHeader()->sizeHint().height() + 2 * cyclesView_->frameWidth();
    for (int r = 0; r < cycles_->rowCount(); ++r) {
        h += cyclesView_->rowHeight(r);
    }
    // All three phases when there is room; in a short window it scrolls
    // rather than hold the pane tall.
    cyclesView_->setMaximumHeight(h);
}

void LivenessTables::clearStep() {
    live_.flat->setVariables(nullptr, nullptr, {});
    live_.header->setText(kNoStepText);
    vertices_->clear();
    cycles_->clear();
    verticesHeader_->setText(kNoStepText);
    cyclesHeader_->setText(kNoStepText);
}

void LivenessTables::showComparison(const std::vector<record::StepId>& steps,
                                    const std::vector<std::vector<record::VariableId>>& live) {
    if (steps.empty()) {
        comparison_->clear();
        comparisonHeader_->setText(
            "Ctrl+click two or more steps in the plot to compare their live variables.");
        return;
    }
    comparison_->setComparison(data_, lookup_, steps, live);
    comparisonView_->horizontalHeader()->setSortIndicator(-1,
                                                          Qt::AscendingOrder); // the model's order
    const auto& t = comparison_->totals();
    if (steps.size() == 1) {
        comparisonHeader_->setText(QString("Step <b>%1</b> — Ctrl+click another step to compare.")
                                       .arg(steps.front().value()));
    } else {
        comparisonHeader_->setText(QString("Step <b>%1</b> → <b>%2</b>: %3")
                                       .arg(steps.front().value())
                                       .arg(steps.back().value())
                                       .arg(liveChangeText(t.born, t.bornBytes, t.died, t.diedBytes,
                                                           t.bytesAt.front(), t.bytesAt.back())));
    }
    fitColumns(comparisonView_);
}

void LivenessTables::selectVariable(record::VariableId id) {
    for (const VariablePage* page : {&live_, &always_}) {
        QModelIndex source;
        if (!id.isNone() && grouped_) {
            source = page->tree->indexOfVariable(id.value());
        } else if (!id.isNone()) {
            const int row = page->flat->rowOfVariable(id);
            source = row < 0 ? QModelIndex() : page->flat->index(row, 0);
        }
        auto* proxy = grouped_ ? page->treeProxy : page->flatProxy;
        const QModelIndex index = source.isValid() ? proxy->mapFromSource(source) : QModelIndex();
        if (index.isValid()) {
            page->view->selectionModel()->setCurrentIndex(
                index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            page->view->scrollTo(index); // opens the groups above it
        } else {
            page->view->clearSelection();
        }
    }
}

QAbstractItemModel* LivenessTables::liveShown() const {
    return live_.view->model();
}
QAbstractItemModel* LivenessTables::alwaysLiveShown() const {
    return always_.view->model();
}
QAbstractItemModel* LivenessTables::comparisonShown() const {
    return comparisonProxy_;
}
QAbstractItemModel* LivenessTables::verticesShown() const {
    return verticesProxy_;
}
QAbstractItemModel* LivenessTables::cyclesShown() const {
    return cycles_;
}

namespace {
QString variables(std::uint64_t n) {
    return n == 1 ? QString("1 variable") : QString("%1 variables").arg(formatCount(n));
}
} // namespace

QString liveChangeText(std::uint64_t born, std::uint64_t bornBytes, std::uint64_t died,
                       std::uint64_t diedBytes, std::uint64_t firstBytes, std::uint64_t lastBytes) {
    QStringList parts;
    if (born > 0) {
        parts << QString("<span style='color:#b2182b'>+%1 (%2)</span> became live")
                     .arg(variables(born), formatBytes(bornBytes));
    }
    if (died > 0) {
        parts << QString("<span style='color:#2166ac'>−%1 (%2)</span> became dead")
                     .arg(variables(died), formatBytes(diedBytes));
    }
    if (parts.isEmpty()) {
        parts << QString("the same variables are live");
    }
    const QString sign = lastBytes > firstBytes ? "+" : lastBytes < firstBytes ? "−" : "";
    const std::uint64_t net =
        lastBytes > firstBytes ? lastBytes - firstBytes : firstBytes - lastBytes;
    return parts.join(", ") + QString("; net %1%2").arg(sign, formatBytes(net));
}

} // namespace tessera::views
