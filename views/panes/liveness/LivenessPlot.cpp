#include "views/panes/liveness/LivenessPlot.h"

#include "views/common/Colors.h"
#include "views/common/PlotStyle.h"

#include <QToolTip>

#include <algorithm>
#include <array>
#include <cmath>

namespace tessera::views {

namespace {

QColor withAlpha(QColor c, int alpha) {
    c.setAlpha(alpha);
    return c;
}

} // namespace

QColor LivenessPlot::comparedColor(int i) {
    static const std::array<QColor, 6> colors = {
        QColor(0x1f, 0x77, 0xb4), QColor(0x2c, 0xa0, 0x2c), QColor(0x94, 0x67, 0xbd),
        QColor(0x8c, 0x56, 0x4b), QColor(0x17, 0xbe, 0xcf), QColor(0x7f, 0x7f, 0x7f)};
    return colors[static_cast<std::size_t>(i) % colors.size()];
}

LivenessPlot::LivenessPlot(QWidget* parent)
    : QCustomPlot(parent) {
    setObjectName("livenessPlot");
    setMinimumHeight(
        150); // axes and a readable curve; small enough for 800x600 with the problem bar
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    axisRect()->setRangeDrag(Qt::Horizontal);
    axisRect()->setRangeZoom(Qt::Horizontal);
    xAxis->setTicker(QSharedPointer<IntegerAxisTicker>::create());
    yAxis->setTicker(QSharedPointer<ByteAxisTicker>::create());
    xAxis->setLabel("Program step");
    connect(xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
            [this] { updateVisiblePoints(); });
    // The axis rect's width settles during a replot's layout: re-bucket then.
    connect(this, &QCustomPlot::afterLayout, this, [this] {
        if (axisRect()->width() != bucketedWidth_) {
            updateVisiblePoints();
        }
    });

    al_ = addGraph();
    al_->setName("Always-live");
    al_->setLineStyle(QCPGraph::lsStepLeft);
    const QColor alColor = categoryColor(record::MemoryCategory::AlwaysLiveVariable);
    al_->setPen(QPen(alColor, 1.2));
    al_->setBrush(withAlpha(alColor, 70));

    nal_ = addGraph();
    nal_->setName("Not-always-live");
    nal_->setLineStyle(QCPGraph::lsStepLeft);
    const QColor nalColor = categoryColor(record::MemoryCategory::NotAlwaysLiveVariable);
    nal_->setPen(QPen(nalColor.darker(115), 1.6));
    nal_->setBrush(withAlpha(nalColor, 95));

    // The legend sits in its own row above the plot, never over the data.
    legend->setVisible(true);
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    axisRect()->insetLayout()->take(legend);
    plotLayout()->insertRow(0);
    auto* legendRow = new QCPLayoutGrid;
    plotLayout()->addElement(0, 0, legendRow);
    plotLayout()->setRowStretchFactor(0, 0.001);
    legendRow->addElement(0, 0, legend);
    legendRow->addElement(0, 1, new QCPLayoutElement(this));
    legendRow->setColumnStretchFactors({0.001, 1});
    legend->setMargins(QMargins(6, 2, 6, 2));
    legend->setLayer("legend");

    span_ = new QCPItemRect(this);
    span_->setLayer("grid");
    span_->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
    span_->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
    span_->setPen(Qt::NoPen);
    span_->setBrush(QColor(0x3d, 0x7e, 0xd6, 38));
    span_->setVisible(false);
    spanLabel_ = new QCPItemText(this);
    spanLabel_->position->setTypeX(QCPItemPosition::ptPlotCoords);
    spanLabel_->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    spanLabel_->setPositionAlignment(Qt::AlignBottom | Qt::AlignLeft);
    spanLabel_->setVisible(false);

    selected_ = makeMarker(selectionColor(), Qt::SolidLine, &selectedLabel_);

    capacity_ = new QCPItemStraightLine(this);
    capacity_->setPen(QPen(capacityLineColor(), 1.5, Qt::DashLine));
    capacity_->setVisible(false);
    capacityLabel_ = new QCPItemText(this);
    capacityLabel_->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    capacityLabel_->setPositionAlignment(Qt::AlignBottom | Qt::AlignRight);
    capacityLabel_->setColor(capacityLineColor());
    capacityLabel_->setVisible(false);
    setFocusPolicy(Qt::StrongFocus);

    message_ = new QCPItemText(this);
    message_->position->setType(QCPItemPosition::ptAxisRectRatio);
    message_->position->setCoords(0.5, 0.5);
    message_->setVisible(false);
    applyStyle();
}

void LivenessPlot::applyStyle() {
    applyPlotPalette(this, palette());
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(Qt::NoBrush);
    message_->setColor(palette().color(QPalette::PlaceholderText));
    // Label text: the marker's colour, darker on light backgrounds, lighter on dark.
    const bool dark = isDarkPalette(palette());
    auto readable = [dark](const QColor& c) { return dark ? c.lighter(150) : c.darker(130); };
    for (std::size_t i = 0; i < comparedLabels_.size(); ++i) {
        comparedLabels_[i]->setBrush(palette().color(QPalette::Base));
        comparedLabels_[i]->setColor(readable(comparedColor(static_cast<int>(i))));
    }
    selectedLabel_->setBrush(palette().color(QPalette::Base));
    selectedLabel_->setColor(readable(selectionColor()));
    spanLabel_->setColor(readable(QColor(0x3d, 0x7e, 0xd6)));
}

void LivenessPlot::changeEvent(QEvent* event) {
    QCustomPlot::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyStyle();
        replot();
    }
}

