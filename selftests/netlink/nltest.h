/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Helpers shared by the message-layer tests: requests built with libmnl as
 * a client builds them, and the request context of an admin or of anyone.
 */
#ifndef VS_SELFTESTS_NLTEST_H
#define VS_SELFTESTS_NLTEST_H

#include <libmnl/libmnl.h>
#include <string.h>
#include <criterion/criterion.h>

#include "netlink/family.h"
#include "vsched/vsched.h"

/* Where the first attribute of a generic netlink request starts. */
#define FIRST_ATTR	(NLMSG_HDRLEN + GENL_HDRLEN)

/* A request of @cmd of vsched's family in @buf: NLM_F_REQUEST, seq 42. */
static inline struct nlmsghdr *nlt_request(void *buf, u8 cmd, u16 flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = VSCHED_GENL_ID;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = 42;
	nlh->nlmsg_pid = 0;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = VSCHED_GENL_VERSION;
	return nlh;
}

/* The offset of @attr from the start of @nlh. */
static inline u32 nlt_offs(const struct nlmsghdr *nlh, const void *attr)
{
	return (u32)((const char *)attr - (const char *)nlh);
}

/* The validation of @nlh against its command's request policy, alone. */
static inline int nlt_validate(const struct nlmsghdr *nlh, const struct nlattr **tb,
			       struct vs_extack *ext)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);
	const struct vs_genl_op *op = vs_genl_op_find(&vs_genl_vsched, g->cmd);

	cr_assert_not_null(op);
	return vs_nla_validate(nlh, GENL_HDRLEN, op->policy, op->maxattr, tb, 0, ext);
}

#endif /* VS_SELFTESTS_NLTEST_H */
