// SPDX-License-Identifier: Apache-2.0
/*
 * The driver make check links every fuzz target with: libFuzzer's place
 * when the build is not clang's. It hands the target each file of its
 * corpus, then mutants of them (bits flipped, bytes set to edge values,
 * cut short, a run of bytes repeated or dropped), from a fixed seed so
 * that every run tries the same inputs:
 *
 *	replay-netlink [-n MUTANTS] [-a DIR] CORPUS-DIR-OR-FILE...
 *
 * Each input is in a buffer of its own size, so that AddressSanitizer sees
 * a read past its end. When the target crashes, the input is named on
 * standard error and, with -a, written to DIR (under AddressSanitizer and
 * UndefinedBehaviorSanitizer, from their death callback; otherwise from a
 * handler of the fatal signals), to be kept in the corpus once fixed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef __has_feature
#if __has_feature(address_sanitizer)
#define REPLAY_ASAN 1
#endif
#endif
#ifdef __SANITIZE_ADDRESS__
#define REPLAY_ASAN 1
#endif
#ifdef REPLAY_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input being run, for the crash report. */
static struct {
	const char *file;
	unsigned long mutant;		/* 0: the file as it is */
	const uint8_t *data;
	size_t size;
	const char *artifacts;		/* -a */
	const char *prog;
} cur;

static uint64_t rng = 0x2545f4914f6cdd1dULL;

/* xorshift64*: the same mutants on every run. */
static uint64_t next_rand(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dULL;
}

/* Async-signal-safe: write(2) only. */
static void say(const char *s)
{
	ssize_t n = write(STDERR_FILENO, s, strlen(s));

	(void)n;
}

static void ultoa(unsigned long v, char *buf)
{
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*buf++ = tmp[--n];
	*buf = '\0';
}

static void report(void)
{
	char num[24], path[4096];
	const char *base;

	if (!cur.file)
		return;
	ultoa(cur.mutant, num);
	say(cur.prog);
	say(": crashed on ");
	say(cur.file);
	if (cur.mutant) {
		say(", mutant ");
		say(num);
	}
	say("\n");
	if (!cur.artifacts)
		return;
	base = strrchr(cur.file, '/');
	base = base ? base + 1 : cur.file;
	if (strlen(cur.artifacts) + strlen(base) + 32 >= sizeof(path))
		return;
	strcpy(path, cur.artifacts);
	strcat(path, "/crash-");
	strcat(path, base);
	strcat(path, "-");
	strcat(path, num);
	{
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		ssize_t n;

		if (fd < 0)
			return;
		n = write(fd, cur.data, cur.size);
		(void)n;
		close(fd);
		say(cur.prog);
		say(": the input is in ");
		say(path);
		say("\n");
	}
}

