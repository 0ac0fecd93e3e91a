// expect-file: sloc=84 callables=14
// Every construct of rust-code-analysis's cyclomatic table, one function each.

/// Doc comments are comments: not SLOC.
fn plain(a: i32) -> i32 { // expect: cc=1 sloc=3
    a + 1
}

fn if_else_if(n: i32) -> i32 { // expect: cc=3 sloc=9
    if n > 0 {
        1
    } else if n < 0 {
        -1
    } else {
        0
    }
}

fn loops(xs: &[i32]) -> i32 { // expect: cc=6 sloc=19
    let mut total = 0;
    for x in xs { // expect-clone: J
        total += x;
    }
    while total > 100 {
        total /= 2;
    }
    while let Some(last) = xs.last() {
        total += last;
        break;
    }
    loop {
        if total >= 0 {
            break;
        }
    }
    total
}

fn matches(v: Option<i32>) -> i32 { // expect: cc=5 sloc=7
    match v {
        Some(x) if x > 0 => x,
        Some(_) => 0,
        None => -1,
    }
}

fn tries(text: &str) -> Result<i32, std::num::ParseIntError> { // expect: cc=3 sloc=4
    let n: i32 = text.trim().parse()?;
    Ok(if n > 0 { n } else { 0 })
}

fn logical(a: bool, b: bool, c: bool) -> bool { // expect: cc=3 sloc=4
    assert!(a || b); // macro arguments: `||` is not counted
    a && b || c
}

fn closures(xs: &[i32]) -> usize { // expect: cc=2 sloc=7
    let positive = |x: &&i32| **x > 0 && **x < 10; // expect: cc=2 sloc=1
    if xs.is_empty() {
        return 0;
    }
    xs.iter().filter(positive).count()
}

struct Stack<T> {
    items: Vec<T>,
}

impl<T: Clone> Stack<T> {
    fn peek(&self) -> Option<T> { // expect: cc=1 sloc=3
        self.items.last().cloned()
    }

    fn generic<F>(&self, f: F) -> bool // expect: cc=2 sloc=6
    where
        F: for<'a> Fn(&'a T) -> bool,
    {
        self.items.iter().all(|x| f(x)) // expect: cc=1 sloc=1
    }
}

fn sum_all(xs: &[i64]) -> i64 { // expect: cc=2 sloc=7; expect-clone: I
    let mut total = 0;
    for x in xs { // expect-clone: J
        total += x;
    }
    total
}

fn sum_counts(counts: &[i64]) -> i64 { // expect: cc=2 sloc=7; expect-clone: I
    let mut n = 0;
    for c in counts { // expect-clone: J
        n += c;
    }
    n
}

fn has_items(v: &[u8]) -> bool { // expect: cc=1 sloc=3
    return v.len() > 0;
}


// expect-hit: 78-78 rust-redundant-closure
// expect-hit: 99-99 rust-len-zero
// expect-hit: 99-99 rust-needless-return
