// Self-checking test bench of hwt_laplace against the C++ static-side model
// (tb_hwlib_slot_model.h). The bench plays the capture and display threads of the image
// pipeline with the per-block semaphores of the case study: capture fills an IN block
// only after taking its ready semaphore (poisoning it first, then writing the frame after
// a random delay) and posts its new semaphore; display takes an OUT block's new
// semaphore, compares the block bit-exactly with a plain C++ Laplacian, poisons it and
// posts its ready semaphore. Every MEMIF command of the thread is checked when the model
// accepts it: reads only inside the configuration block or IN blocks the thread holds
// (new taken, ready not yet posted), writes only inside OUT blocks it holds; each input
// line is read once per frame. Covers w = 3 and 5, nbuf 1 and 2, block sizes from r to
// the whole frame, random back-pressure and OSIF latency, random and extreme images
// (all 0, all 255, checkerboard: saturation), every bad configuration field
// (0xFFFFFFFF, no memory written) and a failing OS call (0xFFFFFFFE); prints the fabric
// cycles per 320x240 frame.
#include "Vhwt_laplace.h"
#include "tb_check.h"
#include "tb_hwlib_slot_model.h"
#include "verilated.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <random>
#include <vector>

namespace
{

constexpr uint32_t kMaxWidth = 320; // hwt_laplace's default MaxWidth
constexpr uint32_t kMagic = 0x4C41504Cu;
constexpr uint32_t kBadConfig = 0xFFFFFFFFu, kOsError = 0xFFFFFFFEu;
constexpr uint32_t kCfgWords = 13;

enum class Kind { Random, Low, Zero, Full, Checker };

struct Params {
    uint32_t width, height, blines, w, nbuf, frames;
    int pct = 100;      // model: chance of each ready/valid (back-pressure)
    int latency = 0;    // model: most cycles of OSIF answer latency
    int cap_delay = 0;  // most cycles capture waits between taking ready and posting new
    int disp_delay = 0; // most cycles display holds a block before posting its ready
    std::vector<Kind> kinds = {Kind::Random};
    uint32_t seed = 1;
    bool top_handles = false; // OUT.ready's range ends at handle 65535
};

/// The reference: out = min(255, |w*w*p - window sum|), 0 within r of an edge.
std::vector<uint8_t> laplace_ref(const std::vector<uint8_t> &in, uint32_t width, uint32_t height,
                                 uint32_t w)
{
    const int r = static_cast<int>(w / 2);
    const int wd = static_cast<int>(width), ht = static_cast<int>(height);
    std::vector<uint8_t> out(in.size(), 0);
    for (int y = r; y < ht - r; ++y) {
        for (int x = r; x < wd - r; ++x) {
            int sum = 0;
            for (int dy = -r; dy <= r; ++dy)
                for (int dx = -r; dx <= r; ++dx)
                    sum += in[(y + dy) * wd + x + dx];
            const int s = static_cast<int>(w * w) * in[y * wd + x] - sum;
            out[y * wd + x] = static_cast<uint8_t>(std::min(255, std::abs(s)));
        }
    }
    return out;
}

std::vector<uint8_t> make_frame(Kind kind, uint32_t width, uint32_t height, std::mt19937 &rng)
{
    std::vector<uint8_t> f(width * height);
    for (uint32_t y = 0; y < height; ++y) {
        for (uint32_t x = 0; x < width; ++x) {
            uint8_t p = 0;
            switch (kind) {
            case Kind::Random:
                p = static_cast<uint8_t>(rng());
                break;
            case Kind::Low: // smooth ramp plus small noise: results mostly below 255
                p = static_cast<uint8_t>(x / 2 + y + rng() % 24);
                break;
            case Kind::Zero:
                p = 0;
                break;
            case Kind::Full:
                p = 255;
                break;
            case Kind::Checker:
                p = ((x + y) & 1) ? 255 : 0;
                break;
            }
            f[y * width + x] = p;
        }
    }
    return f;
}

class Pipeline
{
  public:
    Params p;
    uint32_t nb;
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<Vhwt_laplace> top;
    std::unique_ptr<tbm::SlotModel<Vhwt_laplace>> sm;

