//! Every real paste under `tests/data/pastes/` as `restartscope replay` would take it: read or
//! refused, its format, its observations, and the answer (the restart or bug named, its
//! strength), beside the file's "what happened" line, so a reader can check each one by eye.
//!
//! `cargo run -p restartscope-evidence --example pastes` (one paste: give its number, `-- 04`;
//! `-v` lists each observation too).

use restartscope_evidence::explain::{answer, candidates, explain_for};
use restartscope_evidence::read;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let verbose = args.iter().any(|a| a == "-v");
    let only: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    let dir = format!("{}/tests/data/pastes", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|f| f.path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let (mut read_ok, mut all) = (0, 0);
    for p in files {
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if !only.is_empty() && !only.iter().any(|o| name.starts_with(o.as_str())) {
            continue;
        }
        all += 1;
        let text = std::fs::read_to_string(&p).unwrap();
        let happened = text
            .lines()
            .nth(1)
            .unwrap_or("")
            .trim_start_matches("# what happened:")
            .trim();
        println!("== {name}");
        println!("   happened: {}", cut(happened, 220));
        match read(&text, 0) {
            Err(e) => println!("   REFUSED line {}: {}", e.line, cut(&e.message, 220)),
            Ok(ev) => {
                read_ok += 1;
                let c = candidates(&ev.obs, None, None);
                let v = explain_for(&ev.obs, &c, None);
                let a = answer(&ev.obs, v, None).0;
                println!(
                    "   read as {}: {} obs, {} unread, {} skipped",
                    ev.format.as_str(),
                    ev.obs.len(),
                    ev.unread.len(),
                    ev.skipped
                );
                println!("   answer: {} [{}]", a.short(), a.strength);
                if verbose {
                    for o in &ev.obs {
                        println!(
                            "     line {:>3} {:?} {:?}: {}",
                            o.line,
                            o.pod,
                            o.node,
                            o.what.text()
                        );
                    }
                    for u in &ev.unread {
                        println!(
                            "     unread {:>3}: {} ({})",
                            u.line,
                            u.why,
                            cut(&u.text, 80)
                        );
                    }
                    for n in &ev.notes {
                        println!("     note: {}", cut(n, 160));
                    }
                    for r in &a.reasons {
                        println!("     why: {}", cut(r, 200));
                    }
                }
            }
        }
    }
    println!("read {read_ok} of {all}");
}

fn cut(s: &str, n: usize) -> String {
    match s.char_indices().nth(n) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}
