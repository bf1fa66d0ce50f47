/* SPDX-License-Identifier: Apache-2.0 */
/*
 * vschedd: the core, its socket server and its event loop.
 *
 * One thread, run to completion, as Open vSwitch's daemons run: epoll waits
 * on the listening socket, the clients, a timerfd that paces scheduling
 * cycles and a signalfd. A datagram of requests is handled whole before the
 * next event, and a cycle runs whole between datagrams, so no client ever
 * sees a request or a cycle half applied. Nothing blocks: sockets are
 * non-blocking, what a client's socket does not take waits in its
 * out-queue, and notifications that would grow the out-queue past its
 * bound are dropped and the client told with ENOBUFS, as netlink does.
 *
 * The files: loop.c (the loop, the socket, signals, the timer, the
 * configuration file), client.c (connections: credentials, out-queues),
 * rcv.c (datagrams to the dispatcher, dumps, subscriptions), cycle.c
 * (cycles, the decision sink, the standalone binder), notify.c (the
 * multicast messages), opts.c (the command line), main.c.
 */
#ifndef VS_DAEMON_VSCHEDD_H
#define VS_DAEMON_VSCHEDD_H

#include <signal.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "bind/bind.h"
#include "core/arena.h"
#include "core/cluster.h"
#include "core/list.h"
#include "netlink/batch.h"
#include "netlink/handlers.h"
#include "sched/session.h"
#include "vsched/vsched.h"

/*
 * A reply datagram: any one answer fits (an object or a configuration,
 * whose nest counts at most 0xffff bytes, with its ack), and a datagram
 * this size fits a Unix socket's default send buffer (net.core.wmem_default).
 */
#define VSCHEDD_REPLY_MAX	(128u << 10)
/*
 * The room a request's answer may need: the largest message, an ack and
 * the room the dispatcher keeps for an error. Answers to the messages of
 * one datagram share a reply datagram while this much is left.
 */
#define VSCHEDD_REPLY_ROOM	(NLMSG_HDRLEN + GENL_HDRLEN + 0xffff + \
				 NLMSG_HDRLEN + sizeof(struct nlmsgerr) + VS_NL_ERROR_MIN)
/* A multicast message: VS_CMD_DECISIONS holds as many decisions as fit. */
#define VSCHEDD_NOTIFY_MAX	(64u << 10)
/*
 * A client's out-queue: notifications that would take it past its receive
 * queue (VSCHEDD_OUTQ_MAX unless it asked for another with VS_CMD_CONN_SET)
 * are dropped (the client gets ENOBUFS), and the client's requests are not
 * read while it is over; replies are dropped the same way only past four
 * times the receive queue (VSCHEDD_OUTQ_HARD by default), which a single
 * datagram of requests can reach only by asking for gigabytes.
 */
#define VSCHEDD_OUTQ_MAX	(16u << 20)
#define VSCHEDD_OUTQ_HARD	(4 * VSCHEDD_OUTQ_MAX)
/*
 * The most a client may ask for (--rcvbuf-max): room for the decisions of
 * a cycle that binds a million tasks, about 80 bytes each.
 */
#define VSCHEDD_RCVBUF_MAX_DEFAULT	(256ull << 20)
#define VSCHEDD_RCVBUF_MAX_LIMIT	(64ull << 30)

/*
 * What the connections without the admin permission may have waiting in
 * their out-queues together (--unpriv-queue-max): past it what would wait
 * for one of them is dropped and it gets ENOBUFS, so that readers anyone
 * may open cannot take the memory the state needs. Four connections'
 * default queues; the admin's connections are bounded by their own queue
 * alone. Out-queues are charged to their connections, not to the state:
 * they do not count against --max-memory.
 */
#define VSCHEDD_UNPRIV_QUEUE_MAX_DEFAULT	(4 * (u64)VSCHEDD_OUTQ_MAX)

/* --max-memory: from what an empty daemon holds, with room, to far past any machine. */
#define VSCHEDD_MAX_MEMORY_MIN		(64ull << 20)
#define VSCHEDD_MAX_MEMORY_LIMIT	(64ull << 40)

/*
 * The longest socket path: a Unix socket's address holds 107 bytes, and
 * the socket is made at PATH~ first (loop.c, listen_on()).
 */
#define VSCHEDD_SOCKET_PATH_MAX		106

