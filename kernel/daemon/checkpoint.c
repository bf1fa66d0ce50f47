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
#include <limits.h>
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
	if (ret == VS_CKPT_NONE) {
		vs_info("checkpoint %s: none yet, starting empty", path);
		return 0;
	}
	if (ret) {
		/*
		 * Whatever the error, ENOENT of a message too: the file is
		 * there and holds a state this daemon would lose. Starting
		 * empty would write over it at the first checkpoint.
		 */
		vs_err_prefix(err, "checkpoint not restored: ");
		if (!d->opts.set_aside_bad_checkpoint) {
			vs_error("checkpoint %s: left as it is, never written over; to start "
				 "empty, give --set-aside-bad-checkpoint, which renames it to "
				 "%s.bad-TIME", path, path);
			return ret;
		}
		vs_error("%s", err->msg);
		vs_err_clear(err);
		return VSCHEDD_CKPT_SET_ASIDE;
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

int vschedd_checkpoint_set_aside(struct vschedd *d, struct vs_err *err)
{
	const char *path = d->opts.checkpoint_path;
	char aside[PATH_MAX];
	int ret;

	ret = vs_ckpt_set_aside(path, aside, sizeof(aside), err);
	if (ret) {
		vs_err_prefix(err, "checkpoint not restored, and not set aside: ");
		return ret;
	}
	vs_warn("checkpoint %s NOT RESTORED: set aside as %s (--set-aside-bad-checkpoint); "
		"STARTING EMPTY, without anything it held", path, aside);
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
