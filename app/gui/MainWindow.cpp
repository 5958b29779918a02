// MainWindow: the panes in tabs, opening, reloading and closing reports,
// settings. The menus are in MainWindowMenus.cpp, the bars in MainWindowBars.cpp.
#include "MainWindow.h"

#include "CompareMode.h"
#include "PaneViews.h"
#include "RecentFiles.h"
#include "ReportWatcher.h"
#include "views/common/ContrastStyle.h"
#include "views/common/Pane.h"
#include "views/common/Selection.h"
#include "views/panes/PaneRegistry.h"

#include <QCloseEvent>
#include <QCoreApplication>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QKeySequence>
#include <QLabel>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>
#include <QUrl>

#include <algorithm>
#include <utility>

// Q_INIT_RESOURCE must be used outside any namespace. tessera.qrc is compiled
// into the static tessera_gui library, so it has to be pulled in explicitly.
static void initTesseraResources() {
    Q_INIT_RESOURCE(tessera);
}

namespace tessera::gui {

namespace {
constexpr auto kGeometryKey = "mainWindow/geometry";
constexpr auto kStateKey = "mainWindow/state";
constexpr auto kLastDirKey = "mainWindow/lastDirectory";
constexpr auto kLastPaneKey = "mainWindow/lastPane";

QString firstLocalFile(const QMimeData* mime) {
    if (mime == nullptr || !mime->hasUrls()) {
        return {};
    }
    for (const QUrl& url : mime->urls()) {
        if (url.isLocalFile()) {
            return url.toLocalFile();
        }
    }
    return {};
}
} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent) {
    setObjectName(QStringLiteral("MainWindow"));
    setWindowTitle(QStringLiteral("Tessera"));
    setWindowIcon(applicationIcon());
    setAcceptDrops(true);
    views::useContrastStyle(); // check boxes that show on the dark palette
    selection_ = new views::Selection(this);
    loader_ = new views::ReportLoader(this);
    connect(loader_, &views::ReportLoader::finished, this,
            [this](const views::LoadedReport& report) { onLoaded(report, loadingPath_); });
    createCentralArea();
    createProblemBar();
    createReloadBar();
    createStatusWidgets();
    compare_ = new CompareMode(this, panes_);
    createMenus();
    statusBar()->showMessage(tr("Ready"));
    readSettings();
    problemBar_->setVisible(false); // whatever the saved state said
    reloadBar_->setVisible(false);
    watcher_ = new ReportWatcher(this);
    connect(watcher_, &ReportWatcher::changed, this, &MainWindow::onReportFileChanged);
    connect(compare_, &CompareMode::comparisonOpened, this, &MainWindow::updateLoadedFiles);
    connect(compare_, &CompareMode::comparisonClosed, this, &MainWindow::updateLoadedFiles);
    updateLoadedFiles();
}

MainWindow::~MainWindow() = default;

QIcon MainWindow::applicationIcon() {
    initTesseraResources();
    QIcon icon;
    for (const int size : {16, 32, 48, 64, 128, 256}) {
        icon.addFile(QStringLiteral(":/icons/tessera-%1.png").arg(size), QSize(size, size));
    }
    return icon;
}

void MainWindow::createCentralArea() {
    paneTabs_ = new QTabWidget(this);
    paneTabs_->setObjectName(QStringLiteral("paneTabs"));
    paneTabs_->setDocumentMode(true);

    hint_ = new QLabel(paneTabs_);
    hint_->setObjectName(QStringLiteral("openReportHint"));
    hint_->setAlignment(Qt::AlignCenter);
    hint_->setWordWrap(true);
    hint_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    hint_->setText(tr("<h2>No report open</h2>"
                      "<p>Open a Tessera report (<tt>.tsr</tt>) with <b>File &gt; Open…</b> "
                      "(%1), drop one on this window, or capture one with<br>"
                      "<tt>tessera-cli capture matmul -o matmul.tsr</tt></p>")
                       .arg(QKeySequence(QKeySequence::Open).toString(QKeySequence::NativeText)));
    paneTabs_->addTab(hint_, tr("Start"));
    panes_ = views::createPanes(paneTabs_);
    for (views::Pane* p : panes_) {
        p->setSelection(selection_);
        connect(p, &views::Pane::reportProduced, this, &MainWindow::openProducedReport);
        connect(p, &views::Pane::problemFound, this, &MainWindow::showProblem);
        if (p->worksWithoutReport()) {
            paneTabs_->addTab(p, p->title());
        } else {
            p->hide(); // tabs appear once a report is loaded
        }
    }
    setCentralWidget(paneTabs_);
}