/* Datagrams read from one client, and dump parts made for it, per wake-up. */
#define VSCHEDD_BURST		16

/*
 * Out of descriptors or memory at accept(): how long the listener is left
 * unwatched when no spare descriptor can refuse the connection (loop.c),
 * and how often the refusals are logged.
 */
#define VSCHEDD_ACCEPT_BACKOFF_MS	100u
#define VSCHEDD_ACCEPT_LOG_MS		10000u

/* Something epoll watches: the daemon's descriptors and each client. */
struct vschedd_watch {
	int fd;
	u32 events;			/* what epoll is asked for now */
	void (*ready)(struct vschedd_watch *w, u32 events);
};

/* A reply or notification waiting for the client's socket to take it. */
struct vs_outmsg {
	struct list_head node;		/* vs_client.outq, oldest first */
	size_t len;
	size_t charge;			/* the heap it takes, in vschedd.queued */
	unsigned char data[];
};

struct vschedd;

struct vs_client {
	struct list_head node;		/* vschedd.clients */
	struct vschedd *d;
	struct vschedd_watch w;
	struct vs_genl_ctx ctx;		/* portid, admin, priv: the handlers' view */
	pid_t pid;			/* SO_PEERCRED, at connect time */
	uid_t uid;
	gid_t gid;
	u32 groups;			/* multicast groups joined: BIT(enum vs_mcgrp) */
	struct vs_nl_batch batch;	/* its batch, if one is open */
	/* A dump under way: a copy of its request, and where it is. */
	struct nlmsghdr *dump_req;
	struct vs_genl_dump dump;
	struct list_head outq;		/* struct vs_outmsg */
	size_t outq_bytes;
	u64 rcvbuf;			/* VS_CMD_CONN_SET's; 0: vschedd.outq_max */
	bool hold;			/* holds periodic cycles (VS_CONN_A_HOLD) */
	bool overrun;			/* notifications were dropped: owes ENOBUFS */
	bool deaf;			/* the peer is gone: its requests are read, answers dropped */
	bool dead;			/* gone: freed once the events at hand are handled */
};

enum vschedd_binder {
	VSCHEDD_BINDER_DEFAULT,		/* auto while no admin subscribes to decisions */
	VSCHEDD_BINDER_AUTO,		/* confirm every bind itself (standalone) */
	VSCHEDD_BINDER_EXTERNAL,	/* wait for VS_CMD_BIND_RESULT */
};

/*
 * A debug build (make DEBUG=1, and SANITIZE=1, which implies it) checks the
 * core after every operation unless told not to (--no-self-check).
 */
#ifdef VS_DEBUG_CHECKS
#define VSCHEDD_SELF_CHECK_DEFAULT	true
#else
#define VSCHEDD_SELF_CHECK_DEFAULT	false
#endif

/* How long a bind waits for its result (--bind-timeout). */
#define VSCHEDD_BIND_TIMEOUT_DEFAULT_MS	30000u
#define VSCHEDD_BIND_TIMEOUT_MAX_MS	3600000u

struct vschedd_opts {
	const char *socket_path;
	const char *conf_path;		/* NULL: the built-in vs_conf_default_text */
	u32 period_ms;			/* 0: cycles only on request */
	enum vschedd_binder binder;
	const char *scheduler_name;	/* --scheduler-name: the pods it places */
	const char *controller_conf_path;	/* --controller-conf; NULL: no discovery */
	u32 bind_timeout_ms;		/* 0: binds wait for their result forever */
	bool have_admin_group;
	gid_t admin_gid;
	int verbosity;
	/*
	 * --self-check: vs_cluster_check() after every datagram of requests,
	 * cycle and bind timeout, and abort() on a fault, for tests that must
	 * know that no request, bind result or timeout ever left the
	 * accounting wrong. On by default in a debug build
	 * (VSCHEDD_SELF_CHECK_DEFAULT); --no-self-check turns it off.
	 */
	bool self_check;
	/* --rcvbuf-max: the most VS_CMD_CONN_SET may ask for; 0: the default */
	u64 rcvbuf_max;
	/* --unpriv-queue-max: what unprivileged connections queue together; 0: the default */
	u64 unpriv_queue_max;
	/* --limit KIND=N: the most objects of each kind (core/cluster.h); 0: the default */
	struct vs_cluster_limits limits;
	/* --max-memory: the cap on the heap (core/mem.h), bytes; 0: none */
	u64 max_memory;
	/*
	 * --checkpoint FILE: restored at start, written every
	 * checkpoint_interval_ms (0: only at a clean stop) and at a clean stop
	 * (checkpoint.c). NULL: the state lives in memory only.
	 */
	const char *checkpoint_path;
	u32 checkpoint_interval_ms;
	/*
	 * --set-aside-bad-checkpoint: a checkpoint that cannot be restored is
	 * renamed aside and the daemon starts empty, instead of not starting.
	 */
	bool set_aside_bad_checkpoint;
	/* --conf or --period was given: a checkpoint's configuration is not restored */
	bool conf_given;
};

