/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libvsnl: talking to vschedd (Documentation/protocol.md).
 *
 * Messages are built in libnl-3's struct nl_msg or a buffer, by the
 * generated codec (lib/codec_gen.h), and read by it: libvsnl checks every
 * reply against the spec's reply set before a callback sees it. It adds
 * what a Unix socket needs that libnl's AF_NETLINK sockets would otherwise
 * give: the connection, sequence numbers, waiting for the ack, the reply
 * or the end of a dump, and the extended ack of an error turned into a
 * message.
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
#include <stddef.h>
#include <stdint.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include "vsched/vsched.h"

struct vsnl;

/*
 * A daemon's message is at most VS_ERR_MSG_MAX bytes; a client's may name
 * more around it: a file, a line, a document ("document 3 (Pod NS/NAME)",
 * a namespace and name of up to 63 and 253 bytes) and a field's path.
 */
#define VSNL_ERR_MSG_MAX	1024

/* An error: what the daemon (or the library) said, and where. */
struct vsnl_err {
	int err;			/* negative errno, 0 for none */
	char msg[VSNL_ERR_MSG_MAX];	/* NLMSGERR_ATTR_MSG, or the library's own words */
	uint32_t offset;		/* NLMSGERR_ATTR_OFFS, when has_offset */
	bool has_offset;
	uint32_t seq;			/* batches: the nlmsg_seq of the message at fault, else 0 */
};

/*
 * Set @err (NULL: ignored) to @errnum, negated if positive, and the
 * message, replacing any already there (the core's vs_err_set() keeps the
 * first instead: a caller here that wants the innermost message returns at
 * the first error); returns the negative errno, so that "return
 * vsnl_err_set(err, EINVAL, ...)" reads naturally. vsnl_err_prefix() puts context ("metric
 * m: ") before the message already there.
 */
__attribute__((format(printf, 3, 4)))
int vsnl_err_set(struct vsnl_err *err, int errnum, const char *fmt, ...);
__attribute__((format(printf, 2, 3)))
void vsnl_err_prefix(struct vsnl_err *err, const char *fmt, ...);

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
 * The message @m as the generated codec writes into it (lib/codec_gen.h):
 * its header, and in *@cap the bytes libnl gave it, header included.
 * libnl finds its end by the header's length, which the codec keeps.
 */
static inline struct nlmsghdr *vsnl_msg_hdr(struct nl_msg *m, size_t *cap)
{
	*cap = nlmsg_get_max_size(m);
	return nlmsg_hdr(m);
}

/*
 * The same, started in a buffer of the caller's (@buf, @cap bytes, aligned
 * for a struct nlmsghdr), for messages written at the buffer level: the
 * core's fills (netlink/fill.h), libmnl. The headers are zeroed and set,
 * nlmsg_len covers them, nlmsg_seq is left for vsnl_batch_add_nlh() (or
 * vsnl_request() after nlmsg_convert()) to number. NULL when @cap cannot
 * hold the headers.
 *
 *	nlh = vsnl_msg_put(buf, sizeof(buf), VS_CMD_NODE_NEW, 0);
 *	if (nlh && vs_nl_put_node_spec(nlh, sizeof(buf), node))
 *		ret = vsnl_batch_add_nlh(c, nlh, &seq, &err);
 */
struct nlmsghdr *vsnl_msg_put(void *buf, size_t cap, uint8_t cmd, uint16_t flags);

/*
 * Called for each reply message (a GET's object, each object message of a
 * dump, a notification): @tb holds its top-level attributes (VS_A_*), all
 * of them, nests and all, taken by the spec's reply set
 * (vsnl_codec_reply, VSNL_CODEC_REPLY): vsnl_reply_tb(@tb) for the
 * codec's getters, the nests read by their sets' parse. A message the set
 * refuses reaches no callback: the call returns -EPROTO, @err naming the
 * attribute by its path. Return 0 to go on, or a negative errno to stop
 * (vsnl_request returns it).
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
 * Have the daemon queue up to @bytes of notifications for this connection
 * before it drops them (ENOBUFS), as SO_RCVBUF sizes a netlink socket's
 * receive queue (VS_CMD_CONN_SET). More than the daemon's maximum is
 * refused (EINVAL), with the maximum in @err.
 */
