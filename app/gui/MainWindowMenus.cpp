// MainWindow's menus: File (open, recent, reload, close, export), View
// (panes, zoom, theme), Debug (window-wide run controls) and Help.
#include "CompareMode.h"
#include "MainWindow.h"
#include "RecentFiles.h"
#include "views/common/Colors.h"
#include "views/common/Export.h"
#include "views/common/Pane.h"
#include "views/panes/DebugPane.h"
#include "views/panes/debug/RunControls.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QKeySequence>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>

namespace tessera::gui {

void MainWindow::createMenus() {
    QMenu* fileMenu = menuBar()->addMenu(tr("&File"));
    fileMenu->setObjectName(QStringLiteral("menuFile"));

    QAction* open = fileMenu->addAction(tr("&Open…"), this, &MainWindow::showOpenDialog);
    open->setObjectName(QStringLiteral("actionOpen"));
    open->setShortcut(QKeySequence::Open);
    open->setStatusTip(tr("Open a Tessera report"));

    recentMenu_ = fileMenu->addMenu(tr("Open &Recent"));
    recentMenu_->setObjectName(QStringLiteral("menuRecent"));
    rebuildRecentMenu();

    // Ctrl+R, not F5: F5 is the Debugger's Continue.
    reloadAction_ = fileMenu->addAction(tr("Re&load Report"), this, &MainWindow::reloadReport);
    reloadAction_->setObjectName(QStringLiteral("actionReload"));
    reloadAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    reloadAction_->setStatusTip(tr("Load the open report's file again"));
    closeAction_ = fileMenu->addAction(tr("&Close Report"), this, &MainWindow::closeReport);
    closeAction_->setObjectName(QStringLiteral("actionCloseReport"));
    closeAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_W));
    closeAction_->setStatusTip(tr("Close the report (and any comparison)"));
    loadedMenu_ = fileMenu->addMenu(tr("Loaded &Files"));
    loadedMenu_->setObjectName(QStringLiteral("menuLoadedFiles"));
    loadedMenu_->setToolTipsVisible(true);
    fileMenu->addSeparator();
    compare_->addActions(fileMenu);

    exportMenu_ = fileMenu->addMenu(tr("&Export"));
    exportMenu_->setObjectName(QStringLiteral("menuExport"));
    connect(exportMenu_, &QMenu::aboutToShow, this, &MainWindow::rebuildExportMenu);
    rebuildExportMenu();

    fileMenu->addSeparator();
    QAction* quit = fileMenu->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setObjectName(QStringLiteral("actionQuit"));
    quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    quit->setMenuRole(QAction::QuitRole);

    createViewMenu();
    createDebugMenu();

    QMenu* helpMenu = menuBar()->addMenu(tr("&Help"));
    helpMenu->setObjectName(QStringLiteral("menuHelp"));
    QAction* about = helpMenu->addAction(tr("&About Tessera"), this, &MainWindow::showAbout);
    about->setObjectName(QStringLiteral("actionAbout"));
    about->setMenuRole(QAction::AboutRole);
}

void MainWindow::createViewMenu() {
    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->setObjectName(QStringLiteral("menuView"));
    for (std::size_t i = 0; i < panes_.size(); ++i) {
        views::Pane* p = panes_[i];
        QAction* a = view->addAction(p->title(), this, [this, p] { showPane(p->paneName()); });
        a->setObjectName(QStringLiteral("actionPane_") + p->paneName());
        a->setShortcut(
            QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + static_cast<int>(i))));
    }
    view->addSeparator();
    auto zoom = [this](void (views::Pane::*f)()) {
        return [this, f] {
            if (views::Pane* p = currentPane()) {
                (p->*f)();
            }
        };
    };
    QAction* in = view->addAction(tr("Zoom &In"), this, zoom(&views::Pane::zoomIn));
    in->setObjectName(QStringLiteral("actionZoomIn"));
    in->setShortcuts({QKeySequence::ZoomIn, QKeySequence(Qt::CTRL | Qt::Key_Equal)});
    QAction* out = view->addAction(tr("Zoom &Out"), this, zoom(&views::Pane::zoomOut));
    out->setObjectName(QStringLiteral("actionZoomOut"));
    out->setShortcut(QKeySequence::ZoomOut);
    QAction* reset = view->addAction(tr("&Reset Zoom"), this, zoom(&views::Pane::resetZoom));
    reset->setObjectName(QStringLiteral("actionResetZoom"));
    reset->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));

    view->addSeparator();
    QMenu* theme = view->addMenu(tr("&Theme"));
    theme->setObjectName(QStringLiteral("menuTheme"));
    auto* group = new QActionGroup(this);
    const std::pair<Theme, QString> themes[] = {
        {Theme::System, tr("&System")}, {Theme::Light, tr("&Light")}, {Theme::Dark, tr("&Dark")}};
    const int saved = QSettings().value(QLatin1String(kThemeKey), 0).toInt();
    for (const auto& [t, label] : themes) {
        QAction* a = theme->addAction(label);
        a->setCheckable(true);
        a->setChecked(static_cast<int>(t) == saved);
        a->setObjectName(QStringLiteral("actionTheme%1").arg(static_cast<int>(t)));
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, t = t] { setTheme(t); });
    }
}

// The Debugger's run actions in a menu of their own: their shortcuts (Ctrl+F5,
// F5, F10...) then work from anywhere in the window, whichever pane is shown.
void MainWindow::createDebugMenu() {
    auto* debug = qobject_cast<views::DebugPane*>(pane(QStringLiteral("debug")));
    if (debug == nullptr) {
        return;
    }
    QMenu* menu = menuBar()->addMenu(tr("&Debug"));
    menu->setObjectName(QStringLiteral("menuDebug"));
    menu->addActions(debug->controls()->runActions());
    debug->setStartGuard([this] { return askBeforeDebugRun(); });
}

