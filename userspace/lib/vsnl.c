// SPDX-License-Identifier: Apache-2.0
/*
 * libvsnl: see vsnl.h.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <libmnl/libmnl.h>
#include <netlink/genl/genl.h>

#include "lib/codec_gen.h"
#include "lib/vsnl.h"

/* Requests are built in buffers this large; a bigger one is refused by libnl. */
#define VSNL_MSG_SIZE	(256u << 10)

struct vsnl {
	int fd;
	uint32_t seq;
	unsigned char *rx;	/* one datagram */

	/* An open batch: what is not sent yet, and the daemon's first refusal. */
	bool batch;
	unsigned char *tx;	/* VSNL_BATCH_DGRAM, allocated by the first batch */
	size_t tx_len;
	uint32_t batch_first;	/* the seq of the first message after BEGIN */
	struct vsnl_err refused;	/* .err != 0: the batch is doomed */
	/* A batch whose END went and whose answer is not read yet. */
	bool end_pending;
	uint32_t end_seq;
};

int vsnl_err_set(struct vsnl_err *err, int errnum, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		err->err = -abs(errnum);
		err->has_offset = false;
		err->seq = 0;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return -abs(errnum);
}

void vsnl_err_prefix(struct vsnl_err *err, const char *fmt, ...)
{
	/* Room for both whole; the message keeps what fits of them, prefix first. */
	char both[2 * sizeof(err->msg)];
	va_list ap;
	int n;

	if (!err)
		return;
	va_start(ap, fmt);
	n = vsnprintf(both, sizeof(err->msg), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(err->msg))
		n = sizeof(err->msg) - 1;
	memcpy(both + n, err->msg, strnlen(err->msg, sizeof(err->msg) - 1) + 1);
	both[sizeof(err->msg) - 1] = '\0';
	memcpy(err->msg, both, sizeof(err->msg));
}

const char *vsnl_default_path(void)
{
	const char *env = getenv(VSCHED_SOCKET_ENV);

	return env && *env ? env : VSCHED_SOCKET_DEFAULT;
}