    // Bus addresses of the configuration block and the stages.
    uint32_t cfg_addr, in_addr, out_addr, frame_bytes;
    // Handle bases (resource array indices) of IN.new, IN.ready, OUT.new, OUT.ready.
    uint32_t h_in_new, h_in_ready, h_out_new, h_out_ready;
    std::vector<uint32_t> cfg; // the configuration block as written

    std::vector<std::vector<uint8_t>> frames_in, frames_out; // per frame: input, reference
    std::vector<uint64_t> frame_done;                        // display got frame f's last block
    uint64_t mismatches = 0;
    uint64_t protocol_errors = 0;
    uint64_t read_bytes = 0, write_bytes = 0;

    explicit Pipeline(const Params &prm) : p(prm)
    {
        nb = p.blines ? p.height / p.blines : 1;
        ctx = std::make_unique<VerilatedContext>();
        top = std::make_unique<Vhwt_laplace>(ctx.get());
        sm = std::make_unique<tbm::SlotModel<Vhwt_laplace>>(*top, p.seed);
        sm->pct = p.pct;
        sm->max_latency = p.latency;
        rng_.seed(p.seed * 7919u + 3);

        // Memory: guard, configuration (16 words), guard, IN (nbuf frames), guard, OUT,
        // guard. Every guard word is filled with a pattern that must survive.
        frame_bytes = p.width * p.height;
        const uint32_t buf_words = (p.nbuf ? p.nbuf : 1) * ((frame_bytes + 3) / 4);
        const uint32_t cfg_off = 8, in_off = 32, out_off = in_off + buf_words + 16;
        sm->mem.assign(out_off + buf_words + 16, 0);
        for (size_t i = 0; i < sm->mem.size(); ++i)
            sm->mem[i] = 0xC0DE0000u ^ static_cast<uint32_t>(i * 2654435761u);
        cfg_addr = sm->mem_base + 4 * cfg_off;
        in_addr = sm->mem_base + 4 * in_off;
        out_addr = sm->mem_base + 4 * out_off;

        // Resources: handle 0 is a mutex (the OS-error test points a base at it), then the
        // four semaphore ranges of nbuf*NB each.
        const uint32_t per = std::max(1u, p.nbuf * nb);
        h_in_new = 1;
        h_in_ready = h_in_new + per;
        h_out_new = h_in_ready + per;
        h_out_ready = p.top_handles ? 65536 - per : h_out_new + per;
        const uint32_t nres = std::min(65536u, h_out_ready + per);
        sm->res.resize(nres);
        sm->res[0].type = WEFT_RES_MUTEX;
        for (uint32_t h = 1; h < nres; ++h) {
            sm->res[h].type = WEFT_RES_SEM;
            sm->res[h].sem = initial(h);
        }
        seen_.resize(nres);
        for (uint32_t h = 0; h < nres; ++h)
            seen_[h] = sm->res[h].sem;
        held_in_.assign(per, false);
        held_out_.assign(per, false);
        line_reads_.assign(p.nbuf ? p.nbuf * p.height : 0, 0);

        cfg = {kMagic, in_addr,  out_addr, p.width,    p.height,  p.blines,   p.w,
               p.nbuf, p.frames, h_in_new, h_in_ready, h_out_new, h_out_ready};
        write_cfg();
        sm->init_data = cfg_addr;

        for (uint32_t f = 0; f < p.frames && f < 64; ++f) {
            const Kind kind = p.kinds[f % p.kinds.size()];
            frames_in.push_back(make_frame(kind, p.width, p.height, rng_));
            frames_out.push_back(laplace_ref(frames_in.back(), p.width, p.height, p.w));
        }
        shadow_ = sm->mem;
        sm->reset();
    }
    ~Pipeline() { top->final(); }

    // Initial value of semaphore h: every ready semaphore 1, everything else 0.
    uint32_t initial(uint32_t h) const
    {
        const uint32_t per = p.nbuf * nb;
        return (h >= h_in_ready && h < h_in_ready + per) ||
                       (h >= h_out_ready && h < h_out_ready + per)
                   ? 1
                   : 0;
    }

