// SPDX-License-Identifier: Apache-2.0
/*
 * Framing and replies: see msg.h; the extended ack: see extack.h.
 *
 * The replies follow the kernel's netlink_ack() and netlink_dump_done():
 * same flags, same layout, same attributes, so a client can parse them
 * with the helpers it would use against the kernel.
 */
#include <libmnl/libmnl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "netlink/msg.h"
#include "vsched/vsched.h"

/* ---- the extended ack ---- */

int vs_extack_fail(struct vs_extack *ext, int errnum, const char *fmt, ...)
{
	va_list ap;

	if (errnum > 0)
		errnum = -errnum;
	if (ext->error)
		return ext->error;
	ext->error = errnum;
	if (!ext->err.msg[0]) {
		va_start(ap, fmt);
		vsnprintf(ext->err.msg, sizeof(ext->err.msg), fmt, ap);
		va_end(ap);
	}
	return errnum;
}

void vs_extack_set_attr(struct vs_extack *ext, const struct nlmsghdr *nlh, const void *attr)
{
	const char *p = attr, *start = (const char *)nlh;

	if (ext->has_offs || p < start + NLMSG_HDRLEN || p >= start + nlh->nlmsg_len)
		return;
	ext->offs = (u32)(p - start);
	ext->has_offs = true;
}

/* ---- splitting a datagram ---- */

void vs_nl_iter_init(struct vs_nl_iter *it, const void *buf, size_t len)
{
	memset(it, 0, sizeof(*it));
	it->buf = buf;
	it->len = len;
}

/* Keep what there is of a broken header, for the error that answers it. */
static int broken(struct vs_nl_iter *it, size_t left, struct vs_extack *ext)
{
	memset(&it->bad, 0, sizeof(it->bad));
	memcpy(&it->bad, it->buf + it->off, min_t(size_t, left, sizeof(it->bad)));
	it->bad.nlmsg_len = sizeof(it->bad);
	it->off = it->len;
	return ext->error;
}

int vs_nl_iter_next(struct vs_nl_iter *it, const struct nlmsghdr **nlh, struct vs_extack *ext)
{
	size_t left = it->len - it->off;
	const struct nlmsghdr *h = (const void *)(it->buf + it->off);
	int rest;

	*nlh = NULL;
	if (!left)
		return 0;
	if (left < sizeof(*h)) {
		vs_extack_fail(ext, EINVAL, "truncated message header: %zu bytes, needs %zu",
			       left, sizeof(*h));
		return broken(it, left, ext);
	}
	if (h->nlmsg_len < sizeof(*h)) {
		vs_extack_fail(ext, EINVAL, "nlmsg_len %u is shorter than the message header",
			       h->nlmsg_len);
		return broken(it, left, ext);
	}
	/*
	 * Compared unsigned first: mnl_nlmsg_ok() casts nlmsg_len to int, so
	 * a length of 2^31 or more would pass it as negative.
	 */
	if (left > VS_MSG_MAX) {
		vs_extack_fail(ext, EINVAL, "datagram of %zu bytes, at most %d", left, VS_MSG_MAX);
		return broken(it, left, ext);
	}
	if (h->nlmsg_len > left) {
		vs_extack_fail(ext, EINVAL, "nlmsg_len %u runs past the end of the datagram "
			       "(%zu bytes left)", h->nlmsg_len, left);
		return broken(it, left, ext);
	}
	rest = (int)left;
	*nlh = h;
	/* The last message may lack its padding: then rest goes below 0. */
	mnl_nlmsg_next(h, &rest);
	it->off = rest > 0 ? it->len - (size_t)rest : it->len;
	return 1;
}

int vs_nl_msg_check(const struct nlmsghdr *nlh, struct vs_extack *ext)
{
	if (nlh->nlmsg_type < NLMSG_MIN_TYPE)
		return vs_extack_fail(ext, EINVAL, "nlmsg_type %u is a control message, not a "
				      "request", nlh->nlmsg_type);
	if (nlh->nlmsg_type != VSCHED_GENL_ID && nlh->nlmsg_type != GENL_ID_CTRL)
		return vs_extack_fail(ext, ENOENT, "unknown family id 0x%x (vsched's is 0x%x)",
				      nlh->nlmsg_type, VSCHED_GENL_ID);
	if (!(nlh->nlmsg_flags & NLM_F_REQUEST))
		return vs_extack_fail(ext, EINVAL, "NLM_F_REQUEST not set: not a request");
	if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return vs_extack_fail(ext, EINVAL, "generic netlink header missing: %u bytes "
				      "after the message header, needs %u",
				      nlh->nlmsg_len - (u32)NLMSG_HDRLEN, (u32)GENL_HDRLEN);
	return 0;
}

/* ---- replies ---- */

void vs_nl_reply_init(struct vs_nl_reply *r, void *buf, size_t cap, u32 portid)
{
	memset(r, 0, sizeof(*r));
	r->buf = buf;
	r->cap = cap;
	r->portid = portid;
}

struct nlmsghdr *vs_nl_reply_start(struct vs_nl_reply *r, const struct nlmsghdr *req, u16 type,
				   u16 flags)
{
	struct nlmsghdr *nlh;

	if (r->cap - r->len < NLMSG_HDRLEN)
		return NULL;
	nlh = mnl_nlmsg_put_header((char *)r->buf + r->len);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = flags;
	nlh->nlmsg_seq = req ? req->nlmsg_seq : 0;
	nlh->nlmsg_pid = r->portid;
	return nlh;
}

