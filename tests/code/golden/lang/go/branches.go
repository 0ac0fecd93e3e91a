// expect-file: sloc=94 callables=11
// Every construct of gocyclo's table, one function each.
package branches

import "errors"

var errEmpty = errors.New("empty")

// A package-level function literal is a callable of its own (gocyclo names it `check`).
var check = func(v int) bool { // expect: cc=2 sloc=3
	return v > 0 && v < 10
}

func plain(a int) int { // expect: cc=1 sloc=3
	return a + 1
}

func ifElseIf(n int) int { // expect: cc=3 sloc=9
	if n > 0 {
		return 1
	} else if n < 0 {
		return -1
	} else {
		return 0
	}
}

func loops(xs []int, m map[string]int) int { // expect: cc=4 sloc=13
	total := 0
	for i := 0; i < 3; i++ {
		total += i
	}
	for _, x := range xs { // expect-clone: F
		total += x
	}
	for total > 100 {
		total /= 2
	}
	return total
}

func switches(v any, ch chan int) int { // expect: cc=5 sloc=19
	switch v {
	case 1, 2:
		return 1
	case 3:
		return 3
	default:
	}
	switch v.(type) {
	case string:
		return 4
	}
	select {
	case <-ch:
		return 5
	default:
	}
	return 0
}

func logical(a, b, c bool) bool { // expect: cc=4 sloc=3
	return a && b || c && !a
}

// Function literals inside a function are part of it.
func withClosure(xs []int) func() int { // expect: cc=3 sloc=11
	if len(xs) == 0 {
		return nil
	}
	return func() int {
		if xs[0] > 0 {
			return xs[0]
		}
		return 0
	}
}

type Stack[T any] struct{ items []T }

func (s *Stack[T]) Pop() (T, error) { // expect: cc=2 sloc=9
	var zero T
	if len(s.items) == 0 {
		return zero, errEmpty
	}
	last := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return last, nil
}

func sumInts(xs []int) int { // expect: cc=2 sloc=7; expect-clone: E
	total := 0
	for _, x := range xs { // expect-clone: F
		total += x
	}
	return total
}

func countAll(ys []int) int { // expect: cc=2 sloc=7; expect-clone: E
	count := 0
	for _, y := range ys { // expect-clone: F
		count += y
	}
	return count
}

func first(xs []string) string { // expect: cc=3 sloc=6
	if xs != nil && len(xs) > 0 {
		return xs[0]
	}
	return ""
}


// expect-hit: 21-25 go-else-after-return
// expect-hit: 50-53 go-single-case-type-switch
// expect-hit: 108-108 go-nil-check-before-len
