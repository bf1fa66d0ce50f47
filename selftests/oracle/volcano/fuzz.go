// volcano-oracle fuzz: differential testing of vsched against Volcano. Each case is a random
// scenario file (gen.go) run through vsched (`vsctl scenario run -o json`, executed) and
// through Volcano in this process (runFile, as for one file), and judged by the one comparison
// scripts/conformance.sh runs too (scripts/conformance-verdict.jq, executed with jq). A
// difference is shrunk to a small scenario of the same kind and saved.
// Documentation/conformance.md, "Differential testing".
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

type fuzzer struct {
	vsctl   string
	verdict string // the jq program
	runs    int
	dir     string // scratch
	save    string // where shrunk differences go
	jq      *exec.Cmd
	jqIn    io.WriteCloser
	jqOut   *bufio.Reader
}

// The comparison's answer, as conformance-verdict.jq writes it with `--arg out json`.
type verdict struct {
	Verdict string   `json:"verdict"`
	Diffs   []string `json:"diffs"`
	Mark    *string  `json:"mark"`
	Varies  string   `json:"varies"`
}

// kind is the decision a difference is in: the key its line starts with ("binds",
// "evicts"...), or the whole line when a side could not run the file.
func kind(diff string) string {
	if i := strings.Index(diff, ": "); i > 0 && !strings.Contains(diff[:i], " ") {
		return diff[:i]
	}
	return diff
}

// compactOr is the JSON text on one line, or alt when it is not JSON (a side that printed
// nothing: the comparison says so).
func compactOr(js []byte, alt string) []byte {
	var b bytes.Buffer
	if err := json.Compact(&b, js); err != nil {
		return []byte(alt)
	}
	return b.Bytes()
}

// judge runs one case through both sides. Volcano's first outcome comes back too, for the
// expectations of a saved case.
func (f *fuzzer) judge(c *fuzzCase) (*verdict, *decisions, error) {
	file := filepath.Join(f.dir, "case.yaml")
	if err := os.WriteFile(file, c.write(fmt.Sprintf("seed %d", c.seed), nil), 0o644); err != nil {
		return nil, nil, err
	}
	// vsctl exits 1 when a file fails its expectations: a generated file has none, and
	// a file it cannot run is in its JSON as an error, which the comparison reports
	out, _ := exec.Command(f.vsctl, "scenario", "run", "-o", "json", file).Output()
	mark, outcomes, err := f.runOracle(file)
	var ob bytes.Buffer
	printResult(&ob, file, mark, outcomes, f.runs, err)

	var pair bytes.Buffer
	pair.WriteByte('[')
	pair.Write(compactOr(out, "[]"))
	pair.WriteByte(',')
	pair.Write(compactOr(ob.Bytes(), "[]"))
	pair.WriteString("]\n")
	if _, err := f.jqIn.Write(pair.Bytes()); err != nil {
		return nil, nil, fmt.Errorf("jq -f %s: %v", f.verdict, err)
	}
	line, err := f.jqOut.ReadBytes('\n')
	if err != nil {
		return nil, nil, fmt.Errorf("jq -f %s: %v", f.verdict, err)
	}
	var v verdict
	if err := json.Unmarshal(line, &v); err != nil {
		return nil, nil, fmt.Errorf("jq -f %s: %v", f.verdict, err)
	}
	var first *decisions
	if len(outcomes) > 0 {
		first = outcomes[0]
	}
	return &v, first, nil
}

// startJq starts the comparison once, as a stream of pairs: jq's start-up (tens of
// milliseconds) would otherwise cost more than a case.
func (f *fuzzer) startJq() error {
	cmd := exec.Command("jq", "-c", "--unbuffered", "--arg", "out", "json", "-f", f.verdict)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("jq: %v", err)
	}
	f.jq, f.jqIn, f.jqOut = cmd, in, bufio.NewReader(out)
	return nil
}

func (f *fuzzer) stopJq() {
	f.jqIn.Close()
	f.jq.Wait()
}

// panicked starts the oracle's error for a case Volcano panicked on.
const panicked = "Volcano panicked: "

// runOracle is runFile, with a panic of Volcano's (an assertion on resources, say) turned into
// the oracle's error, so that the case is reported rather than ending the run.
func (f *fuzzer) runOracle(file string) (mark *conformanceMark, outcomes []*decisions,
	err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s%v", panicked, p)
		}
	}()
	mark, outcomes, _, err = runFile(file, f.runs, f.runs, false)
	return mark, outcomes, err
}

