#pragma once
// The contract between the main window and a pane.
#include <QList>
#include <QString>
#include <QWidget>

#include <memory>

class QAbstractItemModel;

namespace tessera::views {

struct ReportData;
class ReportSource;
class Selection;

// Something the user can export: a plot (PNG, PDF) and/or a table (CSV).
struct ExportTarget {
    QString name;                        // used in file names, e.g. "memory-per-tile"
    QWidget* widget = nullptr;           // rendered to PNG/PDF when set
    QAbstractItemModel* model = nullptr; // written as CSV when set
};

class Pane : public QWidget {
    Q_OBJECT

public:
    using QWidget::QWidget;

    // The name used on the command line (--pane) and in settings: "summary",
    // "memory", "liveness", "program", "execution", "debug".
    virtual QString paneName() const = 0;
    virtual QString title() const = 0; // tab title for people

    // Shows a report (null: none). The source answers on-demand queries.
    virtual void setReport(std::shared_ptr<const ReportData> data,
                           std::shared_ptr<ReportSource> source) = 0;
    // Every pane follows and drives the shared selection.
    virtual void setSelection(Selection* selection) = 0;
    virtual QList<ExportTarget> exportTargets() const = 0;

    // False while the pane still waits for data it fetches in the background;
    // headless screenshots wait for it.
    virtual bool isReady() const { return true; }

    // Zoom shortcuts (Ctrl+=, Ctrl+-, Ctrl+0) go to the current pane.
    virtual void zoomIn() {}
    virtual void zoomOut() {}
    virtual void resetZoom() {}

    // A pane with content of its own (the Debugger) is shown before any report is open.
    virtual bool worksWithoutReport() const { return false; }

signals:
    // A pane that makes reports (the Debugger's run so far) asks the window to
    // open one for the other panes, without leaving the pane.
    void reportProduced(const QString& path);
};

} // namespace tessera::views
