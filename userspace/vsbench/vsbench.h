/* SPDX-License-Identifier: Apache-2.0 */
/*
 * vsbench's own commands, those that talk to a running vschedd (load) or
 * run vsbench itself (sweep), and its client of the daemon (load.c,
 * socket.c), which "vsbench run --mode socket" drives. The commands that
 * run the core in-process, and the synthetic clusters every command
 * builds, are the harness's (harness/bench.h).
 */
#ifndef VSBENCH_H
#define VSBENCH_H

#include "harness/harness.h"

int vsbench_load(int argc, char **argv);
int vsbench_sweep(int argc, char **argv);

/* ---- requests to vschedd in batches (load.c): vsbench load, vsbench run --mode socket ---- */

struct vsnl;
struct nlmsghdr;
struct vsbench_load_obj;

/*
 * Requests to vschedd on one connection, in batches of @batch messages that
 * the daemon applies all or nothing (<= 1: one request each, acknowledged
 * before the next). The first refusal is printed on stderr, "prog: what
 * name: the daemon's message", and returned (a negative errno): the caller
 * stops, the batches before it stay applied.
 */
struct vsbench_loader {
	const char *prog;
	struct vsnl *c;
	unsigned char *buf;		/* VS_MSG_MAX: one request, for vsnl_msg_put() */
	unsigned long batch;		/* messages per batch; <= 1: one acked request each */
	/*
	 * The next batch, written while the daemon applies the one before
	 * and sent once that one's verdict is in: the messages back to back,
	 * and their names.
	 */
	unsigned char *stage;
	size_t stage_len, stage_cap;
	struct vsbench_load_obj *staged;
	unsigned long nr_staged;
	/* The batch sent, whose END is not answered yet. */
	struct vsbench_load_obj *held;	/* by seq - first_seq */
	unsigned long nr_held;		/* 0: none */
	u32 first_seq;			/* the seq of its first message */
	unsigned long room;		/* staged's and held's */
	unsigned long batches;		/* batches applied */
	unsigned long sent;		/* messages the daemon applied */
};

/*
 * @most: the most messages sent between two flushes (a batch never needs
 * more room than that). 0, or -ENOMEM.
 */
int vsbench_loader_init(struct vsbench_loader *l, const char *prog, struct vsnl *c,
			unsigned long batch, unsigned long most);
void vsbench_loader_destroy(struct vsbench_loader *l);

/*
 * The request in @nlh (copied; l->buf may hold it) into the next batch,
 * which is sent when full, once the batch before is applied; @what and
 * @name (kept until the batch ends) name it if refused. A refusal is
 * returned by the call that reads it: the one that sends the batch after.
 */
int vsbench_loader_add(struct vsbench_loader *l, const struct nlmsghdr *nlh, const char *what,
		       const char *name);

/* Send what is staged, and wait for the daemon's verdict on every batch sent. */
int vsbench_loader_flush(struct vsbench_loader *l);

/*
 * Every request of @cl the harness's encoder makes (harness/encode.h:
 * harness_encode_nr() of them, in dependency order), the last batch
 * flushed. 0 or a negative errno, reported.
 */
int vsbench_load_cluster(struct vsbench_loader *l, const struct vs_cluster *cl);

/* ---- vsbench run --mode socket (socket.c): the daemon's side of a run ---- */

struct vsbench_remote;

/* What VS_CMD_STATS_GET says, of what a run reports. */
struct vsbench_daemon_stats {
	u32 nodes, queues, podgroups, tasks, vjobs, prioclasses;
	u64 last_cycle;			/* 0 before the first */
	u32 last_pending;		/* tasks pending after it */
	bool has_rss;
	u64 rss;			/* the daemon's resident set, now */
	unsigned int pools;		/* 1: node_pool came, 2: task_pool came */
	struct vs_pool_stats node_pool, task_pool;
};

#define VSBENCH_REMOTE_ACTIONS	16

/* One cycle, as the daemon ran and reported it; times of this side in seconds. */
struct vsbench_remote_cycle {
	u64 id;
	u64 duration_ns;		/* VS_CYCLE_A_DURATION_NS: the daemon's own clock */
	u32 binds;			/* bind decisions read from the notifications */
	u32 daemon_binds;		/* VS_CYCLE_A_BINDS, which they must match */
	u32 pending;			/* VS_CYCLE_A_PENDING */
	u32 nr_actions;
	char action_names[VSBENCH_REMOTE_ACTIONS][32];
	u64 action_ns[VSBENCH_REMOTE_ACTIONS];
	double wall;			/* VS_CMD_CYCLE_RUN sent to its last notification read */
	double confirm;			/* its binds answered, the batches applied */
};

/*
 * Connect twice to the daemon at @socket (NULL: $VSCHED_SOCKET, else the
 * default), check that it holds no object and runs no periodic cycle, and
 * subscribe to decisions and cycles: the run is the binder. Errors are
 * printed with @prog; -EEXIST: the daemon holds objects.
 */
int vsbench_remote_open(struct vsbench_remote **r, const char *socket, const char *prog);
void vsbench_remote_close(struct vsbench_remote *r);

/*
 * Have the daemon queue a whole cycle's decisions of @cl for the run (VS_CMD_CONN_SET),
 * then load @cl with vsbench_load_cluster(), in batches of 1000: the objects applied, the time.
 */
int vsbench_remote_load(struct vsbench_remote *r, const struct vs_cluster *cl,
			unsigned long *objects, double *seconds);

/* Run a cycle, read its decisions, answer every bind (bound, running) before returning. */
int vsbench_remote_cycle(struct vsbench_remote *r, struct vsbench_remote_cycle *rc);

/* The actions the daemon's cycles ran, in order (known after the first cycle). */
const char *const *vsbench_remote_actions(const struct vsbench_remote *r, u32 *nr);

int vsbench_remote_stats(struct vsbench_remote *r, struct vsbench_daemon_stats *st);

#endif /* VSBENCH_H */
