// The strong ids at the Qt boundary (views/common/IdNumbers.h) and the shared
// Selection that carries them: numbers and QVariants in and out, none() as -1,
// and the selection's signals (queued too) delivering the ids themselves.
#include "views/common/IdNumbers.h"
#include "views/common/Selection.h"

#include <QSignalSpy>
#include <QtTest>

using namespace tessera;
using namespace tessera::views;

class TestIdNumbers : public QObject {
    Q_OBJECT

private slots:
    void numbers();
    void fromNumbers();
    void fromVariants();
    void selectionCarriesIds();
    void queuedSignalsCarryIds();
};

void TestIdNumbers::numbers() {
    QCOMPARE(idNumber(record::StepId{0u}), 0);
    QCOMPARE(idNumber(record::TileId{1471u}), 1471);
    QCOMPARE(idNumber(record::StepId::none()), -1);
    QCOMPARE(idNumber(record::ComputeSetId::none()), -1);
    QCOMPARE(idVariant(record::VariableId{12u}), QVariant(12));
    QCOMPARE(idVariant(record::VariableId::none()), QVariant(-1));
}

void TestIdNumbers::fromNumbers() {
    QCOMPARE(idFromNumber<record::StepId>(0), record::StepId{0u});
    QCOMPARE(idFromNumber<record::TileId>(1471), record::TileId{1471u});
    QCOMPARE(idFromNumber<record::StepId>(-1), record::StepId::none());
    QCOMPARE(idFromNumber<record::StepId>(-7), record::StepId::none());
    // Beyond the id's range (and the none() value itself): none().
    QCOMPARE(idFromNumber<record::TileId>(qint64(0xffffffffu)), record::TileId::none());
    QCOMPARE(idFromNumber<record::TileId>(qint64(1) << 40), record::TileId::none());
    QCOMPARE(idFromNumber<record::TileId>(qint64(0xfffffffeu)), record::TileId{0xfffffffeu});
    // Round trips.
    for (const record::StepId id :
         {record::StepId{0u}, record::StepId{5u}, record::StepId::none()}) {
        QCOMPARE(idFromNumber<record::StepId>(idNumber(id)), id);
        QCOMPARE(idFromVariant<record::StepId>(idVariant(id)), id);
    }
}

void TestIdNumbers::fromVariants() {
    // Item models hand ids out as int, uint or qulonglong.
    QCOMPARE(idFromVariant<record::VariableId>(QVariant(7)), record::VariableId{7u});
    QCOMPARE(idFromVariant<record::VariableId>(QVariant(7u)), record::VariableId{7u});
    QCOMPARE(idFromVariant<record::VariableId>(QVariant(qulonglong(7))), record::VariableId{7u});
    QCOMPARE(idFromVariant<record::VariableId>(QVariant(0xffffffffu)),
             record::VariableId::none()); // a model's value() of none()
    QCOMPARE(idFromVariant<record::VariableId>(QVariant(-1)), record::VariableId::none());
    // The id itself, as a signal's argument arrives in a QSignalSpy.
    QCOMPARE(idFromVariant<record::StepId>(QVariant::fromValue(record::StepId{3u})),
             record::StepId{3u});
    // Neither: none().
    QCOMPARE(idFromVariant<record::StepId>(QVariant()), record::StepId::none());
    QCOMPARE(idFromVariant<record::StepId>(QVariant(QStringLiteral("total"))),
             record::StepId::none());
    QCOMPARE(idFromVariant<record::StepId>(QVariant::fromValue(record::TileId{3u})),
             record::StepId::none()); // another kind of id
}

void TestIdNumbers::selectionCarriesIds() {
    Selection selection;
    QCOMPARE(selection.step(), record::StepId::none());
    QCOMPARE(selection.tile(), record::TileId::none());
    QCOMPARE(selection.variable(), record::VariableId::none());
    QCOMPARE(selection.computeSet(), record::ComputeSetId::none());
    QSignalSpy steps(&selection, &Selection::stepChanged);
    QSignalSpy tiles(&selection, &Selection::tileChanged);
    QSignalSpy variables(&selection, &Selection::variableChanged);
    QSignalSpy computeSets(&selection, &Selection::computeSetChanged);
    QVERIFY(steps.isValid() && tiles.isValid() && variables.isValid() && computeSets.isValid());
    selection.setStep(record::StepId{4u});
    selection.setStep(record::StepId{4u}); // no change: no signal
    selection.setTile(record::TileId{0u});
    selection.setVariable(record::VariableId{9u});
    selection.setComputeSet(record::ComputeSetId{2u});
    QCOMPARE(steps.size(), 1);
    QCOMPARE(steps.at(0).at(0).value<record::StepId>(), record::StepId{4u});
    QCOMPARE(tiles.at(0).at(0).value<record::TileId>(), record::TileId{0u});
    QCOMPARE(variables.at(0).at(0).value<record::VariableId>(), record::VariableId{9u});
    QCOMPARE(computeSets.at(0).at(0).value<record::ComputeSetId>(), record::ComputeSetId{2u});
    QCOMPARE(selection.step(), record::StepId{4u});
    selection.clear();
    QCOMPARE(steps.size(), 2);
    QCOMPARE(steps.at(1).at(0).value<record::StepId>(), record::StepId::none());
    QCOMPARE(tiles.at(1).at(0).value<record::TileId>(), record::TileId::none());
    QCOMPARE(selection.variable(), record::VariableId::none());
    QCOMPARE(selection.computeSet(), record::ComputeSetId::none());
}

void TestIdNumbers::queuedSignalsCarryIds() {
    Selection from, to;
    connect(&from, &Selection::stepChanged, &to, &Selection::setStep, Qt::QueuedConnection);
    connect(&from, &Selection::tileChanged, &to, &Selection::setTile, Qt::QueuedConnection);
    from.setStep(record::StepId{11u});
    from.setTile(record::TileId{3u});
    QCOMPARE(to.step(), record::StepId::none()); // not yet delivered
    QTRY_COMPARE(to.step(), record::StepId{11u});
    QTRY_COMPARE(to.tile(), record::TileId{3u});
}

QTEST_GUILESS_MAIN(TestIdNumbers)
#include "tst_id_numbers.moc"
