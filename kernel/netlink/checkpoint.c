// SPDX-License-Identifier: Apache-2.0
/*
 * Checkpoints: see checkpoint.h and uapi/vsched/checkpoint.h.
 *
 * Writing streams: messages are filled in a buffer of VS_CKPT_BUF bytes,
 * which goes to the file whenever the next message might not fit, the
 * body's checksum updated as it goes; the header, with the length and the
 * checksum, is written last at offset 0. Nothing of the core is copied, so
 * a checkpoint costs the buffer whatever the cluster's size.
 *
 * Reading maps the file, checks it whole, then hands each message to the
 * dispatcher as the admin in restore mode (vs_genl_ctx.restore): the same
 * validation as a client's request, the restore-only attributes allowed,
 * and objects made without the controllers.
 */
#include <errno.h>
#include <fcntl.h>
#include <libmnl/libmnl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "core/file.h"
#include "core/task.h"
#include "netlink/checkpoint.h"
#include "netlink/ctl.h"
#include "netlink/fill.h"
#include "netlink/msg.h"
#include "netlink/objects.h"
#include "vsched/checkpoint.h"
#include "vsched/vsched.h"

#define VS_CKPT_BUF		(1u << 20)

_Static_assert(sizeof(struct vs_ckpt_header) == 48, "the header's layout is the file's");
_Static_assert(sizeof(struct vs_ckpt_header) % NLMSG_ALIGNTO == 0,
	       "the first message must start aligned");

/* zlib's crc32() of any length: it takes an unsigned int at a time. */
static u32 crc_update(u32 crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	while (len) {
		unsigned int n = len > UINT_MAX ? UINT_MAX : (unsigned int)len;

		crc = (u32)crc32(crc, p, n);
		p += n;
		len -= n;
	}
	return crc;
}

static u32 header_crc(const struct vs_ckpt_header *h)
{
	return crc_update((u32)crc32(0, NULL, 0), h, offsetof(struct vs_ckpt_header, header_crc));
}

static u64 realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (u64)ts.tv_sec * 1000000000ull + (u64)ts.tv_nsec;
}

/* ---- writing ---- */

static int write_all(int fd, const void *buf, size_t len, off_t *at)
{
	const char *p = buf;

	while (len) {
		ssize_t n = at ? pwrite(fd, p, len, *at) : write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
		if (at)
			*at += n;
	}
	return 0;
}

int vs_ckpt_writer_open(struct vs_ckpt_writer *w, const char *path, struct vs_err *err)
{
	size_t n = strlen(path);

	memset(w, 0, sizeof(*w));
	w->fd = -1;
	w->path = strdup(path);
	w->tmp = malloc(n + sizeof(".tmp"));
	/*
	 * Zeroed, and zeroed again as it is flushed: libmnl (1.0.4) leaves an
	 * attribute's padding as it was, and a checkpoint holds no byte the
	 * writer did not mean.
	 */
	w->buf = calloc(1, VS_CKPT_BUF);
	if (!w->path || !w->tmp || !w->buf) {
		vs_ckpt_writer_abort(w);
		return vs_err_set(err, ENOMEM, "out of memory");
	}
	memcpy(w->tmp, path, n);
	memcpy(w->tmp + n, ".tmp", sizeof(".tmp"));
	w->fd = vs_open_regular(w->tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600, err);
	if (w->fd < 0) {
		int ret = w->fd;

		free(w->tmp);
		w->tmp = NULL;	/* not ours to remove */
		vs_ckpt_writer_abort(w);
		return ret;
	}
	w->crc = (u32)crc32(0, NULL, 0);
	/* The header's room: written for real by the commit. */
	w->len = sizeof(struct vs_ckpt_header);
	return 0;
}

