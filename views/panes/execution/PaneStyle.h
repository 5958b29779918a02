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

} // namespace tessera::views::execution
