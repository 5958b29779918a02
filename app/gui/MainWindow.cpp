#include "MainWindow.h"

#include "RecentFiles.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QKeySequence>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QUrl>

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
    createCentralArea();
    createMenus();
    statusBar()->showMessage(tr("Ready"));
    readSettings();
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
    setCentralWidget(paneTabs_);
}

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

    fileMenu->addSeparator();
    QAction* quit = fileMenu->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setObjectName(QStringLiteral("actionQuit"));
    quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    quit->setMenuRole(QAction::QuitRole);

    QMenu* helpMenu = menuBar()->addMenu(tr("&Help"));
    helpMenu->setObjectName(QStringLiteral("menuHelp"));
    QAction* about = helpMenu->addAction(tr("&About Tessera"), this, &MainWindow::showAbout);
    about->setObjectName(QStringLiteral("actionAbout"));
    about->setMenuRole(QAction::AboutRole);
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

bool MainWindow::openReport(const QString& path) {
    const QFileInfo info(path);
    if (!info.isFile() || !info.isReadable()) {
        statusBar()->showMessage(tr("Cannot open %1: not a readable file").arg(path));
        RecentFiles::remove(path);
        rebuildRecentMenu();
        return false;
    }
    currentReport_ = info.absoluteFilePath();
    const QString size = QLocale().formattedDataSize(info.size());

    // Until the report panes exist, the first tab shows what was opened.
    hint_->setText(tr("<h2>%1</h2><p>%2</p><p>%3</p>")
                       .arg(info.fileName().toHtmlEscaped(), currentReport_.toHtmlEscaped(), size));
    paneTabs_->setTabText(0, info.fileName());
    paneTabs_->setTabToolTip(0, currentReport_);
    paneTabs_->setCurrentIndex(0);
    setWindowTitle(tr("%1 — Tessera").arg(info.fileName()));
    setWindowFilePath(currentReport_);
    statusBar()->showMessage(tr("%1 (%2)").arg(currentReport_, size));

    RecentFiles::add(currentReport_);
    rebuildRecentMenu();
    emit reportOpened(currentReport_);
    return true;
}

void MainWindow::showOpenDialog() {
    QSettings settings;
    const QString dir = settings.value(QLatin1String(kLastDirKey)).toString();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Report"), dir,
                                                      tr("Tessera reports (*.tsr);;All files (*)"));
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
        openReport(path);
    }
}

void MainWindow::readSettings() {
    const QSettings settings;
    if (!restoreGeometry(settings.value(QLatin1String(kGeometryKey)).toByteArray())) {
        resize(1280, 800);
    }
    restoreState(settings.value(QLatin1String(kStateKey)).toByteArray());
}

void MainWindow::writeSettings() const {
    QSettings settings;
    settings.setValue(QLatin1String(kGeometryKey), saveGeometry());
    settings.setValue(QLatin1String(kStateKey), saveState());
}

} // namespace tessera::gui