func (c *fuzzCase) clone() *fuzzCase {
	js, _ := json.Marshal(c.scn)
	n := &fuzzCase{seed: c.seed}
	json.Unmarshal(js, &n.scn)
	for _, t := range c.tiers {
		n.tiers = append(n.tiers, append([]string(nil), t...))
	}
	n.actions = append([]string(nil), c.actions...)
	return n
}

func without[T any](xs []T, i int) []T {
	return append(append([]T(nil), xs[:i]...), xs[i+1:]...)
}

// keepPods keeps the pods for which keep says so; a group's minMember does not exceed the
// pods it keeps (the generator's cases with reclaim have it at the job's size).
func (c *fuzzCase) keepPods(keep func(p *podIn) bool) {
	var pods []podIn
	count := map[string]int32{}
	for i := range c.scn.Pods {
		if keep(&c.scn.Pods[i]) {
			pods = append(pods, c.scn.Pods[i])
			count[c.scn.Pods[i].PodGroup]++
		}
	}
	c.scn.Pods = pods
	for i := range c.scn.PodGroups {
		pg := &c.scn.PodGroups[i]
		if pg.MinMember != nil && *pg.MinMember > count[pg.Name] {
			n := count[pg.Name]
			pg.MinMember = &n
		}
	}
}

// reductions are the smaller cases one step away: a cycle, an action, a plugin, an object
// (with what depends on it), or one constraint or setting of an object fewer.
func (c *fuzzCase) reductions() []*fuzzCase {
	var out []*fuzzCase
	try := func(change func(n *fuzzCase) bool) {
		n := c.clone()
		if change(n) && n.departure() == "" {
			out = append(out, n)
		}
	}
	s := &c.scn
	try(func(n *fuzzCase) bool { n.scn.Cycles--; return c.scn.Cycles > 1 })
	for i := range c.actions {
		i := i
		try(func(n *fuzzCase) bool {
			n.actions = without(n.actions, i)
			return len(c.actions) > 1
		})
	}
	for t := range c.tiers {
		for p := range c.tiers[t] {
			t, p := t, p
			try(func(n *fuzzCase) bool {
				n.tiers[t] = without(n.tiers[t], p)
				if len(n.tiers[t]) == 0 {
					n.tiers = without(n.tiers, t)
				}
				return true
			})
		}
	}
	for g := range s.PodGroups {
		g := g
		try(func(n *fuzzCase) bool {
			name := n.scn.PodGroups[g].Name
			n.scn.PodGroups = without(n.scn.PodGroups, g)
			n.keepPods(func(p *podIn) bool { return p.PodGroup != name })
			return true
		})
	}
	for i := range s.Pods {
		i := i
		try(func(n *fuzzCase) bool {
			gone := &c.scn.Pods[i]
			n.keepPods(func(p *podIn) bool { return p.Name != gone.Name })
			return true
		})
	}
	for i := range s.Nodes {
		i := i
		try(func(n *fuzzCase) bool {
			name := n.scn.Nodes[i].Name
			n.scn.Nodes = without(n.scn.Nodes, i)
			n.keepPods(func(p *podIn) bool {
				return p.Node != name && p.PipelinedTo != name
			})
			return true
		})
	}
	for q := range s.Queues {
		q := q
		try(func(n *fuzzCase) bool {
			name := n.scn.Queues[q].Name
			n.scn.Queues = without(n.scn.Queues, q)
			var groups []podGroupIn
			gone := map[string]bool{}
			for _, pg := range n.scn.PodGroups {
				if pg.Queue == name {
					gone[pg.Name] = true
				} else {
					groups = append(groups, pg)
				}
			}
			n.scn.PodGroups = groups
			n.keepPods(func(p *podIn) bool { return !gone[p.PodGroup] })
			return true
		})
	}
	try(func(n *fuzzCase) bool {
		n.scn.PriorityClasses = nil
		return len(c.scn.PriorityClasses) > 0
	})
	for i := range s.Nodes {
		i := i
		for k := range s.Nodes[i].Labels {
			k := k
			try(func(n *fuzzCase) bool { delete(n.scn.Nodes[i].Labels, k); return true })
		}
		try(func(n *fuzzCase) bool {
			n.scn.Nodes[i].Taints = nil
			return len(c.scn.Nodes[i].Taints) > 0
		})
		try(func(n *fuzzCase) bool {
			n.scn.Nodes[i].Unschedulable = false
			return c.scn.Nodes[i].Unschedulable
		})
	}
	for i := range s.Pods {
		i := i
		p := &s.Pods[i]
		for _, change := range []struct {
			has   bool
			clear func(p *podIn)
		}{
			{p.NodeSelector != nil, func(p *podIn) { p.NodeSelector = nil }},
			{p.Tolerations != nil, func(p *podIn) { p.Tolerations = nil }},
			{p.Affinity != nil, func(p *podIn) { p.Affinity = nil }},
			{p.Ports != nil, func(p *podIn) { p.Ports = nil }},
			{p.SchedulingGates != nil, func(p *podIn) { p.SchedulingGates = nil }},
			{p.Labels != nil, func(p *podIn) { p.Labels = nil }},
			{p.Priority != nil, func(p *podIn) { p.Priority = nil }},
			{p.PriorityClass != "", func(p *podIn) { p.PriorityClass = "" }},
			{p.Preemptable != nil, func(p *podIn) { p.Preemptable = nil }},
			{p.Role != "", func(p *podIn) { p.Role = "" }},
			{p.PipelinedTo != "", func(p *podIn) { p.PipelinedTo = "" }},
			{p.Phase == "Releasing", func(p *podIn) { p.Phase = "Running" }},
		} {
			change := change
			try(func(n *fuzzCase) bool { change.clear(&n.scn.Pods[i]); return change.has })
		}
	}
	for i := range s.Queues {
		i := i
		q := &s.Queues[i]
		for _, change := range []struct {
			has   bool
			clear func(q *queueIn)
		}{
			{q.Capability != nil, func(q *queueIn) { q.Capability = nil }},
			{q.Guarantee != nil, func(q *queueIn) { q.Guarantee = nil }},
			{q.Deserved != nil, func(q *queueIn) { q.Deserved = nil }},
			{q.Reclaimable != nil, func(q *queueIn) { q.Reclaimable = nil }},
			{q.Weight != nil, func(q *queueIn) { q.Weight = nil }},
		} {
			change := change
			try(func(n *fuzzCase) bool { change.clear(&n.scn.Queues[i]); return change.has })
		}
	}
	for i := range s.PodGroups {
		i := i
		pg := &s.PodGroups[i]
		try(func(n *fuzzCase) bool {
			n.scn.PodGroups[i].MinTaskMember = nil
			return pg.MinTaskMember != nil
		})
		try(func(n *fuzzCase) bool {
			n.scn.PodGroups[i].PriorityClass = ""
			return pg.PriorityClass != ""
		})
		try(func(n *fuzzCase) bool {
			zero := int32(0)
			n.scn.PodGroups[i].MinMember = &zero
			return pg.MinMember != nil && *pg.MinMember > 0
		})
	}
	return out
}

