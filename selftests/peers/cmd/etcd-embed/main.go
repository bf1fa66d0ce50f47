// SPDX-License-Identifier: Apache-2.0
//
// etcd-embed: a single-member etcd on loopback for the real kube-apiserver
// that selftests/real-apiserver.sh starts (Documentation/kube-test-apiserver.md).
// It is etcd's own server (go.etcd.io/etcd/server/v3/embed, pinned in
// selftests/peers/go.mod), started with the few settings a test cluster
// needs; building upstream etcd's main would pull in its command-line tree
// for nothing. It listens on 127.0.0.1 only, over plain HTTP: nothing but
// the kube-apiserver started next to it talks to it.
//
// It says "ready" on stderr once the member serves, and stops cleanly on
// SIGTERM or SIGINT.
package main

import (
	"flag"
	"fmt"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
)

func loopbackURL(port int) url.URL {
	return url.URL{Scheme: "http", Host: fmt.Sprintf("127.0.0.1:%d", port)}
}

func die(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "etcd-embed: "+format+"\n", args...)
	os.Exit(1)
}

func main() {
	dataDir := flag.String("data-dir", "", "directory of the member's data (created if missing)")
	clientPort := flag.Int("client-port", 0, "loopback port for clients (kube-apiserver)")
	peerPort := flag.Int("peer-port", 0, "loopback port for the (unused) peer listener")
	readyTimeout := flag.Duration("ready-timeout", 60*time.Second, "how long the member may take to serve")
	logFile := flag.String("log", "", "etcd's own log file (default: stderr)")
	flag.Parse()

	if flag.NArg() != 0 {
		die("unexpected argument %q", flag.Arg(0))
	}
	if *dataDir == "" {
		die("--data-dir is required")
	}
	for _, p := range []struct {
		name string
		port int
	}{{"--client-port", *clientPort}, {"--peer-port", *peerPort}} {
		if p.port < 1 || p.port > 65535 {
			die("%s %d: not a port (1-65535)", p.name, p.port)
		}
	}
	if *clientPort == *peerPort {
		die("--client-port and --peer-port are both %d", *clientPort)
	}
	if *readyTimeout <= 0 {
		die("--ready-timeout %v: must be positive", *readyTimeout)
	}

	cfg := embed.NewConfig()
	cfg.Name = "vsched-test"
	cfg.Dir = filepath.Clean(*dataDir)
	client := loopbackURL(*clientPort)
	peer := loopbackURL(*peerPort)
	cfg.ListenClientUrls = []url.URL{client}
	cfg.AdvertiseClientUrls = []url.URL{client}
	cfg.ListenPeerUrls = []url.URL{peer}
	cfg.AdvertisePeerUrls = []url.URL{peer}
	cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
	// A throw-away test cluster: losing it on a crash costs nothing, and
	// fsync on a shared machine's disk costs seconds.
	cfg.UnsafeNoFsync = true
	if *logFile != "" {
		cfg.LogOutputs = []string{*logFile}
	}

	e, err := embed.StartEtcd(cfg)
	if err != nil {
		die("start: %v", err)
	}

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)

	select {
	case <-e.Server.ReadyNotify():
		fmt.Fprintf(os.Stderr, "etcd-embed: ready on %s\n", client.String())
	case <-time.After(*readyTimeout):
		e.Server.Stop()
		e.Close()
		die("not ready after %v", *readyTimeout)
	case s := <-sig:
		e.Close()
		die("%v before ready", s)
	}

	select {
	case err := <-e.Err():
		e.Close()
		die("serving: %v", err)
	case s := <-sig:
		fmt.Fprintf(os.Stderr, "etcd-embed: %v: stopping\n", s)
		e.Close()
	}
}
