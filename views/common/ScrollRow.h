#pragma once
// A tool bar row that may be narrower than its contents: at its full width
// it looks like the row itself; narrower, it scrolls horizontally instead of
// forcing the window (and every other pane in its tabs) to stay wide. Used
// for the panes' rows of controls so that a small window (or a headless
// `--size`) shrinks the panes.
#include <QScrollArea>

namespace tessera::views {

class ScrollRow : public QScrollArea {
    Q_OBJECT

public:
    // Takes ownership of `row`.
    explicit ScrollRow(QWidget* row, QWidget* parent = nullptr);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;
    // The row's size changes after construction (polish, style, new text):
    // its layout requests are followed, so it is never clipped.
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void fitHeight();
    void layOutRow();
};

} // namespace tessera::views
