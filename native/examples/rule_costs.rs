//! Per-rule matching cost over a corpus: `cargo run --release --example rule_costs --
//! RULES.json FILES.json` (RULES.json: a JSON list of rule texts; FILES.json: paths).
use _core::lang::by_name;
use _core::rules::RulePack;
use ast_grep_core::matcher::MatcherExt;
use ast_grep_core::tree_sitter::StrDoc;
use ast_grep_core::AstGrep;
use ast_grep_core::Matcher;
use std::time::{Duration, Instant};

struct Cpu(f64);
#[allow(unsafe_code, reason = "reads the thread's CPU time")]
fn now() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec into the struct it is given.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}
fn cpu() -> Cpu {
    Cpu(now())
}
impl Cpu {
    fn elapsed(&self) -> Duration {
        Duration::from_secs_f64(now() - self.0)
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rules: Vec<String> =
        serde_json::from_str(&std::fs::read_to_string(&args[1]).unwrap()).unwrap();
    let files: Vec<String> =
        serde_json::from_str(&std::fs::read_to_string(&args[2]).unwrap()).unwrap();
    let lang = by_name("python").unwrap();
    let pack = RulePack::compile(lang, &rules).unwrap();
    let configs = pack.configs();
    let mut cost = vec![Duration::ZERO; configs.len()];
    let mut hits = vec![0usize; configs.len()];
    let mut parse = Duration::ZERO;
    let mut walk = Duration::ZERO;
    for file in &files {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        let t = Instant::now();
        let root = AstGrep::doc(StrDoc::try_new(&text, lang.ast_grep()).unwrap());
        parse += t.elapsed();
        let t = Instant::now();
        let mut by_kind: Vec<Vec<_>> = vec![Vec::new(); 65536];
        for node in root.root().dfs() {
            by_kind[node.kind_id() as usize].push(node);
        }
        walk += t.elapsed();
        for (i, rule) in configs.iter().enumerate() {
            let kinds = rule.matcher.potential_kinds().unwrap();
            let t = cpu();
            for kind in kinds.iter() {
                for node in &by_kind[kind] {
                    if rule.matcher.match_node(node.clone()).is_some() {
                        hits[i] += 1;
                    }
                }
            }
            cost[i] += t.elapsed();
        }
    }
    let mut order: Vec<usize> = (0..configs.len()).collect();
    order.sort_by_key(|i| std::cmp::Reverse(cost[*i]));
    let total: Duration = cost.iter().sum();
    println!("parse {:?} dfs {:?} rules {:?}", parse, walk, total);
    for i in order.iter().take(40) {
        println!(
            "{:>8.3}s {:>6} {}",
            cost[*i].as_secs_f64(),
            hits[*i],
            configs[*i].id
        );
    }
}
