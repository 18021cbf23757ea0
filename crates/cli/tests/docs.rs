//! docs/CLI.md documents every rule id and every event kind the JSON can contain.

use restartscope_sim::Rule;

#[test]
fn cli_doc_lists_every_rule_id() {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/CLI.md")).unwrap();
    for r in Rule::ALL {
        assert!(
            doc.contains(&format!("| `{}` | {} |", r.id(), r.title())),
            "docs/CLI.md lacks the row for rule {} ({})",
            r.id(),
            r.title()
        );
    }
}
