#include "views/panes/execution/FlameWidget.h"

#include "views/common/Colors.h"
#include "views/data/ReportData.h"
#include "views/models/ProgramKinds.h"
#include "views/panes/execution/PaneStyle.h"
#include "views/panes/execution/StepSearch.h"
#include "views/panes/execution/StepText.h"
#include "views/panes/execution/TimeInteraction.h"
#include "views/panes/execution/TimelineWidget.h"
#include "views/panes/execution/Viewport.h"

#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <cmath>

namespace tessera::views::execution {

namespace {

constexpr double kMinSpanPx = 2.5;
constexpr int kLabelMinPx = 28;

const std::vector<FlameSpan>* rowOf(const TimelineFrame* frame, std::size_t depth) {
    if (!frame || !frame->flame || depth >= frame->flame->rows.size()) {
        return nullptr;
    }
    return &frame->flame->rows[depth];
}

// The first span ending after `cycle`.
std::vector<FlameSpan>::const_iterator firstAfter(const std::vector<FlameSpan>& row, double cycle) {
    return std::upper_bound(row.begin(), row.end(), cycle, [](double c, const FlameSpan& s) {
        return c < static_cast<double>(s.endCycle);
    });
}

} // namespace

FlameWidget::FlameWidget(Viewport* viewport, QWidget* parent)
    : QWidget(parent)
    , viewport_(viewport) {
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setCursor(Qt::OpenHandCursor);
    connect(viewport_, &Viewport::changed, this, qOverload<>(&QWidget::update));
}

void FlameWidget::setReportData(std::shared_ptr<const ReportData> report, std::size_t depth) {
    data_ = std::move(report);
    depth_ = depth;
    frame_.reset();
    elideCache_.clear();
    updateGeometry();
    update();
}

void FlameWidget::setFrame(std::shared_ptr<const TimelineFrame> frame) {
    frame_ = std::move(frame);
    update();
}

void FlameWidget::setSearch(std::shared_ptr<const StepMatches> matches) {
    search_ = std::move(matches);
    update();
}

bool FlameWidget::dimmed(const FlameSpan& span) const {
    if (!search_ || search_->text.isEmpty()) {
        return false;
    }
    if (!span.programStep.isNone()) {
        return !search_->matchesStep(span.programStep);
    }
    const record::ProgramNodeRecord* n = data_ ? data_->node(span.node) : nullptr;
    return !n || !QString::fromStdString(n->name).contains(search_->text, Qt::CaseInsensitive);
}

void FlameWidget::setSelectedStep(record::StepId programStep) {
    selectedStep_ = programStep;
    update();
}

QSize FlameWidget::sizeHint() const {
    return {900, static_cast<int>(std::max<std::size_t>(depth_, 2)) * kFlameRowPx + 10};
}

QRect FlameWidget::plotRect() const {
    return QRect(kGutterPx, 4, std::max(1, width() - kGutterPx - 8), std::max(1, height() - 8));
}

QColor FlameWidget::spanColor(const FlameSpan& span) const {
    if (!span.programStep.isNone()) {
        const reports::ProgramStepEntry* s = data_ ? data_->step(span.programStep) : nullptr;
        return phaseColor(s ? stepPhase(s->kind) : Phase::Sync, palette());
    }
    // Control nodes in quiet tones (light or dark with the palette), so
    // the steps' phase colours stand out.
    const bool dark = isDarkPalette(palette());
    auto quiet = [dark](const QColor& light) { return dark ? light.darker(270) : light; };
    const record::ProgramNodeRecord* n = data_ ? data_->node(span.node) : nullptr;
    if (!n) {
        return quiet(QColor(0xd0, 0xd0, 0xd0));
    }
    if (n->kind == record::ProgramKind::Block || !n->name.empty()) {
        // Named regions: a pastel hue of their own so neighbours differ.
        const auto hue = static_cast<int>(qHash(QString::fromStdString(n->name)) % 360);
        return quiet(QColor::fromHsv(hue, 60, 235));
    }
    if (n->kind == record::ProgramKind::Repeat || n->kind == record::ProgramKind::RepeatWhileTrue ||
        n->kind == record::ProgramKind::RepeatWhileFalse) {
        return quiet(QColor(0xcf, 0xc3, 0xe6));
    }
    return quiet(QColor(0xd5, 0xdd, 0xe8)); // Sequence, If and the like
}

const QString& FlameWidget::elided(const FlameSpan& span, int width) {
    const QString key = QString("%1/%2/%3/%4")
                            .arg(span.node.value())
                            .arg(span.programStep.value())
                            .arg(width / 4)
                            .arg(span.executions);
    auto it = elideCache_.find(key);
    if (it == elideCache_.end()) {
        if (elideCache_.size() > 4096) {
            elideCache_.clear();
        }
        QString text;
        if (!span.programStep.isNone()) {
            text = stepLabel(*data_, span.programStep);
        } else if (const record::ProgramNodeRecord* n = data_->node(span.node)) {
            text = nodeLabel(*n);
        }
        // "attention/q/copyA" under "attention/q" reads "copyA".
        text = withoutAncestorPrefix(*data_, span.node, text);
        if (span.executions > 1 && !span.programStep.isNone()) {
            text += QString(" ×%1").arg(span.executions);
        }
        QFont f = font();
        f.setPointSizeF(f.pointSizeF() * 0.85);
        it = elideCache_.insert(
            key, QFontMetrics(f).elidedText(text, Qt::ElideRight, width / 4 * 4 - 6));
    }
    return *it;
}

void FlameWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const QPalette& pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Window));
    const QRect plot = plotRect();
    p.fillRect(plot, pal.color(QPalette::Base));
    stats_ = {};
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    p.setFont(small);
    p.setPen(pal.color(QPalette::WindowText));
    p.drawText(QRect(6, plot.top(), kGutterPx - 14, kFlameRowPx), Qt::AlignRight | Qt::AlignVCenter,
               tr("Program"));
    if (!frame_ || !data_) {
        return;
    }
    if (!frame_->flame) {
        p.setPen(mutedColor(pal));
        p.drawText(plot, Qt::AlignCenter, tr("Zoom in to see the program hierarchy"));
        return;
    }
    const TimeMapping& m = viewport_->time();
    auto px = [&](std::uint64_t c) {
        return plot.left() + static_cast<int>(std::floor(m.toPixel(static_cast<double>(c))));
    };
    p.setClipRect(plot);
    const QColor base = pal.color(QPalette::Base);
    // A fold shows the colour of its longest span, washed out, so a run of
    // tiny compute steps still reads as compute.
    auto washed = [&](const QColor& c) {
        return QColor((c.red() + base.red()) / 2, (c.green() + base.green()) / 2,
                      (c.blue() + base.blue()) / 2);
    };
    for (std::size_t d = 0; d < frame_->flame->rows.size(); ++d) {
        const auto& row = frame_->flame->rows[d];
        const int y = plot.top() + static_cast<int>(d) * kFlameRowPx;
        if (y >= plot.bottom()) {
            break;
        }
        ++stats_.rows;
        int foldX0 = 0, foldX1 = 0;
        bool folding = false;
        bool foldLit = false; // a fold holding a search's match is not dimmed
        const FlameSpan* longest = nullptr;
        auto flush = [&] {
            if (folding) {
                const QColor c = washed(spanColor(*longest));
                p.fillRect(QRect(foldX0, y, std::max(foldX1 - foldX0, 1), kFlameRowPx - 1),
                           foldLit ? c : towards(c, base, kSearchDimAlpha / 255.0));
                ++stats_.items;
                ++stats_.foldedCells;
                ++stats_.rects;
                folding = false;
            }
        };
        for (auto it = firstAfter(row, m.start());
             it != row.end() && static_cast<double>(it->startCycle) < m.end(); ++it) {
            const int x0 = px(it->startCycle);
            const int x1 = px(it->endCycle);
            if (x1 - x0 < kMinSpanPx) {
                if (!folding) {
                    foldX0 = x0;
                    folding = true;
                    foldLit = false;
                    longest = &*it;
                }
                foldLit = foldLit || !dimmed(*it);
                if (it->endCycle - it->startCycle > longest->endCycle - longest->startCycle) {
                    longest = &*it;
                }
                foldX1 = x1;
                if (foldX1 - foldX0 >= kMinSpanPx) {
                    flush();
                }
                continue;
            }
            flush();
            const QRect r(x0 + 1, y, x1 - x0 - 1, kFlameRowPx - 1);
            const QColor c = dimmed(*it) ? towards(spanColor(*it), base, kSearchDimAlpha / 255.0)
                                         : spanColor(*it);
            p.fillRect(r, c);
            ++stats_.items;
            ++stats_.rects;
            if (!selectedStep_.isNone() && it->programStep == selectedStep_) {
                p.setPen(QPen(selectionColor(), 2));
                p.drawRect(r.adjusted(1, 1, -1, -1));
            }
            if (r.width() >= kLabelMinPx) {
                // Labels stay in view while the span runs off the left edge.
                const QRect textRect = r.intersected(plot);
                p.setPen(c.lightness() < 150 ? QColor(Qt::white) : QColor(0x20, 0x20, 0x20));
                p.drawText(textRect.adjusted(3, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
                           elided(*it, textRect.width()));
            }
        }
        flush();
    }
    stats_.cells = stats_.items;
}

