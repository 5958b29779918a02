#include "views/panes/execution/TimelineWidget.h"

#include "views/common/Colors.h"
#include "views/common/Format.h"
#include "views/data/ReportData.h"
#include "views/panes/execution/PaneStyle.h"
#include "views/panes/execution/StepSearch.h"
#include "views/panes/execution/StepText.h"
#include "views/panes/execution/TimeInteraction.h"
#include "views/panes/execution/TimeRuler.h"
#include "views/panes/execution/Viewport.h"

#include <QKeyEvent>
#include <QPainter>
#include <QScrollBar>
#include <QWheelEvent>

#include <cmath>

namespace tessera::views::execution {

TimelineWidget::TimelineWidget(Viewport* viewport, QWidget* parent)
    : QWidget(parent)
    , viewport_(viewport) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setCursor(Qt::OpenHandCursor);
    setAttribute(Qt::WA_OpaquePaintEvent);
    connect(viewport_, &Viewport::changed, this, &TimelineWidget::viewportChanged);
    rowBar_ = new QScrollBar(Qt::Vertical, this);
    rowBar_->setObjectName(QStringLiteral("timelineRowScroll"));
    rowBar_->setToolTip(tr("Scroll the tile rows (Shift+wheel, or the wheel over the labels)"));
    rowBar_->hide();
    connect(rowBar_, &QScrollBar::valueChanged, this,
            [this](int value) { setRowScroll(static_cast<std::uint32_t>(value)); });
}

void TimelineWidget::setRowScroll(std::uint32_t scroll) {
    if (scroll == rowScroll_) {
        return;
    }
    rowScroll_ = scroll;
    relayout();
    update();
}

const TimelineRow* TimelineWidget::rowOfTile(int tile) const {
    if (tile < 0) {
        return nullptr;
    }
    for (const TimelineRow& row : layout_.rows) {
        if (row.kind != RowKind::AllTiles &&
            static_cast<std::uint32_t>(tile) - row.firstTile < row.tileCount) {
            return &row;
        }
    }
    return nullptr;
}

// A selected tile among the scrolled rows but out of sight: scroll to it.
void TimelineWidget::revealSelectedTile() {
    if (selectedTile_ < 0 || layout_.scrollRange == 0 || rowOfTile(selectedTile_)) {
        return;
    }
    const auto tile = static_cast<std::uint32_t>(selectedTile_);
    const std::uint32_t first = viewport_->tileFirst();
    if (tile < first || tile >= first + viewport_->tileCount()) {
        return; // not among the rows at all
    }
    const std::uint32_t shown = layout_.shownTiles();
    const std::uint32_t offset = tile - first;
    setRowScroll(std::min(layout_.scrollRange, offset > shown / 2 ? offset - shown / 2 : 0));
}

void TimelineWidget::setReportData(std::shared_ptr<const ReportData> report, std::uint32_t run) {
    data_ = std::move(report);
    run_ = run;
    frame_.reset();
    problem_.clear();
    relayout();
    update();
}

void TimelineWidget::setProblem(const QString& problem) {
    problem_ = problem;
    update();
}

void TimelineWidget::setFrame(std::shared_ptr<const TimelineFrame> frame) {
    frame_ = std::move(frame);
    problem_.clear();
    relayout();
    update();
    // The view may have moved on while this frame was built.
    const TimelineRequest wanted = wantedRequest();
    if (!frameSatisfies(wanted)) {
        emit frameWanted(wanted);
    }
}

void TimelineWidget::setSelectedTile(int tile) {
    if (selectedTile_ != tile) {
        selectedTile_ = tile;
        revealSelectedTile();
        update();
    }
}

void TimelineWidget::setSearch(std::shared_ptr<const StepMatches> matches) {
    search_ = std::move(matches);
    update();
}

void TimelineWidget::setSelectedStep(record::StepId programStep) {
    if (selectedStep_ != programStep) {
        selectedStep_ = programStep;
        update();
    }
}

QRect TimelineWidget::plotRect() const {
    const int top = kRulerHeightPx + kMarkerLanePx;
    return QRect(kGutterPx, top, std::max(1, width() - kGutterPx - 8),
                 std::max(1, height() - top - 4));
}

int TimelineWidget::xForCycle(double cycle) const {
    return plotRect().left() + static_cast<int>(std::floor(viewport_->time().toPixel(cycle)));
}

double TimelineWidget::cycleAtX(double x) const {
    return viewport_->time().toCycle(x - plotRect().left());
}

