#pragma once

#include <QString>
#include <QStringList>

namespace tessera::gui {

// The "Open Recent" list, most recent first, persisted in QSettings under
// "recentFiles". Stateless: every call reads or writes the settings, so two
// windows share one list.
class RecentFiles {
public:
    static constexpr int MaxEntries = 10;

    static QStringList list();
    // Moves (or inserts) the absolute form of `path` to the front and trims the
    // list; a link made for a file name Qt cannot hold is not added.
    static QStringList add(const QString& path);
    static QStringList remove(const QString& path);
    static void clear();

private:
    static void store(const QStringList& files);
};

} // namespace tessera::gui
