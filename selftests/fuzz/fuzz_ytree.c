// SPDX-License-Identifier: Apache-2.0
/*
 * Fuzz target: libvsnl's YAML tree (userspace/lib/ytree.h) against the
 * core's reader (vs_yaml_parse(), kernel/sched/conf.h). The input is a
 * YAML text.
 *
 * What must hold whatever the bytes: the two readers accept the same texts
 * and build the same tree (types, values, keys, lines), or refuse with the
 * same errno and message, which names the file and a line the text has.
 * The tree's stream of documents accepts what the one-document reader
 * accepts, as one document or none with the same root; whatever it
 * accepts has documents in order of their lines, and every node of a
 * document on or after the line the document starts on.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "fuzz.h"
#include "lib/ytree.h"
#include "sched/conf.h"

#define SOURCE	"fuzz.yaml"

/* The line a message may name at most: libyaml's breaks, and one past. */
static unsigned long last_line(const uint8_t *data, size_t size)
{
	return 2 + fuzz_line_breaks(data, size, false);
}

static void check_where(const char *msg, const uint8_t *data, size_t size)
{
	unsigned long line;
	char *end;

	FUZZ_ASSERT(!strncmp(msg, SOURCE ":", strlen(SOURCE ":")), "not named: %s", msg);
	msg += strlen(SOURCE ":");
	if (*msg < '0' || *msg > '9')
		return;		/* "FILE: out of memory" */
	line = strtoul(msg, &end, 10);
	FUZZ_ASSERT(*end == ':' && line >= 1 && line <= last_line(data, size),
		    "line %lu of %lu: %s", line, last_line(data, size), msg);
}

static void same_node(const struct vsnl_ynode *n, const struct vs_arg *a)
{
	FUZZ_ASSERT((int)n->type == (int)a->type, "type %d, the core's %d", (int)n->type,
		    (int)a->type);
	FUZZ_ASSERT(n->line == a->line, "line %u, the core's %u", n->line, a->line);
	switch (a->type) {
	case VS_ARG_BOOL:
		FUZZ_ASSERT(n->b == a->b, "bool");
		break;
	case VS_ARG_INT:
		FUZZ_ASSERT(n->i == a->i, "%lld, the core's %lld", (long long)n->i,
			    (long long)a->i);
		break;
	case VS_ARG_FLOAT:
		FUZZ_ASSERT(isnan(n->f) ? isnan(a->f) : !memcmp(&n->f, &a->f, sizeof(n->f)),
			    "%g, the core's %g", n->f, a->f);
		break;
	case VS_ARG_STRING:
		FUZZ_ASSERT(!strcmp(n->text, a->s), "\"%s\", the core's \"%s\"", n->text, a->s);
		break;
	case VS_ARG_MAP:
		FUZZ_ASSERT(n->map.nr == a->map->nr, "%u keys, the core's %u", n->map.nr,
			    a->map->nr);
		for (u32 i = 0; i < a->map->nr; i++) {
			FUZZ_ASSERT(!strcmp(n->map.pairs[i].key, a->map->kv[i].key), "key \"%s\"",
				    a->map->kv[i].key);
			FUZZ_ASSERT(n->map.pairs[i].line == a->map->kv[i].line, "key \"%s\" line",
				    a->map->kv[i].key);
			same_node(&n->map.pairs[i].val, &a->map->kv[i].val);
		}
		break;
	case VS_ARG_SEQ:
		FUZZ_ASSERT(n->seq.nr == a->seq.nr, "%u items, the core's %u", n->seq.nr,
			    a->seq.nr);
		for (u32 i = 0; i < a->seq.nr; i++)
			same_node(&n->seq.items[i], &a->seq.items[i]);
		break;
	default:
		break;
	}
}

/* Two trees of the tree's own are the same. */
static void same_tree(const struct vsnl_ynode *x, const struct vsnl_ynode *y)
{
	FUZZ_ASSERT(x->type == y->type && x->line == y->line && x->col == y->col,
		    "the stream's document differs at line %u", x->line);
	FUZZ_ASSERT(!x->text == !y->text && (!x->text || !strcmp(x->text, y->text)), "text");
	if (x->type == VSNL_Y_MAP) {
		FUZZ_ASSERT(x->map.nr == y->map.nr, "keys");
		for (u32 i = 0; i < x->map.nr; i++) {
			FUZZ_ASSERT(!strcmp(x->map.pairs[i].key, y->map.pairs[i].key), "key");
			same_tree(&x->map.pairs[i].val, &y->map.pairs[i].val);
		}
	} else if (x->type == VSNL_Y_SEQ) {
		FUZZ_ASSERT(x->seq.nr == y->seq.nr, "items");
		for (u32 i = 0; i < x->seq.nr; i++)
			same_tree(&x->seq.items[i], &y->seq.items[i]);
	}
}

/* Every node of a document from line @from on. */
static void from_line(const struct vsnl_ynode *n, u32 from)
{
	FUZZ_ASSERT(n->line >= from, "a node on line %u, its document from %u", n->line, from);
	if (n->type == VSNL_Y_MAP) {
		for (u32 i = 0; i < n->map.nr; i++) {
			FUZZ_ASSERT(n->map.pairs[i].line >= from, "a key before its document");
			from_line(&n->map.pairs[i].val, from);
		}
	} else if (n->type == VSNL_Y_SEQ) {
		for (u32 i = 0; i < n->seq.nr; i++)
			from_line(&n->seq.items[i], from);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vs_err ce = { { 0 } };
	struct vsnl_err e = { 0 }, de = { 0 };
	struct vsnl_ydocs docs;
	struct vsnl_ynode n;
	struct vs_arg a;
	const char *text = (const char *)data;
	int core, tree, stream;

	core = vs_yaml_parse(text, size, SOURCE, &a, &ce);
	tree = vsnl_yaml_parse(text, size, SOURCE, &n, &e);
	FUZZ_ASSERT(tree == core, "the tree answers %d (%s), the core %d (%s)", tree, e.msg, core,
		    ce.msg);
	if (core) {
		FUZZ_ASSERT(!strcmp(e.msg, ce.msg), "\"%s\", the core's \"%s\"", e.msg, ce.msg);
		FUZZ_ASSERT(n.type == VSNL_Y_NULL && !n.text, "a refusal leaves nothing");
		check_where(e.msg, data, size);
	} else {
		same_node(&n, &a);
	}

	stream = vsnl_yaml_parse_docs(text, size, SOURCE, &docs, &de);
	if (!tree) {
		FUZZ_ASSERT(!stream, "the stream refuses what one document takes: %s", de.msg);
		FUZZ_ASSERT(docs.nr <= 1, "%u documents where one was read", docs.nr);
		if (docs.nr)
			same_tree(&docs.docs[0].root, &n);
		else
			FUZZ_ASSERT(n.type == VSNL_Y_NULL && !n.text, "no document, a null");
	}
	if (stream) {
		FUZZ_ASSERT(!docs.nr && !docs.docs, "a refusal leaves nothing");
		check_where(de.msg, data, size);
	}
	for (u32 i = 0; i < docs.nr; i++) {
		FUZZ_ASSERT(docs.docs[i].line >= 1 && docs.docs[i].line <= last_line(data, size),
			    "document %u on line %u", i, docs.docs[i].line);
		FUZZ_ASSERT(!i || docs.docs[i].line >= docs.docs[i - 1].line, "out of order");
		from_line(&docs.docs[i].root, docs.docs[i].line);
	}
	vsnl_ydocs_free(&docs);
	vsnl_ynode_free(&n);
	vs_arg_free(&a);
	return 0;
}
