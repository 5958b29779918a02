#include "views/panes/program/OperationDetails.h"

#include "views/common/Format.h"
#include "views/common/IdNumbers.h"
#include "views/models/ModelRoles.h"
#include "views/models/OperationFlopsModel.h"
#include "views/models/ProgramKinds.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QTableWidget>

namespace tessera::views {

namespace {

QLabel* makeText() {
    auto* label = new QLabel;
    label->setTextFormat(Qt::RichText);
    label->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setWordWrap(true);
    label->setMargin(6);
    return label;
}

// The details tabs' tables: whole rows selected one at a time, the first
// column (the names) stretched.
template <typename Table>
Table* styled(Table* table) {
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setAlternatingRowColors(true);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    return table;
}

QTableWidget* makeTable(const QStringList& headers) {
    auto* table = new QTableWidget(0, static_cast<int>(headers.size()));
    table->setHorizontalHeaderLabels(headers);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    return styled(table);
}

QTableView* makeFlopsTable(QAbstractItemModel* model) {
    auto* table = new QTableView;
    table->setModel(model);
    return styled(table);
}

QTableWidgetItem* text(const QString& s) {
    return new QTableWidgetItem(s);
}

QTableWidgetItem* number(const QString& shown, qulonglong raw) {
    auto* item = new QTableWidgetItem(shown);
    item->setData(kSortRole, raw);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QString row(const QString& key, const QString& value) {
    return QString("<tr><td><b>%1</b></td><td align=right>&nbsp;&nbsp;%2</td></tr>")
        .arg(key, value);
}

} // namespace

OperationDetails::OperationDetails(QWidget* parent)
    : QTabWidget(parent) {
    setDocumentMode(true);
    summary_ = makeText();
    steps_ = makeTable({"Step", "Kind", "Executions", "Cycles"});
    steps_->setToolTip("Double-click a step to select it in every pane");
    code_ = makeTable({"Codelet", "Code per tile", "Tiles", "Code size", "Vertices"});
    cycles_ = makeTable({"Step", "Executions", "Cycles", "Compute", "Exchange", "Sync"});
    flopsModel_ = new OperationFlopsModel(this);
    flops_ = makeFlopsTable(flopsModel_);
    flops_->setToolTip(steps_->toolTip());
    debug_ = makeText();
    addTab(summary_, "Summary");
    addTab(steps_, "Program steps");
    addTab(code_, "Code");
    addTab(cycles_, "Cycles");
    addTab(flops_, "FLOPs");
    addTab(debug_, "Debug");
    connect(steps_, &QTableWidget::cellDoubleClicked, this, [this](int r, int) {
        if (auto* item = steps_->item(r, 0)) {
            emit stepActivated(idFromVariant<record::StepId>(item->data(kIdRole)));
        }
    });
    connect(flops_, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        if (const QVariant id = index.data(kIdRole); id.isValid()) { // not the Total row
            emit stepActivated(idFromVariant<record::StepId>(id));
        }
    });
}

void OperationDetails::setProgram(std::shared_ptr<const ReportData> reportData,
                                  std::shared_ptr<const ProgramStats> programStats) {
    data_ = std::move(reportData);
    stats_ = std::move(programStats);
    clearTables();
}

void OperationDetails::clearTables() {
    for (auto* table : {steps_, code_, cycles_}) {
        table->setRowCount(0);
    }
    flopsModel_->clear();
}

void OperationDetails::showTotals(const OperationsTree& tree) {
    clearTables();
    summary_->setText(
        "Click on an operation above to display its details.<br><table>" +
        row("Total operations", formatCount(static_cast<std::uint64_t>(tree.operationCount))) +
        row("Total code size", formatBytes(tree.total.codeBytes)) +
        row("Total cycles", formatCount(tree.total.cycles)) + "</table>");
    debug_->setText("Select an operation to see its debug context.");
    setTabEnabled(StepsTab, false);
    setTabEnabled(CodeTab, false);
    setTabEnabled(CyclesTab, false);
    setTabEnabled(FlopsTab, false);
    setCurrentIndex(SummaryTab);
}

void OperationDetails::showRow(const OperationRow& r) {
    if (!data_ || !stats_) {
        return;
    }
    for (int t = StepsTab; t <= FlopsTab; ++t) {
        setTabEnabled(t, true);
    }
    const OperationFigures& f = r.figures;
    const bool group = r.node < 0;
    summary_->setText(
        QString("<b>%1</b> %2<table>")
            .arg(group ? "Group" : "Operation",
                 QString::fromStdString(r.debugName.empty() ? r.label : r.debugName)
                     .toHtmlEscaped()) +
        (group ? row("Operations", formatCount(static_cast<std::uint64_t>(r.operations))) : "") +
        row("Code size", formatBytes(f.codeBytes)) + row("Cycles", formatCount(f.cycles)) +
        row("FLOPs", formatCount(f.flops)) + row("Memory (peak)", formatBytes(f.peakMemory)) +
        row("Vertices", formatCount(f.vertices)) +
        row("Program steps", formatCount(std::uint64_t{f.steps})) + "</table>");

    steps_->setRowCount(static_cast<int>(r.steps.size()));
    cycles_->setRowCount(static_cast<int>(r.steps.size()));
    for (std::size_t i = 0; i < r.steps.size(); ++i) {
        const auto s = static_cast<std::size_t>(r.steps[i]);
        const auto& step = data_->programSteps[s];
        const std::uint64_t runs = stats_->stepExecutions[s];
        const int at = static_cast<int>(i);
        auto* name = text(QString::fromStdString(step.name));
        name->setData(kIdRole, idVariant(step.id));
        steps_->setItem(at, 0, name);
        steps_->setItem(at, 1, text(programKindText(step.kind)));
        steps_->setItem(at, 2, number(formatCount(runs), runs));
        steps_->setItem(at, 3,
                        number(formatCount(step.totalCycles * runs), step.totalCycles * runs));
        cycles_->setItem(at, 0, text(QString::fromStdString(step.name)));
        cycles_->setItem(at, 1, number(formatCount(runs), runs));
        const std::uint64_t phase[4] = {step.totalCycles, step.computePhaseCycles,
                                        step.exchangePhaseCycles, step.syncCycles};
        for (int c = 0; c < 4; ++c) {
            cycles_->setItem(at, 2 + c, number(formatCount(phase[c] * runs), phase[c] * runs));
        }
    }
    const auto uses = codeletsOf(*data_, *stats_, r.steps);
    code_->setRowCount(static_cast<int>(uses.size()));
    for (std::size_t i = 0; i < uses.size(); ++i) {
        const auto& u = uses[i];
        const int at = static_cast<int>(i);
        code_->setItem(at, 0, text(QString::fromStdString(u.name)));
        code_->setItem(at, 1, number(formatBytes(u.codeBytesPerTile), u.codeBytesPerTile));
        code_->setItem(at, 2, number(formatCount(std::uint64_t{u.tiles}), u.tiles));
        code_->setItem(at, 3, number(formatBytes(u.codeBytes()), u.codeBytes()));
        code_->setItem(at, 4, number(formatCount(u.vertices), u.vertices));
    }
    flopsModel_->setSteps(*data_, *stats_, r.steps);
    for (auto* table : {steps_, code_, cycles_}) {
        table->resizeColumnsToContents();
    }
    flops_->resizeColumnsToContents();

    QString debug = row("Debug name", QString::fromStdString(r.debugName).toHtmlEscaped());
    debug += row("Path", QString::fromStdString(r.debugName).toHtmlEscaped().replace("/", " → "));
    if (group) {
        debug += row("Layer", "a group of operations by debug-name prefix");
    } else {
        const auto& node = data_->programNodes[static_cast<std::size_t>(r.node)];
        debug += row("Layer", QString::fromStdString(layerName(node.layer)) +
                                  (node.layer == record::OperationLayer::Unknown
                                       ? " (the report predates recorded layers)"
                                       : ""));
        debug += row("Library function", !node.libraryFunction.empty()
                                             ? QString::fromStdString(node.libraryFunction)
                                         : node.layer == record::OperationLayer::Application
                                             ? QString("none (the application's own block)")
                                             : QString("not recorded"));
        debug += row("Options", "not recorded by Tessera");
        debug += row("Block node", QString::number(node.id.value()));
    }
    debug_->setText("<table>" + debug + "</table>");
}

} // namespace tessera::views
