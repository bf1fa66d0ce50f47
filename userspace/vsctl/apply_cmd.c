// SPDX-License-Identifier: Apache-2.0
/*
 * "vsctl apply -f FILE" and "vsctl delete -f FILE": Kubernetes manifests
 * sent to vschedd as one batch, all of it applied or none.
 *
 *	vsctl apply -f cluster.yaml -f jobs/
 *	kubectl get nodes,pods -A -o yaml | vsctl apply -f -
 *	vsctl apply --dry-run -o json -f pods.yaml	(the requests, not sent)
 *	vsctl apply --dry-run=server -f pods.yaml	(applied by vschedd, and undone)
 *	vsctl delete -f cluster.yaml
 *
 * manifest.c reads and translates the files; this file asks the daemon
 * what it already has (its priority classes, which pods need; which of the
 * objects exist, for "created" or "configured", and so that a pod or a
 * VolcanoJob, whose spec cannot change, is left alone), sends the batch,
 * and names the document of a refused message.
 *
 * delete sends DEL by key, backwards: pods, VolcanoJobs, PodGroups,
 * nodes, queues, priority classes, all in the one batch.
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
#include <netlink/attr.h>
#include <netlink/msg.h>

#include "controllers/pgctl.h"
#include "kube/manifest.h"
#include "lib/codec_gen.h"
#include "lib/render.h"
#include "lib/vsnl.h"
#include "vsctl/request.h"
#include "vsctl/vsctl.h"

/* --dry-run's modes, kubectl's */
enum dry_run {
	DRY_NONE,
	DRY_CLIENT,			/* nothing sent: what would be */
	DRY_SERVER,			/* sent as a batch the daemon undoes */
};

/* More objects than this are summed up in one line rather than listed. */
#define APPLY_LIST_MAX	100

