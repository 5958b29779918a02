#pragma once
// A checkable tool button whose checked state is plain to see on any
// palette: filled with the palette's Highlight and labelled in
// HighlightedText (Fusion's checked tool button is a shade off the window
// colour, invisible on a dark palette). Unchecked, it is drawn as usual.
#include <QToolButton>

namespace tessera::views {

class CheckedToolButton : public QToolButton {
    Q_OBJECT

public:
    explicit CheckedToolButton(QWidget* parent = nullptr);

protected:
    void paintEvent(QPaintEvent* event) override;
};

} // namespace tessera::views
