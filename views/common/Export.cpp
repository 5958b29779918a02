#include "views/common/Export.h"

#include "reports/OutputFile.h"
#include "reports/ReportError.h"
#include "views/models/ModelRoles.h"

#include <QAbstractItemModel>
#include <QBuffer>
#include <QFile>
#include <QFileInfo>
#include <QPainter>
#include <QPdfWriter>
#include <QPixmap>
#include <QSaveFile>
#include <QStorageInfo>
#include <QTextStream>
#include <QWidget>

#include <algorithm>
#include <filesystem>
#include <vector>

namespace tessera::views {

namespace {

QString csvField(QString s) {
    if (s.contains(',') || s.contains('"') || s.contains('\n')) {
        s.replace("\"", "\"\"");
        return '"' + s + '"';
    }
    return s;
}

bool fail(QString* error, const QString& message) {
    if (error) {
        *error = message;
    }
    return false;
}

// QSaveFile writes a temporary beside `path` and renames it only on commit(),
// so a failed export leaves the previous file (or none), never a cut one.
bool commit(QSaveFile& file, qint64 bytesTried, QString* error) {
    if (file.commit()) {
        return true;
    }
    // Qt reports ENOSPC as strerror's text; say it the way every Tessera write does.
    const QStorageInfo storage(QFileInfo(file.fileName()).absolutePath());
    const bool full =
        storage.isValid() && storage.bytesAvailable() < std::max<qint64>(bytesTried, 1);
    return fail(error,
                QStringLiteral("cannot write %1: %2")
                    .arg(file.fileName(), full ? QStringLiteral("disk full") : file.errorString()));
}

bool open(QSaveFile& file, QString* error) {
    if (!file.open(QIODevice::WriteOnly)) {
        return fail(error,
                    QStringLiteral("cannot write %1: %2").arg(file.fileName(), file.errorString()));
    }
    return true;
}

} // namespace

bool wouldOverwriteInput(const QString& output, const QStringList& inputs, QString* error) {
    std::vector<std::filesystem::path> paths;
    for (const QString& input : inputs) {
        if (!input.isEmpty()) {
            paths.emplace_back(QFile::encodeName(input).toStdString());
        }
    }
    try {
        reports::refuseToOverwriteInput(QFile::encodeName(output).toStdString(), paths);
    } catch (const reports::ReportError& e) {
        return !fail(error, QString::fromUtf8(e.what()));
    }
    return false;
}

bool exportPng(QWidget* widget, const QString& path, QString* error) {
    if (!widget) {
        return fail(error, "nothing to export");
    }
    const QPixmap pixmap = widget->grab();
    QBuffer png;
    png.open(QIODevice::WriteOnly);
    if (!pixmap.save(&png, "PNG")) {
        return fail(error, "cannot encode the image as PNG");
    }
    QSaveFile file(path);
    if (!open(file, error)) {
        return false;
    }
    file.write(png.data());
    return commit(file, png.size(), error);
}

bool exportPdf(QWidget* widget, const QString& path, QString* error) {
    if (!widget) {
        return fail(error, "nothing to export");
    }
    QSaveFile file(path);
    if (!open(file, error)) {
        return false;
    }
    {
        QPdfWriter writer(&file);
        writer.setResolution(96);
        writer.setPageSize(QPageSize(QSizeF(widget->width(), widget->height()), QPageSize::Point));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        QPainter painter;
        if (!painter.begin(&writer)) {
            file.cancelWriting();
            return fail(error, "cannot write " + path);
        }
        const double scale =
            std::min(painter.device()->width() / double(std::max(1, widget->width())),
                     painter.device()->height() / double(std::max(1, widget->height())));
        painter.scale(scale, scale);
        widget->render(&painter);
        painter.end();
    }
    return commit(file, file.size(), error);
}

namespace {

bool isTree(const QAbstractItemModel* model) {
    for (int r = 0; r < model->rowCount(); ++r) {
        if (model->hasChildren(model->index(r, 0))) {
            return true;
        }
    }
    return false;
}

// A numeric column's raw number: integers as they are, others with all
// the digits a double has; empty when the row has none.
QString rawNumber(const QVariant& v) {
    switch (v.typeId()) {
    case QMetaType::Double:
    case QMetaType::Float:
        return QString::number(v.toDouble(), 'g', 17);
    default:
        return v.isValid() ? v.toString() : QString();
    }
}

// Rows beneath `parent`, depth first; a tree's rows start with their depth.
// Numeric columns (a kUnitRole header) are written raw, others as shown.
void writeRows(const QAbstractItemModel* model, const QModelIndex& parent, int depth, bool tree,
               const std::vector<bool>& numeric, QTextStream& s) {
    const int columns = model->columnCount(parent);
    for (int r = 0; r < model->rowCount(parent); ++r) {
        if (tree) {
            s << depth << ",";
        }
        for (int c = 0; c < columns; ++c) {
            const QModelIndex i = model->index(r, c, parent);
            const bool raw = std::size_t(c) < numeric.size() && numeric[std::size_t(c)];
            s << (c ? "," : "")
              << csvField(raw ? rawNumber(i.data(kSortRole)) : i.data().toString());
        }
        s << "\n";
        if (tree) {
            writeRows(model, model->index(r, 0, parent), depth + 1, tree, numeric, s);
        }
    }
}

} // namespace

QString toCsv(const QAbstractItemModel* model) {
    QString out;
    QTextStream s(&out);
    const bool tree = isTree(model);
    if (tree) {
        s << "Depth,";
    }
    const int columns = model->columnCount();
    std::vector<bool> numeric(std::size_t(std::max(columns, 0)));
    for (int c = 0; c < columns; ++c) {
        QString header = model->headerData(c, Qt::Horizontal).toString().simplified();
        const QVariant unit = model->headerData(c, Qt::Horizontal, kUnitRole);
        numeric[std::size_t(c)] = unit.isValid();
        if (!unit.toString().isEmpty()) {
            header += QStringLiteral(" (%1)").arg(unit.toString());
        }
        s << (c ? "," : "") << csvField(header);
    }
    s << "\n";
    writeRows(model, {}, 0, tree, numeric, s);
    return out;
}

bool exportCsv(const QAbstractItemModel* model, const QString& path, QString* error) {
    if (!model) {
        return fail(error, "nothing to export");
    }
    QSaveFile file(path);
    if (!open(file, error)) {
        return false;
    }
    const QByteArray text = toCsv(model).toUtf8();
    file.write(text);
    return commit(file, text.size(), error);
}

} // namespace tessera::views
