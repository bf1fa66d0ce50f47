// SPDX-License-Identifier: Apache-2.0
/*
 * "vsbench sweep": "vsbench run" over several presets, and plots of
 * throughput and cycle time against cluster size.
 *
 * Each preset runs in a child process, this program again as "vsbench run
 * --preset NAME --json", so that every preset's peak RSS is its own and a
 * crash stops one run, not the sweep's bookkeeping. The children's JSON
 * objects are parsed with jansson and the sweep writes, into one
 * directory: sweep.json (the objects, as the runs printed them),
 * sweep.dat (one whitespace-separated row per preset, by nodes, for
 * gnuplot and for awk), sweep.gp (the gnuplot script, kept so that the
 * plots can be redrawn or restyled) and, by running gnuplot on it,
 * throughput.svg and cycle.svg (and PNGs with --png). The figures are
 * vsbench run's, never recomputed here but for pods per second of the
 * exhaustive scan, its binds over its time.
 *
 * Without gnuplot the data files are still written and the sweep exits 1
 * saying the plots were not made: the numbers are the result, the
 * pictures a view of them.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vsbench/vsbench.h"

#define SWEEP_MAX_PRESETS	16	/* more than there are: duplicates are refused */
#define SWEEP_MAX_ACTIONS	16
#define SWEEP_MAX_COLS		(24 + 3 * SWEEP_MAX_ACTIONS)
#define SWEEP_NAME		64	/* a column's name, with its NUL */
/* Not measured: "-" in sweep.dat, which sweep.gp declares missing. */
#define SWEEP_NONE		((double)NAN)

extern char **environ;

struct sweep_opts {
	char *list;			/* a copy of --presets, split in place */
	const char *presets[SWEEP_MAX_PRESETS];
	unsigned int nr_presets;
	unsigned long long seed;
	unsigned long cycles;
	bool compare;
	bool png;
	const char *out;
};

/* One cycle split as vsbench run splits it; ms, SWEEP_NONE if absent. */
struct sweep_cycle {
	double total, open, close;
	double actions[SWEEP_MAX_ACTIONS];
};

struct sweep_run {
	const char *preset;
	json_t *obj;			/* what "vsbench run --json" printed */
	double nodes, tasks, binds, pods_per_sec;
	double p50, p99, max;		/* cycle_ms */
	double peak_rss_mib;
	double exhaustive_pods_per_sec, speedup;	/* --compare */
	struct sweep_cycle first;
	struct sweep_cycle empty;	/* the cycle that placed nothing, which ends a run */
	bool has_empty;
	/* one more after the empty one, nothing changed: the cost of no work */
	struct sweep_cycle quiet;
	bool has_quiet;
	double active_podgroups;	/* awake after the last cycle: what quiet looked at */
};

struct sweep {
	struct sweep_opts o;
	char self[PATH_MAX];		/* this program, run again for each preset */
	struct sweep_run runs[SWEEP_MAX_PRESETS];
	unsigned int nr_runs;
	/* every action the runs timed, in the order of the first run's (its JSON keeps them) */
	const char *actions[SWEEP_MAX_ACTIONS];
	unsigned int nr_actions;
};

/*
 * One row of sweep.dat: its columns' names and values, built by one
 * function (sweep_row()) for the header, the rows and the column numbers
 * sweep.gp plots, so that the three cannot disagree. Column 1 is the
 * preset's name; cols[i] is column i + 2.
 */
struct sweep_row {
	unsigned int n;
	char names[SWEEP_MAX_COLS][SWEEP_NAME];
	double vals[SWEEP_MAX_COLS];
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: vsbench sweep --presets NAME,NAME... --out DIR [--seed N] [--cycles N]\n"
		"                     [--compare] [--png] [--mode inproc]\n"
		"\n"
		"Run \"vsbench run --json\" for each preset, each in a process of its own,\n"
		"and write into DIR: sweep.json (every run's object), sweep.dat (one row\n"
		"per preset, by nodes: throughput, cycle times, the first, the empty and\n"
		"the quiet cycle split into session open, each action and session close),\n"
		"sweep.gp (the gnuplot script) and, with gnuplot, throughput.svg (pods\n"
		"placed per second against nodes) and cycle.svg (cycle time by part\n"
		"against nodes). A quiet cycle is one more after the empty one, with\n"
		"nothing changed: the cost of a cycle with no work.\n"
		"A table of the runs goes to stdout.\n"
		"\n"
		"  -P, --presets LIST     comma-separated presets, each once (");
	vsbench_preset_names(out);
	fprintf(out,
		")\n"
		"  -o, --out DIR          where the files go (created if missing; its\n"
		"                         parent must exist)\n"
		"  -s, --seed N           generator seed of every run (default 1)\n"
		"  -c, --cycles N         at most N cycles per run (default 3, at least 1;\n"
		"                         a run stops after the first empty cycle)\n"
		"  -m, --mode inproc      the only mode: the core in each run's process\n"
		"  -x, --compare          each run also schedules with the exhaustive scan:\n"
		"                         its throughput is plotted and the speed-up kept\n"
		"      --png              also throughput.png and cycle.png (gnuplot's\n"
		"                         pngcairo or png terminal)\n"
		"  -h, --help             this text\n"
		"\n"
		"Exit status: 0; 1 if a run failed (nothing written) or the plots were not\n"
		"made (no gnuplot, or it failed: the data files are written); 2 for bad\n"
		"arguments, with nothing run. See Documentation/benchmarks.md, \"Plots\".\n");
}

