//! The core alone over a list of files, for profiling and timing without Python:
//! `cargo run --release --example core_time -- RULES.json FILES.json [JOBS [LANGUAGE]]`
//! (RULES.json: a JSON list of rule texts; FILES.json: a JSON list of paths; LANGUAGE:
//! python by default). Prints the process CPU seconds and the xxh3 digest of every outcome
//! (to check that a change keeps them).
use _core::analyze::{Analyzer, Input, Settings};
use _core::lang::by_name;
use _core::rules::RulePack;
use std::time::Instant;

#[allow(unsafe_code, reason = "reads the process's CPU time")]
fn cpu_seconds() -> f64 {
    // SAFETY: rusage is plain integers, for which all zeroes is a value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage writes one rusage into the struct it is given.
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let read = |path: &str| std::fs::read_to_string(path).expect("readable");
    let rules: Vec<String> = serde_json::from_str(&read(&args[1])).expect("rule list");
    let files: Vec<String> = serde_json::from_str(&read(&args[2])).expect("path list");
    let jobs = args.get(3).map_or(1, |j| j.parse().expect("a number"));
    _core::use_one_allocator();
    let lang = by_name(args.get(4).map_or("python", String::as_str)).expect("a language");
    let pack = RulePack::compile(lang, &rules).expect("rules compile");
    let analyzer = Analyzer::new(lang, Some(&pack), Settings::default());
    let inputs: Vec<Input> = files.iter().map(|f| Input::Path(f.into())).collect();
    let (wall, cpu) = (Instant::now(), cpu_seconds());
    let outcomes = analyzer.batch(&inputs, jobs);
    let (wall, cpu) = (wall.elapsed().as_secs_f64(), cpu_seconds() - cpu);
    let digest = xxhash_rust::xxh3::xxh3_128(format!("{outcomes:?}").as_bytes());
    println!(
        "wall {wall:.3} cpu {cpu:.3} outcomes {} digest {digest:032x}",
        outcomes.len()
    );
}
