#pragma once
// Watches the open report's file and says once when it was replaced or
// rewritten. autoReport-style writers replace the file by rename, which drops
// the watch on the old file, so the directory is watched too and the file is
// watched again after every change; a burst of changes (write, rename,
// journal files) is reported once, after a quiet `debounceMs`. Only a change
// of the file's size or modification time counts.
#include <QDateTime>
#include <QObject>
#include <QString>

class QFileSystemWatcher;
class QTimer;

namespace tessera::gui {

class ReportWatcher : public QObject {
    Q_OBJECT

public:
    explicit ReportWatcher(QObject* parent = nullptr, int debounceMs = 400);

    void watch(const QString& path); // replaces the watched file; "" stops
    void stop() { watch({}); }
    // Takes the file as it is now as seen (after a reload): no change pending.
    void acknowledge();
    QString path() const { return path_; }
    bool isWatching() const { return !path_.isEmpty(); }

signals:
    // The file now differs from the version last seen (it may be missing).
    void changed(const QString& path);

private:
    struct Stamp {
        bool exists = false;
        qint64 size = -1;
        QDateTime modified;
        bool operator==(const Stamp&) const = default;
    };
    static Stamp stampOf(const QString& path);
    void onEvent();
    void check();
    void rewatch();

    QFileSystemWatcher* watcher_ = nullptr;
    QTimer* debounce_ = nullptr;
    QString path_;
    Stamp seen_;
};

} // namespace tessera::gui
