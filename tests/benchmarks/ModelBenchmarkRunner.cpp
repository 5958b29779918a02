// `tessera-bench --only model`: runs tessera-model-bench (tests/benchmarks/model),
// whose Poplar programs link Tessera's SDK and so cannot share this process
// (libpoplar carries its own copy of the engine). Its JSON lines pass through.
#include "Bench.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>

namespace tessera::bench {

int runModelBenchmarks(const Options& options) {
    std::fflush(stdout);
    const pid_t pid = fork();
    if (pid < 0) {
        std::cerr << "tessera-bench: fork failed for the model benchmarks\n";
        return 1;
    }
    if (pid == 0) {
        const char* program = TESSERA_MODEL_BENCH;
        if (options.quick) {
            execl(program, program, "--quick", static_cast<char*>(nullptr));
        } else {
            execl(program, program, static_cast<char*>(nullptr));
        }
        std::perror(program);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::cerr << "tessera-bench: the model benchmarks (" << TESSERA_MODEL_BENCH << ") failed\n";
        return 1;
    }
    return 0;
}

} // namespace tessera::bench
