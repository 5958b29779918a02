// poplar::Executable: a compiled graph and its programs (compileGraph).
#ifndef TESSERA_POPLAR_EXECUTABLE_HPP
#define TESSERA_POPLAR_EXECUTABLE_HPP

#include <istream>
#include <memory>
#include <ostream>

namespace poplar {

namespace detail {
struct ExecutableImpl;
struct Access;
} // namespace detail

class Executable {
public:
    Executable();
    ~Executable();
    Executable(Executable&& other);
    Executable& operator=(Executable&& other);

    void serialize(std::ostream& out) const;
    static Executable deserialize(std::istream& in);

private:
    friend struct detail::Access;
    std::unique_ptr<detail::ExecutableImpl> impl_;
};

} // namespace poplar

#endif
