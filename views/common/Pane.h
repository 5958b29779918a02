#pragma once
// The contract between the main window and a pane.
#include "views/data/ReportProblem.h"

#include <QList>
#include <QString>
#include <QWidget>

#include <exception>
#include <memory>
#include <type_traits>

class QAbstractItemModel;

namespace tessera::reports {
struct ReportData;
}

namespace tessera::views {

using reports::ReportData;
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
    // A read of the report failed (the report is damaged): one line naming
    // the file and the problem. The window shows it; the pane shows what it can.
    void problemFound(const QString& message);

protected:
    // Runs `read` (a query through ReportSource, on the GUI thread); if it
    // throws, emits problemFound and returns `fallback`, so no exception
    // leaves an event handler.
    template <class Read, class Result = std::invoke_result_t<Read&>>
    Result readReport(Read&& read, Result fallback = Result()) {
        try {
            return read();
        } catch (const std::exception& e) {
            emit problemFound(problemText(e));
        }
        return fallback;
    }
};

} // namespace tessera::views
