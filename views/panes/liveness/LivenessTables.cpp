#include "views/panes/liveness/LivenessTables.h"

#include "views/common/Format.h"
#include "views/models/ProgramKinds.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStringList>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace tessera::views {

namespace {

void setupTable(QTableView* view) {
    view->setSortingEnabled(true);
    view->setAlternatingRowColors(true);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setStretchLastSection(false);
    view->horizontalHeader()->setHighlightSections(false);
    view->setWordWrap(false);
    view->setTextElideMode(Qt::ElideMiddle);
    view->setIconSize(QSize(9, 9));
}

void fitColumns(QTableView* view) {
    view->resizeColumnsToContents();
    QHeaderView* h = view->horizontalHeader();
    if (h->count() > 0) {
        h->resizeSection(0, std::clamp(h->sectionSize(0), 160, 420));
        h->setSectionResizeMode(0, QHeaderView::Interactive);
    }
}

} // namespace

LivenessTables::LivenessTables(QWidget* parent)
    : QTabWidget(parent) {
    setObjectName("livenessTables");
    setDocumentMode(true);
    live_ = new LiveVariablesModel(this);
    alwaysLive_ = new LiveVariablesModel(this);
    comparison_ = new StepComparisonModel(this);

    addTab(makePage(stepHeader_, liveFilter_, liveView_, live_, liveProxy_), "Live at step");
    addTab(makePage(alwaysHeader_, alwaysFilter_, alwaysView_, alwaysLive_, alwaysProxy_),
           "Always-live");

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
    addTab(makePage(comparisonHeader_, comparisonFilter_, comparisonView_, comparison_,
                    comparisonProxy_, buttons),
           "Compare steps");

    liveView_->sortByColumn(LiveVariablesModel::Bytes, Qt::DescendingOrder);
    alwaysView_->sortByColumn(LiveVariablesModel::Bytes, Qt::DescendingOrder);
    stepHeader_->setText("Click a step in the plot to list the variables live there.");
    comparisonHeader_->setText(
        "Ctrl+click two or more steps in the plot to compare their live variables.");
    connectSelection(liveView_);
    connectSelection(alwaysView_);
    connectSelection(comparisonView_);
}

QWidget* LivenessTables::makePage(QLabel*& header, QLineEdit*& filter, QTableView*& view,
                                  QAbstractItemModel* model, QSortFilterProxyModel*& proxy,
                                  QWidget* extra) {
    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(4, 6, 4, 4);
    auto* top = new QHBoxLayout;
    header = new QLabel;
    header->setTextFormat(Qt::RichText);
    header->setWordWrap(true);
    filter = new QLineEdit;
    filter->setPlaceholderText("Filter variables");
    filter->setClearButtonEnabled(true);
    filter->setMaximumWidth(260);
    top->addWidget(header, 1);
    if (extra) {
        top->addWidget(extra);
    }
    top->addWidget(filter);
    layout->addLayout(top);
    proxy = new QSortFilterProxyModel(page);
    proxy->setSourceModel(model);
    proxy->setSortRole(kSortRole);
    proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    proxy->setFilterKeyColumn(0);
    view = new QTableView;
    setupTable(view);
    view->setModel(proxy);
    layout->addWidget(view, 1);
    connect(filter, &QLineEdit::textChanged, proxy, &QSortFilterProxyModel::setFilterFixedString);
    return page;
}

void LivenessTables::connectSelection(QTableView* view) {
    connect(view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this, view](const QModelIndex& current) {
                if (current.isValid() && view->hasFocus()) {
                    emit variableActivated(view->model()->data(current, kIdRole).toInt());
                }
            });
    connect(view, &QTableView::clicked, this, [this, view](const QModelIndex& index) {
        emit variableActivated(view->model()->data(index, kIdRole).toInt());
    });
}

void LivenessTables::setReport(std::shared_ptr<const ReportData> reportData,
                               std::shared_ptr<const VariableLookup> lookup) {
    data_ = std::move(reportData);
    lookup_ = std::move(lookup);
    std::vector<std::uint32_t> always;
    if (data_) {
        for (const auto& v : data_->variables) {
            if (v.alwaysLive && !v.isConstant) {
                always.push_back(v.id);
            }
        }
    }
    alwaysLive_->setVariables(data_, lookup_, always);
    alwaysView_->sortByColumn(LiveVariablesModel::Bytes, Qt::DescendingOrder);
    alwaysHeader_->setText(
        data_
            ? QString(
                  "<b>%1</b> always-live variables, <b>%2</b> over all tiles: live at every step.")
                  .arg(formatCount(always.size()), formatBytes(alwaysLive_->totalBytes()))
            : QString());
    fitColumns(alwaysView_);
    clearStep();
    showComparison({}, {});
}

void LivenessTables::showStep(std::uint32_t step, const std::vector<std::uint32_t>& live,
                              double stepBytes) {
    live_->setVariables(data_, lookup_, live);
    const auto* entry = data_ ? data_->step(step) : nullptr;
    QString text = QString("Step <b>%1</b>").arg(step);
    if (entry) {
        text += QString(" · %1 <b>%2</b>")
                    .arg(programKindText(entry->kind),
                         QString::fromStdString(entry->name).toHtmlEscaped());
    }
    text += QString(" — %1 live variables, %2")
                .arg(formatCount(live_->rowCount()), formatBytes(live_->totalBytes()));
    if (stepBytes >= 0) {
        text += QString(" (not-always-live on all tiles: %1)")
                    .arg(formatBytes(static_cast<std::uint64_t>(stepBytes)));
    }
    stepHeader_->setText(text);
    fitColumns(liveView_);
}

void LivenessTables::clearStep() {
    live_->setVariables(nullptr, nullptr, {});
    stepHeader_->setText("Click a step in the plot to list the variables live there.");
}

void LivenessTables::showComparison(const std::vector<std::uint32_t>& steps,
                                    const std::vector<std::vector<std::uint32_t>>& live) {
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
        comparisonHeader_->setText(
            QString("Step <b>%1</b> — Ctrl+click another step to compare.").arg(steps.front()));
    } else {
        comparisonHeader_->setText(QString("Step <b>%1</b> → <b>%2</b>: %3")
                                       .arg(steps.front())
                                       .arg(steps.back())
                                       .arg(liveChangeText(t.born, t.bornBytes, t.died, t.diedBytes,
                                                           t.bytesAt.front(), t.bytesAt.back())));
    }
    fitColumns(comparisonView_);
}

void LivenessTables::selectVariable(int id) {
    for (auto [view, model] : {std::pair{liveView_, live_}, std::pair{alwaysView_, alwaysLive_}}) {
        const int row = id < 0 ? -1 : model->rowOfVariable(static_cast<std::uint32_t>(id));
        auto* proxy = qobject_cast<QSortFilterProxyModel*>(view->model());
        const QModelIndex index =
            row < 0 ? QModelIndex() : proxy->mapFromSource(model->index(row, 0));
        if (index.isValid()) {
            view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect |
                                                               QItemSelectionModel::Rows);
            view->scrollTo(index);
        } else {
            view->clearSelection();
        }
    }
}

QAbstractItemModel* LivenessTables::liveShown() const {
    return liveProxy_;
}
QAbstractItemModel* LivenessTables::alwaysLiveShown() const {
    return alwaysProxy_;
}
QAbstractItemModel* LivenessTables::comparisonShown() const {
    return comparisonProxy_;
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
