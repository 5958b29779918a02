#pragma once
// Presentation blocks for overview panes: a Card (a titled, rounded panel
// painted from the palette, so it reads in light and dark) and a StatTile
// (a big number with a caption and a detail line).
#include <QFrame>
#include <QLabel>
#include <QString>

class QVBoxLayout;

namespace tessera::views {

class Card : public QFrame {
    Q_OBJECT

public:
    explicit Card(const QString& title, QWidget* parent = nullptr);

    QVBoxLayout* body() const { return body_; }
    QLabel* titleLabel() const { return title_; }
    void setTitle(const QString& title);
    // A coloured stripe on the card's left edge (invalid colour: none).
    void setAccent(const QColor& color);

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QLabel* title_ = nullptr;
    QVBoxLayout* body_ = nullptr;
    QColor accent_;
};

class StatTile : public Card {
    Q_OBJECT

public:
    explicit StatTile(const QString& caption, QWidget* parent = nullptr);

    void setValue(const QString& value, const QString& detail = QString());
    QLabel* valueLabel() const { return value_; }
    QLabel* detailLabel() const { return detail_; }

private:
    QLabel* value_ = nullptr;
    QLabel* detail_ = nullptr;
};

// A label in a muted colour (between the window text and background) that
// follows palette changes.
class MutedLabel : public QLabel {
    Q_OBJECT

public:
    explicit MutedLabel(const QString& text, QWidget* parent = nullptr);

protected:
    void changeEvent(QEvent* event) override;

private:
    void applyMuted();
    bool applying_ = false;
};

// A QLabel styled as a section caption (bold, slightly larger).
QLabel* makeHeading(const QString& text, QWidget* parent = nullptr, double scale = 1.15);
MutedLabel* makeMuted(const QString& text, QWidget* parent = nullptr);
QColor mutedTextColor(const QPalette& palette);

} // namespace tessera::views
