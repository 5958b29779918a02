#pragma once
// A small declarative argument parser shared by every tessera-cli command: a
// command declares its options and positionals, the parser checks argv
// against them and builds the command's --help text from the same spec.
#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace tessera::cli {

// Exit codes of every command (docs: `tessera-cli --help`).
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1; // a check failed: verification, a threshold
inline constexpr int kExitUsage = 2;  // bad arguments or unreadable input

// Bad command line: main prints it as one line and exits with kExitUsage.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct OptionSpec {
    std::string name;      // "--target"
    std::string shortName; // "-o", or empty
    std::string valueName; // "NAME" for an option with a value, empty for a flag
    std::string help;
    bool repeatable = false;
};

struct CommandSpec {
    std::string name;        // "capture"
    std::string summary;     // one line for the tool's command list
    std::string synopsis;    // "WORKLOAD -o FILE.tsr [options]"
    std::string description; // paragraphs after the usage line
    std::vector<OptionSpec> options;
    std::size_t minPositionals = 0;
    std::size_t maxPositionals = 0;
    std::string positionalNames; // for errors: "WORKLOAD", "FILE.tsr"
};

class ParsedArgs {
public:
    bool help = false;
    std::vector<std::string> positionals;

    bool has(const std::string& option) const { return values_.count(option) > 0; }
    std::string value(const std::string& option, const std::string& fallback = "") const;
    const std::vector<std::string>& values(const std::string& option) const;

private:
    friend ParsedArgs parseArgs(const CommandSpec&, std::span<const std::string>);
    std::map<std::string, std::vector<std::string>> values_;
};

// Accepts "--opt value", "--opt=value", "-o value", flags, "--" (the rest are
// positionals) and -h/--help anywhere. Throws UsageError.
ParsedArgs parseArgs(const CommandSpec& spec, std::span<const std::string> args);

std::string helpText(const CommandSpec& spec);

// The integer value of a count option ("--hit 3"): plain decimal digits
// from `min` to `max`, nothing else (no sign, spaces, 0x, exponent), so
// "-3" is refused rather than wrapped to 2^64-3. Throws UsageError "option
// '--hit' expects an integer from 1 to 1000000000, not '-3'".
std::uint64_t parseCount(const std::string& option, const std::string& text, std::uint64_t min,
                         std::uint64_t max);

// "NAME=VALUE" split at the first '='; throws UsageError naming the option.
std::pair<std::string, std::string> splitAssignment(const std::string& text,
                                                    const std::string& option);

} // namespace tessera::cli
