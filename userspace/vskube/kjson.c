// SPDX-License-Identifier: Apache-2.0
/*
 * JSON into struct vs_arg: see kjson.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
