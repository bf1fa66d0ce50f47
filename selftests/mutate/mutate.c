// SPDX-License-Identifier: Apache-2.0
/*
 * vsmutate: a structure-aware mutation fuzzer of a real vschedd's socket
 * (Documentation/fuzzing.md, "The mutation fuzzer").
 *
 * libFuzzer's netlink target feeds the dispatcher in-process; this drives
 * the daemon itself, as a client does: its socket, its reply datagrams and
 * dumps, its batches across datagrams, its checkpoints written and
 * restored. The daemon runs with --self-check, so that it checks the
 * core's accounting after every datagram and aborts on the first fault,
 * with no period (cycles only when a message asks: what the daemon holds
 * follows from what it was sent), and with a checkpoint.
 *
 * The seeds are sequences of protocol messages: each file of the netlink
 * corpus, and real checkpoints split into their messages (the one the
 * daemon writes after it was given the corpus, and any given with
 * --checkpoint). A mutant is one datagram: a run of messages from a seed,
 * replayed with deletions, reordered, spliced with messages of other
 * seeds, wrapped in a batch, with cycles and dumps among them, and with
 * some messages changed knowing their layout: commands, flags, types,
 * lengths, attribute types and nesting flags, values at their boundaries,
 * strings, attributes truncated, duplicated, moved or nested deeper.
 *
 * After every mutant (or every --check-every), a probe (a statistics
 * request) must be answered while the daemon lives; every
 * --restart-every mutants and at the end it must stop cleanly, writing
 * its checkpoint, and start again on it holding as many objects of each
 * kind. The stream of mutants is a function of --seed and the seeds alone
 * (--dry-run prints its digest); a failure writes what reproduces it, the
 * checkpoint the daemon started from and the datagrams it was sent since,
 * for --replay.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "../daemon/dspawn.h"
#include "core/compiler.h"
#include "netlink/checkpoint.h"
#include "sched/metrics.h"
#include "vsched/checkpoint.h"
#include "vsched/vsched.h"

#define MUT_WAIT_MS		10000	/* for an answer, the daemon to listen or stop */
/* A mutant is cut to this: under the send buffer of a Unix socket. */
#define MUT_DGRAM_MAX		(160u << 10)
#define MUT_WINDOW_MAX		8	/* messages of a seed in one mutant, usually */
#define MUT_NEST_MAX		16	/* nests deeper than this are copied, not walked */
#define MUT_LOG_MAX		(256u << 20)	/* a life's datagrams kept for a reproducer */
#define MUT_PROBE_SEQ		0x80000000u	/* | the probe's number */
#define MUT_REPRO_MAGIC		"VSMUT01\n"

static struct {
	const char *vschedd;
	const char *corpus;
	const char *out;
	const char *replay;
	const char *checkpoints[16];
	unsigned int nr_checkpoints;
	u64 seed;
	bool seed_given;
	unsigned int seconds;
	u64 count;
	unsigned int check_every;
	u64 restart_every;
	bool dry_run;
	bool keep;
	bool verbose;
} opt = { .check_every = 1, .restart_every = 5000 };

static char dir[PATH_MAX], sock_path[PATH_MAX + 16], ckpt_path[PATH_MAX + 16];
static char life_path[PATH_MAX + 16], log_path[PATH_MAX + 16];
static pid_t daemon_pid;
static int conn = -1;
static unsigned char *rxbuf;

#define say(...)	do { if (opt.verbose) printf("vsmutate: " __VA_ARGS__); } while (0)

/* ---- helpers ---- */

static void __printf(1, 2) __noreturn die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "vsmutate: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (daemon_pid > 0) {
		kill(daemon_pid, SIGKILL);
		waitpid(daemon_pid, NULL, 0);
	}
	if (dir[0])
		fprintf(stderr, "vsmutate: kept %s (the daemon's log and checkpoints)\n", dir);
	exit(1);
}

static u64 now_ms(void)
{
	return vs_mono_ns() / 1000000;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

/* A whole file, in a buffer of its own. */
static unsigned char *read_file(const char *path, size_t *len)
{
	unsigned char *buf;
	struct stat st;
	size_t off = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st))
		die("%s: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		die("%s: not a regular file", path);
	buf = xmalloc((size_t)st.st_size);
	while (off < (size_t)st.st_size) {
		n = read(fd, buf + off, (size_t)st.st_size - off);
		if (n <= 0)
			die("%s: %s", path, n ? strerror(errno) : "shorter than it was");
		off += (size_t)n;
	}
	close(fd);
	*len = off;
	return buf;
}

static void write_file(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0 || write(fd, buf, len) != (ssize_t)len || close(fd))
		die("%s: %s", path, strerror(errno));
}

static void copy_file(const char *from, const char *to)
{
	size_t len;
	unsigned char *buf = read_file(from, &len);

	write_file(to, buf, len);
	free(buf);
}

/* ---- the random stream: splitmix64, all of it from --seed ---- */

static u64 rng;

