// Opening hardware-thread images (shared objects with the slot-model ABI,
// slot_model_abi.h): by path for weft_platform_ops_t.slot_reconfigure, and by a
// bitstream's name and digest from the image directory for the reconfiguration port.
#ifndef WEFT_SIM_THREAD_IMAGE_H
#define WEFT_SIM_THREAD_IMAGE_H

#include <string>

#include "slot_model_abi.h"
#include "weft/bitstream.h"

namespace weft::sim
{

/** A loaded image. */
struct ThreadImage {
    void *dl = nullptr;
    const weft_slot_model_abi_t *abi = nullptr;
    int fd = -1; ///< the private copy dl was loaded from (verified images), or -1
};

/**
 * dlopen path and check that it exports the slot-model ABI this backend speaks. Returns
 * 0, or -ENOEXEC with *why saying what is wrong (naming the image as shown).
 */
int open_thread_image(const std::string &path, const std::string &shown, ThreadImage *out,
                      std::string *why);

/**
 * Open the image a bitstream names, from dir only, and only if its SHA-256 is the
 * bitstream's: it is hashed into a private copy (a memfd) and that copy is loaded, so the
 * code that runs is the code whose digest was checked. Returns 0, or a negative errno
 * with *why saying what was wrong.
 */
int open_verified_image(const std::string &dir, const weft_bitstream_info_t &info, ThreadImage *out,
                        std::string *why);

/** Unload an image opened by either function. */
void close_thread_image(ThreadImage *im);

} // namespace weft::sim

#endif // WEFT_SIM_THREAD_IMAGE_H
