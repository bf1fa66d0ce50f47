// SPDX-License-Identifier: Apache-2.0
/*
 * JSON into the readers' trees, struct vsnl_ynode and struct vs_arg: see
 * kjson.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/conf.h"
#include "vskube/kjson.h"

/* JSON's values have no lines; the readers' messages say line 1. */
#define KJ_LINE	1

static int to_arg(const json_t *j, const char *source, struct vs_arg *out);

static int to_map(const json_t *j, const char *source, struct vs_arg *out)
{
	size_t n = json_object_size(j);
	const char *key;
	json_t *v;

	out->type = VS_ARG_MAP;
	out->map = calloc(1, sizeof(*out->map));
	if (!out->map)
		return -ENOMEM;
	out->map->source = source;
	out->map->kv = calloc(n ? n : 1, sizeof(*out->map->kv));
	if (!out->map->kv)
		return -ENOMEM;
	/* jansson keeps the object's keys in the order they came: the file order. */
	json_object_foreach((json_t *)j, key, v) {
		struct vs_arg_kv *kv = &out->map->kv[out->map->nr];

		kv->key = strdup(key);
		kv->line = KJ_LINE;
		if (!kv->key)
			return -ENOMEM;
		out->map->nr++;
		if (to_arg(v, source, &kv->val))
			return -ENOMEM;
	}
	return 0;
}

static int to_seq(const json_t *j, const char *source, struct vs_arg *out)
{
	size_t n = json_array_size(j), i;
	json_t *v;

	out->type = VS_ARG_SEQ;
	out->seq.items = calloc(n ? n : 1, sizeof(*out->seq.items));
	if (!out->seq.items)
		return -ENOMEM;
	json_array_foreach(j, i, v) {
		out->seq.nr++;
		if (to_arg(v, source, &out->seq.items[i]))
			return -ENOMEM;
	}
	return 0;
}

static int to_arg(const json_t *j, const char *source, struct vs_arg *out)
{
	memset(out, 0, sizeof(*out));
	out->line = KJ_LINE;
	switch (json_typeof(j)) {
	case JSON_OBJECT:
		return to_map(j, source, out);
	case JSON_ARRAY:
		return to_seq(j, source, out);
	case JSON_STRING:
		out->type = VS_ARG_STRING;
		out->s = strndup(json_string_value(j), json_string_length(j));
		return out->s ? 0 : -ENOMEM;
	case JSON_INTEGER:
		out->type = VS_ARG_INT;
		out->i = (s64)json_integer_value(j);
		return 0;
	case JSON_REAL:
		out->type = VS_ARG_FLOAT;
		out->f = json_real_value(j);
		return 0;
	case JSON_TRUE:
	case JSON_FALSE:
		out->type = VS_ARG_BOOL;
		out->b = json_is_true(j);
		return 0;
	case JSON_NULL:
	default:
		out->type = VS_ARG_NULL;
		return 0;
	}
}

int kj_to_arg(const json_t *j, const char *source, struct vs_arg *out)
{
	int ret = to_arg(j, source, out);

	if (ret)
		vs_arg_free(out);
	return ret;
}

/* ---- libvsnl's YAML tree ---- */

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
