// SPDX-License-Identifier: Apache-2.0
/*
 * Label and field selectors, with the apiserver's grammar: requirements
 * separated by commas, all of which must hold. Labels take "k", "!k",
 * "k=v", "k==v", "k!=v", "k in (a,b)" and "k notin (a,b)"; fields take
 * "f=v", "f==v" and "f!=v", and only the fields the resource indexes
 * (kapi_resource_has_field()), as the apiserver refuses the others.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kapi.h"

enum sel_op {
	SEL_EQ,
	SEL_NE,
	SEL_IN,
	SEL_NOTIN,
	SEL_EXISTS,
	SEL_NOT_EXISTS,
};

struct sel_req {
	char *key;
	enum sel_op op;
	char **values;
	size_t nr_values;
};

struct kapi_selector {
	bool fields;
	struct sel_req *reqs;
	size_t n;
};

void kapi_selector_free(struct kapi_selector *sel)
{
	if (!sel)
		return;
	for (size_t i = 0; i < sel->n; i++) {
		free(sel->reqs[i].key);
		for (size_t j = 0; j < sel->reqs[i].nr_values; j++)
			free(sel->reqs[i].values[j]);
		free(sel->reqs[i].values);
	}
	free(sel->reqs);
	free(sel);
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* Label keys and values: [prefix/]name of alphanumerics, '-', '_', '.'. */
static bool valid_label_part(const char *s, bool key)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("-_.", *s) && !(key && *s == '/'))
			return false;
	return true;
}

static int add_value(struct sel_req *r, const char *v)
{
	char **vals = realloc(r->values, (r->nr_values + 1) * sizeof(*vals));

	if (!vals)
		return -1;
	r->values = vals;
	vals[r->nr_values] = strdup(v);
	if (!vals[r->nr_values])
		return -1;
	r->nr_values++;
	return 0;
}

/* One requirement of text (trimmed, non-empty) into r; 0 or -1 with err set. */
static int parse_req(struct kapi_selector *sel, char *text, const struct kapi_resource *res,
		     struct sel_req *r, char *err, size_t errlen)
{
	char *op, *key, *val;
	size_t klen;

	if (!sel->fields && text[0] == '!') {
		key = trim(text + 1);
		r->op = SEL_NOT_EXISTS;
		val = NULL;
		goto key_only;
	}
	op = text + strcspn(text, "=!");
	klen = (size_t)(op - text);
	if (!*op) {
		/* No operator: "k", "k in (...)", "k notin (...)". */
		char *sp = text + strcspn(text, " \t(");
		char *rest;

		if (sel->fields)
			goto bad;
		if (!*sp) {
			key = text;
			r->op = SEL_EXISTS;
			val = NULL;
			goto key_only;
		}
		*sp++ = '\0';
		key = text;
		rest = trim(sp);
		if (!strncmp(rest, "in", 2) && (rest[2] == '(' || isspace((unsigned char)rest[2]))) {
			r->op = SEL_IN;
			rest = trim(rest + 2);
		} else if (!strncmp(rest, "notin", 5) &&
			   (rest[5] == '(' || isspace((unsigned char)rest[5]))) {
			r->op = SEL_NOTIN;
			rest = trim(rest + 5);
		} else {
			goto bad;
		}
		if (rest[0] != '(' || rest[strlen(rest) - 1] != ')')
			goto bad;
		rest[strlen(rest) - 1] = '\0';
		for (char *save, *v = strtok_r(rest + 1, ",", &save); v;
		     v = strtok_r(NULL, ",", &save)) {
			v = trim(v);
			if (!valid_label_part(v, false))
				goto bad;
			if (add_value(r, v))
				goto bad;
		}
		if (!r->nr_values)
			goto bad;
		val = NULL;
		goto key_only;
	}
	if (op[0] == '!') {
		if (op[1] != '=')
			goto bad;
		r->op = SEL_NE;
		val = op + 2;
	} else {
		r->op = SEL_EQ;
		val = op + (op[1] == '=' ? 2 : 1);
	}
	text[klen] = '\0';
	key = text;
	val = trim(val);
	if (!sel->fields && !valid_label_part(val, false))
		goto bad;
	if (add_value(r, val))
		goto bad;

key_only:
	key = trim(key);
	if (!*key || (!sel->fields && !valid_label_part(key, true)))
		goto bad;
	if (sel->fields && !kapi_resource_has_field(res, key)) {
		snprintf(err, errlen, "field label not supported: %s", key);
		return -1;
	}
	r->key = strdup(key);
	return r->key ? 0 : -1;
bad:
	snprintf(err, errlen, "unable to parse requirement: invalid %s selector",
		 sel->fields ? "field" : "label");
	return -1;
}

struct kapi_selector *kapi_selector_parse(const char *text, bool fields,
					  const struct kapi_resource *res,
					  char *err, size_t errlen)
{
	struct kapi_selector *sel = calloc(1, sizeof(*sel));
	char *copy = strdup(text ? text : "");
	char *p = copy;

	err[0] = '\0';
	if (!sel || !copy)
		goto fail;
	sel->fields = fields;
	while (*p) {
		/* A requirement ends at a comma outside parentheses. */
		char *end = p;
		int depth = 0;
		struct sel_req *reqs;

		for (; *end && (*end != ',' || depth); end++)
			depth += *end == '(' ? 1 : *end == ')' ? -1 : 0;
		if (*end)
			*end++ = '\0';
		p = trim(p);
		if (*p) {
			reqs = realloc(sel->reqs, (sel->n + 1) * sizeof(*reqs));
			if (!reqs)
				goto fail;
			sel->reqs = reqs;
			memset(&reqs[sel->n], 0, sizeof(*reqs));
			sel->n++;
			if (parse_req(sel, p, res, &reqs[sel->n - 1], err, errlen))
				goto fail;
		}
		p = end;
	}
	free(copy);
	return sel;
fail:
	if (!err[0])
		snprintf(err, errlen, "out of memory");
	free(copy);
	kapi_selector_free(sel);
	return NULL;
}

static bool in_values(const struct sel_req *r, const char *v)
{
	for (size_t i = 0; i < r->nr_values; i++)
		if (!strcmp(r->values[i], v))
			return true;
	return false;
}

bool kapi_selector_empty(const struct kapi_selector *sel)
{
	return !sel || !sel->n;
}

bool kapi_selector_match(const struct kapi_selector *sel, json_t *obj)
{
	json_t *labels = json_object_get(json_object_get(obj, "metadata"), "labels");

	for (size_t i = 0; sel && i < sel->n; i++) {
		const struct sel_req *r = &sel->reqs[i];
		const char *v;

		if (sel->fields) {
			v = kapi_field(obj, r->key);
			/* A node that is not cordoned has no spec.unschedulable: false. */
			if (!v[0] && !strcmp(r->key, "spec.unschedulable"))
				v = "false";
		} else {
			json_t *l = json_object_get(labels, r->key);

			v = json_is_string(l) ? json_string_value(l) : NULL;
		}
		switch (r->op) {
		case SEL_EQ:
			if (!v || strcmp(v, r->values[0]))
				return false;
			break;
		case SEL_NE:
			if (v && !strcmp(v, r->values[0]))
				return false;
			break;
		case SEL_IN:
			if (!v || !in_values(r, v))
				return false;
			break;
		case SEL_NOTIN:
			if (v && in_values(r, v))
				return false;
			break;
		case SEL_EXISTS:
			if (!v)
				return false;
			break;
		case SEL_NOT_EXISTS:
			if (v)
				return false;
			break;
		}
	}
	return true;
}
