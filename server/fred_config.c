/*
 * FRED's configuration files read as weftd's (config.h, docs/server.md "FRED's clients"):
 *
 *   arch.csv      <partition name> <slots>
 *   hw_tasks.csv  <name> <id> <timeout> <partition> <bitstream dir> <buffer size>...
 *
 * Fields are separated by commas, spaces or tabs; a line whose first field starts with
 * '#' is a comment, as is a blank line. Partitions get consecutive slots from 0 in file
 * order. The timeout is in microseconds, as FRED's server arms its watchdog; a value
 * with a unit ("20ms", "500us") says its own, and a comment that names the column
 * "timeout_ms" (as FRED's generator writes) makes bare numbers milliseconds. 0 is
 * FRED's default, 10 s. FRED's older layout without the timeout column (the third field
 * a partition name, not a number) is read too. A task's bitstream is
 * <dir>/<bitstream dir>/<partition>/<name>.wbit: a Weft partial bitstream file.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

#define MAX_FIELDS 16
#define FRED_DEFAULT_TIMEOUT_US 10000000u

/* Split line into at most MAX_FIELDS fields in place; their number, or -1 if more. */
static int split(char *line, char **field)
{
    int n = 0;
    for (char *tok = strtok(line, " ,\t\r\n"); tok; tok = strtok(NULL, " ,\t\r\n")) {
        if (n == MAX_FIELDS)
            return -1;
        field[n++] = tok;
    }
    return n;
}

/* A whole decimal number of at most max; false if s is not one. */
static bool number(const char *s, unsigned long long max, unsigned long long *out)
{
    if (!isdigit((unsigned char)s[0]))
        return false;
    errno = 0;
    char *end;
    *out = strtoull(s, &end, 10);
    return errno == 0 && *end == '\0' && *out <= max;
}

/* A timeout: digits and an optional unit ("us", "ms"); bare numbers are in unit_us. */
static bool timeout(const char *s, unsigned long long unit_us, uint64_t *out)
{
    char digits[32];
    size_t n = strspn(s, "0123456789");
    if (n == 0 || n >= sizeof digits)
        return false;
    memcpy(digits, s, n);
    digits[n] = '\0';
    unsigned long long v;
    if (!number(digits, 1ull << 40, &v))
        return false;
    if (!strcmp(s + n, "ms"))
        unit_us = 1000;
    else if (!strcmp(s + n, "us"))
        unit_us = 1;
    else if (s[n] != '\0')
        return false;
    *out = v == 0 ? FRED_DEFAULT_TIMEOUT_US : v * unit_us;
    return true;
}

typedef int (*line_fn)(char **field, int n, unsigned lineno, weftd_config_t *c, const char *dir,
                       unsigned long long unit_us, char *why, size_t len);

/* Call fn for every line of dir/name that is not a comment; unit_us becomes 1000 where a
 * comment names a "timeout_ms" column. */
static int each_line(const char *dir, const char *name, line_fn fn, weftd_config_t *c, char *why,
                     size_t len)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (!f) {
        int e = errno;
        snprintf(why, len, "%s: %s", path, strerror(e));
        return -e;
    }
    char line[1024], sub[300];
    unsigned lineno = 0;
    unsigned long long unit_us = 1;
    int rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        lineno++;
        if (!strchr(line, '\n') && !feof(f)) {
            rc = weftd_config_refuse(why, len, "%s:%u: longer than %zu bytes", path, lineno,
                                     sizeof line - 2);
            break;
        }
        char *field[MAX_FIELDS];
        const char *first = line + strspn(line, " ,\t");
        if (first[0] == '#') {
            if (strstr(first, "timeout_ms"))
                unit_us = 1000;
            continue;
        }
        int n = split(line, field);
        if (n < 0) {
            rc = weftd_config_refuse(why, len, "%s:%u: more than %d fields", path, lineno,
                                     MAX_FIELDS);
            break;
        }
        if (n == 0)
            continue;
        rc = fn(field, n, lineno, c, dir, unit_us, sub, sizeof sub);
        if (rc)
            snprintf(why, len, "%s:%u: %s", path, lineno, sub);
    }
    fclose(f);
    return rc;
}

static int arch_line(char **field, int n, unsigned lineno, weftd_config_t *c, const char *dir,
                     unsigned long long unit_us, char *why, size_t len)
{
    (void)lineno, (void)dir, (void)unit_us;
    unsigned long long slots;
    if (n != 2)
        return weftd_config_refuse(why, len, "want <partition name>, <slots>; %d fields", n);
    if (!weftd_name_ok(field[0]))
        return weftd_config_refuse(why, len, "partition name \"%.40s\" is not 1-31 of [a-z0-9_]",
                                   field[0]);
    if (!number(field[1], 64, &slots) || slots == 0)
        return weftd_config_refuse(why, len, "partition %s: slots \"%.20s\" is not 1-64", field[0],
                                   field[1]);
    if (c->num_partitions == WEFTD_MAX_PARTITIONS)
        return weftd_config_refuse(why, len, "more than %u partitions", WEFTD_MAX_PARTITIONS);
    unsigned first = 0;
    for (unsigned i = 0; i < c->num_partitions; i++) {
        if (!strcmp(c->partition[i].name, field[0]))
            return weftd_config_refuse(why, len, "a second partition named %s", field[0]);
        first += (unsigned)__builtin_popcountll(c->partition[i].slots);
    }
    if (first + slots > 64)
        return weftd_config_refuse(why, len, "partition %s: past slot 63", field[0]);
    weftd_partition_cfg_t *p = &c->partition[c->num_partitions++];
    snprintf(p->name, sizeof p->name, "%s", field[0]);
    p->slots = (slots == 64 ? ~0ull : ((1ull << slots) - 1)) << first;
    return 0;
}