/* Split --presets in place: every name known, none empty, none twice. */
static int parse_presets(struct sweep_opts *o, const char *arg)
{
	char *name, *next;

	free(o->list);
	o->list = strdup(arg);
	if (!o->list) {
		fprintf(stderr, "vsbench sweep: out of memory\n");
		return -1;
	}
	o->nr_presets = 0;
	for (name = o->list; name; name = next) {
		next = strchr(name, ',');
		if (next)
			*next++ = '\0';
		if (!*name) {
			fprintf(stderr, "vsbench sweep: --presets: empty preset name in \"%s\"\n",
				arg);
			return -1;
		}
		if (!vsbench_preset_nodes(name)) {
			fprintf(stderr, "vsbench sweep: --presets: unknown preset \"%s\" (", name);
			vsbench_preset_names(stderr);
			fprintf(stderr, ")\n");
			return -1;
		}
		for (unsigned int i = 0; i < o->nr_presets; i++) {
			if (!strcmp(o->presets[i], name)) {
				fprintf(stderr, "vsbench sweep: --presets: \"%s\" given twice\n",
					name);
				return -1;
			}
		}
		/* Unreachable with duplicates refused, kept so that a longer preset table cannot overflow. */
		if (o->nr_presets == SWEEP_MAX_PRESETS) {
			fprintf(stderr, "vsbench sweep: --presets: more than %d presets\n",
				SWEEP_MAX_PRESETS);
			return -1;
		}
		o->presets[o->nr_presets++] = name;
	}
	return 0;
}

/*
 * DIR, created if missing, must be a directory this process can create
 * files in: tried with a file made and removed, since permission bits say
 * nothing to root.
 */
static int check_out(const char *dir)
{
	char probe[PATH_MAX];
	struct stat st;
	int fd;

	if (!*dir) {
		fprintf(stderr, "vsbench sweep: --out: empty directory name\n");
		return -1;
	}
	if (snprintf(probe, sizeof(probe), "%s/.vsbench-sweep-XXXXXX", dir) >=
	    (int)sizeof(probe) - 32) {
		fprintf(stderr, "vsbench sweep: --out: \"%s\": path too long\n", dir);
		return -1;
	}
	if (mkdir(dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "vsbench sweep: --out: cannot create directory \"%s\": %s\n", dir,
			strerror(errno));
		return -1;
	}
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "vsbench sweep: --out: \"%s\" is not a directory\n", dir);
		return -1;
	}
	fd = mkstemp(probe);
	if (fd < 0) {
		fprintf(stderr, "vsbench sweep: --out: cannot write in \"%s\": %s\n", dir,
			strerror(errno));
		return -1;
	}
	close(fd);
	unlink(probe);
	return 0;
}

enum { OPT_PNG = 0x100 };

/* 0, 1 for --help, -1 refused (said why). */
static int parse_opts(int argc, char **argv, struct sweep_opts *o)
{
	static const struct option longopts[] = {
		{ "presets", required_argument, NULL, 'P' },
		{ "out", required_argument, NULL, 'o' },
		{ "seed", required_argument, NULL, 's' },
		{ "cycles", required_argument, NULL, 'c' },
		{ "compare", no_argument, NULL, 'x' },
		{ "png", no_argument, NULL, OPT_PNG },
		{ "mode", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool have_presets = false;
	unsigned long seed;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "P:o:s:c:xm:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'P':
			if (parse_presets(o, optarg))
				return -1;
			have_presets = true;
			break;
		case 'o':
			o->out = optarg;
			break;
		case 's':
			/* what vsbench run takes: JSON integers are signed 64-bit */
			if (vsbench_parse_ulong("sweep", "seed", optarg, 0, LLONG_MAX, &seed))
				return -1;
			o->seed = seed;
			break;
		case 'c':
			/* a run of no cycle has no figure to plot */
			if (vsbench_parse_ulong("sweep", "cycles", optarg, 1, 1000000, &o->cycles))
				return -1;
			break;
		case 'x':
			o->compare = true;
			break;
		case OPT_PNG:
			o->png = true;
			break;
		case 'm':
			/*
			 * A socket run loads its preset into a freshly started
			 * vschedd: a sweep would have to start and stop one per
			 * preset, which is a script's job, not this command's.
			 */
			if (!strcmp(optarg, "inproc"))
				break;
			fprintf(stderr, "vsbench sweep: --mode: %s\"%s\": a sweep runs in-process "
				"only (a socket run needs a freshly started vschedd per preset: "
				"run \"vsbench run --mode socket\" for each)\n",
				strcmp(optarg, "socket") ? "unknown mode " : "", optarg);
			return -1;
		case 'h':
			usage(stdout);
			return 1;
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "vsbench sweep: unexpected argument \"%s\"\n", argv[optind]);
		return -1;
	}
	if (!have_presets) {
		fprintf(stderr, "vsbench sweep: --presets is required (comma-separated: ");
		vsbench_preset_names(stderr);
		fprintf(stderr, ")\n");
		return -1;
	}
	if (!o->out) {
		fprintf(stderr, "vsbench sweep: --out is required: the directory the files go to\n");
		return -1;
	}
	/* Last: the only check that changes anything (it may create DIR). */
	return check_out(o->out) ? -1 : 0;
}

