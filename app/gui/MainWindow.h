#pragma once
// The main window: menus, the panes in tabs, background loading with
// progress and cancel, export, themes, and the shared selection.
#include "views/data/ReportLoader.h"
#include "views/panes/DebugPane.h"

#include <QIcon>
#include <QMainWindow>
#include <QString>
#include <QStringList>

#include <vector>

class QAction;
class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QTabWidget;
class QToolBar;

namespace tessera::views {
struct ReportData;
class Pane;
class Selection;
} // namespace tessera::views

namespace tessera::gui {

class CompareMode;
class ReportWatcher;

class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    static QIcon applicationIcon();

    // Starts loading `path` in the background; false (and a status message)
    // when it is not a readable file. reportOpened or reportFailed follows.
    bool openReport(const QString& path);
    // Loads on the calling thread; false with `error` set on failure.
    bool openReportNow(const QString& path, QString* error = nullptr);
    // File > Reload Report: loads the open report's file again in the
    // background, keeping the current pane, the selection (what still exists)
    // and the comparison. False when no report is open.
    bool reloadReport();
    // File > Close Report: back to the empty window (no report, no comparison).
    void closeReport();
    void cancelLoading();
    bool isLoading() const;
    QString currentReport() const { return currentReport_; }
    // The report and the comparison open now: files no export may write over.
    QStringList openReports() const;
    // What File > Loaded Files and the status bar list: the report, then the
    // comparison (full paths); empty when nothing is open.
    QStringList loadedFiles() const;
    // What is wrong with the open report (or the one that failed to open), one
    // line each: found when loading, or by a pane reading it since. The first
    // is shown in the problem bar above the panes.
    QStringList problems() const { return problems_; }

    QStringList paneNames() const;
    views::Pane* pane(const QString& name) const;
    bool showPane(const QString& name);
    views::Pane* currentPane() const;
    views::Selection* selection() const { return selection_; }

    // No modal dialogs (headless screenshots, tests): errors go to the status bar.
    void setInteractive(bool interactive) { interactive_ = interactive; }
    bool isInteractive() const { return interactive_; }
    // False: nothing of this window is saved to the user's settings (theme,
    // Open Recent, geometry, last pane), as for a headless screenshot; what
    // is saved is still read.
    void setSavesSettings(bool saves) { savesSettings_ = saves; }
    bool savesSettings() const { return savesSettings_; }
    // True (the default): the open report's file is watched and a bar offers
    // to reload it when it changes on disk. Headless screenshots turn it off.
    void setWatchesFiles(bool watches);
    bool watchesFiles() const { return watchesFiles_; }
    ReportWatcher* watcher() const { return watcher_; }
    QToolBar* reloadBar() const { return reloadBar_; }

    // Compare mode (a second report against the open one); see CompareMode.h.
    CompareMode* compareMode() const { return compare_; }
    QTabWidget* paneTabs() const { return paneTabs_; }

    enum class Theme { System, Light, Dark };
    void setTheme(Theme theme);

public slots:
    // Adds a problem of the open report (a pane found it damaged) and shows it.
    void showProblem(const QString& message);

signals:
    void reportOpened(const QString& path);
    void reportFailed(const QString& path, const QString& error);
    void reportClosed();
    // The open report's file changed on disk (the reload bar is showing).
    void reportChangedOnDisk(const QString& path);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    static constexpr const char* kThemeKey = "view/theme"; // the saved theme (settings)
    void createMenus();
    void createViewMenu();
    void createDebugMenu();
    views::DebugPane::StartChoice askBeforeDebugRun();
    void createCentralArea();
    void createStatusWidgets();
    void createProblemBar();
    void createReloadBar();
    void onReportFileChanged(const QString& path);
    void updateLoadedFiles();
    void restoreAfterReload(const QString& paneName);
    void restoreSelection(const views::ReportData& report, record::StepId step, record::TileId tile,
                          record::VariableId variable, record::ComputeSetId computeSet);
    bool showPaneOnly(const QString& name);
    void showOpenDialog();
    void showAbout();
    void rebuildRecentMenu();
    void rebuildExportMenu();
    void readSettings();
    void applyTheme(Theme theme);
    void writeSettings() const;
    void onLoaded(const views::LoadedReport& report, const QString& path);
    void openProducedReport(const QString& path);
    void showError(const QString& title, const QString& message);
    void setProblems(const QStringList& problems);

    QTabWidget* paneTabs_ = nullptr;
    QLabel* hint_ = nullptr;
    QToolBar* problemBar_ = nullptr;
    QLabel* problemLabel_ = nullptr;
    QStringList problems_;
    QMenu* recentMenu_ = nullptr;
    QMenu* exportMenu_ = nullptr;
    QMenu* loadedMenu_ = nullptr;
    QLabel* loadedLabel_ = nullptr;
    QAction* reloadAction_ = nullptr;
    QAction* closeAction_ = nullptr;
    QToolBar* reloadBar_ = nullptr;
    QLabel* reloadLabel_ = nullptr;
    QAction* reloadBarAction_ = nullptr;
    ReportWatcher* watcher_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QPushButton* cancelButton_ = nullptr;
    views::ReportLoader* loader_ = nullptr;
    views::Selection* selection_ = nullptr;
    std::vector<views::Pane*> panes_;
    QString currentReport_;
    QString loadingPath_;
    bool interactive_ = true;
    bool savesSettings_ = true;
    bool watchesFiles_ = true;
    bool reloading_ = false;         // the report being loaded is the open one again
    bool loadingProduced_ = false;   // the report being loaded comes from a pane
    bool currentIsProduced_ = false; // the open report is the Debugger's run so far
    views::LoadedReport loaded_;     // keeps data and source alive for the panes
    CompareMode* compare_ = nullptr;
};

} // namespace tessera::gui
