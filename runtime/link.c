/*
 * Hardware links: FIFOs in the fabric from one slot to another, declared in the platform
 * description and read back from the register window (NUM_LINKS, LINK_INFO), so the
 * runtime trusts what the loaded static region has, not a file that may disagree.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>

#include "weft_internal.h"

int weft_links_probe(weft_t *w)
{
    weft_platform_t *p = w->platform;
    uint32_t n = 0;
    int rc = p->ops->mmio_read(p, WEFT_REG_NUM_LINKS, &n);
    if (rc != 0)
        return rc;
    if (n > WEFT_REG_LINK_INFO_COUNT)
        return -EPROTO;
    w->links = calloc(n ? n : 1, sizeof(*w->links));
    if (!w->links)
        return -ENOMEM;
    for (uint32_t l = 0; l < n; l++) {
        uint32_t info;
        rc = p->ops->mmio_read(p, WEFT_REG_LINK_INFO(l), &info);
        if (rc != 0)
            return rc;
        weft_link_t *k = &w->links[l];
        k->w = w;
        k->index = l;
        k->from = info & 0xffu;
        k->to = (info >> WEFT_LINK_INFO_DST_SHIFT) & 0xffu;
        k->depth = info >> WEFT_LINK_INFO_DEPTH_SHIFT;
        /* A static region that contradicts itself is not one the runtime can drive. */
        if (k->from >= w->num_slots || k->to >= w->num_slots || k->from == k->to)
            return -EPROTO;
    }
    w->num_links = n;
    return 0;
}

unsigned weft_num_links(weft_t *w)
{
    return w ? w->num_links : 0;
}

int weft_link_get(weft_t *w, unsigned index, weft_link_t **out)
{
    if (!w || !out)
        return -EINVAL;
    if (index >= w->num_links)
        return -ENOENT;
    *out = &w->links[index];
    return 0;
}

int weft_link_info(weft_link_t *link, weft_link_info_t *info)
{
    if (!link || !info)
        return -EINVAL;
    weft_platform_t *p = link->w->platform;
    uint32_t level = 0;
    int rc = p->ops->mmio_read(p, WEFT_REG_LINK_LEVEL(link->index), &level);
    if (rc != 0)
        return rc;
    info->index = link->index;
    info->from = link->from;
    info->to = link->to;
    info->depth = link->depth;
    info->level = level;
    return 0;
}

bool weft_link_in_use(weft_t *w, unsigned l)
{
    for (unsigned s = 0; s < w->num_slots; s++) {
        weft_hwthread_t *t = w->slots[s];
        if (!t)
            continue;
        pthread_mutex_lock(&t->lock); /* lock order: w->lock, then t->lock */
        bool running = !t->done;
        pthread_mutex_unlock(&t->lock);
        for (unsigned h = 0; running && h < t->num_res; h++)
            if (t->res[h].type == WEFT_RES_LINK && t->res[h].object == &w->links[l])
                return true;
    }
    return false;
}

int weft_link_flush(weft_link_t *link)
{
    if (!link)
        return -EINVAL;
    weft_t *w = link->w;
    pthread_mutex_lock(&w->lock);
    int rc =
        weft_link_in_use(w, link->index)
            ? -EBUSY
            : w->platform->ops->mmio_write(w->platform, WEFT_REG_LINK_FLUSH, 1u << link->index);
    pthread_mutex_unlock(&w->lock);
    return rc;
}