    void write_cfg()
    {
        for (uint32_t i = 0; i < kCfgWords; ++i)
            sm->word(cfg_addr + 4 * i) = cfg[i];
    }
    // The configuration was changed after construction (bad-configuration tests).
    void config_changed()
    {
        write_cfg();
        shadow_ = sm->mem;
    }

    /// Runs until the thread exits and display has seen every frame, or `max_cycles`.
    bool run(uint64_t max_cycles)
    {
        for (uint64_t i = 0; i < max_cycles; ++i) {
            if (sm->exited && disp_f_ >= frames_in.size())
                return true;
            if (sm->mem_fault || sm->osif_fault)
                return false;
            sm->step();
            observe();
            capture();
            display();
        }
        return false;
    }

    /// Checks after a successful run.
    void check_end(const char *name)
    {
        CHECK(sm->exited && sm->exit_value == p.frames, "%s: exit value 0x%08x, want %u", name,
              sm->exit_value, p.frames);
        CHECK(disp_f_ == frames_in.size(), "%s: display saw %u of %zu frames", name, disp_f_,
              frames_in.size());
        CHECK(mismatches == 0, "%s: %" PRIu64 " output pixels differ from the reference", name,
              mismatches);
        CHECK(protocol_errors == 0, "%s: %" PRIu64 " semaphore-protocol violations", name,
              protocol_errors);
        CHECK(!sm->mem_fault && !sm->osif_fault && !sm->overflow_fault,
              "%s: fault (mem %d osif %d), address 0x%08x", name, sm->mem_fault, sm->osif_fault,
              sm->fault_addr);
        CHECK(sm->rule2_violations == 0, "%s: slot_o.osif.in_ready high while not waiting", name);
        CHECK(sm->stability_violations == 0, "%s: valid withdrawn or data changed before ready",
              name);
        const uint64_t fb = static_cast<uint64_t>(p.frames) * frame_bytes;
        CHECK(read_bytes == 4 * kCfgWords + fb, "%s: read %" PRIu64 " bytes, want %" PRIu64, name,
              read_bytes, 4 * kCfgWords + fb);
        CHECK(write_bytes == fb, "%s: wrote %" PRIu64 " bytes, want %" PRIu64, name, write_bytes,
              fb);
        // Every semaphore back in its initial state, nothing held.
        for (uint32_t h = 1; h < sm->res.size(); ++h) {
            const uint32_t want = initial(h);
            CHECK(sm->res[h].sem == want, "%s: semaphore %u is %u at the end, want %u", name, h,
                  sm->res[h].sem, want);
        }
        // No byte outside OUT changed: memory equals the shadow except inside OUT.
        uint64_t changed = 0;
        for (size_t i = 0; i < sm->mem.size(); ++i) {
            const uint32_t a = sm->mem_base + 4 * static_cast<uint32_t>(i);
            if (a >= out_addr && a < out_addr + p.nbuf * frame_bytes)
                continue;
            changed += sm->mem[i] != shadow_[i];
        }
        CHECK(changed == 0, "%s: %" PRIu64 " words outside OUT changed", name, changed);
    }

  private:
    std::mt19937 rng_;
    std::vector<uint32_t> shadow_;     // memory as the bench wrote it (OUT excepted)
    std::vector<uint32_t> seen_;       // semaphore values after the bench's last look
    std::vector<bool> held_in_;        // the thread holds IN block j (new taken, ready not posted)
    std::vector<bool> held_out_;       // the thread holds OUT block j (ready taken, new not posted)
    std::vector<uint32_t> line_reads_; // reads of IN line (k, y) in the current frame of k
    size_t logged_ = 0;
    uint32_t cap_f_ = 0, cap_b_ = 0, disp_f_ = 0, disp_b_ = 0;
    bool cap_taken_ = false, disp_taken_ = false;
    uint64_t cap_at_ = 0, disp_at_ = 0;