struct apply {
	const char *prog;
	const char *socket;
	enum dry_run dry_run;
	bool json, ignore_not_found, deleting;
	const char **files;
	u32 nr_files;
	struct mf_set set;
	struct vsnl *c;
	/* what the daemon has of each object (by index in set.objs) */
	struct live {
		u32 status;		/* a PodGroup's phase, a Queue's state */
		u32 tasks;		/* a PodGroup's tasks */
		u32 going;		/* delete: its tasks the manifests delete */
		const struct vs_task *last;	/* one of those */
	} *live;
	bool said;			/* a callback reported the failure */
	struct mf_obj **index;		/* set.objs by kind and key, for the dumps */
	unsigned char *buf;		/* one request */
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

static void warn(void *arg, const char *msg)
{
	fprintf(stderr, "vsctl: warning: %s\n", msg);
}

/* ---- what the daemon has ---- */

static int cmp_key(enum mf_kind ka, const char *nsa, const char *na, const struct mf_obj *b)
{
	int c = (int)ka - (int)b->kind;

	if (!c)
		c = strcmp(nsa ? nsa : "", b->ns ? b->ns : "");
	return c ? c : strcmp(na, b->name);
}

static int cmp_objs(const void *a, const void *b)
{
	const struct mf_obj *x = *(struct mf_obj *const *)a;

	return cmp_key(x->kind, x->ns, x->name, *(struct mf_obj *const *)b);
}

struct key {
	enum mf_kind kind;
	const char *ns, *name;
};

static int cmp_find(const void *k, const void *b)
{
	const struct key *key = k;

	return cmp_key(key->kind, key->ns, key->name, *(struct mf_obj *const *)b);
}

struct dump {
	struct apply *a;
	enum mf_kind kind;
};

/* One object of a dump: is it one of ours? */
static int on_object(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	const struct dump *d = arg;
	const struct mf_kind_info *k = mf_kind(d->kind);
	struct nlattr *at[64] = { NULL };
	struct mf_obj **hit;
	struct key key = { .kind = d->kind };
	struct live *live;

	if (!tb[k->attr] || vsnl_parse_nested(at, 63, tb[k->attr]) < 0 || !at[k->a_name])
		return 0;
	key.name = nla_get_string(at[k->a_name]);
	key.ns = k->a_ns && at[k->a_ns] ? nla_get_string(at[k->a_ns]) : NULL;
	hit = bsearch(&key, d->a->index, d->a->set.nr_objs, sizeof(*hit), cmp_find);
	if (!hit)
		return 0;
	(*hit)->exists = true;
	live = &d->a->live[*hit - d->a->set.objs];
	if (d->kind == MF_PODGROUP && at[VS_PG_A_PHASE])
		live->status = nla_get_u32(at[VS_PG_A_PHASE]);
	if (d->kind == MF_QUEUE && at[VS_QUEUE_A_STATE])
		live->status = nla_get_u32(at[VS_QUEUE_A_STATE]);
	if (d->kind == MF_PODGROUP && at[VS_PG_A_NR_TASKS]) {
		struct nlattr *n;
		int rem;

		nla_for_each_nested(n, at[VS_PG_A_NR_TASKS], rem)
			live->tasks += nla_get_u32(n);
	}
	return 0;
}

static int dump_kind(struct apply *a, enum mf_kind kind, const char *ns)
{
	struct nl_msg *m = vsnl_msg_new(mf_kind(kind)->cmd_get, NLM_F_DUMP);
	struct dump d = { .a = a, .kind = kind };
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
	struct mf_set *set = &a->set;
	const struct mf_obj *prev = NULL;
	int ret = 0;

	a->live = calloc(set->nr_objs, sizeof(*a->live));
	a->index = malloc(set->nr_objs * sizeof(*a->index));
	if (!a->live || !a->index)
		return fail("out of memory");
	for (u32 i = 0; i < set->nr_objs; i++)
		a->index[i] = &set->objs[i];
	qsort(a->index, set->nr_objs, sizeof(*a->index), cmp_objs);
	for (u32 i = 0; !ret && i < set->nr_objs; i++) {
		const struct mf_obj *o = a->index[i];

		if (prev && prev->kind == o->kind &&
		    (!mf_kind(o->kind)->namespaced || !strcmp(prev->ns, o->ns)))
			continue;
		ret = dump_kind(a, o->kind, mf_kind(o->kind)->namespaced ? o->ns : NULL);
		prev = o;
	}
	for (u32 i = 0; !ret && i < set->nr_objs; i++) {
		const struct mf_obj *t = &set->objs[i];
		const struct vs_task *task = t->obj;
		struct key key = { .kind = MF_PODGROUP };
		struct mf_obj **pg;

		if (t->kind != MF_POD || !task || !t->exists)
			continue;
		key.ns = task->ns;
		key.name = task->job->name;
		pg = bsearch(&key, a->index, set->nr_objs, sizeof(*pg), cmp_find);
		if (pg) {
			a->live[*pg - set->objs].going++;
			a->live[*pg - set->objs].last = task;
		}
	}
	return ret;
}

static int on_prioclass(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct apply *a = arg;
	struct nlattr *at[VS_PC_A_MAX + 1] = { NULL };
	struct vs_prioclass_spec spec = { 0 };
	struct mf_err err = { { 0 } };

	if (!tb[VS_A_PRIOCLASS] || vsnl_parse_nested(at, VS_PC_A_MAX, tb[VS_A_PRIOCLASS]) < 0 ||
	    !at[VS_PC_A_NAME])
		return 0;
	spec.name = nla_get_string(at[VS_PC_A_NAME]);
	if (at[VS_PC_A_VALUE])
		spec.value = (s32)nla_get_u32(at[VS_PC_A_VALUE]);
	if (at[VS_PC_A_GLOBAL_DEFAULT])
		spec.global_default = nla_get_u8(at[VS_PC_A_GLOBAL_DEFAULT]);
	if (at[VS_PC_A_PREEMPTION_POLICY])
		spec.preemption_policy = nla_get_u32(at[VS_PC_A_PREEMPTION_POLICY]);
	if (mf_set_add_prioclass(&a->set, &spec, &err)) {
		a->said = true;
		fail("%s", err.msg);
		return -EINVAL;
	}
	return 0;
}

/* The daemon's priority classes: pods that name one (or none) take its value. */
static int learn_prioclasses(struct apply *a)
{
	struct vsnl_err err = { 0 };
	int ret;

	ret = vsnl_request(a->c, vsnl_msg_new(VS_CMD_PRIOCLASS_GET, NLM_F_DUMP), on_prioclass, a,
			   &err);
	if (ret && a->said)
		return 1;
	return ret ? vsctl_fail(ret, &err) : 0;
}

/*
 * A status the manifest does not give stays the daemon's: the phase the
 * scheduler gave a PodGroup, the state of a Queue. Kubernetes' apply does
 * not touch a status either. The private objects are only written out.
 */
static void keep_status(struct apply *a)
{
	for (u32 i = 0; i < a->set.nr_objs; i++) {
		struct mf_obj *o = &a->set.objs[i];

		if (!o->exists || o->has_status)
			continue;
		if (o->kind == MF_PODGROUP && a->live[i].status < VS_PG_NR_PHASES)
			vs_job_set_phase(&a->set.cl, o->obj, a->live[i].status);
		else if (o->kind == MF_QUEUE && a->live[i].status < VS_QUEUE_NR_STATES)
			((struct vs_queue *)o->obj)->state = a->live[i].status;
	}
}

/* ---- requests ---- */

/* A request of @cmd started in a->buf (VS_MSG_MAX bytes), for the core's fills. */
static struct nlmsghdr *request(struct apply *a, u8 cmd, u16 flags)
{
	return vsnl_msg_put(a->buf, VS_MSG_MAX, cmd, flags);
}

/* The request for @o, in a->buf; NULL (said) when it does not fit. */
static struct nlmsghdr *build_msg(struct apply *a, const struct mf_obj *o)
{
	const struct mf_kind_info *k = mf_kind(o->kind);
	char where[400];
	struct nlmsghdr *nlh;
	bool ok;

