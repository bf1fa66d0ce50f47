// SPDX-License-Identifier: Apache-2.0
/*
 * YAML into a tree of typed nodes: see ytree.h. This file owns the walk of
 * libyaml's events into the tree and the typing of plain scalars.
 *
 * Events, not libyaml's document API: the events say whether a scalar was
 * quoted or tagged and show an alias as such, and a collection nested too
 * deep is refused as it opens, before libyaml's scanner (whose time grows
 * with the square of a flow collection's depth) reads the rest. Each node
 * is typed as it arrives and built in place in its parent: only the
 * innermost open collection grows, so the pointers to the open ones stay
 * good. An integer too large for s64 is remembered and refused once the
 * whole text has read well, so that a broken text is told as broken first,
 * as the core tells it.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "lib/file.h"
#include "lib/ytree.h"

/* ---- messages ---- */

/* Text of the file in a message: one printable line of a readable length. */
#define SHOWN_MAX	64

struct shown {
	char s[SHOWN_MAX + 4];
};

static const char *show(struct shown *sh, const char *s)
{
	size_t n = 0;

	for (; s[n] && n < SHOWN_MAX; n++)
		sh->s[n] = (unsigned char)s[n] < 0x20 || s[n] == 0x7f ? '?' : s[n];
	if (s[n]) {
		memcpy(sh->s + n, "...", 3);
		n += 3;
	}
	sh->s[n] = '\0';
	return sh->s;
}

struct loader {
	const char *source;
	struct vsnl_err *err;
	struct vsnl_ydocs *out;
	bool one;			/* a second document is refused */
	bool has_root;			/* the current document's root has come */
	int depth;
	struct {
		struct vsnl_ynode *node;	/* an open map or sequence */
		u32 cap;
		bool want_val;		/* a map whose last key waits for its value */
	} open[VSNL_YAML_DEPTH_MAX];
	/* the first plain value too large for s64, refused at the end */
	u32 big_line;
	char *big_text;
};

