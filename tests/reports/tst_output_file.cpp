// AtomicOutputFile and refuseToOverwriteInput: a file is replaced whole or not
// at all, gets the permissions of a new file, and never replaces an input.
#include "reports/OutputFile.h"
#include "reports/ReportError.h"

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

    void diskFullIsSaidSo() {
        QCOMPARE(tessera::reports::writeErrorText(ENOSPC), std::string("disk full"));
        QCOMPARE(tessera::reports::writeErrorText(EDQUOT), std::string("disk full"));
        QCOMPARE(tessera::reports::writeErrorText(EACCES), std::string(std::strerror(EACCES)));
    }
};

QTEST_GUILESS_MAIN(OutputFileTest)
#include "tst_output_file.moc"
