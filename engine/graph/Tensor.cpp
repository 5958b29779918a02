#include "engine/graph/Tensor.h"

#include "engine/core/Error.h"
#include "engine/core/Sanitizers.h"

#include <sanitizer/asan_interface.h>

#include <algorithm>
#include <limits>
#include <sstream>

namespace tessera {

namespace {

// The product of the non-zero dimensions; false when it overflows.
bool nonZeroProduct(const std::vector<std::size_t>& shape, std::size_t& out) {
    out = 1;
    for (std::size_t d : shape) {
        if (d != 0 && __builtin_mul_overflow(out, d, &out)) {
            return false;
        }
    }
    return true;
}

} // namespace

std::size_t product(const std::vector<std::size_t>& shape) {
    std::size_t nonZero = 0;
    if (!nonZeroProduct(shape, nonZero)) {
        throw Error("shape " + shapeString(shape) + " has more elements than 64 bits can count");
    }
    return std::find(shape.begin(), shape.end(), 0) != shape.end() ? 0 : nonZero;
}

void checkShape(const std::vector<std::size_t>& shape, Type type, const std::string& what) {
    std::size_t nonZero = 0, bytes = 0;
    if (!nonZeroProduct(shape, nonZero) || __builtin_mul_overflow(nonZero, sizeOf(type), &bytes)) {
        throw Error(what + ": shape " + shapeString(shape) + " of " + std::string(typeName(type)) +
                    " is too large (its element count or size in bytes overflows 64 bits)");
    }
}

std::string shapeString(const std::vector<std::size_t>& shape) {
    std::ostringstream os;
    os << '{';
    for (std::size_t i = 0; i < shape.size(); ++i) {
        os << (i ? "," : "") << shape[i];
    }
    os << '}';
    return os.str();
}

std::size_t product(const std::vector<std::size_t>& shape, std::size_t from, std::size_t to) {
    std::size_t n = 1;
    for (std::size_t d = from; d < to; ++d) {
        n *= shape[d];
    }
    return n;
}

void RegionList::append(const VariableRegion& r) {
    if (r.begin == r.end) {
        return;
    }
    VariableRegion* last = count_ == 0 ? nullptr : count_ == 1 ? &first_ : &all_.back();
    if (last && last->var == r.var && last->end == r.begin) {
        last->end = r.end;
        return;
    }
    if (count_ == 0) {
        first_ = r;
    } else {
        if (count_ == 1) {
            all_.push_back(first_);
        }
        all_.push_back(r);
    }
    ++count_;
}

void appendRegion(std::vector<VariableRegion>& regions, const VariableRegion& r) {
    if (r.begin == r.end) {
        return;
    }
    if (!regions.empty() && regions.back().var == r.var && regions.back().end == r.begin) {
        regions.back().end = r.end;
        return;
    }
    regions.push_back(r);
}

// Released Data kept for the thread's next views: a graph build makes and
// drops millions of slices. Only small ones are kept (one region at most, a
// short shape and description). Under AddressSanitizer a kept one is
// poisoned until reused, so a use after release is still reported.
namespace {

constexpr std::uint32_t kMostKept = 256;

void poison(const void* p, std::size_t bytes) {
    ASAN_POISON_MEMORY_REGION(p, bytes); // nothing without AddressSanitizer
}
void unpoison(const void* p, std::size_t bytes) {
    ASAN_UNPOISON_MEMORY_REGION(p, bytes);
}

} // namespace

struct Tensor::SpareData {
    // Trivially destructible, so a tensor released while the thread ends (a
    // static one, in the main thread) still finds it; `closed` then says the
    // list was freed and nothing more is kept.
    struct List {
        Data* head = nullptr;
        std::uint32_t count = 0;
        bool closed = false;
        bool closerMade = false;
    };
    static thread_local List list;
    // Frees the list when the thread ends.
    struct Closer {
        ~Closer() {
            list.closed = true;
            while (Data* d = list.head) {
                unpoison(d, sizeof(Data));
                list.head = d->nextSpare;
                delete d;
            }
            list.count = 0;
        }
    };
    static thread_local Closer closer;
};
thread_local Tensor::SpareData::List Tensor::SpareData::list;
thread_local Tensor::SpareData::Closer Tensor::SpareData::closer;

Tensor::DataRef Tensor::newData() {
    SpareData::List& spare = SpareData::list;
    if (Data* d = spare.head) {
        unpoison(d, sizeof(Data));
        spare.head = d->nextSpare;
        --spare.count;
        d->nextSpare = nullptr;
        d->references.store(1, std::memory_order_relaxed);
        return DataRef(d);
    }
    return DataRef(new Data());
}

void Tensor::release(Data* d) noexcept {
    if (d->references.fetch_sub(1, std::memory_order_acq_rel) != 1) {
        return;
    }
    d->sliceOf.reset();
    SpareData::List& spare = SpareData::list;
    const bool small = d->regions.size() <= 1 && d->regionStarts.capacity() == 0 &&
                       d->shape.capacity() <= 8 && d->indices.capacity() <= 8 &&
                       d->description.capacity() <= 64;
    if (!small || spare.closed || spare.count >= kMostKept) {
        delete d;
        return;
    }
    if (!spare.closerMade) {
        spare.closerMade = true;
        (void)&SpareData::closer; // made now, so it frees the list when the thread ends
    }
    // As a new one's, keeping what the vectors and the string hold.
    d->type = Type::Float;
    d->shape.clear();
    d->regions.clear();
    d->numElements = 0;
    d->description.clear();
    d->sliceBegin = d->sliceEnd = d->sliceDim = 0;
    d->indices.clear();
    d->nextSpare = spare.head;
    spare.head = d;
    ++spare.count;
    if (kAddressSanitizer) {
        // LeakSanitizer follows no pointer in poisoned memory: a kept one
        // owns nothing there, and its link to the next (Data's last
        // member) stays readable.
        std::vector<std::size_t>().swap(d->shape);
        std::vector<std::size_t>().swap(d->indices);
        std::string().swap(d->description);
        poison(d, static_cast<std::size_t>(reinterpret_cast<const char*>(&d->nextSpare) -
                                           reinterpret_cast<const char*>(d)));
    }
}

Tensor::Tensor(const Graph* graph, Type type, std::vector<std::size_t> shape, RegionList regions,
               std::string description)
    : graph_(graph) {
    checkShape(shape, type, "tensor " + description);
    DataRef data = newData();
    data->type = type;
    data->shape = std::move(shape);
    data->regions = std::move(regions);
    std::size_t n = 0;
    if (data->regions.size() > 1) {
        data->regionStarts.reserve(data->regions.size());
    }
    for (const VariableRegion& r : data->regions.view()) {
        if (data->regions.size() > 1) {
            data->regionStarts.push_back(n);
        }
        n += r.size();
    }
    data->numElements = n;
    data->description = std::move(description);
    if (n != product(data->shape)) {
        throw Error("internal: tensor " + data->description + " has " + std::to_string(n) +
                    " elements but shape " + shapeString(data->shape));
    }
    data_ = std::move(data);
}

Tensor::Tensor(const Graph* graph, Type type, std::vector<std::size_t> shape,
               const std::vector<VariableRegion>& regions, std::string description)
    : Tensor(
          graph, type, std::move(shape),
          [&] {
              RegionList list;
              for (const VariableRegion& r : regions) {
                  list.append(r);
              }
              return list;
          }(),
          std::move(description)) {}

std::string Tensor::describe(const Data& d) {
    if (!d.sliceOf) {
        return d.description;
    }
    if (!d.indices.empty()) {
        std::string out = describe(*d.sliceOf);
        for (std::size_t v : d.indices) {
            out += "[" + std::to_string(v) + "]";
        }
        return out;
    }
    return describe(*d.sliceOf) + ".slice(" + std::to_string(d.sliceBegin) + "," +
           std::to_string(d.sliceEnd) +
           (d.sliceDim ? "," + std::to_string(d.sliceDim) : std::string()) + ")";
}

void Tensor::requireValid() const {
    if (!graph_) {
        throw Error("operation on an empty tensor (default-constructed Tensor)");
    }
}

const Graph& Tensor::graph() const {
    requireValid();
    return *graph_;
}
Type Tensor::elementType() const {
    requireValid();
    return data_->type;
}
const std::vector<std::size_t>& Tensor::shape() const {
    requireValid();
    return data_->shape;
}
std::size_t Tensor::numElements() const {
    requireValid();
    return data_->numElements;
}
std::span<const VariableRegion> Tensor::regions() const {
    requireValid();
    return data_->regions.view();
}
std::string Tensor::describe() const {
    return graph_ ? describe(*data_) : "<empty tensor>";
}

std::size_t Tensor::dim(std::size_t i) const {
    if (i >= rank()) {
        throw Error("tensor " + describe() + ": dimension " + std::to_string(i) +
                    " out of range for rank " + std::to_string(rank()));
    }
    return shape()[i];
}

void Tensor::appendFlatRange(std::size_t begin, std::size_t end, RegionList& out) const {
    if (begin >= end) {
        return;
    }
    const auto regions = data_->regions.view();
    if (regions.size() == 1) { // one region starting at flat index 0
        const VariableRegion& reg = regions[0];
        out.append({reg.var, reg.begin + begin, reg.begin + end});
        return;
    }
    const auto& starts = data_->regionStarts;
    std::size_t r = static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), begin) -
                                             starts.begin()) -
                    1;
    while (begin < end) {
        const VariableRegion& reg = regions[r];
        const std::size_t offset = begin - starts[r];
        const std::size_t take = std::min(end - begin, reg.size() - offset);
        out.append({reg.var, reg.begin + offset, reg.begin + offset + take});
        begin += take;
        ++r;
    }
}

