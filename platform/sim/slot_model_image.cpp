// Glue of a hardware-thread image: wraps one Verilator model of a thread's top module
// behind the C ABI of slot_model_abi.h. cmake/WeftThread.cmake compiles this file once
// per image with
//   WEFT_IMAGE_MODEL_HEADER  the Verilated header, e.g. "Vweft_loopback.h"
//   WEFT_IMAGE_MODEL_CLASS   the Verilated class, e.g. Vweft_loopback
//   WEFT_IMAGE_THREAD_NAME   the top module's name as a string
// Everything here has hidden visibility except weft_slot_model_abi().

#include <memory>
#include <new>

#include "slot_model_abi.h"
#include "verilated.h"

#include WEFT_IMAGE_MODEL_HEADER

#if !defined(WEFT_IMAGE_MODEL_CLASS) || !defined(WEFT_IMAGE_THREAD_NAME)
#error "build this file through weft_add_hw_thread() (cmake/WeftThread.cmake)"
#endif

// One instance per slot holding the image. Each owns its simulation context, so two
// slots running the same image share nothing but code.
struct weft_slot_model {
    std::unique_ptr<VerilatedContext> context;
    std::unique_ptr<WEFT_IMAGE_MODEL_CLASS> top;
};

namespace
{

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
        m->top = std::make_unique<WEFT_IMAGE_MODEL_CLASS>(m->context.get(), WEFT_IMAGE_THREAD_NAME);
    } catch (...) {
        return nullptr;
    }
    // Settle the model with the clock low and the thread held in reset.
    m->top->clk_i = 0;
    m->top->rst_ni = 0;
    m->top->eval();
    return m.release();
}

void model_destroy(weft_slot_model_t *m)
{
    if (!m)
        return;
    m->top->final();
    delete m;
}

void model_eval(weft_slot_model_t *m, int clk, const weft_slot_inputs_t *in,
                weft_slot_outputs_t *out)
{
    auto &t = *m->top;
    t.clk_i = clk ? 1 : 0;
    t.rst_ni = in->rst_n;
    t.osif_in_data_i = in->osif_in_data;
    t.osif_in_valid_i = in->osif_in_valid;
    t.osif_out_ready_i = in->osif_out_ready;
    t.mem_cmd_ready_i = in->mem_cmd_ready;
    t.mem_wr_ready_i = in->mem_wr_ready;
    t.mem_rd_data_i = in->mem_rd_data;
    t.mem_rd_valid_i = in->mem_rd_valid;
    t.eval();
    out->osif_in_ready = t.osif_in_ready_o;
    out->osif_out_data = t.osif_out_data_o;
    out->osif_out_valid = t.osif_out_valid_o;
    out->mem_cmd_data = t.mem_cmd_data_o;
    out->mem_cmd_valid = t.mem_cmd_valid_o;
    out->mem_wr_data = t.mem_wr_data_o;
    out->mem_wr_valid = t.mem_wr_valid_o;
    out->mem_rd_ready = t.mem_rd_ready_o;
}

const weft_slot_model_abi_t kAbi = {
    WEFT_SLOT_MODEL_ABI_VERSION, WEFT_IMAGE_THREAD_NAME, model_create, model_destroy, model_eval,
};

} // namespace

extern "C" __attribute__((visibility("default"))) const weft_slot_model_abi_t *
weft_slot_model_abi(void)
{
    return &kAbi;
}
