#pragma once
// A Tensor is a view: a shape over an ordered list of element ranges of graph
// variables. Views (index, slice, reshape, transpose, dimShuffle, concat...)
// build new lists and never copy data, as in Poplar.
#include "engine/core/LargeArray.h"
#include "engine/core/Type.h"
#include "engine/graph/Ids.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace tessera {

class Graph;

// Elements [begin, end) of one variable, in the variable's row-major order.
struct VariableRegion {
    VariableId var = VariableId::none();
    std::size_t begin = 0;
    std::size_t end = 0;
    std::size_t size() const { return end - begin; }
    bool operator==(const VariableRegion&) const = default;
};

// An ordered list of regions, contiguous neighbours merged. One region (what
// most views, slices of a mapped variable, are) is held without allocating.
class RegionList {
public:
    void append(const VariableRegion& r);
    std::span<const VariableRegion> view() const {
        return count_ <= 1 ? std::span<const VariableRegion>(&first_, count_)
                           : std::span<const VariableRegion>(all_);
    }
    std::size_t size() const { return count_; }
    void clear() {
        count_ = 0;
        all_.clear();
    }
    // Room for `regions` in all (a concatenation's total, known up front).
    void reserve(std::size_t regions) {
        if (regions > 1) {
            all_.reserve(regions);
        }
    }

private:
    VariableRegion first_;
    LargeVector<VariableRegion> all_; // every region, once there are two or more
    std::size_t count_ = 0;
};

class Tensor {
public:
    Tensor() = default; // an empty, invalid tensor; any query but valid() throws

    bool valid() const { return graph_ != nullptr; }
    const Graph& graph() const;
    Type elementType() const;
    const std::vector<std::size_t>& shape() const;
    std::size_t rank() const { return shape().size(); }
    std::size_t dim(std::size_t i) const;
    std::size_t numElements() const;
    // The variable ranges in this view's row-major element order.
    std::span<const VariableRegion> regions() const;
    // A short description for error messages, e.g. "'weights'[0:4]".
    std::string describe() const;

    Tensor operator[](std::size_t i) const; // index dimension 0
    Tensor index(const std::vector<std::size_t>& indices) const;
    Tensor slice(std::size_t begin, std::size_t end, std::size_t dimension = 0) const;
    Tensor slice(const std::vector<std::size_t>& begin, const std::vector<std::size_t>& end) const;
    Tensor reshape(const std::vector<std::size_t>& shape) const;
    Tensor flatten() const;
    Tensor flatten(std::size_t fromDim, std::size_t toDim) const; // merges [from, to)
    Tensor transpose() const;                                     // rank 2
    Tensor dimShuffle(const std::vector<std::size_t>& permutation) const;
    Tensor reverse(std::size_t dimension) const;
    Tensor broadcast(std::size_t times, std::size_t dimension) const;
    Tensor expand(const std::vector<std::size_t>& newDims) const; // insert size-1 dims
    Tensor squeeze(const std::vector<std::size_t>& dims) const;   // drop size-1 dims
    Tensor elementAt(std::size_t flatIndex) const;                // rank-0 view

    // The variable element behind flat index i of this view.
    VariableRegion flatElement(std::size_t i) const;

    bool operator==(const Tensor& other) const; // same elements in the same shape

private:
    friend class Graph;
    friend Tensor concat(const std::vector<Tensor>&, std::size_t);
    friend Tensor concatFlattened(std::size_t, const std::function<Tensor(std::size_t)>&,
                                  std::size_t);
    Tensor(const Graph* graph, Type type, std::vector<std::size_t> shape, RegionList regions,
           std::string description);
    Tensor(const Graph* graph, Type type, std::vector<std::size_t> shape,
           const std::vector<VariableRegion>& regions, std::string description);
    void requireValid() const;
    // Flat element range [begin, end) of this view as variable regions.
    void appendFlatRange(std::size_t begin, std::size_t end, RegionList& out) const;
    Tensor gather(const std::vector<std::size_t>& shape,
                  const std::vector<std::size_t>& flatIndices, std::string description) const;