    uint32_t rand_upto(int n) { return n > 0 ? rng_() % static_cast<uint32_t>(n + 1) : 0; }

    uint8_t get_byte(uint32_t a) { return static_cast<uint8_t>(sm->word(a & ~3u) >> 8 * (a & 3)); }
    void set_byte(uint32_t a, uint8_t v, bool shadow)
    {
        uint32_t &w = sm->word(a & ~3u);
        w = (w & ~(0xFFu << 8 * (a & 3))) | static_cast<uint32_t>(v) << 8 * (a & 3);
        if (shadow)
            shadow_[(a - sm->mem_base) / 4] = w;
    }

    void sem_take(uint32_t h)
    {
        sm->res[h].sem--;
        seen_[h]--;
    }
    void sem_post(uint32_t h)
    {
        sm->res[h].sem++;
        seen_[h]++;
    }

    // Semaphore moves made by the thread since the last look: a wait served (acquire)
    // or a post (release); then the MEMIF commands it issued in between.
    void observe()
    {
        const uint32_t per = p.nbuf * nb;
        for (uint32_t j = 0; j < per; ++j) {
            if (sm->res[h_in_new + j].sem < seen_[h_in_new + j]) {
                if (held_in_[j])
                    proto_error("IN.new[%u] taken while the thread holds the block", j);
                held_in_[j] = true;
                const uint32_t k = j / nb, b = j % nb;
                for (uint32_t y = b * p.blines; y < (b + 1) * p.blines; ++y)
                    line_reads_[k * p.height + y] = 0;
            }
            if (sm->res[h_out_ready + j].sem < seen_[h_out_ready + j]) {
                if (held_out_[j])
                    proto_error("OUT.ready[%u] taken while the thread holds the block", j);
                held_out_[j] = true;
            }
            if (sm->res[h_in_new + j].sem > seen_[h_in_new + j] ||
                sm->res[h_out_ready + j].sem > seen_[h_out_ready + j] ||
                sm->res[h_in_ready + j].sem < seen_[h_in_ready + j] ||
                sm->res[h_out_new + j].sem < seen_[h_out_new + j])
                proto_error("block %u: the thread posted a semaphore it must wait or waited one "
                            "it must post",
                            j);
        }
        for (; logged_ < sm->memif_log.size(); ++logged_)
            check_access(sm->memif_log[logged_]);
        for (uint32_t j = 0; j < per; ++j) {
            if (sm->res[h_in_ready + j].sem > seen_[h_in_ready + j]) {
                if (!held_in_[j])
                    proto_error("IN.ready[%u] posted for a block the thread does not hold", j);
                const uint32_t k = j / nb, b = j % nb;
                for (uint32_t y = b * p.blines; y < (b + 1) * p.blines; ++y)
                    if (line_reads_[k * p.height + y] != 1)
                        proto_error("IN line %u of buffer %u read %u times before its block was "
                                    "released",
                                    y, k, line_reads_[k * p.height + y]);
                held_in_[j] = false;
            }
            if (sm->res[h_out_new + j].sem > seen_[h_out_new + j]) {
                if (!held_out_[j])
                    proto_error("OUT.new[%u] posted for a block the thread does not hold", j);
                held_out_[j] = false;
            }
        }
        for (size_t h = 0; h < seen_.size(); ++h)
            seen_[h] = sm->res[h].sem;
    }

    template <class... A> void proto_error(const char *fmt, A... args)
    {
        if (protocol_errors++ < 10) {
            std::fprintf(stderr, "  cycle %" PRIu64 ": ", sm->cycle);
            std::fprintf(stderr, fmt, args...);
            std::fprintf(stderr, "\n");
        }
    }