VariableRegion Tensor::flatElement(std::size_t i) const {
    if (i >= numElements()) {
        throw Error("tensor " + describe() + ": element " + std::to_string(i) + " out of range (" +
                    std::to_string(numElements()) + " elements)");
    }
    RegionList out;
    appendFlatRange(i, i + 1, out);
    return out.view().front();
}

Tensor Tensor::gather(const std::vector<std::size_t>& newShape,
                      const std::vector<std::size_t>& flatIndices, std::string description) const {
    RegionList regions;
    // Walk runs of consecutive indices so contiguous stretches stay one region.
    std::size_t i = 0;
    while (i < flatIndices.size()) {
        std::size_t j = i + 1;
        while (j < flatIndices.size() && flatIndices[j] == flatIndices[j - 1] + 1) {
            ++j;
        }
        appendFlatRange(flatIndices[i], flatIndices[j - 1] + 1, regions);
        i = j;
    }
    return Tensor(graph_, data_->type, newShape, std::move(regions), std::move(description));
}

Tensor Tensor::operator[](std::size_t i) const {
    return index({i});
}

Tensor Tensor::index(const std::vector<std::size_t>& indices) const {
    requireValid();
    if (indices.size() > rank()) {
        throw Error("tensor " + describe() + ": " + std::to_string(indices.size()) +
                    " indices for rank " + std::to_string(rank()));
    }
    std::size_t offset = 0;
    for (std::size_t d = 0; d < indices.size(); ++d) {
        if (indices[d] >= shape()[d]) {
            throw Error("tensor " + describe() + ": index " + std::to_string(indices[d]) +
                        " out of range for dimension " + std::to_string(d) + " of size " +
                        std::to_string(shape()[d]));
        }
        offset = offset * shape()[d] + indices[d];
    }
    const std::span<const std::size_t> rest =
        std::span<const std::size_t>(shape()).subspan(indices.size());
    const std::size_t inner = product(shape(), indices.size(), rank());
    DataRef data = viewData(rest, inner);
    appendFlatRange(offset * inner, offset * inner + inner, data->regions);
    indexRegions(*data);
    data->indices = indices;
    if (indices.empty()) { // t.index({}) is t itself, described as such
        data->description = describe();
        data->sliceOf.reset();
    }
    return wrap(std::move(data));
}

