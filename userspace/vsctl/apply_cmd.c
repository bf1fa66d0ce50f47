// SPDX-License-Identifier: Apache-2.0
/*
 * "vsctl apply -f FILE" and "vsctl delete -f FILE": Kubernetes manifests
 * sent to vschedd as one batch, all of it applied or none.
 *
 *	vsctl apply -f cluster.yaml -f workloads.yaml
 *	kubectl get nodes,pods -A -o yaml | vsctl apply -f -
 *	vsctl apply --dry-run -o json -f pods.yaml	(the requests, not sent)
 *	vsctl apply --dry-run=server -f pods.yaml	(applied by vschedd, and undone)
 *	vsctl delete -f cluster.yaml
 *
 * The manifest reader (kube/kread.h) translates each document into its
 * request, with the generated codec, before anything is sent: a document
 * it cannot read stops everything. Checking what the requests say
 * (names, references, Volcano's and Kubernetes' rules) is the daemon's:
 * the batch is its check, and a refused message is named by its sequence
 * number and mapped back to its document here. This file asks the daemon
 * only which of the objects it has, for "created" or "configured", and so
 * that a pod or a VolcanoJob, whose spec cannot change, is left alone.
 *
 * apply sends each object's NEW, replacing (NLM_F_REPLACE) the objects
 * that can change; a status the manifest does not give is left to the
 * daemon, which keeps it. delete sends DEL by key, backwards: pods,
 * VolcanoJobs, PodGroups, nodes, queues, priority classes, in the one
 * batch; the PodGroups the daemon made for pods go with their last pod.
 *
 * --dry-run (or --dry-run=client) reads and translates, and prints what
 * would be sent without connecting; --dry-run=server does everything a
 * real run does, but the batch is a dry run (VS_A_DRY_RUN): vschedd
 * applies it, answers, and undoes it, as kubectl's server-side dry run.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libmnl/libmnl.h>

#include "kube/kread.h"
#include "lib/codec_gen.h"
#include "lib/file.h"
#include "lib/render.h"
#include "lib/vsnl.h"
#include "lib/ytree.h"
#include "vsctl/objects.h"
#include "vsctl/request.h"
#include "vsctl/vsctl.h"

/* The largest manifest file read. */
#define APPLY_FILE_MAX	(256u << 20)

/* More objects than this are summed up in one line rather than listed. */
#define APPLY_LIST_MAX	100

/* --dry-run's modes, kubectl's */
enum dry_run {
	DRY_NONE,
	DRY_CLIENT,			/* nothing sent: what would be */
	DRY_SERVER,			/* sent as a batch the daemon undoes */
};

/* How kubectl names each kind in its lines, and vsctl's group of it. */
static const struct {
	const char *resource;
	const char *group;
} kind_names[KR_NR_KINDS] = {
	[KR_PRIOCLASS] = { "priorityclass.scheduling.k8s.io", "prioclass" },
	[KR_QUEUE] = { "queue.scheduling.volcano.sh", "queue" },
	[KR_NODE] = { "node", "node" },
	[KR_PODGROUP] = { "podgroup.scheduling.volcano.sh", "podgroup" },
	[KR_VJOB] = { "job.batch.volcano.sh", "job" },
	[KR_POD] = { "pod", "task" },
	[KR_HYPERNODE] = { "hypernode.topology.volcano.sh", "hypernode" },
};

/* One document's object, and what becomes of it. */
struct obj {
	const struct kr_doc *doc;
	size_t msg;			/* its request, at this offset of the messages */
	char *skipped;			/* not sent, and why */
	bool exists;			/* the daemon has it */
	u32 seq;			/* its message in the batch */
};

struct apply {
	const char *prog;
	const char *socket;
	const char *scheduler;		/* the schedulerName of vsched's pods */
	enum dry_run dry_run;
	bool json, ignore_not_found, deleting;
	const char **files;
	u32 nr_files;
	char **texts;			/* each file's text, and its parse */
	struct vsnl_ydocs *ydocs;
	struct kr_docs docs;
	struct obj *objs;		/* by kind, then in file order */
	struct obj **index;		/* by kind and key */
	unsigned char *msgs;		/* the requests, one after the other */
	size_t msgs_len, msgs_cap;
	struct vsnl *c;
};

