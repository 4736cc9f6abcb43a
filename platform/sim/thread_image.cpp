// Opening hardware-thread images; see thread_image.h.
#include "thread_image.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

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

int open_thread_image(const std::string &path, const std::string &shown, ThreadImage *out,
                      std::string *why)
{
    void *dl = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!dl) {
        const char *e = dlerror();
        *why = shown + " is not a loadable thread image: " + (e ? e : "unknown error");
        return -ENOEXEC;
    }
    dlerror();
    auto fn = reinterpret_cast<weft_slot_model_abi_fn>(dlsym(dl, WEFT_SLOT_MODEL_ABI_SYMBOL));
    const weft_slot_model_abi_t *abi = fn ? fn() : nullptr;
    if (!abi || abi->abi_version != WEFT_SLOT_MODEL_ABI_VERSION || !abi->create || !abi->destroy ||
        !abi->eval || !abi->wave_open || !abi->wave_sample || !abi->wave_close) {
        if (!fn) {
            const char *e = dlerror();
            *why = shown + " is not a thread image: " +
                   (e ? e : "no " WEFT_SLOT_MODEL_ABI_SYMBOL " symbol");
        } else {
            *why = shown + " is a thread image of ABI " +
                   std::to_string(abi ? abi->abi_version : 0u) + ", expected " +
                   std::to_string(WEFT_SLOT_MODEL_ABI_VERSION);
        }
        dlclose(dl);
        return -ENOEXEC;
    }
    out->dl = dl;
    out->abi = abi;
    return 0;
}

int open_verified_image(const std::string &dir, const weft_bitstream_info_t &info, ThreadImage *out,
                        std::string *why)
{
    // The header's name is never a path (bitstream.c checks); O_NONBLOCK: a FIFO put in
    // the directory must not stall the caller before fstat refuses it.
    const std::string path = dir + "/" + info.image;
    int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        int e = errno;
        *why = "image " + path + ": " + std::strerror(e);
        return -e;
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
    if (rc == 0 && std::memcmp(digest, info.image_sha256, sizeof digest) != 0) {
        *why = "image " + path + " has SHA-256 " + hex(digest, sizeof digest) +
               ", the bitstream names " + hex(info.image_sha256, sizeof digest);
        rc = -EPERM;
    } else if (rc != 0) {
        *why = "image " + path + ": " + std::strerror(-rc);
    }
    // The copy stays open while the image is loaded: the dynamic loader knows a library
    // by its path, and a /proc/self/fd path closed and reused for another image would
    // give back this one.
    if (rc == 0)
        rc = open_thread_image("/proc/self/fd/" + std::to_string(copy), "image " + path, out, why);
    if (rc != 0) {
        if (copy >= 0)
            close(copy);
        return rc;
    }
    out->fd = copy;
    return 0;
}

void close_thread_image(ThreadImage *im)
{
    if (im->dl)
        dlclose(im->dl);
    if (im->fd >= 0)
        close(im->fd);
    *im = ThreadImage{};
}

} // namespace weft::sim
