#pragma once
// Small read-only tables for overview cards: a key / value grid (muted keys,
// selectable values that clip instead of widening their card) and compact
// QTableWidgets sized to their rows (no inner scrolling).
#include <QColor>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QVariant>

class QBoxLayout;
class QGridLayout;
class QTableWidget;
class QTableWidgetItem;
class QWidget;

namespace tessera::views {

struct InfoRow {
    QString key;
    QString value;
    QString name = {}; // objectName of the value's label (for tests)
    QColor color = {}; // bold and coloured when valid
};

// A key / value grid appended to `body`.
QGridLayout* addInfoGrid(QBoxLayout* body);
// Replaces the grid's rows.
void setInfoRows(QGridLayout* grid, const QList<InfoRow>& rows);

// A compact, read-only, row-selecting table; the first column stretches.
QTableWidget* makeCompactTable(const QStringList& headers, QWidget* parent);
QTableWidgetItem* compactCell(const QString& text, bool alignRight = false,
                              const QColor& decoration = {});
// A right-aligned cell showing `text` whose raw number (kSortRole) CSV export writes.
QTableWidgetItem* numberCell(const QString& text, const QVariant& raw);
// Marks columns of `table` numeric for CSV export: column -> unit ("" for a count).
void setColumnUnits(QTableWidget* table, const QList<QPair<int, QString>>& units);
// Fixes the table's height to its header and rows.
void fitTableHeight(QTableWidget* table);

} // namespace tessera::views
