// SPDX-License-Identifier: Apache-2.0
/*
 * "vsbench load": build a synthetic cluster in-process, as "vsbench
 * cluster" does, and send it to a running vschedd as NEW requests. The
 * harness writes each object's request (harness/encode.h, with the core's
 * own fills) into the loader's buffer, so what arrives is exactly what was
 * generated.
 *
 * Objects go in batches (Documentation/protocol.md, "Batches"), --batch of
 * them each, applied by the daemon all or nothing: the socket carries them
 * packed into large datagrams and nothing waits on an object, and the next
 * batch is written while the daemon applies the one before (its verdict is
 * read before the next is sent), so the rate is what the socket and the
 * daemon can do. --batch 1 (or 0) sends one
 * request per object and waits for its ack, for comparison. Either way the
 * first refusal stops the load and is reported with the daemon's words,
 * which name the object; the batches before it stay applied. The command
 * reports objects per second.
 *
 * Objects go in the encoder's dependency order: priority classes, queues,
 * nodes, PodGroups, then tasks. A batch applies its messages in the order
 * they came, so a task may follow its PodGroup in the same batch.
 *
 * The loader (struct vsbench_loader) is also "vsbench run --mode socket"'s
 * (socket.c): it loads the preset's cluster with it, and sends the binder's
 * answers between cycles through the same batches.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/msg.h>

#include "lib/vsnl.h"
#include "vsbench/vsbench.h"

#define LOAD_BATCH_DEFAULT	1000
#define LOAD_BATCH_MAX		1000000

/* An object of the open batch, to name it when the daemon names only its seq. */
struct vsbench_load_obj {
	const char *what;
	const char *name;
};

/* The request in @nlh, alone, and its ack. */
static int send_one(struct vsbench_loader *l, const struct nlmsghdr *nlh, const char *what,
		    const char *name)
{
	struct vsnl_err err = { 0 };
	int ret;

	/* vsnl_request() consumes a NULL message as "out of memory" */
	ret = vsnl_request(l->c, nlmsg_convert((struct nlmsghdr *)nlh), NULL, NULL, &err);
	if (ret) {
		fprintf(stderr, "%s: %s %s: %s\n", l->prog, what, name,
			err.msg[0] ? err.msg : strerror(-ret));
		return ret;
	}
	l->sent++;
	return 0;
}

/* The daemon's verdict on the batch sent, if one waits for it. */
static int batch_wait(struct vsbench_loader *l)
{
	unsigned long n = l->nr_held;
	struct vsnl_err err = { 0 };
	u32 i;
	int ret;

	if (!n)
		return 0;
	l->nr_held = 0;
	ret = vsnl_batch_end_wait(l->c, &err);
	if (!ret) {
		l->sent += n;
		l->batches++;
		return 0;
	}
	i = err.seq - l->first_seq;
	if (err.seq && i < n)
		fprintf(stderr, "%s: %s %s: %s\n", l->prog, l->held[i].what, l->held[i].name,
			err.msg);
	else
		fprintf(stderr, "%s: a batch of %lu objects: %s\n", l->prog, n, err.msg);
	return ret;
}

/*
 * Send the staged messages as a batch, once the batch before is applied,
 * and leave its verdict to read later: the caller writes the next batch
 * meanwhile, and the daemon applies this one. A batch refused stops
 * everything after it unsent.
 */
