/*
 * weftd's configuration file (config.h): JSON read with jansson (strict: an unknown key,
 * a duplicate key or a value of the wrong type is an error naming it), then checked as a
 * whole: names, ids, slots, partitions and limits.
 */
#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <grp.h>
#include <inttypes.h>
#include <jansson.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const weftd_limits_t weftd_default_limits = {
    .clients = 64, .buffers = 16, .buffer_bytes = 4u << 20, .requests = 8};

int weftd_config_refuse(char *why, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
    return -EINVAL;
}

/* The wire's rule for a name: 1 to 31 bytes of [a-z0-9_]. */
bool weftd_name_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n >= WEFTD_NAME_BYTES)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
            return false;
    return true;
}

static int load_partitions(json_t *arr, weftd_config_t *c, char *why, size_t len)
{
    if (!json_is_array(arr) || json_array_size(arr) == 0 ||
        json_array_size(arr) > WEFTD_MAX_PARTITIONS)
        return weftd_config_refuse(why, len, "partitions: a list of 1 to %u partitions",
                                   WEFTD_MAX_PARTITIONS);
    uint64_t taken = 0;
    size_t i;
    json_t *e;
    json_array_foreach(arr, i, e)
    {
        const char *name;
        json_t *slots;
        json_error_t err;
        if (json_unpack_ex(e, &err, JSON_STRICT, "{s:s, s:o}", "name", &name, "slots", &slots))
            return weftd_config_refuse(why, len, "partitions[%zu]: %s", i, err.text);
        if (!weftd_name_ok(name))
            return weftd_config_refuse(
                why, len, "partitions[%zu]: name \"%s\" is not 1-31 of [a-z0-9_]", i, name);
        for (unsigned k = 0; k < c->num_partitions; k++)
            if (!strcmp(c->partition[k].name, name))
                return weftd_config_refuse(why, len, "partitions[%zu]: a second partition named %s",
                                           i, name);
        weftd_partition_cfg_t *p = &c->partition[c->num_partitions++];
        snprintf(p->name, sizeof p->name, "%s", name);
        size_t k;
        json_t *s;
        if (!json_is_array(slots) || json_array_size(slots) == 0)
            return weftd_config_refuse(
                why, len, "partitions[%zu] (%s): slots must be a list of slot numbers", i, name);
        json_array_foreach(slots, k, s)
        {
            json_int_t v = json_is_integer(s) ? json_integer_value(s) : -1;
            if (v < 0 || v > 63)
                return weftd_config_refuse(
                    why, len, "partitions[%zu] (%s): slots[%zu] is not a slot number 0-63", i, name,
                    k);
            if ((taken | p->slots) & (1ull << v))
                return weftd_config_refuse(
                    why, len, "partitions[%zu] (%s): slot %lld is in a partition already", i, name,
                    (long long)v);
            p->slots |= 1ull << v;
        }
        taken |= p->slots;
    }
    return 0;
}

