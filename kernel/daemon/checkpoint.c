// SPDX-License-Identifier: Apache-2.0
/*
 * The daemon's checkpoints (--checkpoint FILE): restored at start, written
 * every --checkpoint-interval and at a clean stop. The file's format and
 * its atomic write are netlink/checkpoint.h's; here is only when.
 *
 * A checkpoint is written between two wake-ups of the loop, so it sees the
 * core between requests and cycles, never inside one. Writing costs the
 * core's walk and the file's fsync(), during which nothing else is served:
 * Documentation/admin-guide.md gives the measured cost.
 */
#include <errno.h>
#include <string.h>

#include "core/log.h"
#include "daemon/vschedd.h"
#include "netlink/checkpoint.h"

int vschedd_checkpoint_restore(struct vschedd *d, struct vs_err *err)
{
	const char *path = d->opts.checkpoint_path;
	struct vs_ckpt_info info;
	u64 start;
	int ret;

	if (!path)
		return 0;
	start = vs_nl_now_ns(&d->core);
	ret = vs_nl_checkpoint_load(&d->self, path, d->opts.conf_given ? VS_CKPT_KEEP_CONF : 0,
				    &info, err);
	if (ret == -ENOENT) {
		vs_info("checkpoint %s: none yet, starting empty", path);
		vs_err_clear(err);
		return 0;
	}
	if (ret) {
		vs_err_prefix(err, "checkpoint not restored: ");
		return ret;
	}
	vschedd_self_check(d, "the checkpoint's restore");
	vs_info("checkpoint %s restored: %llu requests, %llu bytes in %llu ms: %u nodes, "
		"%u queues, %u PodGroups, %u tasks, %u VolcanoJobs%s", path,
		(unsigned long long)info.nr_msgs, (unsigned long long)info.bytes,
		(unsigned long long)((vs_nl_now_ns(&d->core) - start) / 1000000), d->cl.nr_nodes,
		d->cl.nr_queues, d->cl.nr_jobs, d->cl.nr_tasks, d->cl.nr_vjobs,
		d->opts.conf_given ? "; the configuration given on the command line stays" : "");
	return 0;
}

int vschedd_checkpoint_write(struct vschedd *d, const char *why)
{
	struct vs_err err = { { 0 } };
	struct vs_ckpt_info info;
	u64 start = vs_nl_now_ns(&d->core);
	int ret;

	ret = vs_nl_checkpoint_save(&d->core, d->opts.checkpoint_path, &info, &err);
	if (ret) {
		vs_error("checkpoint (%s): %s; the last one written stays", why, err.msg);
		return ret;
	}
	vs_v(1, "checkpoint (%s) %s: %llu requests, %llu bytes in %llu ms", why,
	     d->opts.checkpoint_path, (unsigned long long)info.nr_msgs,
	     (unsigned long long)info.bytes,
	     (unsigned long long)((vs_nl_now_ns(&d->core) - start) / 1000000));
	return 0;
}

int vschedd_checkpoint_tick(struct vschedd *d)
{
	u64 interval = (u64)d->opts.checkpoint_interval_ms * 1000000, now;

	if (!d->opts.checkpoint_path || !interval)
		return -1;
	now = vs_nl_now_ns(&d->core);
	if (!d->checkpoint_due_ns)
		d->checkpoint_due_ns = now + interval;
	if (now >= d->checkpoint_due_ns) {
		vschedd_checkpoint_write(d, "periodic");
		/* Counted from its end: a slow disk does not make them back to back. */
		now = vs_nl_now_ns(&d->core);
		d->checkpoint_due_ns = now + interval;
	}
	return (int)min_t(u64, (d->checkpoint_due_ns - now + 999999) / 1000000, INT32_MAX);
}
