// SPDX-License-Identifier: Apache-2.0
/*
 * libvsnl's YAML tree against the core's reader: vskube reads its
 * kubeconfig files with the first, the daemon its configuration with the
 * second, and both follow yaml.v2. A text one takes the other must take
 * as the same types, values and lines, and one it refuses the other must
 * refuse with the same message.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <criterion/criterion.h>

#include "sched/conf.h"
#include "lib/file.h"
#include "lib/ytree.h"

TestSuite(client_ytree);

/* Node @n of the tree and value @a of the core hold the same; @where names it. */
static void same_node(const struct vsnl_ynode *n, const struct vs_arg *a, const char *where)
{
	char inner[256];

	cr_assert_eq((int)n->type, (int)a->type, "%s: the tree says %s, the core type %d", where,
		     vsnl_ytype_name(n->type), (int)a->type);
	cr_assert_eq(n->line, a->line, "%s: line %u, the core's %u", where, n->line, a->line);
	switch (a->type) {
	case VS_ARG_BOOL:
		cr_assert_eq(n->b, a->b, "%s", where);
		break;
	case VS_ARG_INT:
		cr_assert_eq(n->i, a->i, "%s: %lld, the core's %lld", where, (long long)n->i,
			     (long long)a->i);
		break;
	case VS_ARG_FLOAT:
		cr_assert(isnan(n->f) ? isnan(a->f) : !memcmp(&n->f, &a->f, sizeof(n->f)),
			  "%s: %g, the core's %g", where, n->f, a->f);
		break;
	case VS_ARG_STRING:
		cr_assert_str_eq(n->text, a->s, "%s", where);
		break;
	case VS_ARG_MAP:
		cr_assert_eq(n->map.nr, a->map->nr, "%s: %u keys, the core's %u", where, n->map.nr,
			     a->map->nr);
		for (u32 i = 0; i < a->map->nr; i++) {
			const struct vsnl_ypair *p = &n->map.pairs[i];

			snprintf(inner, sizeof(inner), "%s.%s", where, a->map->kv[i].key);
			cr_assert_str_eq(p->key, a->map->kv[i].key, "%s", inner);
			cr_assert_eq(p->line, a->map->kv[i].line, "%s: key on line %u, the core's %u",
				     inner, p->line, a->map->kv[i].line);
			cr_assert_eq(vsnl_ymap_get(n, p->key), &p->val, "%s: found", inner);
			same_node(&p->val, &a->map->kv[i].val, inner);
		}
		break;
	case VS_ARG_SEQ:
		cr_assert_eq(n->seq.nr, a->seq.nr, "%s: %u items, the core's %u", where, n->seq.nr,
			     a->seq.nr);
		for (u32 i = 0; i < a->seq.nr; i++) {
			snprintf(inner, sizeof(inner), "%s[%u]", where, i);
			same_node(&n->seq.items[i], &a->seq.items[i], inner);
		}
		break;
	default:
		break;
	}
}

/*
 * Both readers on @text; they must agree. Returns what they answered; the
 * tree's message is left in @msg (of VSNL_ERR_MSG_MAX bytes) when not NULL.
 */
static int same(const char *text, size_t len, char *msg)
{
	struct vs_err ce = { { 0 } };
	struct vsnl_err e = { 0 };
	struct vs_arg a;
	struct vsnl_ynode n;
	int core = vs_yaml_parse(text, len, "f.yaml", &a, &ce);
	int tree = vsnl_yaml_parse(text, len, "f.yaml", &n, &e);

	cr_assert_eq(tree, core, "\"%.*s\": the tree answers %d (%s), the core %d (%s)", (int)len,
		     text, tree, e.msg, core, ce.msg);
	if (core) {
		cr_assert_str_eq(e.msg, ce.msg, "\"%.*s\"", (int)len, text);
		cr_assert_eq(n.type, VSNL_Y_NULL, "a refused text leaves nothing built");
		cr_assert_null(n.text);
	} else {
		same_node(&n, &a, "root");
	}
	if (msg)
		snprintf(msg, VSNL_ERR_MSG_MAX, "%s", e.msg);
	vs_arg_free(&a);
	vsnl_ynode_free(&n);
	return tree;
}