TimelineRequest TimelineWidget::wantedRequest() const {
    TimelineRequest r;
    r.run = run_;
    r.start = viewport_->time().start();
    r.end = viewport_->time().end();
    r.widthPx = plotRect().width();
    r.tileRows = layout_.tileRows;
    r.tileFirst = viewport_->tileFirst();
    r.tileCount = viewport_->tileCount();
    return r;
}

bool TimelineWidget::frameSatisfies(const TimelineRequest& r) const {
    if (!frame_ || !frame_->index || frame_->request.run != r.run) {
        return false;
    }
    if (frame_->index->steps() == 0) {
        return true; // nothing to show, nothing to fetch
    }
    if (!frame_->covers(r.start, r.end) ||
        frame_->level != frame_->index->chooseLevel(r.start, r.end, r.widthPx)) {
        return false;
    }
    if (!r.tileRows) {
        return true;
    }
    // Either the tiles are here, or they were asked for and are not affordable.
    const TimelineRequest& had = frame_->request;
    return frame_->hasTiles(r.tileFirst, r.tileCount) ||
           (had.tileRows && r.tileFirst >= had.tileFirst &&
            r.tileFirst + r.tileCount <= had.tileFirst + had.tileCount);
}

void TimelineWidget::viewportChanged() {
    relayout();
    update();
    const TimelineRequest wanted = wantedRequest();
    if (!frameSatisfies(wanted)) {
        emit frameWanted(wanted);
    }
}

void TimelineWidget::relayout() {
    const std::uint32_t groupTiles = frame_ ? frame_->groupTiles : 16;
    const QRect plot = plotRect();
    layout_ = layoutRows(viewport_->numTiles(), groupTiles, viewport_->tileFirst(),
                         viewport_->tileCount(), plot.height(), rowScroll_);
    boundAllTilesRow(layout_, viewport_->numTiles(), groupTiles, viewport_->boundFirst(),
                     viewport_->boundCount());
    rowScroll_ = layout_.scroll;
    if (rowBar_ == nullptr) {
        return;
    }
    rowBar_->setVisible(layout_.scrollRange > 0);
    if (layout_.scrollRange > 0) {
        const QSignalBlocker block(rowBar_);
        const int shown = static_cast<int>(layout_.shownTiles());
        rowBar_->setRange(0, static_cast<int>(layout_.scrollRange));
        rowBar_->setPageStep(shown);
        rowBar_->setSingleStep(1);
        rowBar_->setValue(static_cast<int>(layout_.scroll));
        const int top = plot.top() + layout_.rows[1].y;
        rowBar_->setGeometry(width() - 9, top, 9, layout_.height - layout_.rows[1].y);
    }
}

void TimelineWidget::resizeEvent(QResizeEvent*) {
    viewport_->setWidth(plotRect().width());
    viewportChanged();
    revealSelectedTile();
}

const TimelineRow* TimelineWidget::rowAt(int y) const {
    for (const TimelineRow& row : layout_.rows) {
        if (y >= row.y && y < row.y + row.height) {
            return &row;
        }
    }
    return nullptr;
}

const record::StepExecutionRecord* TimelineWidget::stepAtX(int x) const {
    if (!frame_ || !frame_->stepsComplete) {
        return nullptr;
    }
    return frame_->stepAt(cycleAtX(x + 0.5));
}

QString TimelineWidget::rowLabel(const TimelineRow& row, bool compact) const {
    const std::uint32_t perIpu = data_ ? data_->target.tilesPerIpu : 0;
    const bool multiIpu = data_ && data_->target.numIpus > 1 && perIpu > 0;
    if (row.kind == RowKind::AllTiles) {
        if (row.groupCount > 0 && multiIpu && row.tileCount == perIpu) {
            return tr("IPU %1 · all tiles").arg(row.firstTile / perIpu);
        }
        // Every IPU's tiles, also when one IPU is shown but groups straddle IPUs.
        return multiIpu && viewport_->boundCount() < viewport_->numTiles()
                   ? tr("All tiles, all IPUs")
                   : tr("All tiles");
    }
    const std::uint32_t last = row.firstTile + std::max<std::uint32_t>(row.tileCount, 1) - 1;
    QString text = row.kind == RowKind::Tile ? tr("Tile %1").arg(row.firstTile)
                   : compact                 ? tr("%1–%2").arg(row.firstTile).arg(last)
                                             : tr("Tiles %1–%2").arg(row.firstTile).arg(last);
    // Multi-IPU targets: which IPU (tile numbers stay global, as in other panes).
    if (multiIpu) {
        const std::uint32_t a = row.firstTile / perIpu, b = last / perIpu;
        text = (a == b ? tr("IPU %1").arg(a) : tr("IPU %1–%2").arg(a).arg(b)) + " · " + text;
    }
    return text;
}

void TimelineWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const QPalette& pal = palette();
    const QRect plot = plotRect();
    const QColor window = pal.color(QPalette::Window);
    // The gutter (labels) is cached; the plot is covered by the rows' image;
    // only the strips around them are filled here.
    paintGutter(p);
    const double origin = viewport_->time().boundsBegin();
    const double clock = data_ ? data_->target.clockHz : 0;
    paintRuler(p, QRect(plot.left(), 0, width() - plot.left(), kRulerHeightPx), viewport_->time(),
               origin, clock, pal);
    p.fillRect(QRect(plot.left(), kRulerHeightPx, width() - plot.left(), kMarkerLanePx), window);
    p.fillRect(
        QRect(plot.right() + 1, plot.top(), width() - plot.right() - 1, height() - plot.top()),
        window);
    const int imageBottom = frame_ ? plot.top() + layout_.height : plot.top();
    p.fillRect(QRect(plot.left(), imageBottom, plot.width(), height() - imageBottom), window);
    if (!frame_) {
        p.setPen(problem_.isEmpty() ? mutedColor(pal) : pal.color(QPalette::WindowText));
        p.drawText(plot.adjusted(12, 0, -12, 0), Qt::AlignCenter | Qt::TextWordWrap,
                   !problem_.isEmpty() ? problem_
                   : data_             ? tr("Loading the timeline…")
                                       : tr("No report"));
        stats_ = {};
        return;
    }
    const bool searching = search_ && !search_->text.isEmpty();
    const std::vector<ColumnSpan> lit = searchLitSpans();
    const double dpr = devicePixelRatioF();
    const QSize devSize(static_cast<int>(plot.width() * dpr),
                        static_cast<int>(layout_.height * dpr));
    if (!devSize.isEmpty()) {
        if (image_.size() != devSize) {
            image_ = QImage(devSize, QImage::Format_RGB32);
        }
        image_.setDevicePixelRatio(dpr);
        stats_ = renderRows(image_, dpr, *frame_, viewport_->time(), layout_,
                            TimelineColors::fromPalette(pal.color(QPalette::Base).rgb()));
        if (searching) {
            dimColumnsOutside(image_, dpr, lit, pal.color(QPalette::Base).rgb(), kSearchDimAlpha);
        }
        p.drawImage(plot.topLeft(), image_);
    }
    paintSearchMarks(p, lit);
    paintSelection(p);
    paintSelectedTile(p);
    if (frame_->index && frame_->index->steps() == 0) {
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(plot, Qt::AlignCenter, tr("This run executed no steps"));
    }
    if (!problem_.isEmpty()) { // the last frame still shows; say why it did not move on
        const QRect band(plot.left(), plot.top(), plot.width(), fontMetrics().height() + 6);
        p.fillRect(band, pal.color(QPalette::Base));
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(band.adjusted(6, 0, -6, 0), Qt::AlignLeft | Qt::AlignVCenter,
                   fontMetrics().elidedText(problem_, Qt::ElideRight, band.width() - 12));
    }
    if (hoverX_ >= plot.left() && hoverX_ <= plot.right()) {
        QColor line = pal.color(QPalette::WindowText);
        line.setAlphaF(0.45f);
        p.setPen(line);
        p.drawLine(hoverX_, kRulerHeightPx - 6, hoverX_, plot.top() + layout_.height);
    }
}

// The selected tile's row (or its group's): a tint over the row, an outline
// round it and a bar by its label, so it stands out among many rows.
void TimelineWidget::paintSelectedTile(QPainter& p) {
    const TimelineRow* row = rowOfTile(selectedTile_);
    if (row == nullptr || row->height <= 0) {
        return;
    }
    const QRect plot = plotRect();
    const QRect band(plot.left(), plot.top() + row->y, plot.width(), std::max(row->height, 2));
    QColor tint = selectionColor();
    tint.setAlpha(60);
    p.fillRect(band, tint);
    p.setPen(QPen(selectionColor(), 2));
    p.setBrush(Qt::NoBrush);
    p.drawRect(band.adjusted(1, 1, -1, -1));
    p.fillRect(QRect(plot.left() - 5, band.top(), 4, band.height()), selectionColor());
}