int vs_ckpt_writer_open_mem(struct vs_ckpt_writer *w, struct vs_err *err)
{
	memset(w, 0, sizeof(*w));
	w->fd = -1;
	w->cap = VS_CKPT_BUF;
	w->buf = calloc(1, w->cap);
	if (!w->buf)
		return vs_err_set(err, ENOMEM, "out of memory");
	w->len = sizeof(struct vs_ckpt_header);
	return 0;
}

static void fill_header(struct vs_ckpt_header *h, u64 body_len, u64 nr_msgs, u32 crc)
{
	memset(h, 0, sizeof(*h));
	memcpy(h->magic, VS_CKPT_MAGIC, VS_CKPT_MAGIC_LEN);
	h->version = VS_CKPT_VERSION;
	h->header_len = sizeof(*h);
	h->body_len = body_len;
	h->nr_msgs = nr_msgs;
	h->time_ns = realtime_ns();
	h->body_crc = crc;
	h->header_crc = header_crc(h);
}

void *vs_ckpt_writer_finish_mem(struct vs_ckpt_writer *w, size_t *len)
{
	size_t hdr = sizeof(struct vs_ckpt_header);
	struct vs_ckpt_header h;
	void *img = w->buf;

	fill_header(&h, w->len - hdr, w->nr_msgs,
		    crc_update((u32)crc32(0, NULL, 0), w->buf + hdr, w->len - hdr));
	memcpy(w->buf, &h, hdr);
	*len = w->len;
	w->buf = NULL;
	vs_ckpt_writer_abort(w);
	return img;
}

/* Room for @n more bytes: in memory the buffer grows, on file what it holds goes. */
static int writer_room(struct vs_ckpt_writer *w, size_t n, struct vs_err *err);

/* What is buffered, to the file; the header's room is not the body's. */
static int writer_flush(struct vs_ckpt_writer *w, struct vs_err *err)
{
	size_t skip = w->flushed ? 0 : sizeof(struct vs_ckpt_header);
	int ret;

	if (w->fd < 0)
		return vs_err_set(err, EIO, "%s: an earlier write failed", w->tmp);
	if (w->len > skip)
		w->crc = crc_update(w->crc, w->buf + skip, w->len - skip);
	ret = write_all(w->fd, w->buf, w->len, NULL);
	if (ret)
		return vs_err_set(err, ret, "%s: %s", w->tmp, strerror(-ret));
	w->body_len += w->len - skip;
	memset(w->buf, 0, w->len);
	w->len = 0;
	w->flushed = true;
	return 0;
}

static int writer_room(struct vs_ckpt_writer *w, size_t n, struct vs_err *err)
{
	unsigned char *grown;
	size_t cap;

	if (!w->cap)
		return w->len + n > VS_CKPT_BUF ? writer_flush(w, err) : 0;
	if (w->len + n <= w->cap)
		return 0;
	cap = max_t(size_t, w->cap * 2, w->len + n);
	grown = realloc(w->buf, cap);
	if (!grown)
		return vs_err_set(err, ENOMEM, "out of memory for a checkpoint of %zu bytes", cap);
	memset(grown + w->cap, 0, cap - w->cap);
	w->buf = grown;
	w->cap = cap;
	return 0;
}

struct nlmsghdr *vs_ckpt_writer_msg(struct vs_ckpt_writer *w, u8 cmd, struct vs_err *err)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;

	if (writer_room(w, VS_CKPT_MSG_MAX, err))
		return NULL;
	nlh = mnl_nlmsg_put_header(w->buf + w->len);
	nlh->nlmsg_type = VSCHED_GENL_ID;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = (u32)(w->nr_msgs + 1);
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = VSCHED_GENL_VERSION;
	return nlh;
}

void vs_ckpt_writer_end(struct vs_ckpt_writer *w, struct nlmsghdr *nlh)
{
	w->len += NLMSG_ALIGN(nlh->nlmsg_len);
	w->nr_msgs++;
}

