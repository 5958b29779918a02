#include "CompareMode.h"

#include "MainWindow.h"
#include "views/common/Selection.h"
#include "views/compare/ComparePane.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QProgressBar>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>

#include <utility>

namespace tessera::gui {

CompareMode::CompareMode(MainWindow* window, std::vector<views::Pane*> normalPanes)
    : QObject(window)
    , window_(window)
    , normalPanes_(std::move(normalPanes)) {
    loader_ = new views::CompareLoader(this);
    panes_ = views::createComparePanes(window_->paneTabs());
    for (views::ComparePane* p : panes_) {
        p->setSelection(window_->selection());
        connect(p, &views::Pane::problemFound, window_, &MainWindow::showProblem);
        p->hide();
    }
    progress_ = new QProgressBar(window_);
    progress_->setObjectName(QStringLiteral("compareProgress"));
    progress_->setRange(0, 100);
    progress_->setMaximumWidth(260);
    progress_->setVisible(false);
    window_->statusBar()->addPermanentWidget(progress_);
    connect(loader_, &views::CompareLoader::progress, this,
            [this](int percent, const QString& stage) {
                progress_->setValue(percent);
                progress_->setFormat(tr("Comparing: %1 %p%").arg(stage));
            });
    connect(loader_, &views::CompareLoader::finished, this,
            [this](const views::LoadedComparison& r) {
                // A load that finished after Close Comparison (or a new
                // baseline) cancelled it is dropped, even if it got through.
                if (!loadingPath_.isEmpty()) {
                    onLoaded(r, std::exchange(loadingPath_, QString()));
                }
            });
}

CompareMode::~CompareMode() {
    loader_->cancel();
}

void CompareMode::addActions(QMenu* fileMenu) {
    compareAction_ = fileMenu->addAction(tr("&Compare With…"), this, &CompareMode::showOpenDialog);
    compareAction_->setObjectName(QStringLiteral("actionCompare"));
    compareAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    compareAction_->setStatusTip(tr("Compare the open report (the baseline) with a second report"));
    closeAction_ = fileMenu->addAction(tr("C&lose Comparison"), this, &CompareMode::close);
    closeAction_->setObjectName(QStringLiteral("actionCloseComparison"));
    connect(window_, &MainWindow::reportOpened, this, &CompareMode::updateActions);
    connect(window_, &MainWindow::reportClosed, this, &CompareMode::updateActions);
    updateActions();
}

void CompareMode::updateActions() {
    if (compareAction_) {
        compareAction_->setEnabled(!window_->currentReport().isEmpty());
        closeAction_->setEnabled(isActive() || isLoading());
    }
}

bool CompareMode::isLoading() const {
    return loader_->isLoading();
}

views::Pane* CompareMode::pane(const QString& name) const {
    if (!isActive()) {
        return nullptr;
    }
    for (views::ComparePane* p : panes_) {
        if (p->paneName() == name) {
            return p;
        }
    }
    return nullptr;
}

void CompareMode::showOpenDialog() {
    const QString dir = QFileInfo(window_->currentReport()).absolutePath();
    const QString path =
        QFileDialog::getOpenFileName(window_, tr("Compare With Report"), dir,
                                     tr("Tessera reports (*.tsr *.pop);;All files (*)"));
    if (!path.isEmpty()) {
        compareWith(path);
    }
}

bool CompareMode::compareWith(const QString& path) {
    if (window_->currentReport().isEmpty()) {
        fail(path, tr("Open a report first: it is the baseline of the comparison"));
        return false;
    }
    const QFileInfo info(path);
    if (!info.isFile() || !info.isReadable()) {
        fail(path, tr("Cannot compare with %1: not a readable file").arg(path));
        return false;
    }
    loadingPath_ = info.absoluteFilePath();
    progress_->setValue(0);
    progress_->setVisible(true);
    window_->statusBar()->showMessage(tr("Comparing with %1…").arg(loadingPath_));
    loader_->load(window_->currentReport(), loadingPath_);
    updateActions();
    return true;
}

bool CompareMode::compareNow(const QString& path, QString* error) {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    views::LoadedComparison result;
    if (window_->currentReport().isEmpty()) {
        result.error = tr("open a report first: it is the baseline of the comparison");
    } else {
        result = views::CompareLoader::loadNow(window_->currentReport(), absolute);
    }
    onLoaded(result, absolute);
    if (error) {
        *error = result.error;
    }
    return result.data != nullptr;
}

void CompareMode::onLoaded(const views::LoadedComparison& result, const QString& path) {
    progress_->setVisible(false);
    if (result.cancelled) {
        window_->statusBar()->showMessage(tr("Comparison with %1 cancelled").arg(path));
        emit comparisonFailed(path, tr("cancelled"));
        updateActions();
        return;
    }
    if (!result.data) {
        fail(path, result.error);
        return;
    }
    data_ = result.data;
    comparisonPath_ = path;
    for (views::ComparePane* p : panes_) {
        p->setComparison(data_);
    }
    showPanes(true);
    window_->setWindowTitle(
        tr("%1 vs %2 — Tessera")
            .arg(QFileInfo(window_->currentReport()).fileName(), QFileInfo(path).fileName()));
    window_->statusBar()->showMessage(
        tr("Comparing %1 (baseline) with %2").arg(window_->currentReport(), path));
    updateActions();
    emit comparisonOpened(path);
}

void CompareMode::fail(const QString& path, const QString& message) {
    progress_->setVisible(false);
    window_->statusBar()->showMessage(message);
    if (window_->isInteractive()) {
        auto* box = new QMessageBox(QMessageBox::Warning, tr("Cannot compare"), message,
                                    QMessageBox::Ok, window_);
        box->setObjectName(QStringLiteral("compareErrorDialog"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }
    updateActions();
    emit comparisonFailed(path, message);
}

void CompareMode::close() {
    loader_->cancel();
    loadingPath_.clear();
    progress_->setVisible(false);
    const bool wasActive = isActive();
    data_.reset();
    comparisonPath_.clear();
    for (views::ComparePane* p : panes_) {
        p->setComparison(nullptr);
    }
    if (wasActive) {
        showPanes(false);
        if (!window_->currentReport().isEmpty()) {
            window_->setWindowTitle(
                tr("%1 — Tessera").arg(QFileInfo(window_->currentReport()).fileName()));
        }
        emit comparisonClosed();
    }
    updateActions();
}

// Swaps the tabs, keeping the pane the user was looking at.
void CompareMode::showPanes(bool compare) {
    QTabWidget* tabs = window_->paneTabs();
    const views::Pane* current = window_->currentPane();
    const QString currentName = current ? current->paneName() : QString();
    const bool hadNormal = !normalPanes_.empty() && tabs->indexOf(normalPanes_.front()) >= 0;
    const bool hadCompare = tabs->indexOf(panes_.front()) >= 0;
    if (compare == hadCompare) {
        return;
    }
    // Panes that need no report (the Debugger) stay where they are.
    auto remove = [tabs](auto& panes) {
        for (views::Pane* p : panes) {
            if (const int i = tabs->indexOf(p); i >= 0 && !p->worksWithoutReport()) {
                tabs->removeTab(i);
                p->hide();
            }
        }
    };
    if (compare) {
        remove(normalPanes_);
        int at = 0;
        for (views::ComparePane* p : panes_) {
            tabs->insertTab(at++, p, tr("Δ %1").arg(p->title()));
        }
    } else {
        remove(panes_);
        if (hadNormal || !window_->currentReport().isEmpty()) {
            for (std::size_t i = 0; i < normalPanes_.size(); ++i) {
                if (tabs->indexOf(normalPanes_[i]) < 0) {
                    tabs->insertTab(static_cast<int>(i), normalPanes_[i], normalPanes_[i]->title());
                }
            }
        }
    }
    if (!currentName.isEmpty()) {
        window_->showPane(currentName);
    }
}

} // namespace tessera::gui
