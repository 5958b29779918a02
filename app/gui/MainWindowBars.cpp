// MainWindow's bars: the problem bar (what is wrong with the report), the
// reload bar (the file changed on disk) and the status bar's widgets
// (loading progress, the loaded files).
#include "CompareMode.h"
#include "MainWindow.h"
#include "ReportWatcher.h"

#include <QAction>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>

namespace tessera::gui {

// A bar above the panes saying what is wrong with the report: one line, the
// first problem (the others in its tooltip). Hidden while there is none.
void MainWindow::createProblemBar() {
    problemBar_ = new QToolBar(tr("Report problems"), this);
    problemBar_->setObjectName(QStringLiteral("problemBar"));
    problemBar_->setMovable(false);
    problemBar_->setFloatable(false);
    problemBar_->toggleViewAction()->setVisible(false);
    auto* icon = new QLabel(problemBar_);
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(16, 16));
    icon->setContentsMargins(6, 0, 4, 0);
    problemBar_->addWidget(icon);
    problemLabel_ = new QLabel(problemBar_);
    problemLabel_->setObjectName(QStringLiteral("problemLabel"));
    problemLabel_->setTextFormat(Qt::PlainText);
    problemLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // As wide as the bar, never wider than the window (a long line is cut;
    // the tooltip has it all).
    problemLabel_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    problemLabel_->setMinimumWidth(1);
    problemBar_->addWidget(problemLabel_);
    addToolBar(Qt::TopToolBarArea, problemBar_);
}

void MainWindow::setProblems(const QStringList& problems) {
    problems_ = problems;
    problems_.removeDuplicates();
    problemBar_->setVisible(!problems_.isEmpty());
    if (problems_.isEmpty()) {
        problemLabel_->clear();
        problemLabel_->setToolTip({});
        return;
    }
    const QString more = problems_.size() > 1
                             ? tr(" (and %n more problem(s))", nullptr, problems_.size() - 1)
                             : QString();
    problemLabel_->setText(problems_.front() + more);
    problemLabel_->setToolTip(problems_.join('\n'));
}

void MainWindow::showProblem(const QString& message) {
    if (message.isEmpty() || problems_.contains(message)) {
        return;
    }
    setProblems(problems_ + QStringList{message});
    statusBar()->showMessage(message);
}

// A non-modal bar offering to reload the open report when its file changed
// on disk (autoReport rewrote it): the user decides when, nothing is lost.
void MainWindow::createReloadBar() {
    addToolBarBreak(Qt::TopToolBarArea);
    reloadBar_ = new QToolBar(tr("Report changed on disk"), this);
    reloadBar_->setObjectName(QStringLiteral("reloadBar"));
    reloadBar_->setMovable(false);
    reloadBar_->setFloatable(false);
    reloadBar_->toggleViewAction()->setVisible(false);
    auto* icon = new QLabel(reloadBar_);
    icon->setPixmap(style()->standardIcon(QStyle::SP_BrowserReload).pixmap(16, 16));
    icon->setContentsMargins(6, 0, 4, 0);
    reloadBar_->addWidget(icon);
    reloadLabel_ = new QLabel(reloadBar_);
    reloadLabel_->setObjectName(QStringLiteral("reloadLabel"));
    reloadLabel_->setTextFormat(Qt::PlainText);
    reloadLabel_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    reloadLabel_->setMinimumWidth(1);
    reloadBar_->addWidget(reloadLabel_);
    reloadBarAction_ = reloadBar_->addAction(tr("Reload"), this, &MainWindow::reloadReport);
    reloadBarAction_->setObjectName(QStringLiteral("reloadBarReload"));
    QAction* dismiss = reloadBar_->addAction(tr("Dismiss"), reloadBar_, &QWidget::hide);
    dismiss->setObjectName(QStringLiteral("reloadBarDismiss"));
    addToolBar(Qt::TopToolBarArea, reloadBar_);
}

void MainWindow::onReportFileChanged(const QString& path) {
    if (path != currentReport_) {
        return;
    }
    const bool exists = QFileInfo::exists(path);
    reloadLabel_->setText(exists ? tr("%1 changed on disk.").arg(path)
                                 : tr("%1 was deleted or moved; the report shown is the one "
                                      "loaded before.")
                                       .arg(path));
    reloadLabel_->setToolTip(path);
    reloadBarAction_->setEnabled(exists);
    reloadBar_->setVisible(true);
    emit reportChangedOnDisk(path);
}

void MainWindow::setWatchesFiles(bool watches) {
    watchesFiles_ = watches;
    if (!watches) {
        watcher_->stop();
        reloadBar_->setVisible(false);
    } else if (!currentReport_.isEmpty() && !watcher_->isWatching()) {
        watcher_->watch(currentReport_);
    }
}

void MainWindow::createStatusWidgets() {
    progress_ = new QProgressBar(this);
    progress_->setObjectName(QStringLiteral("loadProgress"));
    progress_->setRange(0, 100);
    progress_->setMaximumWidth(220);
    progress_->setVisible(false);
    cancelButton_ = new QPushButton(tr("Cancel"), this);
    cancelButton_->setObjectName(QStringLiteral("cancelLoad"));
    cancelButton_->setVisible(false);
    connect(cancelButton_, &QPushButton::clicked, this, &MainWindow::cancelLoading);
    loadedLabel_ = new QLabel(this);
    loadedLabel_->setObjectName(QStringLiteral("loadedFilesLabel"));
    loadedLabel_->setTextFormat(Qt::PlainText);
    statusBar()->addPermanentWidget(loadedLabel_);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancelButton_);
    connect(loader_, &views::ReportLoader::progress, this,
            [this](int percent, const QString& stage) {
                progress_->setValue(percent);
                progress_->setFormat(tr("Loading %1: %p%").arg(stage));
            });
}

QStringList MainWindow::loadedFiles() const {
    QStringList files;
    if (!currentReport_.isEmpty()) {
        files << currentReport_;
        if (compare_ != nullptr && compare_->isActive()) {
            files << compare_->comparisonPath();
        }
    }
    return files;
}

// File > Loaded Files and the status bar element: file names, with the full
// paths in tooltips (and as the status tip of each menu entry).
void MainWindow::updateLoadedFiles() {
    const QStringList files = loadedFiles();
    if (loadedMenu_ != nullptr) {
        loadedMenu_->clear();
        for (int i = 0; i < files.size(); ++i) {
            const QString role = i == 0 ? tr("Report") : tr("Comparison");
            QAction* a = loadedMenu_->addAction(
                QStringLiteral("%1: %2").arg(role, QFileInfo(files[i]).fileName()));
            a->setObjectName(i == 0 ? QStringLiteral("actionLoadedReport")
                                    : QStringLiteral("actionLoadedComparison"));
            a->setData(files[i]);
            a->setToolTip(files[i]);
            a->setStatusTip(files[i]);
        }
        if (files.isEmpty()) {
            loadedMenu_->addAction(tr("No report open"))->setEnabled(false);
        }
    }
    if (loadedLabel_ != nullptr) {
        QStringList names;
        QStringList tips;
        for (int i = 0; i < files.size(); ++i) {
            names << QFileInfo(files[i]).fileName();
            tips << (i == 0 ? tr("Report: %1") : tr("Comparison: %1")).arg(files[i]);
        }
        loadedLabel_->setText(names.join(tr(" vs ")));
        loadedLabel_->setToolTip(tips.join('\n'));
    }
    if (reloadAction_ != nullptr) {
        reloadAction_->setEnabled(!currentReport_.isEmpty());
        closeAction_->setEnabled(!currentReport_.isEmpty());
    }
}

} // namespace tessera::gui
