#include "views/compare/CompareWidgets.h"

#include "views/common/Format.h"
#include "views/compare/models/CompareTableModel.h"

#include <QHeaderView>
#include <QTableView>

namespace tessera::views {

CompareFilterModel::CompareFilterModel(QObject* parent)
    : QSortFilterProxyModel(parent) {
    setSortRole(kSortRole);
}

void CompareFilterModel::setChangedOnly(bool changedOnly) {
    if (changedOnly_ != changedOnly) {
        changedOnly_ = changedOnly;
        invalidateFilter();
    }
}

bool CompareFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    if (!changedOnly_) {
        return true;
    }
    const QAbstractItemModel* m = sourceModel();
    for (int c = 0; c < m->columnCount(sourceParent); ++c) {
        if (m->headerData(c, Qt::Horizontal).toString() == QStringLiteral("Change")) {
            return m->index(sourceRow, c, sourceParent).data(kSortRole).toString() !=
                   QStringLiteral("same");
        }
    }
    return true;
}

QTableView* makeCompareTable(QAbstractItemModel* model, const QString& objectName,
                             QWidget* parent) {
    auto* view = new QTableView(parent);
    view->setObjectName(objectName);
    view->setModel(model);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setAlternatingRowColors(true);
    view->setShowGrid(false);
    view->setWordWrap(false);
    view->setSortingEnabled(true);
    view->sortByColumn(-1, Qt::AscendingOrder); // the diff's own order until a header is clicked
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setHighlightSections(false);
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view->horizontalHeader()->setStretchLastSection(true);
    return view;
}

QString describeSide(const reports::SideInfo& side) {
    QStringList parts;
    if (!side.workload.empty()) {
        QString w = QString::fromStdString(side.workload);
        QStringList params;
        for (const auto& [k, v] : side.workloadParameters) {
            params << QString::fromStdString(k + "=" + v);
        }
        if (!params.isEmpty()) {
            w += QStringLiteral(" (%1)").arg(params.join(QStringLiteral(", ")));
        }
        parts << w;
    }
    parts << QString::fromStdString(side.target)
          << QStringLiteral("%1 tiles").arg(formatCount(side.tiles))
          << QString::fromStdString(side.path);
    if (!side.complete) {
        parts << QStringLiteral("incomplete");
    }
    return parts.join(QStringLiteral(" · "));
}

} // namespace tessera::views