// shrink is delta debugging by single steps: take the first smaller case that still differs
// in the same decision, until no step keeps the difference.
func (f *fuzzer) shrink(c *fuzzCase, want string) (*fuzzCase, *verdict, int) {
	tests := 0
	var last *verdict
	for progress := true; progress; {
		progress = false
		for _, n := range c.reductions() {
			tests++
			v, _, err := f.judge(n)
			if err != nil || v.Verdict != "DIFF" {
				continue
			}
			for _, d := range v.Diffs {
				if kind(d) == want {
					c, last, progress = n, v, true
					break
				}
			}
			if progress {
				break
			}
		}
	}
	return c, last, tests
}

// saveCase writes the shrunk case with Volcano's decisions as its expectations, so that
// vsctl scenario run fails on it until vsched agrees (or the file is marked known).
func (f *fuzzer) saveCase(c *fuzzCase, v *verdict, base int64) (string, error) {
	_, d, err := f.judge(c)
	if err != nil {
		return "", err
	}
	var exp bytes.Buffer
	if d != nil {
		binds := map[string]string{}
		for _, b := range d.binds {
			binds[b[0]] = b[1]
		}
		bj, _ := json.Marshal(binds)
		ej, _ := json.Marshal(append([]string{}, d.evicts...))
		pj, _ := json.Marshal(d.pipelined)
		fmt.Fprintf(&exp, "  binds: %s\n  bindCount: %d\n  evicts: %s\n  pipelined: %s\n",
			bj, len(d.binds), ej, pj)
	}
	head := fmt.Sprintf("volcano-oracle fuzz -seed %d: case seed %d, shrunk.\n"+
		"Expectations: Volcano %s's decisions.\nDIFF: %s", base, c.seed, volcanoVersion(),
		strings.Join(v.Diffs, "; "))
	path := filepath.Join(f.save, fmt.Sprintf("fuzz-seed-%d.yaml", c.seed))
	return path, os.WriteFile(path, c.write(head, exp.Bytes()), 0o644)
}

func fuzzUsage(fs *flag.FlagSet) func() {
	return func() {
		fmt.Fprintf(os.Stderr, "usage: volcano-oracle fuzz [options]\n"+
			"Random scenarios through vsched and Volcano, compared; differences shrunk "+
			"and saved.\n")
		fs.PrintDefaults()
		os.Exit(2)
	}
}

