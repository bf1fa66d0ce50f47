// SPDX-License-Identifier: Apache-2.0
/*
 * JSON into the manifest reader's tree, libvsnl's struct vsnl_ynode: see
 * kjson.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vskube/kjson.h"

/* JSON's values have no lines; the readers' messages say line 1. */
#define KJ_LINE	1

void *(*kj_calloc)(size_t nr, size_t size) = calloc;

static char *ydup(const char *s, size_t len)
{
	char *d = kj_calloc(1, len + 1);

	if (d)
		memcpy(d, s, len);
	return d;
}

/*
 * A real's text: the shortest that reads back to the same double, with
 * ".0" when it would read as an integer, so that YAML types it alike.
 */
static char *real_text(double f)
{
	char buf[40];

	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, f);
		if (strtod(buf, NULL) == f)
			break;
	}
	if (buf[strspn(buf, "-0123456789")] == '\0')
		strcat(buf, ".0");
	return ydup(buf, strlen(buf));
}

static int to_ynode(const json_t *j, u32 depth, struct vsnl_ynode *out);

static int to_ymap(const json_t *j, u32 depth, struct vsnl_ynode *out)
{
	size_t n = json_object_size(j);
	const char *key;
	json_t *v;

	out->type = VSNL_Y_MAP;
	if (!n)
		return 0;
	out->map.pairs = kj_calloc(n, sizeof(*out->map.pairs));
	if (!out->map.pairs)
		return -ENOMEM;
	/* jansson keeps the object's keys in the order they came: the text's order. */
	json_object_foreach((json_t *)j, key, v) {
		struct vsnl_ypair *p = &out->map.pairs[out->map.nr];
		int ret;

		p->key = ydup(key, strlen(key));
		if (!p->key)
			return -ENOMEM;
		p->line = KJ_LINE;
		p->col = 1;
		out->map.nr++;
		ret = to_ynode(v, depth + 1, &p->val);
		if (ret)
			return ret;
	}
	return 0;
}

static int to_yseq(const json_t *j, u32 depth, struct vsnl_ynode *out)
{
	size_t n = json_array_size(j), i;
	json_t *v;

	out->type = VSNL_Y_SEQ;
	if (!n)
		return 0;
	out->seq.items = kj_calloc(n, sizeof(*out->seq.items));
	if (!out->seq.items)
		return -ENOMEM;
	json_array_foreach(j, i, v) {
		int ret;

		out->seq.nr++;
		ret = to_ynode(v, depth + 1, &out->seq.items[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/* @out is zeroed: a null, which vsnl_ynode_free() takes as it is at every step. */
static int to_ynode(const json_t *j, u32 depth, struct vsnl_ynode *out)
{
	const char *text;

	out->line = KJ_LINE;
	out->col = 1;
	switch (json_typeof(j)) {
	case JSON_OBJECT:
	case JSON_ARRAY:
		/* the root is at depth 1, as YAML's reader counts open collections */
		if (depth > VSNL_YAML_DEPTH_MAX)
			return -EINVAL;
		return json_is_object(j) ? to_ymap(j, depth, out) : to_yseq(j, depth, out);
	case JSON_STRING:
		if (memchr(json_string_value(j), '\0', json_string_length(j)))
			return -EINVAL;
		out->text = ydup(json_string_value(j), json_string_length(j));
		out->type = VSNL_Y_STRING;
		break;
	case JSON_INTEGER:
		out->i = (s64)json_integer_value(j);
		out->text = kj_calloc(1, 24);
		if (out->text)
			snprintf(out->text, 24, "%lld", (long long)out->i);
		out->type = VSNL_Y_INT;
		break;
	case JSON_REAL:
		out->f = json_real_value(j);
		out->text = real_text(out->f);
		out->type = VSNL_Y_FLOAT;
		break;
	case JSON_TRUE:
	case JSON_FALSE:
		out->b = json_is_true(j);
		text = out->b ? "true" : "false";
		out->text = ydup(text, strlen(text));
		out->type = VSNL_Y_BOOL;
		break;
	case JSON_NULL:
	default:
		out->text = ydup("null", 4);
		break;
	}
	return out->text ? 0 : -ENOMEM;
}

int kj_to_ynode(const json_t *j, const char *source, struct vsnl_ynode *out)
{
	int ret;

	(void)source;
	memset(out, 0, sizeof(*out));
	ret = to_ynode(j, 1, out);
	if (ret)
		vsnl_ynode_free(out);
	return ret;
}
