// poplar::Interval: a half-open range [begin, end) of flat element indices.
#ifndef TESSERA_POPLAR_INTERVAL_HPP
#define TESSERA_POPLAR_INTERVAL_HPP

#include <cstddef>
#include <ostream>

namespace poplar {

class Interval {
public:
    Interval()
        : begin_(0)
        , end_(0) {}
    Interval(std::size_t b, std::size_t e)
        : begin_(b)
        , end_(e) {}
    std::size_t begin() const { return begin_; }
    std::size_t end() const { return end_; }
    std::size_t size() const { return end_ - begin_; }
    bool operator==(const Interval& o) const { return begin_ == o.begin_ && end_ == o.end_; }
    bool operator!=(const Interval& o) const { return !(*this == o); }

private:
    std::size_t begin_;
    std::size_t end_;
};

inline std::ostream& operator<<(std::ostream& os, const Interval& i) {
    return os << '[' << i.begin() << ", " << i.end() << ')';
}

} // namespace poplar

#endif