static void on_fatal(int sig)
{
	report();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void run(const uint8_t *data, size_t size)
{
	/* A copy of its own size: a read past the end is caught. */
	uint8_t *copy = malloc(size ? size : 1);

	if (!copy) {
		fprintf(stderr, "%s: out of memory\n", cur.prog);
		exit(1);
	}
	memcpy(copy, data, size);
	cur.data = copy;
	cur.size = size;
	LLVMFuzzerTestOneInput(copy, size);
	free(copy);
}

static const uint8_t edge[] = { 0x00, 0x01, 0x7f, 0x80, 0xff, 0x0a, 0x20, 0x2d, 0x30, 0x39 };

/* One mutant of @in (@len bytes) into @out (room for 2 * @len + 16 bytes); its length. */
static size_t mutate(const uint8_t *in, size_t len, uint8_t *out)
{
	size_t n = len, at, run;
	unsigned int steps = 1 + (unsigned int)(next_rand() % 4);

	memcpy(out, in, len);
	for (unsigned int s = 0; s < steps; s++) {
		uint64_t r = next_rand();

		if (!n) {
			out[n++] = (uint8_t)r;
			continue;
		}
		at = (size_t)((r >> 8) % n);
		switch (r % 6) {
		case 0:		/* flip a bit */
			out[at] ^= (uint8_t)(1u << ((r >> 40) % 8));
			break;
		case 1:		/* an edge value */
			out[at] = edge[(r >> 40) % sizeof(edge)];
			break;
		case 2:		/* cut short */
			n = at;
			break;
		case 3:		/* drop a run */
			run = 1 + (size_t)((r >> 40) % 8);
			if (run > n - at)
				run = n - at;
			memmove(out + at, out + at + run, n - at - run);
			n -= run;
			break;
		case 4:		/* repeat a run, while there is room */
			run = 1 + (size_t)((r >> 40) % 16);
			if (run > n - at)
				run = n - at;
			if (n + run > 2 * len + 16)
				break;
			memmove(out + at + run, out + at, n - at);
			n += run;
			break;
		default:	/* a random byte */
			out[at] = (uint8_t)(r >> 48);
			break;
		}
	}
	return n;
}

static int replay_file(const char *path, unsigned long mutants, unsigned long *inputs)
{
	struct stat st;
	uint8_t *buf, *mut;
	size_t len;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "%s: %s: %s\n", cur.prog, path, strerror(errno));
		return -1;
	}
	len = (size_t)st.st_size;
	buf = malloc(len + 1);
	mut = malloc(2 * len + 16);
	if (!buf || !mut) {
		fprintf(stderr, "%s: %s: out of memory\n", cur.prog, path);
		exit(1);
	}
	n = read(fd, buf, len);
	close(fd);
	if (n < 0 || (size_t)n != len) {
		fprintf(stderr, "%s: %s: short read\n", cur.prog, path);
		free(buf);
		free(mut);
		return -1;
	}
	cur.file = path;
	cur.mutant = 0;
	run(buf, len);
	for (unsigned long m = 1; m <= mutants; m++) {
		cur.mutant = m;
		run(mut, mutate(buf, len, mut));
	}
	*inputs += 1 + mutants;
	cur.file = NULL;
	free(buf);
	free(mut);
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of @dir, in name order (the same mutants on every run). */
static int replay_dir(const char *dir, unsigned long mutants, unsigned long *inputs,
		      unsigned long *files)
{
	char **names = NULL, path[4096];
	size_t nr = 0, cap = 0;
	struct dirent *de;
	int ret = 0;
	DIR *d;

	d = opendir(dir);
	if (!d) {
		fprintf(stderr, "%s: %s: %s\n", cur.prog, dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (nr == cap) {
			cap = cap ? 2 * cap : 64;
			names = realloc(names, cap * sizeof(*names));
			if (!names) {
				fprintf(stderr, "%s: out of memory\n", cur.prog);
				exit(1);
			}
		}
		names[nr] = strdup(de->d_name);
		if (!names[nr++]) {
			fprintf(stderr, "%s: out of memory\n", cur.prog);
			exit(1);
		}
	}
	closedir(d);
	qsort(names, nr, sizeof(*names), cmp_names);
	for (size_t i = 0; i < nr; i++) {
		if (!ret) {
			snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
			ret = replay_file(path, mutants, inputs);
			*files += 1;
		}
		free(names[i]);
	}
	free(names);
	return ret;
}

static int usage(void)
{
	fprintf(stderr, "usage: %s [-n MUTANTS] [-a DIR] CORPUS-DIR-OR-FILE...\n", cur.prog);
	return 2;
}

int main(int argc, char **argv)
{
	unsigned long mutants = 0, inputs = 0, files = 0;
	char *end;
	int c;

	cur.prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	while ((c = getopt(argc, argv, "n:a:h")) != -1) {
		switch (c) {
		case 'n':
			errno = 0;
			mutants = strtoul(optarg, &end, 10);
			if (errno || *end || end == optarg || mutants > 1000000) {
				fprintf(stderr, "%s: -n: \"%s\" is not a count of mutants "
					"(0..1000000)\n", cur.prog, optarg);
				return 2;
			}
			break;
		case 'a':
			cur.artifacts = optarg;
			break;
		default:
			return usage();
		}
	}
	if (optind == argc)
		return usage();
#ifdef REPLAY_ASAN
	__sanitizer_set_death_callback(report);
#endif
	signal(SIGSEGV, on_fatal);
	signal(SIGABRT, on_fatal);
	signal(SIGBUS, on_fatal);
	signal(SIGFPE, on_fatal);
	signal(SIGILL, on_fatal);
	for (int i = optind; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st)) {
			fprintf(stderr, "%s: %s: %s\n", cur.prog, argv[i], strerror(errno));
			return 1;
		}
		if (S_ISDIR(st.st_mode) ? replay_dir(argv[i], mutants, &inputs, &files) :
		    (files++, replay_file(argv[i], mutants, &inputs)))
			return 1;
	}
	if (!files) {
		fprintf(stderr, "%s: no input in the corpus\n", cur.prog);
		return 1;
	}
	printf("%s: %lu files, %lu inputs, no crash\n", cur.prog, files, inputs);
	return 0;
}
