/*
 * Board backend: slot reconfiguration through FPGA regions and device-tree overlays, the
 * way mainline Linux does partial reconfiguration.
 *
 * Each slot is an FPGA region node in the live device tree (compatible "fpga-region").
 * An overlay that targets the region and adds firmware-name (an image in the firmware
 * directory) and partial-fpga-config asks the kernel's of-fpga-region driver to program
 * it: the driver disables the region's FPGA bridges (if it lists any), has the FPGA
 * manager load the image as a partial bitstream, enables the bridges and only then
 * accepts the overlay into the live tree. Removing the overlay disables the bridges
 * again. A region takes one overlay at a time (a second is refused), so a slot's
 * previous overlay is removed before its next one is applied.
 *
 * Mainline Linux has no user-space interface for applying overlays. The one used here is
 * the configfs overlay interface of the out-of-tree patch that the Xilinx and ADI
 * kernels carry (CONFIG_OF_CONFIGFS), or of the dtbocfg module: mkdir of an item under
 * the overlays directory, the overlay blob written to its "dtbo" attribute, rmdir to
 * remove it. The patch applies the blob when "dtbo" is closed and shows the outcome in
 * "status" ("applied" or "unapplied"; configfs drops the write's own error, so status is
 * the word on it). dtbocfg only stores the blob; writing "1" to "status" applies it, and
 * status then reads "1" (else "0").
 *
 * The backend owns the item weft-slot<N> of each slot it loads, and removes them at
 * close. The overlay names its region by target-path rather than by a label (target =
 * <&pr0>), which would need the base tree built with symbols (dtc -@) and a __fixups__
 * node here. The blob is written with libfdt's sequential-write functions.
 */
#include <errno.h>
#include <fcntl.h>
#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "board_priv.h"

#define DEFAULT_OVERLAYS_DIR "/sys/kernel/config/device-tree/overlays"
#define DEFAULT_DEVICETREE_DIR "/sys/firmware/devicetree/base"

/* Longest region path accepted (node paths are short; this keeps messages whole). */
#define REGION_PATH_MAX 256

/* The blob is built in a buffer this size: dtbocfg takes at most a page less one byte,
 * and an overlay with a region path and a firmware name is a few hundred bytes. */
#define BLOB_MAX 4095

/* ---- open: the overlays directory and each slot's region ----------------------------- */

/* An absolute device-tree node path: '/'-separated node names (letters, digits and
 * ",._+-@"), no empty, "." or ".." component, not the root itself. */