    void check_access(const tbm::SlotModel<Vhwt_laplace>::MemAccess &m)
    {
        const uint64_t a = m.addr, end = a + m.len;
        const uint64_t buf = static_cast<uint64_t>(p.nbuf) * frame_bytes;
        if (m.write) {
            write_bytes += m.len;
            if (a < out_addr || end > out_addr + buf) {
                proto_error("write of %u bytes at 0x%08x outside OUT", m.len, m.addr);
                return;
            }
            for (uint64_t x = a; x < end; x += p.width) {
                const uint32_t off = static_cast<uint32_t>(x - out_addr);
                const uint32_t k = off / frame_bytes, y = off % frame_bytes / p.width;
                if (!held_out_[k * nb + y / p.blines])
                    proto_error("write of OUT line %u of buffer %u while its block is not held", y,
                                k);
            }
            return;
        }
        read_bytes += m.len;
        if (a >= cfg_addr && end <= cfg_addr + 4 * kCfgWords)
            return;
        if (a < in_addr || end > in_addr + buf) {
            proto_error("read of %u bytes at 0x%08x outside IN and the configuration", m.len,
                        m.addr);
            return;
        }
        for (uint64_t x = a - (a - in_addr) % p.width; x < end; x += p.width) {
            const uint32_t off = static_cast<uint32_t>(x - in_addr);
            const uint32_t k = off / frame_bytes, y = off % frame_bytes / p.width;
            if (!held_in_[k * nb + y / p.blines])
                proto_error("read of IN line %u of buffer %u while its block is not held", y, k);
            line_reads_[k * p.height + y]++;
        }
    }

    // Capture: per frame and block, take IN.ready, poison the block, wait, write the
    // frame's lines, post IN.new.
    void capture()
    {
        if (cap_f_ >= frames_in.size())
            return;
        const uint32_t k = cap_f_ % p.nbuf, j = k * nb + cap_b_;
        const uint32_t base = in_addr + k * frame_bytes + cap_b_ * p.blines * p.width;
        const uint32_t bytes = p.blines * p.width;
        if (!cap_taken_) {
            if (sm->res[h_in_ready + j].sem == 0)
                return;
            sem_take(h_in_ready + j);
            const uint8_t poison = static_cast<uint8_t>(rng_() | 1);
            for (uint32_t i = 0; i < bytes; ++i)
                set_byte(base + i, static_cast<uint8_t>(poison + i * 37), true);
            cap_taken_ = true;
            cap_at_ = sm->cycle + rand_upto(p.cap_delay);
        }
        if (sm->cycle < cap_at_)
            return;
        const auto &f = frames_in[cap_f_];
        for (uint32_t i = 0; i < bytes; ++i)
            set_byte(base + i, f[cap_b_ * bytes + i], true);
        sem_post(h_in_new + j);
        cap_taken_ = false;
        if (++cap_b_ == nb) {
            cap_b_ = 0;
            ++cap_f_;
        }
    }

