use restartscope_sim::*;
fn main() {
    let name = std::env::args().nth(1).unwrap_or("short-restart".into());
    let sc = (presets::find(&name).unwrap().build)();
    for tr in compare(&sc).unwrap() {
        println!("== {:?} {:?}", tr.policy, tr.metrics);
        for e in tr.notable() {
            println!(
                "{:>8.3} {:<4} {}",
                e.t as f64 / 1000.0,
                e.rule.id(),
                tr.describe(e)
            );
        }
    }
}
