#pragma once
// Small look-and-feel helpers of the execution pane's widgets.
#include <QColor>
#include <QPalette>

namespace tessera::views::execution {

// Secondary text: between the window text and the window, in light and dark palettes.
inline QColor mutedColor(const QPalette& palette, double towardsWindow = 0.45) {
    const QColor a = palette.color(QPalette::WindowText), b = palette.color(QPalette::Window);
    auto mix = [towardsWindow](int x, int y) {
        return static_cast<int>(x + (y - x) * towardsWindow + 0.5);
    };
    return QColor(mix(a.red(), b.red()), mix(a.green(), b.green()), mix(a.blue(), b.blue()));
}

// A search: what does not match is covered with the plot's base colour at
// this opacity (of 255); matching executions get a mark of kSearchMarkColor.
inline constexpr int kSearchDimAlpha = 170;
inline QColor searchMarkColor() {
    return QColor(0xf5, 0xa6, 0x23); // amber: apart from the selection and the phases
}
// `c` moved `towardsBase` of the way to `base` (dimmed spans of the flame view).
inline QColor towards(const QColor& c, const QColor& base, double towardsBase) {
    auto mix = [towardsBase](int x, int y) {
        return static_cast<int>(x + (y - x) * towardsBase + 0.5);
    };
    return QColor(mix(c.red(), base.red()), mix(c.green(), base.green()),
                  mix(c.blue(), base.blue()));
}

} // namespace tessera::views::execution
