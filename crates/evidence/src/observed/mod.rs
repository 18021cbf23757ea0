//! "Your incident beside the model": the evidence's Ready sequences put on a model
//! run's time axis (`align`), as per-pod lanes of plain data (`lanes`: the figure draws them
//! without knowing this crate), and the differences from the run(s) in words (`differences`).
//!
//! Clocks. The model's run starts at 0 with the kubelet stopped at `restarts[0].0` and started
//! at `restarts[0].1` (the evidence's downtime when it shows one: `explain::candidates`). Each
//! file is shifted onto that axis by the first anchor it has:
//!
//! 1. the kubelet's stop (systemd's "Stopping kubelet"), at the model's stop;
//! 2. the kubelet's start ("Starting kubelet", the first klog line of a run), at the model's start;
//! 3. the longest gap between lease renewals (over 15 s): the stop one renew interval (10 s) after
//!    the last renewal before it, as `explain::observed_downtime_s` reads the gap;
//! 4. another file's anchor, when both clocks are wall clocks of the same kind (audit and events:
//!    since the epoch; klog: since the start of the year);
//! 5. none: the first observed Ready change at the model's first Ready change of that pod after
//!    the kubelet's stop; per pod when the times are relative (kubectl AGE counts from each pod's
//!    creation), so such a lane's position says nothing about when the change happened, only how
//!    its changes are spaced;
//! 6. nothing to align by: the first observation at the model's kubelet stop.
//!
//! Differences. Per pod, each observed Ready change is matched with the nearest model write of
//! the same value within the tolerance of `explain` (`explain::tolerance_ms`: the pod's longest
//! probe period + one node lifecycle controller pass + the source's resolution); model writes in
//! the observed window that nothing matched are listed as not observed; a pod of the evidence
//! that the run does not have is listed as such, never dropped.
//!
//! Modules: `align` (the clocks: `Shift`, `Alignment`, the caption's sentence), `lanes` (the
//! observed Ready steps per pod on the model's axis), `differences` (the runs beside the lanes,
//! in words and as data). Called by the CLI's `replay` (its table, its SVG's observed lanes and
//! its JSON). Mirrors no Kubernetes file.

mod align;
mod differences;
mod lanes;

pub use align::{align, Alignment, Shift};
pub use differences::{differences, Difference, PodDifferences, Run, RunSays};
pub use lanes::{lanes, Lane, Step};