static bool node_path_ok(const char *path)
{
    if (path[0] != '/' || path[1] == '\0' || strlen(path) >= REGION_PATH_MAX) {
        return false;
    }
    for (const char *c = path + 1;; c++) {
        size_t n = strcspn(c, "/");

        if (n == 0 || (n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.')) {
            return false;
        }
        if (strspn(c, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789,._+-@") < n) {
            return false;
        }
        c += n;
        if (*c == '\0') {
            return true;
        }
    }
}

/* Whether a "compatible" property (NUL-separated strings) lists "fpga-region". */
static bool lists_fpga_region(const char *prop, size_t len)
{
    static const char want[] = "fpga-region";

    for (size_t i = 0; i < len;) {
        size_t n = strnlen(prop + i, len - i);

        if (n == sizeof(want) - 1 && memcmp(prop + i, want, n) == 0) {
            return true;
        }
        i += n + 1;
    }
    return false;
}

/* The region node of slot must exist in the live tree and be an FPGA region. */
static int check_region(const struct board *b, const char *dt_dir, unsigned slot,
                        const char *region)
{
    char compat[1024];
    char *node = board_path_join(dt_dir, region + 1);
    char *file = node != NULL ? board_path_join(node, "compatible") : NULL;
    struct stat st;
    ssize_t n = -1;
    int ret = 0;
    int fd;

    if (file == NULL) {
        free(node);
        return -ENOMEM;
    }
    if (stat(node, &st) != 0) {
        ret = -errno;
        board_log(b, "slot %u: FPGA region %s is not in the live device tree (%s: %s)", slot,
                  region, node, strerror(-ret));
        goto out;
    }
    if (!S_ISDIR(st.st_mode)) {
        board_log(b, "slot %u: FPGA region %s is a property, not a node (%s)", slot, region, node);
        ret = -EINVAL;
        goto out;
    }
    fd = open(file, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        n = read(fd, compat, sizeof(compat));
        close(fd);
    }
    if (n < 0 || !lists_fpga_region(compat, (size_t)n)) {
        board_log(b,
                  "slot %u: %s is not an FPGA region: %s does not list \"fpga-region\"; "
                  "fpga_regions must name each slot's region node",
                  slot, region, file);
        ret = -EINVAL;
    }
out:
    free(file);
    free(node);
    return ret;
}

int board_overlay_open(struct board *b, const weft_board_config_t *cfg)
{
    const char *dir = cfg->overlays_dir != NULL ? cfg->overlays_dir : DEFAULT_OVERLAYS_DIR;
    const char *dt = cfg->devicetree_dir != NULL ? cfg->devicetree_dir : DEFAULT_DEVICETREE_DIR;
    struct stat st;
    int ret;

    b->overlays_dir = strdup(dir);
    if (b->overlays_dir == NULL) {
        return -ENOMEM;
    }
    if (stat(dir, &st) != 0) {
        ret = -errno;
        board_log(b,
                  "%s: device-tree overlay directory: %s (is configfs mounted at "
                  "/sys/kernel/config, with the overlay interface of CONFIG_OF_CONFIGFS or "
                  "the dtbocfg module?)",
                  dir, strerror(-ret));
        return ret;
    }
    if (!S_ISDIR(st.st_mode)) {
        board_log(b, "%s: device-tree overlay directory is not a directory", dir);
        return -ENOTDIR;
    }
    if (access(dir, W_OK) != 0) {
        ret = -errno;
        board_log(b, "%s: cannot make overlays there: %s", dir, strerror(-ret));
        return ret;
    }
    for (unsigned slot = 0; slot < b->num_slots; slot++) {
        const char *region = cfg->fpga_regions != NULL && slot < cfg->num_fpga_regions
                                 ? cfg->fpga_regions[slot]
                                 : NULL;

        if (region == NULL || region[0] == '\0') {
            board_log(b,
                      "slot %u has no FPGA region: reconfiguring by overlays needs "
                      "fpga_regions[%u], the device-tree path of its fpga-region node (the "
                      "static region has %u slots, %zu regions given)",
                      slot, slot, b->num_slots,
                      cfg->fpga_regions != NULL ? cfg->num_fpga_regions : 0);
            return -EINVAL;
        }
        if (!node_path_ok(region)) {
            board_log(b,
                      "slot %u: FPGA region \"%s\" is not an absolute device-tree node path "
                      "(such as /fpga-full/fpga-region-%u; a label such as &pr%u does not do)",
                      slot, region, slot, slot);
            return -EINVAL;
        }
        for (unsigned other = 0; other < slot; other++) {
            if (strcmp(b->region_path[other], region) == 0) {
                board_log(b, "slots %u and %u both name the FPGA region %s", other, slot, region);
                return -EINVAL;
            }
        }
        ret = check_region(b, dt, slot, region);
        if (ret != 0) {
            return ret;
        }
        b->region_path[slot] = strdup(region);
        if (b->region_path[slot] == NULL) {
            return -ENOMEM;
        }
    }

    return 0;
}

/* ---- the overlay -------------------------------------------------------------------- */

/* The overlay for region with firmware-name fw, in buf (cap bytes): one fragment whose
 * target is the region and whose __overlay__ adds firmware-name and partial-fpga-config.
 * Returns 0 or a libfdt error (negative FDT_ERR_*). */
static int build_overlay(void *buf, int cap, const char *region, const char *fw)
{
    int err = fdt_create(buf, cap);

    if (err == 0) {
        err = fdt_finish_reservemap(buf);
    }
    if (err == 0) {
        err = fdt_begin_node(buf, ""); /* the root */
    }
    if (err == 0) {
        err = fdt_begin_node(buf, "fragment@0");
    }
    if (err == 0) {
        err = fdt_property_string(buf, "target-path", region);
    }
    if (err == 0) {
        err = fdt_begin_node(buf, "__overlay__");
    }
    if (err == 0) {
        err = fdt_property_string(buf, "firmware-name", fw);
    }
    if (err == 0) {
        err = fdt_property(buf, "partial-fpga-config", "", 0); /* a boolean: no value */
    }
    for (int depth = 0; depth < 3 && err == 0; depth++) {
        err = fdt_end_node(buf); /* __overlay__, fragment@0, the root */
    }
    if (err == 0) {
        err = fdt_finish(buf);
    }
    return err;
}

/* The path of slot's overlay item, overlays_dir/weft-slot<N>; NULL when out of memory. */
static char *item_path(const struct board *b, unsigned slot)
{
    char name[32];

    snprintf(name, sizeof(name), "weft-slot%u", slot);
    return board_path_join(b->overlays_dir, name);
}

/* Remove slot's overlay item if there is one (ENOENT: there is none). */
static int remove_overlay(struct board *b, unsigned slot, const char *item)
{
    int ret;

    if (rmdir(item) == 0) {
        if (!b->overlay_applied[slot]) {
            board_log(b, "%s: removed the overlay item of slot %u that an earlier run left", item,
                      slot);
        }
        b->overlay_applied[slot] = false;
        return 0;
    }
    if (errno == ENOENT) {
        b->overlay_applied[slot] = false;
        return 0;
    }
    ret = -errno;
    board_log(b, "%s: cannot remove the overlay of slot %u: %s", item, slot, strerror(-ret));
    return ret;
}

/* Write the blob to the item's dtbo attribute in one write(); the configfs patch applies
 * it when the file is closed. Mainline configfs drops that error (status tells), a
 * proposed change returns it from close(), so close() is checked too. */
static int write_blob(const struct board *b, const char *path, const void *blob, size_t size)
{
    char what[64];

    snprintf(what, sizeof(what), "the overlay (%zu bytes)", size);
    return board_write_bytes(b, path, blob, size, false, what);
}

/* Whether the overlay went in, by its status attribute; with dtbocfg ("0": stored, not
 * applied) apply it first. */
static int check_applied(const struct board *b, unsigned slot, const char *status, const char *fw)
{
    char state[64];
    int ret = board_read_line(b, status, state, sizeof(state), false);

    if (ret == 0 && strcmp(state, "0") == 0) {
        ret = board_write_text(b, status, "1");
        if (ret == 0) {
            ret = board_read_line(b, status, state, sizeof(state), false);
        }
    }
    if (ret != 0) {
        return ret;
    }
    if (strcmp(state, "applied") == 0 || strcmp(state, "1") == 0) {
        return 0;
    }
    board_log(b,
              "%s: reads \"%s\" after the overlay loading %s into slot %u's FPGA region %s was "
              "written: the kernel refused it (its log says why)",
              status, state, fw, slot, b->region_path[slot]);
    return -EIO;
}

int board_overlay_load(struct board *b, unsigned slot, const char *name, const char *full)
{
    const char *region = b->region_path[slot];
    char *item = item_path(b, slot);
    char *dtbo = NULL;
    char *status = NULL;
    void *blob = NULL;
    int err;
    int ret = -ENOMEM;

    if (item != NULL) {
        dtbo = board_path_join(item, "dtbo");
        status = board_path_join(item, "status");
        blob = malloc(BLOB_MAX);
    }
    if (dtbo == NULL || status == NULL || blob == NULL) {
        goto out;
    }
    err = build_overlay(blob, BLOB_MAX, region, name);
    if (err != 0) {
        board_log(b, "slot %u: cannot build the overlay for %s: %s", slot, full, fdt_strerror(err));
        ret = err == -FDT_ERR_NOSPACE ? -ENAMETOOLONG : -EINVAL;
        goto out;
    }
    /* A region takes one overlay at a time: the slot's previous one goes first. */
    ret = remove_overlay(b, slot, item);
    if (ret != 0) {
        goto out;
    }
    if (mkdir(item, 0755) != 0) {
        ret = -errno;
        board_log(b, "%s: cannot make the overlay of slot %u: %s", item, slot, strerror(-ret));
        goto out;
    }
    ret = write_blob(b, dtbo, blob, fdt_totalsize(blob));
    if (ret == 0) {
        ret = check_applied(b, slot, status, full);
    }
    if (ret == 0) {
        b->overlay_applied[slot] = true;
    } else if (rmdir(item) != 0 && errno != ENOENT) {
        /* The slot is empty either way; an item left behind goes at the next load. */
        board_log(b, "%s: cannot remove the overlay that failed: %s", item, strerror(errno));
    }
out:
    free(blob);
    free(status);
    free(dtbo);
    free(item);
    return ret;
}

void board_overlay_close(struct board *b)
{
    for (unsigned slot = 0; slot < BOARD_MAX_SLOTS; slot++) {
        if (b->overlay_applied[slot]) {
            char *item = item_path(b, slot);

            if (item != NULL) {
                remove_overlay(b, slot, item);
                free(item);
            }
        }
        free(b->region_path[slot]);
        b->region_path[slot] = NULL;
    }
    free(b->overlays_dir);
    b->overlays_dir = NULL;
}