static int batch_send(struct vsbench_loader *l)
{
	struct vsbench_load_obj *names;
	struct vsnl_err err = { 0 };
	const struct nlmsghdr *nlh;
	size_t off = 0;
	u32 seq;
	int ret;

	if (!l->nr_staged)
		return 0;
	ret = batch_wait(l);
	if (ret)
		return ret;
	ret = vsnl_batch_begin(l->c, &err);
	if (ret) {
		fprintf(stderr, "%s: %s\n", l->prog, err.msg);
		return ret;
	}
	for (unsigned long i = 0; i < l->nr_staged; i++, off += NLMSG_ALIGN(nlh->nlmsg_len)) {
		nlh = (const struct nlmsghdr *)(l->stage + off);
		/* fails only on our side; the daemon's verdict comes with the end */
		ret = vsnl_batch_add_nlh(l->c, nlh, &seq, &err);
		if (ret) {
			fprintf(stderr, "%s: %s %s: %s\n", l->prog, l->staged[i].what,
				l->staged[i].name, err.msg);
			return ret;
		}
		if (!i)
			l->first_seq = seq;
	}
	ret = vsnl_batch_end_send(l->c, &err);
	if (ret) {
		fprintf(stderr, "%s: a batch of %lu objects: %s\n", l->prog, l->nr_staged,
			err.msg);
		return ret;
	}
	names = l->held;
	l->held = l->staged;
	l->staged = names;
	l->nr_held = l->nr_staged;
	l->nr_staged = 0;
	l->stage_len = 0;
	return 0;
}

/* The request in @nlh into the next batch; full, it is sent. */
static int batch_add(struct vsbench_loader *l, const struct nlmsghdr *nlh, const char *what,
		     const char *name)
{
	size_t len = NLMSG_ALIGN(nlh->nlmsg_len);

	if (l->stage_len + len > l->stage_cap) {
		size_t cap = l->stage_cap ? 2 * l->stage_cap : 1u << 20;
		unsigned char *stage;

		while (cap < l->stage_len + len)
			cap *= 2;
		stage = realloc(l->stage, cap);
		if (!stage) {
			fprintf(stderr, "%s: out of memory\n", l->prog);
			return -ENOMEM;
		}
		l->stage = stage;
		l->stage_cap = cap;
	}
	memcpy(l->stage + l->stage_len, nlh, nlh->nlmsg_len);
	memset(l->stage + l->stage_len + nlh->nlmsg_len, 0, len - nlh->nlmsg_len);
	l->stage_len += len;
	l->staged[l->nr_staged++] = (struct vsbench_load_obj){ .what = what, .name = name };
	/* full: the batch size, or (a caller's promise broken) the room to name them */
	return l->nr_staged == l->batch || l->nr_staged == l->room ? batch_send(l) : 0;
}

int vsbench_loader_add(struct vsbench_loader *l, const struct nlmsghdr *nlh, const char *what,
		       const char *name)
{
	return l->batch > 1 ? batch_add(l, nlh, what, name) : send_one(l, nlh, what, name);
}

int vsbench_loader_flush(struct vsbench_loader *l)
{
	int ret = batch_send(l);

	return ret ? ret : batch_wait(l);
}

int vsbench_loader_init(struct vsbench_loader *l, const char *prog, struct vsnl *c,
			unsigned long batch, unsigned long most)
{
	*l = (struct vsbench_loader){ .prog = prog, .c = c, .batch = batch };
	l->buf = malloc(VS_MSG_MAX);
	if (!l->buf)
		return -ENOMEM;
	if (batch > 1) {
		/* no larger than the requests: a huge --batch on a small cluster costs nothing */
		l->room = batch < most ? batch : most + 1;
		l->held = calloc(l->room, sizeof(*l->held));
		l->staged = calloc(l->room, sizeof(*l->staged));
		if (!l->held || !l->staged) {
			vsbench_loader_destroy(l);
			return -ENOMEM;
		}
	}
	return 0;
}

void vsbench_loader_destroy(struct vsbench_loader *l)
{
	free(l->held);
	free(l->staged);
	free(l->stage);
	free(l->buf);
	l->held = l->staged = NULL;
	l->stage = NULL;
	l->buf = NULL;
}

/* One request of the harness's encoder, into the loader. */
static int load_one(const struct harness_msg *msg, void *arg)
{
	return vsbench_loader_add(arg, msg->nlh, msg->what, msg->name);
}

int vsbench_load_cluster(struct vsbench_loader *l, const struct vs_cluster *cl)
{
	struct vsnl_err err = { 0 };
	int ret;

	ret = harness_encode_cluster(cl, l->buf, VS_MSG_MAX, load_one, l, &err);
	if (ret && err.err)
		fprintf(stderr, "%s: %s\n", l->prog, err.msg);
	return ret ? ret : vsbench_loader_flush(l);
}