Tensor::DataRef Tensor::viewData(std::span<const std::size_t> shape,
                                 std::size_t numElements) const {
    // The shape is a sub-shape of a checked one: no overflow check needed.
    DataRef data = newData();
    data->type = data_->type;
    data->shape.assign(shape.begin(), shape.end());
    data->numElements = numElements;
    data->sliceOf = data_;
    return data;
}

void Tensor::indexRegions(Data& d) {
    if (d.regions.size() > 1) {
        std::size_t n = 0;
        d.regionStarts.reserve(d.regions.size());
        for (const VariableRegion& r : d.regions.view()) {
            d.regionStarts.push_back(n);
            n += r.size();
        }
    }
}

Tensor Tensor::wrap(DataRef data) const {
    Tensor out;
    out.graph_ = graph_;
    out.data_ = std::move(data);
    return out;
}

Tensor Tensor::slice(std::size_t begin, std::size_t end, std::size_t dimension) const {
    requireValid();
    if (dimension >= rank()) {
        throw Error("tensor " + describe() + ": slice dimension " + std::to_string(dimension) +
                    " out of range for rank " + std::to_string(rank()));
    }
    if (begin > end || end > shape()[dimension]) {
        throw Error("tensor " + describe() + ": slice [" + std::to_string(begin) + ":" +
                    std::to_string(end) + ") out of range for dimension " +
                    std::to_string(dimension) + " of size " + std::to_string(shape()[dimension]));
    }
    const std::vector<std::size_t>& s = data_->shape;
    const std::size_t inner = product(s, dimension + 1, s.size());
    const std::size_t outer = product(s, 0, dimension);
    const std::size_t block = s[dimension] * inner;
    DataRef data = viewData(s, outer * (end - begin) * inner);
    data->shape[dimension] = end - begin;
    for (std::size_t o = 0; o < outer; ++o) {
        appendFlatRange(o * block + begin * inner, o * block + end * inner, data->regions);
    }
    indexRegions(*data);
    data->sliceBegin = begin;
    data->sliceEnd = end;
    data->sliceDim = dimension;
    return wrap(std::move(data));
}

