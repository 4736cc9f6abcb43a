// The simulated fabric's side of the reconfiguration interface (docs/reconfiguration.md):
// slot_program(), which drives the FRI's registers for the runtime, and the loader that
// swaps a slot's model when weft_fri asks (fri_load_o).
//
// A slot's configuration in simulation is code: a thread image, a shared object. Before
// it starts the FRI, slot_program() reads the file's header and opens the image it names,
// from the image directory only and only with the header's SHA-256
// (open_verified_image()); that is host work (a hash, a dlopen) and runs on the caller's
// thread. The FRI then reads and checks the file at its own rate, and its load, within one
// fabric cycle on whichever thread runs the fabric, creates the prepared model and swaps
// it in, or leaves the slot empty. So a programming takes the same fabric cycles however
// long the host takes, and nothing heavy runs inside another thread's register access.

#include <dlfcn.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "Vweft_static.h"
#include "fabric.h"
#include "weft/osif_protocol.h"

namespace weft::sim
{

// Whichever thread runs the fabric: answer the FRI's load request of this cycle.
void Fabric::fri_loader()
{
    Vweft_static &t = *top_;
    catch_up(); // its inputs change below
    const unsigned slot = t.fri_load_slot_o;
    const bool blank = t.fri_load_blank_o;
    bool ok = false;
    if (slot < nslots_) {
        const weft_slot_model_abi_t *abi = nullptr;
        {
            std::lock_guard<std::mutex> lk(load_mu_);
            if (!blank && prepared_.slot == slot)
                abi = prepared_.abi;
            else if (!blank)
                prepared_.why = "no configuration was prepared for slot " + std::to_string(slot) +
                                " (a slot is programmed through slot_program)";
        }
        weft_slot_model_t *m = abi ? abi->create() : nullptr;
        ok = blank || m;
        void *old = install(slot, m ? abi : nullptr, m, nullptr);
        std::lock_guard<std::mutex> lk(load_mu_);
        if (abi && !m)
            prepared_.why =
                std::string("image ") + abi->thread_name + " could not create its model";
        if (old)
            retired_.push_back(old);
    }
    t.fri_load_done_i = 1;
    t.fri_load_ok_i = ok;
}

// The image the file at bus names, opened and kept by digest; null with *why when the
// header cannot be read or the image is refused.
const weft_slot_model_abi_t *Fabric::prepare_image(uint64_t bus, size_t size, std::string *why)
{
    if (bus < dma_bus_ || size < WEFT_BITSTREAM_HEADER_BYTES ||
        bus - dma_bus_ + WEFT_BITSTREAM_HEADER_BYTES > dma_size_) {
        *why = "the file's header is not in the DMA region";
        return nullptr;
    }
    weft_bitstream_info_t info;
    char msg[160];
    if (weft_bitstream_parse_header(dma_ + (bus - dma_bus_), WEFT_BITSTREAM_HEADER_BYTES, &info,
                                    msg, sizeof msg) != 0) {
        *why = msg;
        return nullptr;
    }
    for (const LoadedImage &im : loaded_)
        if (std::memcmp(im.digest, info.image_sha256, sizeof im.digest) == 0)
            return im.image.abi;
    LoadedImage im{};
    if (open_verified_image(image_dir_, info, &im.image, why) != 0)
        return nullptr;
    std::memcpy(im.digest, info.image_sha256, sizeof im.digest);
    loaded_.push_back(im);
    return im.image.abi;
}

int Fabric::slot_program(unsigned slot, uint64_t bus, size_t size, weft_program_result_t *res)
{
    if (slot >= nslots_ || !res)
        return -EINVAL;
    *res = weft_program_result_t{};
    if (bus > UINT32_MAX || size > UINT32_MAX) {
        res->error = WEFT_FRI_ERR_ARGS;
        std::snprintf(res->message, sizeof res->message,
                      "file at 0x%llx (%zu bytes) is out of reach",
                      static_cast<unsigned long long>(bus), size);
        return -EIO;
    }
    // One programming at a time; the register sequence below is the whole protocol.
    std::lock_guard<std::mutex> one(program_mu_);
    Prepared prep;
    prep.slot = slot;
    prep.abi = prepare_image(bus, size, &prep.why);
    std::vector<void *> retired;
    {
        std::lock_guard<std::mutex> lk(load_mu_);
        prepared_ = prep;
        retired.swap(retired_);
    }
    for (void *dl : retired)
        dlclose(dl);

    int rc = mmio_write(WEFT_REG_FRI_ADDR, static_cast<uint32_t>(bus));
    if (rc == 0)
        rc = mmio_write(WEFT_REG_FRI_SIZE, static_cast<uint32_t>(size));
    if (rc == 0)
        rc = mmio_write(WEFT_REG_FRI_CTRL, WEFT_FRI_CTRL_START | WEFT_FRI_CTRL_IRQ_EN | slot);
    if (rc == 0)
        rc = irq_wait_line(kFriIrqLine, -1);
    uint32_t status = 0, cycles = 0, bytes = 0;
    if (rc == 0)
        rc = mmio_read(WEFT_REG_FRI_STATUS, &status);
    if (rc == 0)
        rc = mmio_read(WEFT_REG_FRI_CYCLES, &cycles);
    if (rc == 0)
        rc = mmio_read(WEFT_REG_FRI_BYTES, &bytes);
    if (rc == 0)
        rc = mmio_write(WEFT_REG_FRI_CTRL, WEFT_FRI_CTRL_ACK);
    if (rc != 0)
        return rc;
    res->cycles = cycles;
    res->bytes = bytes;
    if ((status & WEFT_FRI_STATE_MASK) == WEFT_FRI_STATE_DONE)
        return 0;
    res->error = (status >> WEFT_FRI_ERR_SHIFT) & 0xffu;
    std::string why;
    if (res->error == WEFT_FRI_ERR_LOAD) {
        std::lock_guard<std::mutex> lk(load_mu_);
        why = prepared_.why;
    }
    std::snprintf(res->message, sizeof res->message, "slot %u: %s%s%s (after %u bytes)", slot,
                  weft_bitstream_fri_error(res->error), why.empty() ? "" : ": ", why.c_str(),
                  bytes);
    return -EIO;
}

} // namespace weft::sim