	if (a->deleting) {
		nlh = request(a, k->cmd_del, 0);
		ok = mf_put_key(o, nlh, VS_MSG_MAX);
	} else {
		/* pods and VolcanoJobs cannot be replaced: only new ones are sent */
		nlh = request(a, k->cmd_new, o->kind == MF_POD || o->kind == MF_VJOB ? 0 :
			      NLM_F_REPLACE);
		ok = mf_put_spec(o, nlh, VS_MSG_MAX);
	}
	if (ok)
		return nlh;
	mf_obj_where(o, where, sizeof(where));
	fail("%s: %s/%s does not fit in a message", where, k->resource, o->name);
	return NULL;
}

/*
 * Whether to delete a pod's own PodGroup: when the pods in it all go, and
 * unless the daemon's podgroup controller takes it away with its one pod
 * (it does for the PodGroup it names after the pod).
 */
static bool implicit_goes(const struct apply *a, const struct mf_obj *pg, u32 i)
{
	const struct live *l = &a->live[i];
	char own[VS_PGCTL_NAME_BUF];

	if (l->going != l->tasks)
		return false;
	if (l->going == 1) {
		vs_pgctl_name(l->last->name, own);
		return strcmp(own, pg->name);
	}
	return true;
}

/* What happens to @o: NULL when it is not sent. */
static const char *verdict(const struct apply *a, const struct mf_obj *o, u32 i)
{
	if (o->skipped)
		return NULL;
	if (a->deleting) {
		if (!o->exists)
			return NULL;
		if (o->implicit && !implicit_goes(a, o, i))
			return NULL;
		return "deleted";
	}
	if (o->exists && (o->kind == MF_POD || o->kind == MF_VJOB))
		return NULL;
	return o->exists ? "configured" : "created";
}

/* The batch; on a refusal, the document of the message at fault. */
static int send_batch(struct apply *a)
{
	struct vsnl_err err = { 0 };
	struct mf_set *set = &a->set;
	char where[400];
	int ret;

	ret = vsnl_batch_begin_flags(a->c, a->dry_run == DRY_SERVER ? VSNL_BATCH_DRY_RUN : 0,
				     &err);
	if (ret)
		return vsctl_fail(ret, &err);
	for (u32 n = 0; n < set->nr_objs; n++) {
		u32 i = a->deleting ? set->nr_objs - 1 - n : n;
		struct mf_obj *o = &set->objs[i];
		struct nlmsghdr *nlh;

		if (!verdict(a, o, i))
			continue;
		nlh = build_msg(a, o);
		if (!nlh)
			return 1;	/* the batch is dropped with the connection */
		ret = vsnl_batch_add_nlh(a->c, nlh, &o->seq, &err);
		if (ret)
			return vsctl_fail(ret, &err);
	}
	ret = vsnl_batch_end(a->c, &err);
	if (!ret)
		return 0;
	for (u32 i = 0; err.seq && i < set->nr_objs; i++) {
		if (set->objs[i].seq != err.seq || !verdict(a, &set->objs[i], i))
			continue;
		mf_obj_where(&set->objs[i], where, sizeof(where));
		return fail("%s: %s", where, err.msg);
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

static void say(const struct apply *a, const struct mf_obj *o, const char *what)
{
	const char *res = mf_kind(o->kind)->resource;

	if (a->deleting)
		printf("%s \"%s\" %s%s\n", res, o->name, what, dry_note(a));
	else
		printf("%s/%s %s%s\n", res, o->name, what, dry_note(a));
}

static int report(struct apply *a)
{
	const struct mf_set *set = &a->set;
	u32 counts[4] = { 0 };		/* created/deleted, configured, unchanged, skipped */
	u32 listed = 0, missing = 0;

	for (u32 i = 0; i < set->nr_objs; i++)
		listed += !set->objs[i].implicit;
	for (u32 n = 0; n < set->nr_objs; n++) {
		u32 i = a->deleting ? set->nr_objs - 1 - n : n;
		const struct mf_obj *o = &set->objs[i];
		const char *v = verdict(a, o, i);
		const char *what = v ? v : o->skipped ? "skipped" :
				   a->deleting ? "not found" : "unchanged";

		/* a pod's own PodGroup is not one of the manifests' objects */
		if (o->implicit)
			continue;
		counts[v ? (!strcmp(v, "configured") ? 1 : 0) : o->skipped ? 3 : 2]++;
		if (a->deleting && !v && !o->skipped) {
			missing++;
			if (!a->ignore_not_found)
				fail("%s \"%s\" not found", mf_kind(o->kind)->resource, o->name);
			continue;
		}
		if (listed > APPLY_LIST_MAX)
			continue;
		if (o->skipped)
			printf("%s/%s skipped: %s\n", mf_kind(o->kind)->resource, o->name,
			       o->skipped);
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

	for (u32 n = 0; all && n < a->set.nr_objs; n++) {
		u32 i = a->deleting ? a->set.nr_objs - 1 - n : n;
		const struct mf_obj *o = &a->set.objs[i];
		struct nlmsghdr *nlh;
		json_t *req;

		if (!verdict(a, o, i))
			continue;
		nlh = build_msg(a, o);
		if (!nlh) {
			json_decref(all);
			return 1;
		}
		req = vsnl_render_msg(nlh);
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
		"  --dry-run[=client]     check and translate everything, print what would be\n"
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
			 : "  --scheduler-name NAME  the schedulerName of vsched's pods (default volcano)\n",
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
			a->set.scheduler = optarg;
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
	struct mf_err err = { { 0 } };
	int ret;

	for (u32 i = 0; i < a->nr_files; i++)
		if (mf_set_read(&a->set, a->files[i], &err))
			return fail("%s", err.msg);
	if (a->dry_run != DRY_CLIENT) {
		a->c = vsctl_connect(a->socket);
		if (!a->c)
			return 1;
		if (!a->deleting && (ret = learn_prioclasses(a)))
			return ret;
	}
	if (mf_set_build(&a->set, &err))
		return fail("%s", err.msg);
	if (!a->set.nr_objs)
		return fail("no objects in %s%s", a->files[0], a->nr_files > 1 ? " and the rest" :
			    "");
	a->buf = malloc(VS_MSG_MAX);
	if (!a->buf)
		return fail("out of memory");
	if (a->dry_run == DRY_CLIENT) {
		/* nothing is known of the daemon: everything would be created (or deleted) */
		a->live = calloc(a->set.nr_objs, sizeof(*a->live));
		if (!a->live)
			return fail("out of memory");
		for (u32 i = 0; a->deleting && i < a->set.nr_objs; i++)
			a->set.objs[i].exists = !a->set.objs[i].implicit;
		return a->json ? print_requests(a) : report(a);
	}
	ret = learn_existing(a);
	if (ret)
		return ret;
	keep_status(a);
	ret = send_batch(a);
	return ret ? ret : report(a);
}

static int apply_main(int argc, char **argv, bool deleting)
{
	struct apply a = { .prog = argv[0], .deleting = deleting };
	int ret;

	if (mf_set_init(&a.set))
		return fail("out of memory");
	ret = parse_args(&a, argc, argv);
	if (!ret) {
		a.set.offline = a.dry_run == DRY_CLIENT || deleting;
		a.set.warn = deleting ? NULL : warn;
		ret = run(&a);
	}
	vsnl_close(a.c);
	mf_set_free(&a.set);
	free(a.files);
	free(a.live);
	free(a.index);
	free(a.buf);
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