/*
 * Program @name found in PATH as execvp() would find it (an empty entry is
 * the current directory), its absolute path in @buf (PATH_MAX bytes): 0, or
 * -ENOENT. Looked up here rather than left to posix_spawnp(), whose failure
 * to exec reaches the parent only when the child shares its memory: under
 * valgrind the child is a plain fork that exits 127.
 */
static int find_program(const char *name, char *buf)
{
	const char *p = getenv("PATH"), *end;
	char cand[PATH_MAX];
	struct stat st;

	if (!p)
		p = "/bin:/usr/bin";
	for (;; p = end + 1) {
		int n;

		end = strchrnul(p, ':');
		n = snprintf(cand, sizeof(cand), "%.*s%s%s", (int)(end - p), p,
			     end > p ? "/" : "./", name);
		if (n > 0 && (size_t)n < sizeof(cand) && !stat(cand, &st) && S_ISREG(st.st_mode) &&
		    !access(cand, X_OK) && realpath(cand, buf))
			return 0;
		if (!*end)
			return -ENOENT;
	}
}

/*
 * Run @path with @argv, in directory @cwd when not NULL, its stdout read
 * into *@out (malloc'd, NUL-terminated) when @out is not NULL; its stderr
 * is ours. The wait status, or a negative errno when it could not be
 * started.
 */
static int spawn(const char *path, const char *const argv[], const char *cwd, char **out,
		 size_t *len)
{
	posix_spawn_file_actions_t fa;
	int pipefd[2] = { -1, -1 };
	size_t size = 0, cap = 0;
	char *buf = NULL;
	int ret, status;
	pid_t pid;

	ret = posix_spawn_file_actions_init(&fa);
	if (ret)
		return -ret;
	if (out) {
		if (pipe2(pipefd, O_CLOEXEC)) {
			ret = errno;
			goto out_fa;
		}
		ret = posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDOUT_FILENO);
		if (ret)
			goto out_pipe;
	}
	if (cwd) {
		ret = posix_spawn_file_actions_addchdir_np(&fa, cwd);
		if (ret)
			goto out_pipe;
	}
	ret = posix_spawn(&pid, path, &fa, NULL, (char *const *)argv, environ);
	if (ret)
		goto out_pipe;
	if (out) {
		close(pipefd[1]);
		pipefd[1] = -1;
		for (;;) {
			ssize_t n;

			if (cap - size < 4096) {
				char *p = realloc(buf, cap = cap ? 2 * cap : 65536);

				if (!p) {
					ret = ENOMEM;
					break;
				}
				buf = p;
			}
			n = read(pipefd[0], buf + size, cap - size - 1);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				if (n < 0)
					ret = errno;
				break;
			}
			size += (size_t)n;
		}
		/* A child still writing gets EPIPE rather than waiting on us forever. */
		close(pipefd[0]);
		pipefd[0] = -1;
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			ret = errno;
			break;
		}
	}
	if (!ret && out) {
		buf[size] = '\0';
		*out = buf;
		*len = size;
		buf = NULL;
	}
out_pipe:
	if (pipefd[0] >= 0)
		close(pipefd[0]);
	if (pipefd[1] >= 0)
		close(pipefd[1]);
out_fa:
	posix_spawn_file_actions_destroy(&fa);
	free(buf);
	return ret ? -ret : status;
}

