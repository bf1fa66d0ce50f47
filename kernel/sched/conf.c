// SPDX-License-Identifier: Apache-2.0
/*
 * The scheduler configuration loader. This file owns the reading of
 * volcano-scheduler.conf into struct vs_conf (see conf.h for the format and
 * the rules), the typing of argument values, the typed getters and the
 * writing of a configuration back as YAML.
 *
 * The text goes through libyaml's event parser into a small tree of our own:
 * events rather than libyaml's document API because the events keep what the
 * document API loses (whether a scalar was tagged !!str, an alias as such) and
 * because the nesting depth can be refused while the text streams in, before
 * anything deep is built. The tree is then walked against the schema of
 * Volcano's SchedulerConfiguration, decoding each value the way
 * gopkg.in/yaml.v2 decodes it into that Go type: a string field takes any
 * scalar's text, a *bool takes a YAML 1.1 boolean or null (unset), and
 * map[string]interface{} arguments get yaml.v2's resolution of plain scalars
 * (resolve() below, rule for rule). Unlike yaml.v2, unknown and duplicate
 * keys are refused rather than ignored or overwritten.
 *
 * Corners decided here, all refused with FILE:LINE rather than guessed at:
 * aliases and merge keys (<<), tags other than !!str, !!int, !!float, !!bool,
 * !!map, !!seq and "!", a second YAML document, nesting deeper than
 * VS_YAML_DEPTH_MAX, a NUL byte in a string, non-scalar mapping keys, and an
 * unsigned integer above INT64_MAX (yaml.v2's uint64, which no Volcano getter
 * accepts and struct vs_arg cannot hold). Plain null keys (~, null, empty)
 * read as "", as yaml.v2 decodes them into a string. Numbers are parsed and
 * printed in the C locale; nothing in vsched calls setlocale().
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "core/file.h"
#include "sched/conf.h"

#define CONF_FILE_MAX	(4u << 20)

BUILD_BUG_ON(VS_EN_NR > 32);	/* flags_set and flags_on are u32 */

static const char *const flag_names[VS_EN_NR] = {
	[VS_EN_JOB_ORDER]		= "enableJobOrder",
	[VS_EN_HIERARCHY]		= "enableHierarchy",
	[VS_EN_JOB_READY]		= "enableJobReady",
	[VS_EN_JOB_PIPELINED]		= "enableJobPipelined",
	[VS_EN_TASK_ORDER]		= "enableTaskOrder",
	[VS_EN_PREEMPTABLE]		= "enablePreemptable",
	[VS_EN_RECLAIMABLE]		= "enableReclaimable",
	[VS_EN_PREEMPTIVE]		= "enablePreemptive",
	[VS_EN_QUEUE_ORDER]		= "enableQueueOrder",
	[VS_EN_CLUSTER_ORDER]		= "enabledClusterOrder",
	[VS_EN_PREDICATE]		= "enablePredicate",
	[VS_EN_BEST_NODE]		= "enableBestNode",
	[VS_EN_NODE_ORDER]		= "enableNodeOrder",
	[VS_EN_TARGET_JOB]		= "enableTargetJob",
	[VS_EN_RESERVED_NODES]		= "enableReservedNodes",
	[VS_EN_JOB_ENQUEUED]		= "enableJobEnqueued",
	[VS_EN_VICTIM]			= "enabledVictim",
	[VS_EN_JOB_STARVING]		= "enableJobStarving",
	[VS_EN_OVERUSED]		= "enabledOverused",
	[VS_EN_ALLOCATABLE]		= "enabledAllocatable",
	[VS_EN_HYPERNODE_ORDER]		= "enabledHyperNodeOrder",
	[VS_EN_SUBJOB_READY]		= "enabledSubJobReady",
	[VS_EN_SUBJOB_PIPELINED]	= "enabledSubJobPipelined",
	[VS_EN_SUBJOB_ORDER]		= "enabledSubJobOrder",
	[VS_EN_HYPERNODE_GRADIENT]	= "enabledHyperNodeGradient",
};

#define ALL_FLAGS	((1u << VS_EN_NR) - 1)
/*
 * The flags ApplyPluginConfDefaults turns on when unset: all but
 * enableHierarchy and enabledClusterOrder, which Volcano leaves nil, and
 * which therefore stay off unless the file turns them on.
 */
#define DEFAULT_ON_FLAGS \
	(ALL_FLAGS & ~((1u << VS_EN_HIERARCHY) | (1u << VS_EN_CLUSTER_ORDER)))

const char *vs_en_flag_name(enum vs_en_flag flag)
{
	return (unsigned int)flag < VS_EN_NR ? flag_names[flag] : "?";
}

/* DefaultSchedulerConf of Volcano's pkg/scheduler/util.go, byte for byte. */
const char vs_conf_default_text[] =
	"\n"
	"actions: \"enqueue, allocate, backfill\"\n"
	"tiers:\n"
	"- plugins:\n"
	"  - name: priority\n"
	"  - name: gang\n"
	"  - name: conformance\n"
	"- plugins:\n"
	"  - name: overcommit\n"
	"  - name: drf\n"
	"  - name: predicates\n"
	"  - name: proportion\n"
	"  - name: nodeorder\n";

/* ---- messages ---- */

struct parse {
	const char *source;
	const struct vs_conf_names *names;
	struct vs_err *err;
};

/*
 * Messages quote text from the file: cut it to a readable length and show
 * control bytes as '?', so that a message stays one printable line.
 */
#define QUOTE_MAX	64

struct quoted {
	char s[QUOTE_MAX + 4];
};