struct nlmsghdr *vs_nl_reply_genl(struct vs_nl_reply *r, const struct nlmsghdr *req, u16 type,
				  u16 flags, u8 cmd, u8 version)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;

	if (r->cap - r->len < NLMSG_HDRLEN + GENL_HDRLEN)
		return NULL;
	nlh = vs_nl_reply_start(r, req, type, flags);
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = version;
	return nlh;
}

size_t vs_nl_reply_room(const struct vs_nl_reply *r, const struct nlmsghdr *nlh)
{
	return r->cap - (size_t)((const char *)nlh - (const char *)r->buf);
}

void vs_nl_reply_finish(struct vs_nl_reply *r, struct nlmsghdr *nlh)
{
	r->len = (size_t)((char *)nlh - (char *)r->buf) + NLMSG_ALIGN(nlh->nlmsg_len);
	if (r->len > r->cap)
		r->len = r->cap;
}

/* What the extended-ack attributes of @ext take, message first. */
static size_t tlv_size(const struct vs_extack *ext)
{
	size_t n = 0;

	if (!ext)
		return 0;
	if (ext->err.msg[0])
		n += MNL_ATTR_HDRLEN + MNL_ALIGN(strlen(ext->err.msg) + 1);
	n += ext->has_offs ? MNL_ATTR_HDRLEN + 4 : 0;
	n += ext->miss_type ? MNL_ATTR_HDRLEN + 4 : 0;
	n += ext->has_miss_nest ? MNL_ATTR_HDRLEN + 4 : 0;
	return n;
}

/* Append the extended-ack attributes that fit; true if any did. */
static bool put_tlvs(struct vs_nl_reply *r, struct nlmsghdr *nlh, const struct vs_extack *ext)
{
	size_t room = vs_nl_reply_room(r, nlh);
	bool any = false;

	if (!ext)
		return false;
	if (ext->err.msg[0])
		any |= vs_nla_put_strz(nlh, room, NLMSGERR_ATTR_MSG, ext->err.msg);
	if (ext->has_offs)
		any |= mnl_attr_put_u32_check(nlh, room, NLMSGERR_ATTR_OFFS, ext->offs);
	if (ext->miss_type)
		any |= mnl_attr_put_u32_check(nlh, room, NLMSGERR_ATTR_MISS_TYPE, ext->miss_type);
	if (ext->has_miss_nest)
		any |= mnl_attr_put_u32_check(nlh, room, NLMSGERR_ATTR_MISS_NEST, ext->miss_nest);
	return any;
}

int vs_nl_reply_error(struct vs_nl_reply *r, const struct nlmsghdr *req, int error,
		      const struct vs_extack *ext)
{
	size_t base = NLMSG_HDRLEN + sizeof(struct nlmsgerr);
	size_t payload = req->nlmsg_len > NLMSG_HDRLEN ? req->nlmsg_len - NLMSG_HDRLEN : 0;
	size_t room = r->cap - r->len;
	struct nlmsghdr *nlh;
	struct nlmsgerr *e;
	bool capped;

	if (error > 0)
		error = -error;
	if (!error)
		ext = NULL;	/* an ack says nothing more, as the kernel's without a warning */
	if (room < base)
		return -EMSGSIZE;
	/* As the kernel: errors echo the whole request, acks and capped sockets its header. */
	capped = !error || r->cap_ack || base + NLMSG_ALIGN(payload) + tlv_size(ext) > room;
	nlh = vs_nl_reply_start(r, req, NLMSG_ERROR, capped ? NLM_F_CAPPED : 0);
	e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
	e->error = error;
	memcpy(&e->msg, req, sizeof(*req));
	if (!capped) {
		void *echo = mnl_nlmsg_put_extra_header(nlh, NLMSG_ALIGN(payload));

		memcpy(echo, (const char *)req + NLMSG_HDRLEN, payload);
	}
	if (put_tlvs(r, nlh, ext))
		nlh->nlmsg_flags |= NLM_F_ACK_TLVS;
	vs_nl_reply_finish(r, nlh);
	return 0;
}

int vs_nl_reply_ack(struct vs_nl_reply *r, const struct nlmsghdr *req)
{
	return vs_nl_reply_error(r, req, 0, NULL);
}

int vs_nl_reply_done(struct vs_nl_reply *r, const struct nlmsghdr *req, int error,
		     const struct vs_extack *ext)
{
	struct nlmsghdr *nlh;
	int *status;

	if (error > 0)
		error = -error;
	if (r->cap - r->len < NLMSG_HDRLEN + sizeof(*status))
		return -EMSGSIZE;
	nlh = vs_nl_reply_start(r, req, NLMSG_DONE, NLM_F_MULTI);
	status = mnl_nlmsg_put_extra_header(nlh, sizeof(*status));
	*status = error;
	if (error && put_tlvs(r, nlh, ext))
		nlh->nlmsg_flags |= NLM_F_ACK_TLVS;
	vs_nl_reply_finish(r, nlh);
	return 0;
}