/* "exited 3" or "was killed by signal 9 (Killed)", for messages. */
static const char *describe_status(int status, char *buf, size_t size)
{
	if (WIFEXITED(status))
		snprintf(buf, size, "exited %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, size, "was killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(buf, size, "ended with status %#x", status);
	return buf;
}

/* "vsbench run --preset NAME --json ..." in a child: its object in r->obj. */
static int run_preset(struct sweep *sw, const char *preset, struct sweep_run *r)
{
	char seed[24], cycles[24], why[64];
	const char *argv[] = {
		"vsbench", "run", "--preset", preset, "--seed", seed, "--cycles", cycles,
		"--json", sw->o.compare ? "--compare" : NULL, NULL,
	};
	json_error_t jerr;
	double t0 = vsbench_now();
	size_t len = 0;
	char *buf = NULL;
	int status;

	snprintf(seed, sizeof(seed), "%llu", sw->o.seed);
	snprintf(cycles, sizeof(cycles), "%lu", sw->o.cycles);
	fprintf(stderr, "vsbench sweep: running preset %s (%lu nodes)\n", preset,
		vsbench_preset_nodes(preset));
	status = spawn(sw->self, argv, NULL, &buf, &len);
	if (status < 0) {
		fprintf(stderr, "vsbench sweep: preset %s: cannot run %s: %s\n", preset, sw->self,
			strerror(-status));
		return -1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "vsbench sweep: preset %s: vsbench run %s\n", preset,
			describe_status(status, why, sizeof(why)));
		free(buf);
		return -1;
	}
	r->preset = preset;
	r->obj = json_loadb(buf, len, 0, &jerr);
	free(buf);
	if (!json_is_object(r->obj)) {
		fprintf(stderr, "vsbench sweep: preset %s: vsbench run printed no JSON object: %s "
			"(line %d)\n", preset, r->obj ? "not an object" : jerr.text, jerr.line);
		return -1;
	}
	fprintf(stderr, "vsbench sweep: preset %s done in %.2f s\n", preset, vsbench_now() - t0);
	return 0;
}

static double num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : SWEEP_NONE;
}

/* The actions of @c's actions_ms not seen yet, after those seen. */
static void note_actions(struct sweep *sw, const json_t *c)
{
	const json_t *acts = json_object_get(c, "actions_ms");
	const char *name;
	json_t *v;

	json_object_foreach((json_t *)acts, name, v) {
		unsigned int i;

		for (i = 0; i < sw->nr_actions; i++)
			if (!strcmp(sw->actions[i], name))
				break;
		if (i == sw->nr_actions && sw->nr_actions < SWEEP_MAX_ACTIONS)
			sw->actions[sw->nr_actions++] = name;
	}
}

static void parse_cycle(const struct sweep *sw, const json_t *c, struct sweep_cycle *sc)
{
	const json_t *acts = json_object_get(c, "actions_ms");

	sc->total = num(c, "ms");
	sc->open = num(c, "session_open_ms");
	sc->close = num(c, "session_close_ms");
	for (unsigned int a = 0; a < sw->nr_actions; a++)
		sc->actions[a] = num(acts, sw->actions[a]);
}

/* The figures of r->obj that the sweep keeps; -1 if it is not a run's report. */
static int parse_run(const struct sweep *sw, struct sweep_run *r)
{
	const json_t *o = r->obj, *cycles = json_object_get(o, "cycles");
	const json_t *cms = json_object_get(o, "cycle_ms"), *quiet;
	const char *preset = json_string_value(json_object_get(o, "preset"));
	size_t n = json_array_size(cycles);
	double ex = num(o, "exhaustive_sched_ms");

	if (!preset || strcmp(preset, r->preset) || !(num(o, "nodes") > 0) || !n) {
		fprintf(stderr, "vsbench sweep: preset %s: vsbench run's JSON lacks \"preset\", "
			"\"nodes\" or \"cycles\"\n", r->preset);
		return -1;
	}
	r->nodes = num(o, "nodes");
	r->tasks = num(o, "tasks");
	r->binds = num(o, "binds");
	r->pods_per_sec = num(o, "pods_per_sec");
	r->p50 = num(cms, "p50");
	r->p99 = num(cms, "p99");
	r->max = num(cms, "max");
	r->peak_rss_mib = num(o, "peak_rss_bytes") / (1 << 20);
	r->speedup = num(o, "speedup_vs_exhaustive");
	r->exhaustive_pods_per_sec = ex > 0 ? r->binds / (ex / 1e3) : SWEEP_NONE;
	parse_cycle(sw, json_array_get(cycles, 0), &r->first);
	/* A run ends with its first cycle that binds nothing, if it came before --cycles. */
	r->has_empty = num(json_array_get(cycles, n - 1), "binds") == 0;
	if (r->has_empty)
		parse_cycle(sw, json_array_get(cycles, n - 1), &r->empty);
	/* absent when the run had no empty cycle, or ran over the socket */
	quiet = json_object_get(o, "quiet_cycle");
	r->has_quiet = json_is_object(quiet);
	if (r->has_quiet)
		parse_cycle(sw, quiet, &r->quiet);
	r->active_podgroups = num(quiet, "active_podgroups");
	return 0;
}

