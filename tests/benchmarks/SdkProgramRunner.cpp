// The benchmarks written as Poplar programs against Tessera's SDK:
// tessera-model-bench (`--only model`, tests/benchmarks/model) and
// tessera-sdk-build-bench (part of `--only build`, tests/benchmarks/sdk).
// They cannot share this process (libpoplar carries its own copy of the
// engine), so each runs as a program of its own; its JSON lines pass through.
#include "Bench.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

namespace tessera::bench {

namespace {

int runProgram(const char* program, const std::vector<std::string>& args) {
    std::fflush(stdout);
    const pid_t pid = fork();
    if (pid < 0) {
        std::cerr << "tessera-bench: fork failed for " << program << "\n";
        return 1;
    }
    if (pid == 0) {
        std::vector<char*> argv{const_cast<char*>(program)};
        for (const std::string& a : args) {
            argv.push_back(const_cast<char*>(a.c_str()));
        }
        argv.push_back(nullptr);
        execv(program, argv.data());
        std::perror(program);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::cerr << "tessera-bench: " << program << " failed\n";
        return 1;
    }
    return 0;
}

} // namespace

int runModelBenchmarks(const Options& options) {
    return runProgram(TESSERA_MODEL_BENCH, options.quick ? std::vector<std::string>{"--quick"}
                                                         : std::vector<std::string>{});
}

int runSdkBuildBenchmarks(const Options& options) {
    std::vector<std::string> args;
    if (options.quick) {
        args.push_back("--quick");
    }
    if (options.maxVertices != 0) {
        args.push_back("--max-vertices");
        args.push_back(std::to_string(options.maxVertices));
    }
    return runProgram(TESSERA_SDK_BUILD_BENCH, args);
}

} // namespace tessera::bench