int vsnl_set_rcvbuf(struct vsnl *c, uint64_t bytes, struct vsnl_err *err);

/*
 * Hold periodic cycles while this connection is open, or let go
 * (VS_CONN_A_HOLD): a client loading a cluster in more batches than one
 * keeps the scheduler from deciding on part of it. Closing the
 * connection lets go too.
 */
int vsnl_set_hold(struct vsnl *c, bool hold, struct vsnl_err *err);

/*
 * Wait up to @timeout_ms (-1: forever) for notifications and hand each to
 * @cb. Returns the number handled, 0 on timeout, or a negative errno
 * (-ENOBUFS: notifications were lost; resynchronise with a dump).
 */
int vsnl_recv_notifications(struct vsnl *c, int timeout_ms, vsnl_cb cb, void *arg,
			    struct vsnl_err *err);

/*
 * The attributes of a nest, by type (the last of each), NULL where absent,
 * with no policy: for vsctl/apply_cmd.c, until it is replaced, and older
 * tests; anything else reads nests with the codec (lib/codec_gen.h).
 */
int vsnl_parse_nested(struct nlattr **tb, int max, const struct nlattr *nest);

/* The connection's socket, for poll(). */
int vsnl_fd(const struct vsnl *c);

/*
 * Batches (Documentation/protocol.md, "Batches"): many messages applied by
 * the daemon all or nothing, as nftables applies a batch.
 *
 *	vsnl_batch_begin(c, &err);
 *	for (each object)
 *		vsnl_batch_add(c, msg, &seq, &err);	// seq: to name it later
 *	ret = vsnl_batch_end(c, &err);			// 0: applied; else nothing was
 *
 * BEGIN is acknowledged before anything follows it. Added messages are
 * packed back to back into datagrams of at most VSNL_BATCH_DGRAM bytes and
 * sent without NLM_F_ACK, so nothing waits on them; the daemon answers only
 * the ones it refuses, at once, and such an answer (read whenever the
 * library sends) dooms the batch: later messages are not sent any more.
 * END asks for an ack and waits for its answer. Its error, or else the
 * first refusal, is what vsnl_batch_end() returns: the daemon's message
 * names the message by its seq, its command and its object ("batch not
 * applied: message seq 150 (VS_CMD_TASK_NEW task ns/bad) failed: ..."),
 * and @err->seq is that seq. Sequence numbers come from the counter
 * vsnl_request() uses. A connection with a batch open takes no other
 * request; closing it drops the batch unapplied.
 */
#define VSNL_BATCH_DGRAM	(128u << 10)

int vsnl_batch_begin(struct vsnl *c, struct vsnl_err *err);

/*
 * vsnl_batch_begin() with @flags: VSNL_BATCH_DRY_RUN asks the daemon to
 * apply the batch at END, answer as it would, and undo it (VS_A_DRY_RUN).
 */
#define VSNL_BATCH_DRY_RUN	0x1

int vsnl_batch_begin_flags(struct vsnl *c, unsigned int flags, struct vsnl_err *err);

/*
 * Add @msg (consumed, whatever happens) to the open batch; its nlmsg_seq,
 * when @seq is not NULL. Fails only on the client's side (no batch open,
 * no memory, the socket); the daemon's verdict comes with the end.
 */
int vsnl_batch_add(struct vsnl *c, struct nl_msg *msg, uint32_t *seq, struct vsnl_err *err);

/* The same for a message built in a buffer (libmnl, the core's fills): @nlh is copied. */
int vsnl_batch_add_nlh(struct vsnl *c, const struct nlmsghdr *nlh, uint32_t *seq,
		       struct vsnl_err *err);

/* Send END and wait: 0 when the batch was applied, else a negative errno and @err. */
int vsnl_batch_end(struct vsnl *c, struct vsnl_err *err);

/*
 * vsnl_batch_end() in two halves, for a client that has work to do while
 * the daemon applies the batch (build the next one): send END, then read
 * its answer. Between them the connection takes no request and no batch
 * (EBUSY); the answer is vsnl_batch_end()'s.
 */
int vsnl_batch_end_send(struct vsnl *c, struct vsnl_err *err);
int vsnl_batch_end_wait(struct vsnl *c, struct vsnl_err *err);

#endif /* VSNL_H */