Tensor Tensor::slice(const std::vector<std::size_t>& begin,
                     const std::vector<std::size_t>& end) const {
    requireValid();
    if (begin.size() != rank() || end.size() != rank()) {
        throw Error("tensor " + describe() + ": slice bounds " + shapeString(begin) + ", " +
                    shapeString(end) + " do not match rank " + std::to_string(rank()));
    }
    Tensor t = *this;
    for (std::size_t d = 0; d < rank(); ++d) {
        t = t.slice(begin[d], end[d], d);
    }
    return t;
}

Tensor Tensor::reshape(const std::vector<std::size_t>& newShape) const {
    requireValid();
    checkShape(newShape, data_->type, "tensor " + describe() + ": reshape");
    if (product(newShape) != numElements()) {
        throw Error("tensor " + describe() + ": cannot reshape " + shapeString(shape()) + " (" +
                    std::to_string(numElements()) + " elements) to " + shapeString(newShape));
    }
    return Tensor(graph_, data_->type, newShape, data_->regions, describe());
}

Tensor Tensor::flatten() const {
    return reshape({numElements()});
}

Tensor Tensor::flatten(std::size_t fromDim, std::size_t toDim) const {
    requireValid();
    if (fromDim >= toDim || toDim > rank()) {
        throw Error("tensor " + describe() + ": cannot flatten dimensions [" +
                    std::to_string(fromDim) + "," + std::to_string(toDim) + ") of rank " +
                    std::to_string(rank()));
    }
    std::vector<std::size_t> s(shape().begin(),
                               shape().begin() + static_cast<std::ptrdiff_t>(fromDim));
    std::size_t merged = 1;
    for (std::size_t d = fromDim; d < toDim; ++d) {
        merged *= shape()[d];
    }
    s.push_back(merged);
    s.insert(s.end(), shape().begin() + static_cast<std::ptrdiff_t>(toDim), shape().end());
    return reshape(s);
}

Tensor Tensor::transpose() const {
    requireValid();
    if (rank() != 2) {
        throw Error("tensor " + describe() + ": transpose needs rank 2, not " +
                    std::to_string(rank()));
    }
    return dimShuffle({1, 0});
}