__printf(3, 4)
static int refuse(struct loader *ld, u32 line, const char *fmt, ...)
{
	char what[VSNL_ERR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return vsnl_err_set(ld->err, EINVAL, "%s:%u: %s", ld->source, line, what);
}

static int no_memory(struct loader *ld)
{
	return vsnl_err_set(ld->err, ENOMEM, "%s: out of memory", ld->source);
}

static u32 line_of(const yaml_mark_t *m)
{
	return m->line < UINT32_MAX ? (u32)m->line + 1 : UINT32_MAX;
}

static u32 col_of(const yaml_mark_t *m)
{
	return m->column < UINT32_MAX ? (u32)m->column + 1 : UINT32_MAX;
}

/* ---- plain scalars, as yaml.v2's resolve() types them into interface{} ---- */

enum plain { P_NULL, P_BOOL, P_INT, P_UINT, P_FLOAT, P_STRING };

struct typed {
	enum plain kind;
	bool b;
	s64 i;
	double f;
};

/* The spellings yaml.v2 knows before it tries a number. */
static const struct {
	char s[7];
	u8 kind;			/* enum plain */
	s8 v;				/* a bool's value, an infinity's sign, 0 for NaN */
} spelled[] = {
	{ "", P_NULL, 0 }, { "~", P_NULL, 0 }, { "null", P_NULL, 0 }, { "Null", P_NULL, 0 },
	{ "NULL", P_NULL, 0 },
	{ "y", P_BOOL, 1 }, { "Y", P_BOOL, 1 }, { "yes", P_BOOL, 1 }, { "Yes", P_BOOL, 1 },
	{ "YES", P_BOOL, 1 }, { "true", P_BOOL, 1 }, { "True", P_BOOL, 1 },
	{ "TRUE", P_BOOL, 1 }, { "on", P_BOOL, 1 }, { "On", P_BOOL, 1 }, { "ON", P_BOOL, 1 },
	{ "n", P_BOOL, 0 }, { "N", P_BOOL, 0 }, { "no", P_BOOL, 0 }, { "No", P_BOOL, 0 },
	{ "NO", P_BOOL, 0 }, { "false", P_BOOL, 0 }, { "False", P_BOOL, 0 },
	{ "FALSE", P_BOOL, 0 }, { "off", P_BOOL, 0 }, { "Off", P_BOOL, 0 },
	{ "OFF", P_BOOL, 0 },
	{ ".nan", P_FLOAT, 0 }, { ".NaN", P_FLOAT, 0 }, { ".NAN", P_FLOAT, 0 },
	{ ".inf", P_FLOAT, 1 }, { ".Inf", P_FLOAT, 1 }, { ".INF", P_FLOAT, 1 },
	{ "+.inf", P_FLOAT, 1 }, { "+.Inf", P_FLOAT, 1 }, { "+.INF", P_FLOAT, 1 },
	{ "-.inf", P_FLOAT, -1 }, { "-.Inf", P_FLOAT, -1 }, { "-.INF", P_FLOAT, -1 },
};

static bool digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool null_text(const char *s)
{
	return !*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") ||
	       !strcmp(s, "NULL");
}

/* strconv.ParseUint(@s, @base, 64): base 0 takes Go's prefixes 0b, 0o, 0x and 0. */
static bool parse_u64(const char *s, unsigned int base, u64 *out)
{
	u64 v = 0;

	if (!base) {
		base = 10;
		if (s[0] == '0' && s[1]) {
			char p = (char)(s[1] | 0x20);

			if (s[2] && (p == 'b' || p == 'o' || p == 'x')) {
				base = p == 'b' ? 2 : p == 'o' ? 8 : 16;
				s += 2;
			} else {
				base = 8;
				s++;
			}
		}
	}
	if (!*s)
		return false;
	for (; *s; s++) {
		char l = (char)(*s | 0x20);
		unsigned int d;

		if (digit(*s))
			d = (unsigned int)(*s - '0');
		else if (l >= 'a' && l <= 'z')
			d = (unsigned int)(l - 'a') + 10;
		else
			return false;
		/* a bad digit and a value out of range are both "not this kind" */
		if (d >= base || v > (UINT64_MAX - d) / base)
			return false;
		v = v * base + d;
	}
	*out = v;
	return true;
}

/* strconv.ParseInt(@s, @base, 64). */
static bool parse_s64(const char *s, unsigned int base, s64 *out)
{
	bool neg = *s == '-';
	u64 u;

	if (*s == '-' || *s == '+')
		s++;
	if (!parse_u64(s, base, &u) || u > (u64)INT64_MAX + neg)
		return false;
	*out = neg ? (s64)(0 - u) : (s64)u;
	return true;
}

/* A run of digits at *@s, at least one. */
static bool digits(const char **s)
{
	const char *p = *s;

	while (digit(**s))
		(*s)++;
	return *s > p;
}

/* yaml.v2's yamlStyleFloat: ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$ */
static bool float_shaped(const char *s)
{
	s += *s == '+' || *s == '-';
	if (*s == '.') {
		s++;
		if (!digits(&s))
			return false;
	} else {
		if (!digits(&s))
			return false;
		if (*s == '.') {
			s++;
			digits(&s);
		}
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		s += *s == '+' || *s == '-';
		if (!digits(&s))
			return false;
	}
	return !*s;
}

/* strconv.ParseFloat of float-shaped text: an overflow is refused, an underflow kept. */
static bool parse_double(const char *s, double *out)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(s, &end);
	if (*end || (errno == ERANGE && isinf(d)))
		return false;
	*out = d;
	return true;
}

/*
 * yaml.v2 tries a number on the text without its underscores; a text that
 * starts with '.' goes to strconv.ParseFloat as it is, which takes an
 * underscore only between two digits.
 */
static bool underscores_ok(const char *s)
{
	for (const char *p = strchr(s, '_'); p; p = strchr(p + 1, '_'))
		if (p == s || !digit(p[-1]) || !digit(p[1]))
			return false;
	return true;
}

