#include "NativeFileNames.h"

#include <sys/stat.h>
#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <memory>

namespace tessera::gui {

namespace {

// Made on first use only; removed (with the links) when the program exits.
std::unique_ptr<QTemporaryDir>& aliases() {
    static std::unique_ptr<QTemporaryDir> dir;
    return dir;
}

QTemporaryDir* aliasDirectory() {
    if (!aliases()) {
        aliases() = std::make_unique<QTemporaryDir>(QDir::tempPath() +
                                                    QStringLiteral("/tessera-names-XXXXXX"));
    }
    return aliases()->isValid() ? aliases().get() : nullptr;
}

// A link to the file `raw` names, in a directory of its own (so two files of
// one readable name do not meet); the decoded name is the link's.
QString aliasFor(const QByteArray& raw, const QString& decoded) {
    struct stat info {};
    QTemporaryDir* dir = aliasDirectory();
    if (raw.isEmpty() || ::stat(raw.constData(), &info) != 0 || dir == nullptr) {
        return {};
    }
    QByteArray target = raw;
    if (!target.startsWith('/')) {
        char cwd[4096];
        if (::getcwd(cwd, sizeof cwd) == nullptr) {
            return {};
        }
        target = QByteArray(cwd) + '/' + raw;
    }
    static int count = 0;
    const QString sub = dir->filePath(QString::number(++count));
    if (!QDir().mkpath(sub)) {
        return {};
    }
    const QString link = sub + QLatin1Char('/') + QFileInfo(decoded).fileName();
    if (::symlink(target.constData(), QFile::encodeName(link).constData()) != 0) {
        return {};
    }
    return link;
}

bool survives(const QString& text, const QByteArray& raw) {
    return QFile::encodeName(text) == raw;
}

} // namespace

QStringList NativeFileNames::arguments(const QStringList& arguments, const QByteArrayList& raw) {
    QStringList out;
    QByteArrayList unused = raw;
    for (const QString& argument : arguments) {
        // The argv entry this argument came from (Qt removed its own options).
        qsizetype source = -1;
        for (qsizetype i = 0; i < unused.size() && source < 0; ++i) {
            if (QFile::decodeName(unused[i]) == argument) {
                source = i;
            }
        }
        if (source < 0 || survives(argument, unused[source])) {
            out << argument;
            if (source >= 0) {
                unused.removeAt(source);
            }
            continue;
        }
        const QByteArray bytes = unused.takeAt(source);
        const qsizetype eq = argument.startsWith(QLatin1String("--")) ? argument.indexOf('=') : -1;
        const qsizetype rawEq = eq >= 0 ? bytes.indexOf('=') : -1;
        const QString alias = aliasFor(bytes.mid(rawEq + 1), argument.mid(eq + 1));
        out << (alias.isEmpty() ? argument : argument.left(eq + 1) + alias);
    }
    return out;
}

bool NativeFileNames::isAlias(const QString& path) {
    const QTemporaryDir* dir = aliases().get();
    return dir != nullptr && dir->isValid() && path.startsWith(dir->path() + QLatin1Char('/'));
}

} // namespace tessera::gui
