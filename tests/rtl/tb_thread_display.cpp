// Self-checking test bench of hwt_display against the C++ static-side model
// (tb_hwlib_slot_model.h). The bench plays the two software threads around the display
// with the protocol's semaphores (docs of the image pipeline, hwt_display.sv):
//   - the filter: per frame f and block b (k = f % nbuf) it takes OUT.ready[k][b],
//     writes random grey lines into OUT buffer k and posts OUT.new[k][b], after a random
//     delay;
//   - the scan-out: on frame_shown it compares the framebuffer with the expected XRGB
//     words of that frame (bit-exact), waits a random time, checks that the display did
//     not touch the framebuffer meanwhile, and posts fb_free.
// Per run it checks the exit value (the number of frames), the final semaphore counts,
// that every MEMIF write lies inside the framebuffer and every read inside the
// configuration block or the grey buffers, that no other memory word changed, boundary
// rule 2 and stream stability. Runs: 320x240 with B = 4, 8, 40, 80 and nbuf 1 and 2 under
// random back-pressure, small and odd frames (one block, one line per block, blocks that
// are an exact number of chunks, the tallest frame, handles ending at 65535); every bad
// configuration field (exit 0xFFFFFFFF, only GET_INIT_DATA and THREAD_EXIT called,
// nothing written); failed OS calls (exit 0xFFFFFFFE). Last, it prints the fabric cycles
// per 320x240 frame with no back-pressure.
#include "Vhwt_display.h"
#include "tb_check.h"
#include "tb_hwlib_slot_model.h"
#include "verilated.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <functional>
#include <memory>
#include <random>
#include <vector>

namespace
{

using Model = tbm::SlotModel<Vhwt_display>;

constexpr uint32_t kMagic = 0x4449534Cu;
constexpr uint32_t kBadConfig = 0xFFFFFFFFu, kOsError = 0xFFFFFFFEu;
constexpr uint32_t kCanary = 0xDEADBEEFu;
constexpr uint32_t kCfgOff = 16; // word offset of the configuration block
constexpr uint32_t kGuard = 64;  // guard words around each buffer

struct Setup {
    uint32_t width = 320, height = 240, blines = 8, nbuf = 2, frames = 3;
    uint32_t new_base = 3; // first handle of OUT.new; the others follow it
    int pct = 60, latency = 20;
    int filter_delay = 50, scanout_delay = 3000; // most cycles each waits
    uint32_t seed = 1;
};

struct Bench {
    Setup s;
    uint32_t nb, nblk, hnew, hready, hfree, hshown;
    uint32_t out_off, fb_off;   // word offsets in the model memory
    uint32_t out_addr, fb_addr; // bus addresses
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<Vhwt_display> top;
    std::unique_ptr<Model> sm;
    std::vector<uint32_t> shadow; // what memory must hold outside the framebuffer
    std::mt19937 rng;

    explicit Bench(const Setup &setup) : s(setup), rng(setup.seed)
    {
        nb = s.height / s.blines;
        nblk = s.nbuf * nb;
        hnew = s.new_base;
        if (hnew + 2 * nblk + 2 <= 65536) { // new, ready, fb_free, frame_shown
            hready = hnew + nblk;
            hfree = hready + nblk;
            hshown = hfree + 1;
        } else { // fb_free, frame_shown, ..., ready, new (ending at 65535)
            hready = hnew - nblk;
            hfree = 0;
            hshown = 1;
        }
        const uint32_t frame_words = s.width * s.height / 4;
        out_off = kCfgOff + 16 + kGuard;
        fb_off = out_off + s.nbuf * frame_words + kGuard;
        ctx = std::make_unique<VerilatedContext>();
        top = std::make_unique<Vhwt_display>(ctx.get());
        sm = std::make_unique<Model>(*top, s.seed);
        sm->pct = s.pct;
        sm->max_latency = s.latency;
        sm->mem.assign(fb_off + 4 * frame_words + kGuard, kCanary);
        out_addr = sm->mem_base + 4 * out_off;
        fb_addr = sm->mem_base + 4 * fb_off;
        sm->res.resize(std::max({hnew + nblk, hready + nblk, hshown + 1}));
        for (uint32_t j = 0; j < nblk; ++j) {
            sm->res.at(hnew + j).type = WEFT_RES_SEM;
            sm->res.at(hready + j).type = WEFT_RES_SEM;
            sm->res.at(hready + j).sem = 1; // each block may be written
        }
        sm->res.at(hfree).type = WEFT_RES_SEM;
        sm->res.at(hfree).sem = 1;
        sm->res.at(hshown).type = WEFT_RES_SEM;
        set_config({kMagic, out_addr, fb_addr, s.width, s.height, s.blines, s.nbuf, s.frames, hnew,
                    hready, hfree, hshown});
        sm->init_data = sm->mem_base + 4 * kCfgOff;
        sm->reset();
    }
    ~Bench() { top->final(); }