/* How often a checkpoint is written unless told (--checkpoint-interval). */
#define VSCHEDD_CHECKPOINT_INTERVAL_DEFAULT_MS	60000u
#define VSCHEDD_CHECKPOINT_INTERVAL_MAX_MS	86400000u

/* The answers to the datagram being handled, in d->txbuf. */
struct vschedd_tx {
	struct vs_client *c;		/* whom they go to; NULL between datagrams */
	struct vs_nl_reply r;
	size_t done;			/* the bytes answering the messages before the current one */
	size_t sent;			/* the bytes sent already (vschedd_tx_order()) */
};

struct vschedd {
	struct vschedd_opts opts;
	struct vs_cluster cl;
	struct vs_sched sched;
	struct vs_arena arena;		/* request scratch */
	struct vs_nl_core core;		/* what the handlers act on */
	struct vs_genl_ctx self;	/* the daemon's own requests (standalone binds) */
	struct vs_mem_cap mem_cap;	/* --max-memory, for the clients' requests */

	int epfd;
	struct vschedd_watch lw, tw, sw;	/* the listening socket, timer, signals */
	dev_t sock_dev;			/* the socket file made, removed at exit if still it */
	ino_t sock_ino;
	bool sock_made;
	sigset_t old_mask;		/* before the signals were taken over */
	struct sigaction old_pipe;
	bool signals_taken;
	u32 armed_ms;			/* the timer's period; 0: disarmed */
	bool stop;

	/*
	 * Out of descriptors (loop.c, listen_ready()): the spare given up to
	 * accept a connection and close it (-1: none now), when the listener
	 * is watched again (CLOCK_MONOTONIC ns; 0: it is), when the next log
	 * line may come and the refusals it has to tell. The count of all is
	 * core.ctl.conn_refused.
	 */
	int spare_fd;
	u64 listen_resume_ns;
	u64 accept_log_ns;
	u64 refused_unlogged;

	struct list_head clients;
	u32 nr_clients;
	u32 next_portid;
	u32 nr_subscribers[VS_MCGRP_MAX + 1];
	u32 nr_binders;			/* admin connections subscribed to decisions */
	u32 nr_holds;			/* connections holding periodic cycles */
	size_t outq_max;		/* a connection's queue: VSCHEDD_OUTQ_MAX; tests lower it */
	u64 rcvbuf_max;			/* opts.rcvbuf_max, or its default */
	/*
	 * The out-queues: the heap all of them hold (charged to the
	 * connections, and taken off what the memory cap counts), and the
	 * bytes waiting for connections without the admin permission, at
	 * most unpriv_queue_max (opts', or its default).
	 */
	u64 queued;
	u64 queued_unpriv;
	u64 unpriv_queue_max;

	struct vschedd_tx tx;

	/*
	 * The binds and evictions of the running cycle, which the standalone
	 * binder carries out after it.
	 */
	struct vs_task_ref *binds;
	size_t nr_binds, cap_binds;
	struct vs_task_ref *evicts;
	size_t nr_evicts, cap_evicts;

	/*
	 * The binds waiting for an external binder's result, on
	 * CLOCK_MONOTONIC, with opts.bind_timeout_ms: one past its deadline
	 * fails with ETIMEDOUT, as a failed VS_CMD_BIND_RESULT would.
	 */
	struct vs_binds waits;

	/* The next periodic checkpoint (CLOCK_MONOTONIC, ns); 0: none is due. */
	u64 checkpoint_due_ns;

