#pragma once
// The Operations tab of the Program pane, laid out as PopVision's: a layer
// chooser and a filter box over the operations tree (OperationsModel), and
// the details tabs (OperationDetails) under it.
#include "views/models/OperationsTree.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTreeView;

namespace tessera::views {

class ColumnChooser;
class OperationDetails;
class OperationsModel;

class OperationsView : public QWidget {
    Q_OBJECT

public:
    explicit OperationsView(QWidget* parent = nullptr);

    void setProgram(std::shared_ptr<const ReportData> reportData,
                    std::shared_ptr<const ProgramStats> programStats);
    void setLayer(LayerFilter layer); // as if chosen in the layer box

    QComboBox* layerBox() const { return layerBox_; }
    QLineEdit* filter() const { return filter_; }
    ColumnChooser* columnChooser() const { return columns_; }
    QLabel* summary() const { return summary_; }
    QTreeView* view() const { return view_; }
    OperationsModel* model() const { return model_; }
    QSortFilterProxyModel* proxy() const { return proxy_; }
    OperationDetails* details() const { return details_; }

signals:
    void operationSelected(int nodePosition);           // an operation row became current
    void operationActivated(int nodePosition);          // double-clicked
    void stepActivated(tessera::record::StepId stepId); // double-clicked in the Program steps tab

private:
    void layoutColumns();
    void refreshSummary();
    void currentChanged(const QModelIndex& proxyIndex);

    QComboBox* layerBox_ = nullptr;
    QLineEdit* filter_ = nullptr;
    ColumnChooser* columns_ = nullptr;
    QLabel* summary_ = nullptr;
    QTreeView* view_ = nullptr;
    OperationsModel* model_ = nullptr;
    QSortFilterProxyModel* proxy_ = nullptr;
    OperationDetails* details_ = nullptr;
};

} // namespace tessera::views
