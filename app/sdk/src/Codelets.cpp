// Codelet files: C++ sources compiled at run time by the host compiler with
// generated registration code, cached by content; `.gp` files from popc.
#include "Codelets.h"

#include "CodeletScanner.h"
#include "Impl.h"

#include <dlfcn.h>
#include <poplar/TesseraCodeletAbi.hpp>
#include <poplar/exceptions.hpp>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <regex>
#include <sstream>

#ifndef TESSERA_VERSION
#define TESSERA_VERSION "unknown"
#endif

namespace fs = std::filesystem;

namespace poplar::detail {

namespace {

constexpr char kGpMagic[8] = {'T', 'S', 'R', 'G', 'P', '0', '0', '1'};

std::string env(const char* name) {
    const char* v = std::getenv(name);
    return v ? std::string(v) : std::string();
}

std::string readFile(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) {
        throw graph_object_load_error("addCodelets: cannot read '" + p.string() + "'");
    }
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Into a fresh private file beside `p` (mkstemp), then renamed over it, so
// concurrent processes filling the cache never see a half-written object.
void writeFileAtomically(const fs::path& p, const std::string& bytes) {
    std::string tmp = p.string() + ".XXXXXX";
    const int fd = ::mkstemp(tmp.data());
    if (fd < 0) {
        throw graph_object_load_error("cannot create a file beside '" + p.string() + "'");
    }
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n <= 0) {
            ::close(fd);
            ::unlink(tmp.c_str());
            throw graph_object_load_error("cannot write '" + tmp + "'");
        }
        done += static_cast<std::size_t>(n);
    }
    ::close(fd);
    std::error_code ec;
    fs::rename(tmp, p, ec);
    if (ec) {
        ::unlink(tmp.c_str());
        throw graph_object_load_error("cannot write '" + p.string() + "': " + ec.message());
    }
}

std::uint64_t fnv1a(const std::string& s, std::uint64_t h = 1469598103934665603ull) {
    for (unsigned char c : s) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

std::string hex(std::uint64_t v) {
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(v));
    return text;
}

std::string shellQuote(const std::string& s) {
    std::string out = "'";
    for (char c : s) {
        if (c == '\'') {
            out += "'\\''";
        } else {
            out += c;
        }
    }
    return out + "'";
}

// Where poplar/Vertex.hpp lives: $TESSERA_POPLAR_INCLUDE, else the SDK
// directory this library is in (<sdk>/lib/libpoplar.so -> <sdk>/include; the
// build tree's SDK directory has its own copy of the headers).
fs::path includeDir() {
    const std::string fromEnv = env("TESSERA_POPLAR_INCLUDE");
    if (!fromEnv.empty()) {
        return fromEnv;
    }
    Dl_info info{};
    if (::dladdr(reinterpret_cast<void*>(&includeDir), &info) && info.dli_fname) {
        const fs::path lib = fs::path(info.dli_fname).parent_path();
        for (const fs::path& candidate : {lib / ".." / "include", lib / "include"}) {
            if (fs::exists(candidate / "poplar" / "Vertex.hpp")) {
                return fs::weakly_canonical(candidate);
            }
        }
        throw graph_object_load_error("cannot find Tessera's poplar/Vertex.hpp in " +
                                      (lib / ".." / "include").string() +
                                      "; set TESSERA_POPLAR_INCLUDE");
    }
    throw graph_object_load_error(
        "cannot find Tessera's poplar/Vertex.hpp; set TESSERA_POPLAR_INCLUDE");
}

std::string compiler() {
    std::string c = env("TESSERA_CODELET_CXX");
    return c.empty() ? std::string("c++") : c;
}

fs::path cacheDir() {
    fs::path dir;
    if (!env("TESSERA_CODELET_CACHE").empty()) {
        dir = env("TESSERA_CODELET_CACHE");
    } else if (!env("XDG_CACHE_HOME").empty()) {
        dir = fs::path(env("XDG_CACHE_HOME")) / "tessera" / "codelets";
    } else if (!env("HOME").empty()) {
        dir = fs::path(env("HOME")) / ".cache" / "tessera" / "codelets";
    } else {
        dir = fs::temp_directory_path() / "tessera-codelets";
    }
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) {
        throw graph_object_load_error("cannot create the codelet cache '" + dir.string() +
                                      "': " + ec.message());
    }
    return dir;
}

// The source as the host compiler gets it: IPU-only function attributes
// (`__attribute__((target("supervisor")))`, "worker") removed, line numbers kept.
std::string hostSource(const std::string& text) {
    static const std::regex ipuTarget(
        R"re(__attribute__\s*\(\(\s*target\s*\(\s*"(supervisor|worker)"\s*\)\s*\)\))re");
    return std::regex_replace(text, ipuTarget, "");
}

