// What a workload run accepts before anything is built: every parameter of
// every built-in workload has a range (documented in docs/engine.md) and any
// other value is refused with an Error naming the parameter and the range; a
// program whose inputs and outputs cannot fit the target is refused before it
// is built (minimumTileMemory, checkFits), and that estimate is a true lower
// bound of what the compiled program holds.
#include "engine/core/Error.h"
#include "engine/record/Recorder.h"
#include "engine/workloads/Workload.h"

#include <QFile>
#include <QtTest>

#include <cmath>

using namespace tessera;
using workloads::Parameter;
using workloads::ParameterKind;

namespace {

// The message of the Error `f` throws; fails the test when it throws none.
template <typename F>
QString errorOf(F&& f) {
    try {
        f();
    } catch (const Error& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

// Values outside a parameter's range, or not of its kind.
QStringList badValues(const Parameter& p) {
    QStringList out = {"",
                       "abc",
                       "1.5.2",
                       " 5",
                       "5 ",
                       "+5",
                       "0x10",
                       "1e3x",
                       "-1",
                       "-0x1",
                       "99999999999999999999",
                       "4294967297",
                       "1000000000000",
                       "18446744073709551617"};
    if (p.kind == ParameterKind::Integer) {
        out << "1.5"
            << "1e3" << QString::number(std::uint64_t(p.maximum) + 1)
            << QString::number(std::int64_t(p.minimum) - 1) << "inf"
            << "nan";
    } else if (p.kind == ParameterKind::Number) {
        out << "inf"
            << "nan"
            << "-inf"
            << "1e400" << QString::number(p.maximum * 2 + 1) << QString::number(p.minimum - 1);
    } else {
        out << "FLOAT"
            << "double"
            << "float "
            << "int";
    }
    return out;
}

std::uint64_t variableBytes(const record::CompiledRecord& compiled) {
    std::uint64_t total = 0;
    for (const record::TileMemoryRecord& t : compiled.tileMemory) {
        for (record::MemoryCategory c :
             {record::MemoryCategory::AlwaysLiveVariable,
              record::MemoryCategory::NotAlwaysLiveVariable, record::MemoryCategory::Constant}) {
            total += t.bytesByCategory[static_cast<std::size_t>(c)];
        }
    }
    return total;
}

} // namespace

class TestWorkloadLimits : public QObject {
    Q_OBJECT

private slots:
    void everyParameterHasARangeHoldingItsDefault() {
        for (const workloads::Workload* w : workloads::all()) {
            for (const Parameter& p : w->parameters()) {
                const QString where = QString::fromStdString(w->name() + " " + p.name);
                QVERIFY2(p.kind != ParameterKind::Text, qPrintable(where));
                QVERIFY2(!p.rangeText().empty(), qPrintable(where));
                QVERIFY2(errorOf([&] { p.check(p.defaultValue); }).isEmpty(), qPrintable(where));
                if (p.kind != ParameterKind::Choice) {
                    QVERIFY2(p.minimum <= p.maximum && p.maximum < 9.0e15, qPrintable(where));
                }
            }
            // The defaults alone make a valid parameter set.
            workloads::Parameters(w->parameters(), {});
        }
    }

    void valuesOutsideTheRangeAreRefused_data() {
        QTest::addColumn<QString>("workload");
        QTest::addColumn<QString>("parameter");
        for (const workloads::Workload* w : workloads::all()) {
            for (const Parameter& p : w->parameters()) {
                const std::string row = w->name() + " " + p.name;
                QTest::newRow(row.c_str())
                    << QString::fromStdString(w->name()) << QString::fromStdString(p.name);
            }
        }
    }

    void valuesOutsideTheRangeAreRefused() {
        QFETCH(QString, workload);
        QFETCH(QString, parameter);
        const workloads::Workload& w = workloads::find(workload.toStdString());
        const auto declared = w.parameters();
        const Parameter& p = *std::find_if(declared.begin(), declared.end(), [&](const auto& d) {
            return d.name == parameter.toStdString();
        });
        for (const QString& value : badValues(p)) {
            const QString message = errorOf([&] {
                workloads::Parameters(declared, {{p.name, value.toStdString()}});
            });
            QVERIFY2(!message.isEmpty(), qPrintable("accepted " + parameter + "=" + value));
            const QString expected = QString::fromStdString("parameter '" + p.name + "' must be " +
                                                            p.rangeText() + ", not '") +
                                     value + "'";
            QCOMPARE(message, expected);
        }
        // The bounds themselves are in range.
        if (p.kind == ParameterKind::Integer) {
            for (double bound : {p.minimum, p.maximum}) {
                const std::string text = std::to_string(std::uint64_t(bound));
                QVERIFY(errorOf([&] {
                            workloads::Parameters(declared, {{p.name, text}});
                        }).isEmpty());
            }
        }
    }

    void numbersAndChoicesInTheirRange() {
        const Parameter rate = Parameter::number("rate", "0.1", "", 0, 10);
        for (const char* ok : {"0", "10", "0.5", "1e-3", "2.5E0", "-0"}) {
            QVERIFY2(errorOf([&] { rate.check(ok); }).isEmpty(), ok);
        }
        QCOMPARE(rate.rangeText(), std::string("a number from 0 to 10"));
        const Parameter type = Parameter::choice("type", "float", "", {"float", "half", "int"});
        QCOMPARE(type.rangeText(), std::string("float, half or int"));
        QCOMPARE(errorOf([&] { type.check("bool"); }),
                 QString("parameter 'type' must be float, half or int, not 'bool'"));
        // A plugin's parameter declared the old way takes any text.
        const Parameter text{"free", "x", "anything"};
        QCOMPARE(text.kind, ParameterKind::Text);
        QVERIFY(errorOf([&] { text.check("whatever 42"); }).isEmpty());
    }

    void aProgramThatCannotFitIsRefusedBeforeBuilding() {
        const workloads::Workload& w = workloads::find("elementwise");
        const Target small = Target::preset("tiles:16");
        const workloads::Parameters big(w.parameters(), {{"n", "40000000"}});
        const QString refused = errorOf([&] { workloads::checkFits(w, big, small, false); });
        for (const char* name : {"elementwise", "762.9 MiB", "'tiles:16'", "9.8 MiB", "16 tiles",
                                 "624 KiB", "allowOutOfMemory"}) {
            QVERIFY2(refused.contains(name), qPrintable(refused + " / " + name));
        }
        // allowOutOfMemory lets it be built (and the overflow recorded)...
        workloads::checkFits(w, big, small, true);
        // ...but not past the host limit, on any target.
        const workloads::Parameters huge(w.parameters(), {{"n", "200000000"}});
        const QString tooBig =
            errorOf([&] { workloads::checkFits(w, huge, Target::preset("mk2"), true); });
        QVERIFY2(tooBig.contains("3.7 GiB") && tooBig.contains("1 GiB"), qPrintable(tooBig));
        // run() checks first: refused without building anything, fast.
        EngineOptions options;
        QVERIFY(!errorOf([&] {
                     workloads::run(w, small, {{"n", "40000000"}}, options);
                 }).isEmpty());
        // What fits is not refused.
        const workloads::Parameters fits(w.parameters(), {{"n", "1000"}});
        workloads::checkFits(w, fits, small, false);
    }

    void theEstimateIsALowerBound_data() {
        QTest::addColumn<QString>("workload");
        QTest::addColumn<QString>("target");
        QTest::addColumn<QStringList>("settings");
        for (const workloads::Workload* w : workloads::all()) {
            for (const char* target : {"tiles:4", "tiles:16", "mk2"}) {
                const std::string row = w->name() + "@" + target;
                QTest::newRow(row.c_str())
                    << QString::fromStdString(w->name()) << QString(target) << QStringList{};
            }
        }
        const std::pair<const char*, QStringList> variants[] = {
            {"matmul", {"m=37", "k=300", "n=5", "type=half"}},
            {"matmul", {"m=1", "k=4096", "n=1"}},
            {"conv2d", {"height=9", "width=30", "kernel=5", "out_channels=3"}},
            {"attention", {"sequence=100", "dmodel=8"}},
            {"mlp-train", {"batch=3", "inputs=200", "hidden=7", "classes=40"}},
            {"gather-scatter", {"nodes=50", "edges=3", "features=64"}},
            {"elementwise", {"n=1000", "grain=999", "type=half"}},
            {"reduce", {"rows=1", "cols=5000"}},
            {"stress", {"steps=3", "phases=9"}},
        };
        for (const auto& [workload, settings] : variants) {
            for (const char* target : {"tiles:4", "mk2"}) {
                const QString row = QString("%1 %2@%3").arg(workload, settings.join(','), target);
                QTest::newRow(qPrintable(row)) << QString(workload) << QString(target) << settings;
            }
        }
    }

    void theEstimateIsALowerBound() {
        QFETCH(QString, workload);
        QFETCH(QString, target);
        QFETCH(QStringList, settings);
        std::map<std::string, std::string> given;
        for (const QString& s : settings) {
            given[s.section('=', 0, 0).toStdString()] = s.section('=', 1).toStdString();
        }
        const workloads::Workload& w = workloads::find(workload.toStdString());
        const workloads::Parameters params(w.parameters(), given);
        const Target t = Target::preset(target.toStdString());
        const std::uint64_t estimate = w.minimumTileMemory(params, t);
        QVERIFY(estimate > 0);
        Graph graph(t);
        const workloads::Built built = w.build(graph, params);
        record::InMemoryRecorder recorder;
        EngineOptions options;
        options.recorder = &recorder;
        options.allowOutOfMemory = true;
        const Engine engine(graph, built.programs, options);
        const std::uint64_t held = variableBytes(recorder.compiled);
        QVERIFY2(
            estimate <= held,
            qPrintable(QString("estimate %1 > %2 bytes of variables").arg(estimate).arg(held)));
    }

    void docsListEveryParameterWithItsRange() {
        QFile doc(TESSERA_SOURCE_DIR "/docs/engine.md");
        QVERIFY(doc.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(doc.readAll());
        for (const workloads::Workload* w : workloads::all()) {
            for (const Parameter& p : w->parameters()) {
                const QString row =
                    QString::fromStdString("| `" + w->name() + "` | `" + p.name + "` | " +
                                           p.defaultValue + " | " + p.rangeText() + " |");
                QVERIFY2(text.contains(row), qPrintable("docs/engine.md lacks: " + row));
            }
        }
        for (const std::string& key : Target::parameterNames()) {
            const QString row =
                QString::fromStdString("| `" + key + "` | " + Target::parameterRange(key) + " |");
            QVERIFY2(text.contains(row), qPrintable("docs/engine.md lacks: " + row));
        }
    }
};

QTEST_APPLESS_MAIN(TestWorkloadLimits)
#include "tst_workload_limits.moc"
