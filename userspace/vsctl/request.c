// SPDX-License-Identifier: Apache-2.0
/* Requests to vschedd and their failures: see request.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "vsctl/render.h"
#include "vsctl/request.h"

int vsctl_fail(int ret, const struct vsnl_err *err)
{
	fprintf(stderr, "vsctl: error: %s\n",
		err && err->msg[0] ? err->msg : strerror(ret < 0 ? -ret : ret));
	return 1;
}

struct vsnl *vsctl_connect(const char *socket)
{
	struct vsnl_err err = { 0 };
	struct vsnl *c = vsnl_open(socket, &err);

	if (!c)
		vsctl_fail(err.err ? err.err : -ENOTCONN, &err);
	return c;
}

int vsctl_request(const char *socket, struct nl_msg *m, vsnl_cb cb, void *arg)
{
	struct vsnl_err err = { 0 };
	struct vsnl *c;
	int ret;

	if (!m)
		return vsctl_fail(-ENOMEM, NULL);
	c = vsctl_connect(socket);
	if (!c) {
		nlmsg_free(m);
		return 1;
	}
	ret = vsnl_request(c, m, cb, arg, &err);
	vsnl_close(c);
	return ret ? vsctl_fail(ret, &err) : 0;
}

int vsctl_print_json(const json_t *v)
{
	if (!v || json_dumpf(v, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER) ||
	    fputc('\n', stdout) == EOF)
		return 1;
	return 0;
}

int vsctl_keep_reply(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	json_t **out = arg;

	json_decref(*out);
	*out = vsctl_render_msg(nlh);
	return *out ? 0 : -ENOMEM;
}

struct collect {
	const char *key;
	json_t *items;
};

static int collect_one(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct collect *col = arg;
	json_t *msg = vsctl_render_msg(nlh), *obj;

	if (!msg)
		return -ENOMEM;
	obj = json_object_get(msg, col->key);
	if (obj && json_array_append(col->items, obj)) {
		json_decref(msg);
		return -ENOMEM;
	}
	json_decref(msg);
	return 0;
}

int vsctl_dump(const char *socket, struct nl_msg *m, const char *key, json_t *items)
{
	struct collect col = { key, items };

	return vsctl_request(socket, m, collect_one, &col);
}
