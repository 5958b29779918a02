#include "views/panes/memory/CheckedToolButton.h"

#include <QPainter>
#include <QStyleOptionToolButton>

namespace tessera::views {

CheckedToolButton::CheckedToolButton(QWidget* parent)
    : QToolButton(parent) {
    setCheckable(true);
}

void CheckedToolButton::paintEvent(QPaintEvent* event) {
    if (!isChecked()) {
        QToolButton::paintEvent(event);
        return;
    }
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette& pal = palette();
    p.setPen(QPen(pal.color(QPalette::Highlight).darker(130), 1));
    p.setBrush(pal.color(QPalette::Highlight));
    p.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 3, 3);
    p.setPen(pal.color(QPalette::HighlightedText));
    p.drawText(rect(), Qt::AlignCenter, text());
}

} // namespace tessera::views
