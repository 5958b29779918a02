// Program kinds travel from the engine to the views as record::ProgramKind.
// A report built by hand in the test holds one program node of every kind;
// the Program tree model (under QAbstractItemModelTester) must show each
// kind's name and colour, compared with literal expected values, and a step
// of each kind must take its BSP phase colour (the flame graph's). Stream
// copies are exchange, not sync (issue 15, defect 5).
#include "views/data/ReportData.h"
#include "views/models/ProgramKinds.h"
#include "views/models/ProgramStats.h"
#include "views/models/ProgramTreeModel.h"

#include <QAbstractItemModelTester>
#include <QtTest>

#include <memory>

using namespace tessera;
using namespace tessera::views;
using record::ProgramKind;

namespace {

struct Expected {
    ProgramKind kind;
    const char* name;  // the name a report stores
    QColor tree;       // swatch in the Program tree
    QColor stepColour; // a step of this kind in the flame graph
};

// Written out by hand: the phase colours are green (compute), blue
// (exchange) and light grey (sync).
const QColor kCompute(0x3b, 0xa5, 0x5c);
const QColor kExchange(0x3d, 0x7e, 0xd6);
const QColor kSync(0xc8, 0xc8, 0xc8);
const QColor kControl(0xe0, 0x9b, 0x2d);
const QColor kQuiet(0x9a, 0xa5, 0xb1);

const std::vector<Expected>& expected() {
    static const std::vector<Expected> list = {
        {ProgramKind::Sequence, "Sequence", kQuiet, kSync},
        {ProgramKind::Execute, "Execute", kCompute, kCompute},
        {ProgramKind::Repeat, "Repeat", kControl, kSync},
        {ProgramKind::RepeatWhileTrue, "RepeatWhileTrue", kControl, kSync},
        {ProgramKind::RepeatWhileFalse, "RepeatWhileFalse", kControl, kSync},
        {ProgramKind::If, "If", kControl, kSync},
        {ProgramKind::Copy, "Copy", kExchange, kExchange},
        {ProgramKind::StreamToDevice, "StreamCopyToDevice", kExchange, kExchange},
        {ProgramKind::StreamToHost, "StreamCopyToHost", kExchange, kExchange},
        {ProgramKind::PrintTensor, "PrintTensor", kQuiet, kSync},
        {ProgramKind::Block, "Block", QColor(0x94, 0x67, 0xbd), kSync},
        {ProgramKind::Sync, "Sync", kSync, kSync},
        {ProgramKind::Predicate, "Predicate", kControl, kSync},
        {ProgramKind::Switch, "Switch", kControl, kSync},
        {ProgramKind::Abort, "Abort", QColor(0xd6, 0x27, 0x28), kSync},
        {ProgramKind::CycleStamp, "CycleStamp", QColor(0x17, 0xa2, 0xb8), kSync},
    };
    return list;
}

// A Sequence root (node 0) with one child of every kind, in enum order.
std::shared_ptr<const ReportData> reportWithEveryKind() {
    auto data = std::make_shared<ReportData>();
    data->programNodes.push_back({record::ProgramNodeId{0u}, record::ProgramNodeId::none(), 0,
                                  ProgramKind::Sequence, "root", record::ComputeSetId::none(), 0,
                                  record::StepId::none()});
    for (std::size_t i = 0; i < expected().size(); ++i) {
        const auto id = static_cast<std::uint32_t>(i + 1);
        data->programNodes.push_back({record::ProgramNodeId{id}, record::ProgramNodeId{0u}, 0,
                                      expected()[i].kind, "", record::ComputeSetId::none(), 0,
                                      record::StepId::none()});
    }
    return data;
}

} // namespace

class TestProgramKinds : public QObject {
    Q_OBJECT

private slots:
    void everyKindIsListed() {
        QCOMPARE(expected().size(), record::kProgramKindCount);
        for (std::size_t i = 0; i < expected().size(); ++i) {
            QCOMPARE(static_cast<std::size_t>(expected()[i].kind), i);
        }
    }

    // The reader's way back: every stored name maps to its kind; any other
    // name maps to none (the reader then names the column as damaged).
    void namesRoundTrip() {
        for (const Expected& e : expected()) {
            QCOMPARE(QString::fromLatin1(record::programKindName(e.kind)), QString(e.name));
            QVERIFY(record::programKindFromName(e.name) == e.kind);
        }
        QVERIFY(!record::programKindFromName("StreamToDevice").has_value());
        QVERIFY(!record::programKindFromName("").has_value());
        QVERIFY(!record::programKindFromName("execute").has_value());
    }

    void treeShowsEveryKindsNameAndColour() {
        const auto data = reportWithEveryKind();
        const auto stats = std::make_shared<const ProgramStats>(computeProgramStats(*data, {}));
        ProgramTreeModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setProgram(data, stats);
        QCOMPARE(model.rowCount(), 1);
        const QModelIndex root = model.index(0, ProgramTreeModel::Name);
        QCOMPARE(model.rowCount(root), static_cast<int>(expected().size()));
        for (int row = 0; row < model.rowCount(root); ++row) {
            const Expected& e = expected()[static_cast<std::size_t>(row)];
            const QModelIndex name = model.index(row, ProgramTreeModel::Name, root);
            const QModelIndex kind = model.index(row, ProgramTreeModel::Kind, root);
            QCOMPARE(model.data(kind).toString(), QString(e.name));
            const QColor swatch = model.data(name, Qt::DecorationRole).value<QColor>();
            QVERIFY2(swatch == e.tree,
                     qPrintable(
                         QString("%1: %2, expected %3").arg(e.name, swatch.name(), e.tree.name())));
            const QColor step = phaseColor(stepPhase(e.kind));
            QVERIFY2(step == e.stepColour,
                     qPrintable(QString("%1 step: %2, expected %3")
                                    .arg(e.name, step.name(), e.stepColour.name())));
        }
    }
};

QTEST_MAIN(TestProgramKinds)
#include "tst_program_kinds.moc"
