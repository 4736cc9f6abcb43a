/*
 * Softcore programs (weft/softcore.h): an ELF file into the RAM image the core starts from.
 *
 * The file comes from outside the process (a build directory, a user's copy), so it is
 * hostile input: elfutils' libelf reads it (no ELF parser is written here), every field
 * the image depends on is checked before it is used, and every refusal names what is
 * wrong in words a person can act on. Offsets and sizes are compared by subtraction from
 * a known bound, never by an addition that could wrap.
 */
#define _POSIX_C_SOURCE 200809L
#include "weft/softcore.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A program for a RAM of kilobytes is never this large: refuse before reading it all. */
#define MAX_FILE_BYTES ((size_t)64 << 20)

/* A loadable segment, checked: where its bytes are in the file and in memory. */
typedef struct segment {
    size_t index; /* its program header's index, as readelf numbers it */
    uint32_t vaddr, memsz, offset, filesz;
} segment_t;

/* The loadable segments of a file that passed every check. */
typedef struct layout {
    segment_t *seg;
    size_t count;
} layout_t;

/* Name what is wrong in why; the error code, so a check reads `return refuse(...)`. */
__attribute__((format(printf, 4, 5))) static int refuse(char *why, size_t why_len, int rc,
                                                        const char *fmt, ...)
{
    if (why && why_len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, why_len, fmt, ap);
        va_end(ap);
    }
    return rc;
}

/* libelf must agree on the ELF version before any other call. Once, so that two threads
 * loading programs at the same time do not race on libelf's global. */
static pthread_once_t elf_once = PTHREAD_ONCE_INIT;
static bool elf_ready;

static void elf_init(void)
{
    elf_ready = elf_version(EV_CURRENT) != EV_NONE;
}

/* What both entry points promise before anything can fail: a zeroed image and a
 * terminated, empty why. */
static void start(weft_softcore_image_t *out, char *why, size_t why_len)
{
    if (out)
        memset(out, 0, sizeof *out);
    if (why && why_len)
        why[0] = '\0';
}

/* The RAM size is the caller's: an image is sized in words, so the RAM must be too. */
static int check_ram(uint32_t ram_bytes, char *why, size_t why_len)
{
    if (ram_bytes == 0 || ram_bytes % 4 != 0)
        return refuse(why, why_len, -EINVAL, "RAM size %" PRIu32 " is not a non-zero multiple of 4",
                      ram_bytes);
    return 0;
}

/* libelf opens no descriptor, or one of kind ELF_K_NONE, for a file whose identification
 * it does not accept, and says little more: name the reason it had. */
static int refuse_unopened(Elf *e, const uint8_t *file, size_t len, char *why, size_t why_len)
{
    const char *libelf_says = elf_errmsg(-1); /* before any other call replaces it */
    if (e && elf_kind(e) == ELF_K_AR)
        return refuse(why, why_len, -ENOEXEC, "an ar archive, not an ELF file");
    if (len < SELFMAG || memcmp(file, ELFMAG, SELFMAG) != 0)
        return refuse(why, why_len, -ENOEXEC, "not an ELF file");
    if (len < sizeof(Elf32_Ehdr))
        return refuse(why, why_len, -ENOEXEC, "ELF header truncated: the file has %zu bytes", len);
    if (!e)
        return refuse(why, why_len, -ENOEXEC, "not a readable ELF file (libelf: %s)",
                      libelf_says ? libelf_says : "no reason given");
    return refuse(why, why_len, -ENOEXEC,
                  "ELF identification not understood (class %u, data %u, version %u)",
                  file[EI_CLASS], file[EI_DATA], file[EI_VERSION]);
}

/* The identification bytes: the core is a 32-bit little-endian machine. */
static int check_ident(Elf *e, char *why, size_t why_len)
{
    const char *id = elf_getident(e, NULL);
    if (!id)
        return refuse(why, why_len, -ENOEXEC, "ELF identification unreadable (libelf: %s)",
                      elf_errmsg(-1));
    unsigned cls = (unsigned char)id[EI_CLASS], data = (unsigned char)id[EI_DATA];
    if (cls != ELFCLASS32)
        return refuse(why, why_len, -ENOEXEC, "ELF class %s; the softcore is 32-bit",
                      cls == ELFCLASS64 ? "64-bit" : "unknown");
    if (data != ELFDATA2LSB)
        return refuse(why, why_len, -ENOEXEC, "%s ELF file; the softcore is little-endian",
                      data == ELFDATA2MSB ? "big-endian" : "byte order unknown");
    if ((unsigned char)id[EI_VERSION] != EV_CURRENT)
        return refuse(why, why_len, -ENOEXEC, "ELF version %u, not the current one (%u)",
                      (unsigned char)id[EI_VERSION], EV_CURRENT);
    return 0;
}

