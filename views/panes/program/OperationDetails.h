#pragma once
// The details under the operations tree, in PopVision's tabs: Summary (the
// totals of the operations shown when nothing is selected, else the
// selection's figures), Program steps (double-click one to select it
// everywhere), Code (code size and vertices per codelet), Cycles (per step:
// total, compute, exchange, sync) and Debug (debug name path, layer, library
// function).
#include "views/models/OperationsTree.h"

#include <QTabWidget>

#include <memory>

class QLabel;
class QTableView;
class QTableWidget;

namespace tessera::views {

class OperationFlopsModel;

class OperationDetails : public QTabWidget {
    Q_OBJECT

public:
    enum Tab { SummaryTab, StepsTab, CodeTab, CyclesTab, FlopsTab, DebugTab };

    explicit OperationDetails(QWidget* parent = nullptr);

    void setProgram(std::shared_ptr<const ReportData> reportData,
                    std::shared_ptr<const ProgramStats> programStats);
    void showTotals(const OperationsTree& tree); // nothing selected
    void showRow(const OperationRow& row);

    QLabel* summary() const { return summary_; }
    QTableWidget* steps() const { return steps_; }
    QTableWidget* code() const { return code_; }
    QTableWidget* cycles() const { return cycles_; }
    QTableView* flops() const { return flops_; }
    OperationFlopsModel* flopsModel() const { return flopsModel_; }
    QLabel* debug() const { return debug_; }

signals:
    void stepActivated(tessera::record::StepId stepId);

private:
    void clearTables();

    std::shared_ptr<const ReportData> data_;
    std::shared_ptr<const ProgramStats> stats_;
    QLabel* summary_ = nullptr;
    QTableWidget* steps_ = nullptr;
    QTableWidget* code_ = nullptr;
    QTableWidget* cycles_ = nullptr;
    OperationFlopsModel* flopsModel_ = nullptr;
    QTableView* flops_ = nullptr;
    QLabel* debug_ = nullptr;
};

} // namespace tessera::views
