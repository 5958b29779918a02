#pragma once
// A horizontal bar split into coloured segments in proportion to their
// values (e.g. compute / exchange / sync), with each segment's percentage
// written inside when it fits and a legend line underneath.
#include <QColor>
#include <QString>
#include <QVector>
#include <QWidget>

namespace tessera::views {

class ProportionBar : public QWidget {
    Q_OBJECT

public:
    struct Segment {
        QString name;
        double value = 0;
        QColor color;
        QString valueText; // shown in the legend, e.g. "1,234 cycles"
    };

    explicit ProportionBar(QWidget* parent = nullptr);

    void setSegments(const QVector<Segment>& segments);
    const QVector<Segment>& segments() const { return segments_; }
    double total() const;
    // The bar's rectangle of segment i in widget coordinates (empty when 0).
    QRect segmentRect(int i) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    int barHeight() const;
    QVector<Segment> segments_;
};

} // namespace tessera::views
