#pragma once
// Exporting what a pane shows: a widget to PNG (device-pixel correct) or PDF
// (vector where the widget paints vectors), a model to CSV.
#include <QString>
#include <QStringList>

class QAbstractItemModel;
class QWidget;

namespace tessera::views {

// Each writes a temporary beside `path` and renames it into place when
// complete: a failure leaves the previous file as it was. Each returns false
// and sets `error` (one line: "cannot write PATH: disk full") on failure.
bool exportPng(QWidget* widget, const QString& path, QString* error = nullptr);
bool exportPdf(QWidget* widget, const QString& path, QString* error = nullptr);
bool exportCsv(const QAbstractItemModel* model, const QString& path, QString* error = nullptr);
// True (with `error` set) when `output` is the same file as one of `inputs`
// (compared by identity: links and other spellings of a path count): an
// export must never write over the report it shows.
bool wouldOverwriteInput(const QString& output, const QStringList& inputs, QString* error);
// The CSV text of a model (header row, then every row; fields quoted when needed).
// A tree model is written depth first, each row led by its depth (0: top level).
QString toCsv(const QAbstractItemModel* model);

} // namespace tessera::views