static const char *quote(struct quoted *q, const char *s)
{
	size_t i;

	for (i = 0; s[i] && i < QUOTE_MAX; i++) {
		unsigned char c = (unsigned char)s[i];

		q->s[i] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	if (s[i]) {
		memcpy(q->s + i, "...", 3);
		i += 3;
	}
	q->s[i] = '\0';
	return q->s;
}

__printf(3, 4)
static int fail(struct parse *ps, u32 line, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vs_err_vat(ps->err, EINVAL, ps->source, line, fmt, ap);
	va_end(ap);
	return ret;
}

static int oom(struct parse *ps)
{
	return vs_err_set(ps->err, ENOMEM, "%s: out of memory", ps->source);
}

static u32 mark_line(const yaml_mark_t *mark)
{
	return mark->line < UINT32_MAX ? (u32)mark->line + 1 : UINT32_MAX;
}

/* ---- the tree ---- */

enum ykind { Y_SCALAR, Y_MAP, Y_SEQ };

/* How a scalar gets its type, after yaml.v2's decoder. */
enum yres {
	Y_RESOLVE,		/* plain and untagged: resolve() decides */
	Y_STR,			/* quoted, or tagged !!str or "!" */
	Y_INT,			/* tagged !!int, !!float, !!bool: resolve(), checked */
	Y_FLOAT,
	Y_BOOL,
};

struct ynode {
	u8 kind;		/* enum ykind */
	u8 res;			/* enum yres, scalars only */
	u32 line;
	u32 nr, cap;		/* a mapping holds key, value, key, value... */
	struct ynode **kids;
	char *text;		/* scalars: no NUL inside */
};

static void ynode_free(struct ynode *n)
{
	if (!n)
		return;
	/* Recursion is bounded by VS_YAML_DEPTH_MAX: the loader refuses deeper. */
	for (u32 i = 0; i < n->nr; i++)
		ynode_free(n->kids[i]);
	free(n->kids);
	free(n->text);
	free(n);
}

static bool is_null_text(const char *s)
{
	return !*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") ||
	       !strcmp(s, "NULL");
}

static bool ynull(const struct ynode *n)
{
	return n->kind == Y_SCALAR && n->res == Y_RESOLVE && is_null_text(n->text);
}

#define for_each_pair(map, i, key, val)						\
	for ((i) = 0; (i) + 1 < (map)->nr &&					\
	     ((key) = (map)->kids[i], (val) = (map)->kids[(i) + 1], true); (i) += 2)

/* ---- yaml.v2's resolution of plain scalars ---- */

enum rkind { R_NULL, R_BOOL, R_INT, R_UINT, R_FLOAT, R_STR };

struct rval {
	enum rkind kind;
	bool b;
	s64 i;
	double f;
};

/* yaml.v2's resolveMap: the spellings looked up before any parsing. */
static const struct {
	const char *s;
	enum rkind kind;
	int v;			/* bool value, or the sign of an infinity */
} resolve_map[] = {
	{ "y", R_BOOL, 1 }, { "Y", R_BOOL, 1 }, { "yes", R_BOOL, 1 }, { "Yes", R_BOOL, 1 },
	{ "YES", R_BOOL, 1 }, { "true", R_BOOL, 1 }, { "True", R_BOOL, 1 },
	{ "TRUE", R_BOOL, 1 }, { "on", R_BOOL, 1 }, { "On", R_BOOL, 1 }, { "ON", R_BOOL, 1 },
	{ "n", R_BOOL, 0 }, { "N", R_BOOL, 0 }, { "no", R_BOOL, 0 }, { "No", R_BOOL, 0 },
	{ "NO", R_BOOL, 0 }, { "false", R_BOOL, 0 }, { "False", R_BOOL, 0 },
	{ "FALSE", R_BOOL, 0 }, { "off", R_BOOL, 0 }, { "Off", R_BOOL, 0 },
	{ "OFF", R_BOOL, 0 },
	{ "", R_NULL, 0 }, { "~", R_NULL, 0 }, { "null", R_NULL, 0 }, { "Null", R_NULL, 0 },
	{ "NULL", R_NULL, 0 },
	{ ".nan", R_FLOAT, 0 }, { ".NaN", R_FLOAT, 0 }, { ".NAN", R_FLOAT, 0 },
	{ ".inf", R_FLOAT, 1 }, { ".Inf", R_FLOAT, 1 }, { ".INF", R_FLOAT, 1 },
	{ "+.inf", R_FLOAT, 1 }, { "+.Inf", R_FLOAT, 1 }, { "+.INF", R_FLOAT, 1 },
	{ "-.inf", R_FLOAT, -1 }, { "-.Inf", R_FLOAT, -1 }, { "-.INF", R_FLOAT, -1 },
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Digits of @base, no sign, no prefix, at least one: strconv's inner loop. */
static bool parse_digits(const char *s, unsigned int base, u64 *out)
{
	u64 v = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s, l = c | 0x20;
		unsigned int d;

		if (is_digit((char)c))
			d = c - '0';
		else if (l >= 'a' && l <= 'z')
			d = l - 'a' + 10u;
		else
			return false;
		if (d >= base || v > (UINT64_MAX - d) / base)
			return false;	/* a syntax or a range error: both refuse */
		v = v * base + d;
	}
	*out = v;
	return true;
}

/* strconv.ParseUint(s, @base, 64); @base 0 reads Go's 0b, 0o, 0x and 0 prefixes. */
static bool go_parse_uint(const char *s, unsigned int base, u64 *out)
{
	if (!*s)
		return false;
	if (!base) {
		size_t n = strlen(s);
		char l = (char)(s[1] | 0x20);

		base = 10;
		if (s[0] == '0') {
			if (n >= 3 && l == 'b')
				base = 2, s += 2;
			else if (n >= 3 && l == 'o')
				base = 8, s += 2;
			else if (n >= 3 && l == 'x')
				base = 16, s += 2;
			else if (n == 1)
				return *out = 0, true;
			else
				base = 8, s += 1;
		}
	}
	return parse_digits(s, base, out);
}

/* strconv.ParseInt(s, @base, 64). */
static bool go_parse_int(const char *s, unsigned int base, s64 *out)
{
	bool neg = false;
	u64 u;

	if (*s == '+' || *s == '-')
		neg = *s++ == '-';
	if (!go_parse_uint(s, base, &u))
		return false;
	if (neg ? u > (u64)INT64_MAX + 1 : u > (u64)INT64_MAX)
		return false;
	*out = neg ? (u ? -(s64)(u - 1) - 1 : 0) : (s64)u;
	return true;
}

/* yaml.v2's yamlStyleFloat: ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$ */
static bool yaml_style_float(const char *s)
{
	if (*s == '+' || *s == '-')
		s++;
	if (*s == '.') {
		if (!is_digit(*++s))
			return false;
		while (is_digit(*s))
			s++;
	} else {
		if (!is_digit(*s))
			return false;
		while (is_digit(*s))
			s++;
		if (*s == '.')
			while (is_digit(*++s))
				;
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!is_digit(*s))
			return false;
		while (is_digit(*s))
			s++;
	}
	return !*s;
}

/*
 * strconv.ParseFloat on text already in yamlStyleFloat's shape: refused when
 * it overflows (ErrRange), kept when it underflows to zero or a denormal, as
 * Go does.
 */
static bool go_parse_float(const char *s, double *out)
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

/* Go's underscoreOK for a float that starts with '.': each '_' between digits. */
static bool underscores_between_digits(const char *s)
{
	for (size_t i = 0; s[i]; i++)
		if (s[i] == '_' && (!i || !is_digit(s[i - 1]) || !is_digit(s[i + 1])))
			return false;
	return true;
}

/* @s without its underscores, into @buf if it fits, else a new allocation. */
static char *strip_underscores(const char *s, char *buf, size_t size)
{
	size_t n = strlen(s), j = 0;
	char *p = n < size ? buf : malloc(n + 1);

	if (!p)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (s[i] != '_')
			p[j++] = s[i];
	p[j] = '\0';
	return p;
}

/*
 * yaml.v2's resolve() for a plain scalar decoded into interface{}: the first
 * byte picks what to try (resolveTable), the map of fixed spellings first,
 * then ints with underscores removed through strconv.ParseInt(s, 0, 64), then
 * ParseUint, then floats of yamlStyleFloat's shape, then yaml.v2's "0b" quirk
 * (a sign after the prefix: "0b-1" is -1). Timestamps resolve to strings in
 * interface{}, so they need no case. Returns -ENOMEM or 0.
 */