Tensor Tensor::dimShuffle(const std::vector<std::size_t>& permutation) const {
    requireValid();
    std::vector<bool> seen(rank(), false);
    bool ok = permutation.size() == rank();
    for (std::size_t p : permutation) {
        ok = ok && p < rank() && !seen[p];
        if (p < rank()) {
            seen[p] = true;
        }
    }
    if (!ok) {
        throw Error("tensor " + describe() + ": " + shapeString(permutation) +
                    " is not a permutation of " + std::to_string(rank()) + " dimensions");
    }
    std::vector<std::size_t> newShape(rank());
    std::vector<std::size_t> inStride(rank(), 1);
    for (std::size_t d = rank(); d-- > 1;) {
        inStride[d - 1] = inStride[d] * shape()[d];
    }
    for (std::size_t d = 0; d < rank(); ++d) {
        newShape[d] = shape()[permutation[d]];
    }
    std::vector<std::size_t> indices;
    indices.reserve(numElements());
    std::vector<std::size_t> counter(rank(), 0);
    for (std::size_t n = 0; n < numElements(); ++n) {
        std::size_t flat = 0;
        for (std::size_t d = 0; d < rank(); ++d) {
            flat += counter[d] * inStride[permutation[d]];
        }
        indices.push_back(flat);
        for (std::size_t d = rank(); d-- > 0;) {
            if (++counter[d] < newShape[d]) {
                break;
            }
            counter[d] = 0;
        }
    }
    return gather(newShape, indices, describe() + ".dimShuffle(" + shapeString(permutation) + ")");
}

Tensor Tensor::reverse(std::size_t dimension) const {
    requireValid();
    const std::size_t size = dim(dimension);
    std::vector<Tensor> parts;
    for (std::size_t i = size; i-- > 0;) {
        parts.push_back(slice(i, i + 1, dimension));
    }
    if (parts.empty()) {
        return *this;
    }
    return concat(parts, dimension);
}

Tensor Tensor::broadcast(std::size_t times, std::size_t dimension) const {
    requireValid();
    if (times == 0) {
        throw Error("tensor " + describe() + ": broadcast by 0");
    }
    std::vector<std::size_t> result = shape();
    if (dimension < result.size() &&
        __builtin_mul_overflow(result[dimension], times, &result[dimension])) {
        result[dimension] = std::numeric_limits<std::size_t>::max();
    }
    checkShape(result, data_->type,
               "tensor " + describe() + ": broadcast " + std::to_string(times) + " times");
    std::vector<Tensor> parts(times, *this);
    return concat(parts, dimension);
}

Tensor Tensor::expand(const std::vector<std::size_t>& newDims) const {
    requireValid();
    std::vector<std::size_t> s = shape();
    std::vector<std::size_t> sorted = newDims;
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t d : sorted) {
        if (d > s.size()) {
            throw Error("tensor " + describe() + ": cannot insert dimension " + std::to_string(d) +
                        " into rank " + std::to_string(s.size()));
        }
        s.insert(s.begin() + static_cast<std::ptrdiff_t>(d), 1);
    }
    return reshape(s);
}

Tensor Tensor::squeeze(const std::vector<std::size_t>& dims) const {
    requireValid();
    std::vector<std::size_t> s;
    for (std::size_t d = 0; d < rank(); ++d) {
        const bool drop = std::find(dims.begin(), dims.end(), d) != dims.end();
        if (drop && shape()[d] != 1) {
            throw Error("tensor " + describe() + ": cannot squeeze dimension " + std::to_string(d) +
                        " of size " + std::to_string(shape()[d]));
        }
        if (!drop) {
            s.push_back(shape()[d]);
        }
    }
    for (std::size_t d : dims) {
        if (d >= rank()) {
            throw Error("tensor " + describe() + ": squeeze dimension " + std::to_string(d) +
                        " out of range for rank " + std::to_string(rank()));
        }
    }
    return reshape(s);
}

Tensor Tensor::elementAt(std::size_t flatIndex) const {
    VariableRegion r = flatElement(flatIndex);
    return Tensor(graph_, data_->type, {}, {r}, describe() + "{" + std::to_string(flatIndex) + "}");
}

