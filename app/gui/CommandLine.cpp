#include "CommandLine.h"

#include "PaneViews.h"

#include <QRegularExpression>
#include <QStringList>

namespace tessera::gui {

void defineOptions(QCommandLineParser& parser, Options& options) {
    parser.setApplicationDescription(
        QStringLiteral("Tessera: tile-level profiler and visual debugger for BSP programs."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOptions({options.pane, options.screenshot, options.size, options.selectTiles,
                       options.compare, options.theme, options.workload, options.target,
                       options.set, options.plugin, options.breakAt, options.inspect});
    parser.addPositionalArgument(QStringLiteral("report"),
                                 QStringLiteral("A Tessera report (.tsr) to open."),
                                 QStringLiteral("[report]"));
}

bool parseSize(const QString& text, QSize* size, QString* error) {
    static const QRegularExpression pattern(QStringLiteral("^([0-9]{1,9})x([0-9]{1,9})$"));
    const QRegularExpressionMatch m = pattern.match(text);
    const int w = m.hasMatch() ? m.captured(1).toInt() : 0;
    const int h = m.hasMatch() ? m.captured(2).toInt() : 0;
    if (!m.hasMatch() || w > kMaxWindowSize.width() || h > kMaxWindowSize.height()) {
        *error = QStringLiteral("--size expects WxH of at most %1x%2 (e.g. 1400x900), not '%3'")
                     .arg(kMaxWindowSize.width())
                     .arg(kMaxWindowSize.height())
                     .arg(text);
        return false;
    }
    *size = QSize(w, h);
    return true;
}

QString checkOptions(const QCommandLineParser& parser, const Options& options) {
    if (parser.isSet(options.theme)) {
        const QString theme = parser.value(options.theme);
        if (!QStringList{"light", "dark", "system"}.contains(theme)) {
            return QStringLiteral("--theme expects light, dark or system, not '%1'").arg(theme);
        }
    }
    for (const QCommandLineOption* file : {&options.compare, &options.screenshot}) {
        if (parser.isSet(*file) && parser.value(*file).trimmed().isEmpty()) {
            return QStringLiteral("--%1 needs a file name, not an empty one")
                .arg(file->names().front());
        }
    }
    const bool screenshot = parser.isSet(options.screenshot);
    if (parser.isSet(options.size)) {
        QSize size;
        QString error;
        if (!parseSize(parser.value(options.size), &size, &error)) {
            return error;
        }
        if (!screenshot) {
            return QStringLiteral("--size goes with --screenshot");
        }
    }
    if (parser.isSet(options.selectTiles)) {
        if (parser.value(options.selectTiles).trimmed().isEmpty()) {
            return QStringLiteral("--select-tiles needs tiles, e.g. \"0-3, 17\"");
        }
        if (!screenshot) {
            return QStringLiteral("--select-tiles goes with --screenshot; in the window, type "
                                  "the tiles in the Memory pane");
        }
        if (const QString pane = parser.value(options.pane);
            parser.isSet(options.pane) && paneOf(pane) != QLatin1String("memory")) {
            return QStringLiteral("not supported by Tessera: --select-tiles with --pane %1 (only "
                                  "the Memory pane selects tiles)")
                .arg(pane);
        }
        if (parser.isSet(options.compare)) {
            return QStringLiteral("not supported by Tessera: --select-tiles with --compare (the "
                                  "compare Memory pane has no tile selection)");
        }
    }
    const bool debugRun = parser.isSet(options.workload);
    if (debugRun && parser.value(options.workload).trimmed().isEmpty()) {
        return QStringLiteral("--workload needs a workload name");
    }
    for (const QCommandLineOption* o :
         {&options.target, &options.set, &options.plugin, &options.breakAt, &options.inspect}) {
        if (parser.isSet(*o) && !debugRun) {
            return QStringLiteral("--%1 goes with --pane debug --workload NAME --screenshot FILE")
                .arg(o->names().front());
        }
    }
    if (debugRun && !screenshot) {
        return QStringLiteral("--workload runs the Debugger for --screenshot; in the window, "
                              "start it from the Debugger pane");
    }
    return {};
}

QString oneLine(QString text) {
    text.replace(QLatin1String("\r\n"), QLatin1String(" "));
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    text.replace(QLatin1Char('\r'), QLatin1Char(' '));
    return text.trimmed();
}

} // namespace tessera::gui