// The registration translation unit for a scanned source.
std::string registration(const fs::path& source, const ScanResult& scan) {
    std::ostringstream g;
    g << "// Generated by Tessera's codelet compiler for " << source.string() << "; do not edit.\n";
    g << "#include \"" << source.string() << "\"\n";
    g << "#include <poplar/TesseraCodeletRegistration.hpp>\n\n";
    g << "namespace {\nnamespace tr = ::poplar::tessera_detail;\n";
    for (std::size_t c = 0; c < scan.vertices.size(); ++c) {
        const ScannedVertex& v = scan.vertices[c];
        g << "typedef " << v.cppType << " C" << c << ";\n";
        g << "const tessera_codelet_field C" << c << "_fields[] = {\n";
        for (const std::string& m : v.members) {
            g << "    tr::describe<decltype(C" << c << "::" << m << ")>(\"" << m << "\",\n"
              << "        [](void* v, const void* b, std::size_t n) { tr::bindMember(static_cast<C"
              << c << "*>(v)->" << m << ", b, n); },\n"
              << "        [](void* v, double x) { tr::setMember(static_cast<C" << c << "*>(v)->"
              << m << ", x); }),\n";
        }
        g << "    {nullptr, 0, 0, 0, nullptr, nullptr}};\n";
    }
    g << "const tessera_codelet_desc codelets[] = {\n";
    for (std::size_t c = 0; c < scan.vertices.size(); ++c) {
        g << "    tr::codelet<C" << c << ">(\"" << scan.vertices[c].name << "\", C" << c
          << "_fields, " << scan.vertices[c].members.size() << "),\n";
    }
    g << "};\n} // namespace\n\n";
    g << "extern \"C\" __attribute__((visibility(\"default\"))) int " << TESSERA_CODELET_ENTRY
      << "(const tessera_codelet_desc** out, std::size_t* count) {\n"
      << "    *out = codelets;\n    *count = " << scan.vertices.size() << ";\n"
      << "    return TESSERA_CODELET_ABI_VERSION;\n}\n";
    return g.str();
}

// Compiles a codelet source to a shared object in the cache; returns its path.
fs::path buildSharedObject(const fs::path& sourceIn, const std::string& extraFlags) {
    if (!fs::exists(sourceIn)) {
        throw graph_object_load_error("addCodelets: no such file '" + sourceIn.string() + "'");
    }
    const fs::path source = fs::canonical(sourceIn);
    const std::string text = readFile(source);
    const ScanResult scan = scanCodeletSource(text);
    if (scan.vertices.empty()) {
        std::string why = "addCodelets: no vertex classes found in '" + source.string() +
                          "' (a vertex class derives from poplar::Vertex, SupervisorVertex or "
                          "MultiVertex)";
        for (const std::string& note : scan.notes) {
            why += "; " + note;
        }
        throw graph_object_load_error(why);
    }
    const fs::path include = includeDir();
    // A source with IPU-only attributes is compiled from a cleaned copy, found
    // by its original name in diagnostics and its own directory for includes.
    const std::string hostText = hostSource(text);
    const bool cleaned = hostText != text;
    std::string generated = registration(source, scan);
    std::string flags = "-std=c++17 -O2 -fPIC -shared -D__POPC__ " + extraFlags;
    if (cleaned) {
        flags += " -iquote " + shellQuote(source.parent_path().string());
    }
    std::uint64_t h = fnv1a(std::string("abi=") + std::to_string(TESSERA_CODELET_ABI_VERSION) +
                            " version=" + TESSERA_VERSION + " cxx=" + compiler() +
                            " flags=" + flags + " include=" + include.string());
    h = fnv1a(text, h);
    h = fnv1a(generated, h);
    for (const char* header : {"poplar/Vertex.hpp", "poplar/TesseraCodeletRegistration.hpp",
                               "poplar/TesseraCodeletAbi.hpp"}) {
        std::error_code ec;
        if (fs::exists(include / header, ec)) {
            h = fnv1a(readFile(include / header), h);
        }
    }
    const fs::path dir = cacheDir();
    const fs::path so = dir / (source.stem().string() + "-" + hex(h) + ".so");
    if (fs::exists(so)) {
        return so;
    }
    const std::string tag = hex(h) + "-" + std::to_string(::getpid());
    const fs::path gen = dir / (source.stem().string() + "-" + tag + ".reg.cpp");
    const fs::path tmp = dir / (source.stem().string() + "-" + tag + ".so.tmp");
    const fs::path log = dir / (source.stem().string() + "-" + tag + ".log");
    const fs::path cleanCopy = dir / (source.stem().string() + "-" + tag + ".host.cpp");
    if (cleaned) {
        writeFileAtomically(cleanCopy, "#line 1 \"" + source.string() + "\"\n" + hostText);
        const std::string from = "#include \"" + source.string() + "\"";
        generated.replace(generated.find(from), from.size(),
                          "#include \"" + cleanCopy.string() + "\"");
    }
    writeFileAtomically(gen, generated);
    const std::string cmd = shellQuote(compiler()) + " " + flags + " -I" +
                            shellQuote(include.string()) + " -o " + shellQuote(tmp.string()) + " " +
                            shellQuote(gen.string()) + " > " + shellQuote(log.string()) + " 2>&1";
    const int rc = std::system(cmd.c_str());
    std::string output;
    {
        std::error_code ec;
        if (fs::exists(log, ec)) {
            output = readFile(log);
        }
    }
    std::error_code ec;
    fs::remove(gen, ec);
    fs::remove(log, ec);
    if (cleaned) {
        fs::remove(cleanCopy, ec);
    }
    if (rc != 0) {
        fs::remove(tmp, ec);
        if (WIFEXITED(rc) && WEXITSTATUS(rc) == 127) {
            throw graph_object_load_error("addCodelets: the C++ compiler '" + compiler() +
                                          "' was not found (set TESSERA_CODELET_CXX to one)");
        }
        throw graph_object_load_error("addCodelets: compiling '" + source.string() + "' failed:\n" +
                                      output);
    }
    fs::rename(tmp, so);
    return so;
}

