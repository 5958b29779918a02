#include "CodeletScanner.h"

#include <cctype>
#include <map>
#include <set>

namespace poplar::detail {

namespace {

bool identStart(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool identChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// Tokens of the source with comments, literals and preprocessor lines gone.
std::vector<std::string> tokenize(const std::string& s) {
    std::vector<std::string> out;
    std::size_t i = 0;
    const std::size_t n = s.size();
    bool lineStart = true;
    while (i < n) {
        const char c = s[i];
        if (c == '\n') {
            lineStart = true;
            ++i;
            continue;
        }
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
            continue;
        }
        if (lineStart && c == '#') { // preprocessor line, with continuations
            while (i < n && s[i] != '\n') {
                if (s[i] == '\\' && i + 1 < n && s[i + 1] == '\n') {
                    i += 2;
                    continue;
                }
                if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
                    const std::size_t e = s.find("*/", i + 2);
                    i = e == std::string::npos ? n : e + 2;
                    continue;
                }
                ++i;
            }
            continue;
        }
        lineStart = false;
        if (c == '/' && i + 1 < n && s[i + 1] == '/') {
            while (i < n && s[i] != '\n') {
                ++i;
            }
            continue;
        }
        if (c == '/' && i + 1 < n && s[i + 1] == '*') {
            const std::size_t e = s.find("*/", i + 2);
            i = e == std::string::npos ? n : e + 2;
            continue;
        }
        if (c == 'R' && i + 1 < n && s[i + 1] == '"') { // raw string R"delim( ... )delim"
            const std::size_t open = s.find('(', i + 2);
            if (open != std::string::npos) {
                const std::string close = ")" + s.substr(i + 2, open - i - 2) + "\"";
                const std::size_t e = s.find(close, open);
                i = e == std::string::npos ? n : e + close.size();
                out.push_back("\"\"");
                continue;
            }
        }
        if (c == '"' || c == '\'') {
            std::size_t j = i + 1;
            while (j < n && s[j] != c && s[j] != '\n') {
                j += s[j] == '\\' ? 2 : 1;
            }
            i = j + 1;
            out.push_back(c == '"' ? "\"\"" : "''");
            continue;
        }
        if (identStart(c)) {
            std::size_t j = i;
            while (j < n && identChar(s[j])) {
                ++j;
            }
            out.push_back(s.substr(i, j - i));
            i = j;
            continue;
        }
        if (std::isdigit(static_cast<unsigned char>(c))) {
            std::size_t j = i;
            while (j < n && (identChar(s[j]) || s[j] == '.' || s[j] == '\'')) {
                ++j;
            }
            out.push_back(s.substr(i, j - i));
            i = j;
            continue;
        }
        if (c == ':' && i + 1 < n && s[i + 1] == ':') {
            out.push_back("::");
            i += 2;
            continue;
        }
        out.push_back(std::string(1, c));
        ++i;
    }
    return out;
}

bool isIdent(const std::string& t) {
    return !t.empty() && identStart(t[0]);
}

// Index just past the bracket matching toks[i] (one of ( { [ <).
std::size_t skipBalanced(const std::vector<std::string>& toks, std::size_t i, std::size_t end) {
    const std::string open = toks[i];
    const std::string close = open == "(" ? ")" : open == "{" ? "}" : open == "[" ? "]" : ">";
    int depth = 0;
    for (; i < end; ++i) {
        if (toks[i] == open) {
            ++depth;
        } else if (toks[i] == close) {
            if (--depth == 0) {
                return i + 1;
            }
        } else if (open == "<" && (toks[i] == "(")) {
            i = skipBalanced(toks, i, end) - 1;
        }
    }
    return end;
}

std::size_t skipTo(const std::vector<std::string>& toks, std::size_t i, std::size_t end,
                   const std::string& what) {
    while (i < end && toks[i] != what) {
        if (toks[i] == "{" || toks[i] == "(" || toks[i] == "[") {
            i = skipBalanced(toks, i, end);
        } else {
            ++i;
        }
    }
    return i;
}

// Joins tokens, with a space only between two identifier-like tokens.
std::string join(const std::vector<std::string>& toks, std::size_t b, std::size_t e) {
    std::string out;
    for (std::size_t i = b; i < e; ++i) {
        if (!out.empty() && identChar(out.back()) && identChar(toks[i][0])) {
            out += ' ';
        }
        out += toks[i];
    }
    return out;
}

const std::set<std::string> kVertexBases = {"Vertex", "SupervisorVertex", "MultiVertex"};

struct ClassInfo {
    std::string fullName; // "ns::Foo"
    std::vector<std::string> members;
    bool isTemplate = false;
};

class Scanner {
public:
    explicit Scanner(std::vector<std::string> toks)
        : toks_(std::move(toks)) {}