/* The ELF header: a RISC-V executable the core can run as built, from address 0. The
 * flags name what the compiler assumed of the core; each hint says how to build for it. */
static int check_header(const GElf_Ehdr *eh, char *why, size_t why_len)
{
    if (eh->e_version != EV_CURRENT)
        return refuse(why, why_len, -ENOEXEC, "ELF version %" PRIu32 ", not the current one (%u)",
                      (uint32_t)eh->e_version, EV_CURRENT);
    if (eh->e_machine != EM_RISCV)
        return refuse(why, why_len, -ENOEXEC, "machine %u, not RISC-V (%u)",
                      (unsigned)eh->e_machine, EM_RISCV);
    if (eh->e_type != ET_EXEC)
        return refuse(why, why_len, -ENOEXEC, "not an executable (ELF type %u)",
                      (unsigned)eh->e_type);
    if (eh->e_flags & EF_RISCV_RVC)
        return refuse(why, why_len, -ENOEXEC,
                      "compressed instructions (EF_RISCV_RVC): the core runs RV32IM; "
                      "build with -march=rv32im_zicsr");
    if (eh->e_flags & EF_RISCV_RVE)
        return refuse(
            why, why_len, -ENOEXEC,
            "RV32E ABI (EF_RISCV_RVE): the core has 32 registers; build with -mabi=ilp32");
    if (eh->e_flags & EF_RISCV_FLOAT_ABI)
        return refuse(why, why_len, -ENOEXEC,
                      "floating-point ABI in e_flags 0x%08" PRIx32 ": the core has no FPU; "
                      "build with -mabi=ilp32",
                      (uint32_t)eh->e_flags);
    if (eh->e_entry != 0)
        return refuse(why, why_len, -ENOEXEC,
                      "entry 0x%08" PRIx64 "; the core starts every context at 0",
                      (uint64_t)eh->e_entry);
    return 0;
}

/* The program header table: libelf reads entries of its own size and quietly drops the
 * ones past the end of the file, so both are checked here rather than trusted. */
static int check_phdrs(Elf *e, const GElf_Ehdr *eh, size_t *count, char *why, size_t why_len)
{
    if (elf_getphdrnum(e, count) != 0)
        return refuse(why, why_len, -ENOEXEC, "program headers unreadable (libelf: %s)",
                      elf_errmsg(-1));
    if (*count > INT_MAX) /* gelf_getphdr takes an int */
        return refuse(why, why_len, -ENOEXEC, "%zu program headers, too many", *count);
    if (*count > 0 && eh->e_phentsize != sizeof(Elf32_Phdr))
        return refuse(why, why_len, -ENOEXEC, "program header size %u, not %zu",
                      (unsigned)eh->e_phentsize, sizeof(Elf32_Phdr));
    if (eh->e_phnum != PN_XNUM && *count < eh->e_phnum)
        return refuse(why, why_len, -ENOEXEC,
                      "%u program headers at 0x%08" PRIx64 " run past the file's end",
                      (unsigned)eh->e_phnum, (uint64_t)eh->e_phoff);
    return 0;
}

/* One loadable segment with bytes in memory: its file bytes inside the file and no more
 * of them than it has memory, its memory inside the RAM. */
static int check_segment(const GElf_Phdr *ph, size_t i, size_t len, uint32_t ram, char *why,
                         size_t why_len)
{
    if (ph->p_filesz > ph->p_memsz)
        return refuse(why, why_len, -ENOEXEC,
                      "segment %zu has 0x%" PRIx64 " file bytes, more than its 0x%" PRIx64
                      " bytes of memory",
                      i, (uint64_t)ph->p_filesz, (uint64_t)ph->p_memsz);
    if (ph->p_filesz > len || ph->p_offset > len - ph->p_filesz)
        return refuse(why, why_len, -ENOEXEC,
                      "segment %zu file bytes 0x%08" PRIx64 " + 0x%" PRIx64
                      " run past the file's %zu bytes",
                      i, (uint64_t)ph->p_offset, (uint64_t)ph->p_filesz, len);
    if (ph->p_memsz > ram || ph->p_vaddr > ram - ph->p_memsz)
        return refuse(why, why_len, -EFBIG,
                      "segment %zu (0x%08" PRIx64 "..0x%08" PRIx64 ") ends past the %" PRIu32
                      "-byte RAM",
                      i, (uint64_t)ph->p_vaddr, (uint64_t)(ph->p_vaddr + ph->p_memsz), ram);
    return 0;
}

