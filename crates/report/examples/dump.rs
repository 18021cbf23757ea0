//! `cargo run -p restartscope-report --example dump -- PRESET`: the notable events of both
//! policies, one line each (time, rule, words).

use restartscope_report::{describe, notable};
use restartscope_sim::{compare, presets};

fn main() {
    let name = std::env::args().nth(1).unwrap_or("short-restart".into());
    let Some(p) = presets::find(&name) else {
        eprintln!(
            "unknown preset {name:?}; accepted: {}",
            presets::names().join(", ")
        );
        std::process::exit(2);
    };
    for tr in compare(&(p.build)()).expect("presets are valid") {
        println!("== {:?} {:?}", tr.policy, tr.metrics);
        for (_, e) in notable::events(&tr) {
            println!(
                "{:>8.3} {:<4} {}",
                e.t as f64 / 1000.0,
                e.rule.id(),
                describe(&tr, e)
            );
        }
    }
}
