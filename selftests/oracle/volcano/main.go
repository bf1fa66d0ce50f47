// volcano-oracle runs a vsched scenario file through Volcano's own scheduler (the module pinned
// in go.mod) and prints the decisions in the JSON of `vsctl scenario run -o json`, for
// scripts/conformance.sh to compare. See Documentation/conformance.md.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sort"

	"github.com/spf13/pflag"
	"k8s.io/klog/v2"

	"volcano.sh/volcano/cmd/scheduler/app/options"

	_ "volcano.sh/volcano/pkg/scheduler/actions"
	_ "volcano.sh/volcano/pkg/scheduler/plugins"
)

func usage() {
	fmt.Fprintf(os.Stderr, "usage: volcano-oracle [-v N] [-runs N] FILE\n"+
		"       volcano-oracle fuzz [options]    (volcano-oracle fuzz -h)\n"+
		"Run one scenario file through Volcano's scheduler; print its decisions as JSON.\n"+
		"  -runs N  runs of the file (20); every distinct outcome is printed\n"+
		"  -v N     Volcano's log level, logs on standard error\n")
	os.Exit(2)
}

// writeObject writes a JSON object whose keys keep the given order.
func writeObject(buf *bytes.Buffer, keys []string, vals []string) {
	buf.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			buf.WriteString(", ")
		}
		kj, _ := json.Marshal(k)
		vj, _ := json.Marshal(vals[i])
		buf.Write(kj)
		buf.WriteString(": ")
		buf.Write(vj)
	}
	buf.WriteByte('}')
}

func sortedMap(buf *bytes.Buffer, m map[string]string) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	vals := make([]string, len(keys))
	for i, k := range keys {
		vals[i] = m[k]
	}
	writeObject(buf, keys, vals)
}

// writeDecisions writes the decisions as the members of vsctl's JSON object.
func writeDecisions(buf *bytes.Buffer, d *decisions, indent string) {
	buf.WriteString(indent + "\"binds\": ")
	keys := make([]string, len(d.binds))
	vals := make([]string, len(d.binds))
	for i, b := range d.binds {
		keys[i], vals[i] = b[0], b[1]
	}
	writeObject(buf, keys, vals)
	fmt.Fprintf(buf, ",\n%s\"bindCount\": %d,\n%s\"evicts\": ", indent, len(d.binds), indent)
	ej, _ := json.Marshal(append([]string{}, d.evicts...))
	buf.Write(ej)
	fmt.Fprintf(buf, ",\n%s\"evictCount\": %d,\n%s\"pipelined\": ", indent, len(d.evicts),
		indent)
	sortedMap(buf, d.pipelined)
	buf.WriteString(",\n" + indent + "\"podgroupPhase\": ")
	sortedMap(buf, d.phases)
	if d.scores != nil {
		// encoding/json writes map keys sorted and floats as Go's shortest form
		sj, _ := json.Marshal(d.scores)
		buf.WriteString(",\n" + indent + "\"nodeScores\": ")
		buf.Write(sj)
	}
}

// canonical is the decisions as vsctl's comparison sees them: binds and evictions as sets.
func canonical(d *decisions) string {
	binds := map[string]string{}
	for _, b := range d.binds {
		binds[b[0]] = b[1]
	}
	evicts := append([]string{}, d.evicts...)
	sort.Strings(evicts)
	var buf bytes.Buffer
	sortedMap(&buf, binds)
	fmt.Fprintf(&buf, "%d%q", len(d.binds), evicts)
	sortedMap(&buf, d.pipelined)
	sortedMap(&buf, d.phases)
	return buf.String()
}