/* Every loadable segment that puts bytes in memory, checked, into lay->seg (room for
 * count). Empty ones give the RAM nothing and are skipped, as are other types. */
static int read_segments(Elf *e, size_t count, size_t len, uint32_t ram, layout_t *lay, char *why,
                         size_t why_len)
{
    for (size_t i = 0; i < count; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(e, (int)i, &ph))
            return refuse(why, why_len, -ENOEXEC, "program header %zu unreadable (libelf: %s)", i,
                          elf_errmsg(-1));
        if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
            continue;
        int rc = check_segment(&ph, i, len, ram, why, why_len);
        if (rc)
            return rc;
        /* Checked above: every value fits the RAM or the file, so in 32 bits. */
        lay->seg[lay->count++] = (segment_t){.index = i,
                                             .vaddr = (uint32_t)ph.p_vaddr,
                                             .memsz = (uint32_t)ph.p_memsz,
                                             .offset = (uint32_t)ph.p_offset,
                                             .filesz = (uint32_t)ph.p_filesz};
    }
    if (lay->count == 0)
        return refuse(why, why_len, -ENOEXEC, "no loadable segment");
    return 0;
}

/* qsort order: by address, then by index, so a report names the same pair every time. */
static int by_address(const void *a, const void *b)
{
    const segment_t *x = a, *y = b;
    if (x->vaddr != y->vaddr)
        return x->vaddr < y->vaddr ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Two segments over the same bytes would make the image depend on the order they are
 * copied in. Sorted by address, segments are disjoint when each starts at or after the
 * end of the one before: n log n, whatever a hostile file's count of segments. */
static int check_overlaps(layout_t *lay, char *why, size_t why_len)
{
    qsort(lay->seg, lay->count, sizeof lay->seg[0], by_address);
    for (size_t k = 1; k < lay->count; k++) {
        const segment_t *a = &lay->seg[k - 1], *b = &lay->seg[k];
        if (b->vaddr < a->vaddr + a->memsz) /* no wrap: both end inside the RAM */
            return refuse(why, why_len, -ENOEXEC, "segments %zu and %zu overlap",
                          a->index < b->index ? a->index : b->index,
                          a->index < b->index ? b->index : a->index);
    }
    return 0;
}

/* Every check on a file libelf has opened, in the order a reader of the refusal wants
 * them: what the file is, what it was built for, then its segments. */
static int check_elf(Elf *e, const uint8_t *file, size_t len, uint32_t ram, layout_t *lay,
                     char *why, size_t why_len)
{
    if (elf_kind(e) != ELF_K_ELF)
        return refuse_unopened(e, file, len, why, why_len);
    int rc = check_ident(e, why, why_len);
    if (rc)
        return rc;
    GElf_Ehdr eh;
    if (!gelf_getehdr(e, &eh))
        return refuse(why, why_len, -ENOEXEC, "ELF header unreadable (libelf: %s)", elf_errmsg(-1));
    rc = check_header(&eh, why, why_len);
    if (rc)
        return rc;
    size_t count = 0;
    rc = check_phdrs(e, &eh, &count, why, why_len);
    if (rc)
        return rc;
    if (count > 0 && !(lay->seg = calloc(count, sizeof lay->seg[0])))
        return refuse(why, why_len, -ENOMEM, "out of memory for %zu program headers", count);
    rc = read_segments(e, count, len, ram, lay, why, why_len);
    if (rc)
        return rc;
    return check_overlaps(lay, why, why_len);
}

/* libelf reads a private copy: elf_memory takes a writable image, and the caller's bytes
 * are theirs. */
static int check_file(const uint8_t *file, size_t len, uint32_t ram, layout_t *lay, char *why,
                      size_t why_len)
{
    char *copy = malloc(len ? len : 1);
    if (!copy)
        return refuse(why, why_len, -ENOMEM, "out of memory for a copy of %zu bytes", len);
    if (len)
        memcpy(copy, file, len);
    Elf *e = elf_memory(copy, len);
    int rc = e ? check_elf(e, file, len, ram, lay, why, why_len)
               : refuse_unopened(NULL, file, len, why, why_len);
    elf_end(e);
    free(copy);
    return rc;
}

/* The image: the segments' file bytes at their addresses, 0 everywhere else, up to the
 * end of the highest segment rounded up to a word (within the RAM: it is a multiple of
 * 4 and every segment ends inside it). */
static int build_image(const uint8_t *file, const layout_t *lay, weft_softcore_image_t *out,
                       char *why, size_t why_len)
{
    uint32_t end = 0;
    for (size_t k = 0; k < lay->count; k++)
        if (lay->seg[k].vaddr + lay->seg[k].memsz > end)
            end = lay->seg[k].vaddr + lay->seg[k].memsz;
    uint32_t size = (uint32_t)(((uint64_t)end + 3) & ~(uint64_t)3);
    uint8_t *bytes = calloc(size, 1);
    if (!bytes)
        return refuse(why, why_len, -ENOMEM, "out of memory for a %" PRIu32 "-byte image", size);
    for (size_t k = 0; k < lay->count; k++)
        memcpy(bytes + lay->seg[k].vaddr, file + lay->seg[k].offset, lay->seg[k].filesz);
    out->bytes = bytes;
    out->size = size;
    return 0;
}

int weft_softcore_image_from_elf(const void *elf, size_t len, uint32_t ram_bytes,
                                 weft_softcore_image_t *out, char *why, size_t why_len)
{
    start(out, why, why_len);
    if (!elf || !out)
        return refuse(why, why_len, -EINVAL, "no ELF file or no image given");
    int rc = check_ram(ram_bytes, why, why_len);
    if (rc)
        return rc;
    pthread_once(&elf_once, elf_init);
    if (!elf_ready)
        return refuse(why, why_len, -ENOEXEC, "libelf does not read ELF version %u", EV_CURRENT);
    layout_t lay = {0};
    rc = check_file(elf, len, ram_bytes, &lay, why, why_len);
    if (rc == 0)
        rc = build_image(elf, &lay, out, why, why_len);
    free(lay.seg);
    return rc;
}

/* Read on, growing the buffer, until the end of the file: its size when opened is only a
 * hint (a pipe has none, a file may grow), and no more than the limit is ever held. */
static int read_all(int fd, size_t hint, uint8_t **buf, size_t *len)
{
    size_t cap = hint < MAX_FILE_BYTES ? hint + 1 : MAX_FILE_BYTES + 1;
    uint8_t *b = malloc(cap);
    if (!b)
        return -ENOMEM;
    size_t n = 0;
    for (;;) {
        if (n == cap) {
            if (cap > MAX_FILE_BYTES) {
                free(b);
                return -EFBIG;
            }
            cap = cap > MAX_FILE_BYTES / 2 ? MAX_FILE_BYTES + 1 : cap * 2;
            uint8_t *more = realloc(b, cap);
            if (!more) {
                free(b);
                return -ENOMEM;
            }
            b = more;
        }
        ssize_t got = read(fd, b + n, cap - n);
        if (got == 0)
            break;
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int err = errno;
            free(b);
            return -err;
        }
        n += (size_t)got;
    }
    *buf = b;
    *len = n;
    return 0;
}