static int load_tasks(json_t *arr, const char *dir, weftd_config_t *c, char *why, size_t len)
{
    if (!json_is_array(arr) || json_array_size(arr) == 0 || json_array_size(arr) > WEFTD_MAX_TASKS)
        return weftd_config_refuse(why, len, "tasks: a list of 1 to %u tasks", WEFTD_MAX_TASKS);
    size_t i;
    json_t *e;
    json_array_foreach(arr, i, e)
    {
        json_int_t id, timeout = 0;
        const char *name, *part, *bit, *kind = "thread";
        json_t *bufs = NULL, *fargs = NULL;
        json_error_t err;
        if (json_unpack_ex(e, &err, JSON_STRICT, "{s:I, s:s, s:s, s:s, s?I, s?s, s?o, s?o}", "id",
                           &id, "name", &name, "partition", &part, "bitstream", &bit, "timeout_us",
                           &timeout, "kind", &kind, "buffers", &bufs, "fred_args", &fargs))
            return weftd_config_refuse(why, len, "tasks[%zu]: %s", i, err.text);
        if (id < 0 || id > 65535)
            return weftd_config_refuse(why, len, "tasks[%zu]: id %lld is not 0-65535", i,
                                       (long long)id);
        if (!weftd_name_ok(name))
            return weftd_config_refuse(why, len, "tasks[%zu]: name \"%s\" is not 1-31 of [a-z0-9_]",
                                       i, name);
        if (timeout < 0)
            return weftd_config_refuse(why, len, "tasks[%zu] (%s): timeout_us is negative", i,
                                       name);
        if (strcmp(kind, "thread") && strcmp(kind, "accelerator"))
            return weftd_config_refuse(why, len,
                                       "tasks[%zu] (%s): kind \"%s\" is not thread or accelerator",
                                       i, name, kind);
        for (unsigned k = 0; k < c->num_tasks; k++) {
            if (c->task[k].id == id)
                return weftd_config_refuse(why, len, "tasks[%zu] (%s): id %lld is %s's already", i,
                                           name, (long long)id, c->task[k].name);
            if (!strcmp(c->task[k].name, name))
                return weftd_config_refuse(why, len, "tasks[%zu]: a second task named %s", i, name);
        }
        weftd_task_cfg_t *t = &c->task[c->num_tasks];
        if (bufs && (!json_is_array(bufs) || json_array_size(bufs) > WEFTD_FRED_MAX_BUFFERS))
            return weftd_config_refuse(why, len,
                                       "tasks[%zu] (%s): buffers: a list of at most %u sizes", i,
                                       name, WEFTD_FRED_MAX_BUFFERS);
        size_t bi;
        json_t *b;
        json_array_foreach(bufs, bi, b)
        {
            json_int_t v = json_is_integer(b) ? json_integer_value(b) : 0;
            if (v < 1 || v > (json_int_t)1 << 32)
                return weftd_config_refuse(
                    why, len, "tasks[%zu] (%s): buffers[%zu] is not a size 1 to 2^32", i, name, bi);
            t->buffer[t->num_buffers++] = (uint64_t)v;
        }
        if (fargs && (!json_is_array(fargs) ||
                      json_array_size(fargs) > WEFTD_FRED_MAX_BUFFERS - t->num_buffers))
            return weftd_config_refuse(
                why, len,
                "tasks[%zu] (%s): fred_args: a list of at most %u values with "
                "the buffers",
                i, name, WEFTD_FRED_MAX_BUFFERS);
        json_array_foreach(fargs, bi, b)
        {
            if (!json_is_integer(b) || json_integer_value(b) < 0)
                return weftd_config_refuse(
                    why, len, "tasks[%zu] (%s): fred_args[%zu] is not a value", i, name, bi);
            t->fred_arg[t->num_fred_args++] = (uint64_t)json_integer_value(b);
        }
        t->partition = c->num_partitions;
        for (unsigned k = 0; k < c->num_partitions; k++)
            if (!strcmp(c->partition[k].name, part))
                t->partition = k;
        if (t->partition == c->num_partitions)
            return weftd_config_refuse(why, len, "tasks[%zu] (%s): no partition named \"%s\"", i,
                                       name, part);
        int n = bit[0] == '/' ? snprintf(t->bitstream, sizeof t->bitstream, "%s", bit)
                              : snprintf(t->bitstream, sizeof t->bitstream, "%s/%s", dir, bit);
        if (bit[0] == '\0' || n < 0 || (size_t)n >= sizeof t->bitstream)
            return weftd_config_refuse(
                why, len, "tasks[%zu] (%s): bitstream path empty or too long", i, name);
        t->id = (uint16_t)id;
        snprintf(t->name, sizeof t->name, "%s", name);
        t->timeout_us = (uint64_t)timeout;
        t->accelerator = !strcmp(kind, "accelerator");
        c->num_tasks++;
    }
    return 0;
}

/* allow_users / allow_groups: ids, or names looked up now. */
static int load_allow(json_t *arr, bool groups, unsigned *count, void *ids, char *why, size_t len)
{
    const char *what = groups ? "allow_groups" : "allow_users";
    if (!arr)
        return 0;
    if (!json_is_array(arr) || json_array_size(arr) > WEFTD_MAX_ALLOW)
        return weftd_config_refuse(why, len, "%s: a list of at most %u ids or names", what,
                                   WEFTD_MAX_ALLOW);
    size_t i;
    json_t *e;
    json_array_foreach(arr, i, e)
    {
        long long id = -1;
        if (json_is_integer(e)) {
            id = json_integer_value(e);
        } else if (json_is_string(e)) {
            if (groups) {
                const struct group *g = getgrnam(json_string_value(e));
                id = g ? (long long)g->gr_gid : -1;
            } else {
                const struct passwd *pw = getpwnam(json_string_value(e));
                id = pw ? (long long)pw->pw_uid : -1;
            }
        }
        if (id < 0 || id > (long long)UINT32_MAX - 1)
            return weftd_config_refuse(why, len, "%s[%zu]: not an id or a known %s name", what, i,
                                       groups ? "group" : "user");
        if (groups)
            ((gid_t *)ids)[(*count)++] = (gid_t)id;
        else
            ((uid_t *)ids)[(*count)++] = (uid_t)id;
    }
    return 0;
}

