// Glue of a hardware-thread image: wraps one Verilator model of a thread's top module
// behind the C ABI of slot_model_abi.h. cmake/WeftThread.cmake compiles this file once
// per image with
//   WEFT_IMAGE_MODEL_HEADER       the Verilated header, e.g. "Vhwt_sort.h"
//   WEFT_IMAGE_MODEL_ROOT_HEADER  its root header, e.g. "Vhwt_sort___024root.h"
//   WEFT_IMAGE_MODEL_CLASS        the Verilated class, e.g. Vhwt_sort
//   WEFT_IMAGE_THREAD_NAME        the top module's name as a string
// Everything here has hidden visibility except weft_slot_model_abi().

#include <cerrno>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>

#include "slot_model_abi.h"
#include "verilated.h"
#include "verilated_edge.h"
#if VM_TRACE_FST
#include "verilated_fst_c.h"
#endif
#include "weft/osif_protocol.h"

#include WEFT_IMAGE_MODEL_HEADER
#include WEFT_IMAGE_MODEL_ROOT_HEADER

#if !defined(WEFT_IMAGE_MODEL_CLASS) || !defined(WEFT_IMAGE_THREAD_NAME)
#error "build this file through weft_add_hw_thread() (cmake/WeftThread.cmake)"
#endif

// One instance per slot holding the image. Each owns its simulation context, so two
// slots running the same image share nothing but code.
struct weft_slot_model {
    std::unique_ptr<VerilatedContext> context;
    std::unique_ptr<WEFT_IMAGE_MODEL_CLASS> top;
#if VM_TRACE_FST
    std::unique_ptr<VerilatedFstC> wave; // open while a waveform is recorded
#endif
};

namespace
{

// A struct port of up to 64 bits is an integer in Verilator, a wider one a VlWide.
template <class Port> void port_from_words(Port &port, const uint32_t *w)
{
    if constexpr (std::is_integral_v<Port>) {
        uint64_t v = w[0];
        if constexpr (sizeof(Port) > 4)
            v |= uint64_t{w[1]} << 32;
        port = static_cast<Port>(v);
    } else {
        std::memcpy(port.data(), w, WEFT_SLOT_RSP_WORDS * 4);
    }
}

template <class Port> void port_to_words(const Port &port, uint32_t *w)
{
    if constexpr (std::is_integral_v<Port>) {
        w[0] = static_cast<uint32_t>(port);
        for (unsigned i = 1; i < WEFT_SLOT_REQ_WORDS; ++i)
            w[i] = i == 1 ? static_cast<uint32_t>(static_cast<uint64_t>(port) >> 32) : 0;
    } else {
        std::memcpy(w, port.data(), WEFT_SLOT_REQ_WORDS * 4);
    }
}

weft_slot_model_t *model_create()
{
    auto m = std::unique_ptr<weft_slot_model>(new (std::nothrow) weft_slot_model);
    if (!m)
        return nullptr;
    try {
        m->context = std::make_unique<VerilatedContext>();
        // The model is single-threaded; without this the context would start a pool of
        // idle worker threads (one per host core) for every slot.
        m->context->threads(1);
        m->context->fatalOnError(false);
        // Tracing is compiled in (--trace-fst) but costs nothing until a file is opened;
        // the context must allow it before the model exists. Times are picoseconds.
#if VM_TRACE_FST
        m->context->traceEverOn(true);
        m->context->timeprecision(-12);
#endif
        m->top = std::make_unique<WEFT_IMAGE_MODEL_CLASS>(m->context.get(), WEFT_IMAGE_THREAD_NAME);
    } catch (...) {
        return nullptr;
    }
    // Settle the model with the thread held in reset; the clock stays high from here on
    // (verilated_edge.h).
    m->top->rst_ni = 0;
    weft::sim::settle(*m->top);
    return m.release();
}

// An image verilated without tracing (WEFT_IMAGE_WAVES off) has none of this.
#if VM_TRACE_FST
void wave_close(weft_slot_model_t *m)
{
    if (m->wave) {
        m->wave->close();
        m->wave.reset();
    }
}

int wave_open(weft_slot_model_t *m, const char *path)
{
    wave_close(m);
    try {
        auto wave = std::make_unique<VerilatedFstC>();
        m->top->trace(wave.get(), 99); // every level of the hierarchy
        wave->open(path);
        if (!wave->isOpen())
            return -EIO;
        m->wave = std::move(wave);
    } catch (const std::bad_alloc &) {
        return -ENOMEM;
    }
    return 0;
}

void wave_sample(weft_slot_model_t *m, uint64_t time_ps)
{
    if (m->wave)
        m->wave->dump(time_ps);
}
#else
void wave_close(weft_slot_model_t *) {}
int wave_open(weft_slot_model_t *, const char *)
{
    return -ENOTSUP;
}
void wave_sample(weft_slot_model_t *, uint64_t) {}
#endif

void model_destroy(weft_slot_model_t *m)
{
    if (!m)
        return;
    wave_close(m);
    m->top->final();
    delete m;
}

void model_eval(weft_slot_model_t *m, int edge, int rst_n, const uint32_t *rsp, uint32_t *req)
{
    auto &t = *m->top;
    t.rst_ni = rst_n ? 1 : 0;
    port_from_words(t.slot_i, rsp);
    if (edge)
        weft::sim::rising_edge(t);
    else
        weft::sim::settle(t);
    port_to_words(t.slot_o, req);
}

const weft_slot_model_abi_t kAbi = {
    WEFT_SLOT_MODEL_ABI_VERSION,
    WEFT_IMAGE_THREAD_NAME,
    WEFT_SLOT_REQ_BITS,
    WEFT_SLOT_RSP_BITS,
    model_create,
    model_destroy,
    model_eval,
    wave_open,
    wave_sample,
    wave_close,
};

} // namespace

extern "C" __attribute__((visibility("default"))) const weft_slot_model_abi_t *
weft_slot_model_abi(void)
{
    return &kAbi;
}