    ScanResult run() {
        scope(0, toks_.size(), "");
        ScanResult result;
        std::set<std::string> instantiated;
        for (const auto& [text, prefix] : instantiations_) {
            std::string full = text.rfind("::", 0) == 0 ? text.substr(2) : prefix + text;
            const std::string base = full.substr(0, full.find('<'));
            auto it = classes_.find(base);
            if (it == classes_.end() && text.rfind("::", 0) != 0) {
                it = classes_.find(text.substr(0, text.find('<')));
                full = text;
            }
            if (it == classes_.end() || !it->second.isTemplate) {
                continue;
            }
            instantiated.insert(base);
            result.vertices.push_back({full, "::" + full, it->second.members});
        }
        for (const std::string& name : order_) {
            const ClassInfo& c = classes_.at(name);
            if (!c.isTemplate) {
                result.vertices.push_back({c.fullName, "::" + c.fullName, c.members});
            } else if (!instantiated.count(name)) {
                result.notes.push_back(
                    "vertex template '" + name +
                    "' has no explicit instantiation (add e.g. 'template class " + name +
                    "<float>;')");
            }
        }
        return result;
    }

private:
    void scope(std::size_t i, std::size_t end, const std::string& prefix) {
        bool templ = false;
        while (i < end) {
            const std::string& t = toks_[i];
            if (t == "namespace") {
                std::size_t j = i + 1;
                std::string name;
                while (j < end && toks_[j] != "{" && toks_[j] != "=" && toks_[j] != ";") {
                    name += toks_[j];
                    ++j;
                }
                if (j < end && toks_[j] == "{") {
                    const std::size_t close = skipBalanced(toks_, j, end);
                    scope(j + 1, close - 1, name.empty() ? prefix : prefix + name + "::");
                    i = close;
                } else {
                    i = skipTo(toks_, j, end, ";") + 1;
                }
                templ = false;
            } else if (t == "template") {
                if (i + 1 < end && toks_[i + 1] == "<") {
                    i = skipBalanced(toks_, i + 1, end);
                    templ = true;
                } else { // explicit instantiation
                    std::size_t j = i + 1;
                    if (j < end && (toks_[j] == "class" || toks_[j] == "struct")) {
                        const std::size_t semi = skipTo(toks_, j + 1, end, ";");
                        instantiations_.emplace_back(join(toks_, j + 1, semi), prefix);
                        i = semi + 1;
                    } else {
                        i = skipTo(toks_, j, end, ";") + 1;
                    }
                    templ = false;
                }
            } else if (t == "extern" && i + 1 < end && toks_[i + 1] == "template") {
                i = skipTo(toks_, i + 2, end, ";") + 1;
            } else if (t == "enum") {
                std::size_t j = i + 1;
                while (j < end && toks_[j] != "{" && toks_[j] != ";") {
                    ++j;
                }
                if (j < end && toks_[j] == "{") {
                    j = skipBalanced(toks_, j, end);
                }
                i = skipTo(toks_, j, end, ";") + 1;
                templ = false;
            } else if (t == "class" || t == "struct" || t == "union") {
                i = classHead(i, end, prefix, templ);
                templ = false;
            } else if (t == "{" || t == "(" || t == "[") {
                i = skipBalanced(toks_, i, end);
            } else {
                if (t == ";" || t == "}") {
                    templ = false;
                }
                ++i;
            }
        }
    }

    // Parses a class from its class/struct keyword; returns where to go on.
    std::size_t classHead(std::size_t i, std::size_t end, const std::string& prefix, bool templ) {
        const bool isStruct = toks_[i] != "class";
        std::size_t j = i + 1;
        std::string name;
        while (j < end && toks_[j] != "{" && toks_[j] != ":" && toks_[j] != ";" &&
               toks_[j] != "(" && toks_[j] != "=" && toks_[j] != ",") {
            if (toks_[j] == "<") { // a specialisation's arguments: not ours
                j = skipBalanced(toks_, j, end);
                name += "<>";
                continue;
            }
            if (toks_[j] == "[" && j + 1 < end && toks_[j + 1] == "[") {
                j = skipBalanced(toks_, j, end);
                continue;
            }
            if (toks_[j] == "alignas") {
                j = skipBalanced(toks_, j + 1, end);
                continue;
            }
            if (toks_[j] != "final") {
                name += toks_[j];
            }
            ++j;
        }
        if (j >= end || (toks_[j] != "{" && toks_[j] != ":")) {
            return j; // declaration or a variable of class type
        }
        bool vertex = false;
        if (toks_[j] == ":") {
            std::size_t b = j + 1;
            while (b < end && toks_[b] != "{") {
                if (toks_[b] == "<") {
                    b = skipBalanced(toks_, b, end);
                    continue;
                }
                if (isIdent(toks_[b]) &&
                    (kVertexBases.count(toks_[b]) || isKnownVertex(toks_[b], prefix))) {
                    vertex = true;
                }
                ++b;
            }
            j = b;
        }
        if (j >= end) {
            return end;
        }
        const std::size_t close = skipBalanced(toks_, j, end);
        if (vertex && !name.empty() && name.find('<') == std::string::npos) {
            ClassInfo info;
            info.fullName = prefix + name;
            info.isTemplate = templ;
            // Members of a vertex base class come first.
            for (std::size_t b = i; b < j; ++b) {
                if (isIdent(toks_[b])) {
                    const ClassInfo* base = findVertex(toks_[b], prefix);
                    if (base && base->fullName != info.fullName) {
                        info.members.insert(info.members.end(), base->members.begin(),
                                            base->members.end());
                    }
                }
            }
            members(j + 1, close - 1, isStruct, info.members);
            if (!classes_.count(info.fullName)) {
                order_.push_back(info.fullName);
            }
            classes_[info.fullName] = info;
        }
        return skipTo(toks_, close, end, ";") + 1;
    }

