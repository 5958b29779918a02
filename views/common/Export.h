#pragma once
// Exporting what a pane shows: a widget to PNG (device-pixel correct) or PDF
// (vector where the widget paints vectors), a model to CSV.
#include <QString>

class QAbstractItemModel;
class QWidget;

namespace tessera::views {

// Each returns false and sets `error` (one line) on failure.
bool exportPng(QWidget* widget, const QString& path, QString* error = nullptr);
bool exportPdf(QWidget* widget, const QString& path, QString* error = nullptr);
bool exportCsv(const QAbstractItemModel* model, const QString& path, QString* error = nullptr);
// The CSV text of a model (header row, then every row; fields quoted when needed).
// A tree model is written depth first, each row led by its depth (0: top level).
QString toCsv(const QAbstractItemModel* model);

} // namespace tessera::views