int vs_ckpt_writer_add(struct vs_ckpt_writer *w, const struct nlmsghdr *nlh, struct vs_err *err)
{
	size_t n = NLMSG_ALIGN(nlh->nlmsg_len);

	if (nlh->nlmsg_len < NLMSG_HDRLEN || n > VS_CKPT_MSG_MAX)
		return vs_err_set(err, EINVAL, "a message of %u bytes: not one a checkpoint holds",
				  nlh->nlmsg_len);
	if (writer_room(w, n, err))
		return -EIO;
	memcpy(w->buf + w->len, nlh, nlh->nlmsg_len);
	memset(w->buf + w->len + nlh->nlmsg_len, 0, n - nlh->nlmsg_len);
	w->len += n;
	w->nr_msgs++;
	return 0;
}

/* fsync() the directory @path is in, so that its new name lasts too. */
static int sync_dir(const char *path, struct vs_err *err)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : NULL;
	int fd, ret = 0;

	if (slash && !dir)
		return vs_err_set(err, ENOMEM, "out of memory");
	fd = open(dir ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fsync(fd))
		ret = vs_err_set(err, -errno, "%s: %s", dir ? dir : ".", strerror(errno));
	if (fd >= 0)
		close(fd);
	free(dir);
	return ret;
}

int vs_ckpt_writer_commit(struct vs_ckpt_writer *w, struct vs_ckpt_info *info,
			  struct vs_err *err)
{
	struct vs_ckpt_header h;
	off_t at = 0;
	int ret;

	ret = writer_flush(w, err);
	if (ret)
		goto fail;
	fill_header(&h, w->body_len, w->nr_msgs, w->crc);
	ret = write_all(w->fd, &h, sizeof(h), &at);
	if (!ret && fsync(w->fd))
		ret = -errno;
	if (ret) {
		vs_err_set(err, ret, "%s: %s", w->tmp, strerror(-ret));
		goto fail;
	}
	ret = close(w->fd) ? -errno : 0;
	w->fd = -1;
	if (!ret && rename(w->tmp, w->path))
		ret = -errno;
	if (ret) {
		vs_err_set(err, ret, "%s: %s", w->path, strerror(-ret));
		goto fail;
	}
	free(w->tmp);
	w->tmp = NULL;		/* it is the checkpoint now */
	ret = sync_dir(w->path, err);
	if (info && !ret) {
		info->nr_msgs = h.nr_msgs;
		info->bytes = sizeof(h) + h.body_len;
		info->time_ns = h.time_ns;
	}
fail:
	vs_ckpt_writer_abort(w);
	return ret;
}

void vs_ckpt_writer_abort(struct vs_ckpt_writer *w)
{
	if (w->fd >= 0)
		close(w->fd);
	if (w->tmp)
		unlink(w->tmp);
	free(w->tmp);
	free(w->path);
	free(w->buf);
	memset(w, 0, sizeof(*w));
	w->fd = -1;
}

/*
 * A task as a checkpoint keeps it. A bind not yet confirmed (Binding) and
 * a place only a session holds (Allocated, Pipelined) were never the
 * outside world's: restored, such a task is Pending and scheduled again.
 */
static bool task_placed(const struct vs_task *t)
{
	return t->status != VS_TASK_BINDING && t->status != VS_TASK_ALLOCATED &&
	       t->status != VS_TASK_PIPELINED;
}

static int fill_kind(struct vs_nl_core *core, struct vs_ckpt_writer *w, u16 attr, u8 cmd,
		     struct vs_err *err)
{
	const struct vs_nl_objtype *ot = vs_nl_objtype(attr);
	struct vs_task unplaced;
	void *obj = NULL;