void TimelineWidget::paintGutter(QPainter& painter) {
    // Labels change with the rows, not while panning: drawn once into a pixmap.
    const double dpr = devicePixelRatioF();
    const QString key = QString("%1/%2/%3/%4/%5/%6/%7/%8/%9/%10")
                            .arg(layout_.shownFirstTile())
                            .arg(height())
                            .arg(dpr)
                            .arg(viewport_->tileFirst())
                            .arg(viewport_->tileCount())
                            .arg(layout_.rows.size())
                            .arg(palette().color(QPalette::Window).rgba())
                            .arg(palette().color(QPalette::WindowText).rgba())
                            .arg(font().key())
                            .arg(reinterpret_cast<quintptr>(data_.get()));
    if (key != gutterKey_) {
        gutterKey_ = key;
        gutter_ = QPixmap(QSize(kGutterPx, height()) * dpr);
        gutter_.setDevicePixelRatio(dpr);
        gutter_.fill(palette().color(QPalette::Window));
        QPainter p(&gutter_);
        QFont font = this->font();
        font.setPointSizeF(font.pointSizeF() * 0.85);
        p.setFont(font);
        p.setPen(mutedColor(palette()));
        p.drawText(QRect(4, 0, kGutterPx - 10, kRulerHeightPx), Qt::AlignRight | Qt::AlignVCenter,
                   tr("cycles\ntime"));
        paintLabels(p, font);
    }
    painter.drawPixmap(0, 0, gutter_);
}

void TimelineWidget::paintLabels(QPainter& p, const QFont& font) {
    const QRect plot = plotRect();
    const QFontMetrics fm(font);
    const int rowHeight = layout_.rows.size() > 1 ? std::max(1, layout_.rows[1].height) : 1;
    const int every = std::max(1, static_cast<int>(std::ceil((fm.height() + 1.0) / rowHeight)));
    p.setPen(palette().color(QPalette::WindowText));
    for (std::size_t i = 0; i < layout_.rows.size(); ++i) {
        const TimelineRow& row = layout_.rows[i];
        const bool all = row.kind == RowKind::AllTiles;
        if (!all && (i - 1) % every != 0) {
            continue;
        }
        QFont f = font;
        f.setBold(all);
        p.setFont(f);
        const int h = std::max(row.height, fm.height());
        const QRect box(6, plot.top() + row.y, kGutterPx - 14, h);
        QString text = rowLabel(row);
        if (QFontMetrics(f).horizontalAdvance(text) > box.width()) {
            text = rowLabel(row, true); // IPU-spanning groups: no room for "Tiles"
        }
        p.drawText(box, Qt::AlignRight | Qt::AlignVCenter, text);
    }
}

void TimelineWidget::paintSelection(QPainter& p) {
    if (selectedStep_.isNone() || !frame_->stepsComplete) {
        return;
    }
    const QRect plot = plotRect();
    const auto& steps = frame_->steps;
    const TimeMapping& m = viewport_->time();
    auto it = std::upper_bound(steps.begin(), steps.end(), m.start(),
                               [](double c, const record::StepExecutionRecord& e) {
                                   return c < static_cast<double>(e.startCycle + e.cycles);
                               });
    const QColor colour = selectionColor();
    int lastX = INT_MIN;
    for (; it != steps.end() && static_cast<double>(it->startCycle) < m.end(); ++it) {
        if (it->programStep != selectedStep_) {
            continue;
        }
        const int x0 = xForCycle(static_cast<double>(it->startCycle));
        const int x1 = xForCycle(static_cast<double>(it->startCycle + it->cycles));
        if (x1 <= lastX) {
            continue; // one mark a pixel column
        }
        lastX = std::max(x1, x0 + 1);
        p.fillRect(QRect(QPoint(std::max(x0, plot.left()), kRulerHeightPx + 1),
                         QPoint(std::min(std::max(x1, x0 + 2), plot.right()), plot.top() - 2)),
                   colour);
        if (x1 - x0 >= 4) {
            p.setPen(QPen(colour, 2));
            p.setBrush(Qt::NoBrush);
            p.drawRect(QRect(x0, plot.top(), x1 - x0, layout_.height - 1));
        }
    }
}

