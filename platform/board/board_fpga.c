/*
 * Board backend: slot reconfiguration, and the FPGA manager's sysfs files.
 *
 * Two methods load an image (weft_board_config_t.reconf_method). With the FPGA manager's
 * sysfs files of Xilinx kernels (the default, here), a partial bitstream is loaded by
 * writing 1 (partial) to the manager's "flags" file and the image's name, relative to
 * the firmware directory, to its "firmware" file; the kernel fetches the image from the
 * firmware directory itself. The manager's "state" file, where present, tells whether
 * the load went through. With the mainline FPGA region flow (board_fpga_overlay.c) a
 * device-tree overlay on the slot's region names the image instead. Everything before
 * that last step is the same for both and lives here.
 *
 * slot_program takes a Weft partial bitstream file (weft/bitstream.h) from the DMA
 * region, as the reconfiguration port does on the simulated fabric: it decouples the
 * slot (CONTROL: reset held, RUN off, so the static region isolates it), waits until no
 * burst the slot issued can still reach memory (MEM_ACTIVE), checks the whole file with
 * the port's own checks and error codes, writes its payload (the vendor's partial
 * bitstream for that slot: bitstreams do not relocate, so the file's slot mask names the
 * slot it was built for) to weft-slot<N>.bin in the firmware directory and loads that.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "board_priv.h"
#include "weft/bitstream.h"
#include "weft/osif_protocol.h"

#define DEFAULT_FPGA_MGR_DIR "/sys/class/fpga_manager/fpga0"
#define DEFAULT_FIRMWARE_DIR "/lib/firmware"

/* Flags value of a partial bitstream (the manager's partial-reconfiguration flag). */
#define FPGA_MGR_FLAGS_PARTIAL "1"

/* How long slot_program waits for a decoupled slot's last bursts (a burst is at most 256
 * beats: microseconds on any bus), and how often it looks. */
#define MEM_QUIET_TIMEOUT_US 100000
#define MEM_QUIET_POLL_US 50

/* The FPGA manager's control files: both must be writable now, not only when the first
 * thread loads. */
static int fpga_mgr_open(struct board *b, const weft_board_config_t *cfg)
{
    const char *mgr = cfg->fpga_mgr_dir != NULL ? cfg->fpga_mgr_dir : DEFAULT_FPGA_MGR_DIR;
    int ret;

    b->flags_path = board_path_join(mgr, "flags");
    b->firmware_path = board_path_join(mgr, "firmware");
    b->state_path = board_path_join(mgr, "state");
    if (b->flags_path == NULL || b->firmware_path == NULL || b->state_path == NULL) {
        return -ENOMEM;
    }
    if (access(b->flags_path, W_OK) != 0 || access(b->firmware_path, W_OK) != 0) {
        const char *bad = access(b->flags_path, W_OK) != 0 ? b->flags_path : b->firmware_path;

        ret = -errno;
        board_log(b, "%s: FPGA manager file not writable: %s (is %s an FPGA manager?)", bad,
                  strerror(-ret), mgr);
        return ret;
    }
    return 0;
}

int board_fpga_open(struct board *b, const weft_board_config_t *cfg)
{
    const char *fw = cfg->firmware_dir != NULL ? cfg->firmware_dir : DEFAULT_FIRMWARE_DIR;
    struct stat st;
    int ret;

    if (cfg->reconf_method != WEFT_BOARD_RECONF_FPGA_MGR &&
        cfg->reconf_method != WEFT_BOARD_RECONF_OVERLAY) {
        board_log(b, "reconf_method %d is neither the FPGA manager (%d) nor overlays (%d)",
                  (int)cfg->reconf_method, WEFT_BOARD_RECONF_FPGA_MGR, WEFT_BOARD_RECONF_OVERLAY);
        return -EINVAL;
    }
    b->reconf_method = cfg->reconf_method;
    if (pthread_mutex_init(&b->reconf_lock, NULL) != 0) {
        return -ENOMEM;
    }
    b->reconf_lock_init = true;

    b->firmware_dir = strdup(fw);
    if (b->firmware_dir == NULL) {
        return -ENOMEM;
    }
    /* With overlays the manager's sysfs files are not used (mainline kernels lack them). */
    ret = b->reconf_method == WEFT_BOARD_RECONF_OVERLAY ? board_overlay_open(b, cfg)
                                                        : fpga_mgr_open(b, cfg);
    if (ret != 0) {
        return ret;
    }
    if (stat(fw, &st) != 0) {
        ret = -errno;
        board_log(b, "%s: firmware directory: %s", fw, strerror(-ret));
        return ret;
    }
    if (!S_ISDIR(st.st_mode)) {
        board_log(b, "%s: firmware directory is not a directory", fw);
        return -ENOTDIR;
    }
    return 0;
}