static int same_str(const char *text, char *msg)
{
	return same(text, strlen(text), msg);
}

/* @text is refused by both with a message that holds @what. */
static void refused(const char *text, const char *what)
{
	char msg[VSNL_ERR_MSG_MAX];

	cr_assert_eq(same_str(text, msg), -EINVAL, "\"%s\" is refused", text);
	cr_assert(strstr(msg, what), "\"%s\": \"%s\" says \"%s\"", text, msg, what);
}

Test(client_ytree, scalars_of_every_kind_get_the_cores_types_and_values)
{
	static const char *const scalars[] = {
		/* null */
		"", "~", "null", "Null", "NULL", "nUll",
		/* bool, YAML 1.1 */
		"yes", "Yes", "YES", "y", "Y", "no", "n", "N", "on", "On", "OFF", "true", "False",
		"TRUE", "tRue", "yEs",
		/* int */
		"0", "-0", "+12", "017", "0o17", "0x1f", "0X1F", "0b101", "-0b101", "0b-101",
		"1_000", "9223372036854775807", "-9223372036854775808", "0x7fffffffffffffff",
		"08", "0_", "_1", "0b", "0x", "0o", "0b102",
		/* float */
		"1e3", "1E3", "1.5", "-1.5", ".5", "-.5", "+.5", "5.", "1.5e-3", "1e400", "1e-400",
		".inf", "-.Inf", "+.INF", ".nan", ".NaN", "1_0.5", ".5_0", "._5", ".5_", "1__0",
		"1e", "e3", "0x1p3", "12e3_0", "1_e3",
		/* string */
		"abc", "2024-01-02", "12:30", "1.2.3", "Infinity", "NaN", "inf", "0xg", "- x",
		"+", "-", ".", "=", "\u00e9t\u00e9", "a b", "o", "t", "1.5Gi", "500m",
	};
	/* where each is written: plain, then quoted or tagged strings, then as a key */
	static const struct {
		const char *before, *after;
	} places[] = {
		{ "v: ", "\n" }, { "- ", "\n" }, { "", "" }, { "v: \"", "\"\n" }, { "v: '", "'\n" },
		{ "v: !!str ", "\n" }, { "v: ! ", "\n" }, { "", ": 1\n" },
	};
	char text[128];

	for (size_t i = 0; i < ARRAY_SIZE(scalars); i++) {
		for (size_t p = 0; p < ARRAY_SIZE(places); p++) {
			snprintf(text, sizeof(text), "%s%s%s", places[p].before, scalars[i],
				 places[p].after);
			same_str(text, NULL);
		}
	}
}

