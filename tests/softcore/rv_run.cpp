// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// rv_run: runs a softcore program (a RAM image from weft_rv_program) on weft_rv_soc with
// one context or with eight, prints its console output, and exits with the program's
// code (or 3 when it did not end within the cycle budget, 2 on a bad argument).
//
//   rv_run [--ctx 1|8] [--max-cycles N] [--expect TEXT] [--trace FROM COUNT] IMAGE.bin
//
// --trace prints COUNT records of the core's trace from cycle FROM.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "Vweft_rv_soc_c1.h"
#include "Vweft_rv_soc_c8.h"
#include "rv_soc_host.h"
#include "verilated.h"

namespace
{

// The last records of the core's trace, printed when the program does not end; and,
// with --trace, `count` records from cycle `from`.
struct Tail {
    std::vector<rv::Trace> ring = std::vector<rv::Trace>(32);
    size_t n = 0;
    uint64_t cycle = 0, from = 0, count = 0;
    template <class M> void operator()(M &m)
    {
        rv::Trace t = rv::Trace::decode(m.trace_o);
        cycle++;
        if (t.valid)
            ring[n++ % ring.size()] = t;
        if (t.valid && count && cycle >= from) {
            std::printf("%10llu ctx %u pc %08x insn %08x kind %u\n", (unsigned long long)cycle,
                        t.ctx, t.pc, t.insn, t.kind);
            count--;
        }
    }
    void print() const
    {
        for (size_t i = n > ring.size() ? n - ring.size() : 0; i < n; i++) {
            const rv::Trace &t = ring[i % ring.size()];
            std::fprintf(stderr, "  ctx %u pc %08x insn %08x kind %u cause %u\n", t.ctx, t.pc,
                         t.insn, t.kind, t.cause);
        }
    }
};

template <class M>
int run(const std::vector<uint32_t> &img, uint64_t max, const char *expect, uint64_t from,
        uint64_t count)
{
    rv::SocHost<M> h;
    h.load(img);
    Tail tail;
    tail.from = from;
    tail.count = count;
    rv::RunResult r = h.run(max, [&](M &m) { tail(m); });
    std::fwrite(r.console.data(), 1, r.console.size(), stdout);
    if (!r.exited) {
        std::fprintf(stderr, "rv_run: no exit within %llu cycles; the last instructions:\n",
                     (unsigned long long)max);
        tail.print();
        return 3;
    }
    std::printf("rv_run: exit %u after %llu cycles\n", r.code, (unsigned long long)r.cycles);
    if (expect && r.console.find(expect) == std::string::npos) {
        std::fprintf(stderr, "rv_run: output lacks \"%s\"\n", expect);
        return 1;
    }
    return static_cast<int>(r.code);
}

} // namespace

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    int ctx = 1;
    uint64_t max = 100000000;
    const char *expect = nullptr;
    const char *path = nullptr;
    uint64_t from = 0, count = 0;
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--ctx") && i + 1 < argc)
            ctx = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--max-cycles") && i + 1 < argc)
            max = std::strtoull(argv[++i], nullptr, 0);
        else if (!std::strcmp(argv[i], "--expect") && i + 1 < argc)
            expect = argv[++i];
        else if (!std::strcmp(argv[i], "--trace") && i + 2 < argc) {
            from = std::strtoull(argv[i + 1], nullptr, 0);
            count = std::strtoull(argv[i + 2], nullptr, 0);
            i += 2;
        } else if (argv[i][0] != '-' && !path)
            path = argv[i];
        else {
            std::fprintf(stderr, "usage: rv_run [--ctx 1|8] [--max-cycles N] [--expect TEXT] "
                                 "[--trace FROM COUNT] IMAGE.bin\n");
            return 2;
        }
    }
    if (!path || (ctx != 1 && ctx != 8)) {
        std::fprintf(stderr, "rv_run: an image and --ctx 1 or 8 are needed\n");
        return 2;
    }
    std::string err;
    std::vector<uint32_t> img = rv::read_image(path, 65536, err);
    if (img.empty()) {
        std::fprintf(stderr, "rv_run: %s\n", err.c_str());
        return 2;
    }
    return ctx == 1 ? run<Vweft_rv_soc_c1>(img, max, expect, from, count)
                    : run<Vweft_rv_soc_c8>(img, max, expect, from, count);
}
