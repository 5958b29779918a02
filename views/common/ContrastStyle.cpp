#include "views/common/ContrastStyle.h"

#include "views/common/Colors.h"

#include <QApplication>
#include <QPainter>
#include <QStyleOption>

namespace tessera::views {

QColor ContrastStyle::indicatorFrame(const QPalette& palette) {
    // Between the text and the window: readable on Base and on Window.
    const QColor a = palette.color(QPalette::Text), b = palette.color(QPalette::Window);
    return QColor((a.red() + b.red()) / 2, (a.green() + b.green()) / 2, (a.blue() + b.blue()) / 2);
}

void ContrastStyle::drawPrimitive(PrimitiveElement element, const QStyleOption* option,
                                  QPainter* painter, const QWidget* widget) const {
    QProxyStyle::drawPrimitive(element, option, painter, widget);
    const bool box = element == PE_IndicatorCheckBox || element == PE_IndicatorItemViewItemCheck;
    if (option == nullptr || !isDarkPalette(option->palette) ||
        !(box || element == PE_IndicatorRadioButton)) {
        return;
    }
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, element == PE_IndicatorRadioButton);
    QColor frame = indicatorFrame(option->palette);
    if (!(option->state & State_Enabled)) {
        frame = option->palette.color(QPalette::Disabled, QPalette::Text);
    }
    painter->setPen(QPen(frame, 1));
    painter->setBrush(Qt::NoBrush);
    const QRect r = option->rect.adjusted(0, 0, -1, -1);
    if (element == PE_IndicatorRadioButton) {
        painter->drawEllipse(QRectF(r).adjusted(0.5, 0.5, -0.5, -0.5));
    } else {
        painter->drawRect(r);
    }
    painter->restore();
}

void useContrastStyle() {
    if (qobject_cast<ContrastStyle*>(QApplication::style()) == nullptr) {
        QApplication::setStyle(new ContrastStyle(QApplication::style()->name()));
    }
}

} // namespace tessera::views