static int load_limits(json_t *o, weftd_limits_t *l, char *why, size_t len)
{
    *l = weftd_default_limits;
    if (!o)
        return 0;
    json_int_t clients = l->clients, buffers = l->buffers, requests = l->requests;
    json_int_t bytes = (json_int_t)l->buffer_bytes;
    json_error_t err;
    if (json_unpack_ex(o, &err, JSON_STRICT, "{s?I, s?I, s?I, s?I}", "clients", &clients, "buffers",
                       &buffers, "buffer_bytes", &bytes, "requests", &requests))
        return weftd_config_refuse(why, len, "limits: %s", err.text);
    if (clients < 1 || clients > 4096)
        return weftd_config_refuse(why, len, "limits: clients %lld is not 1-4096",
                                   (long long)clients);
    if (buffers < 1 || buffers > 1024)
        return weftd_config_refuse(why, len, "limits: buffers %lld is not 1-1024",
                                   (long long)buffers);
    if (requests < 1 || requests > 256)
        return weftd_config_refuse(why, len, "limits: requests %lld is not 1-256",
                                   (long long)requests);
    if (bytes < 4096 || bytes > (json_int_t)1 << 40)
        return weftd_config_refuse(why, len, "limits: buffer_bytes %lld is not 4096 to 2^40",
                                   (long long)bytes);
    *l =
        (weftd_limits_t){(unsigned)clients, (unsigned)buffers, (uint64_t)bytes, (unsigned)requests};
    return 0;
}

/* What a task's FRED buffers take: their number and bytes, each rounded up to pages. */
static uint64_t fred_bytes(const weftd_task_cfg_t *t)
{
    uint64_t b = 0;
    for (unsigned k = 0; k < t->num_buffers; k++)
        b += (t->buffer[k] + 4095) / 4096 * 4096;
    return b;
}

int weftd_config_check_buffers(const weftd_config_t *c, char *why, size_t len)
{
    for (unsigned i = 0; i < c->num_tasks; i++) {
        const weftd_task_cfg_t *t = &c->task[i];
        if (t->num_buffers > c->limits.buffers || fred_bytes(t) > c->limits.buffer_bytes)
            return weftd_config_refuse(
                why, len,
                "task %s: its %u buffers of %" PRIu64
                " bytes together pass the limits (%u buffers, %" PRIu64 " bytes a client)",
                t->name, t->num_buffers, fred_bytes(t), c->limits.buffers, c->limits.buffer_bytes);
    }
    return 0;
}

void weftd_config_fit_buffers(weftd_config_t *c)
{
    for (unsigned i = 0; i < c->num_tasks; i++) {
        const weftd_task_cfg_t *t = &c->task[i];
        if (t->num_buffers > c->limits.buffers)
            c->limits.buffers = t->num_buffers;
        if (fred_bytes(t) > c->limits.buffer_bytes)
            c->limits.buffer_bytes = fred_bytes(t);
    }
}

int weftd_config_load(const char *path, weftd_config_t *out, char *why, size_t len)
{
    memset(out, 0, sizeof *out);
    json_error_t err;
    json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &err);
    if (!root) {
        snprintf(why, len, "%s:%d:%d: %s", path, err.line, err.column, err.text);
        return err.line < 0 ? -ENOENT : -EINVAL;
    }
    const char *sock = NULL, *fsock = NULL;
    json_t *au = NULL, *ag = NULL, *lim = NULL, *parts, *tasks;
    int rc = 0;
    if (json_unpack_ex(root, &err, JSON_STRICT, "{s?s, s?s, s?o, s?o, s?o, s:o, s:o}", "socket",
                       &sock, "fred_socket", &fsock, "allow_users", &au, "allow_groups", &ag,
                       "limits", &lim, "partitions", &parts, "tasks", &tasks)) {
        rc = weftd_config_refuse(why, len, "%s: %s", path, err.text);
        goto out;
    }
    const char *names[2] = {"socket", "fred_socket"}, *vals[2] = {sock, fsock};
    char *dst[2] = {out->socket_path, out->fred_socket_path};
    for (int k = 0; k < 2; k++) {
        if (vals[k] && (vals[k][0] == '\0' || strlen(vals[k]) >= WEFTD_SOCKET_PATH_BYTES)) {
            rc = weftd_config_refuse(why, len, "%s: %s: empty or longer than %u bytes", path,
                                     names[k], WEFTD_SOCKET_PATH_BYTES - 1);
            goto out;
        }
        if (vals[k])
            snprintf(dst[k], WEFTD_SOCKET_PATH_BYTES, "%s", vals[k]);
    }

    char dir[PATH_MAX];
    const char *slash = strrchr(path, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
    char sub[256] = "";
    rc = load_allow(au, false, &out->num_allow_uid, out->allow_uid, sub, sizeof sub);
    if (rc == 0)
        rc = load_allow(ag, true, &out->num_allow_gid, out->allow_gid, sub, sizeof sub);
    if (rc == 0)
        rc = load_limits(lim, &out->limits, sub, sizeof sub);
    if (rc == 0)
        rc = load_partitions(parts, out, sub, sizeof sub);
    if (rc == 0)
        rc = load_tasks(tasks, dir, out, sub, sizeof sub);
    if (rc == 0)
        rc = weftd_config_check_buffers(out, sub, sizeof sub);
    if (rc != 0)
        snprintf(why, len, "%s: %s", path, sub);
out:
    json_decref(root);
    return rc;
}