	/* The VS_CMD_DECISIONS message being filled during a cycle. */
	struct vs_nl_reply dec;
	struct nlmsghdr *dec_nlh;	/* NULL: none open */

	unsigned char *rxbuf;		/* one datagram: VS_MSG_MAX */
	unsigned char *txbuf;		/* VSCHEDD_REPLY_MAX */
	unsigned char *notebuf;		/* VSCHEDD_NOTIFY_MAX */
};

/* ---- opts.c ---- */

/* What vschedd_parse_args() tells main() to do. */
enum vschedd_args {
	VSCHEDD_ARGS_RUN,		/* serve with the options parsed */
	VSCHEDD_ARGS_EXIT,		/* --help or --version was answered: exit 0 */
	VSCHEDD_ARGS_USAGE = 2,		/* a bad argument, said on @err: exit 2 */
};

/*
 * The command line and the environment ($VSCHED_SOCKET) into @o; --help and
 * --version print to @out, errors (what and where) to @err.
 */
enum vschedd_args vschedd_parse_args(int argc, char **argv, struct vschedd_opts *o, FILE *out,
				     FILE *err);


/* ---- loop.c ---- */

/* Bring the daemon up: configuration, core, socket, timer, signals. */
int vschedd_init(struct vschedd *d, const struct vschedd_opts *opts, struct vs_err *err);

/* Serve until SIGTERM or SIGINT: 0 on a clean stop, else a negative errno. */
int vschedd_run(struct vschedd *d);

/* Everything init made goes: clients, the socket file (if still the one made), the core. */
void vschedd_destroy(struct vschedd *d);

/* Read the configuration file again (SIGHUP); on error the one in force stays. */
int vschedd_reload(struct vschedd *d, struct vs_err *err);

/* Ask epoll for @events on @w (EPOLLIN, EPOLLOUT), if that changes anything. */
int vschedd_watch_set(struct vschedd *d, struct vschedd_watch *w, u32 events);

/* ---- checkpoint.c ---- */

/* vschedd_checkpoint_restore(): not restored, and --set-aside-bad-checkpoint was given. */
#define VSCHEDD_CKPT_SET_ASIDE	1

/*
 * At start, before the socket: the core from --checkpoint FILE, if there
 * is one, whole or not at all. A missing file is a first start (0); one
 * that cannot be read, is damaged or is refused, at any message, stops the
 * daemon (its reason in @err) and is left as it is, never written over.
 * With --set-aside-bad-checkpoint such a file is VSCHEDD_CKPT_SET_ASIDE
 * instead (its reason logged): the caller makes the core again, empty,
 * then calls vschedd_checkpoint_set_aside().
 */
int vschedd_checkpoint_restore(struct vschedd *d, struct vs_err *err);

/* The checkpoint that was not restored, renamed to FILE.bad-TIME; said loudly. */
int vschedd_checkpoint_set_aside(struct vschedd *d, struct vs_err *err);

/* Write the checkpoint now, atomically; @why is for the log. 0 or a negative errno. */
int vschedd_checkpoint_write(struct vschedd *d, const char *why);

/*
 * The periodic checkpoint: written if due. Returns the milliseconds until
 * the next one (an epoll timeout), or -1 when none is due.
 */
int vschedd_checkpoint_tick(struct vschedd *d);

/* ---- client.c ---- */

/*
 * A client on the connected socket @fd (taken, closed on failure) with the
 * peer's credentials and supplementary groups: NULL when out of memory.
 */
struct vs_client *vschedd_client_new(struct vschedd *d, int fd, const struct ucred *cred,
				     const gid_t *groups, size_t nr_groups);

/* Disconnect @c: its state goes now, the memory once the events at hand are handled. */
void vschedd_client_kill(struct vschedd *d, struct vs_client *c);

/* Free the clients killed. */
void vschedd_client_reap(struct vschedd *d);

/*
 * The admin permission, as GENL_ADMIN_PERM asks for CAP_NET_ADMIN: root, or
 * the admin group as the peer's group or one of its supplementary groups.
 */
bool vschedd_peer_admin(const struct vschedd_opts *o, uid_t uid, gid_t gid,
			const gid_t *groups, size_t nr_groups);

/*
 * Give @len bytes (a whole datagram) to @c: to its socket at once if its
 * out-queue is empty, else to the out-queue. A notification that would take
 * the out-queue past its receive queue is dropped (-ENOBUFS) and the client told
 * when its out-queue has drained. -EPIPE when the client is gone (it is
 * killed), -ENOMEM.
 */
