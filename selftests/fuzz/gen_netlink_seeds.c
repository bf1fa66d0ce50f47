// SPDX-License-Identifier: Apache-2.0
/*
 * The seeds of the netlink fuzz target (make fuzz-seeds): datagrams a
 * client really sends, made from the Kubernetes manifests of the tests as
 * vsctl apply makes its requests (kube/kread.h: each document's NEW
 * request by kr_put_new(), its DEL by its key):
 *
 *	gen-netlink-seeds OUTDIR MANIFEST...
 *
 * For each manifest, and for all of them together (NAME "all"),
 * OUTDIR/seed-NAME-batch holds its objects' NEW requests in a batch (in
 * the order of their kinds, the order the daemon needs them in), a
 * cycle and a dump of every kind; OUTDIR/seed-NAME-acked the same requests
 * one by one with NLM_F_ACK, then a cycle, the statistics and the
 * configuration; OUTDIR/seed-NAME-dels the requests and then the DEL of
 * each object, last made first. A seed stops at libFuzzer's default
 * max_len (4096 bytes), at a message boundary.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libmnl/libmnl.h>

#include "kube/kread.h"
#include "lib/codec.h"
#include "lib/codec_gen.h"
#include "lib/file.h"
#include "lib/vsnl.h"
#include "lib/ytree.h"
#include "vsched/vsched.h"

#define SEED_MAX	4096

static char seed[1 << 16] __attribute__((aligned(4)));
static size_t seed_len;
static u32 seq;

/* A request of @cmd after those of the seed; NULL when the seed is full. */
static struct nlmsghdr *put(u8 cmd, u16 flags)
{
	struct nlmsghdr *nlh;

	if (seed_len >= SEED_MAX)
		return NULL;
	nlh = vsnl_msg_put(seed + seed_len, sizeof(seed) - seed_len, cmd, flags);
	if (nlh)
		nlh->nlmsg_seq = ++seq;
	return nlh;
}

/* The request being written is done: kept if the seed has room for it. */
static void keep(struct nlmsghdr *nlh)
{
	if (seed_len + NLMSG_ALIGN(nlh->nlmsg_len) <= SEED_MAX)
		seed_len += NLMSG_ALIGN(nlh->nlmsg_len);
}

static void put_simple(u8 cmd, u16 flags)
{
	struct nlmsghdr *nlh = put(cmd, flags);

	if (nlh)
		keep(nlh);
}

/* How a kind's DEL names its object: the object's nest and its key's attributes. */
static const struct {
	u8 cmd_del;
	u16 attr;
	u16 a_ns;			/* 0: cluster-scoped */
	u16 a_name;
} keys[KR_NR_KINDS] = {
	[KR_PRIOCLASS] = { VS_CMD_PRIOCLASS_DEL, VS_A_PRIOCLASS, 0, VS_PC_A_NAME },
	[KR_QUEUE] = { VS_CMD_QUEUE_DEL, VS_A_QUEUE, 0, VS_QUEUE_A_NAME },
	[KR_NODE] = { VS_CMD_NODE_DEL, VS_A_NODE, 0, VS_NODE_A_NAME },
	[KR_PODGROUP] = { VS_CMD_PODGROUP_DEL, VS_A_PODGROUP, VS_PG_A_NAMESPACE, VS_PG_A_NAME },
	[KR_VJOB] = { VS_CMD_VJOB_DEL, VS_A_VJOB, VS_VJOB_A_NAMESPACE, VS_VJOB_A_NAME },
	[KR_POD] = { VS_CMD_TASK_DEL, VS_A_TASK, VS_TASK_A_NAMESPACE, VS_TASK_A_NAME },
};

/* The documents of the manifests, the kept ones in the order of their kinds. */
struct objs {
	struct vsnl_ydocs *ydocs;
	struct kr_docs *docs;
	char **texts;
	int nr_files;
	const struct kr_doc **v;	/* the documents kept */
	u32 nr;
};

/* The DEL of @doc, by its key, into @nlh: true when it fits. */
static bool put_key(const struct kr_doc *doc, struct nlmsghdr *nlh, size_t cap)
{
	const struct vsnl_codec_set *set = vsnl_codec_vsched.attrs[keys[doc->kind].attr].nested;
	struct vsnl_err err = { 0 };
	struct nlattr *nest;

	nest = vsnl_codec_nest_start(nlh, cap, &vsnl_codec_vsched, keys[doc->kind].attr, &err);
	if (!nest || (keys[doc->kind].a_ns &&
		      vsnl_codec_put_str(nlh, cap, set, keys[doc->kind].a_ns, doc->ns, &err)) ||
	    vsnl_codec_put_str(nlh, cap, set, keys[doc->kind].a_name, doc->name, &err))
		return false;
	mnl_attr_nest_end(nlh, nest);
	return true;
}

/* The NEW (or, with @del, DEL, last made first) request of every document of @o kept. */
static void put_objects(const struct objs *o, bool del, u16 flags)
{
	for (u32 k = 0; k < o->nr; k++) {
		const struct kr_doc *doc = o->v[del ? o->nr - 1 - k : k];
		struct vsnl_err err = { 0 };
		struct nlmsghdr *nlh = NULL;

		if (seed_len >= SEED_MAX)
			return;
		if (del) {
			nlh = put(keys[doc->kind].cmd_del, flags);
			if (nlh && put_key(doc, nlh, sizeof(seed) - seed_len))
				keep(nlh);
			continue;
		}
		if (kr_put_new(doc, seed + seed_len, sizeof(seed) - seed_len, &nlh, &err))
			continue;
		nlh->nlmsg_flags |= flags;
		nlh->nlmsg_seq = ++seq;
		keep(nlh);
	}
}

