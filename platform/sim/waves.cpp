// Waveform requests (waves.h): the text of WEFT_WAVES or weft_sim_config_t.waves, checked
// field by field, since it comes from a user's environment.
#include "waves.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace weft::sim
{

namespace
{

// A decimal number that fits 64 bits, nothing else.
bool parse_u64(const std::string &s, uint64_t *out)
{
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
        return false;
    errno = 0;
    unsigned long long v = std::strtoull(s.c_str(), nullptr, 10);
    if (errno == ERANGE)
        return false;
    *out = v;
    return true;
}

std::vector<std::string> split(const std::string &s, const char *seps)
{
    std::vector<std::string> parts;
    size_t i = 0;
    while (i <= s.size()) {
        size_t j = s.find_first_of(seps, i);
        if (j == std::string::npos)
            j = s.size();
        if (j > i)
            parts.push_back(s.substr(i, j - i));
        i = j + 1;
    }
    return parts;
}

// One entry ("slot=0 from=10 to=20 file=x.fst") into req and its slot.
bool parse_entry(const std::string &entry, unsigned nslots, unsigned *slot, WaveRequest *req,
                 std::string *why)
{
    bool have_slot = false;
    for (const std::string &field : split(entry, " ,\t")) {
        size_t eq = field.find('=');
        std::string key = field.substr(0, eq);
        std::string value = eq == std::string::npos ? "" : field.substr(eq + 1);
        uint64_t n = 0;
        if (eq == std::string::npos || value.empty()) {
            *why = "\"" + field + "\" is not key=value";
            return false;
        } else if (key == "file") {
            req->file = value;
        } else if (key != "slot" && key != "from" && key != "to") {
            *why = "unknown key \"" + key + "\" (slot, from, to, file)";
            return false;
        } else if (!parse_u64(value, &n)) {
            *why = key + "=" + value + " is not a number of " +
                   (key == "slot" ? "a slot" : "fabric cycles");
            return false;
        } else if (key == "slot") {
            if (n >= nslots) {
                *why = "slot " + value + " does not exist (the fabric has " +
                       std::to_string(nslots) + ")";
                return false;
            }
            *slot = static_cast<unsigned>(n);
            have_slot = true;
        } else {
            (key == "from" ? req->from : req->to) = n;
        }
    }
    if (!have_slot) {
        *why = "\"" + entry + "\" names no slot (slot=N)";
        return false;
    }
    if (req->from > req->to) {
        *why = "from=" + std::to_string(req->from) + " is after to=" + std::to_string(req->to);
        return false;
    }
    if (req->file.empty())
        req->file = "weft-slot" + std::to_string(*slot) + ".fst";
    req->wanted = true;
    return true;
}

} // namespace

bool parse_wave_requests(const char *text, unsigned nslots, std::vector<WaveRequest> *out,
                         std::string *why)
{
    std::vector<WaveRequest> reqs(nslots);
    for (const std::string &entry : split(text ? text : "", ";")) {
        if (entry.find_first_not_of(" \t,") == std::string::npos)
            continue;
        WaveRequest r;
        unsigned slot = 0;
        if (!parse_entry(entry, nslots, &slot, &r, why))
            return false;
        if (reqs[slot].wanted) {
            *why = "slot " + std::to_string(slot) + " is named twice";
            return false;
        }
        // Two writers on one file would corrupt it (later images' files, x-1.fst, ...,
        // are the user's to keep apart).
        for (const WaveRequest &other : reqs) {
            if (other.wanted && other.file == r.file) {
                *why = "two slots record into " + r.file;
                return false;
            }
        }
        reqs[slot] = r;
    }
    *out = std::move(reqs);
    return true;
}

std::string wave_file_name(const std::string &file, unsigned k)
{
    if (k == 0)
        return file;
    size_t slash = file.rfind('/');
    size_t dot = file.rfind('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash) ||
        dot == (slash == std::string::npos ? 0 : slash + 1))
        dot = file.size();
    return file.substr(0, dot) + "-" + std::to_string(k) + file.substr(dot);
}

} // namespace weft::sim