std::mutex& loadMutex() {
    static std::mutex m;
    return m;
}

std::vector<tessera::CodeletInfo> loadSharedObject(const fs::path& so, const std::string& origin) {
    std::lock_guard<std::mutex> lock(loadMutex());
    // Loaded for the life of the process: codelet functions stay callable.
    void* handle = ::dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char* err = ::dlerror();
        throw graph_object_load_error("addCodelets: cannot load codelets of '" + origin +
                                      "': " + (err ? err : "unknown error"));
    }
    auto entry = reinterpret_cast<tessera_codelets_entry>(::dlsym(handle, TESSERA_CODELET_ENTRY));
    if (!entry) {
        throw graph_object_load_error("addCodelets: '" + origin +
                                      "' is not a Tessera codelet library");
    }
    const tessera_codelet_desc* descs = nullptr;
    std::size_t count = 0;
    if (entry(&descs, &count) != TESSERA_CODELET_ABI_VERSION) {
        throw graph_object_load_error("addCodelets: '" + origin +
                                      "' was built for another Tessera version; rebuild it");
    }
    static_assert(sizeof(tessera::FieldBinding) == sizeof(void*) + sizeof(std::size_t));
    std::vector<tessera::CodeletInfo> out;
    for (std::size_t c = 0; c < count; ++c) {
        const tessera_codelet_desc& d = descs[c];
        tessera::CodeletInfo info;
        info.name = normaliseVertexName(d.name);
        for (std::size_t f = 0; f < d.numFields; ++f) {
            const tessera_codelet_field& field = d.fields[f];
            if (field.kind == 0) {
                continue; // a member that is neither an edge nor state
            }
            if (field.type < 0) {
                throw graph_object_load_error(
                    "addCodelets: field '" + std::string(field.name) + "' of vertex '" + info.name +
                    "' has an element type Tessera does not support (float, half, "
                    "int, unsigned int, bool)");
            }
            const auto type = static_cast<tessera::Type>(field.type);
            if (field.kind == 4) {
                tessera::StateInfo s;
                s.name = field.name;
                s.type = type;
                auto set = field.setState;
                s.set = [set](void* v, double x) { set(v, x); };
                info.states.push_back(std::move(s));
                continue;
            }
            tessera::FieldInfo fi;
            fi.name = field.name;
            fi.type = type;
            fi.direction = field.direction == 0   ? tessera::FieldDirection::Input
                           : field.direction == 1 ? tessera::FieldDirection::Output
                                                  : tessera::FieldDirection::InOut;
            fi.shape = field.kind == 1   ? tessera::FieldShape::Scalar
                       : field.kind == 2 ? tessera::FieldShape::Vector
                                         : tessera::FieldShape::VectorList;
            auto bind = field.bind;
            fi.bind = [bind](void* v, std::span<const tessera::FieldBinding> b) {
                bind(v, b.data(), b.size());
            };
            info.fields.push_back(std::move(fi));
        }
        auto create = d.create;
        auto destroy = d.destroy;
        auto compute = d.compute;
        info.create = [create] { return create(); };
        info.destroy = [destroy](void* p) { destroy(p); };
        if (d.isMultiVertex) {
            info.compute = [compute](void* p) {
                bool ok = true;
                for (unsigned w = 0; w < 6; ++w) { // one call per worker context
                    ok = compute(p, w) != 0 && ok;
                }
                return ok;
            };
        } else {
            info.compute = [compute](void* p) { return compute(p, 0) != 0; };
        }
        info.formula = "20 + elements of all edges (Tessera's default for user codelets)";
        info.estimator = [fields = info.fields](const tessera::VertexIntrospector& v,
                                                const tessera::Target&) {
            return defaultCodeletEstimate(v, fields);
        };
        out.push_back(std::move(info));
    }
    return out;
}

