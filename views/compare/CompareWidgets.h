#pragma once
// Small pieces the compare panes share: a sortable table over a
// CompareTableModel that can hide unchanged rows, and one-line descriptions
// of the two sides.
#include "reports/Compare.h"

#include <QSortFilterProxyModel>
#include <QString>

class QTableView;
class QWidget;

namespace tessera::views {

class CompareTableModel;

// Sorts on raw values (kSortRole); with changedOnly, hides rows whose
// "Change" column says "same".
class CompareFilterModel : public QSortFilterProxyModel {
    Q_OBJECT

public:
    explicit CompareFilterModel(QObject* parent = nullptr);
    void setChangedOnly(bool changedOnly);
    bool changedOnly() const { return changedOnly_; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    bool changedOnly_ = false;
};

// A read-only, row-selecting, sortable table (keeps the model's order until a
// header is clicked).
QTableView* makeCompareTable(QAbstractItemModel* model, const QString& objectName, QWidget* parent);

// "matmul · mk2 · 1,472 tiles · /path/new.tsr"
QString describeSide(const reports::SideInfo& side);

} // namespace tessera::views
