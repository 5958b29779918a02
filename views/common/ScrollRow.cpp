#include "views/common/ScrollRow.h"

#include <QScrollBar>

namespace tessera::views {

namespace {
constexpr int kMinimumWidth = 120; // enough to show that the row continues
} // namespace

ScrollRow::ScrollRow(QWidget* row, QWidget* parent)
    : QScrollArea(parent) {
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setWidgetResizable(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setBackgroundRole(QPalette::Window);
    setWidget(row);
    row->setAutoFillBackground(false);
    viewport()->setAutoFillBackground(false);
    fitHeight();
}

QSize ScrollRow::sizeHint() const {
    const QSize row = widget() ? widget()->sizeHint() : QSize();
    return {row.width(), height()};
}

QSize ScrollRow::minimumSizeHint() const {
    return {kMinimumWidth, height()};
}

void ScrollRow::resizeEvent(QResizeEvent* event) {
    QScrollArea::resizeEvent(event);
    fitHeight();
}

// The row's height, plus the scroll bar's while it is needed.
void ScrollRow::fitHeight() {
    if (widget() == nullptr) {
        return;
    }
    const QSize row = widget()->minimumSizeHint().expandedTo(widget()->sizeHint());
    const bool scrolls = width() < widget()->minimumSizeHint().width();
    const int h = row.height() + (scrolls ? horizontalScrollBar()->sizeHint().height() : 0);
    if (height() != h) {
        setFixedHeight(h);
    }
}

} // namespace tessera::views
