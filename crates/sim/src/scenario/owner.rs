//! The workload that made a pod ([`Owner`]: what `Pod::workload_name` groups pods by, what the
//! CLI's `--probe W/C` and the app's probe table name) and the names its controller gives the
//! pods it creates, which the import and `Scenario::with_pods` both use:
//!
//! - a StatefulSet's pods by ordinal, `db-0`, `db-1` (`pkg/controller/statefulset`
//!   `getPodName`: `<set>-<ordinal>`);
//! - the others by `generateName` plus 5 characters (`pkg/controller/controller_utils.go`
//!   `getPodsPrefix`: `<controller>-`; the API server's `names.SimpleNameGenerator` appends
//!   `utilrand.String(5)`, from `k8s.io/apimachinery/pkg/util/rand`'s alphabet): a
//!   ReplicaSet's, ReplicationController's, DaemonSet's or Job's `<name>-<5>`
//!   (`node-exporter-6nhns`); a Deployment's are its ReplicaSet's, and the ReplicaSet is named
//!   `<deployment>-<pod-template-hash>` (`pkg/controller/deployment/sync.go`
//!   `getNewReplicaSet`; the hash is `controller.ComputeHash` of the template, written with
//!   `rand.SafeEncodeString`), so `web-688597-w57c9`; a CronJob's are its Job's, and the Job is
//!   named `<cronjob>-<scheduled time in minutes>` (`pkg/controller/cronjob/utils.go`
//!   `getJobName`), so `report-29952972-rh9h9`.
//!
//! Kubernetes draws the random parts; here they are a stable hash of the workload's name and the
//! pod's index, so the same manifests give the same names at every import, natively and in
//! wasm. The pod-template-hash is shortened to 6 characters and hashes the Deployment's name,
//! not its template: the names stay short to read, and a copy `with_pods` makes gets its
//! ReplicaSet's name from the owner alone. A name already in use is drawn again, as the API
//! server retries a generated name that exists (its `RetryGenerateName` feature).

/// The kinds of workload whose controller creates pods, by their Kubernetes `kind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OwnerKind {
    Deployment,
    ReplicaSet,
    ReplicationController,
    StatefulSet,
    DaemonSet,
    Job,
    CronJob,
}

impl OwnerKind {
    pub const ALL: [OwnerKind; 7] = [
        OwnerKind::Deployment,
        OwnerKind::ReplicaSet,
        OwnerKind::ReplicationController,
        OwnerKind::StatefulSet,
        OwnerKind::DaemonSet,
        OwnerKind::Job,
        OwnerKind::CronJob,
    ];
    /// The Kubernetes `kind`: `Deployment`.
    pub fn as_str(self) -> &'static str {
        match self {
            OwnerKind::Deployment => "Deployment",
            OwnerKind::ReplicaSet => "ReplicaSet",
            OwnerKind::ReplicationController => "ReplicationController",
            OwnerKind::StatefulSet => "StatefulSet",
            OwnerKind::DaemonSet => "DaemonSet",
            OwnerKind::Job => "Job",
            OwnerKind::CronJob => "CronJob",
        }
    }
    /// `Deployment` → [`OwnerKind::Deployment`]; `None` for a kind that creates no pods (`Pod`).
    pub fn from_kind(kind: &str) -> Option<OwnerKind> {
        Self::ALL.into_iter().find(|k| k.as_str() == kind)
    }
}

impl std::fmt::Display for OwnerKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The workload a pod belongs to: the object at the top of its `metadata.ownerReferences`
/// chain (a Deployment's pod → its ReplicaSet → the Deployment; a CronJob's → its Job → the
/// CronJob). A scenario writes it `KIND/NAME`, as `kubectl` takes it: `owner = "Deployment/web"`
/// (`Pod::owner`, a plain string: a line per pod in a scenario file, and no reader of its own
/// in the page's code); `Pod::owned_by` reads it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Owner {
    pub kind: OwnerKind,
    /// The workload's `metadata.name`.
    pub name: String,
}

/// The kinds `Pod::owner` takes, for messages.
pub const OWNER_KINDS: &str =
    "Deployment, ReplicaSet, ReplicationController, StatefulSet, DaemonSet, Job, CronJob";

impl std::fmt::Display for Owner {
    /// `Deployment/web`, as `Pod::owner` holds it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.kind.as_str())?;
        f.write_str("/")?;
        f.write_str(&self.name)
    }
}

impl Owner {
    /// `Deployment/web`; `None` when the kind is not one of [`OwnerKind::ALL`] or the name is
    /// empty (the name's own rule, a DNS-1123 subdomain, so no `/`, is validation's).
    pub fn parse(s: &str) -> Option<Owner> {
        let (kind, name) = s.split_once('/')?;
        let kind = OwnerKind::from_kind(kind)?;
        (!name.is_empty()).then(|| Owner::new(kind, name))
    }
}