    const ClassInfo* findVertex(const std::string& simple, const std::string& prefix) const {
        auto it = classes_.find(prefix + simple);
        if (it == classes_.end()) {
            it = classes_.find(simple);
        }
        if (it == classes_.end()) {
            for (auto i = classes_.begin(); i != classes_.end(); ++i) {
                const std::string& f = i->first;
                if (f.size() > simple.size() + 2 &&
                    f.compare(f.size() - simple.size(), simple.size(), simple) == 0 &&
                    f.compare(f.size() - simple.size() - 2, 2, "::") == 0) {
                    return &i->second;
                }
            }
            return nullptr;
        }
        return &it->second;
    }
    bool isKnownVertex(const std::string& simple, const std::string& prefix) const {
        return findVertex(simple, prefix) != nullptr;
    }

    // Data members of a class body [i, end).
    void members(std::size_t i, std::size_t end, bool isStruct, std::vector<std::string>& out) {
        bool isPublic = isStruct;
        while (i < end) {
            const std::string& t = toks_[i];
            if ((t == "public" || t == "private" || t == "protected") && i + 1 < end &&
                toks_[i + 1] == ":") {
                isPublic = t == "public";
                i += 2;
                continue;
            }
            if (t == ";") {
                ++i;
                continue;
            }
            if (t == "class" || t == "struct" || t == "union" || t == "enum") {
                std::size_t j = i + 1;
                while (j < end && toks_[j] != "{" && toks_[j] != ";") {
                    ++j;
                }
                if (j < end && toks_[j] == "{") {
                    j = skipBalanced(toks_, j, end);
                }
                i = skipTo(toks_, j, end, ";") + 1;
                continue;
            }
            i = declaration(i, end, isPublic, out);
        }
    }

    // One member declaration from i; returns the index after it.
    std::size_t declaration(std::size_t i, std::size_t end, bool isPublic,
                            std::vector<std::string>& out) {
        const std::string& first = toks_[i];
        bool skip = first == "using" || first == "typedef" || first == "static_assert" ||
                    first == "friend" || first == "template" || first == "static" || first == "~" ||
                    first == "operator";
        if (first == "template" && i + 1 < end && toks_[i + 1] == "<") {
            i = skipBalanced(toks_, i + 1, end);
        }
        bool function = false;
        bool ctorInit = false;
        bool afterEquals = false;
        std::size_t j = i;
        std::vector<std::size_t> declTokens;
        while (j < end) {
            const std::string& t = toks_[j];
            if (t == ";") {
                ++j;
                break;
            }
            if (t == "static" && !afterEquals) {
                skip = true;
            }
            if (t == "(") {
                if (!afterEquals && !ctorInit && !function) {
                    function = true;
                }
                j = skipBalanced(toks_, j, end);
                continue;
            }
            if (t == "[") {
                j = skipBalanced(toks_, j, end);
                continue;
            }
            if (t == ":" && function) {
                ctorInit = true;
            }
            if (t == "=") {
                afterEquals = true;
            }
            if (t == "{") {
                const bool initializer =
                    !function ||
                    (ctorInit && j > 0 && (isIdent(toks_[j - 1]) || toks_[j - 1] == ">"));
                j = skipBalanced(toks_, j, end);
                if (!initializer) {
                    break; // a function body ends the declaration
                }
                continue;
            }
            if (!function) {
                declTokens.push_back(j);
            }
            ++j;
        }
        if (skip || function || !isPublic) {
            return j;
        }
        // Split declarators at top-level commas; a declarator's name is its last
        // identifier before '=', '{', '[' or a bit-field ':'.
        int angle = 0;
        bool cut = false;
        std::string name;
        auto flush = [&] {
            if (!name.empty()) {
                out.push_back(name);
            }
            name.clear();
            cut = false;
        };
        for (std::size_t k : declTokens) {
            const std::string& t = toks_[k];
            if (t == "<") {
                ++angle;
            } else if (t == ">") {
                --angle;
            } else if (t == "," && angle <= 0) {
                flush();
                angle = 0;
                continue;
            }
            if (cut) {
                continue;
            }
            if (angle <= 0 && (t == "=" || t == ":")) {
                cut = true;
            } else if (isIdent(t) && angle <= 0 && t != "const" && t != "volatile" &&
                       t != "mutable") {
                name = t;
            }
        }
        flush();
        return j;
    }

    std::vector<std::string> toks_;
    std::map<std::string, ClassInfo> classes_;
    std::vector<std::string> order_;
    std::vector<std::pair<std::string, std::string>> instantiations_; // text, namespace prefix
};

} // namespace

ScanResult scanCodeletSource(const std::string& source) {
    return Scanner(tokenize(source)).run();
}

} // namespace poplar::detail