/* A whole file into memory, or a why that names it. */
static int read_file(const char *path, uint8_t **buf, size_t *len, char *why, size_t why_len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        int err = errno;
        return refuse(why, why_len, -err, "%s: %s", path, strerror(err));
    }
    struct stat st;
    size_t hint = 65536; /* a pipe or a device says nothing of its size */
    int rc = 0;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        if ((uintmax_t)st.st_size > MAX_FILE_BYTES)
            rc = -EFBIG; /* not read at all */
        else
            hint = (size_t)st.st_size;
    }
    if (rc == 0)
        rc = read_all(fd, hint, buf, len);
    close(fd);
    if (rc == -EFBIG)
        return refuse(why, why_len, rc, "%s: larger than the %zu MiB a program file may have", path,
                      MAX_FILE_BYTES >> 20);
    if (rc)
        return refuse(why, why_len, rc, "%s: %s", path, strerror(-rc));
    return 0;
}

int weft_softcore_image_load(const char *path, uint32_t ram_bytes, weft_softcore_image_t *out,
                             char *why, size_t why_len)
{
    start(out, why, why_len);
    if (!path || !out)
        return refuse(why, why_len, -EINVAL, "no path or no image given");
    int rc = check_ram(ram_bytes, why, why_len);
    if (rc)
        return rc;
    uint8_t *file = NULL;
    size_t len = 0;
    rc = read_file(path, &file, &len, why, why_len);
    if (rc)
        return rc;
    char inner[256] = "";
    rc = weft_softcore_image_from_elf(file, len, ram_bytes, out, inner, sizeof inner);
    free(file);
    if (rc)
        return refuse(why, why_len, rc, "%s: %s", path, inner);
    return 0;
}

void weft_softcore_image_free(weft_softcore_image_t *img)
{
    if (!img)
        return;
    free(img->bytes);
    memset(img, 0, sizeof *img);
}
