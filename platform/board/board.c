/*
 * Board backend: opening and closing, the register window, shared helpers.
 *
 * The register window is map 0 of a UIO device, mapped once and accessed with volatile
 * 32-bit loads and stores; nothing else is needed to keep MMIO calls from several threads
 * apart, each is one bus transaction.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "board_priv.h"
#include "weft/osif_protocol.h"

/* ---- helpers ------------------------------------------------------------------------ */

void board_log(const struct board *b, const char *fmt, ...)
{
    char msg[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (b != NULL && b->log != NULL) {
        b->log(b->log_arg, msg);
    } else {
        fprintf(stderr, "weft board: %s\n", msg);
    }
}

char *board_path_join(const char *dir, const char *name)
{
    size_t dl = strlen(dir);
    size_t nl = strlen(name);
    char *s = malloc(dl + nl + 2);

    if (s == NULL) {
        return NULL;
    }
    memcpy(s, dir, dl);
    while (dl > 1 && s[dl - 1] == '/') {
        dl--;
    }
    s[dl] = '/';
    memcpy(s + dl + 1, name, nl + 1);
    return s;
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

/*
 * Parse one unsigned number filling all of s except surrounding white space. Written out
 * by hand rather than with strtoull so that signs, octal and overflow are all rejected.
 */
static int parse_u64(const char *s, bool hex, uint64_t *value)
{
    unsigned base = 10;
    uint64_t v = 0;
    bool any = false;

    while (is_space(*s)) {
        s++;
    }
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    } else if (hex) {
        base = 16;
    }
    for (; *s != '\0' && !is_space(*s); s++) {
        int d = hex_digit(*s);

        if (d < 0 || (unsigned)d >= base) {
            return -EINVAL;
        }
        if (v > (UINT64_MAX - (uint64_t)d) / base) {
            return -EINVAL;
        }
        v = v * base + (uint64_t)d;
        any = true;
    }
    while (is_space(*s)) {
        s++;
    }
    if (!any || *s != '\0') {
        return -EINVAL;
    }
    *value = v;
    return 0;
}

int board_read_u64_file(const struct board *b, const char *path, bool hex, const char *what,
                        uint64_t *value)
{
    char buf[64];
    size_t len = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    int ret = 0;

    if (fd < 0) {
        ret = -errno;
        board_log(b, "%s: cannot open %s: %s", path, what, strerror(-ret));
        return ret;
    }
    for (;;) {
        ssize_t n = read(fd, buf + len, sizeof(buf) - 1 - len);

        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            ret = -errno;
            board_log(b, "%s: cannot read %s: %s", path, what, strerror(-ret));
            break;
        }
        if (n == 0) {
            break;
        }
        len += (size_t)n;
        if (len == sizeof(buf) - 1) {
            ret = -EINVAL;
            board_log(b, "%s: malformed %s: longer than %zu bytes", path, what, len);
            break;
        }
    }
    close(fd);
    if (ret != 0) {
        return ret;
    }
    buf[len] = '\0';
    if (memchr(buf, '\0', len) != NULL || parse_u64(buf, hex, value) != 0) {
        /* Quote at most the first line, without its newline. */
        int shown = (int)strcspn(buf, "\n");

        board_log(b, "%s: malformed %s: expected one %s number, found \"%.*s\"", path, what,
                  hex ? "hexadecimal" : "decimal", shown, buf);
        return -EINVAL;
    }
    return 0;
}

int board_write_bytes(const struct board *b, const char *path, const void *data, size_t size,
                      bool truncate, const char *what)
{
    ssize_t n;
    int ret = 0;
    int fd = open(path, O_WRONLY | O_CLOEXEC | (truncate ? O_TRUNC : 0));

    if (fd < 0) {
        ret = -errno;
        board_log(b, "%s: cannot open: %s", path, strerror(-ret));
        return ret;
    }
    do {
        n = write(fd, data, size);
    } while (n < 0 && errno == EINTR);
    if (n < 0) {
        ret = -errno;
    } else if ((size_t)n != size) {
        ret = -EIO;
    }
    if (close(fd) != 0 && ret == 0) {
        ret = -errno;
    }
    if (ret != 0) {
        board_log(b, "%s: writing %s failed: %s", path, what, strerror(-ret));
    }
    return ret;
}