bool MainWindow::openReport(const QString& path) {
    const QFileInfo info(path);
    if (!info.isFile() || !info.isReadable()) {
        const QString message = tr("Cannot open %1: not a readable file").arg(path);
        statusBar()->showMessage(message);
        if (savesSettings_) {
            RecentFiles::remove(path);
            rebuildRecentMenu();
        }
        emit reportFailed(path, message);
        return false;
    }
    loadingPath_ = info.absoluteFilePath();
    loadingProduced_ = false;
    reloading_ = false;
    progress_->setValue(0);
    progress_->setVisible(true);
    cancelButton_->setVisible(true);
    statusBar()->showMessage(tr("Loading %1…").arg(loadingPath_));
    loader_->load(loadingPath_);
    return true;
}

bool MainWindow::openReportNow(const QString& path, QString* error) {
    const QFileInfo info(path);
    loadingProduced_ = false;
    const views::LoadedReport report = views::ReportLoader::loadNow(info.absoluteFilePath());
    onLoaded(report, info.absoluteFilePath());
    if (error) {
        *error = report.error;
    }
    return report.data != nullptr;
}

bool MainWindow::reloadReport() {
    if (currentReport_.isEmpty()) {
        return false;
    }
    reloadBar_->setVisible(false);
    const bool started = openReport(currentReport_);
    reloading_ = started;
    return started;
}

void MainWindow::closeReport() {
    loader_->cancel();
    compare_->close();
    watcher_->stop();
    reloadBar_->setVisible(false);
    const QString closed = currentReport_;
    currentReport_.clear();
    selection_->clear();
    for (views::Pane* p : panes_) {
        p->setReport(nullptr, nullptr);
        if (!p->worksWithoutReport() && paneTabs_->indexOf(p) >= 0) {
            paneTabs_->removeTab(paneTabs_->indexOf(p));
            p->hide();
        }
    }
    loaded_ = {};
    setProblems({});
    if (paneTabs_->indexOf(hint_) < 0) {
        paneTabs_->insertTab(0, hint_, tr("Start"));
    }
    paneTabs_->setCurrentWidget(hint_);
    setWindowTitle(QStringLiteral("Tessera"));
    setWindowFilePath({});
    updateLoadedFiles();
    if (!closed.isEmpty()) {
        statusBar()->showMessage(tr("Closed %1").arg(closed));
    }
    emit reportClosed();
}

void MainWindow::cancelLoading() {
    loader_->cancel();
}

QStringList MainWindow::openReports() const {
    QStringList open{currentReport_};
    if (compare_ != nullptr && compare_->isActive()) {
        open << compare_->comparisonPath();
    }
    return open;
}

bool MainWindow::isLoading() const {
    return loader_->isLoading();
}

