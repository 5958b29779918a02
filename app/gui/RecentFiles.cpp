#include "RecentFiles.h"

#include "NativeFileNames.h"

#include <QFileInfo>
#include <QSettings>

namespace tessera::gui {

namespace {
constexpr auto kKey = "recentFiles";
} // namespace

QStringList RecentFiles::list() {
    const QSettings settings;
    return settings.value(QLatin1String(kKey)).toStringList();
}

QStringList RecentFiles::add(const QString& path) {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    if (NativeFileNames::isAlias(absolute)) {
        return list(); // a link that goes away when the program exits
    }
    QStringList files = list();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > MaxEntries) {
        files.removeLast();
    }
    store(files);
    return files;
}

QStringList RecentFiles::remove(const QString& path) {
    QStringList files = list();
    files.removeAll(QFileInfo(path).absoluteFilePath());
    store(files);
    return files;
}

void RecentFiles::clear() {
    store({});
}

void RecentFiles::store(const QStringList& files) {
    QSettings settings;
    if (files.isEmpty()) {
        settings.remove(QLatin1String(kKey));
    } else {
        settings.setValue(QLatin1String(kKey), files);
    }
}

} // namespace tessera::gui
