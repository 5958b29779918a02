#include "views/panes/memory/MemoryMapWidget.h"

#include "views/common/Colors.h"
#include "views/common/Format.h"
#include "views/data/ReportData.h"
#include "views/models/MemoryBlocksModel.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace tessera::views {

namespace {
constexpr int kMargin = 6;
constexpr int kOverviewHeight = 16;
constexpr int kMinRowHeight = 16;
constexpr int kMaxRowHeight = 40;
constexpr int kMaxRows = 64;
// The widest range of addresses drawn (a tile's addresses are 32-bit).
constexpr std::uint64_t kMaxSpan = std::uint64_t{1} << 32;

bool ownedBy(const record::MemoryBlockRecord& b, record::VariableId variable) {
    return !variable.isNone() && b.owner() == record::BlockOwner(variable);
}

QColor textOn(const QColor& c) {
    return c.lightness() > 140 ? Qt::black : Qt::white;
}
} // namespace

MemoryMapWidget::MemoryMapWidget(QWidget* parent)
    : QWidget(parent) {
    setObjectName("memoryMap");
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void MemoryMapWidget::setTileLayout(std::shared_ptr<const ReportData> report,
                                    TileMemoryLayout layout) {
    data_ = std::move(report);
    layout_ = std::move(layout);
    capacity_ = data_ ? data_->target.bytesPerTile : 0;
    relayout();
}

void MemoryMapWidget::clear() {
    setTileLayout(nullptr, {});
}

void MemoryMapWidget::setHighlightVariable(record::VariableId variable) {
    if (variable != highlightVariable_) {
        highlightVariable_ = variable;
        update();
    }
}

int MemoryMapWidget::labelWidth() const {
    return fontMetrics().horizontalAdvance("0x0000000") + 10;
}

QRect MemoryMapWidget::overviewRect() const {
    return QRect(labelWidth(), kMargin, std::max(1, width() - labelWidth() - kMargin),
                 kOverviewHeight);
}

int MemoryMapWidget::detailTop() const {
    return overviewRect().bottom() + fontMetrics().height() + 16;
}

void MemoryMapWidget::relayout() {
    pieces_.clear();
    overview_.clear();
    rows_ = 0;
    rowBytes_ = 0;
    rowTop_.assign(1, 0);
    if (!data_) {
        update();
        return;
    }
    const std::uint64_t base = layout_.base;
    // Blocks end by 2^32 (their addresses are 32-bit); clamp anyway, so no
    // address arithmetic below can wrap.
    const std::uint64_t span =
        std::clamp<std::uint64_t>(layout_.end - std::min(layout_.end, base), 1, kMaxSpan);
    auto offset = [&](std::uint64_t a) { return std::min(a - std::min(a, base), span); };
    // Overview: the whole tile (or up to the last block when over capacity).
    const QRect ov = overviewRect();
    const double total = static_cast<double>(std::max<std::uint64_t>(capacity_, span));
    auto ovX = [&](std::uint64_t a) {
        return ov.left() + static_cast<double>(offset(a)) / total * ov.width();
    };
    for (std::size_t i = 0; i < layout_.blocks.size(); ++i) {
        const auto& b = layout_.blocks[i].block;
        const int x0 = static_cast<int>(std::floor(ovX(b.address)));
        const int x1 = std::max(x0 + 1, static_cast<int>(std::ceil(ovX(b.end()))));
        overview_.push_back({QRect(x0, ov.top(), x1 - x0, ov.height()), static_cast<int>(i)});
    }
    // Detail rows: the smallest power-of-two row size whose rows fit the
    // height, rows holding blocks that share addresses tall enough for lanes.
    const int avail =
        std::max(kMinRowHeight, height() - detailTop() - kMargin - fontMetrics().height());
    std::vector<int> laneCounts;
    for (rowBytes_ = 16;; rowBytes_ *= 2) {
        const std::uint64_t rows = (span + rowBytes_ - 1) / rowBytes_;
        if (rows > kMaxRows) {
            continue;
        }
        rows_ = static_cast<int>(rows);
        laneCounts = rowLanes(rowBytes_, rows_);
        int need = 0;
        for (int l : laneCounts) {
            need += std::max(kMinRowHeight, 3 * l + 3);
        }
        if (need <= avail || rows_ == 1) {
            break;
        }
    }
    int rowBase = kMaxRowHeight, perLane = 6;
    auto heightOf = [&](int b, int pl) {
        int sum = 0;
        for (int l : laneCounts) {
            sum += std::max(b, pl * l + 3);
        }
        return sum;
    };
    while (heightOf(rowBase, perLane) > avail && (rowBase > kMinRowHeight || perLane > 3)) {
        if (rowBase > kMinRowHeight) {
            --rowBase;
        } else {
            --perLane;
        }
    }
    rowTop_.assign(static_cast<std::size_t>(rows_) + 1, 0);
    for (int r = 0; r < rows_; ++r) {
        rowTop_[static_cast<std::size_t>(r) + 1] =
            rowTop_[static_cast<std::size_t>(r)] +
            std::max(rowBase, perLane * laneCounts[static_cast<std::size_t>(r)] + 3);
    }
    spanEnd_ = base + static_cast<std::uint64_t>(rows_) * rowBytes_;
    const int left = labelWidth(), w = std::max(1, width() - left - kMargin), top = detailTop();
    auto addPieces = [&](std::uint64_t start, std::uint64_t end, int lane, int lanes, int block) {
        start = base + offset(start);
        end = std::min(end, spanEnd_);
        while (start < end) {
            const std::uint64_t row = (start - base) / rowBytes_;
            const std::uint64_t rowStart = base + row * rowBytes_;
            const std::uint64_t pieceEnd = std::min(end, rowStart + rowBytes_);
            const int x0 =
                left +
                static_cast<int>(std::floor(static_cast<double>(start - rowStart) / rowBytes_ * w));
            const int x1 = left + static_cast<int>(std::ceil(
                                      static_cast<double>(pieceEnd - rowStart) / rowBytes_ * w));
            const int r = static_cast<int>(row);
            const int inner = rowHeight(r) - 3;
            const int y0 = top + rowTop_[row] + 1 + inner * lane / lanes;
            const int y1 = top + rowTop_[row] + 1 + inner * (lane + 1) / lanes;
            pieces_.push_back({QRect(x0, y0, std::max(1, x1 - x0), std::max(1, y1 - y0)), block});
            start = pieceEnd;
        }
    };
    for (const auto& g : layout_.gaps) {
        addPieces(g.address, g.address + std::min(g.bytes, kMaxSpan), 0, 1, -1);
    }
    for (std::size_t i = 0; i < layout_.blocks.size(); ++i) {
        const auto& pb = layout_.blocks[i];
        addPieces(pb.block.address, pb.block.end(), pb.lane, pb.lanes, static_cast<int>(i));
    }
    update();
}

std::vector<int> MemoryMapWidget::rowLanes(std::uint64_t rowBytes, int rows) const {
    std::vector<int> lanes(static_cast<std::size_t>(rows), 1);
    for (const PlacedBlock& pb : layout_.blocks) {
        if (pb.lanes <= 1 || pb.block.bytes == 0) {
            continue;
        }
        if (pb.block.address < layout_.base) {
            continue;
        }
        const std::uint64_t offset = pb.block.address - layout_.base;
        const auto first = offset / rowBytes;
        const auto last = std::min<std::uint64_t>((offset + pb.block.bytes - 1) / rowBytes,
                                                  static_cast<std::uint64_t>(rows) - 1);
        for (auto r = first; r <= last; ++r) {
            lanes[r] = std::max(lanes[r], pb.lanes);
        }
    }
    return lanes;
}

std::vector<QRect> MemoryMapWidget::blockRects(std::size_t block) const {
    std::vector<QRect> out;
    for (const Piece& p : pieces_) {
        if (p.block == static_cast<int>(block)) {
            out.push_back(p.rect);
        }
    }
    return out;
}

long long MemoryMapWidget::addressAt(const QPoint& pos) const {
    const int left = labelWidth(), w = std::max(1, width() - left - kMargin), top = detailTop();
    if (rows_ == 0 || pos.x() < left || pos.x() >= left + w || pos.y() < top ||
        pos.y() >= top + rowTop_.back()) {
        return -1;
    }
    const int row =
        static_cast<int>(std::upper_bound(rowTop_.begin(), rowTop_.end(), pos.y() - top) -
                         rowTop_.begin()) -
        1;
    const double f = static_cast<double>(pos.x() - left) / w;
    return static_cast<long long>(layout_.base + static_cast<std::uint64_t>(row) * rowBytes_ +
                                  static_cast<std::uint64_t>(f * static_cast<double>(rowBytes_)));
}

void MemoryMapWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const QPalette& pal = palette();
    const QColor text = pal.color(QPalette::WindowText);
    QColor faint = text;
    faint.setAlpha(30);
    p.fillRect(rect(), pal.color(QPalette::Base));
    if (!data_) {
        p.setPen(text);
        p.drawText(rect(), Qt::AlignCenter, "Select a tile to see its memory");
        return;
    }
    const QFontMetrics fm = fontMetrics();
    const std::uint64_t base = layout_.base;
    // Overview strip with capacity, regions and the detail window.
    const QRect ov = overviewRect();
    p.setPen(text);
    p.drawText(QRect(0, ov.top(), labelWidth() - 8, ov.height()), Qt::AlignRight | Qt::AlignVCenter,
               "tile");
    p.fillRect(ov, pal.color(QPalette::AlternateBase));
    for (const auto& [r, i] : overview_) {
        p.fillRect(r, categoryColor(layout_.blocks[static_cast<std::size_t>(i)].block.category));
    }
    const double total = static_cast<double>(
        std::max<std::uint64_t>(capacity_, std::max<std::uint64_t>(layout_.end - base, 1)));
    auto ovX = [&](std::uint64_t off) {
        return ov.left() + static_cast<int>(std::lround(std::min(off / total, 2.0) * ov.width()));
    };
    if (layout_.end - base > capacity_) {
        QColor over = capacityLineColor();
        p.fillRect(QRect(QPoint(ovX(capacity_), ov.top()), QPoint(ov.right(), ov.bottom())),
                   QBrush(over, Qt::BDiagPattern));
    }
    p.setPen(faint);
    p.setBrush(Qt::NoBrush);
    p.drawRect(ov.adjusted(0, 0, -1, -1));
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    p.setFont(small);
    const QFontMetrics sfm(small);
    const auto& regions = data_->target.regions;
    for (std::size_t i = 0; i < regions.size(); ++i) {
        const int x = ovX(regions[i].offset);
        const int next = i + 1 < regions.size() ? ovX(regions[i + 1].offset) : ov.right();
        p.setPen(text);
        p.drawLine(x, ov.top(), x, ov.bottom() + 4);
        const QString label = QString("%1 %2").arg(QString::fromStdString(regions[i].name),
                                                   formatAddress(base + regions[i].offset));
        const QString shown = sfm.horizontalAdvance(label) <= next - x - 6
                                  ? label
                                  : sfm.elidedText(QString::fromStdString(regions[i].name),
                                                   Qt::ElideRight, next - x - 6);
        p.drawText(QRect(x + 3, ov.bottom() + 2, std::max(0, next - x - 6), sfm.height()),
                   Qt::AlignLeft | Qt::AlignTop, shown);
    }
    if (capacity_ > 0) {
        const int x = ovX(capacity_);
        p.setPen(QPen(capacityLineColor(), 2));
        p.drawLine(x, ov.top() - 2, x, ov.bottom() + 4);
    }
    // The detail window: a lens from the overview to the rows.
    const int lensL = ovX(0), lensR = ovX(spanEnd_ - base), top = detailTop();
    QColor lens = selectionColor();
    lens.setAlpha(45);
    p.setPen(Qt::NoPen);
    p.setBrush(lens);
    p.drawPolygon(QPolygon({QPoint(lensL, ov.bottom() + 1),
                            QPoint(std::max(lensR, lensL + 2), ov.bottom() + 1),
                            QPoint(width() - kMargin, top - 2), QPoint(labelWidth(), top - 2)}));
    // Rows: start address labels and a faint background.
    const int left = labelWidth(), w = std::max(1, width() - left - kMargin);
    for (int r = 0; r < rows_; ++r) {
        const QRect row(left, rowY(r), w, rowHeight(r) - 1);
        p.fillRect(row, r % 2 ? pal.color(QPalette::AlternateBase) : pal.color(QPalette::Base));
        p.setPen(text);
        p.drawText(QRect(0, row.top(), left - 8, rowHeight(r)), Qt::AlignRight | Qt::AlignVCenter,
                   formatAddress(base + static_cast<std::uint64_t>(r) * rowBytes_));
    }
    // Gaps hatched, blocks filled, shared lanes visible; labels where they fit.
    const QColor gap = gapColor();
    for (const Piece& piece : pieces_) {
        if (piece.block < 0) {
            p.fillRect(piece.rect,
                       QBrush(gap.darker(isDarkPalette(pal) ? 180 : 115), Qt::BDiagPattern));
            continue;
        }
        const auto& pb = layout_.blocks[static_cast<std::size_t>(piece.block)];
        const QColor c = categoryColor(pb.block.category);
        p.fillRect(piece.rect, c);
        if (piece.rect.width() >= 4) {
            p.setPen(QPen(c.darker(135), 1));
            p.setBrush(Qt::NoBrush);
            p.drawRect(piece.rect.adjusted(0, 0, -1, -1));
        }
        if (piece.rect.width() > 36 && piece.rect.height() >= sfm.height()) {
            p.setPen(textOn(c));
            p.drawText(piece.rect.adjusted(3, 0, -2, 0), Qt::AlignLeft | Qt::AlignVCenter,
                       sfm.elidedText(blockOwnerName(*data_, pb.block), Qt::ElideRight,
                                      piece.rect.width() - 5));
        }
    }
    // Capacity inside the rows, the highlighted variable's blocks.
    if (capacity_ > 0 && base + capacity_ < spanEnd_) {
        const std::uint64_t off = capacity_;
        const int r = static_cast<int>(off / rowBytes_);
        const int x = left + static_cast<int>(static_cast<double>(off % rowBytes_) / rowBytes_ * w);
        p.setPen(QPen(capacityLineColor(), 2));
        p.drawLine(x, rowY(r) - 2, x, rowY(r) + rowHeight(r));
        const QRect label(x + 3, rowY(r) + 1, sfm.horizontalAdvance("capacity") + 6, sfm.height());
        p.fillRect(label, pal.color(QPalette::Base));
        p.drawText(label, Qt::AlignCenter, "capacity");
    }
    if (!highlightVariable_.isNone()) {
        p.setPen(QPen(selectionColor(), 2));
        p.setBrush(Qt::NoBrush);
        for (const Piece& piece : pieces_) {
            if (piece.block >= 0 &&
                ownedBy(layout_.blocks[static_cast<std::size_t>(piece.block)].block,
                        highlightVariable_)) {
                p.drawRect(piece.rect.adjusted(0, 0, -1, -1));
            }
        }
    }
    // The scale of a row, under the rows.
    p.setPen(text);
    const int scaleY = top + rowTop_.back() + 2;
    if (scaleY + sfm.height() <= height()) {
        p.drawText(QRect(left, scaleY, w, sfm.height()), Qt::AlignLeft | Qt::AlignTop,
                   QString("each row: %1").arg(formatBytes(rowBytes_)));
    }
    p.setFont(font());
    Q_UNUSED(fm);
}