const FlameSpan* FlameWidget::spanAt(const QPoint& pos) const {
    const QRect plot = plotRect();
    if (!plot.contains(pos) || !frame_) {
        return nullptr;
    }
    const auto depth = static_cast<std::size_t>((pos.y() - plot.top()) / kFlameRowPx);
    const auto* row = rowOf(frame_.get(), depth);
    if (!row) {
        return nullptr;
    }
    const double cycle = viewport_->time().toCycle(pos.x() - plot.left() + 0.5);
    auto it = firstAfter(*row, cycle);
    if (it == row->end() || static_cast<double>(it->startCycle) > cycle) {
        return nullptr;
    }
    return &*it;
}

QString FlameWidget::toolTipAt(const QPoint& pos) const {
    const FlameSpan* span = spanAt(pos);
    return span && data_ ? spanToolTip(*data_, *span, viewport_->time().boundsBegin()) : QString();
}

bool FlameWidget::event(QEvent* event) {
    return showToolTip(this, event, [this](QPoint pos) { return toolTipAt(pos); }) ||
           QWidget::event(event);
}

void FlameWidget::wheelEvent(QWheelEvent* event) {
    wheelTime(*viewport_, *event, plotRect().left());
    event->accept();
}

void FlameWidget::mousePressEvent(QMouseEvent* event) {
    drag_.press(*event);
}

void FlameWidget::mouseMoveEvent(QMouseEvent* event) {
    if (const auto delta = drag_.move(this, event->position().toPoint())) {
        viewport_->dragBy(delta->x());
    }
}

void FlameWidget::mouseReleaseEvent(QMouseEvent* event) {
    if (!drag_.release(this, *event)) {
        return;
    }
    const FlameSpan* span = spanAt(event->position().toPoint());
    if (span && !span->programStep.isNone()) {
        emit stepClicked(span->programStep, span->startCycle);
    }
}

void FlameWidget::mouseDoubleClickEvent(QMouseEvent* event) {
    if (const FlameSpan* span = spanAt(event->position().toPoint())) {
        const auto s = static_cast<double>(span->startCycle);
        const auto len = static_cast<double>(span->endCycle - span->startCycle);
        viewport_->setVisible(s - 0.05 * len, s + 1.05 * len);
    }
}

} // namespace tessera::views::execution
