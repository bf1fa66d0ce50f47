/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Framing: a received datagram split into netlink messages, the checks
 * every request passes before its command is looked at, and replies built
 * in place into a caller's buffer (generic netlink messages, NLMSG_ERROR
 * with the extended ack, acks, NLMSG_DONE), as the kernel's af_netlink.c
 * builds them, so that libnl's and libmnl's parsers read them unchanged.
 *
 * Nothing here allocates or touches a socket: the daemon receives into its
 * buffer, walks it with vs_nl_iter, answers into a vs_nl_reply and sends.
 */
#ifndef VS_NETLINK_MSG_H
#define VS_NETLINK_MSG_H

#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <libmnl/libmnl.h>
#include <string.h>

#include "netlink/extack.h"

/*
 * The least room a reply buffer must keep free to answer a request with an
 * error: the headers, the request's header, and every extended-ack
 * attribute with a message of VS_ERR_MSG_MAX bytes.
 */
#define VS_NL_ERROR_MIN		(NLMSG_HDRLEN + sizeof(struct nlmsgerr) + \
				 NLA_HDRLEN + VS_ERR_MSG_MAX + 3 * (NLA_HDRLEN + 4))

/* A cursor over the messages of one datagram. */
struct vs_nl_iter {
	const char *buf;
	size_t len;
	size_t off;			/* where the next message starts */
	/*
	 * After a framing error: the header of the broken message as far as
	 * it was there (zeroes for the rest, nlmsg_len its own size), for the
	 * NLMSG_ERROR that answers it.
	 */
	struct nlmsghdr bad;
};

void vs_nl_iter_init(struct vs_nl_iter *it, const void *buf, size_t len);

/*
 * The next message of the datagram: returns 1 with *@nlh set, 0 at the end,
 * or -EINVAL when the datagram cannot be split further (a header cut short,
 * an nlmsg_len shorter than a header or past the end of the datagram): the
 * messages before it stand, the rest is dropped, and @it->bad is the header
 * to answer with. A message's nlmsg_len bytes are all inside the datagram.
 */
int vs_nl_iter_next(struct vs_nl_iter *it, const struct nlmsghdr **nlh, struct vs_extack *ext);

/*
 * What every request must be before its command is looked at: a message of
 * vsched's family (VSCHED_GENL_ID, -ENOENT otherwise, as the kernel answers
 * an unknown family) or of the controller (GENL_ID_CTRL), with
 * NLM_F_REQUEST, and long enough for its struct genlmsghdr (-EINVAL).
 */
int vs_nl_msg_check(const struct nlmsghdr *nlh, struct vs_extack *ext);

/* A reply being built: whole messages back to back in a caller's buffer. */
struct vs_nl_reply {
	void *buf;			/* 4-byte aligned */
	size_t cap;
	size_t len;			/* the bytes of finished messages */
	u32 portid;			/* the client's port id: every message's nlmsg_pid */
	bool cap_ack;			/* as NETLINK_CAP_ACK: errors echo only the header */
};

void vs_nl_reply_init(struct vs_nl_reply *r, void *buf, size_t cap, u32 portid);

/*
 * Open a message after the finished ones: nlmsg_type @type, @flags, the
 * sequence number of the request @req (0 without one: notifications), the
 * client's port id. NULL when its header does not fit. An open message is
 * not part of the reply until vs_nl_reply_finish(); opening another one
 * instead drops it.
 */
struct nlmsghdr *vs_nl_reply_start(struct vs_nl_reply *r, const struct nlmsghdr *req, u16 type,
				   u16 flags);

/* The same, with the struct genlmsghdr of @cmd and @version after the header. */
struct nlmsghdr *vs_nl_reply_genl(struct vs_nl_reply *r, const struct nlmsghdr *req, u16 type,
				  u16 flags, u8 cmd, u8 version);

/* The size an open message may grow to: the buflen of mnl_attr_put_*_check() and fill.h. */
size_t vs_nl_reply_room(const struct vs_nl_reply *r, const struct nlmsghdr *nlh);

/* Make the open message @nlh part of the reply. */
void vs_nl_reply_finish(struct vs_nl_reply *r, struct nlmsghdr *nlh);

/*
 * NLMSG_ERROR answering @req (whose nlmsg_len bytes must be readable) with
 * @error (either sign): the request's header and, unless the reply caps
 * acks or has no room for it, its payload; then, when @ext says anything,
 * NLMSGERR_ATTR_MSG, NLMSGERR_ATTR_OFFS, NLMSGERR_ATTR_MISS_TYPE and
 * NLMSGERR_ATTR_MISS_NEST with NLM_F_ACK_TLVS. -EMSGSIZE when not even the
 * header and the errno fit.
 */
int vs_nl_reply_error(struct vs_nl_reply *r, const struct nlmsghdr *req, int error,
		      const struct vs_extack *ext);

/* The ack of a request that succeeded: an NLMSG_ERROR of 0, NLM_F_CAPPED. */
int vs_nl_reply_ack(struct vs_nl_reply *r, const struct nlmsghdr *req);

/*
 * NLMSG_DONE ending a dump (NLM_F_MULTI): its payload is the dump's status,
 * 0 or a negative errno; with an error, @ext as in vs_nl_reply_error().
 */
int vs_nl_reply_done(struct vs_nl_reply *r, const struct nlmsghdr *req, int error,
		     const struct vs_extack *ext);

/*
 * Attributes whose payload is not a multiple of 4 bytes, with the padding
 * zeroed: libmnl 1.0.4's mnl_attr_put() leaves it as the buffer had it,
 * and a reply buffer holds what earlier replies left there, which a
 * client must never read. false, with nothing written, when @cap bytes
 * of message cannot hold the attribute.
 */
static inline bool vs_nla_put(struct nlmsghdr *nlh, size_t cap, u16 type, size_t len,
			      const void *data)
{
	struct nlattr *a = (struct nlattr *)mnl_nlmsg_get_payload_tail(nlh);

	if (!mnl_attr_put_check(nlh, cap, type, len, data))
		return false;
	memset((char *)mnl_attr_get_payload(a) + len, 0, MNL_ALIGN(len) - len);
	return true;
}

static inline bool vs_nla_put_strz(struct nlmsghdr *nlh, size_t cap, u16 type, const char *s)
{
	return vs_nla_put(nlh, cap, type, strlen(s) + 1, s);
}

static inline bool vs_nla_put_u8(struct nlmsghdr *nlh, size_t cap, u16 type, u8 v)
{
	return vs_nla_put(nlh, cap, type, sizeof(v), &v);
}

static inline bool vs_nla_put_u16(struct nlmsghdr *nlh, size_t cap, u16 type, u16 v)
{
	return vs_nla_put(nlh, cap, type, sizeof(v), &v);
}

#endif /* VS_NETLINK_MSG_H */
