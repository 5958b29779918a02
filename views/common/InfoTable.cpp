#include "views/common/InfoTable.h"

#include "views/common/Card.h"
#include "views/models/ModelRoles.h"

#include <QGridLayout>
#include <QHeaderView>
#include <QTableWidget>

namespace tessera::views {

QGridLayout* addInfoGrid(QBoxLayout* body) {
    auto* grid = new QGridLayout;
    grid->setHorizontalSpacing(16);
    grid->setVerticalSpacing(3);
    body->addLayout(grid);
    return grid;
}

void setInfoRows(QGridLayout* grid, const QList<InfoRow>& rows) {
    while (QLayoutItem* item = grid->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    int r = 0;
    for (const InfoRow& row : rows) {
        auto* key = makeMuted(row.key);
        auto* value = new QLabel(row.value);
        value->setObjectName(row.name);
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        // Long values are clipped (full text in the tooltip) rather than
        // widening the card or wrapping out of it.
        value->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
        value->setToolTip(row.value);
        if (row.color.isValid()) {
            value->setText(QString("<b style='color:%1'>%2</b>")
                               .arg(row.color.name(), row.value.toHtmlEscaped()));
        }
        grid->addWidget(key, r, 0, Qt::AlignLeft | Qt::AlignTop);
        grid->addWidget(value, r, 1, Qt::AlignTop);
        ++r;
    }
    grid->setColumnStretch(1, 1);
}

QTableWidget* makeCompactTable(const QStringList& headers, QWidget* parent) {
    auto* t = new QTableWidget(0, static_cast<int>(headers.size()), parent);
    t->setHorizontalHeaderLabels(headers);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setSelectionMode(QAbstractItemView::SingleSelection);
    t->setFocusPolicy(Qt::NoFocus);
    t->verticalHeader()->hide();
    t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 6);
    t->horizontalHeader()->setHighlightSections(false);
    t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    t->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    t->setFrameShape(QFrame::NoFrame);
    t->setShowGrid(false);
    t->setAlternatingRowColors(true);
    t->setWordWrap(false);
    t->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    t->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    return t;
}

QTableWidgetItem* compactCell(const QString& text, bool alignRight, const QColor& decoration) {
    auto* item = new QTableWidgetItem(text);
    item->setTextAlignment(alignRight ? (Qt::AlignRight | Qt::AlignVCenter)
                                      : (Qt::AlignLeft | Qt::AlignVCenter));
    if (decoration.isValid()) {
        item->setData(Qt::DecorationRole, decoration);
    }
    return item;
}

QTableWidgetItem* numberCell(const QString& text, const QVariant& raw) {
    QTableWidgetItem* item = compactCell(text, true);
    item->setData(kSortRole, raw);
    return item;
}

void setColumnUnits(QTableWidget* table, const QList<QPair<int, QString>>& units) {
    for (const auto& [column, unit] : units) {
        if (QTableWidgetItem* header = table->horizontalHeaderItem(column)) {
            header->setData(kUnitRole, unit);
        }
    }
}

void fitTableHeight(QTableWidget* table) {
    int h = table->horizontalHeader()->sizeHint().height() + 2;
    for (int r = 0; r < table->rowCount(); ++r) {
        h += table->rowHeight(r);
    }
    table->setFixedHeight(h);
}

} // namespace tessera::views