	while ((obj = vs_nl_obj_next(ot, core->cl, obj))) {
		struct nlmsghdr *nlh = vs_ckpt_writer_msg(w, cmd, err);
		const void *put = obj;
		bool ok;

		if (!nlh)
			return -EIO;
		if (attr == VS_A_TASK && !task_placed(obj)) {
			unplaced = *(const struct vs_task *)obj;
			unplaced.status = VS_TASK_PENDING;
			unplaced.node = NULL;
			put = &unplaced;
		}
		if (attr == VS_A_VJOB)
			ok = vs_nl_put_vjob_checkpoint(nlh, VS_CKPT_MSG_MAX, put);
		else
			ok = vs_nl_obj_put_spec(ot, nlh, VS_CKPT_MSG_MAX, put);
		if (!ok)
			return vs_err_set(err, EMSGSIZE, "a %s larger than a message holds",
					  vs_nl_objtype_what(ot));
		vs_ckpt_writer_end(w, nlh);
	}
	return 0;
}

int vs_nl_checkpoint_fill(struct vs_nl_core *core, struct vs_ckpt_writer *w, struct vs_err *err)
{
	/* What a later kind names comes before it: classes and queues, then nodes and jobs. */
	static const struct {
		u16 attr;
		u8 cmd;
	} order[] = {
		{ VS_A_PRIOCLASS, VS_CMD_PRIOCLASS_NEW },
		{ VS_A_QUEUE, VS_CMD_QUEUE_NEW },
		{ VS_A_NODE, VS_CMD_NODE_NEW },
		{ VS_A_HYPERNODE, VS_CMD_HYPERNODE_NEW },
		{ VS_A_PODGROUP, VS_CMD_PODGROUP_NEW },
		{ VS_A_TASK, VS_CMD_TASK_NEW },
		{ VS_A_VJOB, VS_CMD_VJOB_NEW },
	};
	int ret;

	if (core->sched) {
		struct nlmsghdr *nlh = vs_ckpt_writer_msg(w, VS_CMD_CONF_SET, err);

		if (!nlh)
			return -EIO;
		ret = vs_nl_conf_put(core, nlh, VS_CKPT_MSG_MAX, true, err);
		if (ret)
			return ret;
		vs_ckpt_writer_end(w, nlh);
	}
	for (size_t i = 0; i < ARRAY_SIZE(order); i++) {
		ret = fill_kind(core, w, order[i].attr, order[i].cmd, err);
		if (ret)
			return ret;
	}
	return 0;
}

int vs_nl_checkpoint_save(struct vs_nl_core *core, const char *path, struct vs_ckpt_info *info,
			  struct vs_err *err)
{
	struct vs_ckpt_writer w;
	int ret = vs_ckpt_writer_open(&w, path, err);

	if (ret)
		return ret;
	ret = vs_nl_checkpoint_fill(core, &w, err);
	if (ret) {
		vs_ckpt_writer_abort(&w);
		return ret;
	}
	return vs_ckpt_writer_commit(&w, info, err);
}

/* ---- VS_CMD_DUMP ---- */

/* What a dump holds between its parts: its image, and how far it went. */
struct dump_image {
	struct vs_nl_core *core;
	unsigned char *buf;
	size_t len;
	size_t off;
};

void vs_nl_dump_done(struct vs_genl_dump *dump)
{
	struct dump_image *img = (void *)(uintptr_t)dump->pos[0];

	if (!img)
		return;
	img->core->ctl.dumping = false;
	free(img->buf);
	free(img);
	dump->pos[0] = 0;
}

/* The image, taken whole now: later parts see the core as it was at the start. */
static struct dump_image *dump_start(struct vs_genl_info *info, int *ret)
{
	struct vs_nl_core *core = info->ctx->priv;
	struct vs_err *err = &info->extack->err;
	struct vs_ckpt_writer w;
	struct dump_image *img;