static int cmp_nodes(const void *a, const void *b)
{
	const struct sweep_run *x = a, *y = b;

	return x->nodes < y->nodes ? -1 : x->nodes > y->nodes;
}

static void col(struct sweep_row *row, const char *name, double v)
{
	if (row->n == SWEEP_MAX_COLS)
		return;
	snprintf(row->names[row->n], sizeof(row->names[0]), "%s", name);
	row->vals[row->n++] = v;
}

/* The @which ("first", "empty", "quiet") cycle's columns: first_ms, first_ACTION_ms... */
static void cycle_cols(struct sweep_row *row, const struct sweep *sw, const char *which,
		       const struct sweep_cycle *c)
{
	char name[SWEEP_NAME];

	snprintf(name, sizeof(name), "%s_ms", which);
	col(row, name, c ? c->total : SWEEP_NONE);
	snprintf(name, sizeof(name), "%s_open_ms", which);
	col(row, name, c ? c->open : SWEEP_NONE);
	for (unsigned int a = 0; a < sw->nr_actions; a++) {
		snprintf(name, sizeof(name), "%s_%s_ms", which, sw->actions[a]);
		col(row, name, c ? c->actions[a] : SWEEP_NONE);
	}
	snprintf(name, sizeof(name), "%s_close_ms", which);
	col(row, name, c ? c->close : SWEEP_NONE);
}

/* Run @r's row of sweep.dat (@r NULL: the names only, every value none). */
static void sweep_row(const struct sweep *sw, const struct sweep_run *r, struct sweep_row *row)
{
	row->n = 0;
	col(row, "nodes", r ? r->nodes : SWEEP_NONE);
	col(row, "tasks", r ? r->tasks : SWEEP_NONE);
	col(row, "binds", r ? r->binds : SWEEP_NONE);
	col(row, "pods_per_sec", r ? r->pods_per_sec : SWEEP_NONE);
	col(row, "cycle_p50_ms", r ? r->p50 : SWEEP_NONE);
	col(row, "cycle_p99_ms", r ? r->p99 : SWEEP_NONE);
	col(row, "cycle_max_ms", r ? r->max : SWEEP_NONE);
	cycle_cols(row, sw, "first", r ? &r->first : NULL);
	cycle_cols(row, sw, "empty", r && r->has_empty ? &r->empty : NULL);
	cycle_cols(row, sw, "quiet", r && r->has_quiet ? &r->quiet : NULL);
	col(row, "active_podgroups", r ? r->active_podgroups : SWEEP_NONE);
	col(row, "peak_rss_mib", r ? r->peak_rss_mib : SWEEP_NONE);
	col(row, "exhaustive_pods_per_sec", r ? r->exhaustive_pods_per_sec : SWEEP_NONE);
	col(row, "speedup", r ? r->speedup : SWEEP_NONE);
}

/* The gnuplot column of @name in sweep.dat. */
static unsigned int column(const struct sweep_row *names, const char *name)
{
	for (unsigned int i = 0; i < names->n; i++)
		if (!strcmp(names->names[i], name))
			return i + 2;
	return 0;	/* never: every name asked for is sweep_row()'s */
}

static FILE *open_out(const struct sweep *sw, const char *name, char *path, size_t size)
{
	FILE *f;

	snprintf(path, size, "%s/%s", sw->o.out, name);
	f = fopen(path, "w");
	if (!f)
		fprintf(stderr, "vsbench sweep: %s: %s\n", path, strerror(errno));
	return f;
}

/* fclose() @f, saying so if anything written to it was lost. */
static int close_out(FILE *f, const char *path)
{
	bool bad = ferror(f);

	if (fclose(f) || bad) {
		fprintf(stderr, "vsbench sweep: writing %s failed\n", path);
		return -1;
	}
	return 0;
}

static int write_json(const struct sweep *sw)
{
	json_t *top, *runs = json_array();
	char path[PATH_MAX];
	FILE *f;
	int ret = -1;

	for (unsigned int i = 0; runs && i < sw->nr_runs; i++)
		if (json_array_append(runs, sw->runs[i].obj))
			goto out;
	top = json_pack("{s:I, s:I, s:b, s:O}", "seed", (json_int_t)sw->o.seed,
			"cycles", (json_int_t)sw->o.cycles, "compare", sw->o.compare,
			"runs", runs);
	if (!top)
		goto out;
	f = open_out(sw, "sweep.json", path, sizeof(path));
	if (f) {
		json_dumpf(top, f, JSON_INDENT(2) | JSON_REAL_PRECISION(12));
		fputc('\n', f);
		ret = close_out(f, path);
	}
	json_decref(top);
out:
	if (ret && !runs)
		fprintf(stderr, "vsbench sweep: out of memory\n");
	json_decref(runs);
	return ret;
}

