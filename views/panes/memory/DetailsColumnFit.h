#pragma once
// Sizes the Memory pane's Details tree so its values are never cut: every
// value column as wide as its text, the labels in what is left (elided, at
// least kMinLabelWidth; past that the tree scrolls sideways). Refits when the
// model resets and when the tree is resized.
#include <QObject>

class QTreeView;

namespace tessera::views {

class DetailsColumnFit : public QObject {
    Q_OBJECT

public:
    static constexpr int kMinLabelWidth = 120;

    explicit DetailsColumnFit(QTreeView* view); // owned by the view
    void fit();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QTreeView* view_;
    bool fitting_ = false; // fit() resizes columns, which can resize the viewport
};

} // namespace tessera::views