	if (core->ctl.dumping) {
		*ret = vs_extack_fail(info->extack, EBUSY, "another client's VS_CMD_DUMP is "
				      "under way: one at a time");
		return NULL;
	}
	img = calloc(1, sizeof(*img));
	if (!img) {
		*ret = vs_extack_fail(info->extack, ENOMEM, "out of memory");
		return NULL;
	}
	*ret = vs_ckpt_writer_open_mem(&w, err);
	if (!*ret)
		*ret = vs_nl_checkpoint_fill(core, &w, err);
	if (*ret) {
		vs_ckpt_writer_abort(&w);
		free(img);
		*ret = vs_extack_fail(info->extack, *ret, "%s", err->msg);
		return NULL;
	}
	img->core = core;
	img->buf = vs_ckpt_writer_finish_mem(&w, &img->len);
	img->off = sizeof(struct vs_ckpt_header);
	core->ctl.dumping = true;
	info->dump->pos[0] = (uintptr_t)img;
	return img;
}

int vs_nl_dump_dumpit(struct vs_genl_info *info)
{
	struct dump_image *img = (void *)(uintptr_t)info->dump->pos[0];
	int ret;

	if (!img && !(img = dump_start(info, &ret)))
		return ret;
	while (img->off < img->len) {
		const struct nlmsghdr *m = (const void *)(img->buf + img->off);
		size_t attrs = m->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
		struct nlmsghdr *nlh = vs_genl_reply_put(info, NLM_F_MULTI);
		struct genlmsghdr *g;

		/* An open message not finished is dropped with the part. */
		if (!nlh || vs_nl_reply_room(info->reply, nlh) < NLMSG_ALIGN(nlh->nlmsg_len) +
		    NLMSG_ALIGN(attrs)) {
			if (info->reply->len)
				return 1;	/* the next part goes on from this one */
			vs_nl_dump_done(info->dump);
			return vs_extack_fail(info->extack, EMSGSIZE, "a message of %u bytes "
					      "does not fit a part", m->nlmsg_len);
		}
		g = mnl_nlmsg_get_payload(nlh);
		g->cmd = ((const struct genlmsghdr *)mnl_nlmsg_get_payload(m))->cmd;
		memcpy(mnl_nlmsg_get_payload_tail(nlh),
		       (const char *)mnl_nlmsg_get_payload(m) + GENL_HDRLEN, attrs);
		nlh->nlmsg_len += (u32)NLMSG_ALIGN(attrs);
		vs_nl_reply_finish(info->reply, nlh);
		img->off += NLMSG_ALIGN(m->nlmsg_len);
	}
	vs_nl_dump_done(info->dump);
	return 0;
}

/* ---- reading ---- */

int vs_ckpt_for_each(const void *buf, size_t len,
		     int (*fn)(const struct nlmsghdr *nlh, u64 index, u64 offset, void *arg),
		     void *arg)
{
	const unsigned char *p = buf;
	size_t off = sizeof(struct vs_ckpt_header);
	u64 i = 0;
	int ret;

	while (off < len) {
		const struct nlmsghdr *nlh = (const void *)(p + off);

		ret = fn(nlh, i++, off, arg);
		if (ret)
			return ret;
		off += NLMSG_ALIGN(nlh->nlmsg_len);
	}
	return 0;
}