static void put_val(FILE *f, double v)
{
	if (isnan(v))
		fputs(" -", f);
	else
		fprintf(f, " %.10g", v);
}

static int write_dat(const struct sweep *sw)
{
	struct sweep_row row;
	char path[PATH_MAX];
	FILE *f = open_out(sw, "sweep.dat", path, sizeof(path));

	if (!f)
		return -1;
	fprintf(f, "# vsbench sweep, seed %llu, at most %lu cycles%s: one row per preset, by "
		"nodes.\n", sw->o.seed, sw->o.cycles, sw->o.compare ? ", --compare" : "");
	fprintf(f, "# Times in ms. first: the first cycle; empty: the cycle that placed "
		"nothing;\n# quiet: one more after it, nothing changed, and active_podgroups "
		"the PodGroups\n# it looked at. \"-\": not measured (no empty cycle within "
		"--cycles; no --compare).\n");
	sweep_row(sw, NULL, &row);
	fputs("# preset", f);
	for (unsigned int i = 0; i < row.n; i++)
		fprintf(f, " %s", row.names[i]);
	fputc('\n', f);
	for (unsigned int r = 0; r < sw->nr_runs; r++) {
		sweep_row(sw, &sw->runs[r], &row);
		fputs(sw->runs[r].preset, f);
		for (unsigned int i = 0; i < row.n; i++)
			put_val(f, row.vals[i]);
		fputc('\n', f);
	}
	return close_out(f, path);
}

/*
 * One panel of cycle.svg, titled @title: the @which cycle's parts, the
 * whole cycle, session open, each action, session close.
 */
static void gp_cycle_plot(FILE *f, const struct sweep *sw, const struct sweep_row *names,
			  const char *which, const char *title)
{
	char name[SWEEP_NAME];

	fprintf(f, "\nset title \"%s\"\n", title);
	snprintf(name, sizeof(name), "%s_ms", which);
	/* drawn first and wider, so that the part that makes most of it shows on top */
	fprintf(f, "plot \"sweep.dat\" using 2:(pos($%u)) with linespoints lw 4 pt 7 lc rgb "
		"\"black\" title \"whole cycle\", \\\n", column(names, name));
	snprintf(name, sizeof(name), "%s_open_ms", which);
	fprintf(f, "     \"\" using 2:(pos($%u)) with linespoints lw 2 title \"session open\"",
		column(names, name));
	for (unsigned int a = 0; a < sw->nr_actions; a++) {
		snprintf(name, sizeof(name), "%s_%s_ms", which, sw->actions[a]);
		fprintf(f, ", \\\n     \"\" using 2:(pos($%u)) with linespoints lw 2 title \"%s\"",
			column(names, name), sw->actions[a]);
	}
	snprintf(name, sizeof(name), "%s_close_ms", which);
	fprintf(f, ", \\\n     \"\" using 2:(pos($%u)) with linespoints lw 2 "
		"title \"session close\"\n", column(names, name));
}