static int resolve(const char *s, struct rval *v)
{
	char c = *s, small[128], *plain;
	s64 i;
	u64 u;

	memset(v, 0, sizeof(*v));
	v->kind = R_STR;
	if (c && !strchr("yYnNtTfFoO~+-.0123456789", c))
		return 0;
	for (size_t k = 0; k < ARRAY_SIZE(resolve_map); k++) {
		if (strcmp(s, resolve_map[k].s))
			continue;
		v->kind = resolve_map[k].kind;
		v->b = resolve_map[k].v;
		if (v->kind == R_FLOAT)
			v->f = resolve_map[k].v ? resolve_map[k].v * (double)INFINITY : (double)NAN;
		return 0;
	}
	if (c == '.') {
		/* strconv.ParseFloat on the text itself: Go's underscore rule */
		if (!underscores_between_digits(s))
			return 0;
	} else if (!strchr("+-0123456789", c)) {
		return 0;
	}

	plain = strip_underscores(s, small, sizeof(small));
	if (!plain)
		return -ENOMEM;
	if (c != '.' && go_parse_int(plain, 0, &i)) {
		v->kind = R_INT;
		v->i = i;
	} else if (c != '.' && go_parse_uint(plain, 0, &u)) {
		v->kind = R_UINT;
	} else if (yaml_style_float(plain) && go_parse_float(plain, &v->f)) {
		v->kind = R_FLOAT;
	} else if (!strncmp(plain, "0b", 2) && go_parse_int(plain + 2, 2, &i)) {
		v->kind = R_INT;
		v->i = i;
	} else if (!strncmp(plain, "0b", 2) && go_parse_uint(plain + 2, 2, &u)) {
		v->kind = R_UINT;
	}
	if (plain != small)
		free(plain);
	return 0;
}

/* What yaml.v2 decodes scalar @n into interface{} as; refuses what we cannot hold. */
static int scalar_value(struct parse *ps, const struct ynode *n, struct rval *v)
{
	struct quoted q;
	int ret;

	if (n->res == Y_STR) {
		memset(v, 0, sizeof(*v));
		v->kind = R_STR;
		return 0;
	}
	ret = resolve(n->text, v);
	if (ret)
		return oom(ps);
	if (v->kind == R_UINT)
		return fail(ps, n->line, "integer %s does not fit in 64 signed bits",
			    quote(&q, n->text));
	if (n->res == Y_FLOAT && v->kind == R_INT) {
		v->kind = R_FLOAT;
		v->f = (double)v->i;
	}
	return 0;
}

/* ---- the loader: libyaml events to the tree ---- */

struct loader {
	struct parse *ps;
	struct ynode *root;
	struct ynode *open[VS_YAML_DEPTH_MAX];	/* collections not yet ended */
	int depth;
	bool document;
};

#define YAML_TAG_PREFIX	"tag:yaml.org,2002:"

/* The type rule of a node tagged @tag (NULL: none); refuses tags we do not read. */
static int tag_res(struct parse *ps, u32 line, const char *tag, enum ykind kind, u8 *res)
{
	static const char *const scalar_tags[] = {
		[Y_STR] = "str", [Y_INT] = "int", [Y_FLOAT] = "float", [Y_BOOL] = "bool",
	};
	const char *t;
	struct quoted q;

	if (!tag || !strcmp(tag, "!")) {
		*res = Y_STR;		/* for a scalar, the caller decides on plain */
		return 0;
	}
	if (!strncmp(tag, YAML_TAG_PREFIX, strlen(YAML_TAG_PREFIX))) {
		t = tag + strlen(YAML_TAG_PREFIX);
		if (kind == Y_MAP && !strcmp(t, "map"))
			return 0;
		if (kind == Y_SEQ && !strcmp(t, "seq"))
			return 0;
		for (u8 r = Y_STR; kind == Y_SCALAR && r <= Y_BOOL; r++) {
			if (!strcmp(t, scalar_tags[r])) {
				*res = r;
				return 0;
			}
		}
		return fail(ps, line, "tag !!%s is not supported here", quote(&q, t));
	}
	return fail(ps, line, "tag %s is not supported", quote(&q, tag));
}

/* A tagged scalar must read as its tag says, as yaml.v2 checks. */
static int check_tagged(struct parse *ps, const struct ynode *n)
{
	static const char *const want[] = { [Y_INT] = "!!int", [Y_FLOAT] = "!!float",
					    [Y_BOOL] = "!!bool" };
	struct rval v;
	struct quoted q;
	int ret;

	if (n->res < Y_INT)
		return 0;
	ret = scalar_value(ps, n, &v);
	if (ret)
		return ret;
	if ((n->res == Y_INT && v.kind == R_INT) || (n->res == Y_FLOAT && v.kind == R_FLOAT) ||
	    (n->res == Y_BOOL && v.kind == R_BOOL))
		return 0;
	return fail(ps, n->line, "\"%s\" is not a valid %s", quote(&q, n->text), want[n->res]);
}

/* Hang @n under the innermost open collection; on error the caller frees @n. */
static int attach(struct loader *ld, struct ynode *n)
{
	struct ynode *parent;

	if (!ld->depth) {
		/* one root per document, and one document: never two, but never leak */
		if (ld->root)
			return fail(ld->ps, n->line, "a second YAML document");
		ld->root = n;
		return 0;
	}
	parent = ld->open[ld->depth - 1];
	if (parent->kind == Y_MAP && !(parent->nr & 1)) {
		if (n->kind != Y_SCALAR)
			return fail(ld->ps, n->line, "a mapping key must be a string");
		if (n->res == Y_RESOLVE && !strcmp(n->text, "<<"))
			return fail(ld->ps, n->line, "merge keys (<<) are not supported");
		if (n->res == Y_RESOLVE && is_null_text(n->text))
			n->text[0] = '\0';	/* yaml.v2 reads a null key as "" */
	}
	if (parent->nr == parent->cap) {
		u32 cap = parent->cap ? 2 * parent->cap : 4;
		struct ynode **kids = realloc(parent->kids, cap * sizeof(*kids));

		if (!kids)
			return oom(ld->ps);
		parent->kids = kids;
		parent->cap = cap;
	}
	parent->kids[parent->nr++] = n;
	return 0;
}

static int add_scalar(struct loader *ld, const yaml_event_t *ev, u32 line)
{
	const char *tag = (const char *)ev->data.scalar.tag;
	size_t len = ev->data.scalar.length;
	struct ynode *n;
	u8 res;
	int ret;

	ret = tag_res(ld->ps, line, tag, Y_SCALAR, &res);
	if (ret)
		return ret;
	if (!tag && ev->data.scalar.plain_implicit)
		res = Y_RESOLVE;
	/* "\0" in a double-quoted scalar: our strings are C strings */
	if (memchr(ev->data.scalar.value, '\0', len))
		return fail(ld->ps, line, "a string holds a NUL byte");
	n = calloc(1, sizeof(*n));
	if (!n || !(n->text = malloc(len + 1))) {
		free(n);
		return oom(ld->ps);
	}
	memcpy(n->text, ev->data.scalar.value, len);
	n->text[len] = '\0';
	n->kind = Y_SCALAR;
	n->res = res;
	n->line = line;
	ret = check_tagged(ld->ps, n);
	if (!ret)
		ret = attach(ld, n);
	if (ret)
		ynode_free(n);
	return ret;
}

static int open_collection(struct loader *ld, const char *tag, enum ykind kind, u32 line)
{
	struct ynode *n;
	u8 res;
	int ret;

	if (ld->depth == VS_YAML_DEPTH_MAX)
		return fail(ld->ps, line, "nested more than %d levels deep", VS_YAML_DEPTH_MAX);
	ret = tag_res(ld->ps, line, tag, kind, &res);
	if (ret)
		return ret;
	n = calloc(1, sizeof(*n));
	if (!n)
		return oom(ld->ps);
	n->kind = kind;
	n->line = line;
	ret = attach(ld, n);
	if (ret) {
		ynode_free(n);
		return ret;
	}
	ld->open[ld->depth++] = n;
	return 0;
}