int board_write_text(const struct board *b, const char *path, const char *text)
{
    char what[96];

    snprintf(what, sizeof(what), "\"%s\"", text);
    return board_write_bytes(b, path, text, strlen(text), true, what);
}

int board_read_line(const struct board *b, const char *path, char *buf, size_t cap, bool missing_ok)
{
    size_t len = 0;
    int ret = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);

    buf[0] = '\0';
    if (fd < 0) {
        if (errno == ENOENT && missing_ok) {
            return 0;
        }
        ret = -errno;
        board_log(b, "%s: cannot open: %s", path, strerror(-ret));
        return ret;
    }
    /* To the end (or cap): one read() gives all of an attribute, but need not elsewhere. */
    while (len < cap - 1) {
        ssize_t n = read(fd, buf + len, cap - 1 - len);

        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            ret = -errno;
            board_log(b, "%s: cannot read: %s", path, strerror(-ret));
            break;
        }
        if (n == 0) {
            break;
        }
        len += (size_t)n;
    }
    close(fd);
    buf[len] = '\0';
    buf[strcspn(buf, "\r\n")] = '\0';
    return ret;
}

/* ---- register window ---------------------------------------------------------------- */

static int check_offset(const struct board *b, uint32_t offset)
{
    if ((offset & 3u) != 0 || (size_t)offset + 4u > b->map_size) {
        return -EINVAL;
    }
    return 0;
}

static int board_mmio_read(weft_platform_t *p, uint32_t offset, uint32_t *value)
{
    struct board *b = board_of(p);

    if (value == NULL || check_offset(b, offset) != 0) {
        return -EINVAL;
    }
    *value = board_reg_read(b, offset);
    return 0;
}

static int board_mmio_write(weft_platform_t *p, uint32_t offset, uint32_t value)
{
    struct board *b = board_of(p);

    if (check_offset(b, offset) != 0) {
        return -EINVAL;
    }
    board_reg_write(b, offset, value);
    return 0;
}

static unsigned board_num_slots(weft_platform_t *p)
{
    return board_of(p)->num_slots;
}

static int regs_open(struct board *b, const char *path, size_t map_size)
{
    struct stat st;
    void *m;
    uint32_t id;
    uint32_t version;
    uint32_t slots;
    int ret;

    b->uio_fd = open(path, O_RDWR | O_CLOEXEC);
    if (b->uio_fd < 0) {
        ret = -errno;
        board_log(b, "%s: cannot open the register window's UIO device: %s", path, strerror(-ret));
        return ret;
    }
    if (fstat(b->uio_fd, &st) != 0) {
        ret = -errno;
        board_log(b, "%s: cannot stat: %s", path, strerror(-ret));
        return ret;
    }
    /* A regular file stands in for the device in tests; touching past its end would
     * raise SIGBUS, so insist it covers the window. */
    if (S_ISREG(st.st_mode) && (uint64_t)st.st_size < (uint64_t)map_size) {
        board_log(b, "%s: register window file holds %jd bytes, the window needs %zu", path,
                  (intmax_t)st.st_size, map_size);
        return -EINVAL;
    }
    m = mmap(NULL, map_size, PROT_READ | PROT_WRITE, MAP_SHARED, b->uio_fd, 0);
    if (m == MAP_FAILED) {
        ret = -errno;
        board_log(b, "%s: cannot map %zu bytes of the register window: %s", path, map_size,
                  strerror(-ret));
        return ret;
    }
    b->regs = m;
    b->map_size = map_size;

    id = board_reg_read(b, WEFT_REG_ID);
    if (id != WEFT_REG_ID_VALUE) {
        board_log(b,
                  "%s: ID register reads 0x%08" PRIx32 ", not 0x%08x ('WEFT'): not the Weft "
                  "static region (wrong UIO device?)",
                  path, id, WEFT_REG_ID_VALUE);
        return -ENODEV;
    }
    version = board_reg_read(b, WEFT_REG_VERSION);
    if (version != WEFT_OSIF_VERSION) {
        board_log(b,
                  "%s: static region speaks protocol version %" PRIu32
                  ", this library version %u: rebuild the bitstream or the library",
                  path, version, WEFT_OSIF_VERSION);
        return -ENODEV;
    }
    slots = board_reg_read(b, WEFT_REG_NUM_SLOTS);
    if (slots == 0 || slots > BOARD_MAX_SLOTS) {
        board_log(b, "%s: NUM_SLOTS reads %" PRIu32 ", expected 1 to %u", path, slots,
                  BOARD_MAX_SLOTS);
        return -ENODEV;
    }
    if ((size_t)WEFT_SLOT_REG(slots, 0) > map_size) {
        board_log(b, "%s: %" PRIu32 " slots need a window of 0x%x bytes, only %zu mapped", path,
                  slots, (unsigned)WEFT_SLOT_REG(slots, 0), map_size);
        return -ENODEV;
    }
    b->num_slots = slots;
    return 0;
}