int vschedd_send(struct vschedd *d, struct vs_client *c, const void *buf, size_t len,
		 bool notification);

/* Notifications meant for @c were lost: it gets ENOBUFS once its queue has room. */
void vschedd_client_overrun(struct vschedd *d, struct vs_client *c);

/* The most notifications that may wait for @c, in bytes: its receive queue. */
size_t vschedd_client_rcvbuf(const struct vschedd *d, const struct vs_client *c);

/* Size @c's receive queue (VS_CMD_CONN_SET, checked against d->rcvbuf_max). */
void vschedd_client_set_rcvbuf(struct vschedd *d, struct vs_client *c, u64 rcvbuf);

/*
 * Whether @c holds periodic cycles: while any connection does, the timer's
 * cycles are skipped. A connection that goes lets go.
 */
void vschedd_client_hold(struct vschedd *d, struct vs_client *c, bool hold);

/* Join or leave a multicast group. */
void vschedd_client_subscribe(struct vschedd *d, struct vs_client *c, unsigned int group,
			      bool join);

/* ---- rcv.c ---- */

/* Handle one datagram from @c: every message in it is answered. */
void vschedd_rcv(struct vschedd *d, struct vs_client *c, const void *buf, size_t len);

/* Go on with @c's dump while its socket takes the parts. */
void vschedd_dump_continue(struct vschedd *d, struct vs_client *c);

/* Drop @c's dump (its client went). */
void vschedd_dump_end(struct vs_client *c);

/*
 * Before a notification goes to @c: if @c is being answered, the answers
 * to its messages before the current one go first, so that it reads
 * everything in the order it happened.
 */
void vschedd_tx_order(struct vschedd *d, struct vs_client *c);

/* What the handlers call back (handlers.h): subscriptions and cycles. */
extern const struct vs_nl_host_ops vschedd_host_ops;

/* ---- cycle.c ---- */

/*
 * One scheduling cycle now, and what follows it: the decisions to the
 * decisions group, the binds confirmed in standalone mode, the cycle to the
 * cycles group. Its numbers are in d->core.ctl.last_cycle.
 */
int vschedd_cycle(struct vschedd *d, struct vs_err *err);

/*
 * The binds past their timeout fail (vschedd_opts.bind_timeout_ms); the
 * milliseconds until the next deadline, or -1 when none waits.
 */
int vschedd_binds_expire(struct vschedd *d);

/*
 * With --self-check: the core's invariants hold after @what (a datagram of
 * requests, a cycle), or the daemon says which one broke and aborts.
 */
void vschedd_self_check(const struct vschedd *d, const char *what);

/* Whether the daemon confirms its own binds now (--binder, and the admins subscribed). */
bool vschedd_binder_auto(const struct vschedd *d);

/* The decision sink of d->sched. */
void vschedd_sink_init(struct vschedd *d);

/* ---- notify.c ---- */

/* A decision of the running cycle, to the decisions group (no-op without subscribers). */
void vschedd_notify_decision(struct vschedd *d, enum vs_decision_kind kind,
			     const struct vs_task *task, const char *node, const char *reason);

/* The cycle's commits are over: its last VS_CMD_DECISIONS goes. */
void vschedd_notify_decisions_end(struct vschedd *d);

/* VS_CMD_CYCLE with @cy to the cycles group. */
void vschedd_notify_cycle(struct vschedd *d, const struct vs_nl_cycle *cy);

/*
 * The events the handlers, the hooks and the cycle made since the last
 * call go to the events group, in datagrams of VSCHEDD_NOTIFY_MAX bytes at
 * most; listeners owed ENOBUFS when some were lost. Called after each
 * message of a client and before a cycle's VS_CMD_CYCLE notification.
 */
void vschedd_notify_events(struct vschedd *d);

/* Send the datagram @buf (whole messages) to every client in @group. */
void vschedd_multicast(struct vschedd *d, unsigned int group, const void *buf, size_t len);

/* Append the NLMSG_ERROR that tells a client its notifications were dropped. */
int vschedd_put_enobufs(struct vs_nl_reply *r);

#endif /* VS_DAEMON_VSCHEDD_H */