/* @s without its underscores, in @buf when it fits; NULL when out of memory. */
static char *without_underscores(const char *s, char *buf, size_t size)
{
	size_t n = strlen(s);
	char *out = n < size ? buf : malloc(n + 1), *o = out;

	if (!out)
		return NULL;
	for (; *s; s++)
		if (*s != '_')
			*o++ = *s;
	*o = '\0';
	return out;
}

/*
 * The type of plain scalar @s: the first byte says what it may be, the
 * spellings come first, then an int (Go's prefixes), an unsigned int, a
 * float of yaml.v2's shape, and last yaml.v2's "0b" reading, which lets a
 * sign follow the prefix ("0b-101" is -5). A timestamp stays a string in
 * interface{}. 0, or -ENOMEM.
 */
static int type_plain(const char *s, struct typed *t)
{
	char buf[128], *num;
	u64 u;

	memset(t, 0, sizeof(*t));
	t->kind = P_STRING;
	if (*s && !strchr("yYnNtTfFoO~+-.0123456789", *s))
		return 0;
	for (size_t k = 0; k < ARRAY_SIZE(spelled); k++) {
		if (strcmp(s, spelled[k].s))
			continue;
		t->kind = spelled[k].kind;
		t->b = spelled[k].v > 0;
		if (t->kind == P_FLOAT)
			t->f = spelled[k].v ? spelled[k].v * (double)INFINITY : (double)NAN;
		return 0;
	}
	if (*s == '.' ? !underscores_ok(s) : !strchr("+-0123456789", *s))
		return 0;
	num = without_underscores(s, buf, sizeof(buf));
	if (!num)
		return -ENOMEM;
	if (*s != '.' && parse_s64(num, 0, &t->i))
		t->kind = P_INT;
	else if (*s != '.' && parse_u64(num, 0, &u))
		t->kind = P_UINT;
	else if (float_shaped(num) && parse_double(num, &t->f))
		t->kind = P_FLOAT;
	else if (!strncmp(num, "0b", 2) && parse_s64(num + 2, 2, &t->i))
		t->kind = P_INT;
	else if (!strncmp(num, "0b", 2) && parse_u64(num + 2, 2, &u))
		t->kind = P_UINT;
	if (num != buf)
		free(num);
	return 0;
}

/* ---- the tree ---- */

static void node_free(struct vsnl_ynode *n)
{
	/* recursion is bounded: nothing deeper than VSNL_YAML_DEPTH_MAX is built */
	if (n->type == VSNL_Y_MAP) {
		for (u32 k = 0; k < n->map.nr; k++) {
			free(n->map.pairs[k].key);
			node_free(&n->map.pairs[k].val);
		}
		free(n->map.pairs);
	} else if (n->type == VSNL_Y_SEQ) {
		for (u32 k = 0; k < n->seq.nr; k++)
			node_free(&n->seq.items[k]);
		free(n->seq.items);
	}
	free(n->text);
	memset(n, 0, sizeof(*n));
}

void vsnl_ynode_free(struct vsnl_ynode *n)
{
	if (n)
		node_free(n);
}

void vsnl_ydocs_free(struct vsnl_ydocs *docs)
{
	if (!docs)
		return;
	for (u32 k = 0; k < docs->nr; k++)
		node_free(&docs->docs[k].root);
	free(docs->docs);
	docs->docs = NULL;
	docs->nr = 0;
}

const struct vsnl_ynode *vsnl_ymap_get(const struct vsnl_ynode *map, const char *key)
{
	if (!map || map->type != VSNL_Y_MAP)
		return NULL;
	for (u32 k = 0; k < map->map.nr; k++)
		if (!strcmp(map->map.pairs[k].key, key))
			return &map->map.pairs[k].val;
	return NULL;
}

