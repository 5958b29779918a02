// The Execution pane's finding: the search field's matches (names matched
// here, the run's executions collected on a worker) and bringing a step's
// execution into view.
#include "views/data/ReportData.h"
#include "views/panes/ExecutionPane.h"
#include "views/panes/execution/FlameWidget.h"
#include "views/panes/execution/FrameBuilder.h"
#include "views/panes/execution/StepSearch.h"
#include "views/panes/execution/TimelineWidget.h"
#include "views/panes/execution/Viewport.h"

#include <QEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>

namespace tessera::views {

using namespace execution;

void ExecutionPane::setSearchText(const QString& text) {
    {
        const QSignalBlocker block(searchField_);
        searchField_->setText(text);
    }
    searchTimer_.stop();
    startSearch();
}

// Names are matched here (program steps only); the run's executions of the
// matching steps are collected by a worker.
void ExecutionPane::startSearch() {
    searchTimer_.stop();
    if (searchStop_) {
        *searchStop_ = true; // the previous search is not wanted any more
    }
    searchStop_.reset();
    const QString text = searchField_->text().trimmed();
    currentMatch_ = -1;
    searchPending_ = false;
    if (text.isEmpty() || !data_ || !builder_ || run_ < 0) {
        matches_.reset();
        pendingJump_ = 0;
        timeline_->setSearch(nullptr);
        flame_->setSearch(nullptr);
        updateMatchLabel();
        return;
    }
    auto flags = std::make_shared<std::vector<bool>>(matchingSteps(*data_, text));
    auto stop = std::make_shared<std::atomic<bool>>(false);
    searchStop_ = stop;
    searchPending_ = true;
    const std::uint32_t run = data_->runs[static_cast<std::size_t>(run_)].id;
    searchTask_.start([builder = builder_, run, flags, stop, text]() {
        auto m = std::make_shared<StepMatches>();
        m->text = text;
        m->steps = *flags;
        try {
            auto found = builder->findExecutions(run, m->steps, kMaxSearchMatches, *stop);
            m->found = std::move(found.found);
            m->total = found.total;
        } catch (const std::exception&) {
            return std::shared_ptr<const StepMatches>(); // cancelled or unreadable
        }
        return std::shared_ptr<const StepMatches>(std::move(m));
    });
    updateMatchLabel();
}

void ExecutionPane::searchFinished() {
    std::shared_ptr<const StepMatches> m = searchTask_.take();
    searchPending_ = false;
    if (!m || m->text != searchField_->text().trimmed()) {
        pendingJump_ = 0;
        updateMatchLabel();
        return; // stopped, or the report cannot be read
    }
    matches_ = std::move(m);
    currentMatch_ = -1;
    timeline_->setSearch(matches_);
    flame_->setSearch(matches_);
    updateMatchLabel();
    const int jump = std::exchange(pendingJump_, 0);
    if (jump != 0) {
        jumpToMatch(jump);
    }
}

void ExecutionPane::findNext() {
    jumpToMatch(1);
}

void ExecutionPane::findPrevious() {
    jumpToMatch(-1);
}

void ExecutionPane::jumpToMatch(int direction) {
    if (searchTimer_.isActive()) {
        startSearch(); // typed just now: search before moving
    }
    if (isSearching()) {
        pendingJump_ = direction;
        return;
    }
    if (!matches_ || matches_->found.empty()) {
        return;
    }
    const auto& found = matches_->found;
    const auto n = static_cast<long long>(found.size());
    long long i = 0;
    if (currentMatch_ >= 0) {
        i = ((currentMatch_ + direction) % n + n) % n;
    } else {
        // The first match from the view's start on (or the last before it).
        const auto at = static_cast<long long>(matches_->firstAtOrAfter(viewport_->time().start()));
        i = direction > 0 ? (at < n ? at : 0) : (at > 0 ? at - 1 : n - 1);
    }
    currentMatch_ = static_cast<int>(i);
    const record::StepExecutionRecord e = found[static_cast<std::size_t>(i)];
    selectExecution(e.programStep, e.startCycle);
    revealExecution(e);
    updateMatchLabel();
}

void ExecutionPane::updateMatchLabel() {
    matchLabel_->setText(isSearching() ? tr("searching…")
                                       : matchCountText(matches_.get(), currentMatch_));
}

bool ExecutionPane::eventFilter(QObject* watched, QEvent* event) {
    if (watched == searchField_ && event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            jumpToMatch(key->modifiers() & Qt::ShiftModifier ? -1 : 1);
            return true;
        }
        if (key->key() == Qt::Key_Escape && !searchField_->text().isEmpty()) {
            setSearchText({});
            return true;
        }
        if (key->key() == Qt::Key_Up || key->key() == Qt::Key_Down) {
            return true; // typing: the keys do not reach the pane's navigation
        }
    }
    return Pane::eventFilter(watched, event);
}

void ExecutionPane::revealStep(record::StepId programStep) {
    const TimelineFrame* f = timeline_->frame();
    const TimeMapping& m = viewport_->time();
    if (f && f->stepsComplete) {
        for (const auto& e : f->steps) {
            const auto s = static_cast<double>(e.startCycle);
            if (e.programStep == programStep && s < m.end() &&
                s + static_cast<double>(e.cycles) > m.start()) {
                return; // already in view, and highlighted
            }
        }
    }
    if (!builder_ || run_ < 0) {
        return;
    }
    const std::uint32_t run = data_->runs[static_cast<std::size_t>(run_)].id;
    // Search from the first step in view onwards (wrapping), off the GUI thread.
    std::uint64_t from = 0;
    if (f && f->stepsComplete) {
        if (const record::StepExecutionRecord* e = f->stepAt(m.start())) {
            from = e->sequence;
        }
    }
    findTask_.start([builder = builder_, run, programStep, from]() {
        try {
            return builder->findExecution(run, programStep, from);
        } catch (const std::exception&) {
            return std::optional<record::StepExecutionRecord>();
        }
    });
}

void ExecutionPane::revealFound() {
    const std::optional<record::StepExecutionRecord> e = findTask_.take();
    if (!e || e->programStep != shownStep_) {
        return;
    }
    revealExecution(*e);
}

void ExecutionPane::revealExecution(const record::StepExecutionRecord& e) {
    const auto s = static_cast<double>(e.startCycle);
    const auto len = static_cast<double>(std::max<std::uint64_t>(e.cycles, 1));
    const TimeMapping& m = viewport_->time();
    if (len / m.cyclesPerPixel() < 6) {
        // Too thin to see: zoom so the step is a twentieth of the view.
        viewport_->setVisible(s + len / 2 - 10 * len, s + len / 2 + 10 * len);
    } else {
        viewport_->centreOn(s + len / 2);
    }
}

} // namespace tessera::views