Test(client_ytree, the_types_are_yaml_v2s)
{
	struct vsnl_ynode n;
	struct vsnl_err e = { 0 };
	const char *text = "a: yes\nb: 0x1f\nc: 1e3\nd: ~\ne: \"1\"\nf: 017\ng: on\nh: 1_000\n";

	cr_assert_eq(vsnl_yaml_parse(text, strlen(text), "t", &n, &e), 0, "%s", e.msg);
	cr_assert_eq(vsnl_ymap_get(&n, "a")->type, VSNL_Y_BOOL);
	cr_assert(vsnl_ymap_get(&n, "a")->b);
	cr_assert_eq(vsnl_ymap_get(&n, "b")->i, 31);
	cr_assert_eq(vsnl_ymap_get(&n, "c")->type, VSNL_Y_FLOAT);
	cr_assert_eq(vsnl_ymap_get(&n, "c")->f, 1000.0);
	cr_assert_str_eq(vsnl_ymap_get(&n, "c")->text, "1e3", "the text stays as written");
	cr_assert_eq(vsnl_ymap_get(&n, "d")->type, VSNL_Y_NULL);
	cr_assert_str_eq(vsnl_ystr(vsnl_ymap_get(&n, "e")), "1");
	cr_assert_eq(vsnl_ymap_get(&n, "f")->i, 15);
	cr_assert_eq(vsnl_ymap_get(&n, "g")->type, VSNL_Y_BOOL);
	cr_assert_eq(vsnl_ymap_get(&n, "h")->i, 1000);
	cr_assert_null(vsnl_ymap_get(&n, "z"));
	cr_assert_null(vsnl_ymap_get(vsnl_ymap_get(&n, "a"), "a"), "a bool has no keys");
	cr_assert_null(vsnl_ystr(vsnl_ymap_get(&n, "b")), "an int is no string");
	cr_assert_eq(vsnl_ymap_get(&n, "h")->line, 8);
	cr_assert_eq(vsnl_ymap_get(&n, "h")->col, 4);
	cr_assert_eq(n.map.pairs[7].col, 1);
	vsnl_ynode_free(&n);
}

Test(client_ytree, tagged_scalars_read_as_their_tags_say)
{
	static const char *const texts[] = {
		"v: !!int 12\n", "v: !!int 0x10\n", "v: !!float 12\n", "v: !!float 1.5\n",
		"v: !!bool yes\n", "v: !!str 12\n", "v: !!str\n", "!!int 12: v\n",
		"v: !!float .inf\n", "v: !!int \"12\"\n", "v: !!bool 'off'\n",
		"v: !<tag:yaml.org,2002:int> 7\n", "v: !!map {a: 1}\n", "v: !!seq [1]\n",
	};

	for (size_t i = 0; i < ARRAY_SIZE(texts); i++)
		cr_assert_eq(same_str(texts[i], NULL), 0, "%s", texts[i]);
}

Test(client_ytree, blocks_flows_and_nesting_keep_their_lines)
{
	static const char *const texts[] = {
		"a:\n  b:\n    c: 1\n  d: [1, two, 3.0, {e: f}]\n",
		"- a\n-\n  - b\n  - c: d\n    e: |\n      line one\n      line two\n- >-\n  folded\n  text\n",
		"{a: 1, b: [x, y], c: {d: ~}}\n",
		"\n\n# a comment\nkey: value  # another\nlist:\n- 1\n- 2\n",
		"k: |+\n  kept\n\n\nl: >\n  a\n  b\n\n  c\n",
		"? complex\n: value\n",
		"a: 'it''s'\nb: \"tab\\there \\u00e9\"\nc: \"multi\n  line\"\n",
		"--- \nstarts: explicitly\n...\n",
		"%YAML 1.1\n---\nv: 1\n",
		"&anchor a: 1\nb: &x 2\n",
		"a:\nb: \nc: []\nd: {}\n",
		"\xef\xbb\xbf" "bom: 1\n",
		"a:\r\n  b: 1\r\n",
		"",
		"# only a comment\n",
		"---\n",
		"[]\n",
		"plain\n  continued\n",
		"~: 1\n",
		"\"\": 1\n",
	};

	for (size_t i = 0; i < ARRAY_SIZE(texts); i++)
		cr_assert_eq(same_str(texts[i], NULL), 0, "%s", texts[i]);
}

Test(client_ytree, no_text_is_a_null_at_line_one)
{
	struct vsnl_ynode n;

	cr_assert_eq(vsnl_yaml_parse(NULL, 0, NULL, &n, NULL), 0);
	cr_assert_eq(n.type, VSNL_Y_NULL);
	cr_assert_eq(n.line, 1);
	cr_assert_null(n.text);
	vsnl_ynode_free(&n);
}

/* ---- the refusals, each as the core refuses it ---- */

Test(client_ytree, aliases_are_refused)
{
	refused("a: &x 1\nb: *x\n", "f.yaml:2: aliases (*x) are not supported");
}