static int cmp_keys(const void *a, const void *b, void *arg)
{
	struct ynode *const *kids = arg;
	u32 x = *(const u32 *)a, y = *(const u32 *)b;
	int c = strcmp(kids[x]->text, kids[y]->text);

	return c ? c : (x > y) - (x < y);
}

/*
 * yaml.v2 lets a later key overwrite an earlier one; a configuration saying
 * two things is refused instead. Sorting keeps this O(n log n) for a mapping
 * of any size; the key reported is the earliest repetition in the file.
 */
static int check_duplicate_keys(struct parse *ps, const struct ynode *map)
{
	u32 pairs = map->nr / 2, dup = UINT32_MAX, first = 0;
	struct quoted q;
	u32 *idx;

	if (pairs < 2)
		return 0;
	idx = malloc(pairs * sizeof(*idx));
	if (!idx)
		return oom(ps);
	for (u32 i = 0; i < pairs; i++)
		idx[i] = 2 * i;
	qsort_r(idx, pairs, sizeof(*idx), cmp_keys, map->kids);
	for (u32 i = 1, g = 0; i < pairs; i++) {
		if (strcmp(map->kids[idx[i]]->text, map->kids[idx[g]]->text)) {
			g = i;
			continue;
		}
		if (i == g + 1 && idx[i] < dup) {
			dup = idx[i];
			first = idx[g];
		}
	}
	free(idx);
	if (dup == UINT32_MAX)
		return 0;
	return fail(ps, map->kids[dup]->line, "duplicate key \"%s\" (first on line %u)",
		    quote(&q, map->kids[dup]->text), map->kids[first]->line);
}

static int on_event(struct loader *ld, const yaml_event_t *ev)
{
	u32 line = mark_line(&ev->start_mark);
	struct quoted q;

	switch (ev->type) {
	case YAML_DOCUMENT_START_EVENT:
		if (ld->document)
			return fail(ld->ps, line, "a second YAML document");
		ld->document = true;
		return 0;
	case YAML_ALIAS_EVENT:
		return fail(ld->ps, line, "aliases (*%s) are not supported",
			    quote(&q, (const char *)ev->data.alias.anchor));
	case YAML_SCALAR_EVENT:
		return add_scalar(ld, ev, line);
	case YAML_SEQUENCE_START_EVENT:
		return open_collection(ld, (const char *)ev->data.sequence_start.tag, Y_SEQ, line);
	case YAML_MAPPING_START_EVENT:
		return open_collection(ld, (const char *)ev->data.mapping_start.tag, Y_MAP, line);
	case YAML_SEQUENCE_END_EVENT:
		ld->depth--;
		return 0;
	case YAML_MAPPING_END_EVENT:
		return check_duplicate_keys(ld->ps, ld->open[--ld->depth]);
	default:
		return 0;	/* stream start and end, document end */
	}
}

static u32 line_at_offset(const char *text, size_t len, size_t offset)
{
	u32 line = 1;

	for (size_t i = 0; i < len && i < offset; i++)
		line += text[i] == '\n';
	return line;
}

static int syntax_error(struct parse *ps, const yaml_parser_t *p, const char *text, size_t len)
{
	const char *problem = p->problem ? p->problem : "malformed YAML";

	switch (p->error) {
	case YAML_MEMORY_ERROR:
		return oom(ps);
	case YAML_READER_ERROR:
		/* the reader has no line: count to the offending byte */
		return fail(ps, line_at_offset(text, len, p->problem_offset),
			    "%s (0x%02x at byte %zu)", problem, (unsigned int)p->problem_value,
			    p->problem_offset);
	default:
		if (p->context)
			return vs_err_set(ps->err, EINVAL, "%s:%u:%lu: %s (%s on line %u)",
					  ps->source, mark_line(&p->problem_mark),
					  (unsigned long)p->problem_mark.column + 1, problem,
					  p->context, mark_line(&p->context_mark));
		return vs_err_set(ps->err, EINVAL, "%s:%u:%lu: %s", ps->source,
				  mark_line(&p->problem_mark),
				  (unsigned long)p->problem_mark.column + 1, problem);
	}
}

static int load_tree(struct parse *ps, const char *text, size_t len, struct ynode **root)
{
	struct loader ld = { .ps = ps };
	yaml_parser_t parser;
	yaml_event_t ev;
	int ret = 0;

	*root = NULL;
	if (!yaml_parser_initialize(&parser))
		return oom(ps);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	for (;;) {
		bool end;

		if (!yaml_parser_parse(&parser, &ev)) {
			ret = syntax_error(ps, &parser, text, len);
			break;
		}
		ret = on_event(&ld, &ev);
		end = ev.type == YAML_STREAM_END_EVENT;
		yaml_event_delete(&ev);
		if (ret || end)
			break;
	}
	yaml_parser_delete(&parser);
	if (ret) {
		ynode_free(ld.root);	/* every node built hangs from the root */
		return ret;
	}
	*root = ld.root;
	return 0;
}

/* ---- values ---- */

static void arg_free(struct vs_arg *a);

static void args_free(struct vs_args *args)
{
	for (u32 i = 0; i < args->nr; i++) {
		free(args->kv[i].key);
		arg_free(&args->kv[i].val);
	}
	free(args->kv);
	args->kv = NULL;
	args->nr = 0;
}

static void arg_free(struct vs_arg *a)
{
	switch (a->type) {
	case VS_ARG_STRING:
		free(a->s);
		break;
	case VS_ARG_MAP:
		if (a->map) {
			args_free(a->map);
			free(a->map);
		}
		break;
	case VS_ARG_SEQ:
		for (u32 i = 0; i < a->seq.nr; i++)
			arg_free(&a->seq.items[i]);
		free(a->seq.items);
		break;
	default:
		break;
	}
	a->type = VS_ARG_NULL;
}

static int build_args(struct parse *ps, const struct ynode *map, struct vs_args *out);

/* @n decoded into interface{}. On error, @out holds what to free. */
static int build_arg(struct parse *ps, const struct ynode *n, struct vs_arg *out)
{
	struct rval v;
	int ret;

	memset(out, 0, sizeof(*out));
	out->line = n->line;
	switch (n->kind) {
	case Y_MAP:
		out->type = VS_ARG_MAP;
		out->map = calloc(1, sizeof(*out->map));
		if (!out->map)
			return oom(ps);
		return build_args(ps, n, out->map);
	case Y_SEQ:
		out->type = VS_ARG_SEQ;
		out->seq.items = calloc(n->nr ? n->nr : 1, sizeof(*out->seq.items));
		if (!out->seq.items)
			return oom(ps);
		for (u32 i = 0; i < n->nr; i++) {
			out->seq.nr++;
			ret = build_arg(ps, n->kids[i], &out->seq.items[i]);
			if (ret)
				return ret;
		}
		return 0;
	default:
		break;
	}
	ret = scalar_value(ps, n, &v);
	if (ret)
		return ret;
	switch (v.kind) {
	case R_NULL:
		out->type = VS_ARG_NULL;
		return 0;
	case R_BOOL:
		out->type = VS_ARG_BOOL;
		out->b = v.b;
		return 0;
	case R_INT:
		out->type = VS_ARG_INT;
		out->i = v.i;
		return 0;
	case R_FLOAT:
		out->type = VS_ARG_FLOAT;
		out->f = v.f;
		return 0;
	default:
		out->type = VS_ARG_STRING;
		out->s = strdup(n->text);
		return out->s ? 0 : oom(ps);
	}
}