static void put_dumps(void)
{
	static const u8 gets[] = {
		VS_CMD_NODE_GET, VS_CMD_QUEUE_GET, VS_CMD_PODGROUP_GET, VS_CMD_TASK_GET,
		VS_CMD_VJOB_GET, VS_CMD_PRIOCLASS_GET,
	};

	for (size_t i = 0; i < sizeof(gets); i++)
		put_simple(gets[i], NLM_F_DUMP);
}

static int write_seed(const char *dir, const char *base, const char *suffix)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/seed-%s-%s", dir, base, suffix);
	f = fopen(path, "wb");
	if (!f || fwrite(seed, 1, seed_len, f) != seed_len || fclose(f)) {
		fprintf(stderr, "gen-netlink-seeds: %s: %s\n", path, strerror(errno));
		return 1;
	}
	seed_len = 0;
	seq = 0;
	return 0;
}

static void objs_free(struct objs *o)
{
	for (int i = 0; i < o->nr_files; i++) {
		kr_docs_free(&o->docs[i]);
		vsnl_ydocs_free(&o->ydocs[i]);
		free(o->texts[i]);
	}
	free(o->docs);
	free(o->ydocs);
	free(o->texts);
	free(o->v);
}

/*
 * The documents of the @nr manifests @paths into @o: those kr_put_new()
 * writes a request for, in the order of their kinds and of the files. A
 * document the reader refuses or skips is left out, as a manifest the
 * tests keep for its errors gives what it can; a file that does not read
 * as YAML documents is an error.
 */
static int objs_read(struct objs *o, char **paths, int nr)
{
	static char scratch[1 << 16];

	o->ydocs = calloc((size_t)nr, sizeof(*o->ydocs));
	o->docs = calloc((size_t)nr, sizeof(*o->docs));
	o->texts = calloc((size_t)nr, sizeof(*o->texts));
	if (!o->ydocs || !o->docs || !o->texts)
		return -ENOMEM;
	for (int i = 0; i < nr; i++) {
		struct vsnl_err err = { 0 };
		size_t len = 0;

		o->nr_files++;
		if (vsnl_read_file(paths[i], 1 << 24, VSNL_FILE_REGULAR, &o->texts[i], &len, &err) ||
		    vsnl_yaml_parse_docs(o->texts[i], len, paths[i], &o->ydocs[i], &err) ||
		    kr_docs_read(paths[i], &o->ydocs[i], &o->docs[i], &err)) {
			fprintf(stderr, "gen-netlink-seeds: %s\n", err.msg);
			return -EINVAL;
		}
	}
	for (int k = 0; k < KR_NR_KINDS; k++) {
		for (int i = 0; i < nr; i++) {
			for (u32 d = 0; d < o->docs[i].nr; d++) {
				const struct kr_doc *doc = &o->docs[i].v[d];
				struct vsnl_err err = { 0 };
				struct nlmsghdr *nlh = NULL;
				const struct kr_doc **v;

				if ((int)doc->kind != k ||
				    kr_put_new(doc, scratch, sizeof(scratch), &nlh, &err))
					continue;
				v = realloc(o->v, (o->nr + 1) * sizeof(*v));
				if (!v)
					return -ENOMEM;
				o->v = v;
				o->v[o->nr++] = doc;
			}
		}
	}
	return 0;
}

/* The seeds of the objects of the @nr manifests @paths, named after @base. */
static int seeds_of(const char *dir, const char *base, char **paths, int nr)
{
	struct objs o = { 0 };
	int ret;

	ret = objs_read(&o, paths, nr);
	if (ret) {
		if (ret == -ENOMEM)
			fprintf(stderr, "gen-netlink-seeds: out of memory\n");
		objs_free(&o);
		return 1;
	}

	put_simple(VS_CMD_BATCH_BEGIN, 0);
	put_objects(&o, false, 0);
	put_simple(VS_CMD_BATCH_END, NLM_F_ACK);
	put_simple(VS_CMD_CYCLE_RUN, NLM_F_ACK);
	put_dumps();
	ret = write_seed(dir, base, "batch");

	put_objects(&o, false, NLM_F_ACK);
	put_simple(VS_CMD_CYCLE_RUN, NLM_F_ACK);
	put_simple(VS_CMD_STATS_GET, 0);
	put_simple(VS_CMD_CONF_GET, 0);
	ret |= write_seed(dir, base, "acked");

	put_objects(&o, false, 0);
	put_objects(&o, true, NLM_F_ACK);
	put_dumps();
	ret |= write_seed(dir, base, "dels");

	objs_free(&o);
	return ret;
}

int main(int argc, char **argv)
{
	int ret = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: gen-netlink-seeds OUTDIR MANIFEST...\n");
		return 2;
	}
	for (int i = 2; i < argc; i++) {
		const char *slash = strrchr(argv[i], '/');
		char base[256];

		snprintf(base, sizeof(base), "%s", slash ? slash + 1 : argv[i]);
		if (strrchr(base, '.'))
			*strrchr(base, '.') = '\0';
		ret |= seeds_of(argv[1], base, &argv[i], 1);
	}
	/* All of them together: one manifest's objects may need another's (queues). */
	if (argc > 3)
		ret |= seeds_of(argv[1], "all", &argv[2], argc - 2);
	return ret;
}