Test(client_ytree, merge_keys_are_refused)
{
	refused("a: {x: 1}\nb:\n  <<: {y: 2}\n", "f.yaml:3: merge keys (<<) are not supported");
	cr_assert_eq(same_str("\"<<\": 1\n", NULL), 0, "a quoted << is a key like any");
}

Test(client_ytree, duplicate_keys_are_refused_at_the_first_repetition)
{
	refused("a: 1\nb: 2\nc: 3\nb: 4\na: 5\n",
		"f.yaml:4: duplicate key \"b\" (first on line 2)");
	refused("x:\n  k: 1\n  k: 2\n", "f.yaml:3: duplicate key \"k\" (first on line 2)");
	refused("~: 1\n\"\": 2\n", "f.yaml:2: duplicate key \"\" (first on line 1)");
	refused("{1: a, \"1\": b}\n", "duplicate key \"1\"");
}

Test(client_ytree, a_map_of_many_keys_finds_its_one_duplicate)
{
	size_t cap = 4000 * 16, len = 0;
	char *text = malloc(cap);

	cr_assert_not_null(text);
	for (int i = 0; i < 4000; i++)
		len += (size_t)snprintf(text + len, cap - len, "k%d: %d\n", i == 3999 ? 17 : i, i);
	cr_assert_eq(same(text, len, NULL), -EINVAL);
	len = 0;
	for (int i = 0; i < 4000; i++)
		len += (size_t)snprintf(text + len, cap - len, "k%d: %d\n", i, i);
	cr_assert_eq(same(text, len, NULL), 0);
	free(text);
}

Test(client_ytree, nesting_deeper_than_the_maximum_is_refused)
{
	char text[4 * VSNL_YAML_DEPTH_MAX + 8];

	cr_assert_eq(VSNL_YAML_DEPTH_MAX, VS_YAML_DEPTH_MAX, "the two readers' bound");
	for (int depth = VSNL_YAML_DEPTH_MAX - 1; depth <= VSNL_YAML_DEPTH_MAX + 1; depth++) {
		memset(text, '[', (size_t)depth);
		memset(text + depth, ']', (size_t)depth);
		text[2 * depth] = '\0';
		cr_assert_eq(same_str(text, NULL), depth > VSNL_YAML_DEPTH_MAX ? -EINVAL : 0,
			     "depth %d", depth);
	}
	refused(text, "f.yaml:1: nested more than 64 levels deep");
}

Test(client_ytree, unsupported_tags_are_refused)
{
	refused("v: !!binary aGk=\n", "f.yaml:1: tag !!binary is not supported here");
	refused("v: !custom x\n", "f.yaml:1: tag !custom is not supported");
	refused("v: !!map x\n", "f.yaml:1: tag !!map is not supported here");
	refused("v: !!str {a: 1}\n", "f.yaml:1: tag !!str is not supported here");
	refused("v: !!seq {a: 1}\n", "f.yaml:1: tag !!seq is not supported here");
}

Test(client_ytree, a_tagged_scalar_that_does_not_read_as_its_tag_is_refused)
{
	refused("v: !!int 1.5\n", "f.yaml:1: \"1.5\" is not a valid !!int");
	refused("v: !!float abc\n", "f.yaml:1: \"abc\" is not a valid !!float");
	refused("\n!!bool maybe: 1\n", "f.yaml:2: \"maybe\" is not a valid !!bool");
}

Test(client_ytree, a_nul_byte_in_a_string_is_refused)
{
	refused("v: \"a\\0b\"\n", "f.yaml:1: a string holds a NUL byte");
}

Test(client_ytree, a_key_that_is_a_collection_is_refused)
{
	refused("? [a, b]\n: 1\n", "f.yaml:1: a mapping key must be a string");
	refused("{? {a: 1} : 2}\n", "f.yaml:1: a mapping key must be a string");
}