bool Tensor::operator==(const Tensor& other) const {
    if (!valid() || !other.valid()) {
        return valid() == other.valid();
    }
    const auto a = regions(), b = other.regions();
    return graph_ == other.graph_ && shape() == other.shape() &&
           std::equal(a.begin(), a.end(), b.begin(), b.end());
}

Tensor concat(const std::vector<Tensor>& tensors, std::size_t dimension) {
    if (tensors.empty()) {
        throw Error("concat of no tensors");
    }
    const Tensor& first = tensors.front();
    first.requireValid();
    if (dimension >= first.rank()) {
        throw Error("concat: dimension " + std::to_string(dimension) + " out of range for tensor " +
                    first.describe() + " of rank " + std::to_string(first.rank()));
    }
    std::vector<std::size_t> newShape = first.shape();
    newShape[dimension] = 0;
    for (const Tensor& t : tensors) {
        t.requireValid();
        if (t.graph_ != first.graph_ || t.elementType() != first.elementType() ||
            t.rank() != first.rank()) {
            throw Error("concat: tensor " + t.describe() + " does not match " + first.describe() +
                        " in graph, type or rank");
        }
        for (std::size_t d = 0; d < t.rank(); ++d) {
            if (d != dimension && t.shape()[d] != first.shape()[d]) {
                throw Error("concat: shape " + shapeString(t.shape()) + " of " + t.describe() +
                            " does not match " + shapeString(first.shape()) +
                            " outside dimension " + std::to_string(dimension));
            }
        }
        if (__builtin_add_overflow(newShape[dimension], t.shape()[dimension],
                                   &newShape[dimension])) {
            throw Error("concat: dimension " + std::to_string(dimension) + " of " +
                        std::to_string(tensors.size()) + " tensors from " + first.describe() +
                        " would have more elements than 64 bits can count");
        }
    }
    // Interleave each tensor's blocks for every index of the outer dimensions.
    std::size_t outer = 1;
    for (std::size_t d = 0; d < dimension; ++d) {
        outer *= first.shape()[d];
    }
    RegionList regions;
    if (outer == 1) {
        std::size_t total = 0;
        for (const Tensor& t : tensors) {
            total += t.regions().size();
        }
        regions.reserve(total);
    }
    for (std::size_t o = 0; o < outer; ++o) {
        for (const Tensor& t : tensors) {
            const std::size_t block = t.numElements() / std::max<std::size_t>(outer, 1);
            t.appendFlatRange(o * block, (o + 1) * block, regions);
        }
    }
    std::string desc = "concat(";
    for (std::size_t i = 0; i < tensors.size() && i < 3; ++i) {
        desc += (i ? "," : "") + tensors[i].describe();
    }
    desc += tensors.size() > 3 ? ",...)" : ")";
    return Tensor(first.graph_, first.elementType(), newShape, std::move(regions), std::move(desc));
}

Tensor concat(const Tensor& a, const Tensor& b, std::size_t dimension) {
    return concat(std::vector<Tensor>{a, b}, dimension);
}

Tensor concatFlattened(std::size_t count, const std::function<Tensor(std::size_t)>& part,
                       std::size_t regionsHint) {
    if (count == 0) {
        throw Error("concat of no tensors");
    }
    RegionList regions;
    regions.reserve(regionsHint);
    std::size_t elements = 0;
    Tensor first;
    for (std::size_t i = 0; i < count; ++i) {
        const Tensor t = part(i);
        t.requireValid();
        if (i == 0) {
            first = t;
        } else if (t.graph_ != first.graph_ || t.elementType() != first.elementType()) {
            throw Error("concat: tensor " + t.describe() + " does not match " + first.describe() +
                        " in graph or type");
        }
        t.appendFlatRange(0, t.numElements(), regions);
        if (__builtin_add_overflow(elements, t.numElements(), &elements)) {
            throw Error("concat of " + std::to_string(count) + " tensors from " + first.describe() +
                        " would have more elements than 64 bits can count");
        }
    }
    return Tensor(first.graph_, first.elementType(), {elements}, std::move(regions),
                  "concat(" + first.describe() + (count > 1 ? ",...)" : ")"));
}

} // namespace tessera
