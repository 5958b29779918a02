#pragma once
// File names that are not valid UTF-8. Qt holds a file name in a QString,
// which cannot carry such bytes (QFile::decodeName turns them into U+FFFD and
// encodeName does not bring them back), so `tessera $'bad\xff.tsr'` would be
// "no such file". A command-line argument naming such a file is replaced by
// a link to it with the decoded, readable name in a private directory that
// lives until the program exits; the report opens through the link (SQLite
// follows it to the real file) and the title shows the readable name.
#include <QByteArrayList>
#include <QString>
#include <QStringList>

namespace tessera::gui {

class NativeFileNames {
public:
    // `arguments` as QCoreApplication gives them, `raw` the argv bytes they
    // came from (saved before QApplication took its own options out). Each
    // argument (or the value of --option=value) whose bytes do not survive
    // the round trip through QString and that names an existing file becomes
    // the path of a link to it.
    static QStringList arguments(const QStringList& arguments, const QByteArrayList& raw);
    // True for a path made by arguments(): no place in Open Recent.
    static bool isAlias(const QString& path);
};

} // namespace tessera::gui