Test(client_ytree, an_integer_beyond_64_signed_bits_is_refused)
{
	refused("a: 1\nb: 9223372036854775808\n",
		"f.yaml:2: integer 9223372036854775808 does not fit in 64 signed bits");
	refused("- 0xffffffffffffffff\n", "integer 0xffffffffffffffff does not fit");
	refused("a: 9223372036854775809\nb: 9223372036854775808\n",
		"f.yaml:1: integer 9223372036854775809 does not fit");
	refused("v: !!int 18446744073709551615\n", "f.yaml:1: integer");
	cr_assert_eq(same_str("9223372036854775808: 1\n", NULL), 0, "a key is its text");
	cr_assert_eq(same_str("v: 18446744073709551616\n", NULL), 0, "beyond 64 bits, a float");
	/* a broken text is told as broken before a number too big */
	refused("a: 9223372036854775808\nb: [\n", "f.yaml:3:1: did not find expected");
}

Test(client_ytree, a_second_document_is_refused_where_one_is_read)
{
	refused("a: 1\n---\nb: 2\n", "f.yaml:2: a second YAML document");
	refused("---\n---\n", "f.yaml:2: a second YAML document");
}

Test(client_ytree, syntax_errors_name_line_and_column)
{
	refused("a: [1, 2\n", "f.yaml:2:1: did not find expected ',' or ']' "
		"(while parsing a flow sequence on line 1)");
	refused("a: b: c\n", "f.yaml:1:5: mapping values are not allowed in this context");
	refused("a:\n  - 1\n b: 2\n", "f.yaml:3:");
	refused("v: \"unterminated\n", "f.yaml:2:1: found unexpected end of stream");
	refused("a: 1\nb: \xff\n", "f.yaml:2: invalid leading UTF-8 octet (0xff at byte 8)");
	refused("a: 1\n\tb: 2\n", "f.yaml:2:");
}

/* Texts built of YAML's own pieces: most are near misses of something. */
Test(client_ytree, random_texts_get_the_same_answer_from_both)
{
	static const char *const parts[] = {
		"a", "b", "k", ": ", ":", "\n", "\n  ", "\n    ", "- ", "-", "[", "]", "{", "}",
		", ", "\"", "'", "1", "0x", "e3", ".", "_", "~", "yes", "&a ", "*a", "!!int ",
		"!!str ", "!x ", "<<", "#c", "---\n", "? ", "|\n  ", ">\n  ", "\t", "\\0", "9223372036854775808",
	};
	unsigned int seed = 20261202;

	for (int n = 0; n < 20000; n++) {
		char text[512] = "";
		int len = rand_r(&seed) % 24 + 1;

		for (int i = 0; i < len; i++)
			strcat(text, parts[rand_r(&seed) % ARRAY_SIZE(parts)]);
		same_str(text, NULL);
	}
}

/* ---- streams of documents ---- */

/* Document @i of @text: what the core reads of its text alone, its lines shifted. */
static void same_doc(const char *text, const struct vsnl_ydoc *d, const char *end)
{
	struct vs_err ce = { { 0 } };
	const char *start = text;
	char *padded;
	struct vs_arg a;
	size_t len;

	for (u32 l = 1; l < d->line; l++)
		start = strchr(start, '\n') + 1;
	len = (size_t)(end - start);
	/* the document where it stands, the lines before it blank */
	padded = malloc(d->line + len);
	cr_assert_not_null(padded);
	memset(padded, '\n', d->line - 1);
	memcpy(padded + d->line - 1, start, len);
	cr_assert_eq(vs_yaml_parse(padded, d->line - 1 + len, "f.yaml", &a, &ce), 0, "%s",
		     ce.msg);
	same_node(&d->root, &a, "document");
	vs_arg_free(&a);
	free(padded);
}

