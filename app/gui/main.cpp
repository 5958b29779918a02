// tessera: the GUI. `tessera [REPORT.tsr]`, or headless
// `tessera REPORT.tsr [--compare NEW.tsr] --pane NAME --screenshot OUT.png`; see --help.
#include "CommandLine.h"
#include "CompareMode.h"
#include "MainWindow.h"
#include "NativeFileNames.h"
#include "PaneViews.h"
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

// A headless screenshot is a command: its standard error is its one error
// line, not Qt's notes about the offscreen platform ("This plugin does not
// support propagateSizeHints()"). TESSERA_QT_MESSAGES=1 shows them.
void quietQtMessages(QtMsgType type, const QMessageLogContext&, const QString& message) {
    if (type == QtCriticalMsg || type == QtFatalMsg) {
        std::fprintf(stderr, "tessera: %s\n", qPrintable(tessera::gui::oneLine(message)));
    }
}

int usage(const QString& message) {
    std::fprintf(stderr, "tessera: error: %s (see --help)\n",
                 qPrintable(tessera::gui::oneLine(message)));
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    using namespace tessera::gui;
    describeApplication();
    QByteArrayList raw; // before QApplication takes its own options out
    for (int i = 0; i < argc; ++i) {
        raw << QByteArray(argv[i]);
    }
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
    if (screenshot && qEnvironmentVariableIsEmpty("TESSERA_QT_MESSAGES")) {
        qInstallMessageHandler(quietQtMessages);
    }

    QApplication app(argc, argv);
    app.setWindowIcon(MainWindow::applicationIcon());

    QCommandLineParser parser;
    Options options;
    defineOptions(parser, options);
    if (!parser.parse(NativeFileNames::arguments(QCoreApplication::arguments(), raw))) {
        return usage(parser.errorText());
    }
    const QStringList reports = parser.positionalArguments();
    if (reports.size() > 1) {
        return usage(QStringLiteral("only one report can be opened"));
    }
    if (const QString problem = checkOptions(parser, options); !problem.isEmpty()) {
        return usage(problem);
    }
    if (parser.isSet(options.screenshot)) {
        ScreenshotRequest request;
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
        request.selectTiles = parser.value(options.selectTiles);
        QString error;
        if (!parseSize(parser.value(options.size), &request.size, &error)) {
            return usage(error);
        }
        return takeScreenshot(request);
    }
    if (parser.isSet(options.compare) && reports.isEmpty()) {
        return usage(QStringLiteral("--compare needs a report to compare with"));
    }

    MainWindow window;
    if (const QString pane = parser.value(options.pane); parser.isSet(options.pane) &&
                                                         !window.paneNames().contains(pane) &&
                                                         !paneViewNames().contains(pane)) {
        return usage(QStringLiteral("unknown pane '%1' (panes: %2; views: %3)")
                         .arg(pane, window.paneNames().join(", "), paneViewNames().join(", ")));
    }
    const QString theme = parser.value(options.theme);
    if (!theme.isEmpty()) {
        window.setTheme(theme == "dark"    ? MainWindow::Theme::Dark
                        : theme == "light" ? MainWindow::Theme::Light
                                           : MainWindow::Theme::System);
    }
    window.show();
    if (!reports.isEmpty()) {
        window.openReport(reports.first());
        if (parser.isSet(options.compare)) {
            // The comparison loads once the baseline has; the pane follows it.
            auto* compare = window.compareMode();
            QObject::connect(
                &window, &MainWindow::reportOpened, compare,
                [compare, path = parser.value(options.compare)] { compare->compareWith(path); },
                Qt::SingleShotConnection);
            if (parser.isSet(options.pane)) {
                QObject::connect(
                    compare, &CompareMode::comparisonOpened, &window,
                    [&window, name = parser.value(options.pane)] { window.showPane(name); });
            }
        } else if (parser.isSet(options.pane)) {
            QObject::connect(
                &window, &MainWindow::reportOpened, &window,
                [&window, name = parser.value(options.pane)] { window.showPane(name); });
        }
    }
    return QApplication::exec();
}