int vs_ckpt_check(const void *buf, size_t len, struct vs_ckpt_info *info, struct vs_err *err)
{
	const struct vs_ckpt_header *h = buf;
	const unsigned char *p = buf;
	size_t off = sizeof(*h);
	u64 n = 0;

	if (len < sizeof(*h))
		return vs_err_set(err, EINVAL, "%zu bytes: shorter than a checkpoint's header "
				  "(%zu)", len, sizeof(*h));
	if (memcmp(h->magic, VS_CKPT_MAGIC, VS_CKPT_MAGIC_LEN))
		return vs_err_set(err, EINVAL, "not a vsched checkpoint (its first bytes are not "
				  "the magic)");
	if (h->header_crc != header_crc(h))
		return vs_err_set(err, EINVAL, "the header is damaged (its checksum is wrong)");
	if (h->version != VS_CKPT_VERSION || h->header_len != sizeof(*h))
		return vs_err_set(err, EINVAL, "version %u with a header of %u bytes: this "
				  "vschedd reads version %u", h->version, h->header_len,
				  VS_CKPT_VERSION);
	if (h->body_len != len - sizeof(*h))
		return vs_err_set(err, EINVAL, "%s: the header says %llu bytes of messages, the "
				  "file has %zu", h->body_len > len - sizeof(*h) ? "truncated" :
				  "trailing bytes", (unsigned long long)h->body_len,
				  len - sizeof(*h));
	if (crc_update((u32)crc32(0, NULL, 0), p + off, len - off) != h->body_crc)
		return vs_err_set(err, EINVAL, "the messages are damaged (their checksum is "
				  "wrong)");
	while (off < len) {
		const struct nlmsghdr *nlh = (const void *)(p + off);

		if (len - off < NLMSG_HDRLEN || nlh->nlmsg_len < NLMSG_HDRLEN ||
		    nlh->nlmsg_len > len - off || nlh->nlmsg_len > VS_CKPT_MSG_MAX)
			return vs_err_set(err, EINVAL, "message %llu at byte %zu: its length "
					  "does not fit the file", (unsigned long long)n, off);
		off += NLMSG_ALIGN(nlh->nlmsg_len);
		n++;
	}
	if (off != len || n != h->nr_msgs)
		return vs_err_set(err, EINVAL, "%llu whole messages, the header says %llu",
				  (unsigned long long)n, (unsigned long long)h->nr_msgs);
	if (info) {
		info->nr_msgs = n;
		info->bytes = len;
		info->time_ns = h->time_ns;
	}
	return 0;
}

struct restore {
	struct vs_genl_ctx *ctx;
	unsigned int flags;
	void *reply;			/* room for an answer, looked at only for an error */
	struct vs_extack ext;
};

/* An error's answer quotes the request. */
#define RESTORE_REPLY_MAX	(NLMSG_HDRLEN + sizeof(struct nlmsgerr) + VS_CKPT_MSG_MAX + \
				 VS_NL_ERROR_MIN)

static bool restorable(const struct nlmsghdr *nlh)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);

	if (nlh->nlmsg_type != VSCHED_GENL_ID || nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN ||
	    (nlh->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP)
		return false;
	switch (g->cmd) {
	case VS_CMD_CONF_SET:
	case VS_CMD_PRIOCLASS_NEW:
	case VS_CMD_QUEUE_NEW:
	case VS_CMD_NODE_NEW:
	case VS_CMD_HYPERNODE_NEW:
	case VS_CMD_PODGROUP_NEW:
	case VS_CMD_TASK_NEW:
	case VS_CMD_VJOB_NEW:
		return true;
	default:
		return false;
	}
}

static int restore_one(const struct nlmsghdr *nlh, u64 index, u64 offset, void *arg)
{
	struct restore *r = arg;
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);
	const struct vs_genl_op *op;
	struct vs_nl_reply reply;
	int ret;

	vs_extack_clear(&r->ext);
	if (!restorable(nlh))
		return vs_extack_fail(&r->ext, EINVAL, "message %llu at byte %llu: not a request "
				      "a checkpoint holds", (unsigned long long)index,
				      (unsigned long long)offset);
	if (g->cmd == VS_CMD_CONF_SET && (r->flags & VS_CKPT_KEEP_CONF))
		return 0;
	vs_nl_reply_init(&reply, r->reply, RESTORE_REPLY_MAX, 0);
	ret = vs_genl_rcv_msg(r->ctx, nlh, &reply, NULL, &r->ext);
	if (ret) {
		op = vs_genl_op_find(&vs_genl_vsched, g->cmd);
		vs_err_prefix(&r->ext.err, "message %llu (%s) at byte %llu: ",
			      (unsigned long long)index, op ? op->name : "?",
			      (unsigned long long)offset);
	}
	return ret;
}