/// `k8s.io/apimachinery/pkg/util/rand`'s `alphanums`: no vowels and no `0`, `1`, `3`, so no
/// words and no look-alikes.
const ALPHANUMS: &[u8; 27] = b"bcdfghjklmnpqrstvwxz2456789";

/// `names.SimpleNameGenerator`'s `maxGeneratedNameLength`: 63 less the 5 random characters; a
/// longer `generateName` is cut to it.
const MAX_GENERATED_NAME_LENGTH: usize = 58;

/// A minute of 2026 (1 January, 00:00 UTC, in minutes since 1970), the first a CronJob's Job
/// is named by here.
const MINUTE_2026: u64 = 29_453_760;

/// A stable hash of the parts (FNV-1a, then SplitMix64's finalizer to spread it over every
/// bit): the same on every platform, 32-bit wasm included.
fn stable_hash(parts: &[&[u8]]) -> u64 {
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for &b in *p {
            h = (h ^ u64::from(b)).wrapping_mul(PRIME);
        }
        // A separator: `("ab", "c")` and `("a", "bc")` differ.
        h = (h ^ 0xff).wrapping_mul(PRIME);
    }
    h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ (h >> 31)
}

/// The last `N` decimal digits of `n` (ASCII, zero-padded).
fn digits<const N: usize>(mut n: u64) -> [u8; N] {
    let mut out = [b'0'; N];
    for d in out.iter_mut().rev() {
        *d = b'0' + (n % 10) as u8;
        n /= 10;
    }
    out
}

/// `s` cut to at most `max` bytes, at a character boundary.
fn cut(mut s: String, max: usize) -> String {
    let mut end = s.len().min(max);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s.truncate(end);
    s
}

impl Owner {
    pub fn new(kind: OwnerKind, name: impl Into<String>) -> Owner {
        Owner {
            kind,
            name: name.into(),
        }
    }

    /// A Deployment's pod-template-hash as the Deployment controller writes one
    /// (`rand.SafeEncodeString` of a hash's decimal digits: each digit byte becomes
    /// `ALPHANUMS[byte % 27]`, so only `4`–`9`, `b`, `c`, `d`, `f`): 6 of them here, of the
    /// Deployment's name (Kubernetes: up to 10, of the pod template, `5d59d67564`).
    pub fn pod_template_hash(&self) -> String {
        digits::<6>(stable_hash(&[self.name.as_bytes()]))
            .iter()
            .map(|&b| ALPHANUMS[usize::from(b) % ALPHANUMS.len()] as char)
            .collect()
    }

    /// The `generateName` of the pods its controller creates (cut to
    /// `maxGeneratedNameLength`); `None` for a StatefulSet, which names them by ordinal.
    pub fn generate_name(&self) -> Option<String> {
        let mut prefix = format!("{}-", self.name);
        match self.kind {
            OwnerKind::StatefulSet => return None,
            // Its ReplicaSet's pods.
            OwnerKind::Deployment => prefix.push_str(&self.pod_template_hash()),
            // Its Job's pods, the Job named by a scheduled minute.
            OwnerKind::CronJob => {
                let minute = MINUTE_2026 + stable_hash(&[self.name.as_bytes()]) % 525_600;
                prefix.extend(digits::<8>(minute).map(char::from));
            }
            _ => return Some(cut(prefix, MAX_GENERATED_NAME_LENGTH)),
        }
        prefix.push('-');
        Some(cut(prefix, MAX_GENERATED_NAME_LENGTH))
    }

    /// The names of `n` pods its controller creates, the `from`-th on (the pods it already has
    /// on the node: the import starts at 0, `with_pods` at the owner's pods in the scenario), none
    /// of them in `used`; each is added to `used`. A StatefulSet's take the lowest ordinals not in
    /// use (the controller creates each missing ordinal); the others' random part is drawn from a
    /// hash of the `generateName` and the pod's index, again while the name is in use.
    pub fn pod_names(&self, from: usize, n: usize, used: &mut Vec<String>) -> Vec<String> {
        let mut names = Vec::with_capacity(n);
        let Some(base) = self.generate_name() else {
            let mut ordinal = 0u64;
            while names.len() < n {
                let name = format!("{}-{ordinal}", self.name);
                ordinal += 1;
                if !used.contains(&name) {
                    used.push(name.clone());
                    names.push(name);
                }
            }
            return names;
        };
        for i in from..from + n {
            // u64: the same names on 32-bit wasm as natively.
            let index = (i as u64).to_le_bytes();
            for attempt in 0u32.. {
                let mut h = stable_hash(&[base.as_bytes(), &index, &attempt.to_le_bytes()]);
                let mut name = base.clone();
                for _ in 0..5 {
                    name.push(ALPHANUMS[(h % 27) as usize] as char);
                    h /= 27;
                }
                if !used.contains(&name) {
                    used.push(name.clone());
                    names.push(name);
                    break;
                }
            }
        }
        names
    }
}
