#pragma once
// A model's contents as text, for comparing with literal expected rows.
#include <QAbstractItemModel>
#include <QStringList>

namespace tessera::testing {

// One line per row under `parent`: every column's `role` value as text,
// joined by " | ".
inline QStringList rowTexts(const QAbstractItemModel& m, int role = Qt::DisplayRole,
                            const QModelIndex& parent = {}) {
    QStringList out;
    for (int r = 0; r < m.rowCount(parent); ++r) {
        QStringList cells;
        for (int c = 0; c < m.columnCount(parent); ++c) {
            cells << m.index(r, c, parent).data(role).toString();
        }
        out << cells.join(" | ");
    }
    return out;
}

// One column's `role` values as text, row by row.
inline QStringList columnTexts(const QAbstractItemModel& m, int column, int role = Qt::DisplayRole,
                               const QModelIndex& parent = {}) {
    QStringList out;
    for (int r = 0; r < m.rowCount(parent); ++r) {
        out << m.index(r, column, parent).data(role).toString();
    }
    return out;
}

// Depth first under `parent`, each row indented two spaces a level: every
// column's `role` value as text joined by " | ", or only `column`'s (>= 0).
inline void appendTreeRows(QStringList& out, const QAbstractItemModel& m, int role, int column,
                           const QModelIndex& parent, int depth) {
    for (int r = 0; r < m.rowCount(parent); ++r) {
        QStringList cells;
        for (int c = column < 0 ? 0 : column; c < (column < 0 ? m.columnCount(parent) : column + 1);
             ++c) {
            cells << m.index(r, c, parent).data(role).toString();
        }
        out << QString(depth * 2, ' ') + cells.join(" | ");
        appendTreeRows(out, m, role, column, m.index(r, 0, parent), depth + 1);
    }
}

inline QStringList treeRows(const QAbstractItemModel& m, int role = Qt::DisplayRole,
                            int column = -1) {
    QStringList out;
    appendTreeRows(out, m, role, column, {}, 0);
    return out;
}

} // namespace tessera::testing