static const struct vsbench_shape load_shape = {
	.nodes = 100, .queues = 4, .jobs = 200, .tasks_per_job = 8, .running_pct = 0, .seed = 1,
};

static void usage(FILE *out, const char *prog)
{
	fprintf(out,
		"usage: %s [--socket PATH] [-b BATCH] [-n NODES] [-q QUEUES] [-j JOBS]\n"
		"       [-t TASKS_PER_JOB] [-r RUNNING_PCT] [-s SEED]\n"
		"\n"
		"Build a synthetic cluster and send it to vschedd as NEW requests, in\n"
		"batches applied all or nothing; report objects per second. The first\n"
		"refusal stops the load (exit status 1) and names the object; the batches\n"
		"before it stay applied.\n"
		"\n"
		"      --socket PATH      the daemon's socket (default $VSCHED_SOCKET, else\n"
		"                         %s)\n"
		"  -b, --batch N          objects per batch (default %u, at most %u); 0 or 1: one\n"
		"                         request per object, each acknowledged before the next\n",
		prog, VSCHED_SOCKET_DEFAULT, LOAD_BATCH_DEFAULT, LOAD_BATCH_MAX);
	vsbench_shape_usage(out, &load_shape);
	fprintf(out, "  -h, --help             this text\n");
}

enum { OPT_SOCKET = 0x100 };

int vsbench_load(int argc, char **argv)
{
	static const struct option longopts[] = {
		VSBENCH_SHAPE_LONGOPTS,
		{ "socket", required_argument, NULL, OPT_SOCKET },
		{ "batch", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct vsbench_shape shape = load_shape;
	unsigned long batch = LOAD_BATCH_DEFAULT;
	struct vsnl_err err = { 0 };
	struct vsbench_loader l;
	const char *socket = NULL;
	struct vsnl *conn;
	unsigned long running;
	struct vs_cluster cl;
	char how[64];
	double t0, t;
	int c, ret;

	while ((c = getopt_long(argc, argv, VSBENCH_SHAPE_SHORTOPTS "b:h", longopts,
				NULL)) != -1) {
		switch (c) {
		case OPT_SOCKET:
			socket = optarg;
			continue;
		case 'b':
			if (vsbench_parse_ulong("load", "batch", optarg, 0, LOAD_BATCH_MAX,
						&batch))
				return 2;
			continue;
		case 'h':
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
	conn = vsnl_open(socket, &err);
	if (!conn) {
		fprintf(stderr, "%s: %s\n", argv[0], err.msg);
		return 1;
	}
	ret = 1;
	if (vs_cluster_init(&cl)) {
		fprintf(stderr, "%s: out of memory\n", argv[0]);
		goto out_close;
	}
	vsbench_seed(shape.seed);
	if (vsbench_build(&cl, &shape, &running))
		goto out_cluster;
	if (vsbench_loader_init(&l, argv[0], conn, batch, harness_encode_nr(&cl))) {
		fprintf(stderr, "%s: out of memory\n", argv[0]);
		goto out_cluster;
	}
	t0 = vsbench_now();
	ret = vsbench_load_cluster(&l, &cl) ? 1 : 0;
	t = vsbench_now() - t0;
	if (l.batch > 1)
		snprintf(how, sizeof(how), "batches of %lu (%lu applied)", l.batch, l.batches);
	else
		snprintf(how, sizeof(how), "one request each");
	printf("vsbench load: %lu objects (%u nodes, %u queues, %u podgroups, %u tasks) "
	       "in %.3f s, %.0f objects/s, %s\n",
	       l.sent, cl.nr_nodes, cl.nr_queues, cl.nr_jobs, cl.nr_tasks, t,
	       t > 0 ? (double)l.sent / t : 0.0, how);
	vsbench_loader_destroy(&l);
out_cluster:
	vs_cluster_destroy(&cl);
out_close:
	vsnl_close(conn);
	return ret;
}