void MainWindow::onLoaded(const views::LoadedReport& report, const QString& path) {
    const bool reload = std::exchange(reloading_, false) && path == currentReport_;
    progress_->setVisible(false);
    cancelButton_->setVisible(false);
    if (report.cancelled) {
        statusBar()->showMessage(tr("Loading %1 cancelled").arg(path));
        emit reportFailed(path, tr("cancelled"));
        return;
    }
    if (!report.data) {
        statusBar()->showMessage(report.error);
        setProblems({report.error});
        showError(tr("Cannot open report"), report.error);
        emit reportFailed(path, report.error);
        return;
    }
    // A new baseline: the comparison no longer applies (a reload compares again).
    const QString comparison =
        reload && compare_->isActive() ? compare_->comparisonPath() : QString();
    const QString reloadPane = currentPane() ? currentPane()->paneName() : QString();
    const record::StepId selStep = selection_->step();
    const record::TileId selTile = selection_->tile();
    const record::VariableId selVariable = selection_->variable();
    const record::ComputeSetId selComputeSet = selection_->computeSet();
    compare_->close();
    loaded_ = report;
    // Before the panes get it: they add what they find while reading.
    QStringList problems;
    for (const std::string& p : report.data->problems) {
        problems << QString::fromStdString(p);
    }
    setProblems(problems);
    currentReport_ = path;
    const bool produced = std::exchange(loadingProduced_, false);
    currentIsProduced_ = produced;
    const record::StepId step = selection_->step();
    selection_->clear();
    if (paneTabs_->indexOf(hint_) >= 0 && !panes_.empty()) {
        QWidget* current = paneTabs_->currentWidget();
        paneTabs_->removeTab(paneTabs_->indexOf(hint_));
        hint_->hide();
        for (std::size_t i = 0; i < panes_.size(); ++i) {
            if (paneTabs_->indexOf(panes_[i]) < 0) {
                paneTabs_->insertTab(static_cast<int>(i), panes_[i], panes_[i]->title());
            }
        }
        if (produced && current != hint_) {
            paneTabs_->setCurrentWidget(current);
        }
    }
    for (views::Pane* p : panes_) {
        p->setReport(report.data, report.source);
    }
    if (reload) {
        restoreSelection(*report.data, selStep, selTile, selVariable, selComputeSet);
        restoreAfterReload(reloadPane);
        if (!comparison.isEmpty()) {
            connect(
                compare_, &CompareMode::comparisonOpened, this,
                [this, reloadPane] { restoreAfterReload(reloadPane); }, Qt::SingleShotConnection);
            compare_->compareWith(comparison);
        }
        watcher_->acknowledge();
        updateLoadedFiles();
        statusBar()->showMessage(tr("Reloaded %1").arg(path));
        emit reportOpened(path);
        return;
    }
    if (produced) {
        watcher_->stop();          // the Debugger's run so far: a temporary file
        selection_->setStep(step); // the Debugger's current step
        reloadBar_->setVisible(false);
        updateLoadedFiles();
        statusBar()->showMessage(tr("Run so far: %1").arg(path));
        emit reportOpened(path);
        return; // the user stays in the pane; a temporary report is no recent file
    }
    // The pane the user last looked at; the Summary with fresh settings (not
    // whichever tab happened to be current, such as the Debugger).
    const QString last = QSettings().value(QLatin1String(kLastPaneKey)).toString();
    if (last.isEmpty() || !showPane(last)) {
        showPane(QStringLiteral("summary"));
    }
    const QFileInfo info(path);
    setWindowTitle(tr("%1 — Tessera").arg(info.fileName()));
    setWindowFilePath(path);
    statusBar()->showMessage(tr("%1 — %2 on %3 tiles")
                                 .arg(path, QString::fromStdString(report.data->target.name))
                                 .arg(report.data->target.numTiles));
    if (savesSettings_) {
        RecentFiles::add(path);
        rebuildRecentMenu();
    }
    reloadBar_->setVisible(false);
    if (watchesFiles_) {
        watcher_->watch(path);
    }
    updateLoadedFiles();
    emit reportOpened(path);
}

// What was selected before a reload, where it still exists in the new report.
void MainWindow::restoreSelection(const views::ReportData& report, record::StepId step,
                                  record::TileId tile, record::VariableId variable,
                                  record::ComputeSetId computeSet) {
    if (!step.isNone() && report.step(step) != nullptr) {
        selection_->setStep(step);
    }
    if (!tile.isNone() && tile.value() < report.target.numTiles) {
        selection_->setTile(tile);
    }
    if (!variable.isNone() && report.variable(variable) != nullptr) {
        selection_->setVariable(variable);
    }
    const bool computeSetExists = std::any_of(report.computeSets.begin(), report.computeSets.end(),
                                              [&](const auto& c) { return c.id == computeSet; });
    if (!computeSet.isNone() && computeSetExists) {
        selection_->setComputeSet(computeSet);
    }
}