QCPItemStraightLine* LivenessPlot::makeMarker(const QColor& color, Qt::PenStyle style,
                                              QCPItemText** label) {
    auto* line = new QCPItemStraightLine(this);
    line->setPen(QPen(color, 2, style));
    line->setVisible(false);
    auto* text = new QCPItemText(this);
    text->position->setTypeX(QCPItemPosition::ptPlotCoords);
    text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    text->setPositionAlignment(Qt::AlignTop | Qt::AlignHCenter);
    text->setColor(isDarkPalette(palette()) ? color.lighter(150) : color.darker(130));
    text->setPen(QPen(color, 1));
    text->setBrush(palette().color(QPalette::Base));
    text->setPadding(QMargins(4, 1, 4, 1));
    text->setVisible(false);
    *label = text;
    return line;
}

void LivenessPlot::placeMarker(QCPItemStraightLine* line, QCPItemText* label, int x,
                               const QString& text) {
    const bool show = x >= 0 && x < count_;
    line->setVisible(show);
    label->setVisible(show);
    if (show) {
        line->point1->setCoords(x, 0);
        line->point2->setCoords(x, 1);
        label->position->setCoords(x, 0.0);
        label->setText(text);
    }
}

void LivenessPlot::setSeries(const std::vector<double>& notAlwaysLive, double alwaysLive,
                             const QString& caption) {
    const bool stacked = alwaysLive >= 0;
    count_ = static_cast<int>(notAlwaysLive.size());
    base_ = stacked ? alwaysLive : 0;
    total_.resize(notAlwaysLive.size());
    max_ = 0;
    for (std::size_t x = 0; x < notAlwaysLive.size(); ++x) {
        total_[x] = base_ + notAlwaysLive[x];
        max_ = std::max(max_, total_[x]);
    }
    al_->setVisible(stacked);
    nal_->setChannelFillGraph(stacked ? al_ : nullptr);
    if (stacked) {
        al_->addToLegend();
    } else {
        al_->removeFromLegend();
    }
    yAxis->setLabel(caption);
    message_->setVisible(false);
    xAxis->setRange(-0.5, std::max(0.5, count_ - 0.5)); // rebuilds the visible points
    updateVisiblePoints();
    setCapacity(capacityBytes_);
}

void LivenessPlot::setCapacity(double bytes) {
    capacityBytes_ = bytes;
    // Drawn when the curve comes near it; far above, it would flatten the curve.
    const bool show = bytes > 0 && count_ > 0 && max_ >= 0.25 * bytes;
    capacity_->setVisible(show);
    capacityLabel_->setVisible(show);
    if (show) {
        capacity_->point1->setCoords(0, bytes);
        capacity_->point2->setCoords(1, bytes);
        capacityLabel_->position->setCoords(0.995, bytes);
        capacityLabel_->setText(QString("tile capacity %1").arg(formatBytesShort(bytes)));
    }
    const double top = std::max(max_, show ? bytes : 0.0);
    yAxis->setRange(0, top > 0 ? top * 1.12 : 1024);
    replot();
}

void LivenessPlot::keyPressEvent(QKeyEvent* event) {
    const int step = event->key() == Qt::Key_Left ? -1 : event->key() == Qt::Key_Right ? 1 : 0;
    if (step != 0 && count_ > 0) {
        const int from = selectedX_ >= 0 ? selectedX_ : 0;
        emit stepClicked(std::clamp(from + step, 0, count_ - 1), Qt::NoModifier);
        event->accept();
        return;
    }
    QCustomPlot::keyPressEvent(event);
}