const char *vsnl_ytype_name(enum vsnl_ytype type)
{
	static const char *const names[] = {
		[VSNL_Y_NULL] = "null", [VSNL_Y_BOOL] = "a bool", [VSNL_Y_INT] = "an int",
		[VSNL_Y_FLOAT] = "a float", [VSNL_Y_STRING] = "a string", [VSNL_Y_MAP] = "a map",
		[VSNL_Y_SEQ] = "a list",
	};

	return (unsigned int)type < ARRAY_SIZE(names) ? names[type] : "?";
}

/* Room for one more element of @n elements of @size at *@arr, holding @cap. */
static int grow(void **arr, u32 n, u32 *cap, size_t size)
{
	void *bigger;
	u32 want;

	if (n < *cap)
		return 0;
	want = *cap ? 2 * *cap : 4;
	bigger = realloc(*arr, (size_t)want * size);
	if (!bigger)
		return -ENOMEM;
	*arr = bigger;
	*cap = want;
	return 0;
}

/*
 * Where the next node goes, into *@slot: the document's root, a sequence's
 * next item, or the value of a map's last key.
 */
static int next_slot(struct loader *ld, u32 line, struct vsnl_ynode **slot)
{
	struct vsnl_ynode *parent;

	if (!ld->depth) {
		/* libyaml gives one node per document: refused, not assumed */
		if (ld->has_root)
			return refuse(ld, line, "a second YAML document");
		ld->has_root = true;
		*slot = &ld->out->docs[ld->out->nr - 1].root;
		return 0;
	}
	parent = ld->open[ld->depth - 1].node;
	if (parent->type == VSNL_Y_MAP) {
		ld->open[ld->depth - 1].want_val = false;
		*slot = &parent->map.pairs[parent->map.nr - 1].val;
		return 0;
	}
	if (grow((void **)&parent->seq.items, parent->seq.nr, &ld->open[ld->depth - 1].cap,
		 sizeof(**slot)))
		return no_memory(ld);
	*slot = &parent->seq.items[parent->seq.nr++];
	memset(*slot, 0, sizeof(**slot));
	return 0;
}

/* Whether the next node is a key of the innermost open map. */
static bool key_next(const struct loader *ld)
{
	return ld->depth && ld->open[ld->depth - 1].node->type == VSNL_Y_MAP &&
	       !ld->open[ld->depth - 1].want_val;
}

/* @text, a scalar at @line:@col, as the next key of the innermost open map. */
static int add_key(struct loader *ld, char *text, bool plain, u32 line, u32 col)
{
	struct vsnl_ynode *map = ld->open[ld->depth - 1].node;
	struct vsnl_ypair *p;

	if (plain && !strcmp(text, "<<"))
		return refuse(ld, line, "merge keys (<<) are not supported");
	if (plain && null_text(text))
		text[0] = '\0';		/* yaml.v2 reads a null key as "" */
	if (grow((void **)&map->map.pairs, map->map.nr, &ld->open[ld->depth - 1].cap,
		 sizeof(*p)))
		return no_memory(ld);
	p = &map->map.pairs[map->map.nr++];
	memset(p, 0, sizeof(*p));
	p->key = text;
	p->line = line;
	p->col = col;
	ld->open[ld->depth - 1].want_val = true;
	return 0;
}

/* How a scalar is to be typed: by resolution, or by its tag. */
enum how { H_PLAIN, H_STR, H_INT, H_FLOAT, H_BOOL };

#define TAG_PREFIX	"tag:yaml.org,2002:"

/* What @tag makes of a node of @want kind ("map", "seq", NULL for a scalar). */
static int read_tag(struct loader *ld, u32 line, const char *tag, const char *want,
		    enum how *how)
{
	static const char *const scalar_tags[] = {
		[H_STR] = "str", [H_INT] = "int", [H_FLOAT] = "float", [H_BOOL] = "bool",
	};
	struct shown sh;
	const char *t;