/* ---- open and close ----------------------------------------------------------------- */

static void board_release(struct board *b)
{
    board_irq_close(b);
    board_fpga_close(b);
    board_dma_close(b);
    if (b->regs != NULL) {
        munmap((void *)b->regs, b->map_size);
    }
    if (b->uio_fd >= 0) {
        close(b->uio_fd);
    }
    free(b);
}

static void board_close(weft_platform_t *p)
{
    if (p != NULL) {
        board_release(board_of(p));
    }
}

static const weft_platform_ops_t board_ops = {
    .mmio_read = board_mmio_read,
    .mmio_write = board_mmio_write,
    .irq_wait = board_irq_wait,
    .irq_cancel = board_irq_cancel,
    .dma_region = board_dma_region,
    .slot_reconfigure = board_slot_reconfigure,
    .slot_program = board_slot_program,
    .num_slots = board_num_slots,
    .close = board_close,
};

int weft_board_open(weft_platform_t **out, const weft_board_config_t *cfg)
{
    static const weft_board_config_t defaults;
    struct board *b;
    size_t map_size;
    int ret;

    if (out == NULL) {
        return -EINVAL;
    }
    *out = NULL;
    if (cfg == NULL) {
        cfg = &defaults;
    }
    map_size = cfg->uio_map_size != 0 ? cfg->uio_map_size : WEFT_BOARD_DEFAULT_MAP_SIZE;
    if ((map_size & 3u) != 0 || map_size < WEFT_SLOT_BASE + WEFT_SLOT_STRIDE) {
        struct board tmp = {.log = cfg->log, .log_arg = cfg->log_arg};

        board_log(&tmp, "register window size %zu is not a multiple of 4 of at least %u", map_size,
                  (unsigned)(WEFT_SLOT_BASE + WEFT_SLOT_STRIDE));
        return -EINVAL;
    }

    b = calloc(1, sizeof(*b));
    if (b == NULL) {
        return -ENOMEM;
    }
    b->base.ops = &board_ops;
    b->base.name = "board";
    b->log = cfg->log;
    b->log_arg = cfg->log_arg;
    b->uio_fd = -1;
    b->dma_fd = -1;
    b->irq_fd = -1;
    b->irq_enable_fd = -1;
    b->wake_fd = -1;

    ret = regs_open(b, cfg->uio_path != NULL ? cfg->uio_path : BOARD_DEFAULT_UIO_PATH, map_size);
    if (ret == 0) {
        ret = board_dma_open(b, cfg);
    }
    if (ret == 0) {
        ret = board_fpga_open(b, cfg);
    }
    if (ret == 0) {
        ret = board_irq_open(b, cfg);
    }
    if (ret != 0) {
        board_release(b);
        return ret;
    }
    *out = &b->base;
    return 0;
}
