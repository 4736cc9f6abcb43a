// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// weft-bench-softcore: the softcore's real-time kernel on its two ports, on the same core
// (weft_rv_soc, eight contexts) and clock (docs/softcore.md, "Measured"):
//   - the Thread-Metric-equivalent suite: each test's score (the work counted while the
//     reporter sleeps its interval) on the single-context port and on the
//     hardware-context port, and their ratio; and on the hardware-context port with two
//     contexts for its threads, where the threads beyond them take turns, switched in
//     software (what having more threads than contexts costs);
//   - interrupt latency, in core cycles from the record of the store that raises the
//     software interrupt to the first instruction of the trap, and to the first of the
//     application's handler (the interrupt test's trace);
//   - service times (min, max) of the common calls over every configuration of
//     rtk_service.c (ready threads, priority gaps).
// Writes JSON (--out) for bench/report.py; asserts nothing.
//
//   weft-bench-softcore [--quick] [--out PATH]
#include <jansson.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "Vweft_rv_soc_c8.h"
#include "bench_util.h"
#include "rv_soc_host.h"
#include "verilated.h"

namespace
{

constexpr uint32_t kMem = 65536;
const char *const kPorts[3] = {"sw", "hw", "hwshared"};
const char *const kPortNames[3] = {"single-context", "hardware-context", "hw, 2 contexts"};

struct Latency {
    std::vector<double> cycles, to_handler;
    uint64_t raise_cycle = 0;
    bool raised = false, taken = false, in_trap = false;
    uint64_t cycle = 0;
    uint32_t handler = 0; // the application handler's address (the program prints it)
    // From the trace: the store to MSIP, then the interrupt taken, then the next record
    // (the trap's first instruction), then the handler's first.
    void operator()(Vweft_rv_soc_c8 &m)
    {
        cycle++;
        rv::Trace t = rv::Trace::decode(m.trace_o);
        if (!t.valid)
            return;
        if (taken) {
            cycles.push_back(static_cast<double>(cycle - raise_cycle));
            taken = raised = false;
            in_trap = true;
        }
        if (in_trap && handler && t.pc == handler) {
            to_handler.push_back(static_cast<double>(cycle - raise_cycle));
            in_trap = false;
        }
        if (t.kind == 0 && t.mem_we && t.mem_addr == 0xF0000000u && (t.mem_wdata & 1)) {
            raised = true;
            raise_cycle = cycle;
        } else if (t.kind == 2 && raised) {
            taken = true;
        }
    }
};

struct Run {
    bool ok = false;
    std::string console;
    uint64_t cycles = 0;
};

// Runs an image for at most `max` cycles; `ends`: it must end by then, with code 0.
template <class Each> Run run_image(const std::string &path, uint64_t max, bool ends, Each each)
{
    Run out;
    std::string err;
    std::vector<uint32_t> img = rv::read_image(path, kMem, err);
    if (img.empty()) {
        std::fprintf(stderr, "weft-bench-softcore: %s\n", err.c_str());
        return out;
    }
    rv::SocHost<Vweft_rv_soc_c8> h;
    h.load(img);
    rv::RunResult r = h.run(max, each);
    out.ok = r.exited && r.code == 0;
    out.console = r.console;
    out.cycles = r.cycles;
    if (ends && !out.ok)
        std::fprintf(stderr, "weft-bench-softcore: %s: %s (code %u)\n%s", path.c_str(),
                     r.exited ? "failed" : "did not end", r.code, r.console.c_str());
    return out;
}

// "tm <test> <port> score <n> ticks <k> cycles <c>"
bool parse_score(const std::string &console, double &score, double &cycles, double &ticks)
{
    std::istringstream in(console);
    std::string line;
    while (std::getline(in, line)) {
        char test[64], port[64];
        unsigned long s, t, c;
        if (std::sscanf(line.c_str(), "tm %63s %63s score %lu ticks %lu cycles %lu", test, port, &s,
                        &t, &c) == 5) {
            score = static_cast<double>(s);
            ticks = static_cast<double>(t);
            cycles = static_cast<double>(c);
            return true;
        }
    }
    return false;
}

json_t *stats_json(std::vector<double> v)
{
    bench_stats_t s = bench_summarize(v.data(), v.size());
    json_t *o = json_object();
    json_object_set_new(o, "n", json_integer(static_cast<json_int_t>(s.n)));
    json_object_set_new(o, "min", bench_jnum(s.min));
    json_object_set_new(o, "mean", bench_jnum(s.mean));
    json_object_set_new(o, "max", bench_jnum(s.max));
    return o;
}

void usage(FILE *f)
{
    std::fprintf(f, "usage: weft-bench-softcore [--quick] [--out PATH]\n"
                    "  --quick  two tests of the suite and the service times\n");
}

} // namespace

