// The simulated fabric's side of the reconfiguration interface (docs/reconfiguration.md):
// the loader that swaps a slot's model when weft_fri asks (fri_load_o), and
// slot_program(), which drives the FRI's registers for the runtime.
//
// A slot's configuration in simulation is code: a thread image, a shared object. The
// loader takes it only from the image directory, under the name the bitstream's header
// gives (a name can never be a path, bitstream.c checks), and only when the file's
// SHA-256 is the header's. It hashes the image into a private copy (a memfd) and loads
// that copy, so the code that runs is the code it checked, whatever happens to the file
// afterwards. Images are kept by digest: a second load of the same image costs nothing.
//
// The loader runs on the clock thread within one fabric cycle, between two edges, so a
// programming takes the same fabric cycles however long the host takes to load.

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "Vweft_static.h"
#include "fabric.h"
#include "weft/osif_protocol.h"

namespace weft::sim
{

namespace
{

std::string hex(const uint8_t *d, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    std::string s;
    for (size_t i = 0; i < n; ++i) {
        s += digits[d[i] >> 4];
        s += digits[d[i] & 15];
    }
    return s;
}

} // namespace

// Clock thread: answer the FRI's load request of this cycle.
void Fabric::fri_loader()
{
    Vweft_static &t = *top_;
    catch_up(); // its inputs change below
    const unsigned slot = t.fri_load_slot_o;
    bool ok = false;
    if (slot < nslots_) {
        if (t.fri_load_blank_o) {
            empty_slot(slot);
            ok = true;
        } else {
            std::string why;
            ok = fri_load(slot, t.fri_load_addr_o, &why) == 0;
            if (!ok) {
                empty_slot(slot);
                std::fprintf(stderr, "weft sim: reconfiguration of slot %u refused: %s\n", slot,
                             why.c_str());
                std::lock_guard<std::mutex> lk(load_why_mu_);
                load_why_ = why;
            }
        }
    }
    t.fri_load_done_i = 1;
    t.fri_load_ok_i = ok;
}

// Clock thread: the slot holds nothing (a failed programming's half-written frames).
void Fabric::empty_slot(unsigned slot)
{
    SlotModel &sl = slots_[slot];
    if (sl.model)
        sl.abi->destroy(sl.model);
    if (sl.dl)
        dlclose(sl.dl);
    sl.model = nullptr;
    sl.abi = nullptr;
    sl.dl = nullptr;
    sl.fresh = false;
    std::memset(sl.rsp, 0, sizeof sl.rsp);
    std::memset(sl.req, 0, sizeof sl.req);
    std::memset(top_->slot_req_i.data() + slot * WEFT_SLOT_REQ_WORDS, 0, sizeof sl.req);
}

// Clock thread: load the image the header at file_bus names into slot.
int Fabric::fri_load(unsigned slot, uint32_t file_bus, std::string *why)
{
    if (file_bus < dma_bus_ ||
        uint64_t{file_bus} - dma_bus_ + WEFT_BITSTREAM_HEADER_BYTES > dma_size_) {
        *why = "the file is not in the DMA region";
        return -EINVAL;
    }
    weft_bitstream_info_t info;
    char msg[160];
    if (weft_bitstream_parse_header(dma_ + (file_bus - dma_bus_), WEFT_BITSTREAM_HEADER_BYTES,
                                    &info, msg, sizeof msg) != 0) {
        *why = msg; // the FRI checked the header; memory changed under it since
        return -EINVAL;
    }

    const LoadedImage *image = nullptr;
    for (const LoadedImage &im : loaded_)
        if (std::memcmp(im.digest, info.image_sha256, sizeof im.digest) == 0)
            image = &im;
    if (!image) {
        const std::string path = image_dir_ + "/" + info.image;
        int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            *why = "image " + path + ": " + std::strerror(errno);
            return -ENOENT;
        }
        struct stat st;
        if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
            close(fd);
            *why = "image " + path + " is not a regular file";
            return -ENOEXEC;
        }
        int copy = memfd_create("weft-image", MFD_CLOEXEC);
        uint8_t digest[WEFT_BITSTREAM_DIGEST_BYTES];
        int rc = copy < 0 ? -errno : weft_bitstream_fd_sha256(fd, copy, digest);
        close(fd);
        if (rc != 0) {
            if (copy >= 0)
                close(copy);
            *why = "image " + path + ": " + std::strerror(-rc);
            return rc;
        }
        if (std::memcmp(digest, info.image_sha256, sizeof digest) != 0) {
            close(copy);
            *why = "image " + path + " has SHA-256 " + hex(digest, sizeof digest) +
                   ", the bitstream names " + hex(info.image_sha256, sizeof digest);
            return -EPERM;
        }
        const std::string copy_path = "/proc/self/fd/" + std::to_string(copy);
        // The copy stays open while the image is loaded: the dynamic loader knows a
        // library by its path, and a /proc/self/fd path closed and reused for another
        // image would give back this one.
        void *dl = dlopen(copy_path.c_str(), RTLD_NOW | RTLD_LOCAL);
        const char *dl_why = dl ? nullptr : dlerror();
        auto fn =
            dl ? reinterpret_cast<weft_slot_model_abi_fn>(dlsym(dl, WEFT_SLOT_MODEL_ABI_SYMBOL))
               : nullptr;
        const weft_slot_model_abi_t *abi = fn ? fn() : nullptr;
        if (!abi || abi->abi_version != WEFT_SLOT_MODEL_ABI_VERSION || !abi->create ||
            !abi->destroy || !abi->eval) {
            if (dl)
                dlclose(dl);
            close(copy);
            *why = "image " + path + " is not a thread image of ABI " +
                   std::to_string(WEFT_SLOT_MODEL_ABI_VERSION) +
                   (dl_why ? std::string(": ") + dl_why : std::string());
            return -ENOEXEC;
        }
        LoadedImage im{};
        std::memcpy(im.digest, digest, sizeof digest);
        im.dl = dl;
        im.abi = abi;
        im.fd = copy;
        loaded_.push_back(im);
        image = &loaded_.back();
    }

    weft_slot_model_t *m = image->abi->create();
    if (!m) {
        *why = std::string("image ") + info.image + " could not create its model";
        return -ENOMEM;
    }
    empty_slot(slot);
    SlotModel &sl = slots_[slot];
    sl.abi = image->abi;
    sl.model = m; // sl.dl stays null: loaded_ owns the image
    return 0;
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
    {
        std::lock_guard<std::mutex> lk(load_why_mu_);
        load_why_.clear();
    }
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
    {
        std::lock_guard<std::mutex> lk(load_why_mu_);
        why = load_why_;
    }
    std::snprintf(res->message, sizeof res->message, "slot %u: %s%s%s (after %u bytes)", slot,
                  weft_bitstream_fri_error(res->error), why.empty() ? "" : ": ", why.c_str(),
                  bytes);
    return -EIO;
}

} // namespace weft::sim
