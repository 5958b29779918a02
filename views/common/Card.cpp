#include "views/common/Card.h"

#include <QEvent>
#include <QLabel>
#include <QPainter>
#include <QPainterPath>
#include <QVBoxLayout>

namespace tessera::views {

namespace {

QColor mix(const QColor& a, const QColor& b, double f) {
    return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * f),
                            static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * f),
                            static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * f));
}

} // namespace

QColor mutedTextColor(const QPalette& palette) {
    return mix(palette.color(QPalette::WindowText), palette.color(QPalette::Window), 0.4);
}

QLabel* makeHeading(const QString& text, QWidget* parent, double scale) {
    auto* label = new QLabel(text, parent);
    QFont f = label->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * scale);
    label->setFont(f);
    return label;
}

MutedLabel::MutedLabel(const QString& text, QWidget* parent)
    : QLabel(text, parent) {
    applyMuted();
}

void MutedLabel::changeEvent(QEvent* event) {
    QLabel::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ParentChange) {
        applyMuted();
    }
}

void MutedLabel::applyMuted() {
    if (applying_) {
        return;
    }
    applying_ = true;
    QPalette p = parentWidget() ? parentWidget()->palette() : palette();
    p.setColor(QPalette::WindowText, mutedTextColor(p));
    setPalette(p);
    applying_ = false;
}

MutedLabel* makeMuted(const QString& text, QWidget* parent) {
    return new MutedLabel(text, parent);
}

Card::Card(const QString& title, QWidget* parent)
    : QFrame(parent) {
    setAttribute(Qt::WA_StyledBackground, false);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(14, 10, 14, 12);
    outer->setSpacing(6);
    title_ = makeHeading(title, this);
    title_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    title_->setVisible(!title.isEmpty());
    outer->addWidget(title_);
    body_ = new QVBoxLayout;
    body_->setSpacing(4);
    outer->addLayout(body_);
}

void Card::setTitle(const QString& title) {
    title_->setText(title);
    title_->setVisible(!title.isEmpty());
}

void Card::setAccent(const QColor& color) {
    accent_ = color;
    update();
}

void Card::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QRectF r = QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5);
    const QColor back = palette().color(QPalette::Base);
    const QColor border = mix(back, palette().color(QPalette::WindowText), 0.18);
    QPainterPath path;
    path.addRoundedRect(r, 6, 6);
    p.fillPath(path, back);
    if (accent_.isValid()) {
        p.save();
        p.setClipPath(path);
        p.fillRect(QRectF(r.left(), r.top(), 5, r.height()), accent_);
        p.restore();
    }
    p.setPen(QPen(border, 1));
    p.drawPath(path);
}

StatTile::StatTile(const QString& caption, QWidget* parent)
    : Card(QString(), parent) {
    auto* captionLabel = makeMuted(caption.toUpper(), this);
    QFont small = captionLabel->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    small.setBold(true);
    captionLabel->setFont(small);
    value_ = makeHeading(QString(), this, 1.8);
    value_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    detail_ = makeMuted(QString(), this);
    detail_->setWordWrap(true);
    body()->addWidget(captionLabel);
    body()->addWidget(value_);
    body()->addWidget(detail_);
    body()->addStretch(1);
}

void StatTile::setValue(const QString& value, const QString& detail) {
    value_->setText(value);
    detail_->setText(detail);
    detail_->setVisible(!detail.isEmpty());
}

} // namespace tessera::views