	*how = H_STR;
	if (!tag || !strcmp(tag, "!"))
		return 0;
	if (strncmp(tag, TAG_PREFIX, strlen(TAG_PREFIX)))
		return refuse(ld, line, "tag %s is not supported", show(&sh, tag));
	t = tag + strlen(TAG_PREFIX);
	if (want && !strcmp(t, want))
		return 0;
	for (enum how h = H_STR; !want && h <= H_BOOL; h++) {
		if (!strcmp(t, scalar_tags[h])) {
			*how = h;
			return 0;
		}
	}
	return refuse(ld, line, "tag !!%s is not supported here", show(&sh, t));
}

/*
 * The value of the scalar @text typed @how into @t: -ENOMEM, -ERANGE for an
 * integer above INT64_MAX, or 0.
 */
static int type_scalar(const char *text, enum how how, struct typed *t)
{
	int ret;

	if (how == H_STR) {
		memset(t, 0, sizeof(*t));
		t->kind = P_STRING;
		return 0;
	}
	ret = type_plain(text, t);
	if (ret)
		return ret;
	if (t->kind == P_UINT)
		return -ERANGE;
	if (how == H_FLOAT && t->kind == P_INT) {
		t->kind = P_FLOAT;
		t->f = (double)t->i;
	}
	return 0;
}

static int too_big(struct loader *ld, u32 line, const char *text)
{
	struct shown sh;

	return refuse(ld, line, "integer %s does not fit in 64 signed bits", show(&sh, text));
}

static int on_scalar(struct loader *ld, const yaml_event_t *ev, u32 line, u32 col)
{
	static const char *const tag_names[] = {
		[H_INT] = "!!int", [H_FLOAT] = "!!float", [H_BOOL] = "!!bool",
	};
	const char *tag = (const char *)ev->data.scalar.tag;
	size_t len = ev->data.scalar.length;
	struct vsnl_ynode *n;
	struct shown sh;
	struct typed t;
	enum how how;
	char *text;
	int ret;

	ret = read_tag(ld, line, tag, NULL, &how);
	if (ret)
		return ret;
	if (!tag && ev->data.scalar.plain_implicit)
		how = H_PLAIN;
	if (memchr(ev->data.scalar.value, '\0', len))
		return refuse(ld, line, "a string holds a NUL byte");
	if (how >= H_INT) {
		/* a tagged scalar must read as its tag says, key or value */
		ret = type_scalar((const char *)ev->data.scalar.value, how, &t);
		if (ret == -ENOMEM)
			return no_memory(ld);
		if (ret)
			return too_big(ld, line, (const char *)ev->data.scalar.value);
		if ((how == H_INT && t.kind != P_INT) || (how == H_FLOAT && t.kind != P_FLOAT) ||
		    (how == H_BOOL && t.kind != P_BOOL))
			return refuse(ld, line, "\"%s\" is not a valid %s",
				      show(&sh, (const char *)ev->data.scalar.value),
				      tag_names[how]);
	}
	text = strndup((const char *)ev->data.scalar.value, len);
	if (!text)
		return no_memory(ld);
	if (key_next(ld)) {
		ret = add_key(ld, text, how == H_PLAIN, line, col);
		if (ret)
			free(text);
		return ret;
	}
	ret = type_scalar(text, how, &t);
	if (ret == -ERANGE) {
		/* refused once the whole text has read well: the first one is told */
		if (!ld->big_text) {
			ld->big_line = line;
			ld->big_text = text;
		} else {
			free(text);
		}
		text = NULL;
	} else if (ret) {
		free(text);
		return no_memory(ld);
	}
	ret = next_slot(ld, line, &n);
	if (ret) {
		free(text);
		return ret;
	}
	n->line = line;
	n->col = col;
	n->text = text;
	if (!text)
		return 0;	/* an integer too big: a null until it is refused */
	switch (t.kind) {
	case P_NULL:
		n->type = VSNL_Y_NULL;
		break;
	case P_BOOL:
		n->type = VSNL_Y_BOOL;
		n->b = t.b;
		break;
	case P_INT:
		n->type = VSNL_Y_INT;
		n->i = t.i;
		break;
	case P_FLOAT:
		n->type = VSNL_Y_FLOAT;
		n->f = t.f;
		break;
	default:
		n->type = VSNL_Y_STRING;
		break;
	}
	return 0;
}