/* A map[string]interface{}: keys are their text, values typed. */
static int build_args(struct parse *ps, const struct ynode *map, struct vs_args *out)
{
	const struct ynode *key, *val;
	u32 i;
	int ret;

	out->source = ps->source;
	if (!map->nr)
		return 0;
	out->kv = calloc(map->nr / 2, sizeof(*out->kv));
	if (!out->kv)
		return oom(ps);
	for_each_pair(map, i, key, val) {
		struct vs_arg_kv *kv = &out->kv[out->nr];

		kv->key = strdup(key->text);
		if (!kv->key)
			return oom(ps);
		kv->line = key->line;
		out->nr++;
		ret = build_arg(ps, val, &kv->val);
		if (ret)
			return ret;
	}
	return 0;
}

int vs_yaml_parse(const char *text, size_t len, const char *source, struct vs_arg *out,
		  struct vs_err *err)
{
	struct parse ps = { .source = source ? source : "YAML", .err = err };
	struct ynode *root;
	int ret;

	memset(out, 0, sizeof(*out));
	out->line = 1;
	ret = load_tree(&ps, text ? text : "", text ? len : 0, &root);
	if (ret || !root)
		return ret;
	ret = build_arg(&ps, root, out);
	ynode_free(root);
	return ret;
}

void vs_arg_free(struct vs_arg *arg)
{
	if (arg)
		arg_free(arg);
}

/* ---- the schema: Volcano's SchedulerConfiguration ---- */

/* A Go string field: any scalar's text; null is "". */
static int want_string(struct parse *ps, const struct ynode *n, const char *what,
		       const char **out)
{
	if (n->kind != Y_SCALAR)
		return fail(ps, n->line, "%s must be a string", what);
	*out = ynull(n) ? "" : n->text;
	return 0;
}

/* "arguments": map[string]interface{}; null is an empty map. */
static int want_args(struct parse *ps, const struct ynode *n, struct vs_args *out)
{
	out->source = ps->source;
	if (ynull(n))
		return 0;
	if (n->kind != Y_MAP)
		return fail(ps, n->line, "arguments must be a mapping");
	return build_args(ps, n, out);
}

/* A list field; null is an empty list. */
static int want_list(struct parse *ps, const struct ynode *n, const char *what)
{
	if (n->kind == Y_SEQ || ynull(n))
		return 0;
	return fail(ps, n->line, "%s must be a list", what);
}

/* A struct in a list; null is a zero struct. */
static int want_struct(struct parse *ps, const struct ynode *n, const char *what)
{
	if (n->kind == Y_MAP || ynull(n))
		return 0;
	return fail(ps, n->line, "%s must be a mapping", what);
}

/* The value of key @name in mapping @map, or NULL (a null @map has no keys). */
static const struct ynode *lookup(const struct ynode *map, const char *name)
{
	const struct ynode *key, *val;
	u32 i;

	if (map->kind != Y_MAP)
		return NULL;
	for_each_pair(map, i, key, val)
		if (!strcmp(key->text, name))
			return val;
	return NULL;
}

static bool name_known(const char *const *list, u32 nr, const char *name)
{
	if (!list)
		return true;
	for (u32 i = 0; i < nr; i++)
		if (!strcmp(list[i], name))
			return true;
	return false;
}

static int unknown_name(struct parse *ps, u32 line, const char *what, const char *name,
			const char *const *list, u32 nr)
{
	char known[VS_ERR_MSG_MAX];
	struct quoted q;
	size_t len = 0;

	known[0] = '\0';
	for (u32 i = 0; i < nr && len < sizeof(known); i++)
		len += (size_t)snprintf(known + len, sizeof(known) - len, "%s%s",
					i ? ", " : "", list[i]);
	return fail(ps, line, "unknown %s \"%s\" (known: %s)", what, quote(&q, name), known);
}

static const char *const *action_list(const struct parse *ps, u32 *nr)
{
	*nr = ps->names ? ps->names->nr_actions : 0;
	return ps->names ? ps->names->actions : NULL;
}

