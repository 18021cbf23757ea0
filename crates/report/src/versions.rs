//! `restartscope versions`: the kubelet profile lines (what differs, the source), every
//! release the model knows (release → profile, date, backports and notes), and each minor's
//! `ChangeContainerStatusOnKubeletRestart` stage and end of support. Data from
//! `restartscope_sim::releases` and `profile::VERSIONS`.

use restartscope_sim::releases::{MINORS, RELEASES};
use restartscope_sim::{fmt_secs, KubeVersion, VERSIONS};

/// The three tables as text.
pub fn text() -> String {
    let mut out = String::from(
        "Kubelet profiles (each release runs one; a release's default kubelet is marked *)\n\
         profile  kubelets                      grace  what differs (source)\n",
    );
    for v in VERSIONS.iter() {
        let kubelets = if v.version.has_kep_4781() {
            "KEP-4781*, legacy (gate=true)"
        } else {
            "legacy*"
        };
        out.push_str(&format!(
            "{:<8} {:<29} {:<6} {} ({})\n",
            v.version.as_str(),
            kubelets,
            fmt_secs(v.version.default_grace_s()),
            v.differs,
            v.source
        ));
    }
    out.push_str("\nReleases (--kubernetes-version, ?version=, cluster.version accept each; vX.Y.Z and X.Y.0 too)\nrelease  date        profile  notes\n");
    for v in KubeVersion::releases() {
        let r = v.release();
        let date = if r.date.is_empty() { "-" } else { r.date };
        let mark = if r.released || r.name == "main" {
            ""
        } else {
            "not verified as released: "
        };
        let note = if r.note.is_empty() && mark.is_empty() {
            String::new()
        } else {
            format!("{mark}{}", r.note)
        };
        out.push_str(
            format!(
                "{:<8} {:<11} {:<8} {}\n",
                r.name,
                date,
                v.profile().as_str(),
                note
            )
            .trim_end(),
        );
        out.push('\n');
    }
    out.push_str("\nMinor releases\nminor  ChangeContainerStatusOnKubeletRestart                          end of support\n");
    for m in MINORS.iter() {
        out.push_str(&format!(
            "{:<6} {:<62} {}\n",
            m.minor, m.gate, m.end_of_support
        ));
    }
    out.push_str(&format!(
        "\n{} releases. Sources: docs/research/patch-releases.md, versions.md.\n",
        RELEASES.len()
    ));
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn lists_every_release_with_its_profile() {
        let t = super::text();
        assert!(t.contains("1.36.4   2026-08-11  1.36"), "{t}");
        assert!(t.contains("1.35.9   2026-09-15  1.35.4"), "{t}");
        assert!(
            t.contains("1.38     2026-12-16  1.38     not verified as released"),
            "{t}"
        );
        assert!(t.contains("Deprecated, default false"), "{t}");
    }
}
