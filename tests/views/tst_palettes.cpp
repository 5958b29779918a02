// The light and dark palettes: a disabled button's text is drawn visibly
// fainter than an enabled one's (closer to the button colour), in both.
#include "views/common/Colors.h"

#include <QPushButton>
#include <QtTest>

using namespace tessera::views;

namespace {

// How far the text's most contrasting pixel is from the button background.
int textContrast(const QPalette& palette, bool enabled) {
    QPushButton button("MMMMMMMM");
    button.setPalette(palette);
    button.setEnabled(enabled);
    button.resize(160, 40);
    const QImage image = button.grab().toImage();
    const int background = palette.color(QPalette::Button).lightness();
    int best = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            best = std::max(best, std::abs(QColor(image.pixel(x, y)).lightness() - background));
        }
    }
    return best;
}

} // namespace

class TestPalettes : public QObject {
    Q_OBJECT

private slots:
    void disabledTextIsFainter_data() {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }

    void disabledTextIsFainter() {
        QFETCH(bool, dark);
        const QPalette p = dark ? darkPalette() : lightPalette();
        QCOMPARE(isDarkPalette(p), dark);
        for (const auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText}) {
            QVERIFY(p.color(QPalette::Disabled, role) != p.color(QPalette::Active, role));
        }
        const int enabled = textContrast(p, true), disabled = textContrast(p, false);
        QVERIFY2(
            disabled < enabled * 3 / 4,
            qPrintable(QString("contrast enabled %1, disabled %2").arg(enabled).arg(disabled)));
    }
};

QTEST_MAIN(TestPalettes)
#include "tst_palettes.moc"
