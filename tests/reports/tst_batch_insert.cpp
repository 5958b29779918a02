// sql::BatchInsert: rows of integers and NULLs inserted in batches of
// kRows arrive whole and in order, whatever their count against the batch;
// the multi-row INSERT's parameters are numbered row by row.
#include "reports/BatchInsert.h"
#include "reports/ReportError.h"
#include "reports/Sqlite.h"
#include "reports/Tables.h"

#include <QTemporaryDir>
#include <QTest>

#include <optional>
#include <vector>

using namespace tessera::reports;
namespace blocks = tables::memory_blocks;

namespace {

struct Row {
    std::int64_t tile, id, category, address, bytes;
    std::optional<std::int64_t> owner;
    bool operator==(const Row&) const = default;
};

// Row i as the test makes it: every fifth without an owner.
Row made(std::int64_t i) {
    return {i / 23, i,          i % 7,
            i * 16, 64 + i % 5, i % 5 == 0 ? std::nullopt : std::optional<std::int64_t>(i % 100)};
}

void add(sql::BatchInsert& insert, const Row& r) {
    using B = blocks::Col;
    insert.row()
        .bind(tables::param(B::tile), r.tile)
        .bind(tables::param(B::id), r.id)
        .bind(tables::param(B::category_id), r.category)
        .bind(tables::param(B::address), r.address)
        .bind(tables::param(B::bytes), r.bytes)
        .bindId(tables::param(B::owner),
                r.owner ? static_cast<std::uint32_t>(*r.owner) : tessera::record::kNone);
}

// A scratch database holding the memory-block table, empty.
struct Scratch {
    QTemporaryDir dir;
    sql::Database db{dir.filePath("t.db").toStdString(), sql::Database::Mode::Create};
    Scratch() { db.exec(tables::createSql(blocks::kTable)); }
};

std::vector<Row> readBack(sql::Database& db) {
    std::vector<Row> rows;
    auto select = db.prepare(tables::selectSql(blocks::kTable) + " ORDER BY tile, id");
    using B = blocks::Col;
    while (select.step()) {
        Row r{select.integer(tables::col(B::tile)),        select.integer(tables::col(B::id)),
              select.integer(tables::col(B::category_id)), select.integer(tables::col(B::address)),
              select.integer(tables::col(B::bytes)),       std::nullopt};
        if (!select.isNull(tables::col(B::owner))) {
            r.owner = select.integer(tables::col(B::owner));
        }
        rows.push_back(r);
    }
    return rows;
}

} // namespace

class TestBatchInsert : public QObject {
    Q_OBJECT

private slots:
    void rowsArriveWhole_data() {
        QTest::addColumn<int>("count");
        const int batch = static_cast<int>(sql::BatchInsert::kRows);
        for (int count : {0, 1, batch - 1, batch, batch + 1, 3 * batch + 5}) {
            QTest::addRow("%d rows", count) << count;
        }
    }
    void rowsArriveWhole() {
        QFETCH(int, count);
        Scratch scratch;
        scratch.db.exec("BEGIN");
        std::vector<Row> expected;
        {
            sql::BatchInsert insert(scratch.db, blocks::kTable);
            for (int i = 0; i < count; ++i) {
                expected.push_back(made(i));
                add(insert, expected.back());
            }
            insert.finish();
            insert.finish(); // nothing left: inserts nothing twice
        }
        scratch.db.exec("COMMIT");
        QCOMPARE(readBack(scratch.db), expected);
    }

    // A column left unbound in a row is NULL, as with a single-row statement.
    void unboundColumnIsNull() {
        Scratch scratch;
        sql::BatchInsert insert(scratch.db, blocks::kTable);
        using B = blocks::Col;
        insert.row()
            .bind(tables::param(B::tile), 3)
            .bind(tables::param(B::id), 4)
            .bind(tables::param(B::category_id), 1);
        insert.bind(tables::param(B::address), 0).bind(tables::param(B::bytes), 8);
        insert.finish();
        const auto rows = readBack(scratch.db);
        QCOMPARE(rows.size(), std::size_t{1});
        QVERIFY(!rows[0].owner.has_value());
    }

    // Rows dropped before they were inserted never arrive (the writer's
    // discardRuns); rows after them do.
    void discardedRowsNeverArrive() {
        Scratch scratch;
        sql::BatchInsert insert(scratch.db, blocks::kTable);
        add(insert, made(1));
        add(insert, made(2));
        insert.discard();
        add(insert, made(3));
        insert.finish();
        QCOMPARE(readBack(scratch.db), std::vector<Row>{made(3)});
    }

    void bindOutsideARowThrows() {
        Scratch scratch;
        sql::BatchInsert insert(scratch.db, blocks::kTable);
        QVERIFY_THROWS_EXCEPTION(ReportError, insert.bind(1, 0));
        insert.row();
        QVERIFY_THROWS_EXCEPTION(ReportError, insert.bind(0, 0));
        QVERIFY_THROWS_EXCEPTION(ReportError, insert.bind(7, 0)); // six columns
    }

    void multiRowSqlNumbersRowByRow() {
        QCOMPARE(tables::insertSql(tables::regions::kTable, 2),
                 std::string("INSERT INTO regions (id, name_id, offset, bytes) VALUES "
                             "(?1, ?2, ?3, ?4), (?5, ?6, ?7, ?8)"));
        QCOMPARE(tables::insertSql(tables::regions::kTable),
                 tables::insertSql(tables::regions::kTable, 1));
    }
};

QTEST_GUILESS_MAIN(TestBatchInsert)
#include "tst_batch_insert.moc"