static int on_open(struct loader *ld, const char *tag, enum vsnl_ytype type, u32 line, u32 col)
{
	struct vsnl_ynode *n;
	enum how how;
	int ret;

	if (ld->depth == VSNL_YAML_DEPTH_MAX)
		return refuse(ld, line, "nested more than %d levels deep", VSNL_YAML_DEPTH_MAX);
	ret = read_tag(ld, line, tag, type == VSNL_Y_MAP ? "map" : "seq", &how);
	if (ret)
		return ret;
	if (key_next(ld))
		return refuse(ld, line, "a mapping key must be a string");
	ret = next_slot(ld, line, &n);
	if (ret)
		return ret;
	n->type = type;
	n->line = line;
	n->col = col;
	ld->open[ld->depth].node = n;
	ld->open[ld->depth].cap = 0;
	ld->open[ld->depth].want_val = false;
	ld->depth++;
	return 0;
}

static int by_key(const void *a, const void *b, void *arg)
{
	const struct vsnl_ypair *pairs = arg;
	u32 x = *(const u32 *)a, y = *(const u32 *)b;
	int c = strcmp(pairs[x].key, pairs[y].key);

	return c ? c : (x > y) - (x < y);
}

/*
 * A key said twice is refused (yaml.v2 would keep the later value): sorted,
 * so that a map of any size costs n log n; the repetition told is the one
 * that comes first in the file.
 */
static int unique_keys(struct loader *ld, const struct vsnl_ynode *map)
{
	const struct vsnl_ypair *p = map->map.pairs;
	u32 nr = map->map.nr, again = UINT32_MAX, first = 0;
	struct shown sh;
	u32 *order;

	if (nr < 2)
		return 0;
	order = malloc(nr * sizeof(*order));
	if (!order)
		return no_memory(ld);
	for (u32 k = 0; k < nr; k++)
		order[k] = k;
	qsort_r(order, nr, sizeof(*order), by_key, (void *)p);
	/* in a run of equal keys, the second in file order is its first repetition */
	for (u32 k = 1; k < nr; k++) {
		if (!strcmp(p[order[k]].key, p[order[k - 1]].key) &&
		    (k == 1 || strcmp(p[order[k - 1]].key, p[order[k - 2]].key)) &&
		    order[k] < again) {
			again = order[k];
			first = order[k - 1];
		}
	}
	free(order);
	if (again == UINT32_MAX)
		return 0;
	return refuse(ld, p[again].line, "duplicate key \"%s\" (first on line %u)",
		      show(&sh, p[again].key), p[first].line);
}

static int on_event(struct loader *ld, const yaml_event_t *ev)
{
	u32 line = line_of(&ev->start_mark), col = col_of(&ev->start_mark);
	struct vsnl_ydoc *docs;
	struct shown sh;

	switch (ev->type) {
	case YAML_DOCUMENT_START_EVENT:
		if (ld->one && ld->out->nr)
			return refuse(ld, line, "a second YAML document");
		docs = realloc(ld->out->docs, (ld->out->nr + 1) * sizeof(*docs));
		if (!docs)
			return no_memory(ld);
		ld->out->docs = docs;
		memset(&docs[ld->out->nr], 0, sizeof(*docs));
		docs[ld->out->nr].line = line;
		docs[ld->out->nr].root.line = line;
		docs[ld->out->nr].root.col = col;
		ld->out->nr++;
		ld->has_root = false;
		return 0;
	case YAML_ALIAS_EVENT:
		return refuse(ld, line, "aliases (*%s) are not supported",
			      show(&sh, (const char *)ev->data.alias.anchor));
	case YAML_SCALAR_EVENT:
		return on_scalar(ld, ev, line, col);
	case YAML_SEQUENCE_START_EVENT:
		return on_open(ld, (const char *)ev->data.sequence_start.tag, VSNL_Y_SEQ, line,
			       col);
	case YAML_MAPPING_START_EVENT:
		return on_open(ld, (const char *)ev->data.mapping_start.tag, VSNL_Y_MAP, line,
			       col);
	case YAML_SEQUENCE_END_EVENT:
		ld->depth--;
		return 0;
	case YAML_MAPPING_END_EVENT:
		return unique_keys(ld, ld->open[--ld->depth].node);
	default:
		return 0;	/* the stream's start and end, a document's end */
	}
}

