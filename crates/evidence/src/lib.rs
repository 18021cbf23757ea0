//! Evidence from an incident, read into one list of observations, and set beside the model.
//!
//! `read` detects the format by content and hands the text to one reader:
//!
//! - `watch`: `kubectl get pods -w` transcripts (with or without `--output-watch-events`; AGE is
//!   the only clock, relative to the pod's creation);
//! - `events`: `kubectl get events -o json|yaml` (a `List` of `Event`, or the EventLists of
//!   `kubectl cluster-info dump`);
//! - `audit`: API server audit log lines (`audit.k8s.io/v1` `Event`, one JSON object a line);
//! - `klog`: the kubelet's journal or klog lines (`I1201 10:00:00.123456 1234 file.go:1] "msg"`,
//!   with or without journald's `Mon DD HH:MM:SS host kubelet[pid]:` prefix; `klog_says`: what
//!   each message says);
//! - `pod`: `kubectl get pod(s) -o yaml|json` (a Pod, a `List`, nodes too, or a pasted `status:`
//!   block): a snapshot, so each condition's last transition only;
//! - `nodes_table`: `kubectl get nodes` (`-o wide`, `-w`, kubectl's older columns as data): each
//!   node's STATUS, kubelet VERSION and runtime; changes between printings.
//!
//! Every reader gives [`Obs`]ervations (what changed, for which pod, when, written by whom, on
//! which line) and the lines it did not understand, each with its line number. Bad input is a
//! [`ReadError`] with a line number, never a panic. `explain` (in `explain/`) compares the
//! observed per-pod sequences with the model's runs under every release profile and every
//! real-bug preset, and ranks them.

mod around;
mod audit;
pub mod beside;
mod describe;
mod dispatch;
mod e2e;
mod event_row;
mod events;
mod events_table;
pub mod explain;
mod klog;
mod klog_line;
mod klog_says;
mod kured;
mod node_conditions;
mod nodes_table;
mod npd;
pub mod observed;
mod other_words;
mod pod;
pub mod reasons;
mod runtime_log;
mod sections;
pub mod time;
pub mod types;
mod unit_status;
mod watch;

pub use dispatch::{align_years, detect, merge, read};
pub use types::{ContainerSnap, Evidence, Format, Obs, ReadError, Unread, What};