static u64 rnd(void)
{
	u64 z = (rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform enough below @n (> 0). */
static u32 below(u32 n)
{
	return (u32)(rnd() % n);
}

static bool one_in(u32 n)
{
	return below(n) == 0;
}

/* ---- a growing buffer ---- */

struct buf {
	unsigned char *p;
	size_t len, cap;
};

static void buf_room(struct buf *b, size_t n)
{
	if (b->len + n <= b->cap)
		return;
	while (b->len + n > b->cap)
		b->cap = b->cap ? 2 * b->cap : 4096;
	b->p = xrealloc(b->p, b->cap);
}

static void buf_put(struct buf *b, const void *d, size_t n)
{
	buf_room(b, n);
	memcpy(b->p + b->len, d, n);
	b->len += n;
}

static void buf_zero(struct buf *b, size_t n)
{
	buf_room(b, n);
	memset(b->p + b->len, 0, n);
	b->len += n;
}

static void buf_align(struct buf *b)
{
	buf_zero(b, NLMSG_ALIGN(b->len) - b->len);
}

/* ---- the seeds ---- */

/* A message, or an attribute, as it is in a seed. */
struct piece {
	const unsigned char *p;
	u32 len;
};

/* A sequence of messages: a corpus file or a checkpoint. */
struct seed {
	char name[96];
	unsigned char *bytes;
	size_t len;
	struct piece *msgs;
	u32 nr;
};

static struct seed *seeds;
static u32 nr_seeds;
/* Every message, attribute and string of every seed: what splices take. */
static struct piece *all_msgs, *all_attrs, *all_strs;
static u32 nr_msgs, nr_attrs, nr_strs;

static void piece_add(struct piece **v, u32 *n, const unsigned char *p, u32 len)
{
	if (!(*n & (*n - 1)) || !*n)
		*v = xrealloc(*v, sizeof(**v) * (*n ? 2 * *n : 16));
	(*v)[(*n)++] = (struct piece){ p, len };
}

/* A payload that reads as a string: printable bytes and one NUL at the end. */
static bool is_string(const unsigned char *p, u32 len)
{
	if (len < 2 || p[len - 1])
		return false;
	for (u32 i = 0; i + 1 < len; i++)
		if (p[i] < 0x20 || p[i] > 0x7e)
			return false;
	return true;
}

/* The attributes in @p (@len bytes), nests walked, into the splice pools. */
static void index_attrs(const unsigned char *p, u32 len, unsigned int depth)
{
	while (len >= NLA_HDRLEN) {
		struct nlattr a;

		memcpy(&a, p, sizeof(a));
		if (a.nla_len < NLA_HDRLEN || a.nla_len > len)
			return;
		piece_add(&all_attrs, &nr_attrs, p, a.nla_len);
		if ((a.nla_type & NLA_F_NESTED) && depth < MUT_NEST_MAX)
			index_attrs(p + NLA_HDRLEN, a.nla_len - NLA_HDRLEN, depth + 1);
		else if (is_string(p + NLA_HDRLEN, a.nla_len - NLA_HDRLEN))
			piece_add(&all_strs, &nr_strs, p + NLA_HDRLEN, a.nla_len - NLA_HDRLEN);
		if ((u32)NLA_ALIGN(a.nla_len) >= len)
			return;
		p += NLA_ALIGN(a.nla_len);
		len -= NLA_ALIGN(a.nla_len);
	}
}

static struct seed *seed_new(const char *name, unsigned char *bytes, size_t len)
{
	struct seed *s;

	seeds = xrealloc(seeds, sizeof(*seeds) * (nr_seeds + 1));
	s = &seeds[nr_seeds++];
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->bytes = bytes;
	s->len = len;
	return s;
}

/* A seed's messages into the splice pools; a seed of none is dropped. */
static void seed_index(struct seed *s)
{
	if (!s->nr) {
		free(s->bytes);
		nr_seeds--;
		return;
	}
	for (u32 i = 0; i < s->nr; i++) {
		piece_add(&all_msgs, &nr_msgs, s->msgs[i].p, s->msgs[i].len);
		if (s->msgs[i].len > NLMSG_HDRLEN + GENL_HDRLEN)
			index_attrs(s->msgs[i].p + NLMSG_HDRLEN + GENL_HDRLEN,
				    s->msgs[i].len - NLMSG_HDRLEN - GENL_HDRLEN, 0);
	}
}

/* A corpus file: its messages, or itself whole if its framing is broken. */
static void seed_add_datagram(const char *name, unsigned char *bytes, size_t len)
{
	struct seed *s = seed_new(name, bytes, len);
	size_t off = 0;

	while (off + NLMSG_HDRLEN <= len) {
		struct nlmsghdr h;

		memcpy(&h, bytes + off, sizeof(h));
		if (h.nlmsg_len < NLMSG_HDRLEN || h.nlmsg_len > len - off)
			break;
		piece_add(&s->msgs, &s->nr, bytes + off, h.nlmsg_len);
		off += NLMSG_ALIGN(h.nlmsg_len);
	}
	if (off < len) {
		s->nr = 0;
		piece_add(&s->msgs, &s->nr, bytes, (u32)min_t(size_t, len, MUT_DGRAM_MAX));
	}
	seed_index(s);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* Every file of @path, in name order: the order, and so the stream, never depends on the disk. */
static void load_corpus(const char *path)
{
	struct dirent **ents;
	char file[PATH_MAX + 256];
	int n = scandir(path, &ents, NULL, by_name);

	if (n < 0)
		die("%s: %s", path, strerror(errno));
	for (int i = 0; i < n; i++) {
		unsigned char *bytes;
		size_t len;
		struct stat st;

		snprintf(file, sizeof(file), "%s/%s", path, ents[i]->d_name);
		if (ents[i]->d_name[0] != '.' && !stat(file, &st) && S_ISREG(st.st_mode) &&
		    st.st_size > 0) {
			bytes = read_file(file, &len);
			seed_add_datagram(ents[i]->d_name, bytes, len);
		}
		free(ents[i]);
	}
	free(ents);
}

static int ckpt_msg(const struct nlmsghdr *nlh, u64 index, u64 offset, void *arg)
{
	struct seed *s = arg;

	piece_add(&s->msgs, &s->nr, (const unsigned char *)nlh, nlh->nlmsg_len);
	return 0;
}

/*
 * A checkpoint, checked as the daemon checks it, as the sequence of its
 * messages; none when @unique and a seed has the same messages already.
 * The seed's number, or -1.
 */
static int load_checkpoint(const char *name, const char *path, bool unique)
{
	const size_t hdr = sizeof(struct vs_ckpt_header);
	struct vs_err err = { { 0 } };
	struct vs_ckpt_info info;
	unsigned char *bytes;
	struct seed *s;
	size_t len;

	bytes = read_file(path, &len);
	if (vs_ckpt_check(bytes, len, &info, &err))
		die("%s: not a checkpoint: %s", path, err.msg);
	for (u32 i = 0; unique && i < nr_seeds; i++) {
		if (seeds[i].len == len && !memcmp(seeds[i].bytes + hdr, bytes + hdr, len - hdr)) {
			free(bytes);
			return -1;
		}
	}
	s = seed_new(name, bytes, len);
	vs_ckpt_for_each(bytes, len, ckpt_msg, s);
	seed_index(s);
	say("checkpoint %s: %llu messages\n", name, (unsigned long long)info.nr_msgs);
	return info.nr_msgs ? (int)nr_seeds - 1 : -1;
}

/* ---- mutating one message ---- */

enum attr_op {
	A_KEEP, A_DELETE, A_DUP, A_TYPE, A_NESTED, A_BYTEORDER, A_VALUE, A_STRING,
	A_TRUNC, A_EXTEND, A_BITS, A_SPLICE, A_REPLACE, A_WRAP, A_LEN, __A_OPS
};

/* Which attributes of the message (in walk order) change, and how. */
struct attr_plan {
	u32 at[4];
	enum attr_op op[4];
	unsigned int nr;
	u32 seen;
};

static const u64 boundaries[] = {
	0, 1, 2, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x7fffffff, 0x80000000,
	0xffffffff, 0x100000000ull, 1000, 1000003, 0x7fffffffffffffffull,
	0x8000000000000000ull, 0xffffffffffffffffull, 0xfffffffffffffffeull,
	8ull << 60, 1ull << 53,
};

/* Quantities, names and paths that have broken parsers before, or might. */
static const char *const strings[] = {
	"", "0", "-1", "1e400", "1e-400", "9223372036854775807", "18446744073709551616",
	"7Ei", "8Ei", "16Ei", "1000003", "0.000000001", "NaN", "inf", "1m", "1.5Gi", "0x10",
	"default", "kube-system", "q0", "n00", "../x", "a/b", "a b", "%s%n", "\xff\xfe",
	"nvidia.com/gpu", "ephemeral-storage", "hugepages-2Mi", "k=v", "Exists", "NoSchedule",
};

static void put_attr_hdr(struct buf *b, u16 len, u16 type)
{
	struct nlattr a = { .nla_len = len, .nla_type = type };

	buf_put(b, &a, sizeof(a));
}

/* A payload as an attribute of @type, padded. */
static void put_attr(struct buf *b, u16 type, const void *d, size_t n)
{
	if (n > 0xffff - NLA_HDRLEN)
		n = 0xffff - NLA_HDRLEN;
	put_attr_hdr(b, (u16)(NLA_HDRLEN + n), type);
	buf_put(b, d, n);
	buf_align(b);
}

static void emit_attrs(struct buf *b, const unsigned char *p, u32 len, unsigned int depth,
		       struct attr_plan *plan);

/* One attribute as it was: a nest walked (its children may change), else copied. */
static void emit_keep(struct buf *b, const struct nlattr *a, const unsigned char *pay, u32 plen,
		      unsigned int depth, struct attr_plan *plan)
{
	size_t start = b->len, len;

	if (!(a->nla_type & NLA_F_NESTED) || depth >= MUT_NEST_MAX) {
		put_attr(b, a->nla_type, pay, plen);
		return;
	}
	put_attr_hdr(b, 0, a->nla_type);
	emit_attrs(b, pay, plen, depth + 1, plan);
	len = b->len - start;
	if (len > 0xffff) {
		/* Grown past what a length holds: as it was. */
		b->len = start;
		put_attr(b, a->nla_type, pay, plen);
		return;
	}
	((struct nlattr *)(b->p + start))->nla_len = (u16)len;
}

static void emit_value(struct buf *b, u16 type, u32 plen)
{
	static const u32 sizes[] = { 1, 2, 4, 8 };
	u64 v = boundaries[below(ARRAY_SIZE(boundaries))];
	u32 size = plen == 1 || plen == 2 || plen == 4 || plen == 8 ? plen :
		   sizes[below(ARRAY_SIZE(sizes))];

	if (one_in(4))
		v = ~v;
	if (one_in(8))
		size = sizes[below(ARRAY_SIZE(sizes))];
	put_attr(b, type, &v, size);	/* the low bytes: host order, as the protocol's */
}

static void emit_string(struct buf *b, u16 type, const unsigned char *pay, u32 plen)
{
	static const u32 longs[] = { 63, 64, 253, 254, 255, 256, 1024, 4096, 65000 };
	unsigned char *s;
	u32 n;

	switch (below(5)) {
	case 0: {
		const char *t = strings[below(ARRAY_SIZE(strings))];

		put_attr(b, type, t, strlen(t) + !one_in(8));
		return;
	}
	case 1:
		if (nr_strs) {
			const struct piece *t = &all_strs[below(nr_strs)];

			put_attr(b, type, t->p, t->len);
			return;
		}
		fallthrough;
	case 2:
		n = longs[below(ARRAY_SIZE(longs))];
		s = xmalloc(n + 1);
		memset(s, 'a' + (int)below(26), n);
		s[n] = '\0';
		put_attr(b, type, s, n + 1);
		free(s);
		return;
	case 3:
		/* Its NUL gone, or another in the middle. */
		if (plen && !pay[plen - 1] && one_in(2)) {
			put_attr(b, type, pay, plen - 1);
			return;
		}
		s = xmalloc(plen + 1);
		memcpy(s, pay, plen);
		if (plen)
			s[below(plen)] = '\0';
		put_attr(b, type, s, plen);
		free(s);
		return;
	default:
		/* Cut short, still terminated. */
		n = plen ? below(plen) : 0;
		s = xmalloc(n + 1);
		memcpy(s, pay, n);
		s[n] = '\0';
		put_attr(b, type, s, n + 1);
		free(s);
	}
}

static void emit_op(struct buf *b, const struct nlattr *a, const unsigned char *pay, u32 plen,
		    unsigned int depth, struct attr_plan *plan, enum attr_op op)
{
	static const u16 lens[] = { 0, 1, 3, 4, 5, 0xffff };
	unsigned char *s;
	size_t start;
	u16 type = a->nla_type;
	u32 n;

	switch (op) {
	case A_DELETE:
		return;
	case A_DUP:
		emit_keep(b, a, pay, plen, depth, plan);
		emit_keep(b, a, pay, plen, depth, plan);
		return;
	case A_TYPE:
		n = type & NLA_TYPE_MASK;
		n = one_in(3) ? n + 1 : one_in(2) ? (n ? n - 1 : 0) : below(48);
		if (one_in(16))
			n = NLA_TYPE_MASK;
		type = (u16)((type & ~NLA_TYPE_MASK) | n);
		break;
	case A_NESTED:
		type ^= NLA_F_NESTED;
		break;
	case A_BYTEORDER:
		type ^= NLA_F_NET_BYTEORDER;
		break;
	case A_VALUE:
		emit_value(b, type, plen);
		return;
	case A_STRING:
		emit_string(b, type, pay, plen);
		return;
	case A_TRUNC:
		put_attr(b, type, pay, plen ? below(plen) : 0);
		return;
	case A_EXTEND:
		n = 1 + below(one_in(8) ? 4096 : 16);
		s = xmalloc(plen + n);
		memcpy(s, pay, plen);
		for (u32 i = 0; i < n; i++)
			s[plen + i] = one_in(2) ? 0 : (unsigned char)rnd();
		put_attr(b, type, s, plen + n);
		free(s);
		return;
	case A_BITS:
		if (!plen)
			break;
		s = xmalloc(plen);
		memcpy(s, pay, plen);
		for (n = 1 + below(4); n; n--)
			s[below(plen)] ^= (unsigned char)(1u << below(8));
		put_attr(b, type, s, plen);
		free(s);
		return;
	case A_SPLICE:
	case A_REPLACE:
		if (op == A_SPLICE)
			emit_keep(b, a, pay, plen, depth, plan);
		if (nr_attrs) {
			const struct piece *o = &all_attrs[below(nr_attrs)];

			buf_put(b, o->p, o->len);
			buf_align(b);
		}
		return;
	case A_WRAP:
		/* In nests of its own: a level, a few, or past any depth limit. */
		n = one_in(4) ? 64 + below(200) : 1 + below(3);
		start = b->len;
		for (u32 i = 0; i < n; i++)
			put_attr_hdr(b, 0, (u16)(NLA_F_NESTED | (one_in(2) ? (type & NLA_TYPE_MASK) :
								  below(16))));
		emit_keep(b, a, pay, plen, depth, plan);
		if (b->len - start > 0xffff) {
			b->len = start;
			break;
		}
		for (u32 i = 0; i < n; i++)
			((struct nlattr *)(b->p + start + i * NLA_HDRLEN))->nla_len =
				(u16)(b->len - start - i * NLA_HDRLEN);
		return;
	case A_LEN:
		/* The length lies; the bytes are what they were. */
		start = b->len;
		put_attr(b, type, pay, plen);
		n = NLA_HDRLEN + plen;
		n = one_in(2) ? lens[below(ARRAY_SIZE(lens))] : one_in(2) ? n + 1 + below(8) :
		    n - 1 - below(3);
		((struct nlattr *)(b->p + start))->nla_len = (u16)n;
		return;
	default:
		break;
	}
	put_attr(b, type, pay, plen);
}

static void emit_attrs(struct buf *b, const unsigned char *p, u32 len, unsigned int depth,
		       struct attr_plan *plan)
{
	while (len >= NLA_HDRLEN) {
		enum attr_op op = A_KEEP;
		struct nlattr a;
		u32 idx = plan->seen++;

		memcpy(&a, p, sizeof(a));
		if (a.nla_len < NLA_HDRLEN || a.nla_len > len)
			break;
		for (unsigned int i = 0; i < plan->nr; i++)
			if (plan->at[i] == idx)
				op = plan->op[i];
		if (op == A_KEEP)
			emit_keep(b, &a, p + NLA_HDRLEN, a.nla_len - NLA_HDRLEN, depth, plan);
		else
			emit_op(b, &a, p + NLA_HDRLEN, a.nla_len - NLA_HDRLEN, depth, plan, op);
		if ((u32)NLA_ALIGN(a.nla_len) >= len)
			return;
		p += NLA_ALIGN(a.nla_len);
		len -= NLA_ALIGN(a.nla_len);
	}
	/* What does not parse as attributes goes as it was. */
	buf_put(b, p, len);
	buf_align(b);
}

static u32 count_attrs(const unsigned char *p, u32 len, unsigned int depth)
{
	u32 n = 0;

	while (len >= NLA_HDRLEN) {
		struct nlattr a;

		memcpy(&a, p, sizeof(a));
		if (a.nla_len < NLA_HDRLEN || a.nla_len > len)
			break;
		n++;
		if ((a.nla_type & NLA_F_NESTED) && depth < MUT_NEST_MAX)
			n += count_attrs(p + NLA_HDRLEN, a.nla_len - NLA_HDRLEN, depth + 1);
		if ((u32)NLA_ALIGN(a.nla_len) >= len)
			break;
		p += NLA_ALIGN(a.nla_len);
		len -= NLA_ALIGN(a.nla_len);
	}
	return n;
}

enum msg_op { M_CMD, M_FLAGS, M_TYPE, M_VERSION, M_SEQ, M_LEN, M_CUT, __M_OPS };

/*
 * @m into @b, with @nops changes: to its header (command, flags, type,
 * version, sequence, length, an end cut off) or to its attributes.
 */
static void emit_msg(struct buf *b, const struct piece *m, unsigned int nops)
{
	static const u16 types[] = { NLMSG_NOOP, NLMSG_ERROR, NLMSG_DONE, GENL_ID_CTRL,
				     VSCHED_GENL_ID + 1, 0xffff };
	static const u16 flags[] = { NLM_F_REQUEST, NLM_F_ACK, NLM_F_DUMP, NLM_F_ROOT,
				     NLM_F_MULTI, NLM_F_ECHO, NLM_F_EXCL, NLM_F_CREATE };
	struct attr_plan plan = { .nr = 0 };
	struct genlmsghdr g = { 0 };
	struct nlmsghdr h;
	u32 attrs = 0, cut = 0, lie = 0;
	bool has_genl = m->len >= NLMSG_HDRLEN + GENL_HDRLEN;
	size_t start;

	if (m->len < NLMSG_HDRLEN || !nops) {
		buf_put(b, m->p, m->len);
		buf_align(b);
		return;
	}
	memcpy(&h, m->p, sizeof(h));
	if (has_genl) {
		memcpy(&g, m->p + NLMSG_HDRLEN, sizeof(g));
		attrs = count_attrs(m->p + NLMSG_HDRLEN + GENL_HDRLEN,
				    m->len - NLMSG_HDRLEN - GENL_HDRLEN, 0);
	}
	for (unsigned int i = 0; i < nops; i++) {
		if (attrs && plan.nr < ARRAY_SIZE(plan.at) && !one_in(3)) {
			plan.at[plan.nr] = below(attrs);
			plan.op[plan.nr++] = (enum attr_op)(1 + below(__A_OPS - 1));
			continue;
		}
		switch ((enum msg_op)below(__M_OPS)) {
		case M_CMD:
			g.cmd = one_in(2) ? (u8)below(VS_CMD_MAX + 3) : (u8)(g.cmd + (one_in(2) ? 1 : 255));
			break;
		case M_FLAGS:
			h.nlmsg_flags = one_in(8) ? (u16)rnd() :
				(u16)(h.nlmsg_flags ^ flags[below(ARRAY_SIZE(flags))]);
			break;
		case M_TYPE:
			h.nlmsg_type = types[below(ARRAY_SIZE(types))];
			break;
		case M_VERSION:
			g.version = (u8)rnd();
			if (one_in(2))
				g.reserved = (u16)rnd();
			break;
		case M_SEQ:
			h.nlmsg_seq = one_in(2) ? 0 : (u32)rnd() & ~MUT_PROBE_SEQ;
			h.nlmsg_pid = one_in(2) ? h.nlmsg_pid : (u32)rnd();
			break;
		case M_LEN:
			lie = 1 + below(4);
			break;
		case M_CUT:
			cut = 1 + below(16);
			break;
		default:
			break;
		}
	}
	start = b->len;
	buf_put(b, &h, sizeof(h));
	if (has_genl) {
		buf_put(b, &g, sizeof(g));
		emit_attrs(b, m->p + NLMSG_HDRLEN + GENL_HDRLEN, m->len - NLMSG_HDRLEN - GENL_HDRLEN,
			   0, &plan);
	} else {
		buf_put(b, m->p + NLMSG_HDRLEN, m->len - NLMSG_HDRLEN);
	}
	h.nlmsg_len = (u32)(b->len - start);
	/* The length lies: below a header, short of the message, past it, past anything. */
	if (lie == 1)
		h.nlmsg_len = below(NLMSG_HDRLEN + GENL_HDRLEN + 1);
	else if (lie == 2)
		h.nlmsg_len -= min_t(u32, h.nlmsg_len, 1 + below(8));
	else if (lie == 3)
		h.nlmsg_len += 1 + below(64);
	else if (lie == 4)
		h.nlmsg_len = 0xffffffffu - below(8);
	((struct nlmsghdr *)(b->p + start))->nlmsg_len = h.nlmsg_len;
	if (cut && b->len - start > cut)
		b->len -= cut;
	buf_align(b);
}

/* A message of @cmd with no attribute, or one u32: batches, cycles, dumps, subscriptions. */
static void emit_ctl(struct buf *b, u8 cmd, u16 flags, int attr, u32 val)
{
	struct nlmsghdr h = {
		.nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN + (attr ? NLA_HDRLEN + 4 : 0),
		.nlmsg_type = VSCHED_GENL_ID,
		.nlmsg_flags = (u16)(NLM_F_REQUEST | flags),
		.nlmsg_seq = (u32)rnd() & ~MUT_PROBE_SEQ,
	};
	struct genlmsghdr g = { .cmd = cmd, .version = VSCHED_GENL_VERSION };

	buf_put(b, &h, sizeof(h));
	buf_put(b, &g, sizeof(g));
	if (attr)
		put_attr(b, (u16)attr, &val, sizeof(val));
}

static void emit_extra(struct buf *b)
{
	static const u8 dumps[] = { VS_CMD_NODE_GET, VS_CMD_QUEUE_GET, VS_CMD_PODGROUP_GET,
				    VS_CMD_TASK_GET, VS_CMD_VJOB_GET, VS_CMD_PRIOCLASS_GET,
				    VS_CMD_DUMP };

	switch (below(6)) {
	case 0:
	case 1:
		emit_ctl(b, VS_CMD_CYCLE_RUN, NLM_F_ACK, 0, 0);
		break;
	case 2:
		emit_ctl(b, dumps[below(ARRAY_SIZE(dumps))], NLM_F_DUMP, 0, 0);
		break;
	case 3:
		emit_ctl(b, one_in(4) ? VS_CMD_UNSUBSCRIBE : VS_CMD_SUBSCRIBE, NLM_F_ACK,
			 VS_A_MCGRP, below(VS_MCGRP_MAX + 2));
		break;
	case 4:
		emit_ctl(b, VS_CMD_STATS_GET, 0, 0, 0);
		break;
	default:
		emit_ctl(b, VS_CMD_CONF_GET, NLM_F_ACK, 0, 0);
	}
}

/* ---- a mutant: one datagram ---- */

struct stream {
	u64 mutants, msgs;
	u64 digest;			/* FNV-1a of every mutant, length and bytes */
};

/*
 * The next mutant into @b (emptied first): a window of one seed (or all
 * of it, with deletions), its order and contents changed, perhaps in a
 * batch, with cycles and dumps; its messages counted into @st.
 */
static void make_mutant(struct buf *b, struct stream *st)
{
	const struct seed *s = &seeds[below(nr_seeds)];
	struct piece win[256 + 8];
	u32 n = 0, first, want, drop = 0, nmut;
	int batch = 0;

	b->len = 0;
	if (one_in(8)) {
		/* Replayed with deletions: a long run of it (from its start, or not), messages dropped. */
		want = min_t(u32, s->nr, ARRAY_SIZE(win) - 8);
		first = one_in(2) ? 0 : below(s->nr - want + 1);
		drop = 2 + below(6);
	} else {
		want = 1 + below(min_t(u32, s->nr, one_in(8) ? 32 : MUT_WINDOW_MAX));
		first = below(s->nr - want + 1);
	}
	for (u32 i = 0; i < want; i++)
		if (!drop || !one_in(drop))
			win[n++] = s->msgs[first + i];
	/* Reordered, spliced with another seed's, repeated, taken out. */
	for (u32 k = below(3); k && n; k--) {
		u32 i = below(n), j = below(n);
		struct piece t;

		switch (below(4)) {
		case 0:
			t = win[i];
			win[i] = win[j];
			win[j] = t;
			break;
		case 1:
			if (n < ARRAY_SIZE(win) && nr_msgs) {
				memmove(&win[i + 1], &win[i], (n - i) * sizeof(win[0]));
				win[i] = all_msgs[below(nr_msgs)];
				n++;
			}
			break;
		case 2:
			if (n < ARRAY_SIZE(win)) {
				memmove(&win[i + 1], &win[i], (n - i) * sizeof(win[0]));
				n++;
			}
			break;
		default:
			memmove(&win[i], &win[i + 1], (n - i - 1) * sizeof(win[0]));
			n--;
		}
	}
	/* In a batch, or half of one: BEGIN alone carries on in the next datagram. */
	if (one_in(4))
		batch = 1 + (int)below(6);
	if (batch && batch != 3) {
		emit_ctl(b, VS_CMD_BATCH_BEGIN, one_in(2) ? NLM_F_ACK : 0, 0, 0);
		st->msgs++;
	}
	nmut = below(5);
	for (u32 i = 0; i < n && b->len < MUT_DGRAM_MAX; i++) {
		unsigned int ops = 0;

		if (nmut && one_in(n - i > nmut ? (n - i) / nmut : 1)) {
			ops = 1 + (one_in(3) ? below(3) : 0);
			nmut--;
		}
		emit_msg(b, &win[i], ops);
		st->msgs++;
		if (one_in(16)) {
			emit_extra(b);
			st->msgs++;
		}
	}
	if (batch && batch != 2) {
		emit_ctl(b, VS_CMD_BATCH_END, NLM_F_ACK, 0, 0);
		st->msgs++;
	}
	if (one_in(10)) {
		emit_extra(b);
		st->msgs++;
	}
	if (b->len > MUT_DGRAM_MAX)
		b->len = MUT_DGRAM_MAX;
	st->mutants++;
	for (size_t i = 0; i < sizeof(b->len); i++)
		st->digest = (st->digest ^ ((b->len >> (8 * i)) & 0xff)) * 0x100000001b3ull;
	for (size_t i = 0; i < b->len; i++)
		st->digest = (st->digest ^ b->p[i]) * 0x100000001b3ull;
}

/* ---- the daemon ---- */

static void __printf(1, 2) __noreturn fail(const char *fmt, ...);

/* What a daemon life holds of each kind, from its statistics. */
struct census {
	u32 nodes, queues, podgroups, tasks, vjobs, prioclasses;
};

/* What its answers were. */
struct tally {
	u64 acked, refused, answers, dump_parts, dumps, notes, cutoffs;
	u64 errnos[160];
};

static struct tally tally;
static struct census census;
static bool census_read;		/* since the last probe on a fresh connection */
static u32 probe_nr;
static bool dump_open;

static void log_tail(void)
{
	size_t len;
	unsigned char *buf = read_file(log_path, &len);
	size_t from = len > 4096 ? len - 4096 : 0;

	fprintf(stderr, "vsmutate: the end of the daemon's log (%s):\n%.*s", log_path,
		(int)(len - from), (const char *)buf + from);
	free(buf);
}

/* The daemon gone, how, said with @what; 0 while it lives. */
static int daemon_gone(const char *what, bool wait)
{
	int status;
	pid_t pid;

	if (daemon_pid <= 0)
		return 0;
	pid = waitpid(daemon_pid, &status, wait ? 0 : WNOHANG);
	if (pid != daemon_pid)
		return 0;
	daemon_pid = 0;
	if (WIFEXITED(status))
		fprintf(stderr, "vsmutate: vschedd exited with status %d %s\n",
			WEXITSTATUS(status), what);
	else
		fprintf(stderr, "vsmutate: vschedd was killed by signal %d (%s) %s\n",
			WTERMSIG(status), strsignal(WTERMSIG(status)), what);
	log_tail();
	return -1;
}

static void conn_close(void)
{
	if (conn >= 0)
		close(conn);
	conn = -1;
	dump_open = false;
}

/* Connect, for MUT_WAIT_MS while the daemon starts; -1, said, if it died or does not listen. */
static int conn_open(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct timeval tv = { .tv_sec = MUT_WAIT_MS / 1000 };
	int size = 4 << 20;
	u64 end = now_ms() + MUT_WAIT_MS;

	conn_close();
	if (strlen(sock_path) >= sizeof(sa.sun_path))
		die("%s: longer than a socket's path may be (set TMPDIR)", sock_path);
	memcpy(sa.sun_path, sock_path, strlen(sock_path) + 1);
	for (;;) {
		conn = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
		if (conn < 0)
			die("socket: %s", strerror(errno));
		if (!connect(conn, (struct sockaddr *)&sa, sizeof(sa)))
			break;
		conn_close();
		if (daemon_gone("before it took a connection", false))
			return -1;
		if (now_ms() > end) {
			fprintf(stderr, "vsmutate: vschedd took no connection on %s in %u ms: "
				"%s\n", sock_path, MUT_WAIT_MS, strerror(errno));
			return -1;
		}
		sleep_ms(10);
	}
	/* Room for the largest mutant (as root), and no send that waits for ever. */
	if (setsockopt(conn, SOL_SOCKET, SO_SNDBUFFORCE, &size, sizeof(size)))
		setsockopt(conn, SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
	setsockopt(conn, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	return 0;
}

static void daemon_start(void)
{
	/* No period: what it holds follows from what it was sent. */
	const char *const argv[] = { opt.vschedd, "--socket", sock_path, "--period", "0",
			 "--binder", "auto", "--checkpoint", ckpt_path, "--checkpoint-interval",
			 "1s", "--self-check", NULL };

	daemon_pid = dspawn_logged(log_path, argv);
	if (daemon_pid < 0)
		die("fork: %s", strerror(errno));
}

/* SIGTERM: it must write its checkpoint and exit 0 in time; -1 said otherwise. */
static int daemon_stop(void)
{
	u64 end = now_ms() + MUT_WAIT_MS;
	int status;
	pid_t pid;

	conn_close();
	kill(daemon_pid, SIGTERM);
	while (!(pid = waitpid(daemon_pid, &status, WNOHANG)) && now_ms() < end)
		sleep_ms(5);
	if (!pid) {
		fprintf(stderr, "vsmutate: vschedd did not stop in %u ms after SIGTERM\n",
			MUT_WAIT_MS);
		kill(daemon_pid, SIGKILL);
		waitpid(daemon_pid, NULL, 0);
		daemon_pid = 0;
		log_tail();
		return -1;
	}
	daemon_pid = 0;
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	fprintf(stderr, "vsmutate: vschedd did not stop cleanly (%s %d)\n",
		WIFEXITED(status) ? "exit status" : "signal",
		WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	log_tail();
	return -1;
}

/* The counts of a statistics answer's VS_A_STATS. */
static void read_census(const struct nlmsghdr *nlh)
{
	const unsigned char *p = (const unsigned char *)nlh + NLMSG_HDRLEN + GENL_HDRLEN;
	u32 len = nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;

	census_read = true;
	while (len >= NLA_HDRLEN) {
		const struct nlattr *a = (const void *)p;

		if (a->nla_len < NLA_HDRLEN || a->nla_len > len)
			return;
		if ((a->nla_type & NLA_TYPE_MASK) == VS_A_STATS) {
			const unsigned char *q = p + NLA_HDRLEN;
			u32 qlen = a->nla_len - NLA_HDRLEN;

			while (qlen >= NLA_HDRLEN) {
				const struct nlattr *s = (const void *)q;
				u32 v = 0;

				if (s->nla_len < NLA_HDRLEN || s->nla_len > qlen)
					return;
				memcpy(&v, q + NLA_HDRLEN, s->nla_len >= NLA_HDRLEN + 4 ? 4 : 0);
				switch (s->nla_type & NLA_TYPE_MASK) {
				case VS_STATS_A_NR_NODES: census.nodes = v; break;
				case VS_STATS_A_NR_QUEUES: census.queues = v; break;
				case VS_STATS_A_NR_PODGROUPS: census.podgroups = v; break;
				case VS_STATS_A_NR_TASKS: census.tasks = v; break;
				case VS_STATS_A_NR_VJOBS: census.vjobs = v; break;
				case VS_STATS_A_NR_PRIOCLASSES: census.prioclasses = v; break;
				default: break;
				}
				if ((u32)NLA_ALIGN(s->nla_len) >= qlen)
					break;
				q += NLA_ALIGN(s->nla_len);
				qlen -= NLA_ALIGN(s->nla_len);
			}
			return;
		}
		if ((u32)NLA_ALIGN(a->nla_len) >= len)
			return;
		p += NLA_ALIGN(a->nla_len);
		len -= NLA_ALIGN(a->nla_len);
	}
}

/* One reply datagram: tallied; true if it holds the answer to probe @seq. */
static bool read_reply(const unsigned char *buf, size_t len, u32 seq)
{
	bool answered = false;
	size_t off = 0;

	while (off + NLMSG_HDRLEN <= len) {
		const struct nlmsghdr *nlh = (const void *)(buf + off);
		const struct genlmsghdr *g = NLMSG_DATA(nlh);

		if (nlh->nlmsg_len < NLMSG_HDRLEN || nlh->nlmsg_len > len - off)
			fail("a broken answer from vschedd: a message of %u bytes at %zu of %zu",
			     nlh->nlmsg_len, off, len);
		if (nlh->nlmsg_type == NLMSG_ERROR &&
		    nlh->nlmsg_len >= NLMSG_HDRLEN + sizeof(struct nlmsgerr)) {
			const struct nlmsgerr *e = NLMSG_DATA(nlh);

			if (!e->error) {
				tally.acked++;
			} else {
				tally.refused++;
				if (e->error < 0 && -e->error < (int)ARRAY_SIZE(tally.errnos))
					tally.errnos[-e->error]++;
			}
			if (nlh->nlmsg_seq == seq)
				answered = true;
		} else if (nlh->nlmsg_type == NLMSG_DONE) {
			tally.dumps++;
			dump_open = false;
		} else if (nlh->nlmsg_flags & NLM_F_MULTI) {
			tally.dump_parts++;
			dump_open = true;
		} else if (nlh->nlmsg_type == VSCHED_GENL_ID &&
			   nlh->nlmsg_len >= NLMSG_HDRLEN + GENL_HDRLEN && nlh->nlmsg_seq == seq &&
			   g->cmd == VS_CMD_STATS_GET) {
			read_census(nlh);
			answered = true;
		} else if (!nlh->nlmsg_seq) {
			tally.notes++;
		} else {
			tally.answers++;
		}
		off += NLMSG_ALIGN(nlh->nlmsg_len);
	}
	return answered;
}

/*
 * Read what the daemon sends for @timeout_ms (0: what is there), until
 * probe @seq (0: none) is answered and no dump is under way. 1 when it
 * was, 0 when the time ran out, -1 when the daemon cut the connection.
 */
static int drain(u32 seq, int timeout_ms)
{
	u64 end = now_ms() + (u64)timeout_ms;
	bool answered = !seq;
	ssize_t n;

	for (;;) {
		struct pollfd pfd = { .fd = conn, .events = POLLIN };
		int left = (int)(end > now_ms() ? end - now_ms() : 0);

		if (answered && !dump_open && (!timeout_ms || seq))
			left = 0;
		if (poll(&pfd, 1, left) <= 0)
			return answered && !dump_open;
		n = recv(conn, rxbuf, VS_MSG_MAX, MSG_DONTWAIT | MSG_TRUNC);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n <= 0) {
			say("connection cut: %s\n", n ? strerror(errno) : "end of file");
			return -1;
		}
		if ((size_t)n > VS_MSG_MAX)
			fail("an answer of %zd bytes, more than VS_MSG_MAX", n);
		if (read_reply(rxbuf, (size_t)n, seq))
			answered = true;
	}
}

/* Send @len bytes as one datagram; -1 when the daemon cut the connection. */
static int send_dgram(const void *buf, size_t len)
{
	for (;;) {
		ssize_t n = send(conn, buf, len, MSG_NOSIGNAL);

		if (n == (ssize_t)len)
			return 0;
		if (n >= 0)
			die("a datagram of %zu bytes went as %zd", len, n);
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN)
			die("vschedd has not read a datagram in %u ms", MUT_WAIT_MS);
		if (errno == EMSGSIZE)
			die("a datagram of %zu bytes is too large for the socket", len);
		say("connection cut: %s\n", strerror(errno));
		return -1;
	}
}

/*
 * The core checked: a statistics request answered while the daemon lives
 * (with --self-check it has checked itself after every datagram, and
 * aborted on a fault). 0, or -1 with the symptom said.
 */
static int probe(void)
{
	struct nlmsghdr h = {
		.nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN,
		.nlmsg_type = VSCHED_GENL_ID,
		.nlmsg_flags = NLM_F_REQUEST,
		.nlmsg_seq = MUT_PROBE_SEQ | (++probe_nr & 0x7fffffff),
	};
	struct genlmsghdr g = { .cmd = VS_CMD_STATS_GET, .version = VSCHED_GENL_VERSION };
	unsigned char msg[NLMSG_HDRLEN + GENL_HDRLEN];
	int ret;

	memcpy(msg, &h, sizeof(h));
	memcpy(msg + NLMSG_HDRLEN, &g, sizeof(g));
	for (int tries = 0; tries < 2; tries++) {
		if (conn < 0 && conn_open())
			return -1;
		ret = send_dgram(msg, sizeof(msg));
		if (!ret)
			ret = drain(h.nlmsg_seq, MUT_WAIT_MS);
		if (daemon_gone("after the datagrams above", false))
			return -1;
		if (ret > 0)
			return 0;
		if (!ret) {
			fprintf(stderr, "vsmutate: vschedd did not answer a request for its "
				"statistics in %u ms%s\n", MUT_WAIT_MS,
				dump_open ? " (a dump under way)" : "");
			return -1;
		}
		/* Cut off (a client it gave up on): a new connection, as a client would. */
		tally.cutoffs++;
		conn_close();
	}
	/* A daemon that is dying (a sanitizer writing its report) cuts them too. */
	for (u64 end = now_ms() + MUT_WAIT_MS; now_ms() < end; sleep_ms(10))
		if (daemon_gone("after the datagrams above", false))
			return -1;
	fprintf(stderr, "vsmutate: vschedd cuts every new connection\n");
	return -1;
}

/* ---- daemon lives, and what reproduces a failure ---- */

/* The datagrams of this life, each [u32 length][bytes]: what --replay sends. */
static struct buf life_log;
static u64 lives;

static void life_begin(void)
{
	if (!access(ckpt_path, F_OK))
		copy_file(ckpt_path, life_path);
	else
		unlink(life_path);
	life_log.len = 0;
	buf_put(&life_log, MUT_REPRO_MAGIC, strlen(MUT_REPRO_MAGIC));
	daemon_start();
	lives++;
	if (conn_open() || probe())
		die("vschedd did not start on %s (above)", access(life_path, F_OK) ?
		    "no checkpoint" : life_path);
}

/* The daemon started on the checkpoint: what reproduces a failure from here. */
static void life_renew(void)
{
	copy_file(ckpt_path, life_path);
	life_log.len = 0;
	buf_put(&life_log, MUT_REPRO_MAGIC, strlen(MUT_REPRO_MAGIC));
}

static void life_log_add(const void *p, size_t len)
{
	u32 l = (u32)len;

	buf_put(&life_log, &l, sizeof(l));
	buf_put(&life_log, p, len);
}

/* Write the reproducer to --out (else the run's directory) and give up. */
static void __printf(1, 2) __noreturn fail(const char *fmt, ...)
{
	char path[PATH_MAX + 32], msg[512];
	const char *out = opt.out ? opt.out : dir;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (opt.replay)
		die("%s", msg);
	mkdir(out, 0755);
	snprintf(path, sizeof(path), "%s/repro.dgrams", out);
	write_file(path, life_log.p, life_log.len);
	snprintf(path, sizeof(path), "%s/repro.ckpt", out);
	if (!access(life_path, F_OK))
		copy_file(life_path, path);
	else
		unlink(path);
	fprintf(stderr, "vsmutate: seed %llu: %s\n"
		"vsmutate: reproduce with: %s --vschedd %s --replay %s\n",
		(unsigned long long)opt.seed, msg, program_invocation_name, opt.vschedd, out);
	die("FAILED");
}

/*
 * What the daemon holds, asked on a connection of its own (a mutant may
 * have left a batch open on the other, which would refuse the request)
 * that holds periodic cycles (a mutant may have set a period) until the
 * daemon stops.
 */
static int take_census(void)
{
	struct {
		struct nlmsghdr h;
		struct genlmsghdr g;
		struct nlattr conn, hold;
		u8 on, pad[3];
	} __attribute__((packed)) m = {
		.h = { .nlmsg_len = sizeof(m), .nlmsg_type = VSCHED_GENL_ID,
		       .nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK },
		.g = { .cmd = VS_CMD_CONN_SET, .version = VSCHED_GENL_VERSION },
		.conn = { .nla_len = 2 * NLA_HDRLEN + 1, .nla_type = NLA_F_NESTED | VS_A_CONN },
		.hold = { .nla_len = NLA_HDRLEN + 1, .nla_type = VS_CONN_A_HOLD },
		.on = 1,
	};

	conn_close();
	census_read = false;
	if (conn_open())
		return -1;
	if (send_dgram(&m, sizeof(m)) || drain(0, 0) < 0)
		conn_close();
	if (probe())
		return -1;
	if (!census_read) {
		fprintf(stderr, "vsmutate: vschedd answered a request for its statistics on a "
			"new connection with an error\n");
		return -1;
	}
	return 0;
}

/*
 * Stop the daemon (its checkpoint written), start it again on that
 * checkpoint: it must, holding as many objects of each kind as before.
 */
static void restart_check(void)
{
	struct census before;
	char bad[PATH_MAX + 32];

	if (take_census())
		fail("the daemon failed (above)");
	before = census;
	if (daemon_stop())
		fail("the daemon did not stop cleanly (above)");
	daemon_start();
	if (conn_open() || take_census()) {
		snprintf(bad, sizeof(bad), "%s/unrestorable.ckpt", opt.out ? opt.out : dir);
		mkdir(opt.out ? opt.out : dir, 0755);
		copy_file(ckpt_path, bad);
		fail("vschedd did not start on the checkpoint it wrote (kept as %s)", bad);
	}
	if (memcmp(&before, &census, sizeof(census)))
		fail("restored from its checkpoint, vschedd holds %u nodes, %u queues, %u "
		     "PodGroups, %u tasks, %u VolcanoJobs, %u priority classes; it held %u, %u, "
		     "%u, %u, %u, %u", census.nodes, census.queues, census.podgroups,
		     census.tasks, census.vjobs, census.prioclasses, before.nodes, before.queues,
		     before.podgroups, before.tasks, before.vjobs, before.prioclasses);
	/* A new life: what reproduces a failure from here starts from this checkpoint. */
	life_renew();
	lives++;
}

/* One datagram to the daemon; checked when @check. */
static void send_checked(const void *p, size_t len, bool check, const char *what)
{
	life_log_add(p, len);
	if (conn < 0 && conn_open())
		fail("vschedd died (above) before %s", what);
	if (send_dgram(p, len)) {
		tally.cutoffs++;
		conn_close();
	} else if (!check && drain(0, 0) < 0) {
		tally.cutoffs++;
		conn_close();
	}
	if (check && probe())
		fail("after %s%s", what,
		     opt.replay ? "" : " (the last datagram of the reproducer)");
}

/* ---- the runs ---- */

/*
 * Each corpus file whole, and after each a restart: the checkpoint of what
 * it made is written, restored, and kept as a seed (unless a seed has its
 * messages already). The fuzzing starts from the largest.
 */
static void bootstrap(void)
{
	char what[160], name[128], start[PATH_MAX + 32];
	u32 nr = nr_seeds, most = 0;

	snprintf(start, sizeof(start), "%s/start.ckpt", dir);
	life_begin();
	for (u32 i = 0; i < nr; i++) {
		const struct seed *s = &seeds[i];
		int k;

		snprintf(what, sizeof(what), "corpus file %s", s->name);
		send_checked(s->bytes, min_t(size_t, s->len, MUT_DGRAM_MAX), true, what);
		restart_check();
		snprintf(name, sizeof(name), "checkpoint-after-%s", s->name);
		k = load_checkpoint(name, ckpt_path, true);
		if (k >= 0 && seeds[k].nr > most) {
			most = seeds[k].nr;
			copy_file(ckpt_path, start);
		}
	}
	if (daemon_stop())
		fail("the daemon did not stop cleanly after the corpus (above)");
	if (most) {
		copy_file(start, ckpt_path);
		unlink(start);
	}
}

static void print_tally(u64 ms, const struct stream *st)
{
	static const struct { int err; const char *name; } names[] = {
		{ EINVAL, "EINVAL" }, { ENOENT, "ENOENT" }, { EEXIST, "EEXIST" },
		{ EOPNOTSUPP, "EOPNOTSUPP" }, { ERANGE, "ERANGE" }, { EBUSY, "EBUSY" },
		{ ENOSPC, "ENOSPC" }, { EPERM, "EPERM" }, { EMSGSIZE, "EMSGSIZE" },
		{ ENOBUFS, "ENOBUFS" }, { EBADMSG, "EBADMSG" }, { ENOMEM, "ENOMEM" },
	};
	u64 other = tally.refused;

	printf("vsmutate: seed %llu: %llu datagrams, %llu messages in %llu.%01llu s "
	       "(%llu messages/s), %llu daemon lives\n", (unsigned long long)opt.seed,
	       (unsigned long long)st->mutants, (unsigned long long)st->msgs,
	       (unsigned long long)(ms / 1000), (unsigned long long)(ms % 1000 / 100),
	       (unsigned long long)(ms ? st->msgs * 1000 / ms : 0), (unsigned long long)lives);
	printf("vsmutate: accepted %llu (acked), refused %llu (", (unsigned long long)tally.acked,
	       (unsigned long long)tally.refused);
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		if (!tally.errnos[names[i].err])
			continue;
		printf("%s %llu, ", names[i].name, (unsigned long long)tally.errnos[names[i].err]);
		other -= tally.errnos[names[i].err];
	}
	printf("other %llu); %llu answers, %llu dumps in %llu parts, %llu notifications, "
	       "%llu connections cut\n", (unsigned long long)other,
	       (unsigned long long)tally.answers, (unsigned long long)tally.dumps,
	       (unsigned long long)tally.dump_parts, (unsigned long long)tally.notes,
	       (unsigned long long)tally.cutoffs);
	printf("vsmutate: seed %llu: digest %016llx of %llu mutants\n",
	       (unsigned long long)opt.seed, (unsigned long long)st->digest,
	       (unsigned long long)st->mutants);
}

static void fuzz(void)
{
	struct stream st = { .digest = 0xcbf29ce484222325ull };
	u64 start = now_ms(), end = start + opt.seconds * 1000ull;
	struct buf b = { 0 };
	bool restarted = false;
	char what[64];

	lives = 0;
	if (!opt.dry_run)
		life_begin();
	for (u64 i = 0; (!opt.count || i < opt.count) && (!opt.seconds || now_ms() < end); i++) {
		make_mutant(&b, &st);
		if (opt.dry_run)
			continue;
		snprintf(what, sizeof(what), "mutant %llu", (unsigned long long)i);
		send_checked(b.p, b.len, (i + 1) % opt.check_every == 0, what);
		restarted = (opt.restart_every && (i + 1) % opt.restart_every == 0) ||
			    life_log.len > MUT_LOG_MAX;
		if (restarted) {
			say("mutant %llu: restarting on the checkpoint\n", (unsigned long long)i);
			restart_check();
		}
	}
	if (!opt.dry_run) {
		/* The last mutants checked, and the checkpoint of where they left the daemon. */
		if (!restarted)
			restart_check();
		if (daemon_stop())
			fail("the daemon did not stop cleanly at the end (above)");
	}
	free(b.p);
	if (opt.dry_run)
		printf("vsmutate: seed %llu: digest %016llx of %llu mutants (%llu messages), none "
		       "sent\n", (unsigned long long)opt.seed, (unsigned long long)st.digest,
		       (unsigned long long)st.mutants, (unsigned long long)st.msgs);
	else
		print_tally(now_ms() - start, &st);
}

/* --replay: the reproducer's checkpoint restored, its datagrams sent, each checked. */
static int replay(void)
{
	char path[PATH_MAX + 32];
	unsigned char *buf;
	size_t len, off = strlen(MUT_REPRO_MAGIC);
	u64 n = 0;

	snprintf(path, sizeof(path), "%s/repro.ckpt", opt.replay);
	if (!access(path, F_OK))
		copy_file(path, ckpt_path);
	snprintf(path, sizeof(path), "%s/repro.dgrams", opt.replay);
	buf = read_file(path, &len);
	if (len < off || memcmp(buf, MUT_REPRO_MAGIC, off))
		die("%s: not a reproducer of vsmutate", path);
	life_begin();
	while (off < len) {
		u32 l;
		char what[64];

		if (len - off < sizeof(l))
			die("%s: cut short at byte %zu", path, off);
		memcpy(&l, buf + off, sizeof(l));
		off += sizeof(l);
		if (l > len - off)
			die("%s: datagram %llu of %u bytes runs past the end", path,
			    (unsigned long long)n, l);
		snprintf(what, sizeof(what), "datagram %llu of the reproducer", (unsigned long long)n);
		say("sending %s (%u bytes)\n", what, l);
		send_checked(buf + off, l, true, what);
		off += l;
		n++;
	}
	restart_check();
	if (daemon_stop())
		fail("the daemon did not stop cleanly at the end (above)");
	free(buf);
	printf("vsmutate: replayed %llu datagrams: no failure\n", (unsigned long long)n);
	return 0;
}

/* ---- options ---- */

static void usage(FILE *f)
{
	fprintf(f,
"usage: vsmutate --vschedd PATH [--corpus DIR] [--checkpoint FILE]... [--seed N]\n"
"                [--seconds N] [--count N] [--check-every N] [--restart-every N]\n"
"                [--dry-run] [--out DIR] [--keep] [-v]\n"
"       vsmutate --vschedd PATH --replay DIR [-v]\n"
"A structure-aware mutation fuzzer of a real vschedd's socket: mutants of the\n"
"netlink corpus and of real checkpoints, each sent as one datagram, the daemon\n"
"checked after each (--self-check, and a request it must answer), stopped and\n"
"restored from its own checkpoint now and then. The same seed gives the same\n"
"mutants in the same order. A failure writes what reproduces it and exits 1.\n"
"  --vschedd PATH        the daemon to run\n"
"  --corpus DIR          seeds: every file of DIR, one datagram of messages each\n"
"  --checkpoint FILE     seeds: a checkpoint's messages (repeatable, at most 16)\n"
"  --seed N              the random stream (default: from the clock; printed)\n"
"  --seconds N           stop after N seconds (default 10 without --count)\n"
"  --count N             stop after N mutants\n"
"  --check-every N       probe the daemon after every N mutants (default 1)\n"
"  --restart-every N     stop and restore the daemon every N mutants (default\n"
"                        5000; 0: only at the end)\n"
"  --dry-run             make the mutants, send none; print their digest\n"
"  --out DIR             where a failure's reproducer goes (default: the run's\n"
"                        directory, kept)\n"
"  --replay DIR          send a reproducer (DIR/repro.ckpt, DIR/repro.dgrams)\n"
"  --keep                keep the run's directory (socket, log, checkpoints)\n"
"  -v, --verbose         say what happens\n");
}

static u64 parse_num(const char *name, const char *s, u64 max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || !*s || *end || *s == '-' || v > max) {
		fprintf(stderr, "vsmutate: --%s: \"%s\" is not a number from 0 to %llu\n", name, s,
			(unsigned long long)max);
		exit(2);
	}
	return v;
}

static void parse_opts(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "vschedd", required_argument, NULL, 'd' },
		{ "corpus", required_argument, NULL, 'c' },
		{ "checkpoint", required_argument, NULL, 'k' },
		{ "seed", required_argument, NULL, 's' },
		{ "seconds", required_argument, NULL, 't' },
		{ "count", required_argument, NULL, 'n' },
		{ "check-every", required_argument, NULL, 'e' },
		{ "restart-every", required_argument, NULL, 'r' },
		{ "dry-run", no_argument, NULL, 'D' },
		{ "out", required_argument, NULL, 'o' },
		{ "replay", required_argument, NULL, 'R' },
		{ "keep", no_argument, NULL, 'K' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "vh", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			opt.vschedd = optarg;
			break;
		case 'c':
			opt.corpus = optarg;
			break;
		case 'k':
			if (opt.nr_checkpoints == ARRAY_SIZE(opt.checkpoints)) {
				fprintf(stderr, "vsmutate: --checkpoint: at most %zu\n",
					ARRAY_SIZE(opt.checkpoints));
				exit(2);
			}
			opt.checkpoints[opt.nr_checkpoints++] = optarg;
			break;
		case 's':
			opt.seed = parse_num("seed", optarg, UINT64_MAX);
			opt.seed_given = true;
			break;
		case 't':
			opt.seconds = (unsigned int)parse_num("seconds", optarg, 30 * 86400);
			break;
		case 'n':
			opt.count = parse_num("count", optarg, UINT64_MAX);
			break;
		case 'e':
			opt.check_every = (unsigned int)parse_num("check-every", optarg, 1000000);
			if (!opt.check_every) {
				fprintf(stderr, "vsmutate: --check-every: at least 1\n");
				exit(2);
			}
			break;
		case 'r':
			opt.restart_every = parse_num("restart-every", optarg, UINT64_MAX);
			break;
		case 'D':
			opt.dry_run = true;
			break;
		case 'o':
			opt.out = optarg;
			break;
		case 'R':
			opt.replay = optarg;
			break;
		case 'K':
			opt.keep = true;
			break;
		case 'v':
			opt.verbose = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			exit(2);
		}
	}
	if (!opt.vschedd || optind != argc) {
		usage(stderr);
		exit(2);
	}
	if (opt.dry_run && !opt.count) {
		fprintf(stderr, "vsmutate: --dry-run needs --count\n");
		exit(2);
	}
	if (!opt.seconds && !opt.count)
		opt.seconds = 10;
	if (!opt.seed_given) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		opt.seed = (u64)ts.tv_sec * 1000003u ^ (u64)ts.tv_nsec ^ (u64)getpid();
	}
}

