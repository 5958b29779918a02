#pragma once
// The GUI's command line: its options, and the checks of their values that
// need no window, so a bad value ends as one line "tessera: error: ..." and
// exit status 2 before anything is shown.
#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QSize>
#include <QString>

namespace tessera::gui {

struct Options {
    QCommandLineOption pane{
        QStringLiteral("pane"),
        QStringLiteral("Pane to show: summary, memory, liveness, program, execution, debug; or "
                       "a view in a pane: program/tree, program/operations, program/dataflow."),
        QStringLiteral("name")};
    QCommandLineOption screenshot{QStringLiteral("screenshot"),
                                  QStringLiteral("Render the pane offscreen to a PNG and exit."),
                                  QStringLiteral("file.png")};
    QCommandLineOption size{QStringLiteral("size"),
                            QStringLiteral("Window size for --screenshot (default 1400x900; at "
                                           "least the window's minimum, at most 7680x4320)."),
                            QStringLiteral("WxH"), QStringLiteral("1400x900")};
    QCommandLineOption compare{QStringLiteral("compare"),
                               QStringLiteral("Compare the report (the baseline) with this one."),
                               QStringLiteral("new.tsr")};
    QCommandLineOption selectTiles{
        QStringLiteral("select-tiles"),
        QStringLiteral("Memory pane: select these tiles for --screenshot, as typed in the pane "
                       "(e.g. \"0-3, 17\")."),
        QStringLiteral("tiles")};
    QCommandLineOption theme{QStringLiteral("theme"),
                             QStringLiteral("light, dark or system (default: as saved)."),
                             QStringLiteral("theme")};
    // The Debugger (--pane debug) on a workload instead of a report.
    QCommandLineOption workload{
        QStringLiteral("workload"),
        QStringLiteral("Debugger: run this workload (with --pane debug and --screenshot)."),
        QStringLiteral("name")};
    QCommandLineOption target{
        QStringLiteral("target"),
        QStringLiteral("Debugger: mk1, mk2, bow or tiles:N (default tiles:16)."),
        QStringLiteral("target")};
    QCommandLineOption set{QStringLiteral("set"),
                           QStringLiteral("Debugger: a workload parameter (repeatable)."),
                           QStringLiteral("name=value")};
    // Not "--plugin": QGuiApplication takes -plugin for its own input plugins.
    QCommandLineOption plugin{QStringLiteral("workload-plugin"),
                              QStringLiteral("Debugger: load a workload plugin first."),
                              QStringLiteral("lib.so")};
    QCommandLineOption breakAt{
        QStringLiteral("break"),
        QStringLiteral("Debugger: continue to this step, compute set or block (repeatable)."),
        QStringLiteral("step|name")};
    QCommandLineOption inspect{
        QStringLiteral("inspect"),
        QStringLiteral("Debugger: inspect this tensor; more are watched (repeatable)."),
        QStringLiteral("tensor")};
};

void defineOptions(QCommandLineParser& parser, Options& options);

// The largest --size: an 8K display. A screenshot of it takes ~130 MB.
inline constexpr QSize kMaxWindowSize{7680, 4320};

// "WxH", two decimal integers each at most kMaxWindowSize's (the minimum is
// the window's own, known once it exists). False with `error` set otherwise.
bool parseSize(const QString& text, QSize* size, QString* error);

// The first problem with the options' values and how they go together
// ("--theme expects light, dark or system, not 'purple'"), or "".
QString checkOptions(const QCommandLineParser& parser, const Options& options);

// `text` on one line: line breaks become spaces.
QString oneLine(QString text);

} // namespace tessera::gui
