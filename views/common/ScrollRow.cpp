#include "views/common/ScrollRow.h"

#include <QEvent>
#include <QLayout>
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
    row->installEventFilter(this);
    fitHeight();
}

bool ScrollRow::eventFilter(QObject* watched, QEvent* event) {
    const bool result = QScrollArea::eventFilter(watched, event);
    if (watched == widget() && event->type() == QEvent::LayoutRequest) {
        fitHeight();
    }
    if (watched == widget() &&
        (event->type() == QEvent::Resize || event->type() == QEvent::LayoutRequest)) {
        layOutRow();
    }
    return result;
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
    layOutRow();
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

// The row can take a new height (this area's, set from inside its own
// resize) without its layout following: the controls stayed centred in the
// old, taller height and were clipped. Lay them out in the row as it is.
void ScrollRow::layOutRow() {
    QLayout* layout = widget() ? widget()->layout() : nullptr;
    if (layout && layout->geometry() != widget()->rect()) {
        layout->setGeometry(widget()->rect());
    }
}

} // namespace tessera::views