static const char *const *plugin_list(const struct parse *ps, u32 *nr)
{
	*nr = ps->names ? ps->names->nr_plugins : 0;
	return ps->names ? ps->names->plugins : NULL;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* "enqueue, allocate": split on ',' and trimmed, as UnmarshalSchedulerConf does. */
static int parse_actions(struct parse *ps, const struct ynode *n, struct vs_conf *conf)
{
	const char *const *known;
	const char *text = "", *p;
	struct quoted q;
	u32 nr = 1, nr_known;
	int ret;

	ret = want_string(ps, n, "actions", &text);
	if (ret)
		return ret;
	p = text;
	while (is_space(*p))
		p++;
	if (!*p)
		return fail(ps, n->line, "no actions");
	for (p = text; *p; p++)
		nr += *p == ',';
	conf->actions = calloc(nr, sizeof(*conf->actions));
	if (!conf->actions)
		return oom(ps);
	known = action_list(ps, &nr_known);
	for (p = text;;) {
		const char *comma = strchr(p, ',');
		const char *b = p, *e = comma ? comma : p + strlen(p);
		char *name;

		while (b < e && is_space(*b))
			b++;
		while (e > b && is_space(e[-1]))
			e--;
		if (b == e)
			return fail(ps, n->line, "empty action in \"%s\"", quote(&q, text));
		name = strndup(b, (size_t)(e - b));
		if (!name)
			return oom(ps);
		conf->actions[conf->nr_actions++] = name;
		if (!name_known(known, nr_known, name))
			return unknown_name(ps, n->line, "action", name, known, nr_known);
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

/*
 * A *bool flag: a YAML 1.1 boolean, or null for unset as yaml.v2 leaves the
 * pointer nil. A quoted "true" is a string, which a bool does not take.
 * yaml.v2's prepare() leaves the pointer nil only for null, ~ and nothing:
 * "Null" and "NULL" allocate the bool and then store null into it, which is
 * false, so they turn the flag off.
 */
static int parse_flag(struct parse *ps, const struct ynode *n, enum vs_en_flag f,
		      struct vs_conf_plugin *cp)
{
	struct rval v = { .kind = R_STR };

	if (n->kind == Y_SCALAR && (n->res == Y_RESOLVE || n->res == Y_BOOL) &&
	    resolve(n->text, &v))
		return oom(ps);
	if (v.kind == R_NULL && (!strcmp(n->text, "Null") || !strcmp(n->text, "NULL")))
		v = (struct rval){ .kind = R_BOOL, .b = false };
	if (v.kind == R_NULL)
		return 0;
	if (v.kind != R_BOOL)
		return fail(ps, n->line, "%s must be true or false", flag_names[f]);
	cp->flags_set |= 1u << f;
	if (v.b)
		cp->flags_on |= 1u << f;
	return 0;
}

/*
 * The "name" of a plugin or configuration entry @n (@what: "a plugin"), which
 * must be one of @known (@kind: "plugin"), copied into *@out; its line in
 * *@line.
 */
static int take_name(struct parse *ps, const struct ynode *n, const char *what,
		     const char *kind, const char *const *known, u32 nr_known, char **out,
		     u32 *line)
{
	const struct ynode *name_node = lookup(n, "name");
	const char *name = "";
	int ret;

	if (name_node && (ret = want_string(ps, name_node, "name", &name)))
		return ret;
	if (!*name)
		return fail(ps, n->line, "%s without a name", what);
	*line = name_node->line;
	*out = strdup(name);
	if (!*out)
		return oom(ps);
	if (!name_known(known, nr_known, name))
		return unknown_name(ps, name_node->line, kind, name, known, nr_known);
	return 0;
}

static int parse_plugin(struct parse *ps, const struct ynode *n, struct vs_conf_plugin *cp)
{
	const struct ynode *key, *val;
	const char *const *known;
	const char *name;
	u32 name_line;
	struct quoted q, q2;
	u32 i, nr_known;
	int f, ret;

	cp->line = n->line;
	cp->args.source = ps->source;
	ret = want_struct(ps, n, "a plugin");
	if (ret)
		return ret;
	/* the name first, so that every later message can say whose key it is */
	known = plugin_list(ps, &nr_known);
	ret = take_name(ps, n, "a plugin", "plugin", known, nr_known, &cp->name, &name_line);
	if (ret)
		return ret;
	name = cp->name;

	for_each_pair(n, i, key, val) {
		if (!strcmp(key->text, "name"))
			continue;
		if (!strcmp(key->text, "arguments")) {
			ret = want_args(ps, val, &cp->args);
			if (ret)
				return ret;
			continue;
		}
		for (f = 0; f < VS_EN_NR; f++)
			if (!strcmp(key->text, flag_names[f]))
				break;
		if (f == VS_EN_NR)
			return fail(ps, key->line, "unknown key \"%s\" in plugin %s",
				    quote(&q, key->text), quote(&q2, name));
		ret = parse_flag(ps, val, (enum vs_en_flag)f, cp);
		if (ret)
			return ret;
	}
	return 0;
}

static int parse_tier(struct parse *ps, const struct ynode *n, struct vs_conf_tier *tier)
{
	const struct ynode *key, *val, *plugins = NULL;
	struct quoted q;
	u32 i;
	int ret;

	ret = want_struct(ps, n, "a tier");
	if (ret)
		return ret;
	for_each_pair(n, i, key, val) {
		if (strcmp(key->text, "plugins"))
			return fail(ps, key->line, "unknown key \"%s\" in a tier",
				    quote(&q, key->text));
		plugins = val;
	}
	if (!plugins || (ret = want_list(ps, plugins, "plugins")) || !plugins->nr)
		return ret;
	tier->plugins = calloc(plugins->nr, sizeof(*tier->plugins));
	if (!tier->plugins)
		return oom(ps);
	for (i = 0; i < plugins->nr; i++) {
		tier->nr++;
		ret = parse_plugin(ps, plugins->kids[i], &tier->plugins[i]);
		if (ret)
			return ret;
	}
	return 0;
}

static int parse_tiers(struct parse *ps, const struct ynode *n, struct vs_conf *conf)
{
	int ret = want_list(ps, n, "tiers");

	if (ret || !n->nr)
		return ret;
	conf->tiers = calloc(n->nr, sizeof(*conf->tiers));
	if (!conf->tiers)
		return oom(ps);
	for (u32 i = 0; i < n->nr; i++) {
		conf->nr_tiers++;
		ret = parse_tier(ps, n->kids[i], &conf->tiers[i]);
		if (ret)
			return ret;
	}
	return 0;
}

static int parse_configuration(struct parse *ps, const struct ynode *n, struct vs_conf *conf,
			       struct vs_conf_action *ca)
{
	const struct ynode *key, *val;
	const char *const *known;
	const char *name;
	u32 name_line;
	struct quoted q, q2;
	u32 i, nr_known;
	int ret;

	ca->line = n->line;
	ca->args.source = ps->source;
	ret = want_struct(ps, n, "a configuration");
	if (ret)
		return ret;
	known = action_list(ps, &nr_known);
	ret = take_name(ps, n, "a configuration", "action", known, nr_known, &ca->name,
			&name_line);
	if (ret)
		return ret;
	name = ca->name;
	for (struct vs_conf_action *prev = conf->configurations; prev < ca; prev++)
		if (!strcmp(prev->name, name))
			return fail(ps, name_line,
				    "a second configuration for action %s (first on line %u)",
				    quote(&q, name), prev->line);

	for_each_pair(n, i, key, val) {
		if (!strcmp(key->text, "name"))
			continue;
		if (strcmp(key->text, "arguments"))
			return fail(ps, key->line, "unknown key \"%s\" in configuration %s",
				    quote(&q, key->text), quote(&q2, name));
		ret = want_args(ps, val, &ca->args);
		if (ret)
			return ret;
	}
	return 0;
}

static int parse_configurations(struct parse *ps, const struct ynode *n, struct vs_conf *conf)
{
	int ret = want_list(ps, n, "configurations");

	if (ret || !n->nr)
		return ret;
	conf->configurations = calloc(n->nr, sizeof(*conf->configurations));
	if (!conf->configurations)
		return oom(ps);
	for (u32 i = 0; i < n->nr; i++) {
		conf->nr_configurations++;
		ret = parse_configuration(ps, n->kids[i], conf, &conf->configurations[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/* "metrics": map[string]string, so every value is a scalar kept as its text. */
static int parse_metrics(struct parse *ps, const struct ynode *n, struct vs_args *out)
{
	const struct ynode *key, *val;
	struct quoted q;
	u32 i;

	out->source = ps->source;
	if (ynull(n))
		return 0;
	if (n->kind != Y_MAP)
		return fail(ps, n->line, "metrics must be a mapping");
	if (!n->nr)
		return 0;
	out->kv = calloc(n->nr / 2, sizeof(*out->kv));
	if (!out->kv)
		return oom(ps);
	for_each_pair(n, i, key, val) {
		struct vs_arg_kv *kv = &out->kv[out->nr];

		if (val->kind != Y_SCALAR)
			return fail(ps, val->line, "metrics value \"%s\" must be a string",
				    quote(&q, key->text));
		kv->key = strdup(key->text);
		if (!kv->key)
			return oom(ps);
		kv->line = key->line;
		out->nr++;
		kv->val.type = VS_ARG_STRING;
		kv->val.line = val->line;
		kv->val.s = strdup(ynull(val) ? "" : val->text);
		if (!kv->val.s)
			return oom(ps);
	}
	return 0;
}

/* UnmarshalSchedulerConf refuses hierarchical drf next to proportion in one tier. */
static int check_hierarchy_conflict(struct parse *ps, const struct vs_conf *conf)
{
	for (u32 t = 0; t < conf->nr_tiers; t++) {
		const struct vs_conf_plugin *hdrf = NULL;
		bool proportion = false;

		for (u32 i = 0; i < conf->tiers[t].nr; i++) {
			const struct vs_conf_plugin *cp = &conf->tiers[t].plugins[i];

			/* only a written "true" counts: Volcano checks before its defaults */
			if (!strcmp(cp->name, "drf") &&
			    (cp->flags_set & cp->flags_on & (1u << VS_EN_HIERARCHY)))
				hdrf = hdrf ? hdrf : cp;
			if (!strcmp(cp->name, "proportion"))
				proportion = true;
		}
		if (hdrf && proportion)
			return fail(ps, hdrf->line,
				    "proportion and drf with hierarchy enabled conflict");
	}
	return 0;
}

static int parse_root(struct parse *ps, const struct ynode *root, struct vs_conf *conf)
{
	const struct ynode *key, *val, *actions = NULL;
	struct quoted q;
	u32 i;
	int ret = 0;

	if (!root || ynull(root))
		return fail(ps, root ? root->line : 1, "no actions (the file is empty)");
	if (root->kind != Y_MAP)
		return fail(ps, root->line, "expected a mapping with actions and tiers");
	for_each_pair(root, i, key, val) {
		if (!strcmp(key->text, "actions"))
			ret = parse_actions(ps, actions = val, conf);
		else if (!strcmp(key->text, "tiers"))
			ret = parse_tiers(ps, val, conf);
		else if (!strcmp(key->text, "configurations"))
			ret = parse_configurations(ps, val, conf);
		else if (!strcmp(key->text, "metrics"))
			ret = parse_metrics(ps, val, &conf->metrics);
		else
			ret = fail(ps, key->line, "unknown key \"%s\"", quote(&q, key->text));
		if (ret)
			return ret;
	}
	if (!actions)
		return fail(ps, root->line, "no actions");
	return check_hierarchy_conflict(ps, conf);
}

static void apply_defaults(struct vs_conf *conf, enum vs_conf_flag_default def)
{
	if (def != VS_CONF_FLAGS_DEFAULT_ON)
		return;
	for (u32 t = 0; t < conf->nr_tiers; t++) {
		for (u32 i = 0; i < conf->tiers[t].nr; i++) {
			struct vs_conf_plugin *cp = &conf->tiers[t].plugins[i];

			cp->flags_on |= DEFAULT_ON_FLAGS & ~cp->flags_set;
		}
	}
}

int vs_conf_parse(const char *text, size_t len, const char *source,
		  const struct vs_conf_names *names, enum vs_conf_flag_default def,
		  struct vs_conf **out, struct vs_err *err)
{
	struct parse ps = { .source = source ? source : "configuration", .names = names,
			    .err = err };
	struct ynode *root;
	struct vs_conf *conf;
	int ret;

	*out = NULL;
	if (!text && len)
		return vs_err_set(err, EINVAL, "%s: no text", ps.source);
	conf = calloc(1, sizeof(*conf));
	if (!conf)
		return oom(&ps);
	conf->source = strdup(ps.source);
	if (!conf->source) {
		free(conf);
		return oom(&ps);
	}
	conf->text = malloc(len + 1);
	if (!conf->text) {
		vs_conf_free(conf);
		return oom(&ps);
	}
	if (len)
		memcpy(conf->text, text, len);
	conf->text[len] = '\0';
	conf->text_len = len;
	/* every vs_args.source points at the copy the configuration owns */
	ps.source = conf->source;
	conf->metrics.source = conf->source;

	ret = load_tree(&ps, text ? text : "", len, &root);
	if (!ret)
		ret = parse_root(&ps, root, conf);
	ynode_free(root);
	if (ret) {
		vs_conf_free(conf);
		return ret;
	}
	apply_defaults(conf, def);
	*out = conf;
	return 0;
}

int vs_conf_load_file(const char *path, const struct vs_conf_names *names,
		      struct vs_conf **out, struct vs_err *err)
{
	size_t len;
	char *buf;
	int ret;

	*out = NULL;
	ret = vs_read_regular_file(path, CONF_FILE_MAX, &buf, &len, err);
	if (ret)
		return ret;
	ret = vs_conf_parse(buf, len, path, names, VS_CONF_FLAGS_DEFAULT_ON, out, err);
	free(buf);
	return ret;
}

void vs_conf_free(struct vs_conf *conf)
{
	if (!conf)
		return;
	for (u32 i = 0; i < conf->nr_actions; i++)
		free(conf->actions[i]);
	free(conf->actions);
	for (u32 t = 0; t < conf->nr_tiers; t++) {
		for (u32 i = 0; i < conf->tiers[t].nr; i++) {
			free(conf->tiers[t].plugins[i].name);
			args_free(&conf->tiers[t].plugins[i].args);
		}
		free(conf->tiers[t].plugins);
	}
	free(conf->tiers);
	for (u32 i = 0; i < conf->nr_configurations; i++) {
		free(conf->configurations[i].name);
		args_free(&conf->configurations[i].args);
	}
	free(conf->configurations);
	args_free(&conf->metrics);
	free(conf->text);
	free(conf->source);
	free(conf);
}

const struct vs_args *vs_conf_action_args(const struct vs_conf *conf, const char *action)
{
	if (!conf)
		return NULL;
	for (u32 i = 0; i < conf->nr_configurations; i++)
		if (!strcmp(conf->configurations[i].name, action))
			return &conf->configurations[i].args;
	return NULL;
}

/* ---- typed getters ---- */

const struct vs_arg *vs_args_find(const struct vs_args *args, const char *key)
{
	if (!args)
		return NULL;
	for (u32 i = 0; i < args->nr; i++)
		if (!strcmp(args->kv[i].key, key))
			return &args->kv[i].val;
	return NULL;
}

static int wrong_type(const struct vs_args *args, const char *key, const struct vs_arg *a,
		      const char *expected, struct vs_err *err)
{
	const char *source = args->source ? args->source : "configuration";
	struct quoted qk, qv;
	char got[QUOTE_MAX + 8];

	switch (a->type) {
	case VS_ARG_NULL:
		snprintf(got, sizeof(got), "null");
		break;
	case VS_ARG_BOOL:
		snprintf(got, sizeof(got), "%s", a->b ? "true" : "false");
		break;
	case VS_ARG_INT:
		snprintf(got, sizeof(got), "%lld", (long long)a->i);
		break;
	case VS_ARG_FLOAT:
		snprintf(got, sizeof(got), "%g", a->f);
		break;
	case VS_ARG_STRING:
		snprintf(got, sizeof(got), "\"%s\"", quote(&qv, a->s));
		break;
	case VS_ARG_MAP:
		snprintf(got, sizeof(got), "a mapping");
		break;
	case VS_ARG_SEQ:
		snprintf(got, sizeof(got), "a list");
		break;
	}
	return vs_err_set(err, EINVAL, "%s:%u: argument \"%s\": expected %s, got %s",
			  source, a->line, quote(&qk, key), expected, got);
}

int vs_args_get_int(const struct vs_args *args, const char *key, s64 *out, struct vs_err *err)
{
	const struct vs_arg *a = vs_args_find(args, key);

	if (!a)
		return 0;
	if (a->type != VS_ARG_INT)
		return wrong_type(args, key, a, "an integer", err);
	*out = a->i;
	return 0;
}

int vs_args_get_float(const struct vs_args *args, const char *key, double *out,
		      struct vs_err *err)
{
	const struct vs_arg *a = vs_args_find(args, key);

	if (!a)
		return 0;
	if (a->type == VS_ARG_INT)
		*out = (double)a->i;
	else if (a->type == VS_ARG_FLOAT)
		*out = a->f;
	else
		return wrong_type(args, key, a, "a number", err);
	return 0;
}

/* strconv.ParseBool's spellings, which GetBool accepts in a string. */
static int parse_bool(const char *s)
{
	static const char *const t[] = { "1", "t", "T", "TRUE", "true", "True" };
	static const char *const f[] = { "0", "f", "F", "FALSE", "false", "False" };

	for (size_t i = 0; i < ARRAY_SIZE(t); i++)
		if (!strcmp(s, t[i]))
			return 1;
	for (size_t i = 0; i < ARRAY_SIZE(f); i++)
		if (!strcmp(s, f[i]))
			return 0;
	return -1;
}

int vs_args_get_bool(const struct vs_args *args, const char *key, bool *out, struct vs_err *err)
{
	const struct vs_arg *a = vs_args_find(args, key);
	int b;

	if (!a)
		return 0;
	if (a->type == VS_ARG_BOOL) {
		*out = a->b;
		return 0;
	}
	if (a->type == VS_ARG_STRING && (b = parse_bool(a->s)) >= 0) {
		*out = b;
		return 0;
	}
	return wrong_type(args, key, a, "true or false", err);
}

int vs_args_get_string(const struct vs_args *args, const char *key, const char **out,
		       struct vs_err *err)
{
	const struct vs_arg *a = vs_args_find(args, key);

	if (!a)
		return 0;
	if (a->type != VS_ARG_STRING)
		return wrong_type(args, key, a, "a string", err);
	*out = a->s;
	return 0;
}

int vs_args_for_each_name(const struct vs_args *args, const char *key,
			  int (*fn)(const char *name, void *ctx), void *ctx)
{
	const char *list = NULL, *p;
	char name[256];

	vs_args_get_string(args, key, &list, NULL);
	for (p = list; p && *p;) {
		const char *comma = strchr(p, ',');
		const char *end = comma ? comma : p + strlen(p);
		size_t n;
		int ret;

		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		n = (size_t)(end - p);
		while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
			n--;
		if (n && n < sizeof(name)) {
			memcpy(name, p, n);
			name[n] = '\0';
			if ((ret = fn(name, ctx)))
				return ret;
		}
		p = comma ? comma + 1 : end;
	}
	return 0;
}

/* ---- formatting ---- */

struct outbuf {
	char *buf;
	size_t len, pos;
};

__printf(2, 3)
static void put(struct outbuf *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->pos < o->len ? o->buf + o->pos : NULL,
		      o->pos < o->len ? o->len - o->pos : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->pos += (size_t)n;
}

/* The code point at @s and its length in bytes, or 0 for invalid UTF-8. */
static int utf8_decode(const unsigned char *s, u32 *cp)
{
	int len = s[0] < 0x80 ? 1 : s[0] >= 0xf0 && s[0] < 0xf5 ? 4 :
		  s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
	u32 c = len == 1 ? s[0] : s[0] & (0x7f >> len);

	if (!len || (len > 1 && s[0] >= 0xf5))
		return 0;
	for (int i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && c < 0x800) || (len == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

/*
 * A double-quoted YAML string. Escaped: what libyaml's reader refuses raw
 * (C0 and C1 controls, DEL, U+FFFE/F) and what YAML folds as a line break
 * inside quotes (NEL, U+2028/9), and U+FEFF. Bytes that are not UTF-8 cannot
 * be written in YAML at all; they come out as \xNN, which reads back as that
 * code point (never the case for text libyaml read, which is valid UTF-8).
 */
static void put_escaped(struct outbuf *o, const char *s)
{
	while (*s) {
		const unsigned char *u = (const unsigned char *)s;
		u32 cp;
		int len = utf8_decode(u, &cp);

		if (!len) {
			put(o, "\\x%02x", u[0]);
			s++;
			continue;
		}
		if (cp == '"' || cp == '\\')
			put(o, "\\%c", (char)cp);
		else if (cp < 0x20 || cp == 0x7f)
			put(o, "\\x%02x", cp);
		else if ((cp >= 0x80 && cp <= 0x9f) || cp == 0x2028 || cp == 0x2029 ||
			 cp == 0xfeff || cp == 0xfffe || cp == 0xffff)
			put(o, "\\u%04x", cp);
		else
			put(o, "%.*s", len, s);
		s += len;
	}
}

static void put_string(struct outbuf *o, const char *s)
{
	put(o, "\"");
	put_escaped(o, s);
	put(o, "\"");
}

static void put_float(struct outbuf *o, double f)
{
	char num[40];

	if (isnan(f)) {
		put(o, ".nan");
		return;
	}
	if (isinf(f)) {
		put(o, "%s.inf", f < 0 ? "-" : "");
		return;
	}
	/* %.17g reads back to the same double; keep a '.' or 'e' so it stays a float */
	snprintf(num, sizeof(num), "%.17g", f);
	put(o, "%s%s", num, strpbrk(num, ".e") ? "" : ".0");
}

static void put_arg(struct outbuf *o, const struct vs_arg *a);

static void put_args(struct outbuf *o, const struct vs_args *args)
{
	put(o, "{");
	for (u32 i = 0; i < args->nr; i++) {
		put(o, "%s", i ? ", " : "");
		put_string(o, args->kv[i].key);
		put(o, ": ");
		put_arg(o, &args->kv[i].val);
	}
	put(o, "}");
}

static void put_arg(struct outbuf *o, const struct vs_arg *a)
{
	switch (a->type) {
	case VS_ARG_NULL:
		put(o, "null");
		break;
	case VS_ARG_BOOL:
		put(o, "%s", a->b ? "true" : "false");
		break;
	case VS_ARG_INT:
		put(o, "%lld", (long long)a->i);
		break;
	case VS_ARG_FLOAT:
		put_float(o, a->f);
		break;
	case VS_ARG_STRING:
		put_string(o, a->s);
		break;
	case VS_ARG_MAP:
		put_args(o, a->map);
		break;
	case VS_ARG_SEQ:
		put(o, "[");
		for (u32 i = 0; i < a->seq.nr; i++) {
			put(o, "%s", i ? ", " : "");
			put_arg(o, &a->seq.items[i]);
		}
		put(o, "]");
		break;
	}
}

size_t vs_conf_format(const struct vs_conf *conf, char *buf, size_t len)
{
	struct outbuf o = { .buf = buf, .len = len };

	if (buf && len)
		buf[0] = '\0';
	else
		o.len = 0;
	put(&o, "actions: \"");
	for (u32 i = 0; i < conf->nr_actions; i++) {
		put(&o, "%s", i ? ", " : "");
		put_escaped(&o, conf->actions[i]);
	}
	put(&o, "\"\n");
	if (conf->nr_tiers)
		put(&o, "tiers:\n");
	for (u32 t = 0; t < conf->nr_tiers; t++) {
		if (!conf->tiers[t].nr)
			put(&o, "- plugins: []\n");
		else
			put(&o, "- plugins:\n");
		for (u32 i = 0; i < conf->tiers[t].nr; i++) {
			const struct vs_conf_plugin *cp = &conf->tiers[t].plugins[i];

			put(&o, "  - name: ");
			put_string(&o, cp->name);
			put(&o, "\n");
			for (int f = 0; f < VS_EN_NR; f++)
				put(&o, "    %s: %s\n", flag_names[f],
				    cp->flags_on & (1u << f) ? "true" : "false");
			if (cp->args.nr) {
				put(&o, "    arguments: ");
				put_args(&o, &cp->args);
				put(&o, "\n");
			}
		}
	}
	if (conf->nr_configurations)
		put(&o, "configurations:\n");
	for (u32 i = 0; i < conf->nr_configurations; i++) {
		put(&o, "- name: ");
		put_string(&o, conf->configurations[i].name);
		put(&o, "\n  arguments: ");
		put_args(&o, &conf->configurations[i].args);
		put(&o, "\n");
	}
	if (conf->metrics.nr) {
		put(&o, "metrics: ");
		put_args(&o, &conf->metrics);
		put(&o, "\n");
	}
	return o.pos;
}
