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
#include <netlink/genl/genl.h>

#include "lib/vsnl.h"

/* Requests are built in buffers this large; a bigger one is refused by libnl. */
#define VSNL_MSG_SIZE	(256u << 10)

struct vsnl {
	int fd;
	uint32_t seq;
	unsigned char *rx;	/* one datagram */
};

__attribute__((format(printf, 3, 4)))
static int fail(struct vsnl_err *err, int errnum, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		err->err = -abs(errnum);
		err->has_offset = false;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return -abs(errnum);
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
		fail(err, ENAMETOOLONG, "socket path %s is too long", path);
		return NULL;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	c = calloc(1, sizeof(*c));
	if (c)
		c->rx = malloc(VS_MSG_MAX);
	if (!c || !c->rx) {
		free(c);
		fail(err, ENOMEM, "out of memory");
		return NULL;
	}
	c->fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (c->fd < 0 || connect(c->fd, (struct sockaddr *)&sa, sizeof(sa))) {
		int e = errno;

		fail(err, e, "cannot reach vschedd at %s: %s", path, strerror(e));
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

int vsnl_parse_nested(struct nlattr **tb, int max, const struct nlattr *nest)
{
	return nla_parse_nested(tb, max, (struct nlattr *)nest, NULL);
}

/* The error of an NLMSG_ERROR, with its extended ack; 0 for an ack. */
static int parse_error(const struct nlmsghdr *nlh, struct vsnl_err *err)
{
	const struct nlmsgerr *e = nlmsg_data(nlh);
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1] = { NULL };
	size_t off = sizeof(*e);

	if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
		return fail(err, EPROTO, "vschedd sent a truncated error");
	if (!e->error)
		return 0;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(e->msg);
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS && NLMSG_LENGTH(off) <= nlh->nlmsg_len)
		nla_parse(tb, NLMSGERR_ATTR_MAX, (struct nlattr *)((char *)e + NLMSG_ALIGN(off)),
			  (int)(nlh->nlmsg_len - NLMSG_LENGTH(NLMSG_ALIGN(off))), NULL);
	if (tb[NLMSGERR_ATTR_MSG])
		fail(err, e->error, "%.*s", nla_len(tb[NLMSGERR_ATTR_MSG]),
		     (const char *)nla_data(tb[NLMSGERR_ATTR_MSG]));
	else
		fail(err, e->error, "%s", strerror(-e->error));
	if (err && tb[NLMSGERR_ATTR_OFFS]) {
		err->offset = nla_get_u32(tb[NLMSGERR_ATTR_OFFS]);
		err->has_offset = true;
	}
	return e->error < 0 ? e->error : -e->error;
}

/* A message of the family: its attributes to @cb. */
static int deliver(const struct nlmsghdr *nlh, vsnl_cb cb, void *arg, struct vsnl_err *err)
{
	struct nlattr *tb[VS_A_MAX + 1];

	if (!cb)
		return 0;
	if (genlmsg_parse((struct nlmsghdr *)nlh, 0, tb, VS_A_MAX, NULL) < 0)
		return fail(err, EPROTO, "vschedd sent a malformed message");
	return cb(nlh, tb, arg);
}

int vsnl_request(struct vsnl *c, struct nl_msg *msg, vsnl_cb cb, void *arg,
		 struct vsnl_err *err)
{
	struct nlmsghdr *req;
	bool dump;
	uint32_t seq;
	int ret = 0;

	if (!msg)
		return fail(err, ENOMEM, "out of memory");
	req = nlmsg_hdr(msg);
	req->nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
	req->nlmsg_seq = seq = ++c->seq;
	dump = (req->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;
	if (send(c->fd, req, req->nlmsg_len, MSG_NOSIGNAL) < 0) {
		ret = fail(err, errno, "cannot send to vschedd: %s", strerror(errno));
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
			return fail(err, errno, "cannot read from vschedd: %s", strerror(errno));
		}
		if (n == 0)
			return fail(err, ECONNRESET, "vschedd closed the connection");
		for (; nlmsg_ok(nlh, len); nlh = nlmsg_next(nlh, &len)) {
			if (nlh->nlmsg_seq != seq)
				continue;	/* a notification, or an answer to someone else */
			switch (nlh->nlmsg_type) {
			case NLMSG_ERROR:
				return ret ? ret : parse_error(nlh, err);
			case NLMSG_DONE:
				if (nlh->nlmsg_len >= NLMSG_LENGTH(sizeof(int)) &&
				    *(int *)nlmsg_data(nlh) < 0)
					return fail(err, *(int *)nlmsg_data(nlh), "the dump failed: %s",
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

	if (msg && nla_put_u32(msg, VS_A_MCGRP, group) < 0) {
		nlmsg_free(msg);
		msg = NULL;
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

int vsnl_recv_notifications(struct vsnl *c, int timeout_ms, vsnl_cb cb, void *arg,
			    struct vsnl_err *err)
{
	struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
	int handled = 0, ret, len;
	ssize_t n;

	ret = poll(&pfd, 1, timeout_ms);
	if (ret < 0)
		return errno == EINTR ? 0 : fail(err, errno, "poll: %s", strerror(errno));
	if (!ret)
		return 0;
	n = recv(c->fd, c->rx, VS_MSG_MAX, MSG_DONTWAIT);
	if (n < 0)
		return errno == EAGAIN ? 0 : fail(err, errno, "cannot read from vschedd: %s",
						  strerror(errno));
	if (n == 0)
		return fail(err, ECONNRESET, "vschedd closed the connection");
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