    void set_config(const std::vector<uint32_t> &cfg)
    {
        for (size_t i = 0; i < cfg.size(); ++i)
            sm->mem[kCfgOff + i] = cfg[i];
        shadow = sm->mem;
    }

    uint32_t &sem(uint32_t h) { return sm->res.at(h).sem; }
    uint8_t grey_byte(uint32_t off, uint32_t i) const
    {
        return static_cast<uint8_t>(sm->mem[off + i / 4] >> (8 * (i % 4)));
    }

    // Writes block b of frame data `g` into OUT buffer k (memory and shadow).
    void write_block(const std::vector<uint8_t> &g, uint32_t k, uint32_t b)
    {
        const uint32_t first = b * s.blines * s.width, n = s.blines * s.width;
        const uint32_t base = out_off + k * s.width * s.height / 4;
        for (uint32_t i = first; i < first + n; i += 4) {
            const uint32_t w = g[i] | g[i + 1] << 8 | g[i + 2] << 16 | uint32_t(g[i + 3]) << 24;
            sm->mem[base + i / 4] = w;
            shadow[base + i / 4] = w;
        }
    }

    // First framebuffer word that differs from frame `g`, or -1.
    long fb_mismatch(const std::vector<uint8_t> &g) const
    {
        for (uint32_t i = 0; i < s.width * s.height; ++i)
            if (sm->mem[fb_off + i] != g[i] * 0x010101u)
                return i;
        return -1;
    }

