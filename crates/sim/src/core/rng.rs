//! Keyed random draws. A draw is a splitmix64 hash of (seed, purpose, node, object, restart
//! number), never a stream: it does not depend on what else happened, so two runs that differ
//! only in the kubelet profile see exactly the same jitter, node by node.

use super::NodeId;

/// What a draw is for (part of the key).
#[derive(Clone, Copy, Debug)]
pub enum Purpose {
    /// Phase of a node's lease renewals.
    Lease = 1,
    /// Phase of the node lifecycle controller's passes.
    Nlc = 2,
    /// Phase of a probe worker's ticker in the steady state before the story starts.
    ProbePhase = 3,
    /// `worker.run`'s initial sleep after a kubelet start.
    WorkerJitter = 4,
    /// The lease controller's `JitterUntil` (factor 0.04, sliding) between renewals.
    LeaseJitter = 5,
    /// Phase of the PLEG's 1 s relist loop in a kubelet process.
    PlegPhase = 6,
    /// Phase of the node lifecycle controller's 100 ms tainting pass.
    TaintingPhase = 7,
}

/// splitmix64 finaliser.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A uniform draw in [0, 1). The node id shares the first key word with the purpose (node 0
/// gives the single-node model's historical draws).
pub fn draw(seed: u64, purpose: Purpose, node: NodeId, key: [u64; 3]) -> f64 {
    draw_rest(prefix(seed, purpose, node, key[0]), key[1], key[2])
}

/// The part of a draw's hash that the first key word fixes, for many draws that differ only in
/// the other two (`draw(s, p, n, [a, b, c]) == draw_rest(prefix(s, p, n, a), b, c)`).
pub fn prefix(seed: u64, purpose: Purpose, node: NodeId, first: u64) -> u64 {
    let h = mix(seed);
    let h = mix(h ^ (purpose as u64 | ((node as u64) << 16)));
    mix(h ^ first)
}

/// The draw from a `prefix` and the last two key words.
pub fn draw_rest(prefix: u64, second: u64, third: u64) -> f64 {
    let h = mix(mix(prefix ^ second) ^ third);
    (h >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn draws_are_keyed_by_node() {
        let a = draw(7, Purpose::Lease, 0, [0, 0, 0]);
        let b = draw(7, Purpose::Lease, 1, [0, 0, 0]);
        assert_ne!(a, b);
        assert_eq!(a, draw(7, Purpose::Lease, 0, [0, 0, 0]));
        assert!((0.0..1.0).contains(&a));
        let p = prefix(7, Purpose::LeaseJitter, 3, 99);
        assert_eq!(
            draw_rest(p, 4, 0),
            draw(7, Purpose::LeaseJitter, 3, [99, 4, 0])
        );
    }
}