// Step x covers [x - 0.5, x + 0.5]: one point per step at its left edge and a
// closing point at the right edge of the last one. When more steps are in
// view than the plot has pixels, each point stands for a bucket of steps and
// holds their maximum, so a frame costs about its width in pixels.
void LivenessPlot::updateVisiblePoints() {
    if (count_ == 0) {
        nal_->data()->clear();
        al_->data()->clear();
        return;
    }
    const QCPRange range = xAxis->range();
    const int first = std::clamp(static_cast<int>(std::floor(range.lower + 0.5)), 0, count_ - 1);
    const int last = std::clamp(static_cast<int>(std::ceil(range.upper - 0.5)), first, count_ - 1);
    bucketedWidth_ = axisRect()->width();
    const int pixels = std::max(1, bucketedWidth_);
    const int bucket = std::max(1, (last - first + 1 + pixels - 1) / pixels);
    QVector<double> keys, total, base;
    for (int x = first; x <= last; x += bucket) {
        const int end = std::min(last + 1, x + bucket);
        keys.push_back(x - 0.5);
        total.push_back(*std::max_element(total_.begin() + x, total_.begin() + end));
        base.push_back(base_);
    }
    keys.push_back(last + 0.5);
    total.push_back(total.back());
    base.push_back(base_);
    nal_->setData(keys, total, true);
    al_->setData(keys, base, true);
}

void LivenessPlot::resizeEvent(QResizeEvent* event) {
    QCustomPlot::resizeEvent(event);
    updateVisiblePoints();
}

void LivenessPlot::clearSeries(const QString& message) {
    count_ = 0;
    max_ = 0;
    total_.clear();
    updateVisiblePoints();
    message_->setText(message);
    message_->setVisible(!message.isEmpty());
    placeMarker(selected_, selectedLabel_, -1, {});
    setComparedX({});
    span_->setVisible(false);
    spanLabel_->setVisible(false);
    replot();
}

void LivenessPlot::setSelectedX(int x) {
    selectedX_ = x;
    placeMarker(selected_, selectedLabel_, x, QString("step %1").arg(x));
    replot();
}

void LivenessPlot::setComparedX(const std::vector<int>& xs) {
    while (compared_.size() < xs.size()) {
        QCPItemText* label = nullptr;
        compared_.push_back(
            makeMarker(comparedColor(static_cast<int>(compared_.size())), Qt::DashLine, &label));
        comparedLabels_.push_back(label);
    }
    for (std::size_t i = 0; i < compared_.size(); ++i) {
        const int x = i < xs.size() ? xs[i] : -1;
        placeMarker(compared_[i], comparedLabels_[i], x, QString(QChar('A' + static_cast<int>(i))));
        // Compared labels sit just below the selected step's label.
        comparedLabels_[i]->position->setCoords(x, 0.07);
    }
    replot();
}

void LivenessPlot::setHighlightSpan(int firstX, int lastX, const QString& label) {
    const bool show = firstX >= 0 && lastX >= firstX && count_ > 0;
    span_->setVisible(show);
    spanLabel_->setVisible(show && !label.isEmpty());
    if (show) {
        span_->topLeft->setCoords(firstX - 0.5, 0);
        span_->bottomRight->setCoords(lastX + 0.5, 1);
        spanLabel_->position->setCoords(firstX - 0.45, 0.995);
        spanLabel_->setText(label);
    }
    replot();
}

bool LivenessPlot::capacityShown() const {
    return capacity_->visible();
}

int LivenessPlot::pointCount() const {
    return count_;
}

double LivenessPlot::dataMax() const {
    return max_;
}

double LivenessPlot::xToPixel(double x) const {
    return xAxis->coordToPixel(x);
}

void LivenessPlot::zoomBy(double factor) {
    xAxis->scaleRange(factor, xAxis->range().center());
    replot();
}

void LivenessPlot::resetView() {
    xAxis->setRange(-0.5, std::max(0.5, count_ - 0.5));
    replot();
}

int LivenessPlot::xAt(const QPoint& pos) const {
    if (count_ == 0 || !axisRect()->rect().contains(pos)) {
        return -1;
    }
    const int x = static_cast<int>(std::lround(xAxis->pixelToCoord(pos.x())));
    return x >= 0 && x < count_ ? x : -1;
}

void LivenessPlot::mousePressEvent(QMouseEvent* event) {
    pressPos_ = event->pos();
    QCustomPlot::mousePressEvent(event);
}

void LivenessPlot::mouseReleaseEvent(QMouseEvent* event) {
    QCustomPlot::mouseReleaseEvent(event);
    if (event->button() == Qt::LeftButton && (event->pos() - pressPos_).manhattanLength() < 5) {
        const int x = xAt(event->pos());
        if (x >= 0) {
            emit stepClicked(x, event->modifiers());
        }
    }
}

void LivenessPlot::mouseMoveEvent(QMouseEvent* event) {
    QCustomPlot::mouseMoveEvent(event);
    if (event->buttons() == Qt::NoButton && toolTip_) {
        const int x = xAt(event->pos());
        if (x >= 0) {
            QToolTip::showText(event->globalPosition().toPoint(), toolTip_(x), this);
        } else {
            QToolTip::hideText();
        }
    }
}

} // namespace tessera::views