static int task_line(char **field, int n, unsigned lineno, weftd_config_t *c, const char *dir,
                     unsigned long long unit_us, char *why, size_t len)
{
    (void)lineno;
    unsigned long long id;
    /* The older layout has no timeout: its third field is the partition, not a number. */
    const bool with_timeout = n >= 3 && isdigit((unsigned char)field[2][0]);
    const int part = with_timeout ? 3 : 2, bits = part + 1, first_buf = bits + 1;
    if (n < first_buf)
        return weftd_config_refuse(
            why, len,
            "want <name>, <id>, <timeout>, <partition>, <bitstream dir>, <buffer "
            "sizes>; %d fields",
            n);
    if (!weftd_name_ok(field[0]))
        return weftd_config_refuse(why, len, "task name \"%.40s\" is not 1-31 of [a-z0-9_]",
                                   field[0]);
    if (!number(field[1], 65535, &id))
        return weftd_config_refuse(why, len, "task %s: id \"%.20s\" is not 0-65535", field[0],
                                   field[1]);
    if (c->num_tasks == WEFTD_MAX_TASKS)
        return weftd_config_refuse(why, len, "more than %u tasks", WEFTD_MAX_TASKS);
    weftd_task_cfg_t *t = &c->task[c->num_tasks];
    memset(t, 0, sizeof *t);
    if (with_timeout && !timeout(field[2], unit_us, &t->timeout_us))
        return weftd_config_refuse(why, len,
                                   "task %s: timeout \"%.20s\" is not a number (us, or with ms/us)",
                                   field[0], field[2]);
    if (!with_timeout)
        t->timeout_us = FRED_DEFAULT_TIMEOUT_US;
    t->partition = c->num_partitions;
    for (unsigned i = 0; i < c->num_partitions; i++)
        if (!strcmp(c->partition[i].name, field[part]))
            t->partition = i;
    if (t->partition == c->num_partitions)
        return weftd_config_refuse(why, len, "task %s: no partition \"%.40s\" in arch.csv",
                                   field[0], field[part]);
    if (n - first_buf > (int)WEFTD_FRED_MAX_BUFFERS)
        return weftd_config_refuse(why, len,
                                   "task %s: %d buffers, at most %u (an accelerator's arguments)",
                                   field[0], n - first_buf, WEFTD_FRED_MAX_BUFFERS);
    for (int k = first_buf; k < n; k++) {
        unsigned long long size;
        if (!number(field[k], 1ull << 32, &size) || size == 0)
            return weftd_config_refuse(why, len, "task %s: buffer size \"%.20s\" is not 1 to 2^32",
                                       field[0], field[k]);
        t->buffer[t->num_buffers++] = size;
    }
    for (unsigned i = 0; i < c->num_tasks; i++)
        if (c->task[i].id == id || !strcmp(c->task[i].name, field[0]))
            return weftd_config_refuse(why, len, "task %s: its id or name is task %s's already",
                                       field[0], c->task[i].name);
    char pname[WEFTD_NAME_BYTES];
    memcpy(pname, c->partition[t->partition].name, sizeof pname);
    int w = snprintf(t->bitstream, sizeof t->bitstream, "%s/%s/%s/%s.wbit", dir, field[bits], pname,
                     field[0]);
    if (w < 0 || (size_t)w >= sizeof t->bitstream)
        return weftd_config_refuse(why, len, "task %s: bitstream path too long", field[0]);
    t->id = (uint16_t)id;
    snprintf(t->name, sizeof t->name, "%s", field[0]);
    t->accelerator = 1;
    c->num_tasks++;
    return 0;
}

int weftd_config_load_fred(const char *dir, weftd_config_t *out, char *why, size_t len)
{
    memset(out, 0, sizeof *out);
    out->limits = weftd_default_limits;
    snprintf(out->fred_socket_path, sizeof out->fred_socket_path, "%s", WEFTD_FRED_SOCKET);
    int rc = each_line(dir, "arch.csv", arch_line, out, why, len);
    if (rc == 0 && out->num_partitions == 0)
        rc = weftd_config_refuse(why, len, "%s/arch.csv: no partition", dir);
    if (rc == 0)
        rc = each_line(dir, "hw_tasks.csv", task_line, out, why, len);
    if (rc == 0 && out->num_tasks == 0)
        rc = weftd_config_refuse(why, len, "%s/hw_tasks.csv: no task", dir);
    if (rc == 0)
        weftd_config_fit_buffers(out);
    return rc;
}
