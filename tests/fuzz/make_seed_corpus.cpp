// Writes the fuzzers' seed corpus: small real reports (several workloads, a
// multi-level LOD, an incomplete one), then damaged copies and garbage: an
// empty file, random bytes, a bare SQLite header, a truncated report, a
// report with flipped bytes, a SQLite database that is not a report, a
// report whose meta holds an impossible number, and one copy per damage
// class of tests/reports/ReportDamage.h (the crashes and hangs of the GUI
// that issue 19 found).
//
//   tessera_fuzz_seeds SEED_DIR CORPUS_DIR...
// recreates every directory (a corpus, where libFuzzer adds what it finds,
// starts empty so every run starts from the same place).
#include "engine/workloads/Workload.h"
#include "reports/ReportWriter.h"
#include "tests/reports/ReportDamage.h"

#include <sqlite3.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <limits>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace tessera;

namespace {

// Forwards to the writer and, from step `failAt` of a run on, throws.
class FailAfter : public record::Recorder {
public:
    FailAfter(record::Recorder& inner, std::uint64_t failAt)
        : inner_(inner)
        , failAt_(failAt) {}
    void onCompiled(const record::CompiledRecord& r) override { inner_.onCompiled(r); }
    void onRunBegin(const record::RunBeginRecord& r) override { inner_.onRunBegin(r); }
    void onStep(const record::StepExecutionRecord& r) override {
        if (r.sequence >= failAt_) {
            throw std::runtime_error("stopped for the seed corpus");
        }
        inner_.onStep(r);
    }
    void onRunEnd(const record::RunEndRecord& r) override { inner_.onRunEnd(r); }
    void onVerification(const record::VerificationRecord& r) override { inner_.onVerification(r); }

private:
    record::Recorder& inner_;
    std::uint64_t failAt_;
};

// A report of the workload; with failAt, one that stopped at that step and
// was kept, marked incomplete.
void capture(const fs::path& out, const std::string& workload, const std::string& target,
             const std::map<std::string, std::string>& params,
             std::uint64_t failAt = std::numeric_limits<std::uint64_t>::max()) {
    reports::WriterOptions options;
    options.workload = workload;
    options.keepIncomplete = true;
    reports::ReportWriter writer(out, options);
    FailAfter recorder(writer, failAt);
    EngineOptions engine;
    engine.recorder = &recorder;
    engine.threads = 1;
    try {
        workloads::run(workloads::find(workload), Target::preset(target), params, engine);
        writer.finish();
    } catch (const std::runtime_error&) {
        // The writer's destructor keeps the incomplete report.
    }
}

std::vector<char> readAll(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeAll(const fs::path& path, const std::vector<char>& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

void notAReport(const fs::path& path) {
    sqlite3* db = nullptr;
    if (sqlite3_open(path.string().c_str(), &db) == SQLITE_OK) {
        sqlite3_exec(db,
                     "CREATE TABLE meta (key TEXT, value TEXT);"
                     "INSERT INTO meta VALUES ('format', 'something else');",
                     nullptr, nullptr, nullptr);
    }
    sqlite3_close(db);
}

void setMeta(const fs::path& path, const char* key, const char* value) {
    sqlite3* db = nullptr;
    if (sqlite3_open(path.string().c_str(), &db) == SQLITE_OK) {
        const std::string sql =
            std::string("UPDATE meta SET value = '") + value + "' WHERE key = '" + key + "'";
        sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr);
    }
    sqlite3_close(db);
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::cerr << "usage: tessera_fuzz_seeds SEED_DIR CORPUS_DIR...\n";
        return 2;
    }
    try {
        const fs::path seeds = argv[1];
        for (int i = 1; i < argc; ++i) {
            fs::remove_all(argv[i]);
            fs::create_directories(argv[i]);
        }
        capture(seeds / "matmul.tsr", "matmul", "tiles:4", {{"m", "16"}, {"k", "16"}, {"n", "16"}});
        capture(seeds / "elementwise.tsr", "elementwise", "tiles:2", {{"n", "256"}});
        capture(seeds / "stress.tsr", "stress", "tiles:4", {{"steps", "300"}}); // LOD levels 1-2
        capture(seeds / "reduce.tsr", "reduce", "tiles:4", {{"rows", "8"}, {"cols", "64"}});
        capture(seeds / "incomplete.tsr", "stress", "tiles:4", {{"steps", "300"}}, 100);

        const std::vector<char> report = readAll(seeds / "matmul.tsr");
        writeAll(seeds / "empty.bin", {});
        std::mt19937 rng(20261122);
        std::vector<char> noise(4096);
        for (char& c : noise) {
            c = static_cast<char>(rng());
        }
        writeAll(seeds / "noise.bin", noise);
        std::vector<char> header(report.begin(), report.begin() + 100);
        header.resize(4096, 0);
        writeAll(seeds / "header-only.bin", header);
        writeAll(seeds / "truncated.tsr",
                 std::vector<char>(report.begin(), report.begin() + report.size() / 2));
        std::vector<char> flipped = report;
        for (std::size_t i = 0; i < 64; ++i) {
            flipped[100 + rng() % (flipped.size() - 100)] ^= static_cast<char>(1 + rng() % 255);
        }
        writeAll(seeds / "flipped.tsr", flipped);
        notAReport(seeds / "not-a-report.db");
        // A report whose meta holds a number no integer type can: once a crash.
        fs::copy_file(seeds / "matmul.tsr", seeds / "huge-number.tsr");
        setMeta(seeds / "huge-number.tsr", "total_memory_bytes", "99999999999999999999999");
        for (const testing::Damage& d : testing::damageClasses()) {
            const fs::path p = seeds / (std::string("damaged-") + d.name + ".tsr");
            fs::copy_file(seeds / "stress.tsr", p);
            if (const std::string error = testing::applyDamage(p, d); !error.empty()) {
                throw std::runtime_error(std::string(d.name) + ": " + error);
            }
        }

        std::size_t files = 0;
        for ([[maybe_unused]] const auto& entry : fs::directory_iterator(seeds)) {
            ++files;
        }
        std::printf("wrote %zu seeds to %s\n", files, seeds.string().c_str());
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "tessera_fuzz_seeds: error: " << e.what() << "\n";
        return 1;
    }
}
