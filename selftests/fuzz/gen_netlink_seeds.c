// SPDX-License-Identifier: Apache-2.0
/*
 * The seeds of the netlink fuzz target (make fuzz-seeds): datagrams a
 * client really sends, made from the Kubernetes manifests of the tests as
 * vsctl apply makes its requests:
 *
 *	gen-netlink-seeds OUTDIR MANIFEST...
 *
 * For each manifest, and for all of them together (NAME "all"),
 * OUTDIR/seed-NAME-batch holds its objects' NEW requests in a batch, a
 * cycle and a dump of every kind; OUTDIR/seed-NAME-acked the same requests
 * one by one with NLM_F_ACK, then a cycle, the statistics and the
 * configuration; OUTDIR/seed-NAME-dels the requests and then the DEL of
 * each object, last made first. A seed stops at libFuzzer's default
 * max_len (4096 bytes), at a message boundary.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kube/manifest.h"
#include "lib/vsnl.h"
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

/* The NEW (or, with @del, DEL) request of every object of @set the build kept. */
static void put_objects(const struct mf_set *set, bool del, u16 flags)
{
	for (u32 k = 0; k < set->nr_objs; k++) {
		const struct mf_obj *o = &set->objs[del ? set->nr_objs - 1 - k : k];
		const struct mf_kind_info *ki = mf_kind(o->kind);
		struct nlmsghdr *nlh;

		if (!o->obj || o->skipped)
			continue;
		nlh = put(del ? ki->cmd_del : ki->cmd_new, flags);
		if (nlh && (del ? mf_put_key(o, nlh, sizeof(seed) - seed_len) :
			    mf_put_spec(o, nlh, sizeof(seed) - seed_len)))
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

/* The seeds of the objects of the @nr manifests @paths, named after @base. */
static int seeds_of(const char *dir, const char *base, char **paths, int nr)
{
	struct mf_err err = { { 0 } };
	struct mf_set set;
	int ret;

	if (mf_set_init(&set)) {
		fprintf(stderr, "gen-netlink-seeds: out of memory\n");
		return 1;
	}
	set.offline = true;
	/* A manifest the tests keep for its errors gives what it can. */
	set.keep_going = true;
	for (int i = 0; i < nr; i++)
		if (mf_set_read(&set, paths[i], &err))
			break;
	if (err.msg[0] || mf_set_build(&set, &err)) {
		fprintf(stderr, "gen-netlink-seeds: %s: %s\n", base, err.msg);
		mf_set_free(&set);
		return 1;
	}

	put_simple(VS_CMD_BATCH_BEGIN, 0);
	put_objects(&set, false, 0);
	put_simple(VS_CMD_BATCH_END, NLM_F_ACK);
	put_simple(VS_CMD_CYCLE_RUN, NLM_F_ACK);
	put_dumps();
	ret = write_seed(dir, base, "batch");

	put_objects(&set, false, NLM_F_ACK);
	put_simple(VS_CMD_CYCLE_RUN, NLM_F_ACK);
	put_simple(VS_CMD_STATS_GET, 0);
	put_simple(VS_CMD_CONF_GET, 0);
	ret |= write_seed(dir, base, "acked");

	put_objects(&set, false, 0);
	put_objects(&set, true, NLM_F_ACK);
	put_dumps();
	ret |= write_seed(dir, base, "dels");

	mf_set_free(&set);
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