int main(int argc, char **argv)
{
    const char *out = nullptr;
    bool quick = false;
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--quick")) {
            quick = true;
        } else if (!std::strcmp(argv[i], "--out") && i + 1 < argc) {
            out = argv[++i];
        } else if (!std::strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (out && bench_mkdirs_for(out) != 0) {
        std::fprintf(stderr, "weft-bench-softcore: cannot create the directories of %s\n", out);
        return 1;
    }
    const std::string dir = WEFT_RV_IMAGE_DIR;
    std::vector<std::string> tests = {
        "basic",   "cooperative",     "preemptive", "interrupt", "interrupt_preemption",
        "message", "synchronization", "memory"};
    if (quick)
        tests = {"cooperative", "interrupt"};

    json_t *doc = json_object();
    json_t *rows = json_array();
    double interval_cycles = 0, interval_ticks = 0;
    Latency lat[2];
    std::printf("%-22s %14s %16s %7s %14s\n", "test", kPortNames[0], kPortNames[1], "ratio",
                kPortNames[2]);
    for (const std::string &t : tests) {
        double score[3] = {0, 0, 0};
        // --quick: the shared-context port on the first test only (enough to prove it runs).
        int ports = (quick && t != tests.front()) ? 2 : 3;
        for (int p = 0; p < ports; p++) {
            std::string path = dir + "/tm_" + kPorts[p] + "_" + t + ".bin";
            bool measure = t == "interrupt" && p < 2;
            if (measure) { // its handler's address first, from a short run
                Run pre = run_image(path, 20000, false, [](Vweft_rv_soc_c8 &) {});
                unsigned long a = 0;
                size_t at = pre.console.find("tm handler ");
                if (at != std::string::npos)
                    a = std::strtoul(pre.console.c_str() + at + 11, nullptr, 16);
                lat[p].handler = static_cast<uint32_t>(a);
            }
            Run r = measure
                        ? run_image(path, 100000000, true, [&](Vweft_rv_soc_c8 &m) { lat[p](m); })
                        : run_image(path, 100000000, true, [](Vweft_rv_soc_c8 &) {});
            if (!r.ok || !parse_score(r.console, score[p], interval_cycles, interval_ticks)) {
                std::fprintf(stderr, "weft-bench-softcore: no score from %s\n", path.c_str());
                return 1;
            }
        }
        double ratio = score[1] / score[0];
        std::printf("%-22s %14.0f %16.0f %6.2fx %14.0f\n", t.c_str(), score[0], score[1], ratio,
                    score[2]);
        json_t *row = json_object();
        json_object_set_new(row, "test", json_string(t.c_str()));
        json_object_set_new(row, "single_context", json_real(score[0]));
        json_object_set_new(row, "hardware_context", json_real(score[1]));
        json_object_set_new(row, "ratio", bench_jnum(ratio));
        if (ports == 3) {
            json_object_set_new(row, "hardware_context_shared", json_real(score[2]));
            json_object_set_new(row, "shared_ratio", bench_jnum(score[2] / score[0]));
        }
        json_array_append_new(rows, row);
    }
    json_object_set_new(doc, "tests", rows);
    json_object_set_new(doc, "interval_cycles", json_real(interval_cycles));
    json_object_set_new(doc, "interval_ticks", json_real(interval_ticks));

    json_t *latency = json_object();
    for (int p = 0; p < 2; p++) {
        if (lat[p].cycles.empty())
            continue;
        json_t *o = json_object();
        json_object_set_new(o, "to_trap", stats_json(lat[p].cycles));
        json_object_set_new(o, "to_handler", stats_json(lat[p].to_handler));
        json_object_set_new(latency, kPorts[p], o);
        std::vector<double> v = lat[p].cycles, h = lat[p].to_handler;
        bench_stats_t s = bench_summarize(v.data(), v.size());
        bench_stats_t sh = bench_summarize(h.data(), h.size());
        std::printf("interrupt latency, %s port: to the trap's first instruction %.0f-%.0f "
                    "cycles, to the application handler's %.0f-%.0f (%zu interrupts)\n",
                    kPortNames[p], s.min, s.max, sh.min, sh.max, s.n);
    }
    json_object_set_new(doc, "interrupt_latency", latency);

    // Service times: per call, the min and max over every configuration, and the rows.
    json_t *service = json_object();
    json_t *svc_rows = json_array();
    for (int p = 0; p < 2; p++) {
        std::string path = dir + "/rtk_service_" + kPorts[p] + ".bin";
        Run r = run_image(path, 200000000, true, [](Vweft_rv_soc_c8 &) {});
        if (!r.ok)
            return 1;
        std::map<std::string, std::pair<double, double>> span;
        std::istringstream in(r.console);
        std::string line;
        while (std::getline(in, line)) {
            char call[64];
            unsigned th, gap;
            unsigned long lo, hi;
            if (std::sscanf(line.c_str(), "svc %63s threads %u gap %u min %lu max %lu", call, &th,
                            &gap, &lo, &hi) != 5)
                continue;
            auto it = span.find(call);
            if (it == span.end())
                span[call] = {double(lo), double(hi)};
            else
                it->second = {std::min(it->second.first, double(lo)),
                              std::max(it->second.second, double(hi))};
            json_t *row = json_object();
            json_object_set_new(row, "port", json_string(kPorts[p]));
            json_object_set_new(row, "call", json_string(call));
            json_object_set_new(row, "threads", json_integer(th));
            json_object_set_new(row, "gap", json_integer(gap));
            json_object_set_new(row, "min", json_integer(static_cast<json_int_t>(lo)));
            json_object_set_new(row, "max", json_integer(static_cast<json_int_t>(hi)));
            json_array_append_new(svc_rows, row);
        }
        json_t *calls = json_object();
        std::printf("service times, %s port (cycles, min-max over every configuration):\n",
                    kPortNames[p]);
        for (const auto &[call, mm] : span) {
            json_t *o = json_object();
            json_object_set_new(o, "min", json_real(mm.first));
            json_object_set_new(o, "max", json_real(mm.second));
            json_object_set_new(calls, call.c_str(), o);
            std::printf("  %-16s %5.0f - %5.0f\n", call.c_str(), mm.first, mm.second);
        }
        json_object_set_new(service, kPorts[p], calls);
    }
    json_object_set_new(doc, "service", service);
    json_object_set_new(doc, "service_rows", svc_rows);
    json_object_set_new(doc, "contexts", json_integer(8));
    json_t *ref = json_object();
    json_object_set_new(ref, "source",
                        json_string("RT-SHADOWS (Gomes et al.): Thread-Metric "
                                    "speed-ups of 3-4x on the scheduling and "
                                    "interrupt tests"));
    json_object_set_new(doc, "reference", ref);
    if (out && json_dump_file(doc, out, JSON_INDENT(2)) != 0) {
        std::fprintf(stderr, "weft-bench-softcore: cannot write %s\n", out);
        return 1;
    }
    json_decref(doc);
    return 0;
}