    struct Data;
    // One reference to a Data, counted in the Data itself: a slice (made by
    // the million while a graph is built) costs no allocation, since a
    // released small Data is kept for the thread's next view (Tensor.cpp).
    class DataRef {
    public:
        DataRef() = default;
        explicit DataRef(Data* adopted) noexcept
            : d_(adopted) {} // takes over one reference
        DataRef(const DataRef& other) noexcept;
        DataRef(DataRef&& other) noexcept
            : d_(other.d_) {
            other.d_ = nullptr;
        }
        DataRef& operator=(DataRef other) noexcept {
            std::swap(d_, other.d_);
            return *this;
        }
        ~DataRef() { reset(); }
        void reset() noexcept {
            if (d_) {
                release(d_);
                d_ = nullptr;
            }
        }
        Data* operator->() const noexcept { return d_; }
        Data& operator*() const noexcept { return *d_; }
        explicit operator bool() const noexcept { return d_ != nullptr; }

    private:
        Data* d_ = nullptr;
    };
    struct Data {
        std::atomic<std::uint32_t> references{1};
        Type type = Type::Float;
        std::vector<std::size_t> shape;
        RegionList regions;
        LargeVector<std::size_t> regionStarts; // flat index of each region's first element (2+)
        std::size_t numElements = 0;
        // The description, or for a slice (made by the million, described
        // only in errors) its tensor and bounds, formatted on demand.
        std::string description;
        DataRef sliceOf;
        std::size_t sliceBegin = 0, sliceEnd = 0, sliceDim = 0;
        std::vector<std::size_t> indices; // an index() view of sliceOf, not a slice
        Data* nextSpare = nullptr;        // in the thread's list of released ones
    };
    // A Data with one reference, every field as a new one's: reused when the
    // thread released a small one.
    static DataRef newData();
    static void release(Data* d) noexcept;
    struct SpareData; // the thread's released Data, kept for reuse
    // The data of a view of this tensor (slice or index), described on
    // demand from it; the caller says which view before wrapping it.
    // Its regions are appended after, then indexed (indexRegions).
    DataRef viewData(std::span<const std::size_t> shape, std::size_t numElements) const;
    static void indexRegions(Data& d); // each region's first flat index, when 2+
    Tensor wrap(DataRef data) const;
    static std::string describe(const Data& d);
    const Graph* graph_ = nullptr;
    DataRef data_;
};

inline Tensor::DataRef::DataRef(const DataRef& other) noexcept
    : d_(other.d_) {
    if (d_) {
        d_->references.fetch_add(1, std::memory_order_relaxed);
    }
}

Tensor concat(const std::vector<Tensor>& tensors, std::size_t dimension = 0);
Tensor concat(const Tensor& a, const Tensor& b, std::size_t dimension = 0);
// concat of the flatten()s of `count` tensors of one graph and type, part(i)
// made only when its regions are appended and dropped before the next: a
// matMul's block copies gather 10^5 row pieces from thousands of block
// views, which concat would hold all at once (fresh pages, ~30 MB at 2048^3).
// `regionsHint`, the regions the caller expects, is reserved up front (an
// array grown by doubling moves its pages each time).
Tensor concatFlattened(std::size_t count, const std::function<Tensor(std::size_t)>& part,
                       std::size_t regionsHint = 0);

// Appends a region, merging it into the previous one when contiguous.
void appendRegion(std::vector<VariableRegion>& regions, const VariableRegion& r);
// The element count of shape[from, to), unchecked (the shape was checked whole).
std::size_t product(const std::vector<std::size_t>& shape, std::size_t from, std::size_t to);

// The element count of a shape; throws Error when it overflows 64 bits.
std::size_t product(const std::vector<std::size_t>& shape);
// Throws Error starting with `what` unless the shape's element count (of its
// non-zero dimensions, so every partial product fits too) and its size in
// bytes fit 64 bits. Every tensor and view is checked so at creation.
void checkShape(const std::vector<std::size_t>& shape, Type type, const std::string& what);
std::string shapeString(const std::vector<std::size_t>& shape); // "{2,3}"

} // namespace tessera
