#include "ReportWatcher.h"

#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QTimer>

namespace tessera::gui {

ReportWatcher::ReportWatcher(QObject* parent, int debounceMs)
    : QObject(parent) {
    watcher_ = new QFileSystemWatcher(this);
    debounce_ = new QTimer(this);
    debounce_->setSingleShot(true);
    debounce_->setInterval(debounceMs);
    connect(watcher_, &QFileSystemWatcher::fileChanged, this, &ReportWatcher::onEvent);
    connect(watcher_, &QFileSystemWatcher::directoryChanged, this, &ReportWatcher::onEvent);
    connect(debounce_, &QTimer::timeout, this, &ReportWatcher::check);
}

ReportWatcher::Stamp ReportWatcher::stampOf(const QString& path) {
    const QFileInfo info(path);
    if (!info.exists()) {
        return {};
    }
    return {true, info.size(), info.lastModified()};
}

void ReportWatcher::watch(const QString& path) {
    debounce_->stop();
    if (!watcher_->files().isEmpty()) {
        watcher_->removePaths(watcher_->files());
    }
    if (!watcher_->directories().isEmpty()) {
        watcher_->removePaths(watcher_->directories());
    }
    path_ = path.isEmpty() ? QString() : QFileInfo(path).absoluteFilePath();
    if (path_.isEmpty()) {
        return;
    }
    watcher_->addPath(QFileInfo(path_).absolutePath());
    rewatch();
    seen_ = stampOf(path_);
}

void ReportWatcher::acknowledge() {
    rewatch();
    seen_ = stampOf(path_);
}

void ReportWatcher::onEvent() {
    debounce_->start(); // restarts: one check after the burst
}

// A file replaced by rename is a new file: the old watch went with the old one.
void ReportWatcher::rewatch() {
    if (!path_.isEmpty() && !watcher_->files().contains(path_) && QFileInfo::exists(path_)) {
        watcher_->addPath(path_);
    }
}

void ReportWatcher::check() {
    if (path_.isEmpty()) {
        return;
    }
    rewatch();
    const Stamp now = stampOf(path_);
    if (now == seen_) {
        return; // another file in the directory, or nothing that matters
    }
    seen_ = now;
    emit changed(path_);
}

} // namespace tessera::gui
