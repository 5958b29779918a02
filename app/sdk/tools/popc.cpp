// popc: precompiles a codelet source into a file Graph::addCodelets loads
// (x.gp), as Poplar's popc does. Usage: popc [options] x.cpp -o x.gp
//   -I DIR, -D NAME[=V], -std=..., -f..., -W...: passed to the host compiler
//   -O..., -g, --target ...: accepted (Tessera always builds optimised host code)
#include <poplar/exceptions.hpp>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace poplar::detail {
void compileCodeletFile(const std::string& source, const std::string& output,
                        const std::string& extraFlags);
}

namespace {

int usage(const char* why) {
    if (why) {
        std::fprintf(stderr, "popc: %s\n", why);
    }
    std::fprintf(stderr, "usage: popc [-I DIR] [-D NAME[=VALUE]] [-O2] SOURCE.cpp -o OUTPUT.gp\n");
    return why ? 2 : 0;
}

std::string quote(const std::string& s) {
    std::string out = "'";
    for (char c : s) {
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return out + "'";
}

} // namespace

int main(int argc, char** argv) {
    std::vector<std::string> sources;
    std::string output;
    std::string flags;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "-h" || a == "--help") {
            return usage(nullptr);
        } else if (a == "-o") {
            if (++i >= argc) {
                return usage("-o needs a file name");
            }
            output = argv[i];
        } else if ((a == "-I" || a == "-D") && i + 1 < argc) {
            flags += " " + a + quote(argv[++i]);
        } else if (a.rfind("-I", 0) == 0 || a.rfind("-D", 0) == 0 || a.rfind("-std=", 0) == 0 ||
                   a.rfind("-f", 0) == 0 || a.rfind("-W", 0) == 0) {
            flags += " " + quote(a);
        } else if (a == "--target" || a == "-target") {
            ++i; // the IPU architecture: every target runs the same host code
        } else if (a.rfind("--target=", 0) == 0 || a.rfind("-O", 0) == 0 || a == "-g") {
            // accepted, no effect
        } else if (!a.empty() && a[0] == '-') {
            return usage(("unknown option '" + a + "'").c_str());
        } else {
            sources.push_back(a);
        }
    }
    if (sources.size() != 1) {
        return usage("give exactly one codelet source");
    }
    if (output.empty()) {
        const std::string& s = sources.front();
        const std::size_t dot = s.find_last_of('.');
        output = (dot == std::string::npos ? s : s.substr(0, dot)) + ".gp";
    }
    try {
        poplar::detail::compileCodeletFile(sources.front(), output, flags);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "popc: %s\n", e.what());
        return 1;
    }
    return 0;
}