struct vsnl *vsnl_open(const char *path, struct vsnl_err *err)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct vsnl *c;

	if (!path)
		path = vsnl_default_path();
	if (strlen(path) >= sizeof(sa.sun_path)) {
		vsnl_err_set(err, ENAMETOOLONG, "socket path %s is too long", path);
		return NULL;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	c = calloc(1, sizeof(*c));
	if (c)
		c->rx = malloc(VS_MSG_MAX);
	if (!c || !c->rx) {
		free(c);
		vsnl_err_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	c->fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (c->fd < 0 || connect(c->fd, (struct sockaddr *)&sa, sizeof(sa))) {
		int e = errno;

		vsnl_err_set(err, e, "cannot reach vschedd at %s: %s", path, strerror(e));
		if (c->fd >= 0)
			close(c->fd);
		free(c->rx);
		free(c);
		return NULL;
	}
	/* Distinct sequence numbers across runs make stray answers obvious. */
	c->seq = (uint32_t)time(NULL);
	return c;
}

void vsnl_close(struct vsnl *c)
{
	if (!c)
		return;
	close(c->fd);
	free(c->rx);
	free(c->tx);
	free(c);
}

int vsnl_fd(const struct vsnl *c)
{
	return c->fd;
}

struct nl_msg *vsnl_msg_new(uint8_t cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc_size(VSNL_MSG_SIZE);

	if (!msg)
		return NULL;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, VSCHED_GENL_ID, 0, flags, cmd,
			 VSCHED_GENL_VERSION)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

struct nlmsghdr *vsnl_msg_put(void *buf, size_t cap, uint8_t cmd, uint16_t flags)
{
	struct nlmsghdr *nlh = buf;
	struct genlmsghdr *g;

	if (cap < NLMSG_HDRLEN + GENL_HDRLEN)
		return NULL;
	memset(buf, 0, NLMSG_HDRLEN + GENL_HDRLEN);
	nlh->nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN;
	nlh->nlmsg_type = VSCHED_GENL_ID;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	g = nlmsg_data(nlh);
	g->cmd = cmd;
	g->version = VSCHED_GENL_VERSION;
	return nlh;
}

int vsnl_parse_nested(struct nlattr **tb, int max, const struct nlattr *nest)
{
	return nla_parse_nested(tb, max, (struct nlattr *)nest, NULL);
}

/*
 * What the daemon puts after an error (kernel/netlink/msg.c): its message,
 * the offset of the attribute at fault, and what was missing.
 */
static const struct vsnl_codec_attr ack_attrs[NLMSGERR_ATTR_MAX + 1] = {
	[NLMSGERR_ATTR_MSG] = { .type = VSNL_CODEC_STRING, .name = "msg" },
	[NLMSGERR_ATTR_OFFS] = { .type = VSNL_CODEC_U32, .name = "offs" },
	[NLMSGERR_ATTR_MISS_TYPE] = { .type = VSNL_CODEC_U32, .name = "missType" },
	[NLMSGERR_ATTR_MISS_NEST] = { .type = VSNL_CODEC_U32, .name = "missNest" },
};

static const struct vsnl_codec_set ack_set = {
	.name = "ack",
	.maxattr = NLMSGERR_ATTR_MAX,
	.attrs = ack_attrs,
};

/* The codec's words in @err, under what was malformed: -EPROTO. */
static int malformed(struct vsnl_err *err, const char *what)
{
	if (!err)
		return -EPROTO;
	vsnl_err_prefix(err, "vschedd sent a malformed %s: ", what);
	err->err = -EPROTO;
	return -EPROTO;
}

/* The error of an NLMSG_ERROR, with its extended ack; 0 for an ack. */
static int parse_error(const struct nlmsghdr *nlh, struct vsnl_err *err)
{
	const struct nlmsgerr *e = nlmsg_data(nlh);
	const struct nlattr *tb[NLMSGERR_ATTR_MAX + 1] = { NULL };
	size_t off = sizeof(*e);

	if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
		return vsnl_err_set(err, EPROTO, "vschedd sent a truncated error");
	if (!e->error)
		return 0;
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS) {
		/* The request's header, and its payload unless capped, come before the TLVs. */
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED)) {
			if (e->msg.nlmsg_len < sizeof(e->msg))
				return vsnl_err_set(err, EPROTO, "vschedd sent a malformed error: "
						    "its request of %u bytes is shorter than a "
						    "header", e->msg.nlmsg_len);
			off += e->msg.nlmsg_len - sizeof(e->msg);
		}
		if (vsnl_codec_parse_msg(&ack_set, nlh, off, tb, VSNL_CODEC_REPLY, err))
			return malformed(err, "extended ack");
	}
	if (tb[NLMSGERR_ATTR_MSG])
		vsnl_err_set(err, e->error, "%s", mnl_attr_get_str(tb[NLMSGERR_ATTR_MSG]));
	else
		vsnl_err_set(err, e->error, "%s", strerror(-e->error));
	if (err && tb[NLMSGERR_ATTR_OFFS]) {
		err->offset = mnl_attr_get_u32(tb[NLMSGERR_ATTR_OFFS]);
		err->has_offset = true;
	}
	return e->error < 0 ? e->error : -e->error;
}

/*
 * A message of the family: its attributes to @cb, once the reply set's
 * policy took all of them, nests and all, so that @cb may read any value
 * with the codec's getters. A malformed one reaches no callback.
 */
static int deliver(const struct nlmsghdr *nlh, vsnl_cb cb, void *arg, struct vsnl_err *err)
{
	struct vsnl_vsched_tb tb;

	if (!cb)
		return 0;
	if (vsnl_codec_parse_msg(&vsnl_codec_reply, nlh, GENL_HDRLEN, tb.attr, VSNL_CODEC_REPLY,
				 err))
		return malformed(err, "reply");
	/* vsnl_cb's table is not const for its older users; none writes to it. */
	return cb(nlh, (struct nlattr **)tb.attr, arg);
}