/* libyaml's reader tells a byte offset, not a line: count up to it. */
static u32 line_at(const char *text, size_t len, size_t offset)
{
	u32 line = 1;

	for (size_t k = 0; k < len && k < offset; k++)
		line += text[k] == '\n';
	return line;
}

static int broken(struct loader *ld, const yaml_parser_t *p, const char *text, size_t len)
{
	const char *problem = p->problem ? p->problem : "malformed YAML";

	if (p->error == YAML_MEMORY_ERROR)
		return no_memory(ld);
	if (p->error == YAML_READER_ERROR)
		return refuse(ld, line_at(text, len, p->problem_offset), "%s (0x%02x at byte %zu)",
			      problem, (unsigned int)p->problem_value, p->problem_offset);
	if (p->context)
		return vsnl_err_set(ld->err, EINVAL, "%s:%u:%u: %s (%s on line %u)", ld->source,
				    line_of(&p->problem_mark), col_of(&p->problem_mark), problem,
				    p->context, line_of(&p->context_mark));
	return vsnl_err_set(ld->err, EINVAL, "%s:%u:%u: %s", ld->source,
			    line_of(&p->problem_mark), col_of(&p->problem_mark), problem);
}

static int load(const char *text, size_t len, const char *source, bool one,
		struct vsnl_ydocs *out, struct vsnl_err *err)
{
	struct loader ld = { .source = source ? source : "YAML", .err = err, .out = out,
			     .one = one };
	yaml_parser_t parser;
	yaml_event_t ev;
	int ret = 0;

	out->docs = NULL;
	out->nr = 0;
	if (!text) {
		text = "";
		len = 0;
	}
	if (!yaml_parser_initialize(&parser))
		return no_memory(&ld);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	for (;;) {
		bool end;

		if (!yaml_parser_parse(&parser, &ev)) {
			ret = broken(&ld, &parser, text, len);
			break;
		}
		ret = on_event(&ld, &ev);
		end = ev.type == YAML_STREAM_END_EVENT;
		yaml_event_delete(&ev);
		if (ret || end)
			break;
	}
	yaml_parser_delete(&parser);
	if (!ret && ld.big_text)
		ret = too_big(&ld, ld.big_line, ld.big_text);
	free(ld.big_text);
	if (ret)
		vsnl_ydocs_free(out);
	return ret;
}

int vsnl_yaml_parse_docs(const char *text, size_t len, const char *source,
			 struct vsnl_ydocs *out, struct vsnl_err *err)
{
	return load(text, len, source, false, out, err);
}

int vsnl_yaml_parse(const char *text, size_t len, const char *source, struct vsnl_ynode *out,
		    struct vsnl_err *err)
{
	struct vsnl_ydocs docs;
	int ret;

	memset(out, 0, sizeof(*out));
	out->line = 1;
	out->col = 1;
	ret = load(text, len, source, true, &docs, err);
	if (ret)
		return ret;
	if (docs.nr)
		*out = docs.docs[0].root;
	free(docs.docs);
	return 0;
}

int vsnl_yaml_read_file(const char *path, size_t max, unsigned int flags,
			struct vsnl_ynode *out, struct vsnl_err *err)
{
	char *text;
	size_t len;
	int ret;

	memset(out, 0, sizeof(*out));
	out->line = 1;
	out->col = 1;
	ret = vsnl_read_file(path, max, flags, &text, &len, err);
	if (ret)
		return ret;
	ret = vsnl_yaml_parse(text, len, path, out, err);
	free(text);
	return ret;
}