__printf(1, 2)
static int fail(const char *fmt, ...)
{
	va_list ap;

	fputs("vsctl: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

static const struct vsctl_kind *vsctl_kind(enum kr_kind kind)
{
	char argv0[64];

	snprintf(argv0, sizeof(argv0), "vsctl %s x", kind_names[kind].group);
	return vsctl_kind_of(argv0);
}

/* ---- reading ---- */

static int read_files(struct apply *a)
{
	struct vsnl_err err = { 0 };

	a->texts = calloc(a->nr_files, sizeof(*a->texts));
	a->ydocs = calloc(a->nr_files, sizeof(*a->ydocs));
	if (!a->texts || !a->ydocs)
		return fail("out of memory");
	for (u32 i = 0; i < a->nr_files; i++) {
		const char *name = strcmp(a->files[i], "-") ? a->files[i] : "stdin";
		size_t len = 0;

		if (vsnl_read_file(a->files[i], APPLY_FILE_MAX, VSNL_FILE_STDIN, &a->texts[i],
				   &len, &err) ||
		    vsnl_yaml_parse_docs(a->texts[i], len, name, &a->ydocs[i], &err) ||
		    kr_docs_read(name, &a->ydocs[i], &a->docs, &err))
			return fail("%s", err.msg);
	}
	return 0;
}

static int cmp_key(const struct kr_doc *x, const struct kr_doc *y)
{
	int c = (int)x->kind - (int)y->kind;

	if (!c)
		c = strcmp(x->ns ? x->ns : "", y->ns ? y->ns : "");
	return c ? c : strcmp(x->name ? x->name : "", y->name ? y->name : "");
}

static int cmp_index(const void *a, const void *b)
{
	const struct obj *x = *(struct obj *const *)a, *y = *(struct obj *const *)b;
	int c = cmp_key(x->doc, y->doc);

	/* the same key: in file order */
	return c ? c : (x > y) - (x < y);
}

/* "FILE:LINE: document N (Kind ns/name)" of @o. */
static const char *where(const struct obj *o, char *buf, size_t size)
{
	snprintf(buf, size, "%s:%u: %s", o->doc->file, o->doc->line, o->doc->label);
	return buf;
}

/*
 * The objects by kind, in file order within each, and their index by key:
 * the same object twice is refused, as the API server refuses a second
 * create (a manifest set says what each object is once).
 */
static int order(struct apply *a)
{
	u32 nr = a->docs.nr, n = 0;
	char w1[400], w2[400];

	a->objs = calloc(nr, sizeof(*a->objs));
	a->index = calloc(nr, sizeof(*a->index));
	if (!a->objs || !a->index)
		return fail("out of memory");
	for (int k = 0; k < KR_NR_KINDS; k++)
		for (u32 i = 0; i < nr; i++)
			if ((int)a->docs.v[i].kind == k)
				a->objs[n++].doc = &a->docs.v[i];
	for (u32 i = 0; i < nr; i++)
		a->index[i] = &a->objs[i];
	qsort(a->index, nr, sizeof(*a->index), cmp_index);
	for (u32 i = 1; i < nr; i++) {
		const struct obj *x = a->index[i - 1], *y = a->index[i];

		if (x->doc->name && y->doc->name && !cmp_key(x->doc, y->doc))
			return fail("%s: the same object as %s", where(y, w2, sizeof(w2)),
				    where(x, w1, sizeof(w1)));
	}
	return 0;
}

/* Room for one more request: its start, VS_MSG_MAX bytes at least. */
static unsigned char *msg_room(struct apply *a)
{
	size_t need = a->msgs_len + VS_MSG_MAX;

	if (need > a->msgs_cap) {
		size_t cap = a->msgs_cap ? a->msgs_cap : VS_MSG_MAX;
		unsigned char *m;

		while (cap < need)
			cap *= 2;
		m = realloc(a->msgs, cap);
		if (!m)
			return NULL;
		a->msgs = m;
		a->msgs_cap = cap;
	}
	return a->msgs + a->msgs_len;
}

static struct nlmsghdr *msg_of(const struct apply *a, const struct obj *o)
{
	return (struct nlmsghdr *)(a->msgs + o->msg);
}

/* DEL of @o, by its key; a refusal named by its document. */
static int put_del(const struct obj *o, void *buf, struct nlmsghdr **out, struct vsnl_err *err)
{
	int ret = kr_put_del(o->doc->kind, o->doc->ns, o->doc->name, buf, VS_MSG_MAX, out, err);
	char why[VSNL_ERR_MSG_MAX];

	if (!ret)
		return 0;
	snprintf(why, sizeof(why), "%s", err->msg);
	return vsnl_err_set(err, ret, "%s:%u: %s: %s", o->doc->file, o->doc->line, o->doc->label,
			    why);
}

/*
 * Every document's request, before anything is sent: the first one the
 * reader refuses stops everything. apply replaces the objects whose spec
 * may change; a pod or a VolcanoJob the daemon has is left alone.
 */
static int translate(struct apply *a)
{
	struct vsnl_err err = { 0 };

	for (u32 i = 0; i < a->docs.nr; i++) {
		struct obj *o = &a->objs[i];
		unsigned char *buf = msg_room(a);
		struct nlmsghdr *nlh = NULL;
		int ret;

		if (!buf)
			return fail("out of memory");
		/* delete too reads each document whole: what apply refuses or skips, it does */
		ret = kr_put_new(o->doc, buf, VS_MSG_MAX, &nlh, &err);
		if (ret == KR_SKIPPED) {
			o->skipped = strdup(err.msg);
			if (!o->skipped)
				return fail("out of memory");
			continue;
		}
		if (!ret && a->deleting)
			ret = put_del(o, buf, &nlh, &err);
		if (ret)
			return fail("%s", err.msg);
		if (!a->deleting && o->doc->kind != KR_POD && o->doc->kind != KR_VJOB)
			nlh->nlmsg_flags |= NLM_F_REPLACE;
		o->msg = a->msgs_len;
		a->msgs_len += NLMSG_ALIGN(nlh->nlmsg_len);
	}
	return 0;
}

/* ---- what the daemon has ---- */

struct dump {
	struct apply *a;
	const struct vsctl_kind *k;
	enum kr_kind kind;
};

static int cmp_find(const void *k, const void *b)
{
	return cmp_key((*(struct obj *const *)k)->doc, (*(struct obj *const *)b)->doc);
}

/* One object of a dump: is it one of ours? */
static int on_object(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	const struct dump *d = arg;
	const struct vsnl_codec_set *set = vsnl_codec_reply.attrs[d->k->attr].nested;
	const struct nlattr *at[64] = { NULL };
	struct kr_doc key = { .kind = d->kind };
	struct obj probe = { .doc = &key }, *p = &probe, **hit;
	struct vsnl_err err = { 0 };

	if (!tb[d->k->attr] || set->maxattr >= ARRAY_SIZE(at) ||
	    vsnl_codec_parse(set, tb[d->k->attr], at, 0, &err) || !at[d->k->a_name])
		return 0;
	key.name = mnl_attr_get_str(at[d->k->a_name]);
	key.ns = d->k->a_ns && at[d->k->a_ns] ? mnl_attr_get_str(at[d->k->a_ns]) : NULL;
	hit = bsearch(&p, d->a->index, d->a->docs.nr, sizeof(*hit), cmp_find);
	if (hit)
		(*hit)->exists = true;
	return 0;
}

static int dump_kind(struct apply *a, enum kr_kind kind, const char *ns)
{
	const struct vsctl_kind *k = vsctl_kind(kind);
	struct nl_msg *m = vsnl_msg_new(k->cmd_get, NLM_F_DUMP);
	struct dump d = { .a = a, .k = k, .kind = kind };
	struct vsnl_err err = { 0 };
	int ret;

	if (m && ns) {
		size_t cap;
		struct nlmsghdr *nlh = vsnl_msg_hdr(m, &cap);

		if (vsnl_vsched_put_filter_namespace(nlh, cap, ns, &err)) {
			nlmsg_free(m);
			return vsctl_fail(err.err, &err);
		}
	}
	ret = vsnl_request(a->c, m, on_object, &d, &err);
	return ret ? vsctl_fail(ret, &err) : 0;
}

/*
 * Which of the objects exist: one dump per kind, per namespace for
 * namespaced kinds (the index is sorted by namespace: each one once).
 */
static int learn_existing(struct apply *a)
{
	const struct kr_doc *prev = NULL;
	int ret = 0;

	for (u32 i = 0; !ret && i < a->docs.nr; i++) {
		const struct kr_doc *d = a->index[i]->doc;
		bool namespaced = kr_kind(d->kind)->namespaced;

		if (prev && prev->kind == d->kind && (!namespaced || !strcmp(prev->ns, d->ns)))
			continue;
		ret = dump_kind(a, d->kind, namespaced ? d->ns : NULL);
		prev = d;
	}
	return ret;
}

/* ---- the batch ---- */

/* What happens to @o: NULL when it is not sent. */
static const char *verdict(const struct apply *a, const struct obj *o)
{
	if (o->skipped)
		return NULL;
	if (a->deleting)
		return o->exists ? "deleted" : NULL;
	if (o->exists && (o->doc->kind == KR_POD || o->doc->kind == KR_VJOB))
		return NULL;
	return o->exists ? "configured" : "created";
}

/* The objects in the order they are sent: by kind, and backwards for delete. */
static struct obj *nth(const struct apply *a, u32 n)
{
	return &a->objs[a->deleting ? a->docs.nr - 1 - n : n];
}

/* The batch; on a refusal, the document of the message at fault. */
static int send_batch(struct apply *a)
{
	struct vsnl_err err = { 0 };
	char w[400];
	int ret;

	ret = vsnl_batch_begin_flags(a->c, a->dry_run == DRY_SERVER ? VSNL_BATCH_DRY_RUN : 0,
				     &err);
	if (ret)
		return vsctl_fail(ret, &err);
	for (u32 n = 0; n < a->docs.nr; n++) {
		struct obj *o = nth(a, n);

		if (!verdict(a, o))
			continue;
		ret = vsnl_batch_add_nlh(a->c, msg_of(a, o), &o->seq, &err);
		if (ret)
			return vsctl_fail(ret, &err);
	}
	ret = vsnl_batch_end(a->c, &err);
	if (!ret)
		return 0;
	for (u32 i = 0; err.seq && i < a->docs.nr; i++) {
		const struct obj *o = &a->objs[i];

		if (o->seq == err.seq && verdict(a, o))
			return fail("%s: %s", where(o, w, sizeof(w)), err.msg);
	}
	return vsctl_fail(ret, &err);
}

/* ---- output ---- */

/* What kubectl appends to each line of a dry run. */
static const char *dry_note(const struct apply *a)
{
	static const char *const note[] = {
		[DRY_NONE] = "", [DRY_CLIENT] = " (dry run)", [DRY_SERVER] = " (server dry run)",
	};

	return note[a->dry_run];
}

static void say(const struct apply *a, const struct obj *o, const char *what)
{
	const char *res = kind_names[o->doc->kind].resource;

	if (a->deleting)
		printf("%s \"%s\" %s%s\n", res, o->doc->name, what, dry_note(a));
	else
		printf("%s/%s %s%s\n", res, o->doc->name, what, dry_note(a));
}

static int report(struct apply *a)
{
	u32 counts[4] = { 0 };		/* created/deleted, configured, unchanged, skipped */
	u32 listed = a->docs.nr, missing = 0;

	for (u32 n = 0; n < a->docs.nr; n++) {
		const struct obj *o = nth(a, n);
		const char *v = verdict(a, o);
		const char *what = v ? v : o->skipped ? "skipped" :
				   a->deleting ? "not found" : "unchanged";

		counts[v ? (!strcmp(v, "configured") ? 1 : 0) : o->skipped ? 3 : 2]++;
		if (a->deleting && !v && !o->skipped) {
			missing++;
			if (!a->ignore_not_found)
				fail("%s \"%s\" not found", kind_names[o->doc->kind].resource,
				     o->doc->name);
			continue;
		}
		if (listed > APPLY_LIST_MAX)
			continue;
		if (o->skipped)
			printf("%s/%s skipped: %s\n", kind_names[o->doc->kind].resource,
			       o->doc->name, o->skipped);
		else
			say(a, o, what);
	}
	if (listed > APPLY_LIST_MAX && a->deleting)
		printf("%u objects deleted%s\n", counts[0], dry_note(a));
	else if (listed > APPLY_LIST_MAX)
		printf("%u objects applied%s (%u created, %u configured, %u unchanged, "
		       "%u skipped)\n", counts[0] + counts[1], dry_note(a),
		       counts[0], counts[1], counts[2], counts[3]);
	return missing && !a->ignore_not_found ? 1 : 0;
}

/* --dry-run -o json: the requests that would be sent, rendered. */
static int print_requests(struct apply *a)
{
	json_t *all = json_array();

	for (u32 n = 0; all && n < a->docs.nr; n++) {
		const struct obj *o = nth(a, n);
		json_t *req;

		if (!verdict(a, o))
			continue;
		req = vsnl_render_msg(msg_of(a, o));
		if (!req || json_object_set_new(req, "command",
						json_string(a->deleting ? "delete" : "new")) ||
		    json_array_append_new(all, req)) {
			json_decref(req);
			json_decref(all);
			return fail("out of memory");
		}
	}
	if (!all)
		return fail("out of memory");
	if (vsctl_print_json(all)) {
		json_decref(all);
		return fail("cannot write the requests");
	}
	json_decref(all);
	return 0;
}

/* ---- the commands ---- */

static void usage(FILE *out, const char *prog, bool deleting)
{
	fprintf(out,
		"usage: %s [--socket PATH] [--dry-run[=client|server]] [-o json]%s -f FILE|- [-f FILE]...\n"
		"\n"
		"%s\n"
		"  -f, --filename FILE    a manifest file, \"-\" for standard input; repeatable\n"
		"  --dry-run[=client]     read and translate everything, print what would be\n"
		"                         sent (-o json: the requests), do not connect\n"
		"  --dry-run=server       send the batch as a dry run: vschedd applies and\n"
		"                         checks it all, answers, and undoes it\n"
		"%s"
		"  --socket PATH          the daemon's socket (default $%s, else %s)\n",
		prog, deleting ? " [--ignore-not-found]" : " [--scheduler-name NAME]",
		deleting ? "Delete the objects of Kubernetes manifests from vschedd in one batch."
			 : "Create or update the objects of Kubernetes manifests (Node, Pod, PodGroup,\n"
			   "Queue, Job, PriorityClass) in vschedd, all in one batch: all or nothing.",
		deleting ? "  --ignore-not-found     objects vschedd does not have are no error\n"
			 : "  --scheduler-name NAME  the schedulerName of vsched's pods (default volcano):\n"
			   "                         a pending pod of another scheduler is skipped\n",
		VSCHED_SOCKET_ENV, VSCHED_SOCKET_DEFAULT);
}

enum { OPT_SOCKET = 0x100, OPT_DRY_RUN, OPT_IGNORE, OPT_SCHEDULER };

static int parse_args(struct apply *a, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "filename", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "socket", required_argument, NULL, OPT_SOCKET },
		{ "dry-run", optional_argument, NULL, OPT_DRY_RUN },
		{ "ignore-not-found", no_argument, NULL, OPT_IGNORE },
		{ "scheduler-name", required_argument, NULL, OPT_SCHEDULER },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	a->files = calloc((size_t)argc, sizeof(*a->files));
	if (!a->files)
		return fail("out of memory");
	optind = 1;
	while ((c = getopt_long(argc, argv, "f:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			a->files[a->nr_files++] = optarg;
			break;
		case 'o':
			if (strcmp(optarg, "json")) {
				fprintf(stderr, "%s: -o: \"%s\" is not json\n", argv[0], optarg);
				return 2;
			}
			a->json = true;
			break;
		case OPT_SOCKET:
			a->socket = optarg;
			break;
		case OPT_DRY_RUN:
			if (!optarg || !strcmp(optarg, "client")) {
				a->dry_run = DRY_CLIENT;
			} else if (!strcmp(optarg, "server")) {
				a->dry_run = DRY_SERVER;
			} else if (!strcmp(optarg, "none")) {
				a->dry_run = DRY_NONE;
			} else {
				fprintf(stderr, "%s: --dry-run: \"%s\" is not client, server or "
					"none\n", argv[0], optarg);
				return 2;
			}
			break;
		case OPT_IGNORE:
			if (!a->deleting)
				goto bad;
			a->ignore_not_found = true;
			break;
		case OPT_SCHEDULER:
			if (a->deleting || !*optarg)
				goto bad;
			a->scheduler = optarg;
			break;
		case 'h':
			usage(stdout, argv[0], a->deleting);
			return -1;
		default:
			goto bad;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "%s: unexpected argument \"%s\" (files go with -f)\n", argv[0],
			argv[optind]);
		return 2;
	}
	if (!a->nr_files) {
		fprintf(stderr, "%s: no manifest given (-f FILE, or -f - for standard input)\n",
			argv[0]);
		return 2;
	}
	if (a->json && a->dry_run != DRY_CLIENT) {
		fprintf(stderr, "%s: -o json goes with --dry-run (=client)\n", argv[0]);
		return 2;
	}
	return 0;
bad:
	usage(stderr, argv[0], a->deleting);
	return 2;
}

static int run(struct apply *a)
{
	int ret = read_files(a);

	if (ret)
		return ret;
	if (!a->docs.nr)
		return fail("no objects in %s%s", a->files[0], a->nr_files > 1 ? " and the rest" :
			    "");
	for (u32 i = 0; i < a->docs.nr; i++)
		a->docs.v[i].scheduler = a->scheduler;
	ret = order(a) ?: translate(a);
	if (ret)
		return ret;
	if (a->dry_run == DRY_CLIENT) {
		/* nothing is known of the daemon: everything would be created (or deleted) */
		for (u32 i = 0; a->deleting && i < a->docs.nr; i++)
			a->objs[i].exists = true;
		return a->json ? print_requests(a) : report(a);
	}
	a->c = vsctl_connect(a->socket);
	if (!a->c)
		return 1;
	ret = learn_existing(a) ?: send_batch(a);
	return ret ? ret : report(a);
}

static int apply_main(int argc, char **argv, bool deleting)
{
	struct apply a = { .prog = argv[0], .deleting = deleting, .scheduler = "volcano" };
	int ret = parse_args(&a, argc, argv);

	if (!ret)
		ret = run(&a);
	vsnl_close(a.c);
	for (u32 i = 0; a.texts && i < a.nr_files; i++) {
		vsnl_ydocs_free(&a.ydocs[i]);
		free(a.texts[i]);
	}
	free(a.texts);
	free(a.ydocs);
	free(a.files);
	for (u32 i = 0; a.objs && i < a.docs.nr; i++)
		free(a.objs[i].skipped);
	free(a.objs);
	free(a.index);
	free(a.msgs);
	kr_docs_free(&a.docs);
	return ret < 0 ? 0 : ret;
}

int vsctl_apply(int argc, char **argv)
{
	return apply_main(argc, argv, false);
}

int vsctl_delete(int argc, char **argv)
{
	return apply_main(argc, argv, true);
}