bool isGpFile(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    char magic[sizeof kGpMagic] = {};
    in.read(magic, sizeof magic);
    return in && std::equal(magic, magic + sizeof magic, kGpMagic);
}

} // namespace

std::string normaliseVertexName(const std::string& name) {
    std::string out;
    for (std::size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        if (c == ' ' || c == '\t' || c == '\n') {
            // keep one space between two identifier characters ("unsigned int")
            std::size_t j = i;
            while (j < name.size() && (name[j] == ' ' || name[j] == '\t' || name[j] == '\n')) {
                ++j;
            }
            auto word = [](char ch) {
                return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
            };
            if (!out.empty() && j < name.size() && word(out.back()) && word(name[j])) {
                out += ' ';
            }
            i = j - 1;
            continue;
        }
        out += c;
    }
    return out;
}

const std::string& normalisedVertexName(const std::string& name, std::string& scratch) {
    // A loop, not find_first_of: that calls memchr once per character, 5 % of
    // a graph build's time.
    const bool spaced = std::any_of(name.begin(), name.end(),
                                    [](char c) { return c == ' ' || c == '\t' || c == '\n'; });
    if (!spaced) {
        return name;
    }
    scratch = normaliseVertexName(name);
    return scratch;
}

std::vector<tessera::CodeletInfo> loadCodeletObject(const std::string& sharedObject) {
    return loadSharedObject(sharedObject, sharedObject);
}

std::vector<tessera::CodeletInfo> loadEmbeddedCodeletObject(const std::string& bytes,
                                                            std::string* sharedObject) {
    const fs::path cached = cacheDir() / ("embedded-" + hex(fnv1a(bytes)) + ".so");
    if (!fs::exists(cached)) {
        writeFileAtomically(cached, bytes);
    }
    if (sharedObject) {
        *sharedObject = cached.string();
    }
    return loadSharedObject(cached, "a codelet object embedded in the executable");
}

std::vector<tessera::CodeletInfo>
loadCodeletFile(const std::string& path, const std::string& extraFlags, std::string* sharedObject) {
    const fs::path p(path);
    if (!fs::exists(p)) {
        throw graph_object_load_error("addCodelets: no such file '" + path + "'");
    }
    if (isGpFile(p)) {
        const std::string bytes = readFile(p);
        const std::string so = bytes.substr(sizeof kGpMagic);
        const fs::path cached = cacheDir() / (p.stem().string() + "-gp-" + hex(fnv1a(so)) + ".so");
        if (!fs::exists(cached)) {
            writeFileAtomically(cached, so);
        }
        if (sharedObject) {
            *sharedObject = cached.string();
        }
        return loadSharedObject(cached, path);
    }
    const std::string ext = p.extension().string();
    if (ext == ".S" || ext == ".s" || ext == ".asm") {
        throw graph_object_load_error("addCodelets: '" + path +
                                      "': assembly codelets are not supported by Tessera");
    }
    const fs::path so = buildSharedObject(p, extraFlags);
    if (sharedObject) {
        *sharedObject = so.string();
    }
    return loadSharedObject(so, path);
}

std::string saveCodeletSource(const std::string& text) {
    const fs::path path = cacheDir() / ("stream-" + hex(fnv1a(text)) + ".cpp");
    std::error_code ec;
    if (!fs::exists(path, ec) || readFile(path) != text) {
        writeFileAtomically(path, text);
    }
    return path.string();
}

void compileCodeletFile(const std::string& source, const std::string& output,
                        const std::string& extraFlags) {
    const fs::path so = buildSharedObject(source, extraFlags);
    writeFileAtomically(output, std::string(kGpMagic, sizeof kGpMagic) + readFile(so));
}

tessera::PerfEstimate defaultCodeletEstimate(const tessera::VertexIntrospector& v,
                                             const std::vector<tessera::FieldInfo>& fields) {
    std::uint64_t n = 0;
    for (const tessera::FieldInfo& f : fields) {
        for (std::size_t s : v.listOrSize(f.name)) {
            n += s;
        }
    }
    return tessera::PerfEstimate{20 + n, 0};
}

} // namespace poplar::detail
