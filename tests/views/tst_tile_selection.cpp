// The tile-selection parser: numbers, ranges, commas and spaces, merging, and
// a clear error for bad text or tiles beyond the report's count.
#include "views/common/TileSelection.h"

#include <QtTest>

using namespace tessera::views;

Q_DECLARE_METATYPE(std::vector<int>)

class TestTileSelection : public QObject {
    Q_OBJECT

private slots:
    void parses_data();
    void parses();
    void rejects_data();
    void rejects();
    void formatsCanonically();
};

void TestTileSelection::parses_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("tileCount");
    QTest::addColumn<std::vector<int>>("tiles");
    QTest::addColumn<QString>("canonical");
    QTest::newRow("empty") << "" << 16 << std::vector<int>{} << "";
    QTest::newRow("blank") << "  \t " << 16 << std::vector<int>{} << "";
    QTest::newRow("one") << "5" << 16 << std::vector<int>{5} << "5";
    QTest::newRow("first and last") << "0,15" << 16 << std::vector<int>{0, 15} << "0, 15";
    QTest::newRow("brief's example")
        << "0-3, 17" << 32 << std::vector<int>{0, 1, 2, 3, 17} << "0-3, 17";
    QTest::newRow("spaces separate") << "4 2 9" << 16 << std::vector<int>{2, 4, 9} << "2, 4, 9";
    QTest::newRow("spaced dash") << "1 - 3" << 16 << std::vector<int>{1, 2, 3} << "1-3";
    QTest::newRow("en dash") << QString("6\u20138") << 16 << std::vector<int>{6, 7, 8} << "6-8";
    QTest::newRow("one-tile range") << "7-7" << 16 << std::vector<int>{7} << "7";
    QTest::newRow("duplicates") << "3, 3,3" << 16 << std::vector<int>{3} << "3";
    QTest::newRow("overlapping ranges")
        << "2-5, 4-6" << 16 << std::vector<int>{2, 3, 4, 5, 6} << "2-6";
    QTest::newRow("touching merge")
        << "0-1, 2, 3-4" << 16 << std::vector<int>{0, 1, 2, 3, 4} << "0-4";
    QTest::newRow("unsorted") << "10, 1-2" << 16 << std::vector<int>{1, 2, 10} << "1-2, 10";
    QTest::newRow("trailing comma") << "1, 2," << 16 << std::vector<int>{1, 2} << "1-2";
    QTest::newRow("leading zeros") << "007" << 16 << std::vector<int>{7} << "7";
}

void TestTileSelection::parses() {
    QFETCH(QString, text);
    QFETCH(int, tileCount);
    QFETCH(std::vector<int>, tiles);
    QFETCH(QString, canonical);
    const TileSelection s = parseTileSelection(text, tileCount);
    QVERIFY2(s.ok(), qPrintable(s.error));
    QCOMPARE(s.tiles(), tiles);
    QCOMPARE(s.count(), static_cast<int>(tiles.size()));
    QCOMPARE(s.empty(), tiles.empty());
    for (int t = 0; t < tileCount; ++t) {
        QCOMPARE(s.contains(t), std::find(tiles.begin(), tiles.end(), t) != tiles.end());
    }
    QCOMPARE(formatTileSelection(s.ranges), canonical);
}

void TestTileSelection::rejects_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("tileCount");
    QTest::addColumn<QString>("error");
    QTest::newRow("word") << "all" << 16 << "'all' is not a tile number or range (e.g. 0-3, 17)";
    QTest::newRow("negative") << "-3" << 16 << "'-3' is not a tile number or range (e.g. 0-3, 17)";
    QTest::newRow("open range") << "3-" << 16
                                << "'3-' is not a tile number or range (e.g. 0-3, 17)";
    QTest::newRow("two dashes") << "1-2-3" << 16
                                << "'1-2-3' is not a tile number or range (e.g. 0-3, 17)";
    QTest::newRow("decimal") << "1.5" << 16 << "'1.5' is not a tile number or range (e.g. 0-3, 17)";
    QTest::newRow("bad after good")
        << "0-3, x7" << 16 << "'x7' is not a tile number or range (e.g. 0-3, 17)";
    QTest::newRow("backwards") << "9-2" << 16 << "range '9-2' runs backwards (write 2-9)";
    QTest::newRow("one past the end")
        << "16" << 16 << "tile 16 is beyond the report's 16 tiles (0-15)";
    QTest::newRow("range past the end")
        << "10-20" << 16 << "tile 20 is beyond the report's 16 tiles (0-15)";
    QTest::newRow("huge") << "99999999999999999999" << 1472
                          << "tile 99999999999999999999 is beyond the report's 1472 tiles (0-1471)";
    QTest::newRow("no tiles") << "0" << 0 << "tile 0: the report has no tiles";
}

void TestTileSelection::rejects() {
    QFETCH(QString, text);
    QFETCH(int, tileCount);
    QFETCH(QString, error);
    const TileSelection s = parseTileSelection(text, tileCount);
    QVERIFY(!s.ok());
    QCOMPARE(s.error, error);
}

void TestTileSelection::formatsCanonically() {
    QCOMPARE(formatTileSelection({{0, 3}, {17, 17}, {20, 1471}}), QString("0-3, 17, 20-1471"));
    QCOMPARE(formatTileSelection({}), QString());
}

QTEST_APPLESS_MAIN(TestTileSelection)
#include "tst_tile_selection.moc"