int vsnl_request(struct vsnl *c, struct nl_msg *msg, vsnl_cb cb, void *arg,
		 struct vsnl_err *err)
{
	struct nlmsghdr *req;
	bool dump;
	uint32_t seq;
	int ret = 0;

	if (!msg)
		return vsnl_err_set(err, ENOMEM, "out of memory");
	if (c->batch) {
		nlmsg_free(msg);
		return vsnl_err_set(err, EBUSY, "a batch is open: only vsnl_batch_add() and "
			    "vsnl_batch_end() may follow vsnl_batch_begin()");
	}
	/* Its answer would be passed over as another request's. */
	if (c->end_pending) {
		nlmsg_free(msg);
		return vsnl_err_set(err, EBUSY, "a batch's END is not answered yet: "
			    "vsnl_batch_end_wait() first");
	}
	req = nlmsg_hdr(msg);
	req->nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
	req->nlmsg_seq = seq = ++c->seq;
	dump = (req->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;
	if (send(c->fd, req, req->nlmsg_len, MSG_NOSIGNAL) < 0) {
		ret = vsnl_err_set(err, errno, "cannot send to vschedd: %s", strerror(errno));
		nlmsg_free(msg);
		return ret;
	}
	nlmsg_free(msg);

	for (;;) {
		ssize_t n = recv(c->fd, c->rx, VS_MSG_MAX, 0);
		struct nlmsghdr *nlh = (struct nlmsghdr *)c->rx;
		int len = (int)n;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return vsnl_err_set(err, errno, "cannot read from vschedd: %s", strerror(errno));
		}
		if (n == 0)
			return vsnl_err_set(err, ECONNRESET, "vschedd closed the connection");
		for (; nlmsg_ok(nlh, len); nlh = nlmsg_next(nlh, &len)) {
			if (nlh->nlmsg_seq != seq)
				continue;	/* a notification, or an answer to someone else */
			switch (nlh->nlmsg_type) {
			case NLMSG_ERROR:
				return ret ? ret : parse_error(nlh, err);
			case NLMSG_DONE:
				if (nlh->nlmsg_len >= NLMSG_LENGTH(sizeof(int)) &&
				    *(int *)nlmsg_data(nlh) < 0)
					return vsnl_err_set(err, *(int *)nlmsg_data(nlh), "the dump failed: %s",
						    strerror(-*(int *)nlmsg_data(nlh)));
				if (dump)
					return ret;
				continue;
			default:
				/* After a callback said stop, read on to the end. */
				if (!ret)
					ret = deliver(nlh, cb, arg, err);
			}
		}
	}
}

static int group_request(struct vsnl *c, uint8_t cmd, enum vs_mcgrp group, struct vsnl_err *err)
{
	struct nl_msg *msg = vsnl_msg_new(cmd, 0);
	struct nlmsghdr *nlh;
	size_t cap;
	int ret = 0;

	if (msg) {
		nlh = vsnl_msg_hdr(msg, &cap);
		ret = vsnl_vsched_put_mcgrp(nlh, cap, group, err);
	}
	if (ret) {
		nlmsg_free(msg);
		return ret;
	}
	return vsnl_request(c, msg, NULL, NULL, err);
}

int vsnl_subscribe(struct vsnl *c, enum vs_mcgrp group, struct vsnl_err *err)
{
	return group_request(c, VS_CMD_SUBSCRIBE, group, err);
}

int vsnl_unsubscribe(struct vsnl *c, enum vs_mcgrp group, struct vsnl_err *err)
{
	return group_request(c, VS_CMD_UNSUBSCRIBE, group, err);
}

