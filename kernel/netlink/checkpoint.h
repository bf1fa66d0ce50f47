/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Checkpoints: the core's state as a file of replayable requests
 * (uapi/vsched/checkpoint.h), written atomically and restored through the
 * dispatcher (Documentation/admin-guide.md, "Checkpoints").
 *
 * A writer makes the file under a temporary name (@path.tmp) and only a
 * commit, after fsync(), renames it over @path and syncs the directory:
 * whenever the process dies, @path is the last whole checkpoint or absent.
 * The reader checks the header, the length and both checksums before it
 * looks at a message, so a torn or damaged file is refused whole.
 */
#ifndef VS_NETLINK_CHECKPOINT_H
#define VS_NETLINK_CHECKPOINT_H

#include <linux/netlink.h>

#include "core/err.h"
#include "netlink/family.h"
#include "netlink/handlers.h"

/* The largest message a checkpoint holds: one object's nest fills at most 64 KiB. */
#define VS_CKPT_MSG_MAX		(NLMSG_HDRLEN + 4 + 0xffffu)

/* What a checkpoint holds, as written or read. */
struct vs_ckpt_info {
	u64 nr_msgs;
	u64 bytes;			/* the whole file */
	u64 time_ns;			/* when it was written (CLOCK_REALTIME) */
};

/* A checkpoint being written. */
struct vs_ckpt_writer {
	char *path;
	char *tmp;			/* path.tmp, what is written until the commit */
	int fd;
	unsigned char *buf;		/* messages not yet written */
	size_t len;
	u64 body_len;
	u64 nr_msgs;
	u32 crc;
	bool flushed;			/* the header's room has gone to the file */
	size_t cap;			/* in memory (vs_ckpt_writer_open_mem()): buf's size */
};

/* Open @path.tmp (mode 0600, truncated) for a checkpoint to be @path. */
int vs_ckpt_writer_open(struct vs_ckpt_writer *w, const char *path, struct vs_err *err);

/* A checkpoint made in memory, whole in w->buf; vs_ckpt_writer_finish_mem() gives it. */
int vs_ckpt_writer_open_mem(struct vs_ckpt_writer *w, struct vs_err *err);

/* The header written: the image (free() it) of *@len bytes. The writer is closed. */
void *vs_ckpt_writer_finish_mem(struct vs_ckpt_writer *w, size_t *len);

/*
 * The next message, a request of @cmd with its genetlink header, at the
 * end of the buffer, with VS_CKPT_MSG_MAX bytes of room; fill it, then
 * vs_ckpt_writer_end(). NULL when writing what was buffered failed.
 */
struct nlmsghdr *vs_ckpt_writer_msg(struct vs_ckpt_writer *w, u8 cmd, struct vs_err *err);
void vs_ckpt_writer_end(struct vs_ckpt_writer *w, struct nlmsghdr *nlh);

/* A whole message of another's making (vsctl dump), copied. */
int vs_ckpt_writer_add(struct vs_ckpt_writer *w, const struct nlmsghdr *nlh, struct vs_err *err);

/*
 * Write what is buffered and the header, fsync, rename over the path, and
 * sync the directory; the writer is closed either way (abort on error).
 */
int vs_ckpt_writer_commit(struct vs_ckpt_writer *w, struct vs_ckpt_info *info,
			  struct vs_err *err);

/* Give up: the temporary file goes, the path is as it was. */
void vs_ckpt_writer_abort(struct vs_ckpt_writer *w);

/* Every object of @core's cluster and its configuration, into @w. */
int vs_nl_checkpoint_fill(struct vs_nl_core *core, struct vs_ckpt_writer *w, struct vs_err *err);

/* vs_nl_checkpoint_fill() into a new @path, atomically. */
int vs_nl_checkpoint_save(struct vs_nl_core *core, const char *path, struct vs_ckpt_info *info,
			  struct vs_err *err);

/*
 * Check the image @buf of @len bytes: the header, the length, both
 * checksums and that the body splits into whole messages. 0, or -EINVAL
 * with what is wrong and where in @err.
 */
int vs_ckpt_check(const void *buf, size_t len, struct vs_ckpt_info *info, struct vs_err *err);

/*
 * Call @fn on each message of a checked image, in order, with its index
 * and offset in the file; the first error stops the walk and is returned.
 */
int vs_ckpt_for_each(const void *buf, size_t len,
		     int (*fn)(const struct nlmsghdr *nlh, u64 index, u64 offset, void *arg),
		     void *arg);

/* VS_CMD_DUMP: the checkpoint's requests, from an image taken when the dump starts. */
int vs_nl_dump_dumpit(struct vs_genl_info *info);
void vs_nl_dump_done(struct vs_genl_dump *dump);

/* Skip the checkpoint's configuration message: the one in force stays. */
#define VS_CKPT_KEEP_CONF	0x1

/* vs_nl_checkpoint_load(): no checkpoint at the path, nothing done (a first start). */
#define VS_CKPT_NONE		1

/*
 * Read the checkpoint @path and replay it into @ctx's core (@ctx->priv),
 * which holds no object yet, as the admin in restore mode. 0 when it was
 * restored whole; VS_CKPT_NONE when there is no file at @path (and no
 * name leading nowhere either); otherwise a negative errno, with the file,
 * the message (index and byte offset) and what was wrong in @err. That
 * errno is the failing handler's own: a task whose PodGroup is not there
 * is -ENOENT, which says nothing of the file. A restore that fails has
 * made part of the checkpoint, and the core must be thrown away whole:
 * the daemon does not start (or starts again from an empty core when told
 * to set the file aside). The file is only read.
 */
int vs_nl_checkpoint_load(struct vs_genl_ctx *ctx, const char *path, unsigned int flags,
			  struct vs_ckpt_info *info, struct vs_err *err);

/*
 * Move the checkpoint @path out of the way, to "@path.bad-YYYYMMDDTHHMMSSZ"
 * (UTC; "-2", "-3"... appended when that name is taken: nothing is ever
 * renamed over), and sync the directory. The new name in @aside.
 */
int vs_ckpt_set_aside(const char *path, char *aside, size_t cap, struct vs_err *err);

#endif /* VS_NETLINK_CHECKPOINT_H */