void board_fpga_close(struct board *b)
{
    board_overlay_close(b);
    free(b->flags_path);
    free(b->firmware_path);
    free(b->state_path);
    free(b->firmware_dir);
    b->flags_path = b->firmware_path = b->state_path = b->firmware_dir = NULL;
    if (b->reconf_lock_init) {
        pthread_mutex_destroy(&b->reconf_lock);
        b->reconf_lock_init = false;
    }
}

/* A relative name with no empty, "." or ".." component (the loader rejects "..") */
static bool clean_relative(const char *name)
{
    while (*name != '\0') {
        size_t n = strcspn(name, "/");

        if (n == 0 || (n == 1 && name[0] == '.') || (n == 2 && name[0] == '.' && name[1] == '.')) {
            return false;
        }
        name += n;
        if (*name == '/') {
            name++;
            if (*name == '\0') {
                return false;
            }
        }
    }
    return true;
}

/*
 * Name of image relative to the firmware directory (what the manager's firmware file
 * takes), or NULL with *err set. A bare name is taken as it is; a path must lie inside
 * the firmware directory. The result points into image or into *owned.
 */
static const char *firmware_name(const struct board *b, const char *image, char **owned, int *err)
{
    size_t dl = strlen(b->firmware_dir);
    char *dir_real;
    char *img_real;
    size_t rl;

    *owned = NULL;
    if (strchr(image, '/') == NULL && strcmp(image, ".") != 0 && strcmp(image, "..") != 0) {
        return image;
    }
    while (dl > 1 && b->firmware_dir[dl - 1] == '/') {
        dl--;
    }
    if (strncmp(image, b->firmware_dir, dl) == 0 && image[dl] == '/' &&
        clean_relative(image + dl + 1)) {
        return image + dl + 1;
    }
    /* Not lexically inside: compare resolved paths (symlinks, "..", relative paths). */
    img_real = realpath(image, NULL);
    if (img_real == NULL) {
        *err = -errno;
        board_log(b, "%s: partial bitstream: %s", image, strerror(-*err));
        return NULL;
    }
    dir_real = realpath(b->firmware_dir, NULL);
    if (dir_real == NULL) {
        *err = -errno;
        board_log(b, "%s: firmware directory: %s", b->firmware_dir, strerror(-*err));
        free(img_real);
        return NULL;
    }
    rl = strlen(dir_real);
    if (strncmp(img_real, dir_real, rl) != 0 || img_real[rl] != '/') {
        board_log(b,
                  "%s: partial bitstream is not inside the firmware directory %s; the FPGA "
                  "manager loads images only from there",
                  image, b->firmware_dir);
        free(dir_real);
        free(img_real);
        *err = -EINVAL;
        return NULL;
    }
    free(dir_real);
    *owned = img_real;
    return img_real + rl + 1;
}

/* Have the FPGA manager load name (relative to the firmware directory; full is its path,
 * for messages) as a partial bitstream, and check its state afterwards. */
static int load_partial(const struct board *b, unsigned slot, const char *name, const char *full)
{
    char state[64];
    int ret = board_write_text(b, b->flags_path, FPGA_MGR_FLAGS_PARTIAL);

    if (ret == 0) {
        ret = board_write_text(b, b->firmware_path, name);
    }
    if (ret == 0) {
        ret = board_read_line(b, b->state_path, state, sizeof(state), true);
        if (ret == 0 && state[0] != '\0' && strcmp(state, "operating") != 0) {
            board_log(b, "%s: FPGA manager reports \"%s\" after loading %s into slot %u",
                      b->state_path, state, full, slot);
            ret = -EIO;
        }
    }
    return ret;
}