static int write_gp(const struct sweep *sw)
{
	double lo = sw->runs[0].nodes, hi = sw->runs[sw->nr_runs - 1].nodes;
	bool empty = false, quiet = false;
	struct sweep_row names;
	char path[PATH_MAX];
	unsigned int panels;
	FILE *f;

	for (unsigned int r = 0; r < sw->nr_runs; r++) {
		empty |= sw->runs[r].has_empty;
		quiet |= sw->runs[r].has_quiet;
	}
	/*
	 * A panel only for a cycle some run had, else it is an empty frame;
	 * the canvas 960 wide for one, 440 more for each other panel.
	 */
	panels = 1 + empty + quiet;
	sweep_row(sw, NULL, &names);
	f = open_out(sw, "sweep.gp", path, sizeof(path));
	if (!f)
		return -1;
	fprintf(f,
		"# The plots of vsbench sweep (Documentation/benchmarks.md, \"Plots\"), from\n"
		"# sweep.dat in this directory. Redraw them here with \"gnuplot sweep.gp\"\n"
		"# (SVG), or \"gnuplot -e 'format=\\\"png\\\"' sweep.gp\" (PNG).\n"
		"if (!exists(\"format\")) format = \"svg\"\n"
		"if (format eq \"svg\") {\n"
		"\tterm = \"set terminal svg size %%d,%%d dynamic background rgb 'white' "
		"font 'sans,13'\"\n"
		"} else {\n"
		"\tif (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
		"\t\tterm = \"set terminal pngcairo size %%d,%%d background rgb 'white' "
		"font 'sans,10'\"\n"
		"\t} else {\n"
		"\t\tif (strstrt(GPVAL_TERMINALS, \" png \") == 0) {\n"
		"\t\t\tprint \"sweep.gp: this gnuplot has no png or pngcairo terminal\"\n"
		"\t\t\texit status 3\n"
		"\t\t}\n"
		"\t\tterm = \"set terminal png size %%d,%%d background rgb 'white'\"\n"
		"\t}\n"
		"}\n"
		"set datafile missing \"-\"\n"
		"# log scales leave out what is not positive\n"
		"pos(x) = x > 0 ? x : NaN\n"
		"set logscale x 10\n"
		"set xrange [%g:%g]\n"
		"set xlabel \"nodes (log scale)\"\n"
		"set grid\n"
		"# room above the highest point for its label\n"
		"set offsets 0, 0, graph 0.1, 0\n",
		lo / 1.6, hi * 1.6);
	/* a tic at each preset, named: the axis is the presets */
	fputs("set xtics (", f);
	for (unsigned int r = 0; r < sw->nr_runs; r++)
		fprintf(f, "%s\"%.0f (%s)\" %.0f", r ? ", " : "", sw->runs[r].nodes,
			sw->runs[r].preset, sw->runs[r].nodes);
	fprintf(f, ")\n"
		"\n"
		"eval sprintf(term, 960, 600)\n"
		"set output \"throughput.\" . format\n"
		"set title \"vsbench sweep: pods placed per second against cluster size "
		"(seed %llu)\"\n"
		"set ylabel \"pods placed per second%s\"\n",
		sw->o.seed, sw->o.compare ? " (log scale)" : "");
	if (sw->o.compare)
		fprintf(f, "set logscale y 10\nset yrange [*:*]\nset format y \"%%.0s%%c\"\n"
			"set key bottom left\n");
	else
		fprintf(f, "set yrange [0:*]\nset format y \"%%.0s%%c\"\nset key bottom left\n");
	fprintf(f, "plot \"sweep.dat\" using 2:%u with linespoints lw 3 pt 7 title \"fast path\", \\\n",
		column(&names, "pods_per_sec"));
	if (sw->o.compare)
		fprintf(f, "     \"\" using 2:(pos($%u)) with linespoints lw 3 pt 5 "
			"title \"exhaustive scan (Volcano's search)\", \\\n",
			column(&names, "exhaustive_pods_per_sec"));
	/* each point's figure, in thousands as the y axis counts them */
	fprintf(f, "     \"\" using 2:%u:(sprintf(\"%%.0fk\", $%u / 1000)) with labels "
		"offset 0,1 notitle\n", column(&names, "pods_per_sec"),
		column(&names, "pods_per_sec"));
	fprintf(f,
		"\n"
		"unset logscale y\n"
		"set logscale xy 10\n"
		"set yrange [*:*]\n"
		"set format y \"%%g\"\n"
		"set ylabel \"ms (log scale)\"\n"
		"set key top left font \",10\"\n"
		"eval sprintf(term, %u, 600)\n"
		"set output \"cycle.\" . format\n"
		"set multiplot layout 1,%u title \"vsbench sweep: cycle time by part against "
		"cluster size (seed %llu, log-log)\"\n",
		520 + 440 * panels, panels, sw->o.seed);
	gp_cycle_plot(f, sw, &names, "first", "first cycle (places what is pending)");
	if (empty)
		gp_cycle_plot(f, sw, &names, "empty", "empty cycle (nothing left to place)");
	if (quiet)
		gp_cycle_plot(f, sw, &names, "quiet", "quiet cycle (nothing changed)");
	fprintf(f, "\nunset multiplot\n");
	return close_out(f, path);
}

/*
 * gnuplot on sweep.gp in the output directory, with @format: 0, or 1
 * with the reason on stderr.
 */
static int plot(const struct sweep *sw, const char *format)
{
	char fmt[32], why[64], path[PATH_MAX];
	const char *argv[] = { "gnuplot", "-e", fmt, "sweep.gp", NULL };
	int status;

	snprintf(fmt, sizeof(fmt), "format=\"%s\"", format);
	status = find_program("gnuplot", path);
	if (!status)
		status = spawn(path, argv, sw->o.out, NULL, NULL);
	if (status == -ENOENT) {
		fprintf(stderr, "vsbench sweep: gnuplot not found in PATH: the plots were not made "
			"(install gnuplot-nox: scripts/install-deps.sh); the data is in %s/sweep.dat, "
			"and %s/sweep.gp plots it\n", sw->o.out, sw->o.out);
		return 1;
	}
	if (status < 0) {
		fprintf(stderr, "vsbench sweep: cannot run gnuplot: %s: the %s plots were not "
			"made\n", strerror(-status), format);
		return 1;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 3) {
		fprintf(stderr, "vsbench sweep: gnuplot has no png or pngcairo terminal: the PNG "
			"plots were not made\n");
		return 1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "vsbench sweep: gnuplot %s on %s/sweep.gp: the %s plots were not "
			"made\n", describe_status(status, why, sizeof(why)), sw->o.out, format);
		return 1;
	}
	return 0;
}

