#include "views/common/Colors.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace tessera::views {

QColor categoryColor(record::MemoryCategory category) {
    // Variables warm, code cool, state and descriptors in between; stack grey.
    static const std::array<QColor, record::kMemoryCategoryCount> colors = {
        QColor(0xd6, 0x27, 0x28), // always-live variables
        QColor(0xff, 0x7f, 0x0e), // not-always-live variables
        QColor(0xbc, 0xbd, 0x22), // constants
        QColor(0x94, 0x67, 0xbd), // vertex instance state
        QColor(0xe3, 0x77, 0xc2), // vector list descriptors
        QColor(0x1f, 0x77, 0xb4), // vertex code
        QColor(0x17, 0xbe, 0xcf), // internal exchange code
        QColor(0x2c, 0xa0, 0x2c), // host exchange code
        QColor(0x8c, 0x56, 0x4b), // control code
        QColor(0x7f, 0x7f, 0x7f), // stack
    };
    const auto i = static_cast<std::size_t>(category);
    return i < colors.size() ? colors[i] : QColor(Qt::black);
}

QColor categoryColor(std::uint32_t categoryId) {
    return categoryColor(static_cast<record::MemoryCategory>(categoryId));
}

QColor gapColor() {
    return QColor(0xdd, 0xdd, 0xdd);
}

QColor phaseColor(Phase phase) {
    switch (phase) {
    case Phase::Compute:
        return QColor(0x3b, 0xa5, 0x5c);
    case Phase::Exchange:
        return QColor(0x3d, 0x7e, 0xd6);
    case Phase::Sync:
        return QColor(0xc8, 0xc8, 0xc8);
    }
    return Qt::black;
}

QColor phaseColor(Phase phase, const QPalette& palette) {
    if (phase == Phase::Sync && isDarkPalette(palette)) {
        return QColor(0x5e, 0x5e, 0x5e);
    }
    return phaseColor(phase);
}

QColor heatColor(double t) {
    // A compact viridis-like ramp, interpolated linearly between stops.
    static const std::array<QColor, 5> stops = {QColor(0x44, 0x01, 0x54), QColor(0x3b, 0x52, 0x8b),
                                                QColor(0x21, 0x90, 0x8d), QColor(0x5d, 0xc9, 0x63),
                                                QColor(0xfd, 0xe7, 0x25)};
    t = std::clamp(std::isnan(t) ? 0.0 : t, 0.0, 1.0) * (stops.size() - 1);
    const auto i = std::min<std::size_t>(static_cast<std::size_t>(t), stops.size() - 2);
    const double f = t - static_cast<double>(i);
    auto mix = [f](int a, int b) { return static_cast<int>(std::lround(a + (b - a) * f)); };
    return QColor(mix(stops[i].red(), stops[i + 1].red()),
                  mix(stops[i].green(), stops[i + 1].green()),
                  mix(stops[i].blue(), stops[i + 1].blue()));
}

QColor divergingColor(double t) {
    t = std::clamp(std::isnan(t) ? 0.0 : t, -1.0, 1.0);
    const QColor low(0x21, 0x66, 0xac), mid(0xf7, 0xf7, 0xf7), high(0xb2, 0x18, 0x2b);
    const QColor& end = t < 0 ? low : high;
    const double f = std::fabs(t);
    auto mix = [f](int a, int b) { return static_cast<int>(std::lround(a + (b - a) * f)); };
    return QColor(mix(mid.red(), end.red()), mix(mid.green(), end.green()),
                  mix(mid.blue(), end.blue()));
}

QColor betterColor(const QPalette& palette) {
    return isDarkPalette(palette) ? QColor(0x6c, 0xc9, 0x7a) : QColor(0x1b, 0x7a, 0x34);
}

QColor worseColor(const QPalette& palette) {
    return isDarkPalette(palette) ? QColor(0xff, 0x6e, 0x6e) : QColor(0xc6, 0x28, 0x28);
}

QColor baselineSideColor() {
    return QColor(0x7f, 0x8c, 0x9d);
}
QColor comparisonSideColor() {
    return QColor(0xe6, 0x7e, 0x22);
}

QColor capacityLineColor() {
    return QColor(0xb2, 0x18, 0x2b);
}
QColor selectionColor() {
    return QColor(0xff, 0xa5, 0x00);
}

bool isDarkPalette(const QPalette& palette) {
    return palette.color(QPalette::Window).lightness() < 128;
}

namespace {
// setColor(role, c) sets every colour group: without this, a disabled button
// or label reads exactly like an enabled one.
void setDisabledText(QPalette& p, const QColor& c) {
    for (const auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText}) {
        p.setColor(QPalette::Disabled, role, c);
    }
}
} // namespace

QPalette lightPalette() {
    QPalette p;
    p.setColor(QPalette::Window, QColor(0xf3, 0xf3, 0xf3));
    p.setColor(QPalette::WindowText, Qt::black);
    p.setColor(QPalette::Base, Qt::white);
    p.setColor(QPalette::AlternateBase, QColor(0xf7, 0xf7, 0xf7));
    p.setColor(QPalette::Text, Qt::black);
    p.setColor(QPalette::Button, QColor(0xec, 0xec, 0xec));
    p.setColor(QPalette::ButtonText, Qt::black);
    p.setColor(QPalette::Highlight, QColor(0x30, 0x8c, 0xc6));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::ToolTipBase, QColor(0xff, 0xff, 0xdc));
    p.setColor(QPalette::ToolTipText, Qt::black);
    p.setColor(QPalette::Light, Qt::white);
    p.setColor(QPalette::Midlight, QColor(0xe3, 0xe3, 0xe3));
    p.setColor(QPalette::Mid, QColor(0xb8, 0xb8, 0xb8));
    p.setColor(QPalette::Dark, QColor(0x9f, 0x9f, 0x9f));
    p.setColor(QPalette::Shadow, QColor(0x76, 0x76, 0x76));
    p.setColor(QPalette::PlaceholderText, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::BrightText, Qt::red);
    p.setColor(QPalette::Link, QColor(0x1f, 0x5f, 0xa8));
    setDisabledText(p, QColor(0x9a, 0x9a, 0x9a));
    return p;
}

QPalette darkPalette() {
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    p.setColor(QPalette::WindowText, QColor(0xe0, 0xe0, 0xe0));
    p.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x26, 0x26));
    p.setColor(QPalette::Text, QColor(0xe0, 0xe0, 0xe0));
    p.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
    p.setColor(QPalette::ButtonText, QColor(0xe0, 0xe0, 0xe0));
    p.setColor(QPalette::Highlight, QColor(0x2f, 0x7d, 0xb3));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::ToolTipBase, QColor(0x3a, 0x3a, 0x3a));
    p.setColor(QPalette::ToolTipText, QColor(0xe0, 0xe0, 0xe0));
    // The frame roles matter in dark mode: line edits and check boxes draw
    // their borders with them.
    p.setColor(QPalette::Light, QColor(0x50, 0x50, 0x50));
    p.setColor(QPalette::Midlight, QColor(0x44, 0x44, 0x44));
    p.setColor(QPalette::Mid, QColor(0x60, 0x60, 0x60));
    p.setColor(QPalette::Dark, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Shadow, QColor(0x10, 0x10, 0x10));
    p.setColor(QPalette::PlaceholderText, QColor(0x90, 0x90, 0x90));
    p.setColor(QPalette::BrightText, QColor(0xff, 0x60, 0x60));
    p.setColor(QPalette::Link, QColor(0x6c, 0xb0, 0xf0));
    setDisabledText(p, QColor(0x78, 0x78, 0x78));
    return p;
}

} // namespace tessera::views
