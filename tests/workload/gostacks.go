// A Go program for the DWARF call-stack tests (tests/diff/run_dwarf_go.sh):
// Go's linker writes its CFI into .debug_frame only (no .eh_frame, no
// .eh_frame_hdr).  Two call paths whose callers the test knows:
// main.main -> main.spinFib -> main.fib (recursive), and
// main.main -> main.spinSort -> sort.Sort -> ... (the standard library).
//
// Usage: gostacks [-t MS]   (default 300 ms)
package main

import (
	"flag"
	"fmt"
	"sort"
	"time"
)

//go:noinline
func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}

//go:noinline
func spinFib() int {
	return fib(20)
}

//go:noinline
func spinSort(n int) int {
	v := make([]int, n)
	for i := range v {
		v[i] = (i * 7919) % 10007
	}
	sort.Ints(v)
	return v[n/2]
}

func main() {
	ms := flag.Int("t", 300, "milliseconds to run")
	flag.Parse()
	end := time.Now().Add(time.Duration(*ms) * time.Millisecond)
	s := 0
	for time.Now().Before(end) {
		s += spinFib() + spinSort(5000)
	}
	fmt.Println(s > 0)
}