static void print_ms(double v, int width)
{
	if (isnan(v))
		printf(" %*s", width, "-");
	else
		printf(" %*.3f", width, v);
}

static void print_cycle_row(const struct sweep *sw, const char *preset, const char *which,
			    const struct sweep_cycle *c)
{
	printf("%-8s %-6s", preset, which);
	print_ms(c->total, 11);
	print_ms(c->open, 10);
	for (unsigned int a = 0; a < sw->nr_actions; a++)
		print_ms(c->actions[a], 12);
	print_ms(c->close, 10);
	putchar('\n');
}

static void print_table(const struct sweep *sw)
{
	printf("vsbench sweep: seed %llu, at most %lu cycles, in-process%s\n\n", sw->o.seed,
	       sw->o.cycles, sw->o.compare ? ", with the exhaustive scan" : "");
	printf("%-8s %8s %9s %9s %11s %10s %10s %10s %9s", "PRESET", "NODES", "TASKS", "BINDS",
	       "PODS/S", "P50-MS", "P99-MS", "MAX-MS", "RSS-MIB");
	printf(sw->o.compare ? " %11s %8s\n" : "\n", "EXH-PODS/S", "SPEEDUP");
	for (unsigned int i = 0; i < sw->nr_runs; i++) {
		const struct sweep_run *r = &sw->runs[i];

		printf("%-8s %8.0f %9.0f %9.0f %11.0f", r->preset, r->nodes, r->tasks, r->binds,
		       r->pods_per_sec);
		print_ms(r->p50, 10);
		print_ms(r->p99, 10);
		print_ms(r->max, 10);
		printf(" %9.1f", r->peak_rss_mib);
		if (sw->o.compare)
			printf(" %11.0f %7.1fx", r->exhaustive_pods_per_sec, r->speedup);
		putchar('\n');
	}
	printf("\n%-8s %-6s %11s %10s", "PRESET", "CYCLE", "TOTAL-MS", "OPEN-MS");
	for (unsigned int a = 0; a < sw->nr_actions; a++) {
		char h[48];

		snprintf(h, sizeof(h), "%s-ms", sw->actions[a]);
		for (char *p = h; *p; p++)
			*p = (char)(*p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p);
		printf(" %12s", h);
	}
	printf(" %10s\n", "CLOSE-MS");
	for (unsigned int i = 0; i < sw->nr_runs; i++) {
		const struct sweep_run *r = &sw->runs[i];

		print_cycle_row(sw, r->preset, "first", &r->first);
		if (r->has_empty)
			print_cycle_row(sw, r->preset, "empty", &r->empty);
		if (r->has_quiet)
			print_cycle_row(sw, r->preset, "quiet", &r->quiet);
	}
}

int vsbench_sweep(int argc, char **argv)
{
	struct sweep *sw = calloc(1, sizeof(*sw));
	ssize_t n;
	int ret = 1;

	if (!sw) {
		fprintf(stderr, "vsbench sweep: out of memory\n");
		return 1;
	}
	sw->o = (struct sweep_opts){ .seed = 1, .cycles = 3 };
	ret = parse_opts(argc, argv, &sw->o);
	if (ret) {
		ret = ret > 0 ? 0 : 2;
		goto out;
	}
	ret = 1;
	n = readlink("/proc/self/exe", sw->self, sizeof(sw->self) - 1);
	if (n <= 0) {
		fprintf(stderr, "vsbench sweep: /proc/self/exe: %s\n", strerror(errno));
		goto out;
	}
	sw->self[n] = '\0';

	for (unsigned int i = 0; i < sw->o.nr_presets; i++) {
		if (run_preset(sw, sw->o.presets[i], &sw->runs[i]))
			goto out;
		sw->nr_runs++;
		note_actions(sw, json_array_get(json_object_get(sw->runs[i].obj, "cycles"), 0));
	}
	for (unsigned int i = 0; i < sw->nr_runs; i++)
		if (parse_run(sw, &sw->runs[i]))
			goto out;
	qsort(sw->runs, sw->nr_runs, sizeof(sw->runs[0]), cmp_nodes);

	if (write_json(sw) || write_dat(sw) || write_gp(sw))
		goto out;
	print_table(sw);
	ret = plot(sw, "svg");
	if (!ret && sw->o.png)
		ret = plot(sw, "png");
	printf("\nwrote %s/: sweep.json sweep.dat sweep.gp%s%s\n", sw->o.out,
	       ret ? "" : " throughput.svg cycle.svg",
	       !ret && sw->o.png ? " throughput.png cycle.png" : "");
out:
	for (unsigned int i = 0; i < SWEEP_MAX_PRESETS; i++)
		json_decref(sw->runs[i].obj);
	free(sw->o.list);
	free(sw);
	return ret;
}