/* Load an image from the firmware directory into a decoupled slot, by the configured
 * method. */
static int load_image(struct board *b, unsigned slot, const char *name, const char *full)
{
    if (b->reconf_method == WEFT_BOARD_RECONF_OVERLAY) {
        return board_overlay_load(b, slot, name, full);
    }
    return load_partial(b, slot, name, full);
}

static int reconfigure_locked(struct board *b, unsigned slot, const char *image)
{
    uint32_t control = board_reg_read(b, WEFT_SLOT_REG(slot, WEFT_SLOT_REG_CONTROL));
    char *owned;
    char *full;
    const char *name;
    struct stat st;
    int ret = 0;

    if ((control & WEFT_CONTROL_RUN) != 0) {
        board_log(b, "slot %u is running (CONTROL.RUN = 1); stop it before loading %s", slot,
                  image);
        return -EBUSY;
    }
    name = firmware_name(b, image, &owned, &ret);
    if (name == NULL) {
        return ret;
    }
    full = board_path_join(b->firmware_dir, name);
    if (full == NULL) {
        free(owned);
        return -ENOMEM;
    }
    if (stat(full, &st) != 0) {
        ret = -errno;
        board_log(b, "%s: partial bitstream for slot %u: %s", full, slot, strerror(-ret));
    } else if (!S_ISREG(st.st_mode) || st.st_size == 0) {
        ret = -ENOEXEC;
        board_log(b, "%s: partial bitstream for slot %u is %s", full, slot,
                  S_ISREG(st.st_mode) ? "empty" : "not a regular file");
    }
    if (ret == 0) {
        /* Hold the slot in reset while its logic changes (RUN = 0 already decouples it). */
        board_reg_write(b, WEFT_SLOT_REG(slot, WEFT_SLOT_REG_CONTROL),
                        (control | WEFT_CONTROL_RESET) & ~(uint32_t)WEFT_CONTROL_RUN);
        ret = load_image(b, slot, name, full);
    }
    free(full);
    free(owned);
    return ret;
}

int board_slot_reconfigure(weft_platform_t *p, unsigned slot, const char *image)
{
    struct board *b = board_of(p);
    int ret;

    if (slot >= b->num_slots || image == NULL || image[0] == '\0') {
        return -EINVAL;
    }
    pthread_mutex_lock(&b->reconf_lock);
    ret = reconfigure_locked(b, slot, image);
    pthread_mutex_unlock(&b->reconf_lock);
    return ret;
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Wait until nothing slot issued can still reach memory. */
static int wait_mem_quiet(const struct board *b, unsigned slot)
{
    const uint64_t deadline = now_ns() + (uint64_t)MEM_QUIET_TIMEOUT_US * 1000u;
    for (;;) {
        if ((board_reg_read(b, WEFT_SLOT_REG(slot, WEFT_SLOT_REG_MEM_ACTIVE)) &
             WEFT_MEM_ACTIVE_BUSY) == 0) {
            return 0;
        }
        if (now_ns() >= deadline) {
            return -EBUSY;
        }
        usleep(MEM_QUIET_POLL_US);
    }
}

/* Write n bytes to a new file at path (replacing one there). */
static int write_file(const char *path, const uint8_t *data, size_t n)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    int ret = 0;

    if (fd < 0) {
        return -errno;
    }
    while (n > 0 && ret == 0) {
        ssize_t k = write(fd, data, n);
        if (k < 0 && errno != EINTR) {
            ret = -errno;
        } else if (k == 0) {
            ret = -EIO;
        } else if (k > 0) {
            data += k;
            n -= (size_t)k;
        }
    }
    if (close(fd) != 0 && ret == 0) {
        ret = -errno;
    }
    return ret;
}

__attribute__((format(printf, 3, 4))) static int program_failed(weft_program_result_t *res,
                                                                unsigned code, const char *fmt, ...)
{
    va_list ap;

    res->error = code;
    va_start(ap, fmt);
    vsnprintf(res->message, sizeof(res->message), fmt, ap);
    va_end(ap);
    return -EIO;
}