// A debug run shows its steps in the other panes by opening its reports
// there: ask before that replaces a report (or comparison) the user opened.
views::DebugPane::StartChoice MainWindow::askBeforeDebugRun() {
    using Choice = views::DebugPane::StartChoice;
    const bool userReport = !currentReport_.isEmpty() && !currentIsProduced_;
    if (!userReport && !compare_->isActive()) {
        return Choice::ShowRunInPanes;
    }
    if (!interactive_) {
        return Choice::KeepOpenReport; // never replace the user's report unasked
    }
    QString what = QFileInfo(currentReport_).fileName();
    if (compare_->isActive()) {
        what = tr("%1 and its comparison with %2")
                   .arg(what, QFileInfo(compare_->comparisonPath()).fileName());
    }
    QMessageBox box(QMessageBox::Question, tr("Start Debugging"),
                    tr("The debug run can show each pause in the other panes, replacing %1 "
                       "there.")
                        .arg(what),
                    QMessageBox::NoButton, this);
    box.setObjectName(QStringLiteral("debugReplaceDialog"));
    QPushButton* show = box.addButton(tr("Show the Run in All Panes"), QMessageBox::AcceptRole);
    show->setObjectName(QStringLiteral("debugShowRun"));
    QPushButton* keep = box.addButton(tr("Keep %1 Open").arg(QFileInfo(currentReport_).fileName()),
                                      QMessageBox::RejectRole);
    keep->setObjectName(QStringLiteral("debugKeepReport"));
    QPushButton* cancel = box.addButton(QMessageBox::Cancel);
    cancel->setObjectName(QStringLiteral("debugCancelStart"));
    box.setDefaultButton(keep);
    box.setEscapeButton(cancel);
    box.exec();
    return box.clickedButton() == show   ? Choice::ShowRunInPanes
           : box.clickedButton() == keep ? Choice::KeepOpenReport
                                         : Choice::Cancel;
}

void MainWindow::setTheme(Theme theme) {
    if (savesSettings_) {
        QSettings().setValue(QLatin1String(kThemeKey), static_cast<int>(theme));
    }
    applyTheme(theme);
}

void MainWindow::applyTheme(Theme theme) {
    switch (theme) {
    case Theme::System:
        QApplication::setPalette(QApplication::style()->standardPalette());
        break;
    case Theme::Light:
        QApplication::setPalette(views::lightPalette());
        break;
    case Theme::Dark:
        QApplication::setPalette(views::darkPalette());
        break;
    }
}

void MainWindow::rebuildExportMenu() {
    exportMenu_->clear();
    views::Pane* p = currentPane();
    const QList<views::ExportTarget> targets =
        p ? p->exportTargets() : QList<views::ExportTarget>();
    for (const views::ExportTarget& t : targets) {
        auto save = [this, t](const QString& kind, const QString& filter) {
            const QString suggested =
                QFileInfo(currentReport_).completeBaseName() + "-" + t.name + "." + kind;
            const QString path =
                QFileDialog::getSaveFileName(this, tr("Export %1").arg(t.name), suggested, filter);
            if (path.isEmpty()) {
                return;
            }
            QString error;
            if (views::wouldOverwriteInput(path, openReports(), &error)) {
                showError(tr("Export failed"), error);
                return;
            }
            const bool ok = kind == "png"   ? views::exportPng(t.widget, path, &error)
                            : kind == "pdf" ? views::exportPdf(t.widget, path, &error)
                                            : views::exportCsv(t.model, path, &error);
            ok ? statusBar()->showMessage(tr("Exported %1").arg(path))
               : showError(tr("Export failed"), error);
        };
        if (t.widget) {
            exportMenu_->addAction(tr("%1 as PNG…").arg(t.name), this,
                                   [save] { save("png", "PNG images (*.png)"); });
            exportMenu_->addAction(tr("%1 as PDF…").arg(t.name), this,
                                   [save] { save("pdf", "PDF documents (*.pdf)"); });
        }
        if (t.model) {
            exportMenu_->addAction(tr("%1 as CSV…").arg(t.name), this,
                                   [save] { save("csv", "CSV tables (*.csv)"); });
        }
    }
    if (exportMenu_->isEmpty()) {
        exportMenu_->addAction(tr("Nothing to export"))->setEnabled(false);
    }
}

void MainWindow::rebuildRecentMenu() {
    recentMenu_->clear();
    const QStringList files = RecentFiles::list();
    int index = 0;
    for (const QString& path : files) {
        ++index;
        const QString label = QStringLiteral("%1%2  %3")
                                  .arg(index < 10 ? QStringLiteral("&") : QString())
                                  .arg(index)
                                  .arg(QFileInfo(path).fileName());
        QAction* action = recentMenu_->addAction(label, this, [this, path] { openReport(path); });
        action->setData(path);
        action->setStatusTip(path);
        action->setToolTip(path);
    }
    recentMenu_->addSeparator();
    QAction* clear = recentMenu_->addAction(tr("&Clear Menu"), this, [this] {
        RecentFiles::clear();
        rebuildRecentMenu();
    });
    clear->setObjectName(QStringLiteral("actionClearRecent"));
    clear->setEnabled(!files.isEmpty());
    recentMenu_->setEnabled(!files.isEmpty());
}

} // namespace tessera::gui
