// Reading a Chrome trace written by weft_trace_write() back, for the unit and end-to-end
// tests of include/weft/trace.h: the tracks, the events on each, and the checks every
// trace must pass (well-formed spans that never overlap on a track).
#ifndef WEFT_TESTS_TRACE_JSON_H
#define WEFT_TESTS_TRACE_JSON_H

#include <gtest/gtest.h>
#include <jansson.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

namespace trace_json
{

// One non-metadata event.
struct Event {
    std::string ph, name, cat;
    long long pid = 0, tid = 0;
    double ts = 0, dur = 0;
    std::map<std::string, long long> ints;   // integer args
    std::map<std::string, std::string> strs; // string args
    bool open = false;                       // args.open
    double End() const { return ts + dur; }
};

struct Trace {
    bool ok = false;
    std::string error;
    std::string process_name;
    std::map<long long, std::string> names; // tid -> thread_name
    std::map<long long, long long> sort;    // tid -> thread_sort_index
    std::vector<Event> events;
    std::map<std::string, long long> other_ints; // otherData integers
    bool recording = false;                      // otherData.recording

    // tid of the track named `name`, or -1.
    long long Tid(const std::string &name) const
    {
        for (const auto &kv : names)
            if (kv.second == name)
                return kv.first;
        return -1;
    }
    // Events on a track in time order (spans before instants at the same time).
    std::vector<Event> On(long long tid) const
    {
        std::vector<Event> out;
        for (const Event &e : events)
            if (e.tid == tid)
                out.push_back(e);
        std::stable_sort(out.begin(), out.end(),
                         [](const Event &a, const Event &b) { return a.ts < b.ts; });
        return out;
    }
    // Events on a track with this name.
    std::vector<Event> Named(long long tid, const std::string &name) const
    {
        std::vector<Event> out;
        for (const Event &e : On(tid))
            if (e.name == name)
                out.push_back(e);
        return out;
    }
    size_t Count(long long tid, const std::string &name) const { return Named(tid, name).size(); }
};

inline std::string Str(json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

inline Trace Load(const std::string &path)
{
    Trace t;
    json_error_t err;
    json_t *root = json_load_file(path.c_str(), 0, &err);
    if (!root) {
        t.error = std::string("not JSON: ") + err.text + " at line " + std::to_string(err.line);
        return t;
    }
    json_t *events = json_object_get(root, "traceEvents");
    if (!json_is_array(events)) {
        t.error = "no traceEvents array";
        json_decref(root);
        return t;
    }
    size_t i;
    json_t *e;
    json_array_foreach(events, i, e)
    {
        std::string ph = Str(e, "ph");
        json_t *args = json_object_get(e, "args");
        long long tid = json_integer_value(json_object_get(e, "tid"));
        if (ph == "M") {
            std::string what = Str(e, "name");
            if (what == "process_name")
                t.process_name = Str(args, "name");
            else if (what == "thread_name")
                t.names[tid] = Str(args, "name");
            else if (what == "thread_sort_index")
                t.sort[tid] = json_integer_value(json_object_get(args, "sort_index"));
            continue;
        }
        Event ev;
        ev.ph = ph;
        ev.name = Str(e, "name");
        ev.cat = Str(e, "cat");
        ev.pid = json_integer_value(json_object_get(e, "pid"));
        ev.tid = tid;
        ev.ts = json_number_value(json_object_get(e, "ts"));
        ev.dur = json_number_value(json_object_get(e, "dur"));
        const char *key;
        json_t *v;
        json_object_foreach(args, key, v)
        {
            if (json_is_integer(v))
                ev.ints[key] = json_integer_value(v);
            else if (json_is_string(v))
                ev.strs[key] = json_string_value(v);
            else if (std::string(key) == "open")
                ev.open = json_is_true(v);
        }
        t.events.push_back(ev);
    }
    json_t *other = json_object_get(root, "otherData");
    const char *key;
    json_t *v;
    json_object_foreach(other, key, v)
    {
        if (json_is_integer(v))
            t.other_ints[key] = json_integer_value(v);
    }
    t.recording = json_is_true(json_object_get(other, "recording"));
    json_decref(root);
    t.ok = true;
    return t;
}

// Every event names a known track; spans have a non-negative duration; on each track the
// spans never overlap (one ends before the next begins), to within float rounding.
inline ::testing::AssertionResult WellFormed(const Trace &t)
{
    const double eps = 0.002; // us: ts and dur are written in ns resolution
    for (const Event &e : t.events) {
        if (!t.names.count(e.tid))
            return ::testing::AssertionFailure()
                   << "event '" << e.name << "' on unnamed tid " << e.tid;
        if (e.ph != "X" && e.ph != "i")
            return ::testing::AssertionFailure() << "event '" << e.name << "' has ph " << e.ph;
        if (e.ts < 0 || e.dur < 0)
            return ::testing::AssertionFailure()
                   << "event '" << e.name << "' at " << e.ts << " lasts " << e.dur;
    }
    for (const auto &kv : t.names) {
        std::vector<Event> spans;
        for (const Event &e : t.On(kv.first))
            if (e.ph == "X")
                spans.push_back(e);
        for (size_t i = 1; i < spans.size(); i++)
            if (spans[i].ts + eps < spans[i - 1].End())
                return ::testing::AssertionFailure()
                       << "track '" << kv.second << "': '" << spans[i].name << "' at "
                       << spans[i].ts << " begins before '" << spans[i - 1].name << "' ("
                       << spans[i - 1].ts << " + " << spans[i - 1].dur << ") ends";
    }
    return ::testing::AssertionSuccess();
}

// Names of the spans on a track in time order.
inline std::vector<std::string> SpanNames(const Trace &t, long long tid)
{
    std::vector<std::string> out;
    for (const Event &e : t.On(tid))
        if (e.ph == "X")
            out.push_back(e.name);
    return out;
}

} // namespace trace_json

#endif // WEFT_TESTS_TRACE_JSON_H
