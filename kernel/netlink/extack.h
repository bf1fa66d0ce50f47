/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The extended ack of one request, after the kernel's netlink_ext_ack: what
 * the NLMSG_ERROR answering a refused request carries besides its errno.
 *
 * Whoever refuses a request (framing, the attribute policy, a handler)
 * fills it once; the first error wins, as with struct vs_err, because the
 * innermost check knows best what was wrong. msg.c turns it into
 * NLMSGERR_ATTR_MSG, NLMSGERR_ATTR_OFFS and NLMSGERR_ATTR_MISS_TYPE/NEST.
 */
#ifndef VS_NETLINK_EXTACK_H
#define VS_NETLINK_EXTACK_H

#include <linux/netlink.h>
#include <string.h>

#include "core/err.h"

struct vs_extack {
	int error;			/* negative errno; 0 while nothing failed */
	struct vs_err err;		/* NLMSGERR_ATTR_MSG; handlers pass &ext->err to the core */
	u32 offs;			/* NLMSGERR_ATTR_OFFS, valid when has_offs */
	u32 miss_type;			/* NLMSGERR_ATTR_MISS_TYPE: a required attribute, or 0 */
	u32 miss_nest;			/* NLMSGERR_ATTR_MISS_NEST, valid when has_miss_nest */
	bool has_offs;
	bool has_miss_nest;
};

static inline void vs_extack_clear(struct vs_extack *ext)
{
	memset(ext, 0, sizeof(*ext));
}

/*
 * Record a failure: @errnum (either sign) and a printf-style message, unless
 * a failure is recorded already. Returns the negative errno in force.
 */
__printf(3, 4)
int vs_extack_fail(struct vs_extack *ext, int errnum, const char *fmt, ...);

/*
 * Point the error at @attr, an attribute inside the request @nlh (its offset
 * from the start of @nlh goes to NLMSGERR_ATTR_OFFS). Ignored when @attr is
 * not inside the request, or when an offset is set already.
 */
void vs_extack_set_attr(struct vs_extack *ext, const struct nlmsghdr *nlh, const void *attr);

#endif /* VS_NETLINK_EXTACK_H */
