#include "views/common/Export.h"

#include <QAbstractItemModel>
#include <QFile>
#include <QPainter>
#include <QPdfWriter>
#include <QPixmap>
#include <QTextStream>
#include <QWidget>

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

} // namespace

bool exportPng(QWidget* widget, const QString& path, QString* error) {
    if (!widget) {
        return fail(error, "nothing to export");
    }
    const QPixmap pixmap = widget->grab();
    if (!pixmap.save(path, "PNG")) {
        return fail(error, "cannot write " + path);
    }
    return true;
}

bool exportPdf(QWidget* widget, const QString& path, QString* error) {
    if (!widget) {
        return fail(error, "nothing to export");
    }
    QPdfWriter writer(path);
    writer.setResolution(96);
    writer.setPageSize(QPageSize(QSizeF(widget->width(), widget->height()), QPageSize::Point));
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));
    QPainter painter;
    if (!painter.begin(&writer)) {
        return fail(error, "cannot write " + path);
    }
    const double scale =
        std::min(painter.device()->width() / double(std::max(1, widget->width())),
                 painter.device()->height() / double(std::max(1, widget->height())));
    painter.scale(scale, scale);
    widget->render(&painter);
    painter.end();
    return true;
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

// Rows beneath `parent`, depth first; a tree's rows start with their depth.
void writeRows(const QAbstractItemModel* model, const QModelIndex& parent, int depth, bool tree,
               QTextStream& s) {
    const int columns = model->columnCount(parent);
    for (int r = 0; r < model->rowCount(parent); ++r) {
        if (tree) {
            s << depth << ",";
        }
        for (int c = 0; c < columns; ++c) {
            s << (c ? "," : "") << csvField(model->data(model->index(r, c, parent)).toString());
        }
        s << "\n";
        if (tree) {
            writeRows(model, model->index(r, 0, parent), depth + 1, tree, s);
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
    for (int c = 0; c < columns; ++c) {
        s << (c ? "," : "") << csvField(model->headerData(c, Qt::Horizontal).toString());
    }
    s << "\n";
    writeRows(model, {}, 0, tree, s);
    return out;
}

bool exportCsv(const QAbstractItemModel* model, const QString& path, QString* error) {
    if (!model) {
        return fail(error, "nothing to export");
    }
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text)) {
        return fail(error, "cannot write " + path + ": " + file.errorString());
    }
    file.write(toCsv(model).toUtf8());
    return true;
}

} // namespace tessera::views