/* VS_CMD_CONN_SET of one attribute, as its type in the spec says. */
static int conn_set(struct vsnl *c, uint16_t attr, uint64_t v, struct vsnl_err *err)
{
	struct nl_msg *msg = vsnl_msg_new(VS_CMD_CONN_SET, 0);
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	size_t cap;
	int ret;

	if (!msg)
		return vsnl_request(c, NULL, NULL, NULL, err);
	nlh = vsnl_msg_hdr(msg, &cap);
	nest = vsnl_vsched_start_conn(nlh, cap, err);
	ret = nest ? vsnl_codec_put_uint(nlh, cap, &vsnl_codec_conn, attr, v, err) : -EMSGSIZE;
	if (ret) {
		nlmsg_free(msg);
		return ret;
	}
	mnl_attr_nest_end(nlh, nest);
	return vsnl_request(c, msg, NULL, NULL, err);
}

int vsnl_set_rcvbuf(struct vsnl *c, uint64_t bytes, struct vsnl_err *err)
{
	return conn_set(c, VS_CONN_A_RCVBUF, bytes, err);
}

int vsnl_set_hold(struct vsnl *c, bool hold, struct vsnl_err *err)
{
	return conn_set(c, VS_CONN_A_HOLD, hold, err);
}

int vsnl_recv_notifications(struct vsnl *c, int timeout_ms, vsnl_cb cb, void *arg,
			    struct vsnl_err *err)
{
	struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
	int handled = 0, ret, len;
	ssize_t n;

	ret = poll(&pfd, 1, timeout_ms);
	if (ret < 0)
		return errno == EINTR ? 0 : vsnl_err_set(err, errno, "poll: %s", strerror(errno));
	if (!ret)
		return 0;
	n = recv(c->fd, c->rx, VS_MSG_MAX, MSG_DONTWAIT);
	if (n < 0)
		return errno == EAGAIN ? 0 : vsnl_err_set(err, errno, "cannot read from vschedd: %s",
						  strerror(errno));
	if (n == 0)
		return vsnl_err_set(err, ECONNRESET, "vschedd closed the connection");
	len = (int)n;
	for (struct nlmsghdr *nlh = (struct nlmsghdr *)c->rx; nlmsg_ok(nlh, len);
	     nlh = nlmsg_next(nlh, &len)) {
		if (nlh->nlmsg_type == NLMSG_ERROR) {
			ret = parse_error(nlh, err);
			if (ret)
				return ret;
			continue;
		}
		if (nlh->nlmsg_type != VSCHED_GENL_ID)
			continue;
		ret = deliver(nlh, cb, arg, err);
		if (ret)
			return ret;
		handled++;
	}
	return handled;
}

/* ---- batches ---- */

/*
 * Read what the daemon has sent without waiting: refusals of held
 * messages. The first one is kept, and dooms the batch.
 */
static int batch_drain(struct vsnl *c, struct vsnl_err *err)
{
	for (;;) {
		ssize_t n = recv(c->fd, c->rx, VS_MSG_MAX, MSG_DONTWAIT);
		struct nlmsghdr *nlh = (struct nlmsghdr *)c->rx;
		int len = (int)n;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		if (n < 0)
			return vsnl_err_set(err, errno, "cannot read from vschedd: %s", strerror(errno));
		if (n == 0)
			return vsnl_err_set(err, ECONNRESET, "vschedd closed the connection");
		for (; nlmsg_ok(nlh, len); nlh = nlmsg_next(nlh, &len)) {
			if (nlh->nlmsg_type != NLMSG_ERROR || c->refused.err ||
			    nlh->nlmsg_seq - c->batch_first > c->seq - c->batch_first)
				continue;	/* an ack, a notification, or not ours */
			if (parse_error(nlh, &c->refused))
				c->refused.seq = nlh->nlmsg_seq;
		}
	}
}

/*
 * Send the datagram in c->tx. The daemon reads a client no further while
 * its answers to it wait, so answers are read while the socket is full,
 * and after the datagram went, unless it holds END (@last): END's answer
 * is for vsnl_batch_end() to read.
 */
