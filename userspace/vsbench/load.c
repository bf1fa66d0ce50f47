// SPDX-License-Identifier: Apache-2.0
/*
 * "vsbench load": build a synthetic cluster in-process, as "vsbench
 * cluster" does, and send it to a running vschedd, object by object, as NEW
 * requests. Each object is written by the core's own _spec fills
 * (netlink/fill.h), so what arrives is exactly what was generated; the
 * daemon's answer to each is awaited (an ack or an error that names the
 * object), and the command reports objects per second.
 *
 * Objects go in dependency order: priority classes, queues, nodes, then each
 * PodGroup followed by its tasks.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/msg.h>

#include "lib/vsnl.h"
#include "netlink/fill.h"
#include "vsbench/vsbench.h"

struct loader {
	const char *prog;
	struct vsnl *c;
	unsigned char *buf;		/* one request, VS_MSG_MAX */
	unsigned long sent;
};

static struct nlmsghdr *request(struct loader *l, u8 cmd)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)l->buf;
	struct genlmsghdr *g;

	memset(nlh, 0, NLMSG_HDRLEN + GENL_HDRLEN);
	nlh->nlmsg_len = NLMSG_HDRLEN;
	nlh->nlmsg_type = VSCHED_GENL_ID;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	g = (struct genlmsghdr *)((char *)nlh + NLMSG_HDRLEN);
	g->cmd = cmd;
	g->version = VSCHED_GENL_VERSION;
	nlh->nlmsg_len += GENL_HDRLEN;
	return nlh;
}

/* Send the request in l->buf and wait for its ack. */
static int send_one(struct loader *l, const char *what, const char *name)
{
	struct nl_msg *m = nlmsg_convert((struct nlmsghdr *)l->buf);
	struct vsnl_err err = { 0 };
	int ret;

	if (!m) {
		fprintf(stderr, "%s: out of memory\n", l->prog);
		return -ENOMEM;
	}
	ret = vsnl_request(l->c, m, NULL, NULL, &err);
	if (ret) {
		fprintf(stderr, "%s: %s %s: %s\n", l->prog, what, name,
			err.msg[0] ? err.msg : strerror(-ret));
		return ret;
	}
	l->sent++;
	return 0;
}

/* One object: its NEW request written by @fill, sent, acked. */
#define LOAD(_l, _cmd, _fill, _obj, _what, _name)					\
	({										\
		struct nlmsghdr *__nlh = request((_l), (_cmd));				\
		_fill(__nlh, VS_MSG_MAX, (_obj)) ? send_one((_l), (_what), (_name)) :	\
			(fprintf(stderr, "%s: %s %s does not fit in a message\n",	\
				 (_l)->prog, (_what), (_name)), -EMSGSIZE);		\
	})

static int load_cluster(struct loader *l, const struct vs_cluster *cl)
{
	const struct vs_prioclass *pc;
	const struct vs_queue *q;
	const struct vs_node *n;
	const struct vs_job *j;
	const struct vs_task *t;
	int ret;

	list_for_each_entry(pc, &cl->prioclasses, list)
		if ((ret = LOAD(l, VS_CMD_PRIOCLASS_NEW, vs_nl_put_prioclass_spec, pc,
				"priority class", pc->name)))
			return ret;
	list_for_each_entry(q, &cl->queues, list)
		if ((ret = LOAD(l, VS_CMD_QUEUE_NEW, vs_nl_put_queue_spec, q, "queue", q->name)))
			return ret;
	list_for_each_entry(n, &cl->nodes, list)
		if ((ret = LOAD(l, VS_CMD_NODE_NEW, vs_nl_put_node_spec, n, "node", n->name)))
			return ret;
	list_for_each_entry(j, &cl->jobs, list) {
		if ((ret = LOAD(l, VS_CMD_PODGROUP_NEW, vs_nl_put_podgroup_spec, j, "PodGroup",
				j->name)))
			return ret;
		list_for_each_entry(t, &j->tasks, job_node)
			if ((ret = LOAD(l, VS_CMD_TASK_NEW, vs_nl_put_task_spec, t, "task",
					t->name)))
				return ret;
	}
	return 0;
}

static void usage(FILE *out, const char *prog)
{
	fprintf(out,
		"usage: %s [--socket PATH] [-n NODES] [-q QUEUES] [-j JOBS] [-t TASKS_PER_JOB]\n"
		"       [-r RUNNING_PCT] [-s SEED]\n"
		"\n"
		"Build a synthetic cluster and send it to vschedd as NEW requests, one\n"
		"object at a time, each acknowledged; report objects per second.\n"
		"  --socket PATH          the daemon's socket (default $VSCHED_SOCKET, else %s)\n",
		prog, VSCHED_SOCKET_DEFAULT);
}

enum { OPT_SOCKET = 0x100 };

int vsbench_load(int argc, char **argv)
{
	static const struct option longopts[] = {
		VSBENCH_SHAPE_LONGOPTS,
		{ "socket", required_argument, NULL, OPT_SOCKET },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct vsbench_shape shape = {
		.nodes = 100, .queues = 4, .jobs = 200, .tasks_per_job = 8, .seed = 1,
	};
	struct loader l = { .prog = argv[0] };
	struct vsnl_err err = { 0 };
	const char *socket = NULL;
	unsigned long running;
	struct vs_cluster cl;
	double t0, t;
	int c, ret;

	while ((c = getopt_long(argc, argv, VSBENCH_SHAPE_SHORTOPTS "h", longopts, NULL)) != -1) {
		if (c == OPT_SOCKET) {
			socket = optarg;
			continue;
		}
		if (c == 'h') {
			usage(stdout, argv[0]);
			return 0;
		}
		ret = vsbench_shape_opt(argv[0], c, optarg, &shape);
		if (ret < 0)
			return 2;
		if (ret > 0) {
			usage(stderr, argv[0]);
			return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "%s: unexpected argument \"%s\"\n", argv[0], argv[optind]);
		return 2;
	}
	if (vsbench_shape_check(argv[0], &shape))
		return 2;
	l.c = vsnl_open(socket, &err);
	if (!l.c) {
		fprintf(stderr, "%s: %s\n", argv[0], err.msg);
		return 1;
	}
	l.buf = malloc(VS_MSG_MAX);
	if (!l.buf || vs_cluster_init(&cl)) {
		fprintf(stderr, "%s: out of memory\n", argv[0]);
		free(l.buf);
		vsnl_close(l.c);
		return 1;
	}
	vsbench_seed(shape.seed);
	ret = vsbench_build(&cl, &shape, &running);
	if (!ret) {
		t0 = vsbench_now();
		ret = load_cluster(&l, &cl) ? 1 : 0;
		t = vsbench_now() - t0;
		printf("vsbench load: %lu objects (%u nodes, %u queues, %u podgroups, %u tasks) "
		       "in %.3f s, %.0f objects/s, one request each\n",
		       l.sent, cl.nr_nodes, cl.nr_queues, cl.nr_jobs, cl.nr_tasks, t,
		       t > 0 ? (double)l.sent / t : 0.0);
	}
	vs_cluster_destroy(&cl);
	free(l.buf);
	vsnl_close(l.c);
	return ret;
}
