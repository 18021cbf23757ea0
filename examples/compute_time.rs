fn main() {
    for p in restartscope_sim::presets::PRESETS {
        let s = restartscope::form::Settings::for_preset(p.name);
        let t = std::time::Instant::now();
        let n = 50;
        let mut len = 0;
        for _ in 0..n {
            let r = restartscope::app::compute(&s).unwrap();
            len = r.svg.len();
        }
        println!(
            "{:<28} {:>8.3} ms  svg {} bytes",
            p.name,
            t.elapsed().as_secs_f64() * 1000.0 / n as f64,
            len
        );
    }
}