// The pixel columns (from the plot's left) holding a match, merged into
// runs. Costs about the pixel columns: matches inside a lit column are
// skipped by binary search.
std::vector<ColumnSpan> TimelineWidget::searchLitSpans() const {
    std::vector<ColumnSpan> runs;
    if (!search_ || search_->text.isEmpty()) {
        return runs;
    }
    const QRect plot = plotRect();
    const TimeMapping& m = viewport_->time();
    const auto& found = search_->found;
    auto endOf = [](const record::StepExecutionRecord& e) {
        return static_cast<double>(e.startCycle + std::max<std::uint64_t>(e.cycles, 1));
    };
    std::size_t i = search_->firstAtOrAfter(m.start());
    if (i > 0 && endOf(found[i - 1]) > m.start()) {
        --i; // started before the view, still running in it
    }
    int lit = plot.left(); // columns before this are decided
    while (i < found.size() && static_cast<double>(found[i].startCycle) < m.end()) {
        const int x0 = std::max(xForCycle(static_cast<double>(found[i].startCycle)), plot.left());
        const int x1 = std::min(std::max(xForCycle(endOf(found[i])), x0 + 1), plot.right() + 1);
        if (x1 > lit) {
            if (runs.empty() || x0 > lit) {
                runs.push_back({std::max(x0, lit) - plot.left(), x1 - plot.left()});
            } else {
                runs.back().end = x1 - plot.left();
            }
            lit = x1;
        }
        // The next match that may reach past the lit columns.
        const std::size_t next = search_->firstAtOrAfter(cycleAtX(lit));
        i = std::max(i + 1, next > 0 ? next - 1 : 0);
    }
    return runs;
}

// Each run of lit columns gets a mark in the lane above the rows (the rest
// of the rows were dimmed in the image).
void TimelineWidget::paintSearchMarks(QPainter& p, const std::vector<ColumnSpan>& lit) {
    const QRect plot = plotRect();
    const QColor mark = searchMarkColor();
    for (const ColumnSpan& run : lit) {
        p.fillRect(QRect(plot.left() + run.begin, kRulerHeightPx + 1, run.end - run.begin,
                         kMarkerLanePx - 2),
                   mark);
    }
}

QString TimelineWidget::toolTipAt(const QPoint& pos) const {
    const QRect plot = plotRect();
    if (!frame_ || !data_ || !plot.contains(pos)) {
        return {};
    }
    const double cycle = cycleAtX(pos.x() + 0.5);
    const TimelineRow* row = rowAt(pos.y() - plot.top());
    QStringList lines;
    const double origin = viewport_->time().boundsBegin();
    if (const record::StepExecutionRecord* e = stepAtX(pos.x())) {
        lines << stepToolTip(*data_, *e, origin);
    }
    const std::size_t i = frame_->firstItemAfter(cycle);
    if (row && i < frame_->items.size() &&
        static_cast<double>(frame_->items[i].startCycle) <= cycle) {
        const TimelineItem& item = frame_->items[i];
        lines << rowToolTip(rowLabel(*row), item, rowFigures(*frame_, *row, i, i + 1),
                            data_->target.clockHz);
    }
    return lines.join("<hr>");
}

bool TimelineWidget::event(QEvent* event) {
    return showToolTip(this, event, [this](QPoint pos) { return toolTipAt(pos); }) ||
           QWidget::event(event);
}

void TimelineWidget::wheelEvent(QWheelEvent* event) {
    const QRect plot = plotRect();
    const QPointF pos = event->position();
    const int dy = event->angleDelta().y();
    const bool overLabels = pos.x() < plot.left();
    if (layout_.scrollRange > 0 && (overLabels || (event->modifiers() & Qt::ShiftModifier))) {
        const int delta =
            event->angleDelta().y() != 0 ? event->angleDelta().y() : event->angleDelta().x();
        const int rows = -delta / 40; // three rows a notch
        const long long next =
            static_cast<long long>(layout_.scroll) + (rows == 0 ? (delta > 0 ? -1 : 1) : rows);
        setRowScroll(static_cast<std::uint32_t>(
            std::clamp<long long>(next, 0, static_cast<long long>(layout_.scrollRange))));
        event->accept();
        return;
    }
    if (event->modifiers() & Qt::ControlModifier) {
        if (const TimelineRow* row = rowAt(static_cast<int>(pos.y()) - plot.top());
            row && row->height > 0) {
            const double tile =
                row->firstTile + (pos.y() - plot.top() - row->y) / row->height * row->tileCount;
            viewport_->zoomTiles(tile, std::pow(1.0015, dy));
        }
    } else {
        wheelTime(*viewport_, *event, plot.left());
    }
    event->accept();
}

