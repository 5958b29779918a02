// tessera-cli: the headless face of Tessera. Dispatches to one command; every
// failure ends as one "tessera-cli: error: ..." line and an exit code.
#include "Commands.h"
#include "Output.h"
#include "engine/core/Error.h"
#include "reports/OutputFile.h"
#include "reports/ReportError.h"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

namespace tessera::cli {

namespace {

const std::vector<Command>& commands() {
    static const std::vector<Command> all = {workloadsCommand(), captureCommand(), summaryCommand(),
                                             diffCommand(),      exportCommand(),  debugCommand()};
    return all;
}

std::string toolHelp() {
    std::string out = "Usage: tessera-cli <command> [options]\n\n"
                      "Headless Tessera: run workloads on the simulated IPU, write reports (.tsr)\n"
                      "and read them back, e.g. in CI.\n\nCommands:\n";
    for (const Command& c : commands()) {
        out += "  " + c.spec.name +
               std::string(12 - std::min<std::size_t>(c.spec.name.size(), 11), ' ') +
               c.spec.summary + "\n";
    }
    out += "\nOptions:\n"
           "  -h, --help     show this help (or 'tessera-cli <command> --help' for a command)\n"
           "  --version      print the version\n\n"
           "Exit status: 0 success, 1 a check failed (verification, threshold), 2 usage or input "
           "error.\n"
           "Errors are one line on standard error, starting with 'tessera-cli: error:'.\n";
    return out;
}

int dispatch(const std::vector<std::string>& args) {
    if (args.empty()) {
        std::fputs(toolHelp().c_str(), stderr);
        return kExitUsage;
    }
    const std::string& first = args.front();
    if (first == "-h" || first == "--help" || first == "help") {
        if (first == "help" && args.size() > 1) {
            return dispatch({args[1], "--help"});
        }
        printText(toolHelp());
        return kExitOk;
    }
    if (first == "--version") {
        print("tessera-cli %s\n", TESSERA_VERSION);
        return kExitOk;
    }
    const auto& all = commands();
    const auto it = std::find_if(all.begin(), all.end(),
                                 [&](const Command& c) { return c.spec.name == first; });
    if (it == all.end()) {
        throw UsageError("unknown command '" + first + "' (see 'tessera-cli --help')");
    }
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    const ParsedArgs parsed = parseArgs(it->spec, rest);
    if (parsed.help) {
        printText(helpText(it->spec));
        return kExitOk;
    }
    return it->run(parsed);
}

} // namespace

void printError(const std::string& message) {
    std::string line = message;
    std::replace(line.begin(), line.end(), '\n', ' '); // one line, always
    std::fprintf(stderr, "tessera-cli: error: %s\n", line.c_str());
}

// What a command printed is its result: when it did not reach standard
// output (a full disk, a closed file), the command failed.
int checkStandardOutput(int code) {
    const int error = flushStandardOutput();
    if (error == 0) {
        return code;
    }
    printError(error > 0 ? "cannot write to standard output: " + reports::writeErrorText(error)
                         : std::string("cannot write to standard output"));
    return kExitUsage;
}

} // namespace tessera::cli

int main(int argc, char** argv) {
    using namespace tessera::cli;
    try {
        return checkStandardOutput(dispatch(std::vector<std::string>(argv + 1, argv + argc)));
    } catch (const UsageError& e) {
        printError(e.what());
    } catch (const tessera::reports::ReportError& e) {
        printError(e.what());
    } catch (const tessera::Error& e) {
        printError(e.what());
    } catch (const std::exception& e) {
        printError(e.what());
    }
    return kExitUsage; // the error is said; a second line about stdout would only add noise
}
