/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libvsnl: talking to vschedd (Documentation/protocol.md).
 *
 * Messages are built and parsed with libnl-3 (struct nl_msg, nla_put_*,
 * nla_parse_nested); libvsnl adds what a Unix socket needs that libnl's
 * AF_NETLINK sockets would otherwise give: the connection, sequence
 * numbers, waiting for the ack, the reply or the end of a dump, and the
 * extended ack of an error turned into a message.
 *
 *	struct vsnl *c = vsnl_open(NULL, &err);
 *	struct nl_msg *m = vsnl_msg_new(VS_CMD_NODE_GET, NLM_F_DUMP);
 *	ret = vsnl_request(c, m, print_node, NULL, &err);	// consumes m
 *
 * Every userspace program uses this; none speaks the wire format by hand.
 */
#ifndef VSNL_H
#define VSNL_H

#include <stdbool.h>
#include <stdint.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include "vsched/vsched.h"

struct vsnl;

/* An error: what the daemon (or the library) said, and where. */
struct vsnl_err {
	int err;			/* negative errno, 0 for none */
	char msg[256];			/* NLMSGERR_ATTR_MSG, or the library's own words */
	uint32_t offset;		/* NLMSGERR_ATTR_OFFS, when has_offset */
	bool has_offset;
};

/*
 * Connect to the daemon at @path; NULL means $VSCHED_SOCKET, else
 * VSCHED_SOCKET_DEFAULT. NULL on failure, with @err saying why.
 */
struct vsnl *vsnl_open(const char *path, struct vsnl_err *err);
void vsnl_close(struct vsnl *c);

/* The socket path vsnl_open(NULL) would use. */
const char *vsnl_default_path(void);

/* A request of @cmd with its generic netlink header; flags beyond NLM_F_REQUEST. */
struct nl_msg *vsnl_msg_new(uint8_t cmd, int flags);

/*
 * Called for each reply message (a GET's object, each object message of a
 * dump, a notification): @tb holds its top-level attributes (VS_A_*).
 * Return 0 to go on, or a negative errno to stop (vsnl_request returns it).
 */
typedef int (*vsnl_cb)(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg);

/*
 * Send @msg (consumed, whatever happens) with NLM_F_ACK, and wait for the
 * answer: replies go to @cb (may be NULL), a dump ends at NLMSG_DONE, a
 * request at its ack. Returns 0, or a negative errno with @err filled in
 * ("node n9 not found").
 */
int vsnl_request(struct vsnl *c, struct nl_msg *msg, vsnl_cb cb, void *arg,
		 struct vsnl_err *err);

/* Join or leave a multicast group. */
int vsnl_subscribe(struct vsnl *c, enum vs_mcgrp group, struct vsnl_err *err);
int vsnl_unsubscribe(struct vsnl *c, enum vs_mcgrp group, struct vsnl_err *err);

/*
 * Wait up to @timeout_ms (-1: forever) for notifications and hand each to
 * @cb. Returns the number handled, 0 on timeout, or a negative errno
 * (-ENOBUFS: notifications were lost; resynchronise with a dump).
 */
int vsnl_recv_notifications(struct vsnl *c, int timeout_ms, vsnl_cb cb, void *arg,
			    struct vsnl_err *err);

/* The attributes of a nest, by type (the last of each), NULL where absent. */
int vsnl_parse_nested(struct nlattr **tb, int max, const struct nlattr *nest);

/* The connection's socket, for poll(). */
int vsnl_fd(const struct vsnl *c);

#endif /* VSNL_H */