static int batch_flush(struct vsnl *c, bool last, struct vsnl_err *err)
{
	struct pollfd pfd = { .fd = c->fd, .events = POLLIN | POLLOUT };
	int ret;

	while (c->tx_len) {
		if (send(c->fd, c->tx, c->tx_len, MSG_NOSIGNAL | MSG_DONTWAIT) >= 0) {
			c->tx_len = 0;
			break;
		}
		if (errno == EMSGSIZE)
			return vsnl_err_set(err, EMSGSIZE, "a datagram of %zu bytes does not fit the "
				    "socket's send buffer", c->tx_len);
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
			return vsnl_err_set(err, errno, "cannot send to vschedd: %s", strerror(errno));
		if (poll(&pfd, 1, -1) < 0 && errno != EINTR)
			return vsnl_err_set(err, errno, "poll: %s", strerror(errno));
		ret = batch_drain(c, err);
		if (ret)
			return ret;
	}
	return last ? 0 : batch_drain(c, err);
}

/* Room for @len more bytes in c->tx, sending what it holds if need be. */
static int batch_room(struct vsnl *c, size_t len, struct vsnl_err *err)
{
	int ret;

	if (c->tx_len + len <= VSNL_BATCH_DGRAM)
		return 0;
	ret = batch_flush(c, false, err);
	if (ret || len <= VSNL_BATCH_DGRAM)
		return ret;
	/* One message larger than a datagram of ours: it goes alone, in a bigger one. */
	if (len > VS_MSG_MAX)
		return vsnl_err_set(err, EMSGSIZE, "a message of %zu bytes is larger than %u", len,
			    VS_MSG_MAX);
	if (setsockopt(c->fd, SOL_SOCKET, SO_SNDBUF, &(int){ (int)len * 2 }, sizeof(int)))
		return vsnl_err_set(err, errno, "SO_SNDBUF: %s", strerror(errno));
	return 0;
}

int vsnl_batch_begin_flags(struct vsnl *c, unsigned int flags, struct vsnl_err *err)
{
	struct nl_msg *begin;
	int ret;

	if (c->batch)
		return vsnl_err_set(err, EBUSY, "a batch is open already");
	if (flags & ~VSNL_BATCH_DRY_RUN)
		return vsnl_err_set(err, EINVAL, "unknown batch flags 0x%x", flags);
	if (!c->tx && !(c->tx = malloc(VS_MSG_MAX)))
		return vsnl_err_set(err, ENOMEM, "out of memory");
	begin = vsnl_msg_new(VS_CMD_BATCH_BEGIN, 0);
	if (!begin)
		return vsnl_err_set(err, ENOMEM, "out of memory");
	if ((flags & VSNL_BATCH_DRY_RUN) &&
	    (ret = vsnl_vsched_put_dry_run(nlmsg_hdr(begin), nlmsg_get_max_size(begin), err))) {
		nlmsg_free(begin);
		return ret;
	}
	/* Acked before anything follows: refused, nothing would be held. */
	ret = vsnl_request(c, begin, NULL, NULL, err);
	if (ret)
		return ret;
	c->batch = true;
	c->tx_len = 0;
	c->batch_first = c->seq + 1;
	memset(&c->refused, 0, sizeof(c->refused));
	return 0;
}

int vsnl_batch_begin(struct vsnl *c, struct vsnl_err *err)
{
	return vsnl_batch_begin_flags(c, 0, err);
}

int vsnl_batch_add_nlh(struct vsnl *c, const struct nlmsghdr *nlh, uint32_t *seq,
		       struct vsnl_err *err)
{
	struct nlmsghdr *copy;
	size_t len = NLMSG_ALIGN(nlh->nlmsg_len);
	int ret;

	if (!c->batch)
		return vsnl_err_set(err, EINVAL, "no batch is open");
	if (nlh->nlmsg_len < NLMSG_HDRLEN)
		return vsnl_err_set(err, EINVAL, "a message of %u bytes is shorter than its header",
			    nlh->nlmsg_len);
	if (seq)
		*seq = c->seq + 1;
	c->seq++;
	if (c->refused.err)
		return 0;	/* doomed: the end will say why */
	ret = batch_room(c, len, err);
	if (ret)
		return ret;
	copy = (struct nlmsghdr *)(c->tx + c->tx_len);
	memcpy(copy, nlh, nlh->nlmsg_len);
	memset((char *)copy + nlh->nlmsg_len, 0, len - nlh->nlmsg_len);
	copy->nlmsg_flags = (copy->nlmsg_flags | NLM_F_REQUEST) & ~NLM_F_ACK;
	copy->nlmsg_seq = c->seq;
	c->tx_len += len;
	return 0;
}