/*
 * The whole file @path, mapped; VS_CKPT_NONE when nothing is there. A
 * name that is there but leads nowhere (a symbolic link to a missing file)
 * is no first start: a checkpoint written through it would replace the
 * link, and the state it pointed to would never come back.
 */
static int map_file(const char *path, void **buf, size_t *len, struct vs_err *err)
{
	struct stat st;
	int fd = vs_open_regular(path, O_RDONLY, 0, err), ret = 0;

	if (fd == -ENOENT) {
		if (lstat(path, &st) && errno == ENOENT) {
			vs_err_clear(err);
			return VS_CKPT_NONE;
		}
		vs_err_clear(err);
		return vs_err_set(err, ENOENT, "%s: a name that leads to no file (a symbolic "
				  "link to nothing?)", path);
	}
	if (fd < 0)
		return fd;
	if (fstat(fd, &st)) {
		ret = vs_err_set(err, errno, "%s: %s", path, strerror(errno));
		goto out;
	}
	*len = (size_t)st.st_size;
	*buf = NULL;
	if (*len) {
		*buf = mmap(NULL, *len, PROT_READ, MAP_PRIVATE, fd, 0);
		if (*buf == MAP_FAILED) {
			*buf = NULL;
			ret = vs_err_set(err, errno, "%s: %s", path, strerror(errno));
		}
	}
out:
	close(fd);
	return ret;
}

int vs_nl_checkpoint_load(struct vs_genl_ctx *ctx, const char *path, unsigned int flags,
			  struct vs_ckpt_info *info, struct vs_err *err)
{
	struct restore r = { .ctx = ctx, .flags = flags };
	struct vs_genl_ctx saved = *ctx;
	void *buf = NULL;
	size_t len = 0;
	int ret;

	ret = map_file(path, &buf, &len, err);
	if (ret)
		return ret;	/* VS_CKPT_NONE too */
	ret = vs_ckpt_check(buf, len, info, err);
	if (ret) {
		vs_err_prefix(err, "%s: ", path);
		goto out;
	}
	r.reply = malloc(RESTORE_REPLY_MAX);
	if (!r.reply) {
		ret = vs_err_set(err, ENOMEM, "out of memory");
		goto out;
	}
	ctx->admin = true;
	ctx->restore = true;
	vs_extack_clear(&r.ext);
	ret = vs_ckpt_for_each(buf, len, restore_one, &r);
	*ctx = saved;
	if (ret) {
		vs_err_set(err, ret, "%s", r.ext.err.msg);
		vs_err_prefix(err, "%s: ", path);
	}
out:
	free(r.reply);
	if (buf)
		munmap(buf, len);
	return ret;
}

int vs_ckpt_set_aside(const char *path, char *aside, size_t cap, struct vs_err *err)
{
	char stamp[sizeof("20261201T151205Z")];
	struct tm tm;
	time_t now = time(NULL);
	int n;

	if (!gmtime_r(&now, &tm) || !strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm))
		return vs_err_set(err, EINVAL, "%s: no time to name it by", path);
	/* Never over another file: one set aside in the same second gets a number. */
	for (unsigned int i = 1; i <= 100; i++) {
		n = i == 1 ? snprintf(aside, cap, "%s.bad-%s", path, stamp) :
			     snprintf(aside, cap, "%s.bad-%s-%u", path, stamp, i);
		if (n < 0 || (size_t)n >= cap)
			return vs_err_set(err, ENAMETOOLONG, "%s: the name to set it aside by "
					  "is too long", path);
		if (!renameat2(AT_FDCWD, path, AT_FDCWD, aside, RENAME_NOREPLACE))
			return sync_dir(aside, err);
		if (errno != EEXIST)
			return vs_err_set(err, errno, "%s: cannot be renamed to %s: %s", path, aside,
					  strerror(errno));
	}
	return vs_err_set(err, EEXIST, "%s: set aside 100 times this second already", path);
}