// printResult prints the first outcome as vsctl prints a file's decisions; the other
// outcomes Volcano gave for the same file, if any, follow under "alternatives".
func printResult(w io.Writer, file string, mark *conformanceMark, outcomes []*decisions, runs int,
	runErr error) {
	var buf bytes.Buffer
	fj, _ := json.Marshal(file)
	buf.WriteString("[\n  {\"file\": ")
	buf.Write(fj)
	vj, _ := json.Marshal("volcano.sh/volcano " + volcanoVersion())
	buf.WriteString(", \"oracle\": ")
	buf.Write(vj)
	if mark != nil {
		kj, _ := json.Marshal(mark.Known)
		buf.WriteString(", \"known\": ")
		buf.Write(kj)
		kk, _ := json.Marshal(append([]string{}, mark.Keys...))
		buf.WriteString(", \"knownKeys\": ")
		buf.Write(kk)
	}
	if runErr != nil {
		ej, _ := json.Marshal(runErr.Error())
		buf.WriteString(", \"result\": \"fail\", \"error\": ")
		buf.Write(ej)
		buf.WriteString("}\n]\n")
		w.Write(buf.Bytes())
		return
	}
	fmt.Fprintf(&buf, ", \"result\": \"ran\", \"runs\": %d, \"outcomes\": %d,\n", runs,
		len(outcomes))
	writeDecisions(&buf, outcomes[0], "   ")
	if len(outcomes) > 1 {
		buf.WriteString(",\n   \"alternatives\": [")
		for i, d := range outcomes[1:] {
			if i > 0 {
				buf.WriteString(",")
			}
			buf.WriteString("\n    {\n")
			writeDecisions(&buf, d, "     ")
			buf.WriteString("}")
		}
		buf.WriteString("]")
	}
	buf.WriteString("}\n]\n")
	w.Write(buf.Bytes())
}

// volcanoVersion is the version of Volcano linked in, as go.mod pinned it.
func volcanoVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, m := range bi.Deps {
			if m.Path == "volcano.sh/volcano" {
				return m.Version
			}
		}
	}
	return "(unknown)"
}

// runFile runs the file @runs times, each on a fresh cache: where Volcano's choice depends on
// the order of a Go map (reclaim's and preempt's victims, among others) runs differ, and every
// distinct outcome is kept, in the order first seen.
func runFile(file string, runs int) (*conformanceMark, []*decisions, error) {
	scn, text, err := readScenario(file)
	if err != nil {
		return nil, nil, err
	}
	var scores map[string]map[string]float64
	tasks, err := scoredTasks(scn)
	if err == nil && len(tasks) > 0 {
		scores, err = scoreNodes(scn, text, tasks)
	}
	if err != nil {
		return scn.Conformance, nil, err
	}
	var outcomes []*decisions
	seen := map[string]bool{}
	for i := 0; i < runs; i++ {
		cl, err := buildCluster(scn)
		if err != nil {
			return scn.Conformance, nil, err
		}
		sc, err := loadConf(text)
		if err != nil {
			return scn.Conformance, nil, err
		}
		d, err := newOracle(cl, sc).run(scn.Cycles)
		if err != nil {
			return scn.Conformance, nil, err
		}
		d.scores = scores
		if key := canonical(d); !seen[key] {
			seen[key] = true
			outcomes = append(outcomes, d)
		}
	}
	return scn.Conformance, outcomes, nil
}

func main() {
	klogFlags := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(klogFlags)
	flag.Usage = usage
	fuzzing := len(os.Args) > 1 && os.Args[1] == "fuzz"
	if fuzzing {
		// Volcano's logs, thousands of cases of them, would bury the report
		klogFlags.Set("logtostderr", "false")
		klogFlags.Set("stderrthreshold", "FATAL")
		klog.SetOutput(io.Discard)
	}
	verbosity := flag.Int("v", 0, "Volcano's log level (klog -v), logs on standard error")
	runs := flag.Int("runs", 20, "run the file this many times and report every distinct outcome")
	if !fuzzing {
		flag.Parse()
		if flag.NArg() != 1 || *runs < 1 {
			usage()
		}
		klogFlags.Set("logtostderr", "true")
		klogFlags.Set("v", fmt.Sprint(*verbosity))
	}
	// vc-scheduler's options as its command line defaults them (feasible nodes to find,
	// priority classes on...): the actions read them
	opts := options.NewServerOption()
	opts.AddFlags(pflag.NewFlagSet("vc-scheduler", pflag.ContinueOnError))
	opts.RegisterOptions()

	if fuzzing {
		os.Exit(fuzzMain(os.Args[2:]))
	}
	mark, outcomes, err := runFile(flag.Arg(0), *runs)
	printResult(os.Stdout, flag.Arg(0), mark, outcomes, *runs, err)
	if err != nil {
		os.Exit(1)
	}
}