func fuzzMain(args []string) int {
	fs := flag.NewFlagSet("fuzz", flag.ExitOnError)
	seed := fs.Int64("seed", 1, "the first case's seed; case i has seed+i")
	cases := fs.Int("cases", 0, "stop after this many cases (0: no limit)")
	secs := fs.Float64("time", 0, "stop after this many seconds (0: no limit)")
	vsctl := fs.String("vsctl", "./vsctl", "the vsctl program")
	verdictJq := fs.String("verdict", "scripts/conformance-verdict.jq", "the comparison")
	runs := fs.Int("runs", 8, "Volcano's runs of each case (its distinct outcomes count)")
	save := fs.String("save", "", "write each shrunk difference into this directory")
	noShrink := fs.Bool("no-shrink", false, "report differences without shrinking them")
	gen := fs.Bool("gen", false, "print the case of -seed and exit")
	fs.Usage = fuzzUsage(fs)
	fs.Parse(args)
	if fs.NArg() != 0 || *runs < 1 || (*cases == 0 && *secs == 0 && !*gen) {
		fmt.Fprintln(os.Stderr, "volcano-oracle fuzz: give -cases or -time")
		fs.Usage()
	}
	if *gen {
		os.Stdout.Write(generate(*seed).write(fmt.Sprintf("seed %d", *seed), nil))
		return 0
	}
	dir, err := os.MkdirTemp("", "vsched-fuzz-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "volcano-oracle fuzz:", err)
		return 2
	}
	defer os.RemoveAll(dir)
	for _, prog := range []string{*vsctl, *verdictJq} {
		if _, err := os.Stat(prog); err != nil {
			fmt.Fprintln(os.Stderr, "volcano-oracle fuzz:", err)
			return 2
		}
	}
	f := &fuzzer{vsctl: *vsctl, verdict: *verdictJq, runs: *runs, dir: dir, save: *save}
	if err := f.startJq(); err != nil {
		fmt.Fprintln(os.Stderr, "volcano-oracle fuzz:", err)
		return 2
	}
	defer f.stopJq()

	start := time.Now()
	var n, same, known, diff, crashed int
	for ; (*cases == 0 || n < *cases) &&
		(*secs == 0 || time.Since(start).Seconds() < *secs); n++ {
		c := generate(*seed + int64(n))
		if d := c.departure(); d != "" {
			fmt.Fprintf(os.Stderr, "volcano-oracle fuzz: seed %d: generated a departure: %s\n",
				c.seed, d)
			return 2
		}
		v, _, err := f.judge(c)
		if err != nil {
			fmt.Fprintf(os.Stderr, "volcano-oracle fuzz: seed %d: %v\n", c.seed, err)
			return 2
		}
		// every case carries the phases' mark: KNOWN without a difference is SAME
		switch {
		case len(v.Diffs) == 1 && strings.Contains(v.Diffs[0], panicked):
			// an assertion of Volcano's (PANIC_ON_ERROR, on by default) ends
			// vc-scheduler: there is no decision to compare
			crashed++
			fmt.Printf("SKIP seed %d: %s\n", c.seed, v.Diffs[0])
			continue
		case v.Verdict == "SAME" || (v.Verdict == "KNOWN" && len(v.Diffs) == 0):
			same++
			continue
		case v.Verdict == "KNOWN":
			known++
			continue
		}
		diff++
		fmt.Printf("DIFF seed %d: %s\n", c.seed, strings.Join(v.Diffs, "; "))
		if *noShrink {
			continue
		}
		small, sv, tests := f.shrink(c, kind(v.Diffs[0]))
		if sv == nil {
			sv = v
		}
		fmt.Printf("  shrunk in %d tests to %d nodes, %d pods: %s\n", tests,
			len(small.scn.Nodes), len(small.scn.Pods), strings.Join(sv.Diffs, "; "))
		if *save != "" {
			path, err := f.saveCase(small, sv, *seed)
			if err != nil {
				fmt.Fprintf(os.Stderr, "volcano-oracle fuzz: %v\n", err)
				return 2
			}
			fmt.Printf("  saved %s\n", path)
		}
	}
	el := time.Since(start).Seconds()
	agree := 100.0
	if n > crashed {
		agree = 100 * float64(same+known) / float64(n-crashed)
	}
	fmt.Printf("%d cases (seeds %d..%d) in %.1f s, %.1f cases/s: %d same, %d same but "+
		"PodGroup phases (v1.10.0), %d differ, %d Volcano panicked on; agreement %.2f%%\n",
		n, *seed, *seed+int64(n)-1, el, float64(n)/el, same, known, diff, crashed, agree)
	if diff > 0 {
		return 1
	}
	return 0
}
