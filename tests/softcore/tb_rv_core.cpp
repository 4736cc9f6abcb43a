// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// tb_rv_core: the softcore (weft_rv_cpu) in lock step with the ISS (rv_bench.h).
//
//   tb_rv_core random SEEDS     random instruction streams in every context, with random
//                               interrupts, scheduler switches and MMIO wait states, on
//                               one context and on four; the RAM must match at the end
//   tb_rv_core isa FILE.bin...  the ISA test programs (tests/softcore/isa): each must
//                               write 1 to TOHOST, on one context and on four
//   tb_rv_core dump NCTX SEED F the random program of a seed as a flat image (to read a
//                               failure with objdump -b binary -m riscv:rv32)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "Vweft_rv_cpu_c1.h"
#include "Vweft_rv_cpu_c4.h"
#include "rv_bench.h"
#include "rv_randprog.h"

namespace
{

constexpr uint32_t kMem = 65536;
constexpr uint32_t kHandler = 0x100, kSegments = 0x200, kData = 0x8000;

// The random program: a boot that sends each context to its segment (by mhartid), a trap
// handler that skips an exception's instruction and clears the interrupt lines, and per
// context a prologue (trap vector, every register, in context 0 the interrupt enables and
// follow mode), a random stream, and a loop that hands the core to the scheduler.
std::vector<uint32_t> random_program(int nctx, uint64_t seed, bool follow)
{
    using namespace rv;
    std::vector<uint32_t> img(kSegments / 4, 0);
    std::vector<uint32_t> boot = {csrrs(31, 0xF14, 0), i_type(2, 31, 1, 31, 0x13), lw(31, 31, 0x40),
                                  jalr(0, 31, 0)};
    std::copy(boot.begin(), boot.end(), img.begin());
    std::vector<uint32_t> handler = {csrrs(31, 0x342, 0),
                                     b_type(20, 0, 31, 4), // blt x31, x0, irq
                                     csrrs(31, 0x341, 0),
                                     addi(31, 31, 4),
                                     csrrw(0, 0x341, 31),
                                     kMret,
                                     lui(30, 0x80000), // irq: clear every line
                                     addi(31, 0, 7),
                                     sw(31, 30, 12),
                                     kMret};
    std::copy(handler.begin(), handler.end(), img.begin() + kHandler / 4);
    uint32_t seg_bytes = ((kData - kSegments) / static_cast<uint32_t>(nctx)) & ~3u;
    for (int c = 0; c < nctx; c++) {
        uint32_t base = kSegments + seg_bytes * static_cast<uint32_t>(c);
        img[0x40 / 4 + static_cast<uint32_t>(c)] = base;
        StreamOptions o;
        o.kernel_ctx = c == 0;
        o.nctx = nctx;
        StreamGen g(seed * 131 + static_cast<uint64_t>(c), o);
        std::vector<uint32_t> seg;
        li(seg, 31, kHandler);
        seg.push_back(csrrw(0, 0x305, 31));
        if (c == 0) {
            li(seg, 31, 0x888u & static_cast<uint32_t>(g.value() | 0x800));
            seg.push_back(csrrw(0, 0x304, 31));
            seg.push_back(addi(31, 0, follow ? 1 : 0));
            seg.push_back(csrrw(0, 0x7C1, 31));
            seg.push_back(csr_op(0x300, 8, 6, 0)); // csrsi mstatus, MIE
        }
        for (uint32_t r = 1; r < 32; r++)
            if (r != 29)
                li(seg, r, g.value());
        li(seg, 29, kData + 0x1000 * static_cast<uint32_t>(c) + 0x800);
        int room = static_cast<int>(seg_bytes / 4) - static_cast<int>(seg.size()) - 8;
        g.body(seg, room / 2);
        seg.push_back(addi(30, 0, -1)); // end: run the scheduler's choice, again and again
        seg.push_back(csrrw(0, 0x7C0, 30));
        seg.push_back(j_type(-8, 0));
        CHECK(seg.size() <= seg_bytes / 4, "the random stream overflows its segment");
        img.resize(base / 4, 0);
        img.insert(img.end(), seg.begin(), seg.end());
    }
    return img;
}

template <class M> bool random_run(int nctx, uint64_t seed)
{
    rv::BenchOptions o;
    o.seed = seed;
    o.irq_rate = 30;
    o.sched_rate = 20;
    o.mmio_wait = 3;
    bool follow = seed % 3 != 0;
    rv::Bench<M> b(nctx, kMem, o);
    std::vector<uint32_t> img = random_program(nctx, seed, follow);
    b.load(0, img);
    b.start();
    bool ok = b.run(60000, [] { return false; });
    if (ok) {
        std::vector<uint8_t> ram = b.ram();
        size_t diff = 0;
        for (uint32_t i = 0; i < kMem; i++)
            if (ram[i] != b.iss().mem()[i])
                diff++;
        CHECK(diff == 0, "seed %llu: %zu RAM bytes differ from the model", (unsigned long long)seed,
              diff);
        ok = diff == 0;
    }
    const uint64_t *k = b.kinds(), *pc = b.per_ctx();
    std::printf("random %d ctx seed %llu (follow %d): %llu cycles: %llu retired (per context", nctx,
                (unsigned long long)seed, follow, (unsigned long long)b.cycles(),
                (unsigned long long)k[0]);
    for (int c = 0; c < nctx; c++)
        std::printf(" %llu", (unsigned long long)pc[c]);
    std::printf(") at");
    for (int c = 0; c < nctx; c++)
        std::printf(" %x", b.iss().ctx(c).pc);
    std::printf(", %llu traps, %llu interrupts, %llu switches: %s\n", (unsigned long long)k[1],
                (unsigned long long)k[2], (unsigned long long)k[3], ok ? "ok" : "FAILED");
    return ok;
}

template <class M> bool isa_run(int nctx, const char *path)
{
    std::string err;
    std::vector<uint32_t> img = rv::read_image(path, kMem, err);
    if (img.empty()) {
        std::fprintf(stderr, "%s\n", err.c_str());
        weft_tb::failures++;
        return false;
    }
    rv::BenchOptions o;
    o.mmio_wait = 2;
    rv::Bench<M> b(nctx, kMem, o);
    b.load(0, img);
    b.start();
    bool ok = b.run(2000000, [&] { return b.device().tohost_written; });
    uint32_t result = b.device().tohost;
    CHECK(b.device().tohost_written, "%s (%d ctx): no result after %llu cycles", path, nctx,
          (unsigned long long)b.cycles());
    CHECK(!b.device().tohost_written || result == 1, "%s (%d ctx): test %u failed", path, nctx,
          result >> 1);
    if (!b.device().console.empty())
        std::printf("%s", b.device().console.c_str());
    std::printf("%s on %d ctx: %s in %llu cycles\n", path, nctx,
                ok && result == 1 ? "passed" : "FAILED", (unsigned long long)b.cycles());
    return ok && result == 1;
}

} // namespace

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    if (argc >= 3 && std::strcmp(argv[1], "random") == 0) {
        int seeds = std::atoi(argv[2]);
        uint64_t first = argc >= 4 ? std::strtoull(argv[3], nullptr, 0) : 1;
        for (uint64_t s = first; s < first + static_cast<uint64_t>(seeds); s++) {
            random_run<Vweft_rv_cpu_c1>(1, s);
            random_run<Vweft_rv_cpu_c4>(4, s);
        }
    } else if (argc == 5 && std::strcmp(argv[1], "dump") == 0) {
        // The random program of a seed, as a flat image (for objdump -b binary).
        std::vector<uint32_t> img =
            random_program(std::atoi(argv[2]), std::strtoull(argv[3], nullptr, 0), true);
        std::ofstream(argv[4], std::ios::binary)
            .write(reinterpret_cast<const char *>(img.data()),
                   static_cast<std::streamsize>(4 * img.size()));
    } else if (argc >= 3 && std::strcmp(argv[1], "isa") == 0) {
        for (int i = 2; i < argc; i++) {
            isa_run<Vweft_rv_cpu_c1>(1, argv[i]);
            isa_run<Vweft_rv_cpu_c4>(4, argv[i]);
        }
    } else {
        std::fprintf(
            stderr,
            "usage: tb_rv_core random SEEDS [FIRST] | isa FILE.bin... | dump NCTX SEED FILE\n");
        return 2;
    }
    return weft_tb::failures == 0 ? 0 : 1;
}