int vsnl_batch_add(struct vsnl *c, struct nl_msg *msg, uint32_t *seq, struct vsnl_err *err)
{
	int ret;

	if (!msg)
		return vsnl_err_set(err, ENOMEM, "out of memory");
	ret = vsnl_batch_add_nlh(c, nlmsg_hdr(msg), seq, err);
	nlmsg_free(msg);
	return ret;
}

/* "... message seq 150 ...": the daemon's END names the message at fault. */
static uint32_t seq_named(const char *msg)
{
	const char *p = strstr(msg, "message seq ");
	unsigned long seq;

	if (!p)
		return 0;
	seq = strtoul(p + strlen("message seq "), NULL, 10);
	return seq <= UINT32_MAX ? (uint32_t)seq : 0;
}

int vsnl_batch_end_send(struct vsnl *c, struct vsnl_err *err)
{
	struct nl_msg *end;
	int ret;

	if (!c->batch)
		return vsnl_err_set(err, EINVAL, "no batch is open");
	end = vsnl_msg_new(VS_CMD_BATCH_END, NLM_F_ACK);
	if (!end)
		return vsnl_err_set(err, ENOMEM, "out of memory");
	/* END follows the held messages, in their datagram if there is room. */
	ret = batch_room(c, nlmsg_hdr(end)->nlmsg_len, err);
	if (!ret) {
		struct nlmsghdr *nlh = (struct nlmsghdr *)(c->tx + c->tx_len);

		memcpy(nlh, nlmsg_hdr(end), nlmsg_hdr(end)->nlmsg_len);
		nlh->nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
		nlh->nlmsg_seq = c->end_seq = ++c->seq;
		c->tx_len += NLMSG_ALIGN(nlh->nlmsg_len);
		ret = batch_flush(c, true, err);
	}
	nlmsg_free(end);
	c->batch = false;
	c->end_pending = !ret;
	return ret;
}

int vsnl_batch_end_wait(struct vsnl *c, struct vsnl_err *err)
{
	uint32_t end_seq = c->end_seq;
	int ret;

	if (!c->end_pending)
		return vsnl_err_set(err, EINVAL, "no batch's END waits for its answer");
	c->end_pending = false;
	for (;;) {
		ssize_t n = recv(c->fd, c->rx, VS_MSG_MAX, 0);
		struct nlmsghdr *nlh = (struct nlmsghdr *)c->rx;
		int len = (int)n;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return vsnl_err_set(err, errno, "cannot read from vschedd: %s", strerror(errno));
		if (n == 0)
			return vsnl_err_set(err, ECONNRESET, "vschedd closed the connection");
		for (; nlmsg_ok(nlh, len); nlh = nlmsg_next(nlh, &len)) {
			if (nlh->nlmsg_type != NLMSG_ERROR)
				continue;
			if (nlh->nlmsg_seq != end_seq) {
				if (!c->refused.err && nlh->nlmsg_seq - c->batch_first <
						       end_seq - c->batch_first &&
				    parse_error(nlh, &c->refused))
					c->refused.seq = nlh->nlmsg_seq;
				continue;
			}
			ret = parse_error(nlh, err);
			if (ret) {
				if (err)
					err->seq = seq_named(err->msg);
				return ret;
			}
			if (!c->refused.err)
				return 0;
			/* a refusal and yet an ack: the daemon applied nothing of it, say why */
			if (err)
				*err = c->refused;
			return c->refused.err;
		}
	}
}

int vsnl_batch_end(struct vsnl *c, struct vsnl_err *err)
{
	int ret = vsnl_batch_end_send(c, err);

	return ret ? ret : vsnl_batch_end_wait(c, err);
}