    // Display: per frame and block, take OUT.new, compare with the reference, poison the
    // block, wait, post OUT.ready.
    void display()
    {
        if (disp_f_ >= frames_in.size())
            return;
        const uint32_t k = disp_f_ % p.nbuf, j = k * nb + disp_b_;
        const uint32_t base = out_addr + k * frame_bytes + disp_b_ * p.blines * p.width;
        const uint32_t bytes = p.blines * p.width;
        if (!disp_taken_) {
            if (sm->res[h_out_new + j].sem == 0)
                return;
            sem_take(h_out_new + j);
            const auto &want = frames_out[disp_f_];
            for (uint32_t i = 0; i < bytes; ++i) {
                const uint8_t got = get_byte(base + i), exp = want[disp_b_ * bytes + i];
                if (got != exp && mismatches++ < 8)
                    std::fprintf(stderr, "  frame %u pixel (%u, %u): 0x%02x, want 0x%02x\n",
                                 disp_f_, i % p.width, disp_b_ * p.blines + i / p.width, got, exp);
            }
            const uint8_t poison = static_cast<uint8_t>(rng_() | 1);
            for (uint32_t i = 0; i < bytes; ++i)
                set_byte(base + i, static_cast<uint8_t>(poison + i * 13), false);
            disp_taken_ = true;
            disp_at_ = sm->cycle + rand_upto(p.disp_delay);
        }
        if (sm->cycle < disp_at_)
            return;
        sem_post(h_out_ready + j);
        disp_taken_ = false;
        if (++disp_b_ == nb) {
            disp_b_ = 0;
            frame_done.push_back(sm->cycle);
            ++disp_f_;
        }
    }
};

uint64_t budget(const Params &p)
{
    const uint64_t per_frame = 4ull * p.width * p.height + 2000ull * (p.height / p.blines) + 2000;
    return (per_frame * p.frames + 20000) * 100 / static_cast<uint64_t>(p.pct) *
           (1 + static_cast<uint64_t>(p.latency + p.cap_delay + p.disp_delay) / 16);
}

void run_case(const char *name, const Params &p)
{
    Pipeline pl(p);
    const bool ok = pl.run(budget(p));
    CHECK(ok,
          "%s (%ux%u B %u w %u nbuf %u): did not finish (exited %d value 0x%08x, %zu of "
          "%u frames, mem fault %d at 0x%08x)",
          name, p.width, p.height, p.blines, p.w, p.nbuf, pl.sm->exited, pl.sm->exit_value,
          pl.frame_done.size(), p.frames, pl.sm->mem_fault, pl.sm->fault_addr);
    pl.check_end(name);
    std::printf("  %-40s %u frames, %8" PRIu64 " cycles, %" PRIu64 " MEMIF commands\n", name,
                p.frames, pl.sm->cycle, pl.sm->memif_cmds);
}

// Small frames: every shape corner (B = r, B = height, NB = 1, width 8, height w) with
// random back-pressure, OSIF latency and capture/display delays.
void test_small(uint32_t seed)
{
    struct Shape {
        uint32_t width, height, blines, w, nbuf;
    };
    const Shape shapes[] = {
        {8, 5, 5, 5, 1},    {8, 3, 1, 3, 2},   {16, 12, 2, 5, 2},  {20, 12, 3, 3, 1},
        {24, 16, 16, 5, 2}, {12, 30, 6, 3, 2}, {320, 10, 5, 5, 2}, {36, 20, 4, 5, 1},
        {8, 9, 3, 3, 1},    {44, 14, 7, 5, 2}, {16, 6, 2, 5, 1},   {28, 8, 4, 3, 2},
    };
    const std::vector<Kind> kinds = {Kind::Random, Kind::Checker, Kind::Low, Kind::Zero,
                                     Kind::Full};
    std::mt19937 rng(seed);
    char name[64];
    for (const Shape &s : shapes) {
        Params p{s.width, s.height, s.blines, s.w, s.nbuf, 5};
        p.pct = 10 + static_cast<int>(rng() % 91);
        p.latency = static_cast<int>(rng() % 25);
        p.cap_delay = static_cast<int>(rng() % 40);
        p.disp_delay = static_cast<int>(rng() % 40);
        p.kinds = kinds;
        std::rotate(p.kinds.begin(), p.kinds.begin() + rng() % kinds.size(), p.kinds.end());
        p.seed = rng();
        std::snprintf(name, sizeof name, "small %ux%u B%u w%u nbuf%u", s.width, s.height, s.blines,
                      s.w, s.nbuf);
        run_case(name, p);
    }
}

// 320x240 frames with several block sizes and back-pressure.
void test_full_frames()
{
    struct Case {
        uint32_t blines, w, nbuf, frames;
        int pct, latency, delay;
        std::vector<Kind> kinds;
    };
    const Case cases[] = {
        {4, 5, 1, 2, 60, 20, 30, {Kind::Low, Kind::Checker}},
        {8, 3, 2, 3, 70, 10, 20, {Kind::Random, Kind::Low, Kind::Full}},
        {40, 5, 2, 2, 50, 30, 100, {Kind::Checker, Kind::Low}},
        {80, 3, 1, 2, 80, 5, 50, {Kind::Low, Kind::Zero}},
        {80, 5, 2, 2, 100, 0, 0, {Kind::Random, Kind::Low}},
    };
    char name[64];
    for (const Case &c : cases) {
        Params p{320, 240, c.blines, c.w, c.nbuf, c.frames};
        p.pct = c.pct;
        p.latency = c.latency;
        p.cap_delay = p.disp_delay = c.delay;
        p.kinds = c.kinds;
        p.seed = c.blines * 10 + c.w;
        std::snprintf(name, sizeof name, "320x240 B%u w%u nbuf%u", c.blines, c.w, c.nbuf);
        run_case(name, p);
    }
}

// A bad configuration exits with 0xFFFFFFFF; no memory is written and nothing but the
// configuration block is read.
void bad_case(const char *name, const std::function<void(Pipeline &)> &spoil, bool cfg_read = true)
{
    Params p{16, 12, 4, 5, 2, 1};
    p.pct = 70;
    p.latency = 5;
    p.seed = 99;
    Pipeline pl(p);
    spoil(pl);
    pl.config_changed();
    const auto before = pl.sm->mem;
    const bool ok = pl.sm->run_until([&] { return pl.sm->exited; }, 20000);
    CHECK(ok && pl.sm->exit_value == kBadConfig,
          "bad config %s: exit %d value 0x%08x, want "
          "0xFFFFFFFF",
          name, pl.sm->exited, pl.sm->exit_value);
    CHECK(pl.sm->memif_wr_words == 0 && pl.sm->mem == before, "bad config %s: memory written",
          name);
    const bool only_cfg =
        pl.sm->memif_log.size() == (cfg_read ? 1u : 0u) &&
        (!cfg_read || (!pl.sm->memif_log[0].write && pl.sm->memif_log[0].addr == pl.cfg_addr &&
                       pl.sm->memif_log[0].len == 4 * kCfgWords));
    CHECK(only_cfg, "bad config %s: %zu MEMIF commands, want %s", name, pl.sm->memif_log.size(),
          cfg_read ? "only the configuration read" : "none");
    CHECK(!pl.sm->mem_fault && !pl.sm->osif_fault, "bad config %s: fault", name);
    // Only GET_INIT_DATA and THREAD_EXIT on the OSIF.
    CHECK(pl.sm->osif_log.size() == 3, "bad config %s: %zu OSIF words, want 3", name,
          pl.sm->osif_log.size());
}

void test_bad_config()
{
    struct Field {
        const char *name;
        uint32_t idx, value;
    };
    // Base: 16x12, B 4, w 5, nbuf 2, one frame (NB 3, handle ranges of 6).
    const Field fields[] = {
        {"magic", 0, kMagic ^ 1},
        {"width 0", 3, 0},
        {"width 4", 3, 4},
        {"width 18", 3, 18},
        {"width 324", 3, kMaxWidth + 4},
        {"width 2^31+16", 3, 0x80000010u},
        {"height 0", 4, 0},
        {"height 4 < w", 4, 4},
        {"height 13", 4, 13},
        {"height 65548", 4, 65548},
        {"B 0", 5, 0},
        {"B 1 < r", 5, 1},
        {"B 5", 5, 5},
        {"B 24 > height", 5, 24},
        {"B 2^16+4", 5, 0x10004},
        {"w 0", 6, 0},
        {"w 1", 6, 1},
        {"w 4", 6, 4},
        {"w 7", 6, 7},
        {"w 0x103", 6, 0x103},
        {"nbuf 0", 7, 0},
        {"nbuf 3", 7, 3},
        {"nbuf 0x101", 7, 0x101},
        {"frames 0", 8, 0},
        {"IN.new base 65531", 9, 65531},
        {"IN.ready base 65531", 10, 65531},
        {"OUT.new base 65531", 11, 65531},
        {"OUT.ready base 65531", 12, 65531},
        {"IN.new base 0x10000", 9, 0x10000},
        {"OUT.ready base 0xFFFFFFFF", 12, 0xFFFFFFFFu},
    };
    for (const Field &f : fields)
        bad_case(f.name, [&](Pipeline &pl) { pl.cfg[f.idx] = f.value; });
    bad_case("IN unaligned", [](Pipeline &pl) { pl.cfg[1] += 2; });
    bad_case("OUT unaligned", [](Pipeline &pl) { pl.cfg[2] += 1; });
    // The two buffers of a stage would wrap past 2^32 (16*12*2 = 384 bytes).
    bad_case("IN wraps", [](Pipeline &pl) { pl.cfg[1] = 0xFFFFFF00u; });
    bad_case("OUT wraps", [](Pipeline &pl) { pl.cfg[2] = 0xFFFFFF80u; });
    // NB = 257 (8x514, B 2, w 3, nbuf 1): more blocks than the thread counts.
    bad_case("NB 257", [](Pipeline &pl) {
        pl.cfg[3] = 8;
        pl.cfg[4] = 514;
        pl.cfg[5] = 2;
        pl.cfg[6] = 3;
        pl.cfg[7] = 1;
        pl.cfg[9] = pl.cfg[10] = pl.cfg[11] = pl.cfg[12] = 0;
    });
    // The configuration address itself: unaligned, or its 52 bytes wrap past 2^32. The
    // thread must not read it.
    bad_case(
        "config address unaligned", [](Pipeline &pl) { pl.sm->init_data = pl.cfg_addr + 2; },
        false);
    bad_case(
        "config address wraps", [](Pipeline &pl) { pl.sm->init_data = 0xFFFFFFD0u; }, false);
}

// Limits that are still good: width MaxWidth, B = height (NB 1), the last OUT.ready
// handle 65535.
void test_good_limits()
{
    Params p{kMaxWidth, 6, 6, 5, 2, 3};
    p.pct = 80;
    p.latency = 3;
    p.kinds = {Kind::Checker, Kind::Random, Kind::Low};
    p.seed = 5;
    p.top_handles = true;
    run_case("320x6 B6 w5 nbuf2, handles up to 65535", p);
}

// A SEM_WAIT answered with an error status (the IN.new base points at a mutex) ends the
// thread with 0xFFFFFFFE before any line is read or written.
void test_os_error()
{
    Params p{16, 12, 4, 3, 1, 1};
    p.seed = 3;
    Pipeline pl(p);
    pl.cfg[9] = 0; // handle 0 is a mutex: WRONG_TYPE
    pl.config_changed();
    const auto before = pl.sm->mem;
    const bool ok = pl.sm->run_until([&] { return pl.sm->exited; }, 20000);
    CHECK(ok && pl.sm->exit_value == kOsError, "OS error: exit %d value 0x%08x, want 0xFFFFFFFE",
          pl.sm->exited, pl.sm->exit_value);
    CHECK(pl.sm->memif_wr_words == 0 && pl.sm->mem == before && pl.sm->memif_log.size() == 1,
          "OS error: memory touched beyond the configuration");
}

void bench_cycles()
{
    std::printf("hwt_laplace fabric cycles, 320x240 frame, B = 40, nbuf = 1, no back-pressure, "
                "OSIF answer latency 0:\n");
    std::printf("  %2s  %14s  %16s  %14s\n", "w", "first frame", "per frame after", "pixels/cycle");
    for (uint32_t w : {3u, 5u}) {
        Params p{320, 240, 40, w, 1, 3};
        p.kinds = {Kind::Random, Kind::Low, Kind::Checker};
        p.seed = w;
        Pipeline pl(p);
        const bool ok = pl.run(budget(p));
        CHECK(ok, "bench w %u: did not finish", w);
        pl.check_end(w == 3 ? "bench w3" : "bench w5");
        if (pl.frame_done.size() < 3)
            continue;
        const uint64_t period = (pl.frame_done[2] - pl.frame_done[0]) / 2;
        std::printf("  %2u  %14" PRIu64 "  %16" PRIu64 "  %14.2f\n", w, pl.frame_done[0], period,
                    320.0 * 240.0 / static_cast<double>(period));
    }
}

} // namespace

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    test_bad_config();
    test_os_error();
    test_small(21);
    test_small(22);
    test_good_limits();
    test_full_frames();
    bench_cycles();
    if (weft_tb::failures) {
        std::fprintf(stderr, "tb_thread_laplace: %d failure(s)\n", weft_tb::failures);
        return 1;
    }
    std::printf("tb_thread_laplace: PASS\n");
    return 0;
}
