// SPDX-License-Identifier: Apache-2.0
/*
 * A daemon's state written as a checkpoint. See ckpt.h.
 */
#include <errno.h>
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "harness/ckpt.h"
#include "netlink/checkpoint.h"

struct harness_ckpt {
	struct vs_ckpt_writer w;
	alignas(NLMSG_ALIGNTO) unsigned char req[VS_CKPT_MSG_MAX];
};

struct harness_ckpt *harness_ckpt_open(const char *path, struct vsnl_err *err)
{
	struct harness_ckpt *c = malloc(sizeof(*c));
	struct vs_err e = { { 0 } };
	int ret;

	if (!c) {
		vsnl_err_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	ret = vs_ckpt_writer_open(&c->w, path, &e);
	if (ret) {
		vsnl_err_set(err, ret, "%s", e.msg);
		free(c);
		return NULL;
	}
	return c;
}

int harness_ckpt_add_reply(struct harness_ckpt *c, const struct nlmsghdr *nlh,
			   struct vsnl_err *err)
{
	struct nlmsghdr *req = (void *)c->req;
	struct vs_err e = { { 0 } };
	int ret;

	if (nlh->nlmsg_len > sizeof(c->req))
		return vsnl_err_set(err, EMSGSIZE, "a message of %u bytes: no checkpoint holds one",
				    nlh->nlmsg_len);
	/* A request, as the daemon's own checkpoint has it. */
	memcpy(req, nlh, nlh->nlmsg_len);
	req->nlmsg_flags = NLM_F_REQUEST;
	req->nlmsg_seq = (u32)(c->w.nr_msgs + 1);
	req->nlmsg_pid = 0;
	ret = vs_ckpt_writer_add(&c->w, req, &e);
	return ret ? vsnl_err_set(err, ret, "%s", e.msg) : 0;
}

int harness_ckpt_commit(struct harness_ckpt *c, uint64_t *nr_msgs, uint64_t *bytes,
			struct vsnl_err *err)
{
	struct vs_err e = { { 0 } };
	struct vs_ckpt_info info;
	int ret = vs_ckpt_writer_commit(&c->w, &info, &e);

	free(c);
	if (ret)
		return vsnl_err_set(err, ret, "%s", e.msg);
	*nr_msgs = info.nr_msgs;
	*bytes = info.bytes;
	return 0;
}

void harness_ckpt_abort(struct harness_ckpt *c)
{
	vs_ckpt_writer_abort(&c->w);
	free(c);
}