void MainWindow::restoreAfterReload(const QString& paneName) {
    if (!paneName.isEmpty()) {
        showPane(paneName);
    }
}

void MainWindow::openProducedReport(const QString& path) {
    loadingProduced_ = true;
    loadingPath_ = path;
    loader_->load(path);
}

void MainWindow::showError(const QString& title, const QString& message) {
    if (!interactive_) {
        return;
    }
    auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("errorDialog"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open(); // not modal-blocking: the window stays responsive
}

QStringList MainWindow::paneNames() const {
    QStringList names;
    for (const views::Pane* p : panes_) {
        names << p->paneName();
    }
    return names;
}

views::Pane* MainWindow::pane(const QString& name) const {
    if (views::Pane* p = compare_->pane(name)) {
        return p;
    }
    for (views::Pane* p : panes_) {
        if (p->paneName() == name) {
            return p;
        }
    }
    return nullptr;
}

bool MainWindow::showPane(const QString& name) {
    const QString view = viewOf(name);
    if (!showPaneOnly(paneOf(name))) {
        return false;
    }
    return view.isEmpty() || showPaneView(pane(paneOf(name)), view);
}

bool MainWindow::showPaneOnly(const QString& name) {
    views::Pane* p = pane(name);
    if (!p || paneTabs_->indexOf(p) < 0) {
        return false;
    }
    paneTabs_->setCurrentWidget(p);
    return true;
}

views::Pane* MainWindow::currentPane() const {
    return qobject_cast<views::Pane*>(paneTabs_->currentWidget());
}

void MainWindow::showOpenDialog() {
    QSettings settings;
    const QString dir = settings.value(QLatin1String(kLastDirKey)).toString();
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Report"), dir, tr("Tessera reports (*.tsr *.pop);;All files (*)"));
    if (path.isEmpty()) {
        return;
    }
    settings.setValue(QLatin1String(kLastDirKey), QFileInfo(path).absolutePath());
    openReport(path);
}

void MainWindow::showAbout() {
    QMessageBox::about(
        this, tr("About Tessera"),
        tr("<h3>Tessera %1</h3>"
           "<p>A tile-level profiler and visual debugger for bulk-synchronous programs "
           "written in the Poplar style.</p>"
           "<p>Built with Qt %2.</p>")
            .arg(QCoreApplication::applicationVersion(), QString::fromLatin1(qVersion())));
}

void MainWindow::closeEvent(QCloseEvent* event) {
    loader_->cancel();
    writeSettings();
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (!firstLocalFile(event->mimeData()).isEmpty()) {
        event->acceptProposedAction();
    }
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QString path = firstLocalFile(event->mimeData());
    if (!path.isEmpty()) {
        event->acceptProposedAction();
        // With Shift or Ctrl held, a dropped report becomes the comparison.
        const bool compare = event->modifiers() & (Qt::ShiftModifier | Qt::ControlModifier);
        if (compare && !currentReport_.isEmpty()) {
            compare_->compareWith(path);
        } else {
            openReport(path);
        }
    }
}

void MainWindow::readSettings() {
    const QSettings settings;
    if (!restoreGeometry(settings.value(QLatin1String(kGeometryKey)).toByteArray())) {
        resize(1400, 900);
    }
    restoreState(settings.value(QLatin1String(kStateKey)).toByteArray());
    const int theme = settings.value(QLatin1String(kThemeKey), 0).toInt();
    if (theme > 0 && theme <= static_cast<int>(Theme::Dark)) {
        applyTheme(static_cast<Theme>(theme)); // read, not written back
    }
}

void MainWindow::writeSettings() const {
    if (!savesSettings_) {
        return;
    }
    QSettings settings;
    settings.setValue(QLatin1String(kGeometryKey), saveGeometry());
    settings.setValue(QLatin1String(kStateKey), saveState());
    if (const views::Pane* p = currentPane()) {
        settings.setValue(QLatin1String(kLastPaneKey), p->paneName());
    }
}

} // namespace tessera::gui
