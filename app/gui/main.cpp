// tessera: the GUI. `tessera [REPORT.tsr]`, or headless
// `tessera REPORT.tsr [--compare NEW.tsr] --pane NAME --screenshot OUT.png`; see --help.
#include "CompareMode.h"
#include "MainWindow.h"
#include "Screenshot.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

void describeApplication() {
    QCoreApplication::setOrganizationName(QStringLiteral("Tessera"));
    QCoreApplication::setOrganizationDomain(QStringLiteral("tessera.invalid"));
    QCoreApplication::setApplicationName(QStringLiteral("Tessera"));
    QCoreApplication::setApplicationVersion(QStringLiteral(TESSERA_VERSION));
}

struct Options {
    QCommandLineOption pane{
        QStringLiteral("pane"),
        QStringLiteral("Pane to show: summary, memory, liveness, program, execution, debug."),
        QStringLiteral("name")};
    QCommandLineOption screenshot{QStringLiteral("screenshot"),
                                  QStringLiteral("Render the pane offscreen to a PNG and exit."),
                                  QStringLiteral("file.png")};
    QCommandLineOption size{QStringLiteral("size"),
                            QStringLiteral("Window size for --screenshot (default 1400x900)."),
                            QStringLiteral("WxH"), QStringLiteral("1400x900")};
    QCommandLineOption compare{QStringLiteral("compare"),
                               QStringLiteral("Compare the report (the baseline) with this one."),
                               QStringLiteral("new.tsr")};
    QCommandLineOption theme{QStringLiteral("theme"),
                             QStringLiteral("light or dark (default: as saved)."),
                             QStringLiteral("theme")};
    // The Debugger (--pane debug) on a workload instead of a report.
    QCommandLineOption workload{QStringLiteral("workload"),
                                QStringLiteral("Debugger: run this workload (with --pane debug)."),
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

void defineOptions(QCommandLineParser& parser, Options& options) {
    parser.setApplicationDescription(
        QStringLiteral("Tessera: tile-level profiler and visual debugger for BSP programs."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOptions({options.pane, options.screenshot, options.size, options.compare,
                       options.theme, options.workload, options.target, options.set, options.plugin,
                       options.breakAt, options.inspect});
    parser.addPositionalArgument(QStringLiteral("report"),
                                 QStringLiteral("A Tessera report (.tsr) to open."),
                                 QStringLiteral("[report]"));
}

// --help and --version must work without a display, so they are answered by a
// QCoreApplication before any GUI is created.
bool onlyWantsText(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        for (const char* flag : {"-h", "--help", "-?", "--help-all", "-v", "--version"}) {
            if (std::strcmp(argv[i], flag) == 0) {
                return true;
            }
        }
    }
    return false;
}

bool wantsScreenshot(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        if (std::strncmp(argv[i], "--screenshot", 12) == 0) {
            return true;
        }
    }
    return false;
}

bool hasDisplay() {
    return !qEnvironmentVariableIsEmpty("DISPLAY") ||
           !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") ||
           !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
}

int usage(const QString& message) {
    std::fprintf(stderr, "tessera: error: %s (see --help)\n", qPrintable(message));
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    describeApplication();
    if (onlyWantsText(argc, argv)) {
        const QCoreApplication app(argc, argv);
        QCommandLineParser parser;
        Options options;
        defineOptions(parser, options);
        parser.process(app); // prints the help or version text and exits
        return EXIT_SUCCESS;
    }
    const bool screenshot = wantsScreenshot(argc, argv);
    if (!hasDisplay()) {
        if (!screenshot) {
            std::fputs("tessera: no display (DISPLAY/WAYLAND_DISPLAY unset); use tessera-cli, "
                       "--screenshot, or set QT_QPA_PLATFORM=offscreen\n",
                       stderr);
            return 2;
        }
        qputenv("QT_QPA_PLATFORM", "offscreen"); // screenshots need no display
    }

    QApplication app(argc, argv);
    app.setWindowIcon(tessera::gui::MainWindow::applicationIcon());

    QCommandLineParser parser;
    Options options;
    defineOptions(parser, options);
    if (!parser.parse(QCoreApplication::arguments())) {
        return usage(parser.errorText());
    }
    const QStringList reports = parser.positionalArguments();
    if (reports.size() > 1) {
        return usage(QStringLiteral("only one report can be opened"));
    }
    if (parser.isSet(options.screenshot)) {
        tessera::gui::ScreenshotRequest request;
        const bool debugRun = parser.isSet(options.workload);
        if ((reports.isEmpty() && !debugRun) || !parser.isSet(options.pane)) {
            return usage(QStringLiteral(
                "--screenshot needs --pane and a report (or --pane debug --workload NAME)"));
        }
        if (debugRun && parser.value(options.pane) != QStringLiteral("debug")) {
            return usage(QStringLiteral("--workload goes with --pane debug"));
        }
        request.report = reports.value(0);
        request.compare = parser.value(options.compare);
        request.workload = parser.value(options.workload);
        request.target = parser.value(options.target);
        request.params = parser.values(options.set);
        request.plugin = parser.value(options.plugin);
        request.breaks = parser.values(options.breakAt);
        request.inspect = parser.values(options.inspect);
        request.pane = parser.value(options.pane);
        request.output = parser.value(options.screenshot);
        request.theme = parser.value(options.theme);
        const QStringList wh = parser.value(options.size).split('x');
        if (wh.size() != 2 || wh[0].toInt() < 100 || wh[1].toInt() < 100) {
            return usage(QStringLiteral("--size expects WxH, e.g. 1400x900"));
        }
        request.size = QSize(wh[0].toInt(), wh[1].toInt());
        return tessera::gui::takeScreenshot(request);
    }

    tessera::gui::MainWindow window;
    if (parser.value(options.theme) == "dark") {
        window.setTheme(tessera::gui::MainWindow::Theme::Dark);
    } else if (parser.value(options.theme) == "light") {
        window.setTheme(tessera::gui::MainWindow::Theme::Light);
    }
    window.show();
    if (parser.isSet(options.compare) && reports.isEmpty()) {
        return usage(QStringLiteral("--compare needs a report to compare with"));
    }
    if (!reports.isEmpty()) {
        window.openReport(reports.first());
        if (parser.isSet(options.compare)) {
            // The comparison loads once the baseline has; the pane follows it.
            auto* compare = window.compareMode();
            QObject::connect(
                &window, &tessera::gui::MainWindow::reportOpened, compare,
                [compare, path = parser.value(options.compare)] { compare->compareWith(path); },
                Qt::SingleShotConnection);
            if (parser.isSet(options.pane)) {
                QObject::connect(
                    compare, &tessera::gui::CompareMode::comparisonOpened, &window,
                    [&window, name = parser.value(options.pane)] { window.showPane(name); });
            }
        } else if (parser.isSet(options.pane)) {
            QObject::connect(
                &window, &tessera::gui::MainWindow::reportOpened, &window,
                [&window, name = parser.value(options.pane)] { window.showPane(name); });
        }
    }
    return QApplication::exec();
}