static void cleanup(void)
{
	char path[PATH_MAX + 32];
	static const char *const names[] = { "state.ckpt", "state.ckpt.tmp", "life.ckpt",
					     "vschedd.log", "vs.sock" };

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
}

int main(int argc, char **argv)
{
	parse_opts(argc, argv);
	snprintf(dir, sizeof(dir), "%s/vsmutate-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") :
		 "/tmp");
	if (!mkdtemp(dir))
		die("mkdtemp %s: %s", dir, strerror(errno));
	snprintf(sock_path, sizeof(sock_path), "%s/vs.sock", dir);
	snprintf(ckpt_path, sizeof(ckpt_path), "%s/state.ckpt", dir);
	snprintf(life_path, sizeof(life_path), "%s/life.ckpt", dir);
	snprintf(log_path, sizeof(log_path), "%s/vschedd.log", dir);
	rxbuf = xmalloc(VS_MSG_MAX);
	signal(SIGPIPE, SIG_IGN);
	rng = opt.seed;

	if (opt.replay) {
		replay();
	} else {
		if (opt.corpus)
			load_corpus(opt.corpus);
		if (nr_seeds)
			bootstrap();
		for (unsigned int i = 0; i < opt.nr_checkpoints; i++)
			load_checkpoint(opt.checkpoints[i], opt.checkpoints[i], false);
		if (!nr_seeds)
			die("no seeds: give --corpus or --checkpoint");
		printf("vsmutate: seed %llu: %u seeds, %u messages, %u attributes\n",
		       (unsigned long long)opt.seed, nr_seeds, nr_msgs, nr_attrs);
		fflush(stdout);
		/* The stream starts here: the same whatever the corpus run took. */
		rng = opt.seed;
		fuzz();
	}
	if (opt.keep)
		printf("vsmutate: kept %s\n", dir);
	else
		cleanup();
	return 0;
}
