// tessera: the GUI. `tessera [REPORT.tsr]`; see --help.
#include "MainWindow.h"

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

void defineOptions(QCommandLineParser& parser) {
    parser.setApplicationDescription(
        QStringLiteral("Tessera: tile-level profiler and visual debugger for BSP programs."));
    parser.addHelpOption();
    parser.addVersionOption();
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

#if defined(Q_OS_LINUX)
bool hasDisplay() {
    return !qEnvironmentVariableIsEmpty("DISPLAY") ||
           !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") ||
           !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
}
#endif

} // namespace

int main(int argc, char** argv) {
    describeApplication();
    if (onlyWantsText(argc, argv)) {
        const QCoreApplication app(argc, argv);
        QCommandLineParser parser;
        defineOptions(parser);
        parser.process(app); // prints the help or version text and exits
        return EXIT_SUCCESS;
    }
#if defined(Q_OS_LINUX)
    if (!hasDisplay()) {
        std::fputs("tessera: no display (DISPLAY/WAYLAND_DISPLAY unset); use tessera-cli, or set "
                   "QT_QPA_PLATFORM=offscreen\n",
                   stderr);
        return 2;
    }
#endif

    QApplication app(argc, argv);
    app.setWindowIcon(tessera::gui::MainWindow::applicationIcon());

    QCommandLineParser parser;
    defineOptions(parser);
    if (!parser.parse(QCoreApplication::arguments())) {
        std::fprintf(stderr, "tessera: %s\n", qPrintable(parser.errorText()));
        return 2;
    }
    const QStringList reports = parser.positionalArguments();
    if (reports.size() > 1) {
        std::fputs("tessera: only one report can be opened; see --help\n", stderr);
        return 2;
    }

    tessera::gui::MainWindow window;
    window.show();
    if (!reports.isEmpty() && !window.openReport(reports.first())) {
        std::fprintf(stderr, "tessera: cannot open %s: not a readable file\n",
                     qPrintable(reports.first()));
    }
    return QApplication::exec();
}