void MemoryMapWidget::resizeEvent(QResizeEvent*) {
    relayout();
}

void MemoryMapWidget::mouseReleaseEvent(QMouseEvent* event) {
    for (auto it = pieces_.rbegin(); it != pieces_.rend(); ++it) {
        if (it->block >= 0 && it->rect.contains(event->pos())) {
            emit blockClicked(it->block);
            return;
        }
    }
}

QString MemoryMapWidget::tooltipAt(const QPoint& pos) const {
    for (const auto& [r, i] : overview_) {
        if (r.adjusted(-1, 0, 1, 0).contains(pos)) {
            const auto& b = layout_.blocks[static_cast<std::size_t>(i)].block;
            return QString("%1 – %2<br>%3: %4")
                .arg(formatAddress(b.address), formatAddress(b.end()),
                     categoryName(*data_, b.category), blockOwnerName(*data_, b).toHtmlEscaped());
        }
    }
    const long long address = addressAt(pos);
    if (address < 0) {
        return {};
    }
    const auto a = static_cast<std::uint64_t>(address);
    QStringList lines;
    for (const PlacedBlock& pb : layout_.blocks) {
        const auto& b = pb.block;
        if (b.address <= a && a < b.end()) {
            lines << QString("<span style='color:%1'>■</span> <b>%2</b> — %3, %4 at %5, live %6")
                         .arg(categoryColor(b.category).name(),
                              blockOwnerName(*data_, b).toHtmlEscaped(),
                              categoryName(*data_, b.category), formatBytes(b.bytes),
                              formatAddress(b.address), blockLiveRange(*data_, b));
        }
    }
    QString head = QString("<b>%1</b>").arg(formatAddress(a));
    if (lines.isEmpty()) {
        for (const MemoryGap& g : layout_.gaps) {
            if (g.address <= a && a < g.address + g.bytes) {
                return head + QString("<br>gap (alignment padding): %1 at %2")
                                  .arg(formatBytes(g.bytes), formatAddress(g.address));
            }
        }
        return head + "<br>free";
    }
    if (lines.size() > 1) {
        head += QString(" — shared over time by %1 blocks").arg(lines.size());
    }
    return head + "<br>" + lines.join("<br>");
}

bool MemoryMapWidget::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip && data_) {
        const auto* help = static_cast<QHelpEvent*>(e);
        const QString text = tooltipAt(help->pos());
        if (text.isEmpty()) {
            QToolTip::hideText();
        } else {
            QToolTip::showText(help->globalPos(), text, this);
        }
        return true;
    }
    if (e->type() == QEvent::FontChange) {
        relayout();
    }
    return QWidget::event(e);
}

} // namespace tessera::views
