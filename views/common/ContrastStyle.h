#pragma once
// The application's style with check box and radio button indicators that
// stay visible on a dark palette: Fusion draws their frame a shade darker
// than the window, which on a dark window is the colour of the box itself.
// Here the frame is redrawn in a mid grey that stands out from both the box
// (Base) and the window. Light palettes are drawn exactly as the base style.
#include <QProxyStyle>

namespace tessera::views {

class ContrastStyle : public QProxyStyle {
    Q_OBJECT

public:
    using QProxyStyle::QProxyStyle;

    void drawPrimitive(PrimitiveElement element, const QStyleOption* option, QPainter* painter,
                       const QWidget* widget = nullptr) const override;

    // The frame colour on `palette` (dark palettes only).
    static QColor indicatorFrame(const QPalette& palette);
};

// Installs a ContrastStyle over the application's current style, once.
void useContrastStyle();

} // namespace tessera::views