/* file is the caller's copy: the fabric cannot change it between the check and the load. */
static int program_locked(struct board *b, unsigned slot, const uint8_t *file, size_t size,
                          weft_program_result_t *res)
{
    const uint32_t ctl = WEFT_SLOT_REG(slot, WEFT_SLOT_REG_CONTROL);
    const uint64_t t0 = now_ns();
    weft_bitstream_info_t info;
    char why[160];
    char name[32];
    char *full;
    int ret;

    /* Decouple: whatever ran there is stopped and held in reset (as the port does). */
    board_reg_write(b, ctl,
                    (board_reg_read(b, ctl) | WEFT_CONTROL_RESET) & ~(uint32_t)WEFT_CONTROL_RUN);
    if (wait_mem_quiet(b, slot) != 0) {
        board_log(b, "slot %u: its memory traffic did not end within %u us; not programmed", slot,
                  MEM_QUIET_TIMEOUT_US);
        return -EBUSY;
    }
    unsigned code = weft_bitstream_verify(file, size, &info, why, sizeof(why));
    if (code != 0) {
        return program_failed(res, code, "slot %u: %s", slot, why);
    }
    if (slot >= 32 || (info.slot_mask & (1u << slot)) == 0) {
        return program_failed(res, WEFT_FRI_ERR_SLOT,
                              "slot %u: %s (%s) is built for slots 0x%" PRIx32, slot, info.image,
                              weft_bitstream_fri_error(WEFT_FRI_ERR_SLOT), info.slot_mask);
    }
    snprintf(name, sizeof(name), "weft-slot%u.bin", slot);
    full = board_path_join(b->firmware_dir, name);
    if (full == NULL) {
        return -ENOMEM;
    }
    ret = write_file(full, file + WEFT_BITSTREAM_HEADER_BYTES, info.payload_size);
    if (ret != 0) {
        program_failed(res, WEFT_FRI_ERR_LOAD, "slot %u: cannot write %s: %s", slot, full,
                       strerror(-ret));
    } else if ((ret = load_image(b, slot, name, full)) != 0) {
        program_failed(res, WEFT_FRI_ERR_LOAD, "slot %u: %s did not load %s: %s", slot,
                       b->reconf_method == WEFT_BOARD_RECONF_OVERLAY
                           ? "the overlay on its FPGA region"
                           : "the FPGA manager",
                       full, strerror(-ret));
    }
    free(full);
    if (ret != 0) {
        board_log(b, "%s", res->message);
        return -EIO;
    }
    /* On a board fabric time is wall time: the call's, at the fabric's clock (the cycle
     * counter's LO/HI pair is the runtime's to read, under its lock). */
    res->cycles = (now_ns() - t0) * board_reg_read(b, WEFT_REG_CLOCK_MHZ) / 1000u;
    res->bytes = (uint32_t)size;
    return 0;
}

int board_slot_program(weft_platform_t *p, unsigned slot, uint64_t bus, size_t size,
                       weft_program_result_t *res)
{
    struct board *b = board_of(p);
    int ret;

    if (slot >= b->num_slots || res == NULL) {
        return -EINVAL;
    }
    memset(res, 0, sizeof(*res));
    if (bus < b->dma_bus || size > b->dma_size || bus - b->dma_bus > b->dma_size - size) {
        return program_failed(res, WEFT_FRI_ERR_ARGS,
                              "slot %u: the file at 0x%" PRIx64 " (%zu bytes) is not inside "
                              "the DMA region",
                              slot, bus, size);
    }
    uint8_t *copy = malloc(size ? size : 1);
    if (copy == NULL) {
        return -ENOMEM;
    }
    memcpy(copy, (const uint8_t *)b->dma_cpu + (bus - b->dma_bus), size);
    pthread_mutex_lock(&b->reconf_lock);
    ret = program_locked(b, slot, copy, size, res);
    pthread_mutex_unlock(&b->reconf_lock);
    free(copy);
    return ret;
}
