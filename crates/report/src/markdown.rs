//! The CLI's `--format markdown`: the scenario line and the metrics of the text table
//! ([`crate::table`]) as a GitHub markdown table, for an issue or a KEP comment. Called by
//! `restartscope simulate` (crates/cli).

use crate::table::{header, metric_cells};
use restartscope_sim::{Scenario, Trace};

/// A cell with `|` escaped.
fn cell(s: &str) -> String {
    s.replace('|', "\\|")
}

/// The header (name in bold, the settings line) and one table row per metric, a column per run
/// and the difference when there are two.
pub fn render(sc: &Scenario, traces: &[Trace]) -> String {
    let head = header(sc);
    let mut lines = head.lines();
    let mut s = format!("**{}**\n\n", cell(lines.next().unwrap_or("")));
    for l in lines {
        s.push_str(l);
        s.push_str("\n\n");
    }
    let (heads, rows) = metric_cells(traces);
    s.push_str("| metric |");
    for h in &heads {
        s.push_str(&format!(" {} |", cell(h)));
    }
    s.push_str("\n|---|");
    s.push_str(&"---:|".repeat(heads.len()));
    s.push('\n');
    for row in &rows {
        s.push('|');
        for i in 0..=heads.len() {
            s.push_str(&format!(
                " {} |",
                row.get(i).map_or(String::new(), |c| cell(c))
            ));
        }
        s.push('\n');
    }
    if let Some(n) = crate::table::gates_note(traces) {
        s.push_str(&format!("\n{}\n", cell(&n)));
    }
    s
}