    // Runs the whole pipeline; returns the fabric cycles between the last two
    // frame_shown posts (0 with one frame).
    uint64_t run(const char *name)
    {
        std::vector<std::vector<uint8_t>> frames(s.frames);
        for (auto &g : frames) {
            g.resize(s.width * s.height);
            for (auto &p : g)
                p = static_cast<uint8_t>(rng());
        }
        uint32_t fw = 0, bw = 0; // filter: next frame and block to write
        uint32_t fs = 0;         // scan-out: next frame to be shown
        uint64_t filter_at = 0;  // filter may act from this cycle on
        uint64_t free_at = 0;    // scan-out posts fb_free at this cycle
        bool holding = false;    // scan-out holds the framebuffer
        std::vector<uint32_t> snapshot;
        uint64_t shown_at = 0, prev_shown_at = 0;
        const uint64_t frame_words = uint64_t(s.width) * s.height * 5 / 4;
        const uint64_t limit = (frame_words * 100 / s.pct + 50000) * (s.frames + 1) * 2;
        bool ok = sm->run_until(
            [&] {
                if (fw < s.frames && sm->cycle >= filter_at) {
                    const uint32_t k = fw % s.nbuf, j = k * nb + bw;
                    if (sem(hready + j) > 0) {
                        sem(hready + j)--;
                        write_block(frames[fw], k, bw);
                        sem(hnew + j)++;
                        if (++bw == nb) {
                            bw = 0;
                            ++fw;
                        }
                        filter_at = sm->cycle + rng() % (s.filter_delay + 1);
                    }
                }
                if (!holding && sem(hshown) > 0) {
                    sem(hshown)--;
                    const long bad = fb_mismatch(frames.at(fs));
                    CHECK(bad < 0, "%s: frame %u: framebuffer word %ld is 0x%08x, want 0x%08x",
                          name, fs, bad, bad < 0 ? 0 : sm->mem[fb_off + bad],
                          bad < 0 ? 0 : frames[fs][bad] * 0x010101u);
                    snapshot.assign(sm->mem.begin() + fb_off,
                                    sm->mem.begin() + fb_off + s.width * s.height);
                    holding = true;
                    free_at = sm->cycle + rng() % (s.scanout_delay + 1);
                    prev_shown_at = shown_at;
                    shown_at = sm->cycle;
                }
                if (holding && sm->cycle >= free_at) {
                    CHECK(std::equal(snapshot.begin(), snapshot.end(), sm->mem.begin() + fb_off),
                          "%s: frame %u: framebuffer written before fb_free", name, fs);
                    holding = false;
                    ++fs;
                    sem(hfree)++;
                }
                return sm->exited || sm->mem_fault || sm->osif_fault;
            },
            limit);
        CHECK(ok && sm->exited, "%s: no THREAD_EXIT within %" PRIu64 " cycles (%u frames shown)",
              name, limit, fs);
        CHECK(!sm->mem_fault && !sm->osif_fault, "%s: fault (address 0x%08x, info 0x%08x)", name,
              sm->fault_addr, sm->fault_info);
        CHECK(sm->exit_value == s.frames, "%s: exit value 0x%08x, want %u", name, sm->exit_value,
              s.frames);
        CHECK(fs == s.frames || (fs + 1 == s.frames && holding), "%s: %u frames shown, want %u",
              name, fs + (holding ? 1 : 0), s.frames);
        // Final semaphores: every block handed back, nothing new left, the last frame shown.
        for (uint32_t j = 0; j < nblk; ++j) {
            CHECK(sem(hnew + j) == 0, "%s: OUT.new block %u left at %u", name, j, sem(hnew + j));
            CHECK(sem(hready + j) == 1, "%s: OUT.ready block %u at %u, want 1", name, j,
                  sem(hready + j));
        }
        // Memory: the framebuffer holds the last frame; nothing else changed.
        if (!frames.empty())
            CHECK(fb_mismatch(frames.back()) < 0, "%s: framebuffer is not the last frame", name);
        size_t stray = 0;
        for (uint32_t i = 0; i < sm->mem.size(); ++i)
            if ((i < fb_off || i >= fb_off + s.width * s.height) && sm->mem[i] != shadow[i])
                ++stray;
        CHECK(stray == 0, "%s: %zu words outside the framebuffer changed", name, stray);
        const uint64_t fb_lo = fb_addr, fb_hi = fb_addr + 4ull * s.width * s.height;
        const uint64_t out_lo = out_addr, out_hi = out_addr + 1ull * s.nbuf * s.width * s.height;
        const uint64_t cfg_lo = sm->mem_base + 4 * kCfgOff, cfg_hi = cfg_lo + 48;
        for (const auto &a : sm->memif_log) {
            const uint64_t lo = a.addr, hi = uint64_t(a.addr) + a.len;
            if (a.write)
                CHECK(lo >= fb_lo && hi <= fb_hi,
                      "%s: write of %u bytes at 0x%08x outside the "
                      "framebuffer",
                      name, a.len, a.addr);
            else
                CHECK((lo >= out_lo && hi <= out_hi) || (lo == cfg_lo && hi == cfg_hi),
                      "%s: read of %u bytes at 0x%08x outside the grey buffers", name, a.len,
                      a.addr);
        }
        CHECK(sm->rule2_violations == 0, "%s: slot_o.osif.in_ready high while not waiting", name);
        CHECK(sm->stability_violations == 0, "%s: valid withdrawn or data changed", name);
        return s.frames > 1 ? shown_at - prev_shown_at : 0;
    }
};

void pipeline(const char *name, Setup s)
{
    Bench(s).run(name);
}

// A bad configuration: exit 0xFFFFFFFF, no OS call but GET_INIT_DATA and THREAD_EXIT,
// at most the configuration read on the MEMIF, memory unchanged. `field` 12 is the init
// data (the configuration address); with `relative` the value is added to the word.
void bad_config(const char *name, unsigned field, uint32_t value, bool relative = false)
{
    Setup s;
    s.width = 8;
    s.height = 4;
    s.blines = 2;
    s.nbuf = 2;
    s.frames = 2;
    s.pct = 70;
    s.seed = field * 31 + value;
    Bench b(s);
    uint32_t &word = field < 12 ? b.sm->mem[kCfgOff + field] : b.sm->init_data;
    word = relative ? word + value : value;
    b.shadow = b.sm->mem;
    CHECK(b.sm->run_until([&] { return b.sm->exited || b.sm->mem_fault; }, 200000), "%s: no exit",
          name);
    CHECK(!b.sm->mem_fault, "%s: memory fault at 0x%08x", name, b.sm->fault_addr);
    CHECK(b.sm->exit_value == kBadConfig, "%s: exit value 0x%08x, want 0x%08x", name,
          b.sm->exit_value, kBadConfig);
    CHECK(b.sm->memif_wr_words == 0 && b.sm->mem == b.shadow, "%s: memory written", name);
    CHECK(b.sm->memif_cmds == (field < 12 ? 1u : 0u), "%s: %" PRIu64 " MEMIF commands", name,
          b.sm->memif_cmds);
    const std::vector<uint32_t> want = {tbm::req_hdr(WEFT_OSIF_CMD_GET_INIT_DATA, 0, 0),
                                        tbm::req_hdr(WEFT_OSIF_CMD_THREAD_EXIT, 0, 1), kBadConfig};
    CHECK(b.sm->osif_log == want, "%s: %zu request words, want GET_INIT_DATA and THREAD_EXIT", name,
          b.sm->osif_log.size());
}

// An OS call that fails: exit 0xFFFFFFFE. `spoil` breaks one resource of the small
// setup (new 3..4, ready 5..6, fb_free 7, frame_shown 8); both blocks are new already.
void os_error(const char *name, const std::function<void(Bench &)> &spoil)
{
    Setup s;
    s.width = 8;
    s.height = 4;
    s.blines = 2;
    s.nbuf = 1;
    s.frames = 1;
    Bench b(s);
    b.sem(b.hnew) = 1;
    b.sem(b.hnew + 1) = 1;
    spoil(b);
    CHECK(b.sm->run_until([&] { return b.sm->exited; }, 200000), "%s: no exit", name);
    CHECK(b.sm->exit_value == kOsError, "%s: exit value 0x%08x, want 0x%08x", name,
          b.sm->exit_value, kOsError);
    CHECK(!b.sm->mem_fault, "%s: memory fault", name);
}

void test_bad_configs()
{
    bad_config("magic", 0, kMagic ^ 1);
    bad_config("OUT address unaligned", 1, 2, true);
    bad_config("OUT buffers past 2^32", 1, 0xFFFFFFE0u); // 2 x 32 bytes
    bad_config("framebuffer unaligned", 2, 1, true);
    bad_config("framebuffer past 2^32", 2, 0xFFFFFF84u); // 128 bytes
    bad_config("width 0", 3, 0);
    bad_config("width not a multiple of 4", 3, 6);
    bad_config("width above MaxWidth", 3, 324);
    bad_config("width high bits", 3, 0x80000008u);
    bad_config("height 0", 4, 0);
    bad_config("height not a multiple of B", 4, 5);
    bad_config("height above MaxHeight", 4, 4098);
    bad_config("height high bits", 4, 0x80000004u);
    bad_config("B 0", 5, 0);
    bad_config("B above height", 5, 8);
    bad_config("B not dividing height", 5, 3);
    bad_config("B high bits", 5, 0x80000002u);
    bad_config("nbuf 0", 6, 0);
    bad_config("nbuf 3", 6, 3);
    bad_config("nbuf high bits", 6, 0x80000002u);
    bad_config("frames 0", 7, 0);
    bad_config("new handle 65536", 8, 65536);
    bad_config("new handles past 65535", 8, 65533); // 2 x 2 blocks: 65533..65536
    bad_config("ready handle 65536", 9, 65536);
    bad_config("ready handles past 65535", 9, 65533);
    bad_config("fb_free handle 65536", 10, 65536);
    bad_config("frame_shown handle past 65535", 11, 0x10000u);
    bad_config("new handle high bits", 8, 0x80000000u);
    bad_config("configuration address unaligned", 12, 2, true);
    bad_config("configuration block past 2^32", 12, 0xFFFFFFD4u); // 48 bytes from here wrap
}

void test_os_errors()
{
    os_error("fb_free is a mailbox", [](Bench &b) { b.sm->res[b.hfree].type = WEFT_RES_MBOX; });
    os_error("OUT.new[0][1] is a mutex",
             [](Bench &b) { b.sm->res[b.hnew + 1].type = WEFT_RES_MUTEX; });
    os_error("OUT.ready[0][0] is a mailbox",
             [](Bench &b) { b.sm->res[b.hready].type = WEFT_RES_MBOX; });
    os_error("frame_shown past the resource array", [](Bench &b) { b.sm->res.resize(b.hshown); });
}

void test_pipelines()
{
    uint32_t seed = 1;
    for (uint32_t bl : {4u, 8u, 40u, 80u}) {
        for (uint32_t nbuf : {1u, 2u}) {
            Setup s;
            s.blines = bl;
            s.nbuf = nbuf;
            s.frames = nbuf + 1;
            s.seed = seed++;
            s.pct = 50 + static_cast<int>(seed * 7 % 40);
            char name[64];
            std::snprintf(name, sizeof name, "320x240 B=%u nbuf=%u", bl, nbuf);
            pipeline(name, s);
        }
    }
    struct Small {
        uint32_t w, h, bl, nbuf, frames;
        int pct;
    };
    const Small smalls[] = {
        {4, 1, 1, 1, 4, 30},      // one pixel word per frame
        {8, 4, 1, 2, 5, 60},      // one line per block
        {8, 4, 4, 2, 5, 100},     // one block per frame
        {12, 6, 3, 1, 5, 45},     // width not a power of two
        {36, 10, 5, 2, 6, 80},    //
        {256, 16, 8, 2, 3, 70},   // a block is exactly one chunk
        {256, 16, 16, 1, 3, 70},  // a block is exactly two chunks
        {320, 20, 20, 2, 3, 55},  // 3.125 chunks per block
        {4, 4096, 128, 1, 1, 90}, // the tallest frame
    };
    for (const Small &m : smalls) {
        Setup s;
        s.width = m.w;
        s.height = m.h;
        s.blines = m.bl;
        s.nbuf = m.nbuf;
        s.frames = m.frames;
        s.pct = m.pct;
        s.latency = 5 + static_cast<int>(seed % 30);
        s.filter_delay = 300;
        s.scanout_delay = 500;
        s.seed = seed++;
        char name[64];
        std::snprintf(name, sizeof name, "%ux%u B=%u nbuf=%u", m.w, m.h, m.bl, m.nbuf);
        pipeline(name, s);
    }
    // Block handles ending exactly at 65535.
    Setup s;
    s.width = 8;
    s.height = 4;
    s.blines = 1;
    s.nbuf = 2;
    s.frames = 4;
    s.new_base = 65528;
    s.seed = seed++;
    pipeline("8x4 B=1 nbuf=2, handles up to 65535", s);
}

void bench_cycles()
{
    std::printf("hwt_display fabric cycles per 320x240 frame (no back-pressure, OSIF answer "
                "latency 0; 19,200 words read + 76,800 written):\n");
    std::printf("  %4s  %5s  %10s  %14s\n", "B", "nbuf", "cycles", "bytes/cycle");
    for (uint32_t bl : {4u, 8u, 40u, 80u}) {
        for (uint32_t nbuf : {1u, 2u}) {
            Setup s;
            s.blines = bl;
            s.nbuf = nbuf;
            s.frames = 3;
            s.pct = 100;
            s.latency = 0;
            s.filter_delay = 0;
            s.scanout_delay = 0;
            s.seed = bl + nbuf;
            const uint64_t c = Bench(s).run("cycles");
            std::printf("  %4u  %5u  %10" PRIu64 "  %14.2f\n", bl, nbuf, c,
                        c ? 320.0 * 240 * 5 / c : 0.0);
        }
    }
}

} // namespace

int main()
{
    test_bad_configs();
    test_os_errors();
    test_pipelines();
    bench_cycles();
    if (weft_tb::failures) {
        std::fprintf(stderr, "tb_thread_display: %d failure(s)\n", weft_tb::failures);
        return 1;
    }
    std::printf("tb_thread_display: PASS\n");
    return 0;
}
