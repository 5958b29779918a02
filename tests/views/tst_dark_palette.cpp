// The dark palette (issue 15, defect 9): check boxes show their box (Fusion
// alone draws its frame in nearly the box's own colour), and sync blocks are
// a quiet grey instead of a light block glaring among compute and exchange.
// Checked in pixels: a check box rendered with and without ContrastStyle,
// and the Execution timeline of a 16-tile report drawn dark.
#include "ReportFixtures.h"
#include "views/common/Colors.h"
#include "views/common/ContrastStyle.h"
#include "views/data/ReportLoader.h"
#include "views/panes/ExecutionPane.h"
#include "views/panes/execution/TimelineWidget.h"

#include <QCheckBox>
#include <QStyleFactory>
#include <QStyleOptionButton>
#include <QtTest>

#include <memory>

using namespace tessera;
using namespace tessera::views;

namespace {

// The largest lightness difference between the indicator's frame pixels
// (its outermost ring) and the Base colour.
int frameContrast(QStyle* style) {
    QCheckBox box(QStringLiteral("Breakpoint"));
    box.setStyle(style);
    box.setPalette(darkPalette());
    box.resize(box.sizeHint());
    const QImage image = box.grab().toImage();
    QStyleOptionButton option;
    option.initFrom(&box);
    const QRect r = style->subElementRect(QStyle::SE_CheckBoxIndicator, &option, &box);
    const int base = darkPalette().color(QPalette::Base).lightness();
    int best = 0;
    for (int x = r.left(); x <= r.right(); ++x) {
        for (const int y : {r.top(), r.bottom()}) {
            best = std::max(best, std::abs(image.pixelColor(x, y).lightness() - base));
        }
    }
    for (int y = r.top(); y <= r.bottom(); ++y) {
        for (const int x : {r.left(), r.right()}) {
            best = std::max(best, std::abs(image.pixelColor(x, y).lightness() - base));
        }
    }
    return best;
}

} // namespace

class TestDarkPalette : public QObject {
    Q_OBJECT

private slots:
    void checkBoxesShowTheirBox() {
        std::unique_ptr<QStyle> plain(QStyleFactory::create(QStringLiteral("Fusion")));
        ContrastStyle contrast(QStringLiteral("Fusion"));
        const int before = frameContrast(plain.get());
        const int after = frameContrast(&contrast);
        qInfo("frame contrast on the dark palette: Fusion %d, ContrastStyle %d", before, after);
        QVERIFY2(after >= 60, qPrintable(QString::number(after)));
    }

    void syncIsQuietOnDark() {
        // The colour itself: far darker than the light palette's sync grey.
        QVERIFY(phaseColor(Phase::Sync, darkPalette()).lightness() < 110);
        QCOMPARE(phaseColor(Phase::Sync, lightPalette()), phaseColor(Phase::Sync));

        const LoadedReport report =
            ReportLoader::loadNow(testing::capturedReport("matmul", "tiles:16"));
        QVERIFY(report.data != nullptr);
        ExecutionPane pane;
        pane.setPalette(darkPalette());
        pane.resize(1200, 800);
        pane.setReport(report.data, report.source);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QTRY_VERIFY_WITH_TIMEOUT(!pane.isFetching(), 60000);
        auto* timeline = pane.timeline();
        const QImage image = timeline->grab().toImage();
        image.save(QDir(QStringLiteral(TESSERA_TEST_OUTPUT_DIR)).filePath("timeline-dark.png"));
        const QRect plot = timeline->plotRect();
        const QRgb light = phaseColor(Phase::Sync).rgb();
        const QRgb dark = phaseColor(Phase::Sync, darkPalette()).rgb();
        int lightPixels = 0, darkPixels = 0;
        for (int y = plot.top(); y < plot.top() + timeline->layout().height; ++y) {
            for (int x = plot.left(); x <= plot.right(); ++x) {
                const QRgb c = image.pixel(x, y);
                lightPixels += c == light;
                darkPixels += c == dark;
            }
        }
        QCOMPARE(lightPixels, 0);
        QVERIFY(darkPixels > 0); // the syncs are drawn, in the quiet grey
    }
};

QTEST_MAIN(TestDarkPalette)
#include "tst_dark_palette.moc"
