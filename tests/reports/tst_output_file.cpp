// AtomicOutputFile and refuseToOverwriteInput: a file is replaced whole or not
// at all, gets the permissions of a new file, and never replaces an input.
#include "SmallProgram.h"
#include "reports/OutputFile.h"
#include "reports/ReportError.h"
#include "reports/ReportReader.h"
#include "reports/ReportWriter.h"

#include <sys/stat.h>
#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>
#include <sstream>

using tessera::reports::AtomicOutputFile;
using tessera::reports::ReportError;

namespace {

std::string contents(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

void put(const std::filesystem::path& p, const std::string& text) {
    std::ofstream(p, std::ios::binary) << text;
}

std::size_t entries(const std::filesystem::path& dir) {
    return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(dir),
                                                  std::filesystem::directory_iterator()));
}

} // namespace

class OutputFileTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir tmp_;
    std::filesystem::path dir_;

private slots:
    void init() {
        dir_ = std::filesystem::path(tmp_.path().toStdString()) / QTest::currentTestFunction();
        std::filesystem::create_directories(dir_);
    }

    void uncommittedLeavesTheTargetAsItWas() {
        const auto target = dir_ / "out.json";
        put(target, "previous");
        {
            AtomicOutputFile file(target);
            file.stream() << "half of something";
            file.finishWriting(); // even made ready, it is not the target until commit()
            QCOMPARE(contents(target), std::string("previous"));
        }
        QCOMPARE(contents(target), std::string("previous"));
        QCOMPARE(entries(dir_), std::size_t{1}); // the temporary is gone
    }

    void commitReplacesTheTargetWhole() {
        const auto target = dir_ / "out.json";
        put(target, "previous");
        std::string big(300'000, 'x'); // several buffers' worth
        big.back() = 'y';
        AtomicOutputFile file(target);
        file.stream() << big;
        file.commit();
        QCOMPARE(contents(target), big);
        QCOMPARE(entries(dir_), std::size_t{1});
    }

    void newFileHasTheUmasksPermissions() {
        const mode_t old = ::umask(027);
        const auto target = dir_ / "new.csv";
        {
            AtomicOutputFile file(target);
            file.stream() << "a,b\r\n";
            file.commit();
        }
        ::umask(old);
        struct stat st {};
        QCOMPARE(::stat(target.c_str(), &st), 0);
        QCOMPARE(st.st_mode & 0777, mode_t{0640}); // 0666 & ~027
    }

    void writingThroughASymlinkKeepsTheLink() {
        const auto real = dir_ / "real.json";
        const auto link = dir_ / "link.json";
        put(real, "previous");
        std::filesystem::create_symlink(real, link);
        AtomicOutputFile file(link);
        file.stream() << "new";
        file.commit();
        QVERIFY(std::filesystem::is_symlink(link));
        QCOMPARE(contents(real), std::string("new"));
    }

    void aDirectoryIsNoFile() {
        QVERIFY_THROWS_EXCEPTION(ReportError, AtomicOutputFile{dir_});
        QVERIFY_THROWS_EXCEPTION(ReportError, AtomicOutputFile{dir_ / "no-such-dir" / "x"});
    }

    void inputsAreRecognisedByIdentity() {
        const auto input = dir_ / "report.tsr";
        put(input, "report");
        std::filesystem::create_hard_link(input, dir_ / "hard.tsr");
        std::filesystem::create_symlink(input, dir_ / "soft.tsr");
        std::filesystem::create_directories(dir_ / "sub");
        const std::vector<std::filesystem::path> inputs{dir_ / "other.tsr", input};
        for (const auto& output :
             {input, dir_ / "hard.tsr", dir_ / "soft.tsr", dir_ / "sub" / ".." / "report.tsr"}) {
            QVERIFY_THROWS_EXCEPTION(ReportError,
                                     tessera::reports::refuseToOverwriteInput(output, inputs));
        }
        // A different file, or one that does not exist yet, is fine.
        put(dir_ / "copy.tsr", "report");
        tessera::reports::refuseToOverwriteInput(dir_ / "copy.tsr", inputs);
        tessera::reports::refuseToOverwriteInput(dir_ / "new.tsr", inputs);
    }

    // A temporary beside any name the system takes: a 255-byte name plus
    // ".partial-PID-N" would be too long, so the name is cut and hashed.
    void temporariesOfLongNamesFit() {
        const std::string name(255, 'n');
        for (const std::string& base : {std::string("r.tsr"), name, name.substr(0, 250)}) {
            const auto t = tessera::reports::withSuffix(dir_ / base, ".partial-12345-0");
            QCOMPARE(t.parent_path(), dir_);
            QVERIFY(t.filename().string().size() <= 255);
            QVERIFY(t.filename().string().ends_with(".partial-12345-0"));
            QVERIFY(t.filename() != std::filesystem::path(base));
        }
        QCOMPARE(tessera::reports::withSuffix(dir_ / "r.tsr", ".partial").filename().string(),
                 std::string("r.tsr.partial"));
        // Two long names differing late get different temporaries.
        QVERIFY(tessera::reports::withSuffix(dir_ / (name.substr(0, 254) + "a"), ".p") !=
                tessera::reports::withSuffix(dir_ / (name.substr(0, 254) + "b"), ".p"));
        AtomicOutputFile file(dir_ / name);
        file.stream() << "long";
        file.commit();
        QCOMPARE(contents(dir_ / name), std::string("long"));
        QCOMPARE(entries(dir_), std::size_t{1});
    }

    // Reports are written and read at any path the system takes: past
    // SQLite's 512 bytes, with a 255-byte name, and both.
    void reportsAtAnyPathTheSystemTakes() {
        std::filesystem::path deep = dir_;
        while (deep.string().size() < 600) {
            deep /= std::string(60, 'd');
        }
        std::filesystem::create_directories(deep);
        const std::string name = std::string(251, 'r') + ".tsr";
        for (const std::filesystem::path& path : {deep / "r.tsr", dir_ / name, deep / name}) {
            {
                tessera::reports::ReportWriter writer(path);
                tessera::testing::SmallProgram{}.run(writer);
                writer.finish();
            }
            const tessera::reports::ReportReader reader(path);
            QCOMPARE(reader.summary().target.tiles, tessera::testing::SmallProgram{}.tiles);
            QVERIFY(std::filesystem::is_regular_file(path));
            for (const auto& e : std::filesystem::directory_iterator(path.parent_path())) {
                QVERIFY2(e.path().filename().string().find("partial") == std::string::npos,
                         e.path().c_str());
            }
        }
    }

    void diskFullIsSaidSo() {
        QCOMPARE(tessera::reports::writeErrorText(ENOSPC), std::string("disk full"));
        QCOMPARE(tessera::reports::writeErrorText(EDQUOT), std::string("disk full"));
        QCOMPARE(tessera::reports::writeErrorText(EACCES), std::string(std::strerror(EACCES)));
    }
};

QTEST_GUILESS_MAIN(OutputFileTest)
#include "tst_output_file.moc"