Test(client_ytree, a_stream_gives_each_document_with_its_first_line)
{
	static const char text[] =
		"a: 1\n"
		"---\n"
		"# comment\n"
		"kind: Pod\n"
		"spec: {x: [1, 2]}\n"
		"---\n"
		"---\n"
		"- last\n"
		"...\n";
	static const u32 lines[] = { 1, 2, 6, 7 };
	struct vsnl_err e = { 0 };
	struct vsnl_ydocs docs;
	const char *next;

	cr_assert_eq(vsnl_yaml_parse_docs(text, strlen(text), "f.yaml", &docs, &e), 0, "%s",
		     e.msg);
	cr_assert_eq(docs.nr, 4);
	for (u32 i = 0; i < docs.nr; i++) {
		cr_assert_eq(docs.docs[i].line, lines[i], "document %u starts on line %u", i,
			     docs.docs[i].line);
		next = text;
		for (u32 l = 1; l < (i + 1 < docs.nr ? docs.docs[i + 1].line : 10); l++)
			next = strchr(next, '\n') + 1;
		same_doc(text, &docs.docs[i], next);
	}
	cr_assert_eq(docs.docs[2].root.type, VSNL_Y_NULL, "an empty document is a null");
	cr_assert_str_eq(vsnl_ystr(vsnl_ymap_get(&docs.docs[1].root, "kind")), "Pod");
	cr_assert_eq(vsnl_ymap_get(&docs.docs[1].root, "kind")->line, 4);
	vsnl_ydocs_free(&docs);
	cr_assert_eq(docs.nr, 0);

	cr_assert_eq(vsnl_yaml_parse_docs("", 0, "f.yaml", &docs, &e), 0);
	cr_assert_eq(docs.nr, 0, "no text, no document");
	vsnl_ydocs_free(&docs);
}

Test(client_ytree, a_stream_refuses_with_the_line_in_the_file)
{
	static const char text[] = "a: 1\n---\nb: 2\n---\nc: &x 1\nd: *x\n";
	static const char dup[] = "a: 1\n---\nb: 2\nb: 3\n";
	static const char big[] = "a: 18446744073709551615\n---\nb: [\n";
	struct vsnl_err e = { 0 };
	struct vsnl_ydocs docs;

	cr_assert_eq(vsnl_yaml_parse_docs(text, strlen(text), "f.yaml", &docs, &e), -EINVAL);
	cr_assert_str_eq(e.msg, "f.yaml:6: aliases (*x) are not supported");
	cr_assert_eq(docs.nr, 0, "nothing is left built");
	cr_assert_null(docs.docs);
	cr_assert_eq(vsnl_yaml_parse_docs(dup, strlen(dup), "f.yaml", &docs, &e), -EINVAL);
	cr_assert_str_eq(e.msg, "f.yaml:4: duplicate key \"b\" (first on line 3)");
	cr_assert_eq(vsnl_yaml_parse_docs(big, strlen(big), "f.yaml", &docs, &e), -EINVAL);
	cr_assert(strstr(e.msg, "f.yaml:4:1: "), "the broken text first: %s", e.msg);
}

/* ---- files ---- */

Test(client_ytree, a_file_is_read_and_named_in_its_messages)
{
	char path[] = "/tmp/vsnl-ytree-XXXXXX";
	struct vsnl_err e = { 0 };
	struct vsnl_ynode n;
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, "a: 1\na: 2\n", 10), 10);
	close(fd);
	cr_assert_eq(vsnl_yaml_read_file(path, 1024, 0, &n, &e), -EINVAL);
	cr_assert(!strncmp(e.msg, path, strlen(path)) &&
		  !strcmp(e.msg + strlen(path), ":2: duplicate key \"a\" (first on line 1)"),
		  "%s", e.msg);
	cr_assert_eq(vsnl_yaml_read_file(path, 5, 0, &n, &e), -EFBIG, "%s", e.msg);
	cr_assert_eq(unlink(path), 0);
	cr_assert_eq(vsnl_yaml_read_file(path, 1024, 0, &n, &e), -ENOENT);
	cr_assert_eq(n.type, VSNL_Y_NULL);
}