void TimelineWidget::mousePressEvent(QMouseEvent* event) {
    drag_.press(*event);
}

void TimelineWidget::mouseMoveEvent(QMouseEvent* event) {
    const QPoint pos = event->position().toPoint();
    hoverX_ = pos.x();
    if (const auto delta = drag_.move(this, pos)) {
        viewport_->dragBy(delta->x());
        const int rowH = layout_.rows.size() > 1 ? std::max(1, layout_.rows[1].height) : 1;
        const double tilesPerRow = layout_.rows.size() > 1 ? layout_.rows[1].tileCount : 1;
        if (layout_.scrollRange > 0) {
            dragRows_ -= static_cast<double>(delta->y()) / rowH;
            const auto whole = static_cast<long long>(dragRows_);
            dragRows_ -= static_cast<double>(whole);
            setRowScroll(static_cast<std::uint32_t>(
                std::clamp<long long>(static_cast<long long>(layout_.scroll) + whole, 0,
                                      static_cast<long long>(layout_.scrollRange))));
        } else {
            viewport_->scrollTiles(-delta->y() * tilesPerRow / rowH);
        }
    }
    update();
}

void TimelineWidget::mouseReleaseEvent(QMouseEvent* event) {
    if (!drag_.release(this, *event)) {
        return;
    }
    const QPoint pos = event->position().toPoint();
    const QRect plot = plotRect();
    if (pos.x() < plot.left()) {
        // A group's label opens its tiles.
        const TimelineRow* row = rowAt(pos.y() - plot.top());
        if (row && row->kind == RowKind::Group) {
            viewport_->setTiles(row->firstTile, row->tileCount);
        } else if (row && row->kind == RowKind::AllTiles) {
            viewport_->setTiles(0, viewport_->numTiles()); // clamped to the IPU shown
        } else if (row && row->kind == RowKind::Tile) {
            emit tileClicked(static_cast<int>(row->firstTile));
        }
        return;
    }
    if (const record::StepExecutionRecord* e = stepAtX(pos.x())) {
        emit stepClicked(*e);
    }
}

void TimelineWidget::mouseDoubleClickEvent(QMouseEvent* event) {
    const QPoint pos = event->position().toPoint();
    if (const record::StepExecutionRecord* e = stepAtX(pos.x())) {
        const double s = static_cast<double>(e->startCycle), len = static_cast<double>(e->cycles);
        viewport_->setVisible(s - 0.1 * len, s + 1.1 * len);
    }
}

void TimelineWidget::leaveEvent(QEvent*) {
    hoverX_ = -1;
    update();
}

void TimelineWidget::keyPressEvent(QKeyEvent* event) {
    // The pointer over the plot (the hover line) is where W / S zoom about.
    const QRect plot = plotRect();
    const double pixel =
        hoverX_ >= plot.left() && hoverX_ <= plot.right() ? hoverX_ - plot.left() : -1;
    if (keyTime(*viewport_, *event, pixel)) {
        return;
    }
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        viewport_->zoomCentre(kKeyZoom);
        break;
    case Qt::Key_Minus:
        viewport_->zoomCentre(1 / kKeyZoom);
        break;
    case Qt::Key_0:
        viewport_->reset();
        break;
    case Qt::Key_PageUp:
    case Qt::Key_PageDown: {
        // Up and Down zoom: the pages scroll the tile rows.
        const int sign = event->key() == Qt::Key_PageUp ? -1 : 1;
        if (layout_.scrollRange > 0) {
            const long long step = std::max<long long>(1, layout_.shownTiles() / 2);
            setRowScroll(static_cast<std::uint32_t>(
                std::clamp<long long>(static_cast<long long>(layout_.scroll) + sign * step, 0,
                                      static_cast<long long>(layout_.scrollRange))));
        } else {
            viewport_->scrollTiles(sign * std::max(1.0, viewport_->tileCount() * 0.5));
        }
        break;
    }
    case Qt::Key_End:
        viewport_->setVisible(viewport_->time().boundsEnd() - viewport_->time().span(),
                              viewport_->time().boundsEnd());
        break;
    default:
        QWidget::keyPressEvent(event);
    }
}

} // namespace tessera::views::execution
